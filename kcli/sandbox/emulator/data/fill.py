"""Records for topics, in the shape a real producer writes them (`kcli sandbox up --records-per-partition`).

Behavior:
- Each partition gets `records` records, appended through its leader as a producer's batches
  would be (kcli.sandbox.emulator.data.plane): about `batch_bytes` (batch.size, 16 KiB) of records
  per batch before compression, compressed with the chosen codec as Kafka's Java producer frames
  it, keyed `key-<n>` with a JSON-like value of `value_bytes` (drawn from a pool of varied
  payloads, so it compresses as real payloads do, not as a run of zeros), stamped a millisecond
  apart ending now.
- The loop is given back after every batch, so a large fill neither starves the listeners nor
  holds up a Ctrl-C. Returns the bytes written to the partitions' leaders.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Iterable

from kcli.sandbox.emulator.data.plane import DataPlane
from kcli.sandbox.emulator.data.records import CODECS, encode_batch

BATCH_BYTES = 16 * 1024  # the Java producer's batch.size
VALUE_BYTES = 100
_WORDS = (
    "order",
    "shipped",
    "pending",
    "user",
    "click",
    "view",
    "cart",
    "paid",
    "refund",
    "eu",
    "us",
    "apac",
)


POOL = 509  # distinct payloads (a prime, so records of one batch rarely repeat one)


def _values(rng: random.Random, size: int) -> list[bytes]:
    out = []
    for index in range(POOL):
        words = " ".join(rng.choice(_WORDS) for _ in range(size // 6))
        text = f'{{"id":{index},"amount":{rng.randint(1, 99999)},"note":"{words}"}}'
        out.append(text.encode()[:size].ljust(size, b" "))
    return out


async def fill(
    plane: DataPlane,
    topic: str,
    partitions: Iterable[int],
    records: int,
    *,
    compression: str = "none",
    value_bytes: int = VALUE_BYTES,
    batch_bytes: int = BATCH_BYTES,
    seed: int = 0,
) -> int:
    """Append `records` records to each of the topic's `partitions`; the bytes written."""
    codec = CODECS[compression]
    values = _values(random.Random(f"{seed}:{topic}"), value_bytes)
    per_batch = max(1, batch_bytes // (value_bytes + 24))
    written = 0
    for partition in partitions:
        start = int(time.time() * 1000) - records
        for first in range(0, records, per_batch):
            count = min(per_batch, records - first)
            pairs = [(b"key-%d" % (first + i), values[(partition + first + i) % POOL]) for i in range(count)]
            stamps = range(start + first, start + first + count)
            batch = encode_batch(pairs, timestamp_ms=stamps[0], timestamps=stamps, compression=codec)
            await plane.append(topic, partition, batch, acks=1)
            written += len(batch)
            await asyncio.sleep(0)
    return written
