"""Hand-written encoders for the sandbox's two bulk responses, byte-identical to kio's writer.

kio's writer is exact but pure Python; at 100k partitions the topics of a Metadata response and
the configs of a DescribeConfigs response are encoded here with struct instead, which makes the
sandbox serve `configs --describe` of 10,000 topics several times cheaper than with kio's writer
(benchmarks/bench_codecs.py). tests/sandbox/test_fastcodec.py checks every encoder against kio's
output, so the schema facts still come from kio.

Behavior:
- Only flexible versions are covered (Metadata v10-13, DescribeConfigs v4); everything else goes
  through kio.
- Tagged fields at their defaults are omitted (tag count 0), as kio and Kafka write them.
"""

from __future__ import annotations

import struct
import uuid
from collections.abc import Iterable, Sequence

from kcli.kafka import write_uvarint

_I16 = struct.Struct(">h")
_I32 = struct.Struct(">i")
_I32_I32_I32 = struct.Struct(">iii")
NO_TAGS = b"\x00"


_SMALL = [write_uvarint(n) for n in range(256)]


def _len(value: int) -> bytes:
    return _SMALL[value] if value < 256 else write_uvarint(value)


def compact_string(value: str) -> bytes:
    data = value.encode()
    return _len(len(data) + 1) + data


def compact_nullable_string(value: str | None) -> bytes:
    return b"\x00" if value is None else compact_string(value)


def compact_int32s(values: Sequence[int]) -> bytes:
    return _len(len(values) + 1) + struct.pack(f">{len(values)}i", *values)


def compact_array(items: Sequence[bytes]) -> bytes:
    return _len(len(items) + 1) + b"".join(items)


def _bool(value: bool) -> bytes:
    return b"\x01" if value else b"\x00"


# ---------------------------------------------------------------- Metadata v10-13 topics


def metadata_partition(
    error_code: int,
    index: int,
    leader: int,
    leader_epoch: int,
    replicas: Sequence[int],
    isr: Sequence[int],
    offline: Sequence[int],
) -> bytes:
    return b"".join(
        (
            _I16.pack(error_code),
            _I32_I32_I32.pack(index, leader, leader_epoch),
            compact_int32s(replicas),
            compact_int32s(isr),
            compact_int32s(offline),
            NO_TAGS,
        )
    )


def metadata_topic(
    error_code: int,
    name: str | None,
    topic_id: uuid.UUID,
    partitions: Iterable[bytes],
    authorized_operations: int,
) -> bytes:
    items = list(partitions)
    return b"".join(
        (
            _I16.pack(error_code),
            compact_nullable_string(name),
            topic_id.bytes,
            b"\x00",  # is_internal
            compact_array(items),
            _I32.pack(authorized_operations),
            NO_TAGS,
        )
    )


def metadata_response(
    version: int,
    brokers: Sequence[tuple[int, str, int, str | None]],
    cluster_id: str | None,
    controller_id: int,
    topics: Sequence[bytes],
    cluster_authorized_operations: int,
    error_code: int = 0,
) -> bytes:
    """A MetadataResponse body at v10-13 whose topics are already encoded."""
    parts = [_I32.pack(0)]
    parts.append(
        compact_array(
            [
                _I32.pack(node)
                + compact_string(host)
                + _I32.pack(port)
                + compact_nullable_string(rack)
                + NO_TAGS
                for node, host, port, rack in brokers
            ]
        )
    )
    parts.append(compact_nullable_string(cluster_id))
    parts.append(_I32.pack(controller_id))
    parts.append(compact_array(topics))
    if version <= 10:
        parts.append(_I32.pack(cluster_authorized_operations))
    if version >= 13:
        parts.append(_I16.pack(error_code))
    parts.append(NO_TAGS)
    return b"".join(parts)


# ---------------------------------------------------------------- DescribeConfigs v4


def config_entry(
    name: str,
    value: str | None,
    read_only: bool,
    source: int,
    sensitive: bool,
    synonyms: Sequence[tuple[str, str | None, int]],
    config_type: int,
    documentation: str | None,
) -> bytes:
    return b"".join(
        (
            compact_string(name),
            compact_nullable_string(value),
            _bool(read_only),
            struct.pack(">b", source),
            _bool(sensitive),
            compact_array(
                [
                    compact_string(n) + compact_nullable_string(v) + struct.pack(">b", s) + NO_TAGS
                    for n, v, s in synonyms
                ]
            ),
            struct.pack(">b", config_type),
            compact_nullable_string(documentation),
            NO_TAGS,
        )
    )


def config_result(
    error_code: int,
    error_message: str | None,
    resource_type: int,
    resource_name: str,
    entries: Sequence[bytes],
) -> bytes:
    return b"".join(
        (
            _I16.pack(error_code),
            compact_nullable_string(error_message),
            struct.pack(">b", resource_type),
            compact_string(resource_name),
            compact_array(entries),
            NO_TAGS,
        )
    )


def describe_configs_response(results: Sequence[bytes]) -> bytes:
    """A DescribeConfigsResponse v4 body whose results are already encoded."""
    return _I32.pack(0) + compact_array(results) + NO_TAGS
