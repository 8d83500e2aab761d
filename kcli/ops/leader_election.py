"""`kcli leader-election`: kafka-leader-election.sh's checks, its JSON file, its report lines, and
kcli's report of the partitions whose leader is not their preferred replica.

Pure: kcli.client.api.elect_leaders sends ElectLeaders; kcli.workflows.leader_election runs it.

Behavior (LeaderElectionCommand of Kafka 4.4; 4.0 has --admin.config only):
- required: --bootstrap-server and --election-type (`Missing required option(s): a, b`), then
  --admin.config not beside --command-config, then exactly one of --topic, --all-topic-partitions,
  --path-to-json-file, then --partition with --topic and only with it;
- --election-type is PREFERRED or UNCLEAN, in any case;
- the JSON file is `{"partitions": [{"topic": "t", "partition": 0}, ...]}`, no partition twice;
  a file that does not parse is `Replica election data is empty` (kcli adds the line and column);
- the result: `Successfully completed leader election (PREFERRED) for partitions t-0, t-1`, `Valid
  replica already elected for partitions ...` (ELECTION_NOT_NEEDED), and one `Error completing
  leader election (PREFERRED) for partition: t-0: <exception>` per failure, then exit 1 with
  `N replica(s) could not be elected`; each list in the order of the Java HashSet Kafka holds it in.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import IntEnum

from kcli.errors import KcliError, UsageError
from kcli.kafka import ELECTION_NOT_NEEDED
from kcli.ops.java_order import hash_set_order, topic_partition_hash
from kcli.ops.reassign.model import TopicPartition


class ElectionType(IntEnum):
    """ElectLeaders' election_type (org.apache.kafka.common.ElectionType)."""

    PREFERRED = 0
    UNCLEAN = 1


ADMIN_CONFIG_DEPRECATED = "Option --admin.config has been deprecated and will be removed in a future version. Use --command-config instead."


def election_type(text: str) -> ElectionType:
    """--election-type as jopt-simple's EnumConverter reads it (case does not matter)."""
    for kind in ElectionType:
        if kind.name.lower() == text.lower():
            return kind
    raise UsageError(f"Cannot parse argument '{text}' of option election-type (preferred or unclean)")


def check_options(given: Mapping[str, bool]) -> None:
    """LeaderElectionCommandOptions.validate, in its order (the bootstrap is kcli's to resolve)."""
    if not given.get("election-type"):
        raise UsageError("Missing required option(s): election-type")
    if given.get("admin.config") and given.get("command-config"):
        raise UsageError('Option "[admin.config]" can\'t be used with option "[command-config]"')
    scopes = ("topic", "all-topic-partitions", "path-to-json-file")
    if sum(1 for s in scopes if given.get(s)) != 1:
        raise UsageError(f"One and only one of the following options is required: {', '.join(scopes)}")
    if given.get("topic") and not given.get("partition"):
        raise UsageError("Missing required option(s): partition")
    if not given.get("topic") and given.get("partition"):
        raise UsageError("Option partition is only allowed if topic is used")


def parse_election_file(text: str, source: str) -> list[TopicPartition]:
    """The partitions of a --path-to-json-file, in file order (Kafka's checks and words)."""
    from kcli.ops import kafka_json as kj

    doc, problem = kj.parse_or_none(text)
    if problem is not None:
        raise UsageError(f"Replica election data is empty: {source} is not valid JSON ({problem})")
    where = source
    top = kj.as_object(doc, where)
    if "partitions" not in top:
        raise UsageError(f'Replica election data is missing "partitions" field ({source})')
    partitions: list[TopicPartition] = []
    for index, item in enumerate(kj.as_array(top["partitions"], f"{source}: partitions")):
        at = f"{source}: partitions[{index}]"
        entry = kj.as_object(item, at)
        topic = kj.as_string(kj.field(entry, "topic", at), at)
        partition = kj.as_int(kj.field(entry, "partition", at), at)
        partitions.append(TopicPartition(topic, partition))
    seen: set[TopicPartition] = set()
    repeated = []
    for tp in partitions:
        if tp in seen:
            repeated.append(tp)
        seen.add(tp)
    if repeated:
        names = ", ".join(str(tp) for tp in java_set(repeated))
        raise UsageError(f"Replica election data contains duplicate partitions: [{names}]")
    return partitions


def java_set(partitions: Iterable[TopicPartition]) -> list[TopicPartition]:
    """TopicPartitions in the order of a Java HashSet they were added to."""
    return hash_set_order(list(partitions), lambda tp: topic_partition_hash(tp.topic, tp.partition))


@dataclass(frozen=True, slots=True, kw_only=True)
class ElectionOutcome:
    """One partition's election: None (elected), or the error code and the broker's message."""

    partition: TopicPartition
    error_code: int = 0
    message: str | None = None




@dataclass(frozen=True, slots=True, kw_only=True)
class ElectionReport:
    """What an ElectLeaders answered, in the order it answered."""

    kind: ElectionType
    outcomes: tuple[ElectionOutcome, ...]

    def _result_map(self) -> list[ElectionOutcome]:
        # ElectLeadersResponse.electLeadersResult: a HashMap filled in the answer's order
        by_tp = {o.partition: o for o in self.outcomes}
        return [by_tp[tp] for tp in java_set(by_tp)]

    @property
    def succeeded(self) -> list[TopicPartition]:
        return java_set(o.partition for o in self._result_map() if o.error_code == 0)

    @property
    def not_needed(self) -> list[TopicPartition]:
        return java_set(o.partition for o in self._result_map() if o.error_code == ELECTION_NOT_NEEDED)

    @property
    def failed(self) -> list[ElectionOutcome]:
        failures = {
            o.partition: o for o in self._result_map() if o.error_code not in (0, ELECTION_NOT_NEEDED)
        }
        return [failures[tp] for tp in java_set(failures)]

    def lines(self) -> list[str]:
        """The lines LeaderElectionCommand prints on stdout."""
        from kcli.ops.java_errors import exception_text

        out = []
        if self.succeeded:
            names = ", ".join(map(str, self.succeeded))
            out.append(f"Successfully completed leader election ({self.kind.name}) for partitions {names}")
        if self.not_needed:
            out.append(f"Valid replica already elected for partitions {', '.join(map(str, self.not_needed))}")
        for o in self.failed:
            out.append(
                f"Error completing leader election ({self.kind.name}) for partition: {o.partition}: "
                f"{exception_text(o.error_code, o.message)}"
            )
        return out

    def check(self) -> None:
        """Kafka's tool fails when any partition could not be elected."""
        if self.failed:
            raise KcliError(f"{len(self.failed)} replica(s) could not be elected")


@dataclass(frozen=True, slots=True, kw_only=True)
class LeaderState:
    """A partition's leadership: who leads, who is preferred (the first replica), who is in sync."""

    partition: TopicPartition
    leader: int  # -1: none
    replicas: tuple[int, ...]
    isr: tuple[int, ...]

    @property
    def preferred(self) -> int | None:
        return self.replicas[0] if self.replicas else None

    @property
    def off_preferred(self) -> bool:
        return self.preferred is not None and self.leader != self.preferred

    @property
    def electable(self) -> bool:
        """A preferred election can move it: its preferred replica is in sync."""
        return self.off_preferred and self.preferred in self.isr


def off_preferred(states: Sequence[LeaderState], kind: ElectionType) -> list[LeaderState]:
    """The partitions an election of `kind` is about: led by another than their preferred replica
    (PREFERRED), or without a leader (UNCLEAN), sorted."""
    if kind is ElectionType.UNCLEAN:
        chosen = [s for s in states if s.leader < 0]
    else:
        chosen = [s for s in states if s.off_preferred]
    return sorted(chosen, key=lambda s: (s.partition.topic, s.partition.partition))
