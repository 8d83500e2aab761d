"""`kcli delete-records`: each partition's offset range first, then (unless --dry-run) one DeleteRecords per leader.

Behavior: ListOffsets EARLIEST and LATEST of every partition of the file (to their leaders,
concurrently); any partition the cluster does not have, or whose offset is past its high watermark,
stops the command before anything is deleted (kcli.ops.delete_records.check_ranges). Then the
deletes; each partition's new low watermark or error is returned.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from kcli.ops.delete_records import DeletedRecords, PartitionRange, check_ranges
from kcli.ops.reassign.model import TopicPartition, sort_key

if TYPE_CHECKING:
    from kcli.client.admin import Admin


async def ranges(admin: Admin, offsets: Mapping[TopicPartition, int]) -> list[PartitionRange]:
    """Each partition's log start offset and high watermark (refused when one cannot be read)."""
    from kcli.client.api.records import EARLIEST, LATEST, list_offsets

    parts = sorted(offsets, key=sort_key)
    starts, ends = await asyncio.gather(
        list_offsets(admin, parts, EARLIEST), list_offsets(admin, parts, LATEST)
    )
    errors = {
        tp: starts[tp].error or ends[tp].error or "" for tp in parts if starts[tp].error or ends[tp].error
    }
    found = [
        PartitionRange(
            partition=tp, offset=offsets[tp], log_start=starts[tp].value, high_watermark=ends[tp].value
        )
        for tp in parts
        if tp not in errors
    ]
    check_ranges(found, errors)
    return found


async def delete(
    admin: Admin, offsets: Mapping[TopicPartition, int], *, on_start: Callable[[], None] = lambda: None
) -> list[DeletedRecords]:
    """Check every partition, then delete; `on_start` runs once the checks passed."""
    from kcli.client.api.records import delete_records
    from kcli.ops.java_errors import exception_text

    await ranges(admin, offsets)
    on_start()
    answers = await delete_records(admin, offsets)
    return [
        DeletedRecords(
            partition=tp,
            low_watermark=a.value,
            error=None
            if a.error is None
            else (exception_text(a.error_code, None) if a.error_code > 0 else a.error),
        )
        for tp, a in answers.items()
    ]
