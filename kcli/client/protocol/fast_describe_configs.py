"""A hand-written decoder for DescribeConfigs v4 responses, for describes of thousands of resources.

kio's reader builds a frozen dataclass per config entry and per synonym; describing 10,000 topics
means ~270,000 entries and ~500,000 synonyms, and a length walk before it (kcli.bounds). Most of
those entries are byte-for-byte the same from one topic to the next (every default config of
every topic), so this decoder:

- decodes an entry once and shares the value: before decoding entry j of a resource it checks
  whether the bytes at that position start with the bytes of entry j of the previous resource
  (one C-level comparison); an encoding that is self-delimiting makes equal bytes mean an equal
  entry of equal length. Other entries are decoded and interned by their bytes.
- returns NamedTuples with kio's field names (DescribeConfigsResponse.results[i].configs[j].name,
  .synonyms[k].source, ...), so callers read it as they read kio's value; ints for int8/int16
  fields and error codes (kio's ErrorCode is an IntEnum, equal to those ints).
- checks every declared length against the bytes left (a forged count raises ValueError, it
  never allocates), accepts booleans 0/1 only, skips unknown tagged fields by their size, and
  raises ValueError (or struct.error / UnicodeDecodeError, both ValueErrors) on malformed bytes.
  tests/client/test_fast_readers.py checks it equals kio's reader on generated inputs.
"""

from __future__ import annotations

import struct
from typing import NamedTuple

from kcli.client.protocol.compact import I16 as _I16
from kcli.client.protocol.compact import I32 as _I32
from kcli.client.protocol.compact import MalformedResponse
from kcli.client.protocol.compact import boolean as _bool
from kcli.client.protocol.compact import count as _count
from kcli.client.protocol.compact import int8 as _int8
from kcli.client.protocol.compact import name as _name
from kcli.client.protocol.compact import skip_tags as _skip_tags
from kcli.client.protocol.compact import string as _string

__all__ = ["DescribeConfigsResponse", "MalformedResponse", "read_describe_configs_v4"]


class DescribeConfigsSynonym(NamedTuple):
    name: str
    value: str | None
    source: int


class DescribeConfigsResourceResult(NamedTuple):
    name: str
    value: str | None
    read_only: bool
    config_source: int
    is_sensitive: bool
    synonyms: tuple[DescribeConfigsSynonym, ...]
    config_type: int
    documentation: str | None


class DescribeConfigsResult(NamedTuple):
    error_code: int
    error_message: str | None
    resource_type: int
    resource_name: str
    configs: tuple[DescribeConfigsResourceResult, ...]


class DescribeConfigsResponse(NamedTuple):
    throttle_time_ms: int
    results: tuple[DescribeConfigsResult, ...]


def _synonym(buf: bytes, pos: int) -> tuple[DescribeConfigsSynonym, int]:
    name, pos = _name(buf, pos)
    value, pos = _string(buf, pos, True)
    source = _int8(buf, pos)
    pos = _skip_tags(buf, pos + 1)
    return DescribeConfigsSynonym(name, value, source), pos


def _entry(buf: bytes, pos: int) -> tuple[DescribeConfigsResourceResult, int]:
    name, pos = _name(buf, pos)
    value, pos = _string(buf, pos, True)
    read_only = _bool(buf, pos)
    source = _int8(buf, pos + 1)
    sensitive = _bool(buf, pos + 2)
    count, pos = _count(buf, pos + 3, "synonyms")
    synonyms = []
    for _ in range(count):
        synonym, pos = _synonym(buf, pos)
        synonyms.append(synonym)
    config_type = _int8(buf, pos)
    documentation, pos = _string(buf, pos + 1, True)
    pos = _skip_tags(buf, pos)
    entry = DescribeConfigsResourceResult(
        name, value, read_only, source, sensitive, tuple(synonyms), config_type, documentation
    )
    return entry, pos


def read_describe_configs_v4(buf: bytes, pos: int) -> DescribeConfigsResponse:
    """Decode a DescribeConfigs v4 response body starting at `pos` (after the response header)."""
    try:
        return _read(buf, pos)
    except (IndexError, struct.error):
        raise MalformedResponse("the response ends in the middle of a field") from None


def _read(buf: bytes, pos: int) -> DescribeConfigsResponse:
    (throttle,) = _I32.unpack_from(buf, pos)
    count, pos = _count(buf, pos + 4, "results")
    interned: dict[bytes, DescribeConfigsResourceResult] = {}
    previous: list[tuple[bytes, DescribeConfigsResourceResult]] = []
    results = []
    startswith = buf.startswith
    for _ in range(count):
        (error_code,) = _I16.unpack_from(buf, pos)
        error_message, pos = _string(buf, pos + 2, True)
        resource_type = _int8(buf, pos)
        resource_name, pos = _name(buf, pos + 1)
        entries, pos = _count(buf, pos, "configs")
        configs = []
        current = []
        for index in range(entries):
            if index < len(previous):
                raw, entry = previous[index]
                if startswith(raw, pos):
                    configs.append(entry)
                    current.append((raw, entry))
                    pos += len(raw)
                    continue
            start = pos
            entry, pos = _entry(buf, pos)
            raw = buf[start:pos]
            entry = interned.setdefault(raw, entry)
            configs.append(entry)
            current.append((raw, entry))
        if entries:
            previous = current
        pos = _skip_tags(buf, pos)
        results.append(
            DescribeConfigsResult(error_code, error_message, resource_type, resource_name, tuple(configs))
        )
    _skip_tags(buf, pos)
    return DescribeConfigsResponse(throttle, tuple(results))
