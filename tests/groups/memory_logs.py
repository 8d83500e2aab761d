"""An in-memory PartitionLogs (the data plane's interface) for the coordinators' own tests: batches are
kept as appended, offsets assigned, markers written as control batches, and read back whole."""

from __future__ import annotations

from dataclasses import dataclass, field

from kcli.sandbox.emulator.data.interface import (
    AppendResult,
    Isolation,
    LogError,
    LogOffsets,
    Marker,
    Origin,
    ProducerState,
    ReadResult,
    TimestampOffset,
)
from kcli.sandbox.emulator.data.records import headers_in, marker_batch, with_offset_and_epoch


@dataclass
class MemoryLogs:
    """Partitions as lists of batches; `fail` makes the next appends raise that Kafka error code."""

    batches: dict[tuple[str, int], list[bytes]] = field(default_factory=dict)
    ends: dict[tuple[str, int], int] = field(default_factory=dict)
    fail: int | None = None

    async def append(
        self,
        topic: str,
        partition: int,
        records: bytes,
        *,
        acks: int = -1,
        timeout_ms: int = 30_000,
        origin: Origin = Origin.CLIENT,
        node: int | None = None,
    ) -> AppendResult:
        if self.fail is not None:
            raise LogError(self.fail, "append refused")
        key = (topic, partition)
        base = self.ends.get(key, 0)
        out = base
        for header in headers_in(records):
            batch = bytes(
                with_offset_and_epoch(records[header.position : header.position + header.size], out, 0)
            )
            self.batches.setdefault(key, []).append(batch)
            out += header.last_offset_delta + 1
        self.ends[key] = out
        return AppendResult(base_offset=base, last_offset=out - 1, log_append_time_ms=-1, log_start_offset=0)

    def read(
        self,
        topic: str,
        partition: int,
        offset: int,
        max_bytes: int,
        isolation: Isolation = Isolation.READ_UNCOMMITTED,
        *,
        node: int | None = None,
    ) -> ReadResult:
        chosen = []
        for batch in self.batches.get((topic, partition), []):
            (header,) = headers_in(batch)
            if header.last_offset >= offset:
                chosen.append(batch)
        return ReadResult(records=b"".join(chosen), offsets=self.offsets(topic, partition))

    def offsets(self, topic: str, partition: int, *, node: int | None = None) -> LogOffsets:
        end = self.ends.get((topic, partition), 0)
        return LogOffsets(
            log_start_offset=0,
            local_log_start_offset=0,
            log_end_offset=end,
            high_watermark=end,
            last_stable_offset=end,
        )

    async def write_marker(
        self,
        topic: str,
        partition: int,
        *,
        producer_id: int,
        producer_epoch: int,
        marker: Marker,
        coordinator_epoch: int,
        transaction_version: int = 2,
        timeout_ms: int = 30_000,
    ) -> int:
        batch = marker_batch(
            producer_id=producer_id,
            producer_epoch=producer_epoch,
            commit=marker is Marker.COMMIT,
            coordinator_epoch=coordinator_epoch,
            timestamp_ms=0,
        )
        result = await self.append(topic, partition, batch, origin=Origin.COORDINATOR)
        return result.base_offset

    def offset_for_timestamp(
        self,
        topic: str,
        partition: int,
        timestamp_ms: int,
        isolation: Isolation = Isolation.READ_UNCOMMITTED,
        *,
        node: int | None = None,
    ) -> TimestampOffset | None:
        return None

    def producers(self, topic: str, partition: int, *, node: int | None = None) -> tuple[ProducerState, ...]:
        return ()
