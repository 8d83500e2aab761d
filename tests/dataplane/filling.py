"""Records for a running sandbox's partitions, written in process through its data plane (fast, and in
a producer's batch shape: kcli.sandbox.emulator.data.fill), for tests that need bytes to move."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


def fill(sb: Any, topic: str, partitions: Iterable[int], records: int, **options: Any) -> int:
    """Append `records` records to each partition of `topic` in sandbox `sb`; the bytes written."""
    from kcli.sandbox.emulator.data.fill import fill as fill_partitions

    wanted = list(partitions)

    async def go(cluster: Any) -> int:
        return await fill_partitions(cluster.partition_logs, topic, wanted, records, **options)

    return int(sb.run(go, timeout=120))
