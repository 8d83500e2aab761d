"""`kcli topics`: which topics and partitions kafka-topics.sh --list / --describe would show, and why.

Pure: the partitions and configs come in as values (kcli.workflows.topics reads them).

Behavior (TopicCommand of Kafka 4.4):
- --topic is a regex matched against the whole name, after Kafka's clean-up of the raw text: commas
  become alternatives (`a,b` is `a|b`), spaces go, quotes around it go (TopicFilter.IncludeList);
- --exclude-internal leaves out __consumer_offsets, __transaction_state and __share_group_state;
- a named --topic that matches nothing is an error ("Topic 'x' does not exist as expected");
- with a partition filter (--under-replicated-partitions, --unavailable-partitions,
  --under-min-isr-partitions, --at-min-isr-partitions) only the matching partitions are printed, and
  no topic line; --topics-with-overrides prints the topic lines of topics with a non-default config;
- a partition is under-replicated when its replication factor (without the replicas a running
  reassignment removes) exceeds its ISR, unavailable when it has no leader or its leader is not a
  live broker, under min ISR when leaderless or its ISR is below min.insync.replicas.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from kcli.errors import KcliError, UsageError

INTERNAL_TOPICS = frozenset({"__consumer_offsets", "__transaction_state", "__share_group_state"})


class Report(StrEnum):
    """The partition filters of --describe (kafka-topics.sh's report options)."""

    UNDER_REPLICATED = "under-replicated-partitions"
    UNAVAILABLE = "unavailable-partitions"
    UNDER_MIN_ISR = "under-min-isr-partitions"
    AT_MIN_ISR = "at-min-isr-partitions"


@dataclass(frozen=True, slots=True, kw_only=True)
class Partition:
    topic: str
    partition: int
    leader: int  # -1: none
    replicas: tuple[int, ...]
    isr: tuple[int, ...]
    elr: tuple[int, ...] | None = None  # None: the brokers do not report ELR (Kafka prints N/A)
    last_known_elr: tuple[int, ...] | None = None
    adding: tuple[int, ...] | None = None  # a running reassignment's adding replicas (None: none runs)
    removing: tuple[int, ...] | None = None

    @property
    def has_leader(self) -> bool:
        return self.leader >= 0

    @property
    def reassigning(self) -> bool:
        """isReassignmentInProgress: an adding or removing replica is still among the replicas."""
        changing = set(self.adding or ()) | set(self.removing or ())
        return any(r in changing for r in self.replicas)

    @property
    def replication_factor(self) -> int:
        """Without the replicas a running reassignment adds (getReplicationFactor)."""
        if self.reassigning:
            return len(self.replicas) - len(self.adding or ())
        return len(self.replicas)


@dataclass(frozen=True, slots=True, kw_only=True)
class Topic:
    name: str
    topic_id: str | None
    internal: bool
    partitions: tuple[Partition, ...]
    configs: tuple[tuple[str, str | None], ...] = ()  # the non-default ones, in the server's order
    min_isr: int = 1

    @property
    def replication_factor(self) -> int:
        return self.partitions[0].replication_factor if self.partitions else 0


@dataclass(frozen=True, slots=True, kw_only=True)
class TopicsView:
    """What --describe shows: the topics (sorted), their partitions, and the brokers alive."""

    topics: tuple[Topic, ...]
    live_brokers: frozenset[int]
    reports: tuple[Report, ...] = ()
    with_overrides: bool = False

    def shown_partitions(self, topic: Topic) -> tuple[Partition, ...]:
        if self.with_overrides:
            return ()
        if not self.reports:
            return topic.partitions
        return tuple(p for p in topic.partitions if any(self.matches(r, p, topic) for r in self.reports))

    def shows_topic_line(self, topic: Topic) -> bool:
        if self.reports:
            return False
        return not self.with_overrides or bool(topic.configs)

    def matches(self, report: Report, p: Partition, topic: Topic) -> bool:
        if report is Report.UNDER_REPLICATED:
            return p.replication_factor - len(p.isr) > 0
        if report is Report.UNAVAILABLE:
            return not p.has_leader or p.leader not in self.live_brokers
        if report is Report.UNDER_MIN_ISR:
            return not p.has_leader or len(p.isr) < topic.min_isr
        return len(p.isr) == topic.min_isr


def topic_pattern(raw: str) -> re.Pattern[str]:
    """--topic as Kafka's TopicFilter reads it (a usage error when it is no regex)."""
    text = re.sub(r"[\"']+$", "", re.sub(r"^[\"']+", "", raw.strip().replace(",", "|").replace(" ", "")))
    try:
        return re.compile(text)
    except re.error:
        raise UsageError(f"{text} is an invalid regex.") from None


def select(names: Sequence[str], *, topic: str | None, exclude_internal: bool, require: bool) -> list[str]:
    """The topics --list / --describe act on, sorted; with `require` (--describe) a --topic that
    matches none is a KcliError, as kafka-topics.sh says it."""
    pattern = topic_pattern(topic) if topic else None
    chosen = [
        name
        for name in sorted(names)
        if (pattern is None or pattern.fullmatch(name)) and not (exclude_internal and name in INTERNAL_TOPICS)
    ]
    if require and topic and topic.strip() and not chosen:
        raise KcliError(
            f"Topic '{topic}' does not exist as expected",
            hint="`kcli topics --list` shows the topics there are",
        )
    return chosen


def describe_order(names: Sequence[str]) -> list[str]:
    """The order kafka-topics --describe prints topics in: not sorted, but the iteration order of the
    HashMaps its admin client hands the descriptions back in (describeTopics: a map sized for the
    topics, copied, then collected into another of that size; kcli.ops.java_order replays them)."""
    from kcli.ops.java_order import JavaHashMap, string_hash

    futures = JavaHashMap.copy_of_capacity(sorted(names), len(names), string_hash)
    copied = JavaHashMap.copy_of(futures.ordered(), len(futures), string_hash)
    return JavaHashMap.copy_of_capacity(copied.ordered(), len(copied), string_hash).ordered()


def min_isr_of(configs: Mapping[str, str | None]) -> int:
    try:
        return int(configs.get("min.insync.replicas") or 1)
    except ValueError:
        return 1
