"""`kcli consumer-groups`: the command line as kafka-consumer-groups.sh reads it, checked in its order.

Pure: the typer module hands the options over as given (values as text, so that a bad number is
worded as Kafka words it); `check` refuses what ConsumerGroupCommandOptions refuses, first to last.

Behavior (Kafka 4.4's ConsumerGroupCommandOptions.checkArgs, then ConsumerGroupCommand.main):
1. options only available with others (jopt-simple availableIf): --members, --verbose, --offsets
   with --describe; --state with --describe or --list; --type with --list;
2. --bootstrap-server, unless --validate-regex (checked by the caller, where the client settings
   are resolved: a profile or KCLI_BOOTSTRAP_SERVER counts too);
3. --describe: --group or --all-groups; at most one of --members, --offsets, --state; no value for --state;
4. --delete: --group or --all-groups; no --topic;
5. --delete-offsets: --group and --topic;
6. --reset-offsets: not both --dry-run and --execute (neither: a warning, the run is a dry run);
   --group or --all-groups; one reset specification;
7. --group with --all-groups or --list; --topic with --list or --describe;
8. exactly one action.
Kafka prints a Java set of options in an order randomized per JVM; kcli names them in a fixed order.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, TypeVar

from kcli.errors import UsageError
from kcli.ops.groups.model import STATES_FOR_TYPE, GroupState, GroupType

T = TypeVar("T")

NO_EXECUTE_WARNING = (
    "WARN: No action will be performed as the --execute option is missing. In version 5.0, this command "
    "will require either --dry-run or --execute to be specified. You should add the --dry-run option "
    "explicitly if you are scripting this command and want to keep the current default behavior without "
    "prompting."
)
MISSING_BOOTSTRAP = 'Missing required argument "[bootstrap-server]"'
DEFAULT_TIMEOUT_MS = 30000  # --timeout's default (Kafka 4.0: 5000)


class Action(Enum):
    LIST = "list"
    DESCRIBE = "describe"
    DELETE = "delete"
    RESET_OFFSETS = "reset-offsets"
    DELETE_OFFSETS = "delete-offsets"
    VALIDATE_REGEX = "validate-regex"


class View(Enum):
    """What --describe prints."""

    OFFSETS = "offsets"
    MEMBERS = "members"
    STATE = "state"


# The fields `ConsumerGroupsLine.of` takes by the name of the option's parameter.
_FIELDS_BY_NAME = frozenset({"validate_regex", "all_groups", "members", "verbose", "offsets", "state", "type",
                             "timeout", "dry_run", "execute", "export"})  # fmt: skip

# The reset specifications, in the order Kafka checks them against each other.
RESET_SPECS = (
    "to-offset",
    "to-datetime",
    "by-duration",
    "to-earliest",
    "to-latest",
    "to-current",
    "shift-by",
    "from-file",
)


@dataclass(frozen=True, slots=True, kw_only=True)
class ConsumerGroupsLine:
    """kafka-consumer-groups.sh's options as given: flags, and values as text (repeatable ones as tuples).

    `state` and `type` take an optional value: None when absent, "" when given without one.
    """

    actions: frozenset[Action] = frozenset()
    validate_regex: str | None = None
    groups: tuple[str, ...] = ()
    all_groups: bool = False
    topics: tuple[str, ...] = ()
    all_topics: bool = False
    members: bool = False
    verbose: bool = False
    offsets: bool = False
    state: str | None = None
    type: str | None = None
    timeout: str | None = None
    dry_run: bool = False
    execute: bool = False
    export: bool = False
    specs: dict[str, tuple[str, ...]] = field(default_factory=dict)  # RESET_SPECS given -> their values

    @classmethod
    def of(cls, params: Mapping[str, Any], *, topic: str = "topic") -> ConsumerGroupsLine:
        """The line from a tool's options by parameter name (typer's `ctx.params`): the actions given,
        the reset specifications given (a flag as one empty value), the other fields by their names
        (`type_` for `type`); `topic` names the option of the topics (`input_topic` for streams
        groups), `all_<topic>s` the flag of them all."""

        def given(name: str) -> Any:
            return params.get(name, params.get(f"{name}_"))

        values = {name: given(name) for name in _FIELDS_BY_NAME if given(name) is not None}
        specs = {
            name: ("",) if value is True else tuple(value)
            for name in RESET_SPECS
            if (value := given(name.replace("-", "_")))
        }
        # --validate-regex takes a value (given when not None); the other actions are flags
        flagged = {action: given(action.value.replace("-", "_")) for action in Action}
        actions = frozenset(
            action
            for action, value in flagged.items()
            if (value is not None if action is Action.VALIDATE_REGEX else value)
        )
        return cls(
            actions=actions,
            groups=tuple(params.get("group") or ()),
            topics=tuple(params.get(topic) or ()),
            all_topics=bool(params.get(f"all_{topic}s")),
            specs=specs,
            **values,
        )

    def has(self, action: Action) -> bool:
        return action in self.actions

    @property
    def named_groups(self) -> list[str] | None:
        """The groups named with --group (None for --all-groups)."""
        return None if self.all_groups else list(self.groups)

    @property
    def timeout_ms(self) -> int:
        """--timeout as Kafka parses it (its default when absent), within what a request can carry."""
        given = option_long(self.timeout, "timeout") if self.timeout is not None else DEFAULT_TIMEOUT_MS
        return max(1, min(given, 2**31 - 1))

    @property
    def action(self) -> Action:
        (action,) = self.actions
        return action

    @property
    def view(self) -> View:
        return View.MEMBERS if self.members else View.STATE if self.state is not None else View.OFFSETS

    @property
    def dry(self) -> bool:
        """Dry-run is the default unless --execute."""
        return self.dry_run or not self.execute

    @property
    def spec(self) -> str | None:
        """The one reset specification given (check() makes sure there is at most one)."""
        return next((name for name in RESET_SPECS if name in self.specs), None)


def _names(*options: str) -> str:
    return ", ".join(f"[{option}]" for option in options)


def check(line: ConsumerGroupsLine, *, warn: list[str] | None = None) -> None:
    """Refuse what kafka-consumer-groups.sh refuses after --bootstrap-server (UsageError), in its order.

    The no-execute warning of a --reset-offsets dry run is appended to `warn` where Kafka prints it.
    """
    describe, delete = line.has(Action.DESCRIBE), line.has(Action.DELETE)
    has_group = bool(line.groups)
    if describe:
        if not has_group and not line.all_groups:
            raise UsageError(f"Option [describe] takes one of these options: {_names('group', 'all-groups')}")
        if line.members + line.offsets + (line.state is not None) > 1:
            raise UsageError(
                f"Option [describe] takes at most one of these options: {_names('members', 'offsets', 'state')}"
            )
        if line.state:
            raise UsageError("Option [describe] does not take a value for [state]")
    if delete:
        if not has_group and not line.all_groups:
            raise UsageError(f"Option [delete] takes one of these options: {_names('group', 'all-groups')}")
        if line.topics:
            raise UsageError(
                "The consumer does not support topic-specific offset deletion from a consumer group."
            )
    if line.has(Action.DELETE_OFFSETS) and (not has_group or not line.topics):
        raise UsageError(f"Option [delete-offsets] takes the following options: {_names('group', 'topic')}")
    if line.has(Action.RESET_OFFSETS):
        _check_reset(line, warn)
    if has_group and line.all_groups:
        raise UsageError('Option "[group]" can\'t be used with option "[all-groups]"')
    if has_group and line.has(Action.LIST):
        raise UsageError('Option "[group]" can\'t be used with option "[list]"')
    for action in (Action.LIST, Action.DESCRIBE):
        if line.topics and line.has(action):
            raise UsageError(f'Option "[topic]" can\'t be used with option "[{action.value}]"')
    if len(line.actions) != 1:
        raise UsageError(
            "Command must include exactly one action: " + ", ".join(f"--{action.value}" for action in Action)
        )


def check_available(line: ConsumerGroupsLine) -> None:
    """The options jopt-simple refuses while parsing (availableIf), before any other check."""
    describe, list_ = line.has(Action.DESCRIBE), line.has(Action.LIST)
    refuse_unavailable(
        (
            ("members", line.members, describe),
            ("verbose", line.verbose, describe),
            ("offsets", line.offsets, describe),
            ("state", line.state is not None, describe or list_),
            ("type", line.type is not None, list_),
        )
    )


def refuse_unavailable(options: Sequence[tuple[str, bool, bool]]) -> None:
    """jopt-simple's availableIf refusal: the options (name, given, allowed) given where not allowed,
    named in the order listed."""
    unavailable = [name for name, given, allowed in options if given and not allowed]
    if unavailable:
        raise UsageError(
            f"Option(s) [{', '.join(unavailable)}] are unavailable given other options on the command line"
        )


def _check_reset(line: ConsumerGroupsLine, warn: list[str] | None) -> None:
    if line.dry_run and line.execute:
        raise UsageError("Option [reset-offsets] only accepts one of [execute] and [dry-run]")
    if not line.dry_run and not line.execute and warn is not None:
        warn.append(NO_EXECUTE_WARNING)
    if not line.groups and not line.all_groups:
        raise UsageError(
            f"Option [reset-offsets] takes one of these options: {_names('group', 'all-groups')}"
        )
    for spec in RESET_SPECS:
        if spec not in line.specs:
            continue
        other = next((name for name in RESET_SPECS if name != spec and name in line.specs), None)
        if other is not None:
            raise UsageError(f'Option "[{spec}]" can\'t be used with option "[{other}]"')


def option_long(text: str, option: str) -> int:
    """Long.parseLong as jopt-simple converts an option's value (a usage error worded as Kafka's)."""
    from kcli.integers import clipped, java_long

    value = java_long(text)
    if value is None:
        raise UsageError(f"Cannot parse argument '{clipped(text)}' of option {option}")
    return value


def consumer_states(text: str) -> list[GroupState]:
    """--state's list (groupStatesFromString): the states of consumer groups only."""
    return parse_list(text, GroupState.parse, STATES_FOR_TYPE[GroupType.CONSUMER], "state", "states")


def consumer_types(text: str) -> list[GroupType]:
    """--type's list (consumerGroupTypesFromString): classic and consumer only."""
    return parse_list(text, GroupType.parse, (GroupType.CONSUMER, GroupType.CLASSIC), "types", "types")


def parse_list(text: str, parse: Callable[[str], T], valid: Sequence[T], what: str, plural: str) -> list[T]:
    parsed = list(dict.fromkeys(parse(item.strip()) for item in text.split(",")))
    if any(item not in valid for item in parsed):
        names = ", ".join(str(v) for v in valid)
        raise UsageError(f"Invalid {what} list '{text}'. Valid {plural} are: {names}")
    return parsed


def check_outputs(line: ConsumerGroupsLine, *, rollback_file: bool, text: bool) -> None:
    """--rollback-file only where a reset executes; --export (CSV) only with the text output."""
    if rollback_file and not (line.has(Action.RESET_OFFSETS) and line.execute):
        raise UsageError("--rollback-file goes with --reset-offsets --execute")
    if line.export and not text:
        raise UsageError("--export prints CSV: leave out -o/--output")
