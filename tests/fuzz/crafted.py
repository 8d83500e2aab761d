"""The crafted inputs of issue 30, built byte by byte: each aborted kcli (exit 134, a native
allocation failure in kio or cramjam) before the bounds walk covered every path and inflation was
capped. tests/fuzz/test_crafted_inputs.py runs kcli on them under a 1.5 GB address-space limit.
"""

from __future__ import annotations

import struct
import uuid
from pathlib import Path
from typing import Any

from tests.fuzz import seeds

CLUSTER_ID = "WnLkTHhkQaiJbwP8FClPhw"
TOPIC_ID = uuid.UUID(int=0x5EED)


def describe_cluster_body() -> bytes:
    """A DescribeCluster v1 response body whose null error message is written `80 00` (the
    non-canonical two-byte varint 0). A walk that steps one byte back on it reads the cluster id's
    bytes as "no brokers" and passes, while kio reads a broker count of 2**32 - 2 behind them."""
    length = 22  # the cluster id: compact string of 21 bytes
    cluster_id = bytearray(b"a" * (length - 1))
    # what the stepped-back walk reads inside the cluster id: controller id (the length byte and
    # three of these), 0 brokers, authorized operations, no tagged fields
    cluster_id[3:9] = b"\x01\x00\x00\x00\x00\x00"
    return (
        struct.pack(">ih", 0, 0)  # throttle time, error code
        + b"\x80\x00"  # error message: null, in two bytes
        + b"\x01"  # endpoint type: brokers
        + bytes([length])
        + bytes(cluster_id)
        + struct.pack(">i", 1)  # controller id
        + b"\xff\xff\xff\xff\x0f"  # brokers: 2**32 - 2 of them
        + b"\x00" * 3
    )


def describe_cluster_frame(correlation_id: int = 7) -> bytes:
    """The 48-byte response frame (correlation id, header tags, body) a hostile broker sends."""
    frame = struct.pack(">i", correlation_id) + b"\x00" + describe_cluster_body()
    assert len(frame) == 48
    return frame


def forged_replicas_log(directory: Path) -> Path:
    """A metadata log directory whose segment's PartitionRecord (topic T, partition 0) declares
    2**32 - 2 replicas: the count and the first replica id (5 bytes) overwritten, the batch CRC
    recomputed, so only record decoding can find it. Returns the log directory."""
    from kio.static.primitive import i16, i32

    from kcli.metadata import records as r
    from kcli.metadata.writer import MetadataLogWriter

    rec: Any = r
    partition = rec.PartitionRecord(
        partition_id=i32(0),
        topic_id=TOPIC_ID,
        replicas=(i32(1), i32(2), i32(3)),
        isr=(i32(1), i32(2), i32(3)),
        removing_replicas=(),
        adding_replicas=(),
        leader=i32(1),
        leader_epoch=i32(0),
        partition_epoch=i32(0),
        directories=(),
    )
    with MetadataLogWriter(directory, node_id=1, cluster_id=CLUSTER_ID) as log:
        log.append(
            [
                rec.FeatureLevelRecord(name="metadata.version", feature_level=i16(25)),
                rec.TopicRecord(name="T", topic_id=TOPIC_ID),
                partition,
            ],
            epoch=1,
            timestamp_ms=1_700_000_000_000,
        )
    segment = next((directory / "__cluster_metadata-0").glob("*.log"))
    data = bytearray(segment.read_bytes())
    body = seeds.encode_body(partition)
    at = data.find(body)
    assert at > 0 and data.find(body, at + 1) < 0
    count = at + 20  # partition id, topic id, then the replicas' compact count
    assert data[count] == 4
    data[count : count + 5] = b"\xff\xff\xff\xff\x0f"
    segment.write_bytes(seeds.fix_crcs(bytes(data)))
    return directory


def zstd_bomb_log(directory: Path, inflated: int = 1 << 30) -> Path:
    """A metadata log directory whose segment holds one zstd batch of about 32 KB that inflates to
    `inflated` bytes (1 GiB), CRC valid. Compressed a MiB at a time: building it takes no GiB."""
    import cramjam
    from crc32c import crc32c

    compressor = cramjam.zstd.Compressor()
    chunk = bytes(1 << 20)
    for _ in range(inflated // len(chunk)):
        compressor.compress(chunk)
    area = bytes(compressor.finish())
    tail = struct.pack(">hiqqqhii", 4, 0, 1_700_000_000_000, 1_700_000_000_000, -1, -1, -1, 1) + area
    batch = struct.pack(">qiib", 0, 4 + 1 + 4 + len(tail), 1, 2) + struct.pack(">I", crc32c(tail)) + tail
    log = directory / "__cluster_metadata-0"
    log.mkdir(parents=True, exist_ok=True)
    (log / "00000000000000000000.log").write_bytes(batch)
    return directory
