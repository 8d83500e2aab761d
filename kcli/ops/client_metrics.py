"""`kcli client-metrics`: kafka-client-metrics.sh's options and rules, checked in its order (no network).

Behavior (ClientMetricsCommand of Kafka 4.4; 4.0 the same but where noted):
- exactly one action of --alter, --delete, --describe, --list; --bootstrap-server is required;
- --delete and --describe take no --generate-name, --interval, --match, --metrics; --list no --name
  either (jopt's `Option "[a]" can't be used with option "[b]"`, the first in that order);
- --alter needs --name or --generate-name (not both); --interval is a Java int, or empty to reset;
- --delete needs --name;
- --alter sets interval.ms, metrics and match (the comma-joined values of each option given); an
  empty value deletes the key. A generated name is a random Kafka Uuid.
- --describe of a name that has no subscription says so (4.1+; 4.0 printed an empty block).
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from kcli.errors import UsageError

INTERVAL_KEY, METRICS_KEY, MATCH_KEY = "interval.ms", "metrics", "match"
MATCH_SELECTORS = (
    "client_id",
    "client_instance_id",
    "client_software_name",
    "client_software_version",
    "client_source_address",
    "client_source_port",
)
_JAVA_INT = re.compile(r"[+-]?[0-9]+")
_INT_MIN, _INT_MAX = -(2**31), 2**31 - 1


class Action(StrEnum):
    ALTER = "alter"
    DELETE = "delete"
    DESCRIBE = "describe"
    LIST = "list"


@dataclass(frozen=True, slots=True, kw_only=True)
class Given:
    """The options as given (None: absent; a list option's values as given, before splitting)."""

    alter: bool = False
    delete: bool = False
    describe: bool = False
    list_: bool = False
    bootstrap_server: bool = False
    name: str | None = None
    generate_name: bool = False
    interval: str | None = None
    match: Sequence[str] | None = None
    metrics: Sequence[str] | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Request:
    """What to do: the action, the subscription's name (None: every one), and --alter's changes
    (key -> value; an empty value deletes the key)."""

    action: Action
    name: str | None = None
    changes: tuple[tuple[str, str], ...] = ()


def action_of(given: Given) -> Action:
    """The one action given: kafka-client-metrics.sh's first check (the bootstrap comes next)."""
    actions = [a for a, on in ((Action.ALTER, given.alter), (Action.DELETE, given.delete),
                               (Action.DESCRIBE, given.describe), (Action.LIST, given.list_)) if on]  # fmt: skip
    if len(actions) != 1:
        raise UsageError("Command must include exactly one action: --alter, --delete, --describe or --list.")
    return actions[0]


def plan(given: Given) -> Request:
    """The request `given` asks for, or the UsageError kafka-client-metrics.sh gives, in its order
    (the action, --bootstrap-server, the options the action refuses, the action's own)."""
    action = action_of(given)
    if not given.bootstrap_server:
        raise UsageError("--bootstrap-server must be specified.")
    _check_invalid(action, given)
    if action is Action.ALTER:
        if (given.name is not None) == given.generate_name:
            raise UsageError("One of --name or --generate-name must be specified with --alter.")
        if given.interval and not _is_java_int(given.interval):
            raise UsageError("Invalid interval value. Enter an integer, or leave empty to reset.")
        return Request(action=action, name=given.name or generated_name(), changes=_changes(given))
    if action is Action.DELETE and given.name is None:
        raise UsageError("A client metrics resource name must be specified with --delete.")
    return Request(action=action, name=given.name)


def _check_invalid(action: Action, given: Given) -> None:
    """CommandLineUtils.checkInvalidArgs of each action, in the tool's order."""
    present = {
        "name": given.name is not None,
        "generate-name": given.generate_name,
        "interval": given.interval is not None,
        "match": given.match is not None,
        "metrics": given.metrics is not None,
    }
    refused = {
        Action.DELETE: ("generate-name", "interval", "match", "metrics"),
        Action.DESCRIBE: ("generate-name", "interval", "match", "metrics"),
        Action.LIST: ("name", "generate-name", "interval", "match", "metrics"),
    }.get(action, ())
    for option in refused:
        if present[option]:
            raise UsageError(f'Option "[{action.value}]" can\'t be used with option "[{option}]"')


def _is_java_int(text: str) -> bool:
    return bool(_JAVA_INT.fullmatch(text)) and _INT_MIN <= int(text) <= _INT_MAX


def _joined(values: Sequence[str]) -> str:
    """jopt's comma-separated values of every occurrence, joined again with commas."""
    return ",".join(part for value in values for part in value.split(","))


def _changes(given: Given) -> tuple[tuple[str, str], ...]:
    changes: list[tuple[str, str]] = []
    if given.interval is not None:
        changes.append((INTERVAL_KEY, given.interval))
    if given.metrics is not None:
        changes.append((METRICS_KEY, _joined(given.metrics)))
    if given.match is not None:
        changes.append((MATCH_KEY, _joined(given.match)))
    return tuple(changes)


def generated_name() -> str:
    """Uuid.randomUuid().toString(): a random Kafka Uuid, never one that starts with `-`."""
    from kcli.metadata.uuids import kafka_uuid

    while True:
        name = kafka_uuid(uuid.uuid4())
        if not name.startswith("-"):
            return name


def missing_line(name: str) -> str:
    """What --describe (and kcli's --delete) print for a name without a subscription."""
    return f"The client metric resource {name} doesn't exist and doesn't have dynamic config."
