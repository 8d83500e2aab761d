"""kafka-consumer-groups.sh's checks, in ConsumerGroupCommandOptions' order (each message as Kafka 4.4 words it)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
import typer
import typer.main

from kcli.errors import UsageError
from kcli.ops.groups.consumer_line import (
    NO_EXECUTE_WARNING,
    Action,
    ConsumerGroupsLine,
    View,
    check,
    check_available,
    consumer_states,
    consumer_types,
    option_long,
)
from kcli.ops.groups.model import GroupState, GroupType


def line(*actions: Action, **options: object) -> ConsumerGroupsLine:
    return ConsumerGroupsLine(actions=frozenset(actions), **options)  # type: ignore[arg-type]


D, L, R = Action.DESCRIBE, Action.LIST, Action.RESET_OFFSETS


@pytest.mark.parametrize(
    ("given", "message"),
    [
        (line(D), "Option [describe] takes one of these options: [group], [all-groups]"),
        (
            line(D, groups=("g",), members=True, state=""),
            "Option [describe] takes at most one of these options: [members], [offsets], [state]",
        ),
        (line(D, groups=("g",), state="Stable"), "Option [describe] does not take a value for [state]"),
        (line(Action.DELETE), "Option [delete] takes one of these options: [group], [all-groups]"),
        (
            line(Action.DELETE, groups=("g",), topics=("t",)),
            "The consumer does not support topic-specific offset deletion from a consumer group.",
        ),
        (
            line(Action.DELETE_OFFSETS, groups=("g",)),
            "Option [delete-offsets] takes the following options: [group], [topic]",
        ),
        (
            line(R, groups=("g",), dry_run=True, execute=True),
            "Option [reset-offsets] only accepts one of [execute] and [dry-run]",
        ),
        (
            line(R, topics=("t",), specs={"to-earliest": ("",)}),
            "Option [reset-offsets] takes one of these options: [group], [all-groups]",
        ),
        (
            line(R, groups=("g",), specs={"to-earliest": ("",), "to-latest": ("",)}),
            'Option "[to-earliest]" can\'t be used with option "[to-latest]"',
        ),
        (
            line(D, groups=("g",), all_groups=True),
            'Option "[group]" can\'t be used with option "[all-groups]"',
        ),
        (line(L, groups=("g",)), 'Option "[group]" can\'t be used with option "[list]"'),
        (line(D, groups=("g",), topics=("t",)), 'Option "[topic]" can\'t be used with option "[describe]"'),
        (
            line(),
            "Command must include exactly one action: --list, --describe, --delete, --reset-offsets, --delete-offsets, --validate-regex",
        ),
        (line(L, Action.DELETE, all_groups=True), "Command must include exactly one action"),
    ],
)
def test_each_check_refuses_with_kafkas_words(given: ConsumerGroupsLine, message: str) -> None:
    with pytest.raises(UsageError) as refused:
        check(given)
    assert message in refused.value.message


def test_the_checks_come_in_kafkas_order() -> None:
    """--describe without a group is reported before the two actions: checkArgs runs before main."""
    with pytest.raises(UsageError, match=r"Option \[describe\] takes one of these options"):
        check(line(L, D))


@pytest.mark.parametrize(
    ("given", "unavailable"),
    [
        (line(L, members=True), "members"),
        (line(L, verbose=True), "verbose"),
        (line(R, state=""), "state"),
        (line(D, groups=("g",), type=""), "type"),
    ],
)
def test_options_only_some_actions_take_are_refused_first(
    given: ConsumerGroupsLine, unavailable: str
) -> None:
    with pytest.raises(
        UsageError, match=rf"Option\(s\) \[{unavailable}\] are unavailable given other options"
    ):
        check_available(given)


def test_a_reset_without_execute_is_a_dry_run_with_kafkas_warning() -> None:
    warnings: list[str] = []
    given = line(R, groups=("g",), topics=("t",), specs={"to-earliest": ("",)})
    check(given, warn=warnings)
    assert warnings == [NO_EXECUTE_WARNING]
    assert given.dry and given.spec == "to-earliest"
    assert not line(R, groups=("g",), execute=True).dry


def test_the_view_of_describe() -> None:
    assert line(D).view is View.OFFSETS
    assert line(D, members=True).view is View.MEMBERS
    assert line(D, state="").view is View.STATE


def test_states_and_types_as_kafka_parses_them() -> None:
    assert consumer_states("stable, EMPTY") == [GroupState.STABLE, GroupState.EMPTY]
    assert consumer_types("Classic,consumer") == [GroupType.CLASSIC, GroupType.CONSUMER]
    with pytest.raises(
        UsageError, match=r"Invalid state list 'bogus'\. Valid states are: PreparingRebalance"
    ):
        consumer_states("bogus")
    with pytest.raises(UsageError, match=r"Invalid types list 'share'\. Valid types are: Consumer, Classic"):
        consumer_types("share")


@pytest.mark.parametrize(("text", "value"), [("5", 5), ("-5", -5), ("+7", 7), ("0009", 9)])
def test_numbers_as_long_parse_long_reads_them(text: str, value: int) -> None:
    assert option_long(text, "to-offset") == value


@pytest.mark.parametrize("text", ["ten", "1.5", "", " 5", "9223372036854775808", "1" * 5000])
def test_a_bad_number_is_worded_as_jopt_simple_words_it(text: str) -> None:
    with pytest.raises(UsageError, match=r"Cannot parse argument '.*' of option to-offset"):
        option_long(text, "to-offset")


def _parsed(register: Callable[[typer.Typer], None], tool: str, args: list[str], **of: str) -> ConsumerGroupsLine:
    """The line a tool's typer command makes of `args` (its options as the command receives them)."""
    app = typer.Typer()
    app.callback()(lambda: None)  # a group, so that the tool is one of its commands
    register(app)
    command = typer.main.get_command(app).commands[tool]  # type: ignore[attr-defined]
    return ConsumerGroupsLine.of(command.make_context(tool, args).params, **of)


def test_each_groups_tool_s_options_become_the_line_kafka_s_parser_reads() -> None:
    from kcli.cli import consumer_groups, share_groups, streams_groups

    connection = ["--bootstrap-server", "localhost:9092"]
    cases = [
        (
            consumer_groups.register, "consumer-groups", {},
            ["--reset-offsets", "--group", "g1", "--group", "g2", "--topic", "t:0", "--to-earliest", "--execute"],
            line(R, groups=("g1", "g2"), topics=("t:0",), specs={"to-earliest": ("",)}, execute=True),
        ),
        (
            consumer_groups.register, "consumer-groups", {},
            ["--reset-offsets", "--all-groups", "--all-topics", "--to-datetime", "2026-01-01T00:00:00.000"],
            line(R, all_groups=True, all_topics=True, specs={"to-datetime": ("2026-01-01T00:00:00.000",)}),
        ),
        (consumer_groups.register, "consumer-groups", {}, ["--validate-regex", "a.*"],
         line(Action.VALIDATE_REGEX, validate_regex="a.*")),
        (consumer_groups.register, "consumer-groups", {}, ["--list", "--type", "classic", "--timeout", "500"],
         line(L, type="classic", timeout="500")),
        # kcli.cli.argv hands click a --state given without a value as `--state=`
        (consumer_groups.register, "consumer-groups", {}, ["--list", "--state="], line(L, state="")),
        (share_groups.register, "share-groups", {}, ["--list", "--state", "Stable"], line(L, state="Stable")),
        (
            consumer_groups.register, "consumer-groups", {},
            ["--describe", "--group", "g", "--members", "--verbose", "--offsets", "--describe"],
            line(D, groups=("g",), members=True, verbose=True, offsets=True),
        ),
        (
            streams_groups.register, "streams-groups", {"topic": "input_topic"},
            ["--reset-offsets", "--group", "s", "--input-topic", "in", "--all-input-topics", "--shift-by", "-2",
             "--dry-run", "--delete"],
            line(R, Action.DELETE, groups=("s",), topics=("in",), all_topics=True, specs={"shift-by": ("-2",)},
                 dry_run=True),
        ),
        (share_groups.register, "share-groups", {}, ["--delete-offsets", "--group", "sg", "--topic", "t", "--export"],
         line(Action.DELETE_OFFSETS, groups=("sg",), topics=("t",), export=True)),
    ]  # fmt: skip
    for register, tool, of, args, expected in cases:
        assert _parsed(register, tool, [*args, *connection], **of) == expected, args
