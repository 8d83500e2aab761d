"""`kcli delete-records`: kafka-delete-records.sh's JSON file and lines, and the checks kcli makes before
anything is deleted.

Pure: kcli.workflows.delete_records reads the offsets and deletes.

Behavior (DeleteRecordsCommand of Kafka 4.4 and 4.0):
- the file is `{"partitions": [{"topic": "t", "partition": 0, "offset": 5}], "version": 1}`
  (version optional, 1 the only one); no partition twice; a file that does not parse is `The input
  string is not a valid JSON` (kcli adds the line and column); offset -1 means "up to the high
  watermark" (everything there is);
- the lines: `Executing records delete operation`, `Records delete operation completed:`, then
  `partition: t-0\tlow_watermark: N` (or `\terror: <exception>`) per partition.
Where kcli differs on purpose: it reads each partition's log start offset and high watermark first
and refuses, before deleting anything, a partition the cluster does not have and an offset below -1
or past the high watermark (Kafka's tool sends them, prints an error for them, exits 0, and waits
30 s on an unknown topic); its lines are sorted (Kafka's come from an immutable Map, whose order
changes with every JVM).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from kcli.errors import KcliError, UsageError
from kcli.ops.reassign.model import TopicPartition, sort_key

HIGH_WATERMARK = -1  # DeleteRecordsRequest.HIGH_WATERMARK: delete everything below it


def parse_offset_file(text: str, source: str) -> dict[TopicPartition, int]:
    """The offset of each partition of an --offset-json-file, in file order (Kafka's checks and words)."""
    from kcli.ops import kafka_json as kj
    from kcli.ops.leader_election import java_set

    doc, problem = kj.parse_or_none(text)
    if problem is not None:
        raise UsageError(f"The input string is not a valid JSON: {source}: {problem}")
    top = kj.as_object(doc, source)
    version = kj.as_int(top["version"], f"{source}: version") if "version" in top else 1
    if version != 1:
        raise UsageError(f"Not supported version field value {version} ({source})")
    if "partitions" not in top:
        raise UsageError(f"Missing partitions field ({source})")
    seen: dict[TopicPartition, list[int]] = {}
    for index, item in enumerate(kj.as_array(top["partitions"], f"{source}: partitions")):
        at = f"{source}: partitions[{index}]"
        entry = kj.as_object(item, at)
        topic = kj.as_string(kj.field(entry, "topic", at), at)
        partition = kj.as_int(kj.field(entry, "partition", at), at)
        offset = kj.as_long(kj.field(entry, "offset", at), at)
        seen.setdefault(TopicPartition(topic, partition), []).append(offset)
    # offsetSeq is a HashMap; its duplicates go into a HashSet, joined with ","
    repeated = java_set(tp for tp in java_set(seen) if len(seen[tp]) > 1)
    if repeated:
        raise UsageError(
            f"Offset json file contains duplicate topic partitions: {','.join(map(str, repeated))}"
        )
    return {tp: offsets[0] for tp, offsets in seen.items()}


@dataclass(frozen=True, slots=True, kw_only=True)
class PartitionRange:
    """What a partition holds now, and what deleting below `offset` would remove."""

    partition: TopicPartition
    offset: int  # as the file asks (-1: the high watermark)
    log_start: int
    high_watermark: int

    @property
    def new_start(self) -> int:
        return self.high_watermark if self.offset == HIGH_WATERMARK else self.offset

    @property
    def deleted(self) -> int:
        """Offsets that would go (records, where the log has no gaps)."""
        return max(0, self.new_start - self.log_start)


def check_ranges(ranges: Sequence[PartitionRange], errors: Mapping[TopicPartition, str]) -> None:
    """Refuse the whole file, before anything is deleted, for any partition that cannot be done."""
    problems = [f"{tp}: {why}" for tp, why in sorted(errors.items(), key=lambda kv: sort_key(kv[0]))]
    for r in ranges:
        if r.offset < HIGH_WATERMARK:
            problems.append(
                f"{r.partition}: offset {r.offset} is not an offset (-1 means the high watermark)"
            )
        elif r.offset > r.high_watermark:
            problems.append(
                f"{r.partition}: offset {r.offset} is beyond the end of the partition (its high watermark is "
                f"{r.high_watermark}): OFFSET_OUT_OF_RANGE"
            )
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise KcliError(
            f"Nothing was deleted: {problems[0]}{more}",
            hint="kcli delete-records --dry-run shows each partition's log start offset and high watermark",
        )


EXECUTING = "Executing records delete operation"
COMPLETED = "Records delete operation completed:"


@dataclass(frozen=True, slots=True, kw_only=True)
class DeletedRecords:
    """One partition's answer to DeleteRecords: its new low watermark, or the error."""

    partition: TopicPartition
    low_watermark: int = -1
    error: str | None = None  # Throwable.toString() of the failure, as Kafka prints it


def result_lines(results: Sequence[DeletedRecords]) -> list[str]:
    lines = [COMPLETED]
    for r in sorted(results, key=lambda r: sort_key(r.partition)):
        if r.error is None:
            lines.append(f"partition: {r.partition}\tlow_watermark: {r.low_watermark}")
        else:
            lines.append(f"partition: {r.partition}\terror: {r.error}")
    return lines
