"""kcli's hand-written DescribeConfigs v4 decoder against kio's reader.

Values come from kio's own types (hypothesis `from_type`) and from responses shaped like a large
describe (many resources sharing most entries byte for byte); each is encoded with kio's writer and
decoded both ways: the values must be equal. Damaged bytes must raise ValueError, never anything else.
"""

from __future__ import annotations

import dataclasses
import datetime
import struct
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kcli.client import protocol
from kcli.client.config import Endpoint, resolve_client_config
from kcli.client.connection import Connection
from kcli.client.errors import ProtocolError
from tests.fuzz import seeds

READERS = (("describe_configs", 4),)


def plain(value: Any) -> Any:
    """A kio value or a fast reader's value as nested tuples (field order), for comparison."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return tuple(plain(getattr(value, f.name)) for f in dataclasses.fields(value))
    if isinstance(value, tuple):
        return tuple(plain(v) for v in value)
    if isinstance(value, datetime.timedelta):
        return round(value.total_seconds() * 1000)
    if isinstance(value, bool):
        return ("bool", value)
    if isinstance(value, int):
        return int(value)
    return value


def both(name: str, version: int, value: Any) -> tuple[Any, Any]:
    frame = seeds.frame(name, version, seeds.encode_body(value))
    flexible = seeds.header_flexible(name, version)
    kio_value = protocol.decode_response(frame, type(value), header_flexible=flexible)
    reader = protocol.fast_reader(seeds.protocol_key(name), version)
    assert reader is not None
    return kio_value, reader(frame, protocol.body_offset(frame, header_flexible=flexible))


def test_field_names_are_kio_names() -> None:
    from kcli.client.protocol import fast_describe_configs as dc

    pairs = [(dc.DescribeConfigsResponse, protocol.response_class("describe_configs", 4))]
    for fast_cls, kio_cls in pairs:
        kio_module = __import__(kio_cls.__module__, fromlist=["x"])
        fast_module = __import__(fast_cls.__module__, fromlist=["x"])
        for class_name in [
            n for n in vars(fast_module) if n.startswith(kio_cls.__name__.split("Response")[0])
        ]:
            fast_fields = [
                f.replace("throttle_time_ms", "throttle_time")
                for f in getattr(fast_module, class_name)._fields
            ]
            assert fast_fields == [f.name for f in dataclasses.fields(getattr(kio_module, class_name))], (
                class_name
            )


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_equal_to_kio_on_generated_responses(data: st.DataObject) -> None:
    name, version = data.draw(st.sampled_from(READERS))
    value = data.draw(st.from_type(protocol.response_class(name, version)))
    kio_value, fast = both(name, version, value)
    assert plain(fast) == plain(kio_value)


def _describe_configs_response(resources: int, *, vary: int) -> Any:
    """Like a describe of many topics: equal default entries, every `vary`-th topic with one dynamic entry."""
    from kio.static.primitive import i8, i32Timedelta

    cls = protocol.response_class("describe_configs", 4)
    module = __import__(cls.__module__, fromlist=["x"])
    synonym, entry, result = (
        module.DescribeConfigsSynonym,
        module.DescribeConfigsResourceResult,
        module.DescribeConfigsResult,
    )

    def config(key: str, value: str | None, source: int, synonyms: tuple[Any, ...]) -> Any:
        return entry(
            name=key,
            value=value,
            read_only=False,
            config_source=i8(source),
            is_sensitive=value is None,
            synonyms=synonyms,
            config_type=i8(2),
            documentation=None,
        )

    defaults = [
        config(f"key.{n}", f"v{n}", 5, (synonym(name=f"log.key.{n}", value=f"v{n}", source=i8(5)),))
        for n in range(6)
    ]
    results = []
    for index in range(resources):
        configs = list(defaults)
        if index % vary == 0:
            dynamic = synonym(name="key.2", value=f"d{index}", source=i8(1))
            configs[2] = config("key.2", f"d{index}", 1, (dynamic, *defaults[2].synonyms))
        if index % (vary * 2) == 1:
            configs.append(config("secret", None, 1, ()))
        from kio.schema.errors import ErrorCode

        code = ErrorCode.unknown_topic_or_partition if index % 7 == 6 else ErrorCode.none
        results.append(
            result(
                error_code=code,
                error_message="gone" if code else None,
                resource_type=i8(2),
                resource_name=f"topic-{index}",
                configs=() if code else tuple(configs),
            )
        )
    return cls(throttle_time=i32Timedelta.parse(datetime.timedelta(milliseconds=3)), results=tuple(results))


def test_shared_entries_decode_equal_and_are_shared() -> None:
    value = _describe_configs_response(40, vary=3)
    kio_value, fast = both("describe_configs", 4, value)
    assert plain(fast) == plain(kio_value)
    first, second = fast.results[1].configs, fast.results[2].configs
    assert first[0] is second[0]  # equal bytes, one object
    assert fast.results[3].configs[2].value == "d3"
    assert fast.results[3].configs[2] is not fast.results[1].configs[2]


def test_truncated_or_forged_bytes_raise_value_error() -> None:
    value = _describe_configs_response(6, vary=2)
    body = seeds.encode_body(value)
    reader = protocol.fast_reader(32, 4)
    assert reader is not None
    for cut in range(0, len(body), 7):
        with pytest.raises(ValueError):
            reader(body[:cut], 0)
    # a compact array count of 2**31 in a small response: refused before anything is allocated
    for varint in seeds.FORGED_UVARINTS:
        forged = seeds.forge_uvarint(body, 4, varint)
        with pytest.raises(ValueError):
            reader(forged, 0)
    forged_bool = bytearray(body)
    forged_bool[body.index(b"key.0") + 5 + 3] = 7  # the read_only byte after name and value "v0"
    with pytest.raises(ValueError, match="boolean"):
        reader(bytes(forged_bool), 0)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_damaged_frames_are_protocol_errors_through_the_connection(data: st.DataObject) -> None:
    """Through Connection.request's fast path: a value or ProtocolError (kio may accept what it skips)."""
    name, version = data.draw(st.sampled_from(READERS))
    body = seeds.encode_body(data.draw(st.from_type(protocol.response_class(name, version))))
    position = data.draw(st.integers(0, max(0, len(body) - 1)))
    damaged = data.draw(
        st.sampled_from(
            [
                body[:position],
                seeds.forge_int32(body, position, 0x7FFFFFFF),
                seeds.forge_uvarint(body, position, b"\xff\xff\xff\xff\x0f"),
                seeds.bogus_tags(body, position, 3, 1 << 20),
            ]
        )
    )
    frame = seeds.frame(name, version, damaged)
    reader = protocol.fast_reader(seeds.protocol_key(name), version)
    assert reader is not None
    try:
        value = reader(frame, protocol.body_offset(frame, header_flexible=True))
    except ValueError:
        return  # MalformedResponse, struct.error and UnicodeDecodeError all land here
    assert type(value).__name__ == "DescribeConfigsResponse"


def test_connection_reports_malformed_fast_response_as_protocol_error() -> None:
    """The fast path raises the same ProtocolError line as kio's path (read through a real socket pair)."""
    import asyncio
    import socket
    from pathlib import Path

    from kio.static.primitive import i8

    config = resolve_client_config(
        bootstrap_server="127.0.0.1:9092",
        bootstrap_controller=None,
        command_config=None,
        profile=None,
        environ={},
        config_file=Path("/nonexistent/kcli.toml"),
        warn=lambda message: None,
    )

    async def scenario() -> None:
        ours, theirs = socket.socketpair()
        reader, writer = await asyncio.open_connection(sock=ours)
        connection = Connection(
            endpoint=Endpoint(host="127.0.0.1", port=9092),
            node_id=1,
            config=config,
            _reader=reader,
            _writer=writer,
        )
        connection._start_reader()
        cls = protocol.request_class("describe_configs", 4)
        module = __import__(cls.__module__, fromlist=["x"])
        request = cls(
            resources=(
                module.DescribeConfigsResource(
                    resource_type=i8(2), resource_name="t", configuration_keys=None
                ),
            ),
            include_synonyms=True,
            include_documentation=False,
        )
        body = seeds.encode_body(_describe_configs_response(2, vary=1))[:-9]
        frame = struct.pack(">i", 1) + b"\x00" + body
        theirs.sendall(struct.pack(">i", len(frame)) + frame)
        try:
            with pytest.raises(ProtocolError, match="could not decode the DescribeConfigs v4 response"):
                await connection.request(request, deadline=asyncio.get_running_loop().time() + 5, fast=True)
        finally:
            await connection.close()
            theirs.close()

    asyncio.run(scenario())
