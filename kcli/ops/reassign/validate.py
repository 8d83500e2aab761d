"""Checks of a reassignment, run before anything is sent.

The file's own shape (empty lists, duplicates) is bad input: UsageError, exit 2. What the cluster
refutes (unknown brokers or partitions, a replication factor change) is a runtime error, exit 1,
as kafka-reassign-partitions.sh exits 1.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Mapping

from kcli.errors import KcliError, UsageError
from kcli.ops.reassign.json_format import ReassignmentFile
from kcli.ops.reassign.model import TopicPartition, sort_key


def check_file_shape(file: ReassignmentFile) -> None:
    """The original's execute-time checks that need no cluster: empty lists and duplicates."""
    if not file.entries:
        raise UsageError("Partition reassignment list cannot be empty")
    empty = [e.partition for e in file.entries if not e.replicas]
    if empty:
        raise UsageError(f"Partition replica list cannot be empty (partition {empty[0]})")
    counts = Counter(e.partition for e in file.entries)
    duplicates = sorted((tp for tp, n in counts.items() if n > 1), key=sort_key)
    if duplicates:
        raise UsageError(
            "Partition reassignment contains duplicate topic partitions: " + ",".join(map(str, duplicates))
        )
    problems: list[str] = []
    for entry in sorted(file.entries, key=lambda e: sort_key(e.partition)):
        seen = Counter(entry.replicas)
        for broker, n in seen.items():
            if n > 1:
                problems.append(f"{entry.partition} contains multiple entries for {broker}.")
    if problems:
        raise UsageError("Partition replica lists may not contain duplicate entries: " + " ".join(problems))


def check_against_cluster(
    file: ReassignmentFile,
    *,
    brokers: Collection[int],
    current: Mapping[TopicPartition, tuple[int, ...]],
    allow_replication_factor_change: bool,
) -> None:
    """Brokers must exist, partitions must exist, and replication factors stay unless asked to change.

    `current` holds the replicas of every partition of the file's topics that exist.
    """
    check_file_shape(file)
    known = set(brokers)
    unknown = sorted({b for e in file.entries for b in e.replicas if b not in known})
    if unknown:
        raise KcliError(
            f"Unknown broker id {unknown[0]}"
            + (f" (also {','.join(map(str, unknown[1:]))})" if len(unknown) > 1 else "")
            + f"; the cluster's brokers are {','.join(map(str, sorted(known)))}"
        )
    topics = {tp.topic for tp in current}
    for entry in sorted(file.entries, key=lambda e: sort_key(e.partition)):
        if entry.partition not in current:
            if entry.partition.topic not in topics:
                raise KcliError(f"Topic {entry.partition.topic} not found.")
            raise KcliError(f"Unable to find partition: {entry.partition}")
    if not allow_replication_factor_change:
        for entry in sorted(file.entries, key=lambda e: sort_key(e.partition)):
            before = len(current[entry.partition])
            if len(entry.replicas) != before:
                raise KcliError(
                    f"Partition {entry.partition} would change replication factor from {before} to "
                    f"{len(entry.replicas)}",
                    hint="add --allow-replication-factor-change if that is intended",
                )
