"""kafka-consumer-groups.sh's checks, in ConsumerGroupCommandOptions' order (each message as Kafka 4.4 words it)."""

from __future__ import annotations

import pytest

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
