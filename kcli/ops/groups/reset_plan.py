"""--reset-offsets: the new offset of each partition, from the specification and the cluster's offsets.

Pure: committed offsets, log start/end offsets and offsets by timestamp come in as values
(kcli.workflows.groups.reset reads them); every refusal is raised before anything is changed.

Behavior (GroupOffsetsResetter of Kafka 4.4):
- --to-earliest / --to-latest: the log start / end offset;
- --to-current: the committed offset, else the log end offset;
- --shift-by N: committed + N (a partition without a committed offset is refused), then kept
  within [log start, log end] with a warning, as Kafka does;
- --to-datetime / --by-duration: the first offset at or after the time; a partition with no such
  record falls back to its log end offset (with Kafka's warning);
- --to-offset N and --from-file: below the log start the log start (Kafka's warning); past the log
  end kcli refuses, where Kafka sets the log end offset with a warning in its log: an offset that
  does not exist yet is a typo or the wrong partition, and a consumer would reset it on its own.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from kcli.errors import UsageError
from kcli.ops.groups.consumer_line import ConsumerGroupsLine, option_long
from kcli.ops.groups.model import CommittedOffset
from kcli.ops.groups.reset_specs import datetime_millis, duration_millis, parse_plan, read_plan_file
from kcli.ops.reassign.model import TopicPartition


@dataclass(frozen=True, slots=True, kw_only=True)
class ResetSpec:
    """One reset specification, parsed: `kind` is its option name (RESET_SPECS)."""

    kind: str
    number: int = 0  # --to-offset, --shift-by
    timestamp_ms: int | None = None  # --to-datetime
    duration_ms: int | None = None  # --by-duration (the time is taken when the offsets are looked up)
    plan: dict[str, dict[TopicPartition, int]] = field(default_factory=dict)  # --from-file

    @property
    def by_time(self) -> bool:
        return self.kind in ("to-datetime", "by-duration")


SCOPE_MISSING = "One of the reset scopes should be defined: --all-topics, --topic."
NO_SPEC = (
    "Option '[reset-offsets]' requires one of the following scenarios: [[to-offset], [to-datetime], "
    "[by-duration], [to-earliest], [to-latest], [to-current], [shift-by], [from-file]]"
)


def reset_spec(line: ConsumerGroupsLine, *, scope_checked: bool = False) -> ResetSpec:
    """The specification of a checked --reset-offsets line (values parsed, the plan file read).

    `scope_checked`: the tool's own checks already made sure of a scope (kafka-share-groups)."""
    kind = line.spec
    if kind is None:
        raise UsageError(NO_SPEC)
    if not scope_checked and not line.topics and not line.all_topics and kind != "from-file":
        raise UsageError(SCOPE_MISSING)
    values = line.specs[kind]
    if kind in ("to-offset", "shift-by"):
        return ResetSpec(kind=kind, number=option_long(values[0], kind))
    if kind == "to-datetime":
        return ResetSpec(kind=kind, timestamp_ms=datetime_millis(values[0]))
    if kind == "by-duration":
        return ResetSpec(kind=kind, duration_ms=duration_millis(values[-1]))
    if kind == "from-file":
        single = line.groups[0] if len(line.groups) == 1 else None
        text = read_plan_file(values[0])
        return ResetSpec(kind=kind, plan=parse_plan(text, source=values[0], single_group=single))
    return ResetSpec(kind=kind)


@dataclass(slots=True)
class Planned:
    """New offsets of one group, and the warnings Kafka gives about them (in the order it gives them)."""

    offsets: dict[TopicPartition, int] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)


@dataclass(frozen=True, slots=True, kw_only=True)
class LogOffsets:
    """What the planner needs of the partitions: log start and end offsets, offsets by time (-1: none)."""

    start: Mapping[TopicPartition, int] = field(default_factory=dict)
    end: Mapping[TopicPartition, int] = field(default_factory=dict)
    by_time: Mapping[TopicPartition, int] = field(default_factory=dict)


def plan_group(
    group_id: str,
    spec: ResetSpec,
    partitions: list[TopicPartition],
    committed: Mapping[TopicPartition, CommittedOffset],
    logs: LogOffsets,
) -> Planned:
    """The new offsets of `partitions` for one group (UsageError on a refused partition)."""
    planned = Planned()
    if spec.kind == "to-earliest":
        planned.offsets = {tp: _known(logs.start, tp, "starting") for tp in partitions}
    elif spec.kind == "to-latest":
        planned.offsets = {tp: _known(logs.end, tp, "ending") for tp in partitions}
    elif spec.kind == "to-current":
        planned.offsets = {
            tp: committed[tp].offset if tp in committed else _known(logs.end, tp, "ending")
            for tp in partitions
        }
    elif spec.kind == "shift-by":
        wanted = {}
        for tp in partitions:
            if tp not in committed:
                raise UsageError(
                    f"Cannot shift offset for partition {tp} since there is no current committed offset"
                )
            wanted[tp] = committed[tp].offset + spec.number
        planned.offsets = _in_range(wanted, logs, planned.warnings, refuse_past_end=False)
    elif spec.by_time:
        for tp in partitions:
            found = logs.by_time.get(tp, -1)
            if found == -1:
                planned.warnings.append(
                    f"Warn: Partition {tp.partition} from topic {tp.topic} is empty. Falling back to latest known offset."
                )
                found = _known(logs.end, tp, "ending")
            planned.offsets[tp] = found
    elif spec.kind == "to-offset":
        planned.offsets = _in_range(
            dict.fromkeys(partitions, spec.number), logs, planned.warnings, refuse_past_end=True
        )
    elif spec.kind == "from-file":
        planned.offsets = _in_range(
            dict(spec.plan.get(group_id, {})), logs, planned.warnings, refuse_past_end=True
        )
    return planned


def _known(offsets: Mapping[TopicPartition, int], tp: TopicPartition, which: str) -> int:
    value = offsets.get(tp)
    if value is None or value < 0:
        raise UsageError(f"Error getting {which} offset of topic partition: {tp}")
    return value


def _in_range(
    wanted: dict[TopicPartition, int], logs: LogOffsets, warnings: list[str], *, refuse_past_end: bool
) -> dict[TopicPartition, int]:
    """checkOffsetsRange: past the log end -> the end (kcli: refused); before the start -> the start."""
    out = {}
    for tp, offset in wanted.items():
        end, start = logs.end.get(tp), logs.start.get(tp)
        if end is not None and offset > end:
            if refuse_past_end:
                raise UsageError(
                    f"New offset ({offset}) is higher than latest offset for topic partition {tp} ({end}); "
                    "nothing was changed",
                    hint="--to-latest sets the log end offset",
                )
            warnings.append(
                f"New offset ({offset}) is higher than latest offset for topic partition {tp}. "
                f"Value will be set to {end}."
            )
            offset = end
        elif start is not None and offset < start:
            warnings.append(
                f"New offset ({offset}) is lower than earliest offset for topic partition {tp}. "
                f"Value will be set to {start}."
            )
            offset = start
        out[tp] = offset
    return out
