"""kafka-metadata-shell.sh: Kafka's GlobVisitorTest (shell/src/test/java/org/apache/kafka/shell/glob/
GlobVisitorTest.java), ported: which nodes a glob names, from a working directory, in order."""

from __future__ import annotations

import pytest

from kcli.metadata.tree import DirectoryNode, FileNode, Node
from kcli.shell.glob import expand

KAFKA_TOOL = "kafka-metadata-shell.sh"
KAFKA_TEST_CLASS = "GlobVisitorTest"
KAFKA_SOURCE = "shell/src/test/java/org/apache/kafka/shell/glob/GlobVisitorTest.java"
KAFKA_METHODS = [
    "testStarGlob",
    "testDotDot",
    "testDoubleDotDot",
    "testZGlob",
    "testBetaOrThetaGlob",
    "testNotFoundGlob",
    "testAbsoluteGlob",
]
NOT_PORTED: dict[str, str] = {}


def _directory(**children: Node) -> DirectoryNode:
    return DirectoryNode(lambda: children)


# Kafka's DATA: / {alpha {beta {gamma}, theta}, foo {a, beta}, zeta {c (a file)}, zzz}, cwd /foo
ROOT = _directory(
    alpha=_directory(beta=_directory(gamma=_directory()), theta=_directory()),
    foo=_directory(a=_directory(), beta=_directory()),
    zeta=_directory(c=FileNode("")),
    zzz=_directory(),
)
CWD = ("foo",)


def _node(*path: str) -> Node:
    node: Node | None = ROOT
    for part in path:
        assert node is not None
        node = node.child(part)
    assert node is not None
    return node


def _visit(glob: str) -> list[tuple[tuple[str, ...], Node]]:
    return expand(ROOT, CWD, glob)


def _expected(*paths: tuple[str, ...]) -> list[tuple[tuple[str, ...], Node]]:
    return [(path, _node(*path)) for path in paths]


def test_GlobVisitorTest_testStarGlob() -> None:
    assert _visit("*") == _expected(("foo", "a"), ("foo", "beta"))


def test_GlobVisitorTest_testDotDot() -> None:
    assert _visit("..") == [((), ROOT)]


def test_GlobVisitorTest_testDoubleDotDot() -> None:
    assert _visit("../..") == [((), ROOT)]


def test_GlobVisitorTest_testZGlob() -> None:
    assert _visit("../z*") == _expected(("zeta",), ("zzz",))


def test_GlobVisitorTest_testBetaOrThetaGlob() -> None:
    assert _visit("../*/{beta,theta}") == _expected(("alpha", "beta"), ("alpha", "theta"), ("foo", "beta"))


@pytest.mark.parametrize("glob", ["epsilon", "../zeta/c/x", "../zeta/c/*"])
def test_GlobVisitorTest_testNotFoundGlob(glob: str) -> None:
    # Kafka's case is "epsilon" (Optional.empty()); a file has no children either, literal or glob
    assert _visit(glob) == []


def test_GlobVisitorTest_testAbsoluteGlob() -> None:
    assert _visit("/a?pha") == _expected(("alpha",))
