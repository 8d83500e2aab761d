"""Kafka request/response framing for the sandbox, with kio types.

A frame is a 4-byte size followed by a request header and body. Readers and writers are compiled
once per (API, version) and cached, so a hot request costs one decode and one encode. Every reader
runs the class's length walk before kio (kcli.bounds.checked_reader): a request declaring a count
its bytes cannot hold is a FrameError (the connection is closed), never an allocation in kio's
native decoder.
"""

from __future__ import annotations

import dataclasses
import functools
import io
import struct
from dataclasses import dataclass
from typing import Any

MAX_FRAME_BYTES = 104_857_600  # socket.request.max.bytes default
_PREFIX = struct.Struct(">hhi")


class FrameError(Exception):
    """A request that cannot be decoded: the connection is closed, as Kafka does."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Prefix:
    """The fixed start of every request header: enough to route and to answer."""

    api_key: int
    api_version: int
    correlation_id: int


def read_prefix(frame: bytes) -> Prefix:
    """Decode api key, version and correlation id (the first 8 bytes of every header version)."""
    if len(frame) < _PREFIX.size:
        raise FrameError(f"truncated request header ({len(frame)} bytes)")
    key, version, correlation_id = _PREFIX.unpack_from(frame, 0)
    return Prefix(api_key=key, api_version=version, correlation_id=correlation_id)


@functools.cache
def classes(name: str, version: int) -> tuple[Any, Any, Any]:
    """(request class, response class, response module) of kio schema `name` at `version`, or of the
    kio-style schema kcli.client.protocol writes where kio has none (UnregisterController)."""
    import sys

    from kcli.client.protocol import request_class, response_class

    request_cls = request_class(name, version)
    response_cls = response_class(name, version)
    return request_cls, response_cls, sys.modules[response_cls.__module__]


def reader(cls: Any) -> Any:
    """kio's reader for an entity class behind its length walk (cached): (buf, start) -> (value, size)."""
    from kcli.bounds import checked_reader

    return checked_reader(cls)


_reader = reader


@functools.cache
def _writer(cls: Any) -> Any:
    from kio.serial import entity_writer

    return entity_writer(cls)


def decode_request(frame: bytes, name: str, version: int) -> tuple[Any, Any, int]:
    """Decode header and body of `frame`: (header, request, bytes consumed)."""
    request_cls = classes(name, version)[0]
    try:
        header, offset = _reader(request_cls.__header_schema__)(frame, 0)
        body, size = _reader(request_cls)(frame, offset)
    except Exception as error:  # kio raises several decode error types; all mean "malformed"
        raise FrameError(f"malformed {name} v{version} request: {type(error).__name__}: {error}") from None
    return header, body, offset + size


def decode_header(frame: bytes, name: str, version: int) -> tuple[Any, int]:
    """Decode only the request header (for requests whose body the sandbox decodes itself)."""
    request_cls = classes(name, version)[0]
    try:
        header, offset = _reader(request_cls.__header_schema__)(frame, 0)
    except Exception as error:
        raise FrameError(f"malformed {name} v{version} header: {error}") from None
    return header, offset


@dataclass(frozen=True, slots=True, kw_only=True)
class PreEncoded:
    """A response body already encoded (kcli.sandbox.emulator.fastcodec) for the kio class `cls`."""

    cls: Any
    body: bytes


def encode_response(response: Any, correlation_id: int) -> bytes:
    """Frame `response` (a kio response object or PreEncoded) with its header and size prefix."""
    cls: Any = response.cls if isinstance(response, PreEncoded) else type(response)
    header_cls: Any = cls.__header_schema__
    buffer = io.BytesIO()
    buffer.write(b"\0\0\0\0")
    _writer(header_cls)(buffer, header_cls(correlation_id=correlation_id))
    if isinstance(response, PreEncoded):
        buffer.write(response.body)
    else:
        _writer(cls)(buffer, response)
    data = buffer.getbuffer()
    struct.pack_into(">i", data, 0, len(data) - 4)
    return bytes(data)


def encode_entity(value: Any) -> bytes:
    """The bytes of one kio entity (no size prefix)."""
    buffer = io.BytesIO()
    cls: Any = type(value)
    _writer(cls)(buffer, value)
    return buffer.getvalue()


def encode_request(request: Any, correlation_id: int, client_id: str | None) -> bytes:
    """Frame `request` with its header (used by brokers forwarding to the controller)."""
    cls: Any = type(request)
    header_cls = cls.__header_schema__
    header = make(
        header_cls,
        request_api_key=cls.__api_key__,
        request_api_version=cls.__version__,
        correlation_id=correlation_id,
        client_id=client_id,
    )
    return encode_entity(header) + encode_entity(request)


def response_body(data: bytes, cls: Any) -> bytes:
    """The body of a response (its header left out), undecoded."""
    _header, offset = _reader(cls.__header_schema__)(data, 0)
    return bytes(data[offset:])


def decode_response(data: bytes, cls: Any) -> Any:
    """Decode a response body (after its header) into `cls`."""
    _header, offset = _reader(cls.__header_schema__)(data, 0)
    body, _ = _reader(cls)(data, offset)
    return body


@functools.cache
def _field_names(cls: Any) -> frozenset[str]:
    return frozenset(f.name for f in dataclasses.fields(cls))


@functools.cache
def _error_code() -> Any:
    from kio.schema.errors import ErrorCode

    return ErrorCode


@functools.cache
def _enum_error_code(cls: Any) -> bool:
    """Whether `cls` types its error_code as kio's ErrorCode (kio-style schemas kcli writes for codes
    beyond kio's enum use a plain int16)."""
    return any(
        f.name == "error_code" and f.metadata.get("kafka_type") == "error_code"
        for f in dataclasses.fields(cls)
    )


def make(cls: Any, **values: Any) -> Any:
    """Build a kio entity from `values`, dropping fields this version of the schema lacks.

    An int `error_code` becomes kio's ErrorCode where the schema types it so (its writer needs the enum).
    """
    names = _field_names(cls)
    code = values.get("error_code")
    if code is not None and type(code) is int and _enum_error_code(cls):
        values["error_code"] = _error_code()(code)
    return cls(**{key: value for key, value in values.items() if key in names})


def has_field(cls_or_value: Any, name: str) -> bool:
    """Whether this schema version has field `name`."""
    cls = cls_or_value if isinstance(cls_or_value, type) else type(cls_or_value)
    return name in _field_names(cls)
