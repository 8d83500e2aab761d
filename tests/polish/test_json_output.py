"""`-o json` of every command, run for real, validates against its documented schema (docs/json)."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import KRAFT_FIXTURES, CliResult, invoke
from tests.polish.schema_check import SchemaError, errors

REPO = Path(__file__).resolve().parents[2]
DOCS = REPO / "docs" / "json"
FIXTURE_LOG_DIR = KRAFT_FIXTURES / "induswargods-local-test-rig" / "kafka-data"
TOPIC = "sandbox-topic-00000"
OTHER = "sandbox-topic-00001"


def schema(command: str) -> dict[str, Any]:
    return json.loads((DOCS / "schemas" / f"{command.replace(' ', '-')}.json").read_text(encoding="utf-8"))


def assert_valid(command: str, result: CliResult) -> Any:
    """The run succeeded, printed only JSON on stdout, and the JSON matches `command`'s schema."""
    assert result.code == 0, result.stderr
    assert "\x1b[" not in result.stdout + result.stderr
    value = result.json
    problems = errors(value, schema(command))
    assert problems == [], "\n".join(problems)
    return value


# ------------------------------------------------------------------ the schemas themselves


def _generator() -> Any:
    sys.path.insert(0, str(DOCS))
    try:
        import generate

        return generate
    finally:
        sys.path.remove(str(DOCS))


def test_generated_schemas_and_pages_are_up_to_date() -> None:
    stale = [
        str(path.relative_to(REPO))
        for path, text in _generator().render_all().items()
        if not path.exists() or path.read_text(encoding="utf-8") != text
    ]
    assert stale == [], "run python docs/json/generate.py"


def test_every_command_with_json_output_is_documented() -> None:
    import typer

    from kcli.cli.docgen import walk
    from kcli.cli.main import app

    with_json = {
        " ".join(doc.path[1:])
        for doc in walk(typer.main.get_command(app))
        if any("--output" in getattr(p, "opts", ()) for p in doc.command.params)
    }
    documented = {path.stem.replace("-", " ") for path in (DOCS / "schemas").glob("*.json")}
    documented = {p for p in documented if p in {c.replace("-", " ") for c in with_json}}
    assert {c.replace("-", " ") for c in with_json} == documented


def test_validator_rejects_what_the_schemas_forbid() -> None:
    cluster_id = schema("cluster-id")
    good = {"cluster_id": "abc", "controller_id": 1, "endpoint_type": "brokers"}
    assert errors(good, cluster_id) == []
    assert errors({**good, "extra": 1}, cluster_id) == ["$: undocumented key 'extra'"]
    assert errors({"cluster_id": "abc", "endpoint_type": "brokers"}, cluster_id) == [
        "$: missing key 'controller_id'"
    ]
    assert errors({**good, "controller_id": "1"}, cluster_id) == [
        "$.controller_id: expected integer or null, got string"
    ]
    assert errors({**good, "endpoint_type": "broker"}, cluster_id)[0].startswith("$.endpoint_type: 'broker'")
    assert errors({**good, "controller_id": True}, cluster_id) != []
    with pytest.raises(SchemaError):
        errors(1, {"type": "integer", "minimum": 0})


# ------------------------------------------------------------------ real runs against a sandbox


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """A sandbox with an authorizer (for acls) and two 3-partition topics, for this module."""
    from kcli.sandbox.emulator.handle import Sandbox

    with Sandbox(
        directory=tmp_path_factory.mktemp("json-sandbox"), authorizer=True, topics=2, partitions=3
    ) as sb:
        yield sb


def _b(sb: Any) -> list[str]:
    return ["-b", sb.bootstrap_servers]


def _c(sb: Any) -> list[str]:
    return ["-C", sb.bootstrap_controllers]


CASES: list[tuple[str, Callable[[Any], list[str]]]] = [
    ("cluster-id", lambda sb: ["cluster-id", *_b(sb)]),
    ("cluster-id", lambda sb: ["cluster-id", *_c(sb)]),
    ("cluster cluster-id", lambda sb: ["cluster", "cluster-id", *_b(sb)]),
    ("cluster api-versions", lambda sb: ["cluster", "api-versions", *_b(sb)]),
    ("cluster api-versions", lambda sb: ["cluster", "api-versions", *_c(sb)]),
    ("cluster list-endpoints", lambda sb: ["cluster", "list-endpoints", *_b(sb)]),
    ("cluster list-endpoints", lambda sb: ["cluster", "list-endpoints", *_c(sb)]),
    ("cluster doctor", lambda sb: ["cluster", "doctor", *_b(sb)]),
    ("cluster doctor", lambda sb: ["cluster", "doctor", *_c(sb)]),
    (
        "configs",
        lambda sb: ["configs", *_b(sb), "--alter", "--topic", TOPIC, "--add-config", "retention.ms=1000"],
    ),
    (
        "configs",
        lambda sb: [
            "configs",
            *_b(sb),
            "--alter",
            "--topic",
            TOPIC,
            "--delete-config",
            "retention.ms",
            "--dry-run",
        ],
    ),
    ("configs", lambda sb: ["configs", *_b(sb), "--describe", "--topic", TOPIC]),
    (
        "configs",
        lambda sb: [
            "configs",
            *_b(sb),
            "--describe",
            "--entity-type",
            "brokers",
            "--entity-name",
            "1",
            "--all",
        ],
    ),
    ("configs", lambda sb: ["configs", *_b(sb), "--describe", "--topic", "no-such-topic"]),
    (
        "configs",
        lambda sb: [
            "configs",
            *_b(sb),
            "--alter",
            "--entity-type",
            "users",
            "--entity-name",
            "alice",
            "--add-config",
            "producer_byte_rate=1024",
        ],
    ),
    ("configs", lambda sb: ["configs", *_b(sb), "--describe", "--entity-type", "users"]),
    (
        "configs",
        lambda sb: [
            "configs",
            *_b(sb),
            "--diff",
            "--entity-type",
            "topics",
            "--entity-name",
            TOPIC,
            "--entity-name",
            OTHER,
        ],
    ),
    (
        "acls",
        lambda sb: [
            "acls",
            *_b(sb),
            "--add",
            "--allow-principal",
            "User:json",
            "--operation",
            "Read",
            "--topic",
            TOPIC,
        ],
    ),
    (
        "acls",
        lambda sb: [
            "acls",
            *_b(sb),
            "--add",
            "--producer",
            "--allow-principal",
            "User:json",
            "--topic",
            "t",
            "--dry-run",
        ],
    ),
    ("acls", lambda sb: ["acls", *_b(sb), "--list"]),
    (
        "acls",
        lambda sb: [
            "acls",
            *_b(sb),
            "--remove",
            "--allow-principal",
            "User:json",
            "--operation",
            "Read",
            "--topic",
            TOPIC,
            "--force",
        ],
    ),
    ("features describe", lambda sb: ["features", "describe", *_b(sb)]),
    ("features describe", lambda sb: ["features", "describe", *_c(sb), "--node-id", "101"]),
    (
        "features upgrade",
        lambda sb: ["features", "upgrade", *_b(sb), "--feature", "share.version=2", "--dry-run"],
    ),
    (
        "features downgrade",
        lambda sb: ["features", "downgrade", *_b(sb), "--feature", "transaction.version=1", "--dry-run"],
    ),
    (
        "features disable",
        lambda sb: ["features", "disable", *_b(sb), "--feature", "group.version", "--dry-run"],
    ),
    ("features version-mapping", lambda sb: ["features", "version-mapping", "--release-version", "3.9-IV0"]),
    (
        "features feature-dependencies",
        lambda sb: [
            "features",
            "feature-dependencies",
            "--feature",
            "transaction.version=2",
            "--feature",
            "metadata.version=21",
        ],
    ),
    ("metadata-quorum describe", lambda sb: ["metadata-quorum", "describe", *_b(sb), "--status"]),
    ("metadata-quorum describe", lambda sb: ["metadata-quorum", "describe", *_c(sb), "--replication"]),
    (
        "metadata-quorum describe",
        lambda sb: ["metadata-quorum", "describe", *_c(sb), "--replication", "--human-readable"],
    ),
    ("reassign-partitions", lambda sb: ["reassign-partitions", *_b(sb), "--list"]),
    ("topics", lambda sb: ["topics", *_b(sb), "--list"]),
    ("topics", lambda sb: ["topics", *_b(sb), "--describe"]),
    ("topics", lambda sb: ["topics", *_b(sb), "--describe", "--under-replicated-partitions"]),
    (
        "topics",
        lambda sb: ["topics", *_b(sb), "--create", "--topic", "json-made", "--partitions", "2", "--dry-run"],
    ),
    (
        "topics",
        lambda sb: ["topics", *_b(sb), "--create", "--topic", "json-made", "--replica-assignment", "1:2"],
    ),
    ("topics", lambda sb: ["topics", *_b(sb), "--alter", "--topic", TOPIC, "--partitions", "5", "--dry-run"]),
    ("topics", lambda sb: ["topics", *_b(sb), "--alter", "--topic", TOPIC, "--replication-factor", "2"]),
    ("topics", lambda sb: ["topics", *_b(sb), "--delete", "--topic", "json-made"]),
    ("log-dirs", lambda sb: ["log-dirs", *_b(sb), "--describe"]),
    ("log-dirs", lambda sb: ["log-dirs", *_b(sb), "--describe", "--broker-list", "1", "--topic-list", TOPIC]),
    (
        "leader-election",
        lambda sb: [
            "leader-election",
            *_b(sb),
            "--election-type",
            "preferred",
            "--topic",
            TOPIC,
            "--partition",
            "0",
        ],
    ),
    (
        "leader-election",
        lambda sb: [
            "leader-election",
            *_b(sb),
            "--election-type",
            "preferred",
            "--all-topic-partitions",
            "--dry-run",
        ],
    ),
    ("spark rules", lambda sb: ["spark", "rules"]),
]


@pytest.mark.sandbox
@pytest.mark.parametrize(("command", "argv"), CASES, ids=[f"{i}-{c}" for i, (c, _) in enumerate(CASES)])
def test_json_output_matches_its_schema(command: str, argv: Callable[[Any], list[str]], cluster: Any) -> None:
    assert_valid(command, invoke(*argv(cluster), "-o", "json"))


@pytest.mark.sandbox
def test_acls_import_json(cluster: Any, tmp_path: Path) -> None:
    b = _b(cluster)
    assert (
        invoke(
            "acls", *b, "--add", "--allow-principal", "User:imp", "--operation", "Write", "--topic", OTHER
        ).code
        == 0
    )
    exported = tmp_path / "acls.json"
    assert invoke("acls", *b, "--export", str(exported)).code == 0
    assert (
        invoke(
            "acls",
            *b,
            "--remove",
            "--allow-principal",
            "User:imp",
            "--operation",
            "Write",
            "--topic",
            OTHER,
            "--force",
        ).code
        == 0
    )
    value = assert_valid(
        "acls", invoke("acls", *b, "--import", str(exported), "--prune", "--dry-run", "-o", "json")
    )
    assert value["dry_run"] is True and any(a["principal"] == "User:imp" for a in value["create"])


@pytest.mark.sandbox
def test_metadata_quorum_controller_changes_json(cluster: Any, tmp_path: Path) -> None:
    c = _c(cluster)
    status = assert_valid(
        "metadata-quorum describe", invoke("metadata-quorum", "describe", *c, "--status", "-o", "json")
    )
    voter = status["voters"][-1]
    removed = invoke(
        "metadata-quorum", "remove-controller", *c, "--controller-id", str(voter["id"]),
        "--controller-directory-id", voter["directory_id"], "--dry-run", "-o", "json",
    )  # fmt: skip
    assert assert_valid("metadata-quorum remove-controller", removed)["dry_run"] is True
    (tmp_path / "meta").mkdir()
    (tmp_path / "meta" / "meta.properties").write_text(
        "version=1\nnode.id=104\ncluster.id=x\ndirectory.id=pCf9UaE6QxSIBqR4u1R9Kw\n", encoding="utf-8"
    )
    properties = tmp_path / "controller.properties"
    properties.write_text(
        "node.id=104\nprocess.roles=controller\nlisteners=CONTROLLER://127.0.0.1:1\n"
        f"controller.listener.names=CONTROLLER\nmetadata.log.dir={tmp_path / 'meta'}\n",
        encoding="utf-8",
    )
    added = invoke(
        "metadata-quorum",
        "add-controller",
        *c,
        "--command-config",
        str(properties),
        "--dry-run",
        "-o",
        "json",
    )
    assert assert_valid("metadata-quorum add-controller", added)["endpoints"] == ["CONTROLLER://127.0.0.1:1"]


@pytest.mark.sandbox
def test_reassign_partitions_json(cluster: Any, tmp_path: Path) -> None:
    b = _b(cluster)
    topics = tmp_path / "topics.json"
    topics.write_text(json.dumps({"version": 1, "topics": [{"topic": OTHER}]}), encoding="utf-8")
    generated = assert_valid(
        "reassign-partitions",
        invoke(
            "reassign-partitions",
            *b,
            "--generate",
            "--topics-to-move-json-file",
            str(topics),
            "--broker-list",
            "1,2,3",
            "-o",
            "json",
        ),
    )
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps(generated["proposed"]), encoding="utf-8")
    rollback = tmp_path / "rollback.json"
    for action in (["--execute", "--rollback-file", str(rollback)], ["--verify"], ["--cancel"]):
        result = invoke(
            "reassign-partitions", *b, *action, "--reassignment-json-file", str(plan), "-o", "json"
        )
        assert_valid("reassign-partitions", result)


@pytest.mark.sandbox
def test_metadata_shell_dump_json_lines(cluster: Any) -> None:
    for directory in (FIXTURE_LOG_DIR, cluster.metadata_log_dir(101)):
        result = invoke("metadata-shell", "--directory", str(directory), "--dump", "-o", "json")
        assert result.code == 0, result.stderr
        lines = result.stdout.splitlines()
        assert lines, directory
        for line in lines:
            problems = errors(json.loads(line), schema("metadata-shell"))
            assert problems == [], "\n".join(problems)


def test_profile_json(tmp_path: Path) -> None:
    environ = {"KCLI_CONFIG": str(tmp_path / "config.toml")}
    assert invoke("profile", "add", "one", "-b", "k1:9092", "--use", environ=environ).code == 0
    assert invoke("profile", "add", "two", "--set", "security.protocol=SSL", environ=environ).code == 0
    listed = assert_valid("profile list", invoke("profile", "list", "-o", "json", environ=environ))
    assert [p["name"] for p in listed] == ["one", "two"]
    shown = assert_valid("profile show", invoke("profile", "show", "one", "-o", "json", environ=environ))
    assert shown["default"] is True


@pytest.mark.sandbox
@pytest.mark.spark
@pytest.mark.slow
def test_spark_collect_and_audit_json(cluster: Any, tmp_path: Path) -> None:
    snapshots = tmp_path / "snapshots"
    collected = assert_valid(
        "spark collect", invoke("spark", "collect", *_b(cluster), "--out", str(snapshots), "-o", "json")
    )
    assert collected[0]["cluster_id"] == cluster.cluster_id
    audited = invoke(
        "spark", "audit", "--input", str(snapshots), "--out", str(tmp_path / "findings"), "-o", "json"
    )
    assert assert_valid("spark audit", audited)["clusters"] == 1


@pytest.mark.sandbox
@pytest.mark.slow
def test_sandbox_command_json(tmp_path: Path) -> None:
    directory = tmp_path / "demo"
    environ = {"KCLI_SANDBOX_DIR": str(directory)}

    def run(*args: str) -> Any:
        return subprocess.run(
            [sys.executable, "-m", "kcli", "sandbox", *args, "-o", "json"],
            capture_output=True, text=True, timeout=120, check=False, cwd=REPO,
            env={"PATH": "/usr/bin:/bin", "NO_COLOR": "1", "PYTHONPATH": str(REPO), **environ},
        )  # fmt: skip

    started = run("up", "--detach", "--base-port", "0")
    try:
        for command, args in (
            ("sandbox up", ()),
            ("sandbox status", ("status",)),
            ("sandbox stop-node", ("stop-node", "2")),
            ("sandbox start-node", ("start-node", "2")),
            ("sandbox delay", ("delay", "1", "5")),
            ("sandbox misroute", ("misroute", "1")),
            ("sandbox failover", ("failover",)),
            ("sandbox replace-brokers", ("replace-brokers",)),
        ):
            done = started if not args else run(*args)
            assert done.returncode == 0, (command, done.stderr)
            problems = errors(json.loads(done.stdout), schema(command))
            assert problems == [], f"{command}: " + "\n".join(problems)
    finally:
        subprocess.run(
            [sys.executable, "-m", "kcli", "sandbox", "down"],
            capture_output=True, timeout=60, check=False, cwd=REPO,
            env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(REPO), **environ},
        )  # fmt: skip


@pytest.mark.sandbox
def test_cluster_unregister_json(cluster: Any) -> None:
    # last in the module: it stops broker 3 of the module's sandbox for good
    cluster.stop_node(3)
    value = assert_valid(
        "cluster unregister", invoke("cluster", "unregister", *_b(cluster), "--id", "3", "-o", "json")
    )
    assert value == {"broker_id": 3, "unregistered": True}


def test_reassign_execute_wait_json_ends_with_an_election(cluster: Any, tmp_path: Path) -> None:
    b = _b(cluster)
    assert invoke("topics", *b, "--create", "--topic", "json-moved", "--replica-assignment", "1").code == 0
    plan = tmp_path / "plan.json"
    plan.write_text(
        json.dumps(
            {"version": 1, "partitions": [{"topic": "json-moved", "partition": 0, "replicas": [2]}]}
        )
    )
    done = assert_valid(
        "reassign-partitions",
        invoke("reassign-partitions", *b, "--execute", "--reassignment-json-file", str(plan), "--wait",
               "--rollback-file", str(tmp_path / "rb.json"), "-o", "json"),
    )  # fmt: skip
    assert done["preferred_election"]["election_type"] == "PREFERRED"
