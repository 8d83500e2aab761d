"""The compiled length walk (kcli.bounds) reads exactly what kio's decoder reads, and refuses forged sizes.

Its protection holds only if every array count kio will read is one the walk has checked: the walk
must end where kio ends on every valid value, follow kio's reading of nullable structs, and refuse a
tagged field whose declared size disagrees with its content (kio reads the content, not the size).
"""

from __future__ import annotations

import dataclasses
import importlib
import pkgutil
import struct
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kcli.bounds import LengthError, check, walker
from tests.fuzz import seeds


@st.composite
def encoded_responses(draw: st.DrawFn) -> tuple[type, bytes]:
    name, version = draw(st.sampled_from(seeds.RESPONSES))
    cls = seeds.response_class(name, version)
    return cls, seeds.encode_body(draw(st.from_type(cls)))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(encoded_responses())
def test_the_walk_ends_where_kio_ends(case: tuple[type, bytes]) -> None:
    from kio.serial import entity_reader

    cls, data = case
    _, consumed = entity_reader(cls)(data, 0)
    assert walker(cls)(data, 0, len(data)) == consumed == len(data)


def test_every_kio_request_and_response_schema_has_a_walk() -> None:
    """The generated walks (scripts/decoders.py) cover every request and response class of kio, each
    made for the shape the class has (its fingerprint)."""
    import kio.schema

    compiled = 0
    for module_info in pkgutil.walk_packages(kio.schema.__path__, "kio.schema."):
        name, _, kind = module_info.name.rpartition(".")
        if kind not in ("request", "response"):
            continue
        module = importlib.import_module(module_info.name)
        api = name.split(".")[2]
        value = getattr(module, "".join(part.capitalize() for part in api.split("_")) + kind.capitalize())
        assert dataclasses.is_dataclass(value)
        walker(value)
        compiled += 1
    assert compiled > 600



def test_every_api_kcli_encodes_itself_has_a_walk() -> None:
    """The APIs newer than kio (kcli.client.protocol.NOT_IN_KIO) are read through the same walk: a
    class without one would be refused at its first answer, by the emulator and by the client."""
    from kcli.client import protocol

    for facts in protocol.NOT_IN_KIO.values():
        for version in range(facts.lowest, facts.highest + 1):
            walker(protocol.request_class(facts.name, version))
            walker(protocol.response_class(facts.name, version))

def _api_versions_v3(tagged_section: bytes) -> bytes:
    """An ApiVersions v3 response body: no error, one api key, throttle 0, then `tagged_section`."""
    return (
        struct.pack(">h", 0)
        + b"\x02"
        + struct.pack(">hhh", 18, 0, 3)
        + b"\x00"
        + struct.pack(">i", 0)
        + tagged_section
    )


def test_a_known_tagged_field_larger_than_its_content_is_refused() -> None:
    """kio would read past the one-byte SupportedFeatures array into bytes the walk skipped as its size.

    There kio meets a second tag 0 whose array claims 2**32 - 2 elements: before the fix the walk
    accepted this body and kio's native decoder aborted the process reserving 32 GiB.
    """
    from kcli.client import protocol

    inside = b"\x01" + b"\x00\x05" + b"\xff\xff\xff\xff\x0f"  # empty array, then a forged tag 0
    body = _api_versions_v3(b"\x02" + b"\x00" + bytes([len(inside)]) + inside + b"\x09\x00")
    with pytest.raises(LengthError, match=r"tagged field 0 does not fill its declared 8 bytes"):
        check(protocol.response_class("api_versions", 3), body, 0)


def test_a_known_tagged_field_that_fills_its_size_passes() -> None:
    from kio.serial import entity_reader

    from kcli.client import protocol

    cls = protocol.response_class("api_versions", 3)
    feature = b"\x09metadata" + struct.pack(">hh", 1, 20) + b"\x00"  # name, min, max, no tags
    supported = b"\x02" + feature
    body = _api_versions_v3(b"\x01" + b"\x00" + bytes([len(supported)]) + supported)
    check(cls, body, 0)
    value, consumed = entity_reader(cls)(body, 0)
    assert consumed == len(body)
    assert [(f.name, f.min_version, f.max_version) for f in value.supported_features] == [("metadata", 1, 20)]


HEARTBEAT_HEAD = struct.pack(">ihB", 0, 0, 0) + b"\x00" + struct.pack(">ii", 5, 3000)  # up to the assignment


def test_a_nullable_struct_with_marker_other_than_minus_one_is_walked_as_present() -> None:
    """kio reads any marker but -1 as "present" and decodes the struct behind it.

    Here the walk, had it taken 0xfe for null, would read the next bytes as a tagged-field section
    and skip 21 of them as one field, while kio reads an assignment whose partition array claims
    2**32 - 2 elements inside those 21 bytes: before the fix the walk accepted this body and kio's
    native decoder aborted the process reserving 32 GiB.
    """
    from kio.schema.consumer_group_heartbeat.v0.response import ConsumerGroupHeartbeatResponse

    skipped = b"\x00" * 14 + b"\xff\xff\xff\xff\x0f" + b"\x00" * 2
    body = HEARTBEAT_HEAD + b"\xfe" + b"\x02" + b"\x01\x15" + skipped + b"\x02\x00"
    with pytest.raises(LengthError, match="array declares 4294967294 elements"):
        check(ConsumerGroupHeartbeatResponse, body, 0)


def test_nullable_struct_markers_read_as_kio_reads_them() -> None:
    from kio.schema.consumer_group_heartbeat.v0.response import ConsumerGroupHeartbeatResponse
    from kio.serial import entity_reader

    cls = ConsumerGroupHeartbeatResponse
    topic = bytes(range(1, 17)) + b"\x03" + struct.pack(">ii", 0, 1) + b"\x00"  # id, partitions [0, 1], tags
    present = HEARTBEAT_HEAD + b"\xfe" + b"\x02" + topic + b"\x00" + b"\x00"
    value: Any
    value, consumed = entity_reader(cls)(present, 0)
    assert [tuple(t.partitions) for t in value.assignment.topic_partitions] == [(0, 1)]
    assert walker(cls)(present, 0, len(present)) == consumed == len(present)

    null = HEARTBEAT_HEAD + b"\xff" + b"\x00"
    value, consumed = entity_reader(cls)(null, 0)
    assert value.assignment is None
    assert walker(cls)(null, 0, len(null)) == consumed == len(null)


@pytest.mark.parametrize(
    ("name", "version"), [("metadata", 12), ("describe_configs", 4), ("metadata", 1), ("describe_configs", 1)]
)
def test_a_forged_count_in_a_large_response_is_refused(name: str, version: int) -> None:
    """An array count after thousands of valid elements is checked like the first one."""
    from kcli.client import protocol

    cls = protocol.response_class(name, version)
    data = bytearray(seeds.encode_body(_large(name, version)))
    check(cls, data, 0)
    # the last array count: the final topic's partitions / the final resource's configs
    forged = _last_count_position(bytes(data), cls)
    if cls.__flexible__:
        data[forged : forged + 1] = b"\xff\xff\xff\xff\x0f"  # 2**32 - 2 elements
    else:
        data[forged : forged + 4] = struct.pack(">i", 0x7FFFFFFF)
    with pytest.raises(LengthError, match="array declares"):
        check(cls, bytes(data), 0)


def _large(name: str, version: int) -> Any:
    """A response with 2,000 topics of 3 partitions, or 2,000 resources of 3 configs."""
    from kio.schema.errors import ErrorCode

    from kcli.client import protocol

    ok = ErrorCode.none
    cls: Any = protocol.response_class(name, version)
    if name == "metadata":
        topic = _nested(cls, "topics")
        partition = _nested(topic, "partitions")
        return protocol.make(
            cls,
            throttle_time=_zero(),
            brokers=(),
            cluster_id="c",
            controller_id=1,
            topics=tuple(
                protocol.make(
                    topic,
                    error_code=ok,
                    name=f"t{i}",
                    topic_id=None,
                    is_internal=False,
                    partitions=tuple(
                        protocol.make(
                            partition,
                            error_code=ok,
                            partition_index=p,
                            leader_id=1,
                            leader_epoch=0,
                            replica_nodes=(1, 2, 3),
                            isr_nodes=(1, 2, 3),
                            offline_replicas=(),
                        )
                        for p in range(3)
                    ),
                    topic_authorized_operations=-(2**31),
                )
                for i in range(2000)
            ),
            cluster_authorized_operations=-(2**31),
        )
    result = _nested(cls, "results")
    entry = _nested(result, "configs")
    return protocol.make(
        cls,
        throttle_time=_zero(),
        results=tuple(
            protocol.make(
                result,
                error_code=ok,
                error_message=None,
                resource_type=2,
                resource_name=f"t{i}",
                configs=tuple(
                    protocol.make(
                        entry,
                        name=f"c{c}",
                        value="1",
                        read_only=False,
                        config_source=5,
                        is_sensitive=False,
                        synonyms=(),
                        config_type=0,
                        documentation=None,
                    )
                    for c in range(3)
                ),
            )
            for i in range(2000)
        ),
    )


def _nested(cls: Any, field_name: str) -> Any:
    from kio.serial._introspect import classify_field

    field = next(f for f in dataclasses.fields(cls) if f.name == field_name)
    return classify_field(field).type_


def _zero() -> Any:
    import datetime

    from kio.static.primitive import i32Timedelta

    return i32Timedelta.parse(datetime.timedelta(0))


def _last_count_position(data: bytes, cls: Any) -> int:
    """Where the count of the last topic's partitions (the last resource's configs) sits.

    It follows the last name "t1999" (after the topic id and is_internal in Metadata) and reads 3
    elements: compact byte 4, or legacy int32 3.
    """
    at = data.rindex(b"t1999") + len(b"t1999")
    if cls.__flexible__:
        if cls.__name__ == "MetadataResponse":
            at += 16 + 1  # topic id, is_internal
        return data.index(b"\x04", at)
    if cls.__name__ == "MetadataResponse":
        at += 1  # is_internal
    return data.index(struct.pack(">i", 3), at)
