"""kafka-metadata-shell.sh: Kafka's LsCommandHandlerTest (shell/src/test/java/org/apache/kafka/shell/
command/LsCommandHandlerTest.java), ported: how `ls` lays out its entries and blocks.

Kafka's printTargets heads each directory's block with the name it is given; its `ls` gives the last
component of each path matched (LsCommandHandler.run: `info.lastPathComponent()`), and so does kcli.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kcli.shell.listing import column_schema, print_entries, print_targets
from tests.conftest import invoke
from tests.shell.conftest import write_small_log

KAFKA_TOOL = "kafka-metadata-shell.sh"
KAFKA_TEST_CLASS = "LsCommandHandlerTest"
KAFKA_SOURCE = "shell/src/test/java/org/apache/kafka/shell/command/LsCommandHandlerTest.java"
KAFKA_METHODS = ["testCalculateColumnSchema", "testPrintEntries", "testPrintTargets"]
NOT_PORTED: dict[str, str] = {}


@pytest.mark.parametrize(
    ("width", "entries", "expected"),
    [
        # ColumnSchema(columns, entries per column) and, where set, its column widths
        (None, ["abc", "def", "ghi"], (1, 3, [0])),
        (0, ["abc", "def"], (1, 2, [0])),
        (80, ["a", "abcdef", "beta"], (3, 1, [3, 8, 6])),
        (18, ["alphabet", "beta", "gamma", "theta", "zeta"], (2, 3, [10, 7])),
    ],
)
def test_LsCommandHandlerTest_testCalculateColumnSchema(
    width: int | None, entries: list[str], expected: tuple[int, int, list[int]]
) -> None:
    assert column_schema(width, entries) == expected


def _printed(lines: list[str]) -> str:
    """What Kafka's test compares: the printed text, trimmed at both ends."""
    return "\n".join(lines).strip()


def test_LsCommandHandlerTest_testPrintEntries() -> None:
    lines = print_entries("", 18, ["alphabet", "beta", "gamma", "theta", "zeta"])
    assert _printed(lines) == "\n".join(["alphabet  theta", "beta      zeta", "gamma"])


@pytest.fixture(scope="module")
def small_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_small_log(tmp_path_factory.mktemp("log"))


@pytest.mark.parametrize("through", ["printTargets", "ls"])
def test_LsCommandHandlerTest_testPrintTargets(through: str, request: pytest.FixtureRequest) -> None:
    if through == "ls":
        # files first, then each directory headed by its last path component; no terminal: one column
        log = request.getfixturevalue("small_log")
        result = invoke(
            "metadata-shell", "-d", str(log), "ls",
            "/image/topics/byName/orders/name", "/image/topics/byName", "/image/cluster",
        )  # fmt: skip
        assert (result.code, result.stderr) == (0, "")
        assert result.lines == [
            "name",
            "",
            "byName:",
            "orders",
            "payments",
            "",
            "cluster:",
            "brokers",
            "controllers",
        ]
        return
    lines = print_targets(
        18,
        ["foo", "foobarbaz", "quux"],
        [
            ("/some/dir", ["supercalifragalistic"]),
            ("/some/other/dir", ["capability", "delegation", "elephant", "fungible", "green"]),
        ],
    )
    assert _printed(lines) == "\n".join(
        [
            "foo        quux",
            "foobarbaz  ",
            "",
            "/some/dir:",
            "supercalifragalistic",
            "",
            "/some/other/dir:",
            "capability",
            "delegation",
            "elephant",
            "fungible",
            "green",
        ]
    )
