"""Bounded and checked inputs: every file kcli reads, numbers in its documents, client settings, doctor's auth.

Each file reader goes through kcli.files: a directory, or a FIFO nobody writes to within the input
deadline, is refused with one line and exit 2, as is a file or device giving more than its size bound (/dev/zero), while /dev/null reads as an
empty file, as Kafka's tools read it. The /dev/zero cases run kcli as a process with a deadline, so
a reader that would read forever fails the test instead of hanging it.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from kcli.files import CONFIG_LIMIT, FileRefused, read_stream
from tests.conftest import invoke

NOWHERE = ["-b", "127.0.0.1:1"]  # never dialled: every case fails before connecting
OVER_1_MIB = "gives more than the 1 MiB kcli reads for it"
OVER_64_MIB = "gives more than the 64 MiB kcli reads for it"
PROCESS_DEADLINE_S = 30


def _profile_with_file_reference(tmp_path: Path) -> dict[str, str]:
    config = tmp_path / "refs.toml"
    config.write_text(
        '[profiles.default]\n"bootstrap.servers" = "127.0.0.1:1"\n"security.protocol" = "SASL_PLAINTEXT"\n'
        '"sasl.mechanism" = "PLAIN"\n"sasl.jaas.config" = "${file:/dev/zero}"\n'
    )
    config.chmod(0o600)
    return {"KCLI_CONFIG": str(config)}


def _truststore_properties(tmp_path: Path) -> str:
    path = tmp_path / "tls.properties"
    path.write_text("security.protocol=SSL\nssl.truststore.location=/dev/zero\n")
    return str(path)


ZERO_CASES: list[tuple[str, Any, str]] = [
    (
        "--command-config",
        lambda _: ["cluster-id", *NOWHERE, "-c", "/dev/zero"],
        f"properties file /dev/zero {OVER_1_MIB}",
    ),
    (
        "--reassignment-json-file",
        lambda _: ["reassign-partitions", *NOWHERE, "--reassignment-json-file", "/dev/zero", "--execute"],
        f"reassignment JSON file /dev/zero {OVER_64_MIB}",
    ),
    (
        "--topics-to-move-json-file",
        lambda _: [
            "reassign-partitions",
            *NOWHERE,
            "--topics-to-move-json-file",
            "/dev/zero",
            "--broker-list",
            "1",
            "--generate",
        ],
        f"topics-to-move JSON file /dev/zero {OVER_64_MIB}",
    ),
    ("TOML profiles", lambda _: ["cluster-id"], f"config file /dev/zero {OVER_1_MIB}"),
    (
        "ACL import",
        lambda _: ["acls", *NOWHERE, "--import", "/dev/zero"],
        f"--import /dev/zero {OVER_64_MIB}",
    ),
    (
        "--add-config-file",
        lambda _: ["configs", *NOWHERE, "--alter", "--topic", "t", "--add-config-file", "/dev/zero"],
        f"--add-config-file /dev/zero {OVER_1_MIB}",
    ),
    (
        "rule file",
        lambda _: ["spark", "rules", "--rules", "/dev/zero"],
        f"rules file /dev/zero {OVER_1_MIB}",
    ),
    (
        "PEM truststore",
        lambda tmp: ["cluster-id", *NOWHERE, "-c", _truststore_properties(tmp)],
        "ssl.truststore.location /dev/zero gives more than the 4 MiB kcli reads for it "
        "(set by --command-config {tls})",
    ),
    (
        "${file:} secret reference",
        lambda _: ["cluster-id"],
        f"sasl.jaas.config in profile 'default' in {{refs}}: file /dev/zero {OVER_1_MIB}",
    ),
]


@pytest.mark.parametrize(("reader", "argv", "message"), ZERO_CASES, ids=[c[0] for c in ZERO_CASES])
def test_dev_zero_is_refused_at_its_bound(tmp_path: Path, reader: str, argv: Any, message: str) -> None:
    environ = {**os.environ, "NO_COLOR": "1", "KCLI_CONFIG": "/nonexistent/kcli.toml"}
    if reader == "TOML profiles":
        environ["KCLI_CONFIG"] = "/dev/zero"
    if reader.startswith("${file:}"):
        environ |= _profile_with_file_reference(tmp_path)
    result = subprocess.run(
        [sys.executable, "-m", "kcli", *argv(tmp_path)],
        capture_output=True,
        text=True,
        env=environ,
        timeout=PROCESS_DEADLINE_S,
        check=False,
    )
    expected = message.format(tls=tmp_path / "tls.properties", refs=tmp_path / "refs.toml")
    assert (result.returncode, result.stderr) == (2, f"Error: {expected}\n")


def test_dev_null_is_an_empty_command_config(tmp_path: Path) -> None:
    """`--command-config /dev/null`, a common idiom in scripts: no settings, and the command runs."""
    import asyncio

    from tests.client.kafka_double import KafkaDouble, describe_cluster_handler, serving

    double = KafkaDouble()
    double.handlers[60] = describe_cluster_handler([(1, double)], controller=1, cluster_id="null-config")

    async def scenario() -> Any:
        async with serving(double):
            return await asyncio.to_thread(
                invoke, "cluster-id", "-b", double.bootstrap, "--command-config", "/dev/null"
            )

    result = asyncio.run(scenario())
    assert (result.code, result.stdout, result.stderr) == (0, "Cluster ID: null-config\n", "")


def test_a_fifo_and_a_directory_are_refused(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)  # nobody writes to it: opening it for reading would block without O_NONBLOCK
    result = invoke("cluster-id", *NOWHERE, "-c", str(fifo), environ={"KCLI_INPUT_TIMEOUT_MS": "200"})
    assert (result.code, result.stderr) == (
        2,
        f"Error: properties file {fifo} is a pipe that was not written to within 0.2 s (start its writer "
        "first, give a regular file, or raise KCLI_INPUT_TIMEOUT_MS)\n",
    )
    result = invoke("reassign-partitions", *NOWHERE, "--reassignment-json-file", str(tmp_path), "--execute")
    assert (result.code, result.stderr) == (
        2,
        f"Error: reassignment JSON file {tmp_path} is a directory, not a regular file "
        "(give the path of a regular file)\n",
    )


def test_a_file_over_its_bound_is_refused(tmp_path: Path) -> None:
    big = tmp_path / "big.properties"
    big.write_text("# padding\n" * (CONFIG_LIMIT // 10 + 1))
    result = invoke("cluster-id", *NOWHERE, "-c", str(big))
    assert (result.code, result.stderr) == (
        2,
        f"Error: properties file {big} is 1.0 MiB, over the 1 MiB kcli reads for it\n",
    )
    with pytest.raises(FileRefused, match=r"^--import - is over the 10 bytes kcli reads for it$"):
        read_stream(io.StringIO("x" * 11), what="--import -", limit=10)


def test_a_5000_digit_replica_id_is_a_usage_error_naming_the_field(tmp_path: Path) -> None:
    plan = tmp_path / "plan.json"
    digits = "9" * 5000
    plan.write_text(f'{{"version":1,"partitions":[{{"topic":"t","partition":0,"replicas":[1,{digits}]}}]}}')
    result = invoke("reassign-partitions", *NOWHERE, "--reassignment-json-file", str(plan), "--execute")
    assert (result.code, result.stderr) == (
        2,
        f"Error: Invalid reassignment JSON in {plan}: partitions[0]: replicas must be an array of broker ids "
        "(32-bit integers); replicas[1] is 999999999999... (5000 digits)\n",
    )
    plan.write_text('{"version":1,"partitions":[{"topic":"t","partition":0,"replicas":[2147483648]}]}')
    result = invoke("reassign-partitions", *NOWHERE, "--reassignment-json-file", str(plan), "--execute")
    assert (result.code, result.stderr) == (
        2,
        f"Error: Invalid reassignment JSON in {plan}: partitions[0]: replicas must be an array of broker ids "
        "(32-bit integers); replicas[0] is 2147483648\n",
    )
    acls = tmp_path / "acls.json"
    acls.write_text(f'{{"version":1,"acls":[{{"principal":{digits}}}]}}')
    result = invoke("acls", *NOWHERE, "--import", str(acls))
    assert (
        result.code == 2 and "Exceeds the limit" not in result.stderr and result.stderr.startswith("Error: ")
    )
    assert len(result.stderr.splitlines()) == 1


LONG = "1" * 5000  # past Python's int-string limit (4300 digits): int() refuses it with a ValueError
LONG_SHOWN = "1" * 40 + "..."


def test_a_5000_digit_partition_number_is_a_usage_error_naming_the_field(tmp_path: Path) -> None:
    plan = tmp_path / "plan.json"
    plan.write_text(f'{{"version":1,"partitions":[{{"topic":"t","partition":{LONG},"replicas":[1]}}]}}')
    result = invoke("reassign-partitions", *NOWHERE, "--reassignment-json-file", str(plan), "--execute")
    assert (result.code, result.stderr) == (
        2,
        f"Error: Invalid reassignment JSON in {plan}: partitions[0]: partition must be a non-negative "
        "integer (32-bit), not 111111111111... (5000 digits)\n",
    )


LONG_NUMBER_CASES: list[tuple[str, list[str], str]] = [
    (
        "client setting",
        ["cluster-id", *NOWHERE, "-c", "{props}"],
        "request.timeout.ms must be an integer of Kafka's type INT (-2147483648 to 2147483647), "
        f"not '{LONG_SHOWN}' (set by --command-config {{props}})",
    ),
    (
        "bootstrap port",
        ["cluster-id", "-b", f"127.0.0.1:{LONG}"],
        f"--bootstrap-server: port {LONG_SHOWN} in '127.0.0.1:{LONG[:30]}...' is out of range",
    ),
    (
        "controller node id",
        ["cluster-id", "-C", f"{LONG}@127.0.0.1:1"],
        f"--bootstrap-controller: node id {LONG_SHOWN} in '{LONG_SHOWN}' is not a 32-bit integer",
    ),
    (
        "profile file",
        ["cluster-id"],
        "config file {toml} is not valid TOML: an integer of more than 4300 digits (at line 3)",
    ),
    (
        "rules file",
        ["spark", "rules", "--rules", "{toml}"],
        "rules file {toml} (in rule long): invalid TOML: an integer of more than 4300 digits (at line 6)",
    ),
    (
        "release version",
        ["features", *NOWHERE, "upgrade", "--release-version", LONG, "--dry-run"],
        f"Unknown metadata.version {LONG_SHOWN}. Supported metadata.version are ",
    ),
]


@pytest.mark.parametrize(
    ("where", "argv", "message"), LONG_NUMBER_CASES, ids=[c[0] for c in LONG_NUMBER_CASES]
)
def test_a_5000_digit_number_is_a_usage_error_naming_where_it_is(
    tmp_path: Path, where: str, argv: list[str], message: str
) -> None:
    props = tmp_path / "client.properties"
    props.write_text(f"request.timeout.ms={LONG}\n")
    toml = tmp_path / "numbers.toml"
    if where == "profile file":
        toml.write_text(f'[profiles.default]\n"bootstrap.servers" = "127.0.0.1:1"\nretries = {LONG}\n')
    else:
        toml.write_text(
            '[[rule]]\nid = "long"\nseverity = "low"\ndescription = "d"\n'
            f'sql = "SELECT 1"\nparams = {{ n = {LONG} }}\n'
        )
    paths = {"props": str(props), "toml": str(toml)}
    environ = {"KCLI_CONFIG": str(toml)} if where == "profile file" else None
    result = invoke(*(arg.format(**paths) for arg in argv), environ=environ)
    assert result.code == 2
    assert result.stderr.startswith(f"Error: {message.format(**paths)}") and result.stderr.count("\n") == 1


def test_leading_zeros_count_for_nothing_as_in_java() -> None:
    from kcli.client.config_defs import parse_setting

    assert parse_setting("request.timeout.ms", "0" * 5000 + "30000") == 30000
    assert parse_setting("sasl.login.retry.backoff.ms", "-" + "0" * 5000 + "1") == -1


SETTING_CASES = [
    ("request.timeout.ms", "99999999999999999999", "must be an integer of Kafka's type INT (-2147483648 to 2147483647), not '99999999999999999999'"),
    ("default.api.timeout.ms", "2147483648", "must be an integer of Kafka's type INT (-2147483648 to 2147483647), not '2147483648'"),
    ("request.timeout.ms", "-1", "must be at least 0, not -1"),
    ("request.timeout.ms", "1_000", "must be an integer of Kafka's type INT (-2147483648 to 2147483647), not '1_000'"),
    ("retry.backoff.ms", "9223372036854775808", "must be an integer of Kafka's type LONG (-9223372036854775808 to 9223372036854775807), not '9223372036854775808'"),
    ("retries", "-3", "must be between 0 and 2147483647, not -3"),
    ("metrics.num.samples", "0", "must be at least 1, not 0"),
    ("sasl.login.refresh.buffer.seconds", "40000", "must be an integer of Kafka's type SHORT (-32768 to 32767), not '40000'"),
    ("sasl.login.refresh.buffer.seconds", "4000", "must be between 0 and 3600, not 4000"),
    ("sasl.login.refresh.window.factor", "0.2", "must be between 0.5 and 1.0, not 0.2"),
    ("sasl.kerberos.ticket.renew.jitter", "lots", "must be a number of Kafka's type DOUBLE, not 'lots'"),
    ("metadata.cluster.check.enable", "yes", "must be true or false, not 'yes'"),
    ("enable.metrics.push", "1", "must be true or false, not '1'"),
    ("client.dns.lookup", "default", "'default' is not one of use_all_dns_ips, resolve_canonical_bootstrap_servers_only"),
    ("metrics.recording.level", "info", "'info' is not one of INFO, DEBUG, TRACE"),
    ("sasl.login.class", "not a class", "'not a class' is not a Java class name"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("key", "value", "message"), SETTING_CASES, ids=[f"{k}={v}" for k, v, _ in SETTING_CASES]
)
def test_client_settings_are_checked_by_kafkas_type_and_range(
    tmp_path: Path, key: str, value: str, message: str
) -> None:
    properties = tmp_path / "client.properties"
    properties.write_text(f"{key}={value}\n")
    result = invoke("cluster-id", *NOWHERE, "-c", str(properties))
    assert (result.code, result.stderr) == (
        2,
        f"Error: {key} {message} (set by --command-config {properties})\n",
    )


def test_settings_from_the_environment_name_the_variable() -> None:
    result = invoke("cluster-id", *NOWHERE, environ={"KCLI_DEFAULT_API_TIMEOUT_MS": "1e9"})
    assert (result.code, result.stderr) == (
        2,
        "Error: default.api.timeout.ms must be an integer of Kafka's type INT (-2147483648 to 2147483647), "
        "not '1e9' (set by environment variable KCLI_DEFAULT_API_TIMEOUT_MS)\n",
    )


def test_valid_settings_at_the_edges_of_their_types_are_taken() -> None:
    from kcli.client.config import config_from_properties

    config = config_from_properties(
        {
            "bootstrap.servers": "k:9092",
            "request.timeout.ms": " 2147483647 ",
            "retry.backoff.ms": "+9223372036854775807",
            "metadata.cluster.check.enable": "FALSE",
            "security.protocol": "plaintext",
            "sasl.login.refresh.window.factor": "1.0",
        },
        warn=lambda _line: None,
    )
    assert (config.request_timeout_ms, config.retry_backoff_ms) == (2**31 - 1, 2**63 - 1)
    assert config.cluster_check_enable is False


def test_every_setting_kcli_knows_has_a_kafka_type() -> None:
    from kcli.client.config_defs import DEFS
    from kcli.client.config_keys import HONOURED_KEYS, KNOWN_KAFKA_KEYS

    assert sorted((HONOURED_KEYS | KNOWN_KAFKA_KEYS) - set(DEFS)) == []


@pytest.mark.sandbox
def test_doctor_reports_a_wrong_sasl_password_as_an_authentication_failure(tmp_path: Path) -> None:
    from kcli.sandbox.emulator.handle import Sandbox

    with Sandbox(directory=tmp_path / "sb", controllers=1, brokers=1, security="sasl_plaintext") as sb:
        properties = sb.command_config()
        properties.write_text(properties.read_text().replace("admin-secret", "not-the-password"))
        servers = sb.bootstrap_servers
        result = invoke("cluster", "doctor", "-b", servers, "-c", str(properties), "-o", "json")
    assert result.code == 1
    (finding,) = result.json["findings"]
    assert finding["check"] == "bootstrap-authentication-failed" and finding["severity"] == "critical"
    assert finding["message"] == (
        f"bootstrap address answers, but authentication failed: SASL authentication to {servers} "
        "failed: SASL_AUTHENTICATION_FAILED: Authentication failed: Invalid username or password"
    )
    assert "does not answer" not in result.stdout + result.stderr
    assert "not-the-password" not in result.stdout + result.stderr


@pytest.mark.timeout(30)
def test_a_terminal_with_nothing_typed_is_refused_not_waited_for() -> None:
    from kcli.files import read_bytes

    controller, terminal = os.openpty()
    try:
        path = os.ttyname(terminal)
        with pytest.raises(FileRefused, match=r"^properties file /dev/\S+ is a device with nothing to read$"):
            read_bytes(path, what="properties file")
    finally:
        os.close(terminal)
        os.close(controller)
