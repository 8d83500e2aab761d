"""`kcli topics`: the command line checked as kafka-topics.sh checks it, and its values read as it reads them.

Pure: no network. kcli.cli.topics collects the options given; this module says which action they
ask for, or refuses them with Kafka's words, in the order TopicCommand (Kafka 4.4) checks:
1. exactly one action of --list, --describe, --create, --alter, --delete;
2. (--delete-config: a deprecation line on stderr, then ignored)
3. a bootstrap server (kcli: from the flags, --command-config, the profile or the environment);
4. --describe --if-exists names --topic or --topic-id (both: the topic id wins, said on stdout);
5. --create, --alter and --delete name a --topic (kcli: --delete takes a --topic-id instead);
6. --alter takes no --config and needs --partitions;
7. each option only with the actions it belongs to, and --replica-assignment not beside
   --partitions or --replication-factor with --create.
Values: --partitions, --replication-factor and --partition-size-limit-per-response are Java ints;
--replica-assignment is `1:2,2:3` (no broker twice in a partition, one replication factor for all);
--config is `name=value`, each name a topic config and each value one its type accepts
(LogConfig.validate).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from kcli.errors import UsageError

ALTER_TOPIC_CONFIGS = " (To alter topic configurations, the kafka-configs tool can be used.)"
DELETE_CONFIG_DEPRECATED = (
    "delete-config option is no longer supported and deprecated since version 4.0. "
    "The config will be fully removed in future releases."
)
BOTH_TOPIC_AND_ID = "Only topic id will be used when both --topic and --topic-id are specified and topicId is not Uuid.ZERO_UUID"
MISSING_BOOTSTRAP = "--bootstrap-server must be specified"


class Action(StrEnum):
    LIST = "list"
    DESCRIBE = "describe"
    CREATE = "create"
    ALTER = "alter"
    DELETE = "delete"


ALL_ACTIONS = (Action.CREATE, Action.LIST, Action.ALTER, Action.DESCRIBE, Action.DELETE)
REPORTS = (
    "under-replicated-partitions",
    "under-min-isr-partitions",
    "at-min-isr-partitions",
    "unavailable-partitions",
)


def _others(*keep: Action) -> list[str]:
    return [a.value for a in ALL_ACTIONS if a not in keep]


# (option, the options it cannot go with), in the order TopicCommand.checkInvalidArgs checks them;
# each list starts with the actions it does not belong to (one action at most is given).
_INVALID: list[tuple[str, list[str]]] = [
    ("config", _others(Action.ALTER, Action.CREATE)),
    ("partitions", _others(Action.ALTER, Action.CREATE)),
    ("replication-factor", _others(Action.CREATE)),
    ("replica-assignment", _others(Action.ALTER, Action.CREATE)),
    *[(report, [*_others(Action.DESCRIBE), "topics-with-overrides"]) for report in REPORTS],
    ("topics-with-overrides", [*_others(Action.DESCRIBE), *REPORTS]),
    ("if-exists", _others(Action.ALTER, Action.DELETE, Action.DESCRIBE)),
    ("if-not-exists", _others(Action.CREATE)),
    ("exclude-internal", _others(Action.LIST, Action.DESCRIBE)),
]
# kcli's own options: which actions take them.
_KCLI_ONLY = {"dry-run": (Action.CREATE, Action.ALTER, Action.DELETE)}


def choose_action(given: Mapping[str, bool]) -> Action:
    """The one action given (TopicCommand's first check)."""
    chosen = [a for a in ALL_ACTIONS if given.get(a.value)]
    if len(chosen) != 1:
        raise UsageError(
            "Command must include exactly one action: --list, --describe, --create, --alter or --delete"
        )
    return chosen[0]


def check_options(action: Action, given: Mapping[str, bool]) -> list[str]:
    """The checks after the bootstrap one, in TopicCommand's order; returns lines for stdout.

    kcli differs where it adds: --delete by --topic-id, --alter --replication-factor (a plan for the
    minimal-movement planner, never a recreate) and --dry-run.
    """
    notes: list[str] = []
    has = {name for name, on in given.items() if on}
    if action is Action.DESCRIBE and "if-exists" in has:
        if "topic" not in has and "topic-id" not in has:
            raise UsageError("--topic or --topic-id is required to describe a topic")
        if "topic" in has and "topic-id" in has:
            notes.append(BOTH_TOPIC_AND_ID)
    by_id = action is Action.DELETE and "topic-id" in has  # kcli: --delete by topic id
    if action not in (Action.LIST, Action.DESCRIBE) and "topic" not in has and not by_id:
        raise UsageError('Missing required argument "[topic]"')
    if action is Action.ALTER:
        if "config" in has:
            raise UsageError(
                f'Option combination "[[bootstrap-server], [config]]" can\'t be used with option "[alter]"'
                f"{ALTER_TOPIC_CONFIGS}"
            )
        if "partitions" not in has and "replication-factor" not in has:
            raise UsageError('Missing required argument "[partitions]"')
    for option, invalid in _INVALID:
        if option == "replication-factor" and action is Action.ALTER:
            continue  # kcli: a replication-factor change, routed to the reassignment planner
        if option in has:
            for other in invalid:
                if other in has:
                    raise UsageError(f'Option "[{option}]" can\'t be used with option "[{other}]"')
    if action is Action.CREATE and "replica-assignment" in has:
        for other in ("partitions", "replication-factor"):
            if other in has:
                raise UsageError(f'Option "[replica-assignment]" can\'t be used with option "[{other}]"')
    if action is Action.ALTER and "replication-factor" in has:
        for other in ("partitions", "replica-assignment"):
            if other in has:
                raise UsageError(
                    f"--alter --replication-factor plans a reassignment on its own: give --{other} in a "
                    "separate --alter"
                )
    for option, actions in _KCLI_ONLY.items():
        if option in has and action not in actions:
            raise UsageError(f"--{option} goes with --create, --alter or --delete, not --{action.value}")
    return notes


def java_int(text: str, option: str) -> int:
    """An option's value as jopt-simple converts it to a Java Integer."""
    from kcli.integers import java_long

    value = java_long(text)
    if value is None or not -(2**31) <= value < 2**31:
        raise UsageError(f"Cannot parse argument '{text}' of option {option}")
    return value


def _java_list(values: Iterable[object]) -> str:
    return "[" + ", ".join(str(v) for v in values) + "]"


def parse_replica_assignment(text: str) -> dict[int, tuple[int, ...]]:
    """--replica-assignment `1:2,2:3,3:1`: the replicas of partitions 0, 1, 2 (TopicCommand's rules and words)."""
    from kcli.integers import java_long
    from kcli.ops.java_order import hash_set_order, integer_hash

    out: dict[int, tuple[int, ...]] = {}
    for index, part in enumerate(_java_split(text, ",")):
        brokers: list[int] = []
        for word in _java_split(part, ":"):
            word = word.strip()
            value = java_long(word)
            if value is None or not -(2**31) <= value < 2**31:
                raise UsageError(f'For input string: "{word}" (--replica-assignment)')
            brokers.append(value)
        seen: set[int] = set()
        repeated: list[int] = []
        for broker in brokers:
            if broker in seen:
                repeated.append(broker)
            seen.add(broker)
        if repeated:
            ordered = hash_set_order(repeated, integer_hash)
            raise UsageError(
                "Partition replica lists may not contain duplicate entries: " + ",".join(map(str, ordered))
            )
        out[index] = tuple(brokers)
        if len(brokers) != len(out[0]):
            raise UsageError(f"Partition {index} has different replication factor: {_java_list(brokers)}")
    return out


def _java_split(text: str, separator: str) -> list[str]:
    """String.split of a one-character separator: trailing empty strings removed (all of them)."""
    if text == "":
        return [""]
    parts = text.split(separator)
    while parts and parts[-1] == "":
        parts.pop()
    return parts


def parse_topic_configs(values: Sequence[str]) -> dict[str, str]:
    """--config name=value pairs, checked as LogConfig.validate checks them (names, then values)."""
    import re

    from kcli.ops.config_catalogue import configs_of
    from kcli.ops.java_order import hash_set_order, string_hash

    pairs: list[list[str]] = []
    for value in values:
        parts = re.split(r"\s*=\s*", value)
        while parts and parts[-1] == "":
            parts.pop()
        pairs.append(parts)
    if not all(len(pair) == 2 for pair in pairs):
        raise UsageError(
            'requirement failed: Invalid topic config: all configs to be added must be in the format "key=val".'
        )
    props = {name.strip(): value.strip() for name, value in pairs}
    known = configs_of("topics")
    for name in hash_set_order(list(props), string_hash):  # the HashMap LogConfig reads them from
        if name not in known:
            raise UsageError(
                f"Unknown topic config name: {name}",
                hint="kcli configs --describe --all --entity-type topics lists the topic configs",
            )
    for name, value in props.items():
        problem = known[name].validate(value)
        if problem is not None:
            raise UsageError(problem)
    return props


def has_collision_chars(name: str) -> bool:
    """Topic.hasCollisionChars: metric names cannot tell '.' from '_'."""
    return "." in name or "_" in name


COLLISION_WARNING = (
    "WARNING: Due to limitations in metric names, topics with a period ('.') or underscore ('_') could "
    "collide. To avoid issues it is best to use either, but not both."
)


@dataclass(frozen=True, slots=True, kw_only=True)
class NewTopic:
    """What --create asks for: a count and factor (-1: the cluster's default) or an explicit assignment."""

    name: str
    partitions: int = -1
    replication_factor: int = -1
    assignment: Mapping[int, tuple[int, ...]] | None = None
    configs: Mapping[str, str] | None = None


def check_create_values(partitions: int | None, replication_factor: int | None) -> None:
    """TopicService.createTopic's range checks (after the collision warning)."""
    if replication_factor is not None and not 1 <= replication_factor <= 32767:
        raise UsageError("The replication factor must be between 1 and 32767 inclusive")
    if partitions is not None and partitions < 1:
        raise UsageError("The partitions must be greater than 0")


def check_brokers(assignment: Mapping[int, tuple[int, ...]], brokers: Iterable[int]) -> None:
    """Every broker of an assignment is registered (the controller's check, made before anything is sent)."""
    known = set(brokers)
    for replicas in assignment.values():
        for broker in replicas:
            if broker not in known:
                raise UsageError(
                    f"The manual partition assignment includes broker {broker}, but no such broker is "
                    "registered.",
                    hint=f"the cluster's brokers are {','.join(map(str, sorted(known)))}",
                )


@dataclass(frozen=True, slots=True, kw_only=True)
class TopicArgs:
    """The values of a kcli topics command line, as given (numbers still text: each action reads its own)."""

    topic: str | None = None
    topic_id: str | None = None
    partitions: str | None = None
    replication_factor: str | None = None
    replica_assignment: str | None = None
    configs: tuple[str, ...] = ()
    if_exists: bool = False
    if_not_exists: bool = False
    exclude_internal: bool = False
    reports: tuple[str, ...] = ()  # the --describe partition reports given, in REPORTS' spelling
    with_overrides: bool = False
    partition_limit: str | None = None
    dry_run: bool = False


def given_values(args: TopicArgs) -> dict[str, bool]:
    """Which value options a command line gave, by their kafka-topics names."""
    return {
        "topic": args.topic is not None,
        "topic-id": args.topic_id is not None,
        "partitions": args.partitions is not None,
        "replication-factor": args.replication_factor is not None,
        "replica-assignment": args.replica_assignment is not None,
        "config": bool(args.configs),
        "if-exists": args.if_exists,
        "if-not-exists": args.if_not_exists,
        "exclude-internal": args.exclude_internal,
        "topics-with-overrides": args.with_overrides,
        "dry-run": args.dry_run,
    }
