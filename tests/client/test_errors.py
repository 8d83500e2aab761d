"""Error mapping: every Kafka code has a name, retriable flag and message; KafkaError lines."""

from __future__ import annotations

import runpy
import subprocess
import sys
import zipfile
from pathlib import Path

from kio.schema.errors import ErrorCode

from kcli.client.errors import KafkaError, check, error_info, error_name


def test_every_code_from_minus_one_to_136_is_known() -> None:
    names = set()
    for code in range(-1, 137):
        info = error_info(code)
        assert info.code == code
        assert info.name and not info.name.startswith("UNKNOWN_ERROR_"), code
        assert info.message, code
        names.add(info.name)
    assert len(names) == 138


def test_names_and_retriable_flags_match_kio() -> None:
    for member in ErrorCode:
        info = error_info(int(member))
        assert info.name == member.name.upper()
        assert info.retriable == member.retriable


def test_known_names_and_hints() -> None:
    assert error_name(41) == "NOT_CONTROLLER" and error_info(41).retriable
    assert error_name(114) == "MISMATCHED_ENDPOINT_TYPE"
    assert error_name(129) == "REBOOTSTRAP_REQUIRED"
    assert error_name(136) == "CONTROLLER_ID_NOT_REGISTERED"
    assert "ACL" in (error_info(31).hint or "")
    assert error_info(999).name == "UNKNOWN_ERROR_999"


def test_kafka_error_line_names_what_where_and_next_step() -> None:
    error = KafkaError(31, None, what="DescribeConfigs", node="node 1 (h:9092)")
    assert error.line().startswith("DescribeConfigs: CLUSTER_AUTHORIZATION_FAILED on node 1 (h:9092): ")
    assert error.line().endswith(")") and "ACL" in error.line()
    assert error.code == 31 and not error.retriable
    custom = KafkaError(40, "Invalid value x for retention.ms", what="IncrementalAlterConfigs")
    assert "Invalid value x for retention.ms" in custom.line()


def test_check_raises_only_on_errors() -> None:
    check(0, None, what="x")
    try:
        check(ErrorCode.not_controller, "moved", what="CreateAcls", node="n")
    except KafkaError as error:
        assert error.name == "NOT_CONTROLLER" and error.retriable and error.node == "n"
    else:
        raise AssertionError("check(41) did not raise")


def test_protocol_api_table_matches_kio_and_classes_resolve() -> None:
    from kio.schema.index import api_key_map, schema_name_map
    from kio.static.constants import EntityType

    from kcli.client import protocol

    added = {key: facts.name for key, facts in protocol.NOT_IN_KIO.items()}  # kio-style, kcli/client/protocol
    assert dict(api_key_map) | added == protocol.API_SCHEMA_NAMES
    assert protocol.request_class("unregister_controller", 0).__api_key__ == 94
    assert protocol.api_name(60) == "DescribeCluster" and protocol.api_name(999) == "Api(999)"
    for name, versions in schema_name_map.items():
        for version in (min(versions), max(versions)):  # the layout is uniform; two versions per API suffice
            entities = versions[version]
            if EntityType.request in entities:
                expected = entities[EntityType.request].split(":")[1]
                assert protocol.request_class(name, version).__name__ == expected
                assert protocol.response_class(name, version).__name__ == expected.replace(
                    "Request", "Response"
                )
    assert protocol.request_class("DescribeCluster", 1) is protocol.request_class("describe_cluster", 1)
    assert protocol.request_class("api_versions", 5).__version__ == 5


SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "kio-data.py"


def test_the_data_files_are_what_the_installed_kio_gives() -> None:
    files = runpy.run_path(str(SCRIPT))["generate"]()
    assert sorted(path.name for path in files) == ["kafka_apis.tsv", "kafka_errors.tsv"]
    for path, text in files.items():
        assert path.read_text(encoding="utf-8") == text, f"{path.name} is stale: run scripts/kio-data.py"


def test_request_header_versions_are_kios_flexibility_for_every_version() -> None:
    from kcli.client import protocol

    for key, api in protocol.APIS.items():
        for version in range(api.lowest, api.highest + 1):
            flexible = protocol.request_class(api.name, version).__flexible__
            assert protocol.request_header_version(key, version) == (2 if flexible else 1), (key, version)
    assert protocol.request_header_version(18, 5) == 2  # kcli's ApiVersions v5 is flexible too


def test_kcli_writes_only_what_kio_lacks() -> None:
    """A code kio knows is written in kcli only to give it the message kio has not got."""
    from kcli.client import errors

    generated = runpy.run_path(str(SCRIPT))["errors_table"]()
    kio_rows = {int(line.split("\t")[0]): line.split("\t")[1:] for line in generated.splitlines()}
    for code, (name, retriable, _message) in errors._NOT_IN_KIO.items():
        if code in kio_rows:
            assert kio_rows[code] == [name, str(int(retriable)), ""], code


def test_the_error_table_loads_from_a_zipped_kcli(tmp_path: Path) -> None:
    """Spark executors import kcli from a zip (kcli.audit.shipping): the data file is read through it."""
    package = Path(__file__).resolve().parents[2] / "kcli"
    archive = tmp_path / "kcli.zip"
    with zipfile.ZipFile(archive, "w") as zipped:
        for path in package.rglob("*"):
            if path.is_file() and "__pycache__" not in path.parts:
                zipped.write(path, path.relative_to(package.parent).as_posix())
    probe = "import kcli.client.errors as e; print(e.__file__); print(e.error_info(41).name, len(e._BY_CODE))"
    done = subprocess.run(
        [sys.executable, "-S", "-c", f"import sys; sys.path.insert(0, {str(archive)!r}); {probe}"],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    where, answer = done.stdout.splitlines()
    assert where.startswith(str(archive))
    assert answer == "NOT_CONTROLLER 138"
