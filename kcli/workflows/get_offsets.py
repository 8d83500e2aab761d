"""`kcli get-offsets`: the partitions the filters choose, and their offsets at one time.

Behavior (GetOffsetShell): one Metadata of every topic (internal ones left out with
--exclude-internal-topics) chooses the partitions; ListOffsets asks each leader for the offsets at
--time. A partition that fails is skipped with a line saying why (as Kafka's tool skips it); one
without an offset at that time (-1) is left out.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from kcli.errors import KcliError
from kcli.ops.get_offsets import PartitionRule, chosen
from kcli.ops.reassign.model import TopicPartition

if TYPE_CHECKING:
    from kcli.client.admin import Admin

NO_MATCH = "Could not match any topic-partitions with the specified filters"


@dataclass(frozen=True, slots=True, kw_only=True)
class PartitionOffsets:
    timestamp: int  # the --time asked for
    offsets: dict[TopicPartition, int] = field(default_factory=dict)
    timestamps: dict[TopicPartition, int] = field(default_factory=dict)  # the record's, where Kafka says
    skipped: tuple[tuple[TopicPartition, KcliError], ...] = ()


async def get_offsets(
    admin: Admin, rules: Sequence[PartitionRule], timestamp: int, *, exclude_internal: bool, timeout_ms: int
) -> PartitionOffsets:
    from kcli.client.api.offsets import ListedOffset, leaders, list_offsets

    deadline = time.monotonic() + timeout_ms / 1000
    found = await leaders(admin, None)
    topics = {t: ps for t, ps in found.partitions.items() if not (exclude_internal and t in found.internal)}
    partitions = chosen(rules, topics)
    if not partitions:
        raise KcliError(NO_MATCH, hint="`kcli topics --list` shows the topics there are")
    listed = await list_offsets(
        admin, dict.fromkeys(partitions, timestamp), deadline=deadline, known_leaders=found.leader
    )
    offsets, stamps, skipped = {}, {}, []
    for tp in partitions:
        value = listed.get(tp)
        if isinstance(value, ListedOffset):
            if value.offset != -1:
                offsets[tp] = value.offset
                stamps[tp] = value.timestamp
        elif isinstance(value, KcliError):
            skipped.append((tp, value))
    return PartitionOffsets(timestamp=timestamp, offsets=offsets, timestamps=stamps, skipped=tuple(skipped))
