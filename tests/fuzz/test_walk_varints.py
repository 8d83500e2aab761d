"""The length walk (kcli.bounds) and kio read canonical and non-canonical varints alike.

Kafka reads an unsigned varint by value, so a compact length of 0 may come as `00` or as `80 00`
(up to five bytes). Valid values drawn from kio's types (responses, the emulator's requests and their
headers, metadata records) are
encoded by kio, then every compact count, length and tag varint is re-encoded with a drawn number
of padding bytes: the walk must end where kio ends, byte for byte, and kio must read the same
value. Then one count is forged past the bytes present (also padded): the walk must refuse it
before kio sees it.
"""

from __future__ import annotations

import struct
from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from kcli.bounds import check, checked_reader, walker
from kcli.bounds.model import SIZES, Entity, entity
from kcli.errors import DecodeError
from kcli.metadata import records as r
from tests.fuzz import seeds


def uvarint(buf: bytes, pos: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        byte = buf[pos]
        pos += 1
        value |= (byte & 0x7F) << shift
        if byte < 0x80:
            return value, pos
        shift += 7


def encode(value: int, extra: int) -> bytes:
    """`value` as an unsigned varint, with `extra` padding bytes (non-canonical when extra > 0)."""
    out = bytearray()
    while True:
        out.append(value & 0x7F)
        value >>= 7
        if not value:
            break
        out[-1] |= 0x80
    for _ in range(extra):
        out[-1] |= 0x80
        out.append(0)
    return bytes(out)


class Reencoder:
    """Copies a canonical encoding of an entity, re-encoding its compact varints with padding
    (`widths` draws how many bytes each gets); remembers where each array count now starts."""

    def __init__(self, data: bytes, widths: Any) -> None:
        self.data = data
        self.pos = 0
        self.out = bytearray()
        self.widths = widths
        self.counts: list[tuple[int, int]] = []  # (start in out, end in out) of compact array counts

    def varint(self) -> int:
        value, end = uvarint(self.data, self.pos)
        canonical = end - self.pos
        self.pos = end
        self.out += encode(value, self.widths(5 - canonical))
        return value

    def copy(self, size: int) -> None:
        self.out += self.data[self.pos : self.pos + size]
        self.pos += size

    def entity(self, found: Entity) -> None:
        for f in found.regular:
            self.field(f, found.flexible)
        if found.flexible:
            for _ in range(self.varint()):
                self.varint()  # tag
                size, _end = uvarint(self.data, self.pos)  # the content is copied as it is
                self.varint()
                self.copy(size)

    def field(self, f: Any, flexible: bool) -> None:
        if f.array:
            if flexible:
                start = len(self.out)
                count = self.varint() - 1
                self.counts.append((start, len(self.out)))
            else:
                count = struct.unpack_from(">i", self.data, self.pos)[0]
                self.copy(4)
            for _ in range(max(count, 0)):
                self.value(f, flexible, in_array=True)
            return
        self.value(f, flexible, in_array=False)

    def value(self, f: Any, flexible: bool, *, in_array: bool) -> None:
        if f.entity is not None:
            if f.nullable and not in_array:
                marker = self.data[self.pos]
                self.copy(1)
                if marker == 0xFF:
                    return
            self.entity(f.entity)
        elif f.kafka_type in SIZES:
            self.copy(SIZES[f.kafka_type][1])
        elif flexible and not f.legacy:
            length = self.varint()
            self.copy(max(length - 1, 0))
        elif f.kafka_type == "string":
            length = struct.unpack_from(">h", self.data, self.pos)[0]
            self.copy(2 + max(length, 0))
        else:
            length = struct.unpack_from(">i", self.data, self.pos)[0]
            self.copy(4 + max(length, 0))


def _header(kind: str, version: int) -> type:
    import importlib

    module = importlib.import_module(f"kio.schema.{kind}_header.v{version}.header")
    return getattr(module, "".join(part.capitalize() for part in kind.split("_")) + "Header")  # type: ignore[no-any-return]


seeds.register_kio_strategies()
RESPONSES = [seeds.response_class(n, v) for n, v in seeds.RESPONSES]
REQUESTS = [
    seeds.request_class(name, version)
    for name, _key, version in seeds.request_kinds()
    if (name, version) != ("api_versions", 5)
]
HEADERS = [_header("request", 2), _header("response", 1)]
RECORDS = [cls for _key, cls in sorted(r.METADATA_RECORD_CLASSES.items()) if entity(cls).flexible]
CLASSES = [cls for cls in RESPONSES + REQUESTS + HEADERS + RECORDS if entity(cls).flexible]


@st.composite
def padded(draw: st.DrawFn) -> tuple[type, Any, bytes, bytes, list[tuple[int, int]]]:
    cls = draw(st.sampled_from(CLASSES))
    value = draw(st.from_type(cls))
    canonical = seeds.encode_body(value)
    try:
        checked_reader(cls)(canonical, 0)
    except Exception:  # kio cannot read back some extreme values it writes (a timedelta of 2**63 ms)
        assume(False)
    recoder = Reencoder(canonical, lambda room: draw(st.integers(0, room)))
    recoder.entity(entity(cls))
    assert recoder.pos == len(canonical)
    return cls, value, canonical, bytes(recoder.out), recoder.counts


SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(padded())
def test_the_walk_and_kio_agree_on_padded_varints(case: tuple[type, Any, bytes, bytes, list[Any]]) -> None:
    cls, value, canonical, data, _counts = case
    assert walker(cls)(canonical, 0, len(canonical)) == len(canonical)
    assert walker(cls)(data, 0, len(data)) == len(data)
    decoded, size = checked_reader(cls)(data, 0)
    assert size == len(data)
    assert decoded == value


@SETTINGS
@given(padded(), st.data())
def test_a_forged_padded_count_is_refused_before_kio(
    case: tuple[type, Any, bytes, bytes, list[Any]], data: st.DataObject
) -> None:
    cls, _value, _canonical, body, counts = case
    if not counts:
        return
    start, end = data.draw(st.sampled_from(counts))
    forged_count = data.draw(st.sampled_from([len(body) + 1, 2**31, 2**32 - 2]))
    forged = encode(forged_count + 1, data.draw(st.integers(0, 5 - len(encode(forged_count + 1, 0)))))
    damaged = body[:start] + forged + body[end:]
    try:
        check(cls, damaged, 0)
    except DecodeError:
        return
    raise AssertionError(f"{cls.__name__}: a count of {forged_count} at byte {start} passed the walk")


def test_a_compact_string_of_length_zero_in_two_bytes_keeps_the_walk_in_step() -> None:
    """The 48-byte DescribeCluster response of issue 30: a null compact string written `80 00`
    moved the walk one byte back, so a forged broker count behind it passed and aborted kio."""
    from tests.fuzz.crafted import describe_cluster_body

    cls = seeds.response_class("describe_cluster", 1)
    body = describe_cluster_body()
    try:
        check(cls, body, 0)
    except DecodeError as error:
        assert "array declares" in str(error)
    else:
        raise AssertionError("the forged DescribeCluster response passed the walk")
