"""Kafka's log invariants, checked batch by batch as a file is read: offsets above every offset
read before (no offset twice, none going back) and leader epochs that never fall.

A break does not stop reading: each batch that breaks one adds a warning naming the file, the byte
and the offsets.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from pathlib import Path


@dataclass(slots=True)
class LogInvariants:
    """The highest offset and the latest epoch read so far, and the warnings found."""

    path: Path
    warnings: list[str] = field(default_factory=list)
    seen_offset: int | None = None
    seen_epoch: int = -1

    def check(self, base_offset: int, count: int, epoch: int, position: int) -> None:
        """Kafka's log invariants for one batch: offsets above every offset read, epochs not falling."""
        seen = self.seen_offset
        if seen is not None and base_offset <= seen:
            last = min(seen, base_offset + max(count, 1) - 1)
            twice = f"offset {base_offset}" if last == base_offset else f"offsets {base_offset}-{last}"
            self.warnings.append(
                f"{self.path}: the batch at byte {position} holds {twice} again (offsets not increasing: "
                f"offset {seen} was read before it)"
            )
        if epoch < self.seen_epoch:
            self.warnings.append(
                f"{self.path}: the batch at byte {position} (offset {base_offset}) has leader epoch {epoch} "
                f"after epoch {self.seen_epoch} (epochs go backwards)"
            )
        else:
            self.seen_epoch = epoch
        last_offset = base_offset + max(count, 1) - 1
        if seen is None or last_offset > seen:
            self.seen_offset = last_offset

    def check_run(self, heads: list[tuple[int, int, int, int]], position: int) -> None:
        """`check` for a run of one-record NoOp batches (72 bytes each), cheap when all is well."""
        first_offset, first_epoch = heads[0][0], heads[0][1]
        last_offset, last_epoch = heads[-1][0], heads[-1][1]
        seen = self.seen_offset
        if (
            (seen is None or first_offset > seen)
            and first_epoch >= self.seen_epoch
            and last_offset - first_offset == len(heads) - 1
            and [head[0] for head in heads] == list(range(first_offset, last_offset + 1))
            and (first_epoch == last_epoch or all(a[1] <= b[1] for a, b in itertools.pairwise(heads)))
        ):
            self.seen_offset = last_offset
            self.seen_epoch = last_epoch
            return
        for index, head in enumerate(heads):
            self.check(head[0], 1, head[1], position + 72 * index)
