"""kafka-metadata-shell.sh: Kafka's CommandTest (shell/src/test/java/org/apache/kafka/shell/command/
CommandTest.java), ported: a command line parses to the command value Kafka's parser gives."""

from __future__ import annotations

from pathlib import Path

import pytest

from kcli.shell.commands import (
    CatCommand,
    CdCommand,
    ErroneousCommand,
    ExitCommand,
    HelpCommand,
    HistoryCommand,
    LsCommand,
    NoOpCommand,
    PwdCommand,
    parse_words,
)
from tests.conftest import invoke
from tests.shell.conftest import write_small_log

KAFKA_TOOL = "kafka-metadata-shell.sh"
KAFKA_TEST_CLASS = "CommandTest"
KAFKA_SOURCE = "shell/src/test/java/org/apache/kafka/shell/command/CommandTest.java"
KAFKA_METHODS = ["testParseCommands", "testParseInvalidCommand", "testEmptyCommandLine"]
NOT_PORTED: dict[str, str] = {}


@pytest.mark.parametrize(
    ("words", "expected"),
    [
        (["cat", "foo"], CatCommand(targets=("foo",))),
        (["cd"], CdCommand(target="/")),  # Kafka's Optional.empty(): cd goes to /
        (["cd", "foo"], CdCommand(target="foo")),
        (["exit"], ExitCommand()),
        (["help"], HelpCommand()),
        (["history", "3"], HistoryCommand(count=3)),
        (["history"], HistoryCommand()),  # Kafka's Integer.MAX_VALUE: every entry
        (["ls"], LsCommand()),
        (["ls", "abc", "123"], LsCommand(targets=("abc", "123"))),
        (["pwd"], PwdCommand()),
    ],
    ids=lambda value: " ".join(value) if isinstance(value, list) else None,
)
def test_CommandTest_testParseCommands(words: list[str], expected: object) -> None:
    assert parse_words(words, interactive=True) == expected


@pytest.fixture(scope="module")
def small_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_small_log(tmp_path_factory.mktemp("log"))


@pytest.mark.parametrize(
    "where",
    [
        "shell",
        pytest.param(
            "one-shot",
            marks=pytest.mark.kafka_difference(
                "a bad command line goes to stderr with exit 1; one-shot use lists the commands that work there"
            ),
        ),
    ],
)
def test_CommandTest_testParseInvalidCommand(where: str, request: pytest.FixtureRequest) -> None:
    if where == "shell":
        assert parse_words(["blah"], interactive=True) == ErroneousCommand(
            message="invalid choice: 'blah' (choose from 'cat', 'cd', 'exit', 'find', 'help', 'history', 'ls', "
            "'man', 'pwd', 'tree')"
        )
        return
    result = invoke("metadata-shell", "--directory", str(request.getfixturevalue("small_log")), "blah")
    assert (result.code, result.stdout) == (1, "")
    assert result.stderr == "invalid choice: 'blah' (choose from 'cat', 'find', 'history', 'ls', 'tree')\n"


@pytest.mark.parametrize("words", [[""], []], ids=["empty word", "no words"])
def test_CommandTest_testEmptyCommandLine(words: list[str]) -> None:
    assert parse_words(words, interactive=True) == NoOpCommand()
