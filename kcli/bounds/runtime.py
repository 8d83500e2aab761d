"""What every generated length walk (kcli.bounds.walks) calls: varints, the tagged-field section
without known tags, and the errors."""

from __future__ import annotations

import struct
from collections.abc import Callable
from typing import Any

from kcli.errors import LengthError, VarintError

# (buf, start, end) -> the position after the value
Walker = Callable[[Any, int, int], int]

I16 = struct.Struct(">h").unpack_from
I32 = struct.Struct(">i").unpack_from


def uvarint(buf: Any, pos: int) -> tuple[int, int]:
    """An unsigned varint of one to five bytes at `pos` -> (value, position after it); a sixth
    byte is refused, as Kafka's ByteUtils.readUnsignedVarint refuses it."""
    value = shift = 0
    for index in range(5):
        byte = buf[pos + index]  # IndexError past the end
        value |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return value, pos + index + 1
        shift += 7
    raise VarintError("varint longer than 5 bytes", pos)


def skip_tags(buf: Any, pos: int, end: int) -> int:
    """A tagged-field section without known tags (an empty one is skipped inline)."""
    count, pos = uvarint(buf, pos)
    if count > end - pos:
        raise too_many(count, pos, end)
    for _ in range(count):
        _tag, pos = uvarint(buf, pos)
        size, pos = uvarint(buf, pos)
        if size > end - pos:
            raise too_many(size, pos, end)
        pos += size
    return pos


def too_many(count: int, pos: int, end: int) -> LengthError:
    return LengthError(f"array declares {count} elements but {max(0, end - pos)} bytes are left", pos)


def unfilled(tag: int, pos: int, size: int) -> LengthError:
    return LengthError(f"tagged field {tag} does not fill its declared {size} bytes", pos)
