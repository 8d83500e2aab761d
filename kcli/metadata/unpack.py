"""What the generated values readers (kcli.metadata.generated.decoders) are made of: varints, arrays of
ints, uuids shared one object per distinct id, and the error that sends a body back to kio's reader.

Below kcli.metadata.fastdecode, which picks a reader for a record type: the generated module imports
only this one, so nothing imports a module that imports it back.
"""

from __future__ import annotations

import functools
import struct
import uuid
from collections.abc import Callable
from typing import Any

ValuesReader = Callable[[Any, int], tuple[tuple[Any, ...], int]]

_SAFE = uuid.SafeUUID.unknown
_ZERO = bytes(16)
UUIDS: dict[bytes, uuid.UUID | None] = {_ZERO: None}
_MAX_SHARED_UUIDS = 2_000_000


class NotCanonical(ValueError):
    """The body is not in the form the compiled reader handles (kio's reader decides instead)."""


def new_uuid(raw: bytes) -> uuid.UUID | None:
    """A UUID from 16 bytes without UUID.__init__'s checks (the bytes are exactly 16)."""
    if raw == _ZERO:
        return None
    value = object.__new__(uuid.UUID)
    object.__setattr__(value, "int", int.from_bytes(raw, "big"))
    object.__setattr__(value, "is_safe", _SAFE)
    if len(UUIDS) > _MAX_SHARED_UUIDS:
        UUIDS.clear()
        UUIDS[_ZERO] = None
    UUIDS[raw] = value
    return value


def shared_uuid(raw: bytes) -> uuid.UUID | None:
    """The UUID of 16 raw bytes, one object per distinct id; None for all zeros (as kio)."""
    found = UUIDS.get(raw)
    return found if found is not None else new_uuid(raw)


def read_uvarint(buf: Any, pos: int) -> tuple[int, int]:
    """Unsigned varint at `pos` -> (value, position after it)."""
    result = 0
    shift = 0
    while True:
        byte = buf[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        if byte < 0x80:
            return result, pos
        shift += 7
        if shift > 28:
            raise NotCanonical("varint longer than 5 bytes")


@functools.lru_cache(maxsize=256)
def array_struct(count: int, code: str) -> struct.Struct:
    return struct.Struct(f">{count}{code}")
