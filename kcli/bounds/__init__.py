"""Check the lengths declared in Kafka-encoded bytes against the bytes present, before kio decodes them.

kio's native decoder reserves memory for an array from its declared element count before reading
the elements. A forged count (a compact array claiming 2**32 elements in a 100-byte response,
request or metadata record) makes that reservation fail, and a failed allocation in native code
aborts the whole process instead of raising. `check(cls, buf, start, end)` walks the same schema kio
would (fields, nested structs, arrays, strings, bytes, tagged fields) reading only lengths, and
raises LengthError (or VarintError, TruncatedData: kcli.errors' DecodeError family) as soon as a
declared count cannot fit in what is left; kio is then only ever asked to decode bytes whose every
declared length fits. Every path that hands outside bytes to kio calls it: the client's responses
(kcli.client.protocol), the emulator's requests (kcli.sandbox.emulator.wire), metadata record bodies and
control records (kcli.metadata.framing).

Behavior:
- Every array element takes at least one byte, so a count larger than the bytes left is refused.
- The walk follows kio's reading exactly, so every count kio will read is one the walk checked:
  a varint is read by its value whatever its encoding (a non-canonical `80 00` is 0, a null
  compact string, two bytes long); a nullable struct is null only for the marker -1 (kio reads any
  other marker as "present"); a known tagged field must fill its declared size exactly (kio reads
  the field, not the size). Unknown tags are skipped by size (kio refuses them).
- The walks are generated at build time from kcli.bounds.model by scripts/decoders.py (one module
  per schema under kcli.bounds.walks): nested structs inlined, consecutive fixed-size fields one
  addition, an array of fixed-size values one step. A walk is used only for a class whose
  fingerprint is the one it was generated from; any other class is refused (SchemaError), never
  walked by a walk of another shape.
"""

from __future__ import annotations

import functools
import importlib
import struct
from collections.abc import Callable
from typing import Any, Protocol

from kcli.bounds.model import SchemaError, fingerprint, qualname
from kcli.bounds.runtime import Walker
from kcli.errors import LengthError, TruncatedData

__all__ = ["CheckedReader", "LengthError", "SchemaError", "check", "checked_reader", "walker"]

# kcli's own encoded classes: the walk module that holds them (kio's: the schema name).
_KCLI_MODULES = {
    "kcli.client.protocol.api_versions_v5": "api_versions",
    "kcli.client.protocol.unregister_controller": "unregister_controller",
    "kcli.metadata.generated.records": "metadata_records",
    "kcli.sandbox.emulator.groups.generated_records": "coordinator_records",
}


class CheckedReader(Protocol):
    """(buf, start, end or None for the end of buf) -> (value, bytes read)."""

    def __call__(self, buf: Any, start: int, end: int | None = None, /) -> tuple[Any, int]: ...


def check(cls: type, buf: Any, start: int, end: int | None = None) -> int:
    """Raise a DecodeError if any length declared in buf[start:end] for a `cls` value cannot fit;
    returns where the value ends (as kio will read it)."""
    stop = len(buf) if end is None else end
    try:
        position = walker(cls)(buf, start, stop)
    except (IndexError, struct.error):
        raise TruncatedData(f"the {cls.__name__} ends in the middle of a field", stop) from None
    if position > stop:
        raise LengthError(
            f"the {cls.__name__} declares {position - start} bytes, {stop - start} are present", start
        )
    return position


@functools.cache
def checked_reader(cls: type) -> CheckedReader:
    """kio's reader of `cls` behind the length walk: `read(buf, start, end=None)` -> (value, size).
    The one way kcli hands outside bytes to kio."""
    from kio.serial import entity_reader

    read: Callable[[Any, int], tuple[Any, int]] = entity_reader(cls)  # type: ignore[arg-type]
    walker(cls)  # refuse a class without a walk now, not at the first record

    def read_checked(buf: Any, start: int, end: int | None = None) -> tuple[Any, int]:
        check(cls, buf, start, end)
        return read(buf, start)

    return read_checked


@functools.cache
def walker(cls: type) -> Walker:
    """The generated length walk of `cls`: (buf, start, end) -> the position after it."""
    module_name = cls.__module__
    name = (
        module_name.split(".")[2]
        if module_name.startswith("kio.schema.")
        else _KCLI_MODULES.get(module_name, "")
    )
    try:
        walks = importlib.import_module(f"kcli.bounds.walks.{name}").WALKS if name else {}
    except ImportError:
        walks = {}
    found = walks.get(qualname(cls))
    if found is None:
        raise SchemaError(f"kcli.bounds has no walk of {qualname(cls)} (run scripts/decoders.py generate)")
    generated_from, walk = found
    if generated_from != fingerprint(cls):
        raise SchemaError(
            f"the walk of {qualname(cls)} was generated for another shape of the class "
            "(another kio release?): run scripts/decoders.py generate"
        )
    return walk  # type: ignore[no-any-return]
