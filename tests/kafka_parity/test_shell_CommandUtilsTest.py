"""kafka-metadata-shell.sh: Kafka's CommandUtilsTest (shell/src/test/java/org/apache/kafka/shell/
command/CommandUtilsTest.java), ported: how a path splits into components and how `.` and `..`
resolve. kcli does both in `kcli.shell.glob.normalize`."""

from __future__ import annotations

import pytest

from kcli.shell.glob import normalize

KAFKA_TOOL = "kafka-metadata-shell.sh"
KAFKA_TEST_CLASS = "CommandUtilsTest"
KAFKA_SOURCE = "shell/src/test/java/org/apache/kafka/shell/command/CommandUtilsTest.java"
KAFKA_METHODS = ["testSplitPath", "testStripDotPathComponents"]
NOT_PORTED: dict[str, str] = {}


@pytest.mark.parametrize("path", ["/alpha/beta", "//alpha/beta/"])
def test_CommandUtilsTest_testSplitPath(path: str) -> None:
    assert normalize((), path) == ("alpha", "beta")


@pytest.mark.parametrize(
    ("components", "expected"),
    [
        (["..", "keep", "keep2"], ("keep", "keep2")),  # double dots
        ([".", "keep", "keep2"], ("keep", "keep2")),  # single dots
        ([".", ".keep", "keep2"], (".keep", "keep2")),
        (["..", ".keep", "keep2"], (".keep", "keep2")),
    ],
)
def test_CommandUtilsTest_testStripDotPathComponents(
    components: list[str], expected: tuple[str, ...]
) -> None:
    assert normalize((), "/".join(components)) == expected
