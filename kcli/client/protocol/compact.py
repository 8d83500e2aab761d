"""Readers of the compact (flexible-version) Kafka encoding for kcli's hand-written decoders.

Each takes the frame bytes and a position and returns (value, next position); past the end they
raise IndexError (callers turn it into MalformedResponse), and every declared length or count is
checked against the bytes left before anything is read or built.
"""

from __future__ import annotations

import struct

I16 = struct.Struct(">h")
I32 = struct.Struct(">i")


class MalformedResponse(ValueError):
    """The bytes are not a well-formed DescribeConfigs v4 response body."""


def uvarint(buf: bytes, pos: int) -> tuple[int, int]:
    value = shift = 0
    for index in range(5):
        byte = buf[pos + index]  # IndexError past the end
        value |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return value, pos + index + 1
        shift += 7
    raise MalformedResponse(f"varint longer than 5 bytes at byte {pos}")


def count(buf: bytes, pos: int, what: str) -> tuple[int, int]:
    """A compact array count (uvarint N+1); null is refused (no array here is nullable)."""
    byte = buf[pos]
    raw, pos = (byte, pos + 1) if byte < 0x80 else uvarint(buf, pos)
    if raw == 0:
        raise MalformedResponse(f"null {what} array at byte {pos - 1}")
    count = raw - 1
    if count > len(buf) - pos:  # each element takes at least one byte
        raise MalformedResponse(f"{what} array declares {count} elements with {len(buf) - pos} bytes left")
    return count, pos


def string(buf: bytes, pos: int, nullable: bool) -> tuple[str | None, int]:
    byte = buf[pos]
    raw, pos = (byte, pos + 1) if byte < 0x80 else uvarint(buf, pos)
    if raw == 0:
        if not nullable:
            raise MalformedResponse(f"null string at byte {pos - 1}")
        return None, pos
    end = pos + raw - 1
    if end > len(buf):
        raise MalformedResponse(f"string of {raw - 1} bytes runs past the end at byte {pos}")
    return buf[pos:end].decode("utf-8"), end


def name(buf: bytes, pos: int) -> tuple[str, int]:
    value, pos = string(buf, pos, False)
    assert value is not None
    return value, pos


def boolean(buf: bytes, pos: int) -> bool:
    byte = buf[pos]
    if byte > 1:
        raise MalformedResponse(f"boolean byte {byte} at byte {pos}")
    return byte == 1


def int8(buf: bytes, pos: int) -> int:
    byte = buf[pos]
    return byte - 256 if byte > 127 else byte


def skip_tags(buf: bytes, pos: int) -> int:
    byte = buf[pos]
    if byte == 0:
        return pos + 1
    count, pos = uvarint(buf, pos)
    for _ in range(count):
        _tag, pos = uvarint(buf, pos)
        size, pos = uvarint(buf, pos)
        if size > len(buf) - pos:
            raise MalformedResponse(f"tagged field of {size} bytes runs past the end at byte {pos}")
        pos += size
    return pos
