"""kafka-metadata-shell.sh: Kafka's GlobComponentTest (shell/src/test/java/org/apache/kafka/shell/glob/
GlobComponentTest.java), ported: one path component as a literal or a glob."""

from __future__ import annotations

import pytest

from kcli.shell.glob import component_matches, component_regex, to_regular_expression

KAFKA_TOOL = "kafka-metadata-shell.sh"
KAFKA_TEST_CLASS = "GlobComponentTest"
KAFKA_SOURCE = "shell/src/test/java/org/apache/kafka/shell/glob/GlobComponentTest.java"
KAFKA_METHODS = ["testLiteralComponent", "testToRegularExpression", "testGlobMatch"]
NOT_PORTED: dict[str, str] = {}


@pytest.mark.parametrize("component", ["abc", "", "foobar_123", "$blah+"])
def test_GlobComponentTest_testLiteralComponent(component: str) -> None:
    assert component_regex(component) is None  # literal()
    assert component_matches(component, component)
    assert not component_matches(component, component + "foo")


@pytest.mark.parametrize(
    ("glob", "expected"),
    [
        ("blah", None),
        ("", None),
        ("does not need a regex, actually", None),
        ("$blah*", "^\\$blah.*$"),
        ("*", "^.*$"),
        ("foo{bar,baz}", "^foo(?:(?:bar)|(?:baz))$"),
    ],
)
def test_GlobComponentTest_testToRegularExpression(glob: str, expected: str | None) -> None:
    assert to_regular_expression(glob) == expected


@pytest.mark.parametrize(
    ("glob", "matching", "not_matching"),
    [
        ("*", ["", "anything"], []),
        ("b?b", ["bob", "bib"], ["", "bic"]),
        ("foo{bar,baz}", ["foobar", "foobaz"], ["foobah", "foo", "baz"]),
    ],
)
def test_GlobComponentTest_testGlobMatch(glob: str, matching: list[str], not_matching: list[str]) -> None:
    assert component_regex(glob) is not None  # not literal()
    assert all(component_matches(glob, name) for name in matching)
    assert not any(component_matches(glob, name) for name in not_matching)
