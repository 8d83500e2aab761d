"""`kcli get-offsets`: kafka-get-offsets.sh's filters and --time, as GetOffsetShell reads them.

Pure. Behavior (Kafka 4.4's GetOffsetShell):
- --time: `latest` (-1, the default), `earliest` (-2), `max-timestamp` (-3), `earliest-local` (-4),
  `latest-tiered` (-5), `earliest-pending-upload` (-6, Kafka 4.4), or epoch milliseconds;
- --topic REGEX and --partitions 0,1 (none: every partition), or --topic-partitions, a comma
  list of `REGEX[:N]`, `REGEX:N-M` (M exclusive), `REGEX:N-`, `REGEX:-M` (REGEX may be empty: any topic);
  topic regexes are read as Kafka's TopicFilter reads them (kcli.ops.topics.topic_pattern);
- the offsets print as `topic:partition:offset`, sorted by `topic-partition` as text; a partition
  without an offset at that time (-1) is left out.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from kcli.errors import UsageError
from kcli.integers import clipped, java_long
from kcli.ops.reassign.model import TopicPartition

TIMES = {
    "latest": -1,
    "earliest": -2,
    "max-timestamp": -3,
    "earliest-local": -4,
    "latest-tiered": -5,
    "earliest-pending-upload": -6,
}
_RULE = re.compile(r"([^:,]*)(?::(?:([0-9]*)|(?:([0-9]*)-([0-9]*))))?")
_INT_MAX = 2**31 - 1


def offset_spec(text: str) -> int:
    """--time as ListOffsets' timestamp: a name, a negative special value, or epoch ms."""
    if text in TIMES:
        return TIMES[text]
    value = java_long(text)
    if value is None:
        raise UsageError(
            f"Malformed time argument {clipped(text)}. Please use -1 or latest / -2 or earliest / -3 or "
            "max-timestamp / -4 or earliest-local / -5 or latest-tiered / -6 or earliest-pending-upload, "
            "or a specified long format timestamp"
        )
    return value


@dataclass(frozen=True, slots=True)
class PartitionRule:
    """One topic regex with the partitions it takes: [low, high) (high None: no bound), or a set."""

    topic: re.Pattern[str]
    low: int = 0
    high: int | None = None
    only: frozenset[int] | None = None

    def topic_allowed(self, topic: str) -> bool:
        return self.topic.fullmatch(topic) is not None

    def allowed(self, tp: TopicPartition) -> bool:
        if not self.topic_allowed(tp.topic):
            return False
        if self.only is not None:
            return not self.only or tp.partition in self.only
        return self.low <= tp.partition and (self.high is None or tp.partition < self.high)


def rules(
    *, topic: str | None, partitions: str | None, topic_partitions: str | None
) -> tuple[PartitionRule, ...]:
    """The filter of the options given (--topic-partitions, or --topic with --partitions)."""
    from kcli.ops.topics import topic_pattern

    if topic_partitions is not None:
        return tuple(_rule(spec, topic_pattern) for spec in _java_split(topic_partitions))
    only = frozenset(_partition_set(partitions)) if partitions else frozenset()
    return (PartitionRule(topic=topic_pattern(topic if topic is not None else ".*"), only=only),)


def _java_split(text: str) -> list[str]:
    parts = text.split(",")
    while parts and parts[-1] == "":
        parts.pop()
    return parts


def _rule(spec: str, pattern_of: object) -> PartitionRule:
    found = _RULE.fullmatch(spec)
    if found is None:
        raise UsageError(f"Invalid rule specification: {spec}")
    regex, single, low, high = (g if g else None for g in found.groups())
    topic = pattern_of(regex or ".*")  # type: ignore[operator]
    if single is not None:
        number = _bounded(single)
        return PartitionRule(topic=topic, only=frozenset({number}))
    return PartitionRule(topic=topic, low=_bounded(low) if low else 0, high=_bounded(high) if high else None)


def _bounded(digits: str) -> int:
    value = java_long(digits)
    if value is None or value > _INT_MAX:
        raise UsageError(f'For input string: "{clipped(digits)}"')
    return value


def _partition_set(text: str) -> set[int]:
    out = set()
    for item in text.split(","):
        value = java_long(item)
        if value is None or not -(2**31) <= value <= _INT_MAX:
            raise UsageError(
                f"--partitions expects a comma separated list of numeric partition ids, but received: {clipped(text)}"
            )
        out.add(value)
    return out


def chosen(rules_: Sequence[PartitionRule], partitions: dict[str, tuple[int, ...]]) -> list[TopicPartition]:
    """The partitions any rule allows, of the topics any rule allows."""
    out: list[TopicPartition] = []
    for topic, numbers in partitions.items():
        if not any(r.topic_allowed(topic) for r in rules_):
            continue
        out.extend(tp for n in numbers if any(r.allowed(tp := TopicPartition(topic, n)) for r in rules_))
    return out


def offset_lines(offsets: dict[TopicPartition, int]) -> list[str]:
    """`topic:partition:offset`, sorted as Kafka's TreeMap sorts TopicPartition.toString."""
    ordered = sorted(offsets.items(), key=lambda item: str(item[0]))
    return [f"{tp.topic}:{tp.partition}:{offset}" for tp, offset in ordered]
