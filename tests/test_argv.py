"""The command line is read as the Kafka tools read it (kcli.cli.argv): --debug anywhere,
abbreviations (Kafka's options first), jopt-simple's single-dash long options, option order."""

from __future__ import annotations

import pytest

from kcli.cli.argv import normalize
from tests.conftest import invoke

NOWHERE = ["--bootstrap-server", "127.0.0.1:1"]
FAST_FAIL = {"KCLI_DEFAULT_API_TIMEOUT_MS": "1"}


def _root() -> object:
    import typer

    from kcli.cli.main import app

    return typer.main.get_command(app)


@pytest.mark.parametrize(
    "line",
    [
        ["--debug", "cluster-id", *NOWHERE],
        ["cluster-id", *NOWHERE, "--debug"],
        ["cluster", "list-endpoints", "--debug", *NOWHERE],
        ["configs", "--describe", "--topic", "t", *NOWHERE, "--debug"],
    ],
    ids=["before", "after", "middle", "jopt-tool"],
)
def test_debug_is_accepted_anywhere(line: list[str]) -> None:
    result = invoke(*line, environ=FAST_FAIL)
    assert result.code == 1, result.stderr
    assert "No such option" not in result.stderr
    assert (
        "-> 127.0.0.1:1" in result.stderr or "connect" in result.stderr
    )  # the --debug trace, then the error


def test_debug_given_as_a_value_stays_a_value() -> None:
    line = normalize(
        _root(), None, ["configs", "--describe", "--entity-type", "topics", "--entity-name", "--debug"]
    )
    assert line.debug is False
    assert line.args[-2:] == ["--entity-name", "--debug"]


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        (
            ["metadata-quorum", "describe", "--re", "--hu"],
            ["metadata-quorum", "describe", "--replication", "--human-readable"],
        ),
        (["configs", "-add-config", "a=b"], ["configs", "--add-config", "a=b"]),
        (["configs", "--desc", "--entity-t", "topics"], ["configs", "--describe", "--entity-type", "topics"]),
        (["configs", "--add-config=a=b"], ["configs", "--add-config=a=b"]),
        # kcli's --output shares the prefix with kafka-acls' --operation: Kafka's option wins
        (["acls", "--o", "Read"], ["acls", "--operation", "Read"]),
        # kcli's --import shares the prefix with kafka-acls' --idempotent
        (["acls", "--i"], ["acls", "--idempotent"]),
        # --con is --config (kafka-cluster's deprecated spelling), not --command-config
        (["cluster", "cluster-id", "--con", "f"], ["cluster", "cluster-id", "--config", "f"]),
    ],
    ids=[
        "argparse4j",
        "single-dash",
        "jopt",
        "attached-value",
        "kafka-first",
        "kafka-first-flag",
        "alias-spelling",
    ],
)
def test_abbreviations_and_single_dash_long_options(given: list[str], expected: list[str]) -> None:
    assert normalize(_root(), None, given).args == expected


@pytest.mark.parametrize(
    "given",
    [
        ["configs", "--d"],  # --describe or --delete-config, in Kafka too
        ["features", "describe", "-node-id", "1"],  # single-dash long options are jopt-simple's only
        ["sandbox", "up", "--dir", "x", "--top", "1"],  # kcli's own commands keep click's rules
    ],
    ids=["ambiguous", "argparse-single-dash", "kcli-command"],
)
def test_what_kafka_would_not_accept_is_left_to_click(given: list[str]) -> None:
    assert normalize(_root(), None, given).args == given


def test_the_order_of_options_is_recorded() -> None:
    line = normalize(
        _root(),
        None,
        [
            "configs",
            "--entity-type",
            "users",
            "--entity-default",
            "--entity-type",
            "clients",
            "--entity-name",
            "c2",
        ],
    )
    assert line.order == ["--entity-type", "--entity-default", "--entity-type", "--entity-name"]
