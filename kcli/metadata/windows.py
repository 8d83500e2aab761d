"""Reading a metadata file a window at a time: a new window, a pre-allocated zero tail, and where a
corrupt batch ends if its length can still be trusted."""

from __future__ import annotations

import struct
from typing import IO, Protocol

from kcli.metadata.read_model import BATCH_OVERHEAD, WINDOW_BYTES


class Source(Protocol):
    """What a reader reads a file through: an open binary file, or a `FileRange` of one."""

    def seek(self, offset: int, whence: int = 0, /) -> int: ...
    def read(self, size: int = -1, /) -> bytes: ...
    def tell(self) -> int: ...


class FileUntil:
    """An open binary file that ends at `stop` for its reader (positions stay the file's): a reader
    of the first part of a file (kcli.shell.halves) reads no further."""

    def __init__(self, handle: IO[bytes], stop: int) -> None:
        self.handle, self.stop = handle, stop

    def seek(self, offset: int, whence: int = 0, /) -> int:
        return self.handle.seek(offset, whence)

    def read(self, size: int = -1, /) -> bytes:
        left = max(0, self.stop - self.handle.tell())
        return self.handle.read(left if size < 0 else min(size, left))

    def tell(self) -> int:
        return self.handle.tell()


def refill(handle: Source, buf: bytes, base: int, pos: int, need: int) -> tuple[bytes, int, int]:
    """A new window from file position `base + pos`, holding at least `need` bytes (if the file has
    them): -> (buffer, its file position, 0). Read afresh rather than joined to what was kept: the
    file is in the page cache, and a join would copy the window once more."""
    handle.seek(base + pos)
    return handle.read(max(WINDOW_BYTES, need)), base + pos, 0


def zero_to_end(handle: Source | None, rest: memoryview) -> bool:
    """Whether the window from here and the rest of the file are all zero bytes (pre-allocated)."""
    if any(rest):
        return False
    if handle is None:
        return True
    where = handle.tell()
    while chunk := handle.read(WINDOW_BYTES):
        if any(chunk):
            handle.seek(where)
            return False
    return True


def plausible_end(buf: bytes, pos: int, size: int) -> int | None:
    """Where a corrupt batch ends (a position in `buf`, maybe past it) if its length field still fits
    the `size` bytes the file has from `buf[0]` on, else None."""
    if pos + 12 > len(buf):
        return None
    (length,) = struct.unpack_from(">i", buf, pos + 8)
    end = pos + 12 + length
    if length < BATCH_OVERHEAD - 12 or end > size:
        return None
    return end
