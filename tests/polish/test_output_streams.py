"""Output discipline of every command: plain text off a terminal, data on stdout, errors on stderr."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import CliResult, invoke

ANSI = "\x1b["
UUID = "pCf9UaE6QxSIBqR4u1R9Kw"
DEAD = ["-b", "127.0.0.1:1"]  # connection refused at once
DEAD_C = ["-C", "127.0.0.1:1"]


def _plain(result: CliResult) -> None:
    assert ANSI not in result.stdout, result.stdout
    assert ANSI not in result.stderr, result.stderr


# ------------------------------------------------------------------ plain output off a terminal

PLAIN_CASES: list[tuple[str, Callable[[Any, Path], list[str]]]] = [
    ("cluster-id", lambda sb, _: ["cluster-id", "-b", sb.bootstrap_servers]),
    ("cluster list-endpoints", lambda sb, _: ["cluster", "list-endpoints", "-C", sb.bootstrap_controllers]),
    ("cluster doctor", lambda sb, _: ["cluster", "doctor", "-b", sb.bootstrap_servers]),
    ("cluster cluster-id", lambda sb, _: ["cluster", "cluster-id", "-b", sb.bootstrap_servers]),
    ("cluster api-versions", lambda sb, _: ["cluster", "api-versions", "-b", sb.bootstrap_servers]),
    (
        "configs",
        lambda sb, _: ["configs", "-b", sb.bootstrap_servers, "--describe", "--broker", "1", "--all"],
    ),
    ("features describe", lambda sb, _: ["features", "describe", "-b", sb.bootstrap_servers]),
    (
        "features upgrade",
        lambda sb, _: [
            "features",
            "upgrade",
            "-b",
            sb.bootstrap_servers,
            "--feature",
            "share.version=2",
            "--dry-run",
        ],
    ),
    ("features version-mapping", lambda sb, _: ["features", "version-mapping"]),
    (
        "features feature-dependencies",
        lambda sb, _: ["features", "feature-dependencies", "--feature", "transaction.version=2"],
    ),
    (
        "metadata-quorum describe",
        lambda sb, _: ["metadata-quorum", "describe", "-b", sb.bootstrap_servers, "--status"],
    ),
    (
        "metadata-quorum describe",
        lambda sb, _: ["metadata-quorum", "describe", "-C", sb.bootstrap_controllers, "--replication"],
    ),
    ("metadata-shell", lambda sb, _: ["metadata-shell", "-d", str(sb.metadata_log_dir(101)), "ls", "/image"]),
    ("reassign-partitions", lambda sb, _: ["reassign-partitions", "-b", sb.bootstrap_servers, "--list"]),
    ("spark rules", lambda sb, _: ["spark", "rules"]),
    ("profile list", lambda sb, _: ["profile", "list"]),
    ("profile show", lambda sb, _: ["profile", "show", "demo"]),
]


@pytest.mark.sandbox
@pytest.mark.parametrize("output", ["text", "table"])
@pytest.mark.parametrize("no_color", ["1", None], ids=["NO_COLOR", "no-tty"])
@pytest.mark.parametrize(
    ("name", "argv"), PLAIN_CASES, ids=[f"{i}-{n}" for i, (n, _) in enumerate(PLAIN_CASES)]
)
def test_text_and_table_output_is_plain_off_a_terminal(
    name: str,
    argv: Callable[[Any, Path], list[str]],
    output: str,
    no_color: str | None,
    sandbox: Any,
    tmp_path: Path,
) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[profiles.demo]\n"bootstrap.servers" = "k1:9092"\n', encoding="utf-8")
    words = argv(sandbox, tmp_path)
    depth = len(
        name.split()
    )  # -o right after the command path (metadata-shell takes no options after COMMAND)
    result = invoke(
        *words[:depth],
        "-o",
        output,
        *words[depth:],
        environ={"NO_COLOR": no_color, "KCLI_CONFIG": str(config)},
    )
    assert result.code == 0, result.stderr
    assert result.stdout.strip(), f"{name} printed nothing"
    _plain(result)


# ------------------------------------------------------------------ failures: stderr only

FAILING: list[tuple[str, list[str]]] = [
    ("cluster-id", ["cluster-id", *DEAD]),
    ("cluster list-endpoints", ["cluster", "list-endpoints", *DEAD_C]),
    ("cluster doctor", ["cluster", "doctor", *DEAD]),
    ("cluster cluster-id", ["cluster", "cluster-id", *DEAD]),
    ("cluster api-versions", ["cluster", "api-versions", *DEAD]),
    ("cluster unregister", ["cluster", "unregister", *DEAD, "--id", "1"]),
    ("cluster unregister-controller", ["cluster", "unregister-controller", *DEAD, "--id", "1"]),
    ("configs", ["configs", *DEAD, "--describe", "--topic", "t"]),
    ("configs", ["configs", "--describe"]),  # usage error before connecting
    ("acls", ["acls", *DEAD, "--list"]),
    ("topics", ["topics", *DEAD, "--list"]),
    ("get-offsets", ["get-offsets", *DEAD]),
    ("log-dirs", ["log-dirs", *DEAD, "--describe"]),
    ("leader-election", ["leader-election", *DEAD, "--election-type", "preferred", "--all-topic-partitions"]),
    ("delete-records", ["delete-records", *DEAD, "--offset-json-file", "/nonexistent.json"]),
    ("broker-api-versions", ["broker-api-versions", *DEAD]),
    ("client-metrics", ["client-metrics", *DEAD, "--list"]),
    ("delegation-tokens", ["delegation-tokens", *DEAD, "--describe"]),  # refused without SASL or TLS settings
    # the group tools' --timeout is their default.api.timeout.ms, as in Kafka's
    ("consumer-groups", ["consumer-groups", *DEAD, "--list", "--timeout", "300"]),
    ("groups", ["groups", *DEAD, "--list"]),
    ("share-groups", ["share-groups", *DEAD, "--list", "--timeout", "300"]),
    ("streams-groups", ["streams-groups", *DEAD, "--list", "--timeout", "300"]),
    ("transactions list", ["transactions", "list", *DEAD]),
    ("transactions describe", ["transactions", "describe", *DEAD, "--transactional-id", "t"]),
    (
        "transactions describe-producers",
        ["transactions", "describe-producers", *DEAD, "--topic", "t", "--partition", "0"],
    ),
    ("transactions find-hanging", ["transactions", "find-hanging", *DEAD, "--broker-id", "1"]),
    (
        "transactions abort",
        ["transactions", "abort", *DEAD, "--topic", "t", "--partition", "0", "--start-offset", "0"],
    ),
    (
        "transactions forceTerminateTransaction",
        ["transactions", "forceTerminateTransaction", *DEAD, "--transactionalId", "t"],
    ),
    ("features describe", ["features", "describe", *DEAD]),
    ("features upgrade", ["features", "upgrade", *DEAD, "--feature", "group.version=1"]),
    ("features downgrade", ["features", "downgrade", *DEAD, "--feature", "group.version=0"]),
    ("features disable", ["features", "disable", *DEAD, "--feature", "group.version"]),
    ("features version-mapping", ["features", "version-mapping", "--release-version", "0.1-IV9"]),
    ("features feature-dependencies", ["features", "feature-dependencies", "--feature", "no.such.feature=1"]),
    ("metadata-quorum describe", ["metadata-quorum", "describe", *DEAD_C, "--status"]),
    (
        "metadata-quorum add-controller",
        ["metadata-quorum", "add-controller", *DEAD_C, "--command-config", "/nonexistent.properties"],
    ),
    (
        "metadata-quorum remove-controller",
        ["metadata-quorum", "remove-controller", *DEAD_C, "-i", "1", "-d", UUID],
    ),
    ("metadata-shell", ["metadata-shell", "-d", "/nonexistent", "ls", "/"]),
    ("reassign-partitions", ["reassign-partitions", *DEAD, "--list"]),
    ("profile show", ["profile", "show", "missing"]),
    ("profile use", ["profile", "use", "missing"]),
    ("profile add", ["profile", "add", "bad", "--set", "no-equals-sign"]),
    ("spark rules", ["spark", "rules", "--rules", "/nonexistent.toml"]),
    ("spark collect", ["spark", "collect", *DEAD, "--out", "/nonexistent/out"]),
    ("spark audit", ["spark", "audit", "--input", "/nonexistent/snapshots"]),
    ("sandbox status", ["sandbox", "status", "--dir", "/nonexistent"]),
    ("sandbox stop-node", ["sandbox", "stop-node", "--dir", "/nonexistent", "1"]),
    ("sandbox kill-node", ["sandbox", "kill-node", "--dir", "/nonexistent", "1"]),
    ("sandbox start-node", ["sandbox", "start-node", "--dir", "/nonexistent", "1"]),
    ("sandbox failover", ["sandbox", "failover", "--dir", "/nonexistent"]),
    ("sandbox delay", ["sandbox", "delay", "--dir", "/nonexistent", "1", "10"]),
    ("sandbox misroute", ["sandbox", "misroute", "--dir", "/nonexistent", "1"]),
    ("sandbox add-node", ["sandbox", "add-node", "--dir", "/nonexistent"]),
    ("sandbox replace-brokers", ["sandbox", "replace-brokers", "--dir", "/nonexistent"]),
    ("sandbox down", ["sandbox", "down", "--dir", "/nonexistent"]),
    ("completion show", ["completion", "show", "tcsh"]),
    ("completion install", ["completion", "install", "tcsh"]),
]


@pytest.mark.parametrize(("name", "argv"), FAILING, ids=[f"{i}-{n}" for i, (n, _) in enumerate(FAILING)])
def test_a_failing_command_writes_its_error_to_stderr_only(name: str, argv: list[str]) -> None:
    with_json = "--output" in _options(name)
    depth = len(name.split())
    output = ["-o", "json"] if with_json else []
    # refused connections are retried until default.api.timeout.ms: keep that short here
    environ = {"NO_COLOR": None, "KCLI_DEFAULT_API_TIMEOUT_MS": "300"}
    result = invoke(*argv[:depth], *output, *argv[depth:], environ=environ)
    assert result.code != 0, f"{name} did not fail: {result.stdout}"
    assert "Traceback" not in result.stderr
    _plain(result)
    if result.stdout.strip():  # only data may reach stdout: a report whose findings fail the run
        assert with_json
        json.loads(result.stdout)
    else:
        assert result.stderr.strip(), "the reason goes to stderr"


def test_failure_table_covers_every_leaf_command() -> None:
    from tests.polish.test_help_examples import LEAVES

    covered = {name for name, _ in FAILING}
    # `sandbox up` starts a cluster and `profile list` reads a missing file as empty: no failure to provoke
    assert {" ".join(path) for path in LEAVES} - covered == {"sandbox up", "profile list"}


def _options(path: str) -> set[str]:
    import typer

    from kcli.cli.main import app

    command: Any = typer.main.get_command(app)
    for word in path.split():
        command = command.commands[word]
    return {opt for param in command.params for opt in getattr(param, "opts", ())}
