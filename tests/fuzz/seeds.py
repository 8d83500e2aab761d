"""Valid inputs the fuzzers start from: kio-encoded responses and metadata logs written by kcli's writer.

Also the mutations they apply (shared by the hypothesis tests and benchmarks/fuzz_long.py): forged
lengths (int32 and unsigned varints up to 2 GiB and beyond), negative sizes, truncation, bogus tagged
fields, byte flips.
"""

from __future__ import annotations

import io
import struct
import uuid
from pathlib import Path
from typing import Any

# (kio schema name, version): the responses kcli reads from servers, flexible and not.
RESPONSES: tuple[tuple[str, int], ...] = (
    ("api_versions", 0),
    ("api_versions", 3),
    ("metadata", 1),
    ("metadata", 12),
    ("describe_cluster", 1),
    ("describe_configs", 1),
    ("describe_configs", 4),
    ("incremental_alter_configs", 1),
    ("create_acls", 3),
    ("describe_acls", 3),
    ("delete_acls", 3),
    ("describe_quorum", 2),
    ("update_features", 1),
    ("alter_partition_reassignments", 0),
    ("list_partition_reassignments", 0),
    ("describe_log_dirs", 4),
    ("sasl_authenticate", 2),
    ("describe_user_scram_credentials", 0),
)

FORGED_INT32 = (0x7FFFFFFF, 0x7FFFFFF0, 0x40000000, -1, -2, -(2**31))
# unsigned varints: 2 GiB, 4 GiB - 1, 2**35, and a varint that never ends within 5 bytes
FORGED_UVARINTS = (
    b"\x80\x80\x80\x80\x08",
    b"\xff\xff\xff\xff\x0f",
    b"\xff\xff\xff\xff\xff\x01",
    b"\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01",
)


def response_class(name: str, version: int) -> type:
    from kcli.client import protocol

    return protocol.response_class(name, version)


def header_flexible(name: str, version: int) -> bool:
    from kcli.client import protocol

    cls = response_class(name, version)
    return protocol.response_header_flexible(protocol_key(name), cls)


def protocol_key(name: str) -> int:
    from kcli.client.protocol import API_SCHEMA_NAMES

    return next(key for key, value in API_SCHEMA_NAMES.items() if value == name)


def encode_body(value: Any) -> bytes:
    from kio.serial import entity_writer

    buffer = io.BytesIO()
    entity_writer(type(value))(buffer, value)
    return buffer.getvalue()


def frame(name: str, version: int, body: bytes, correlation_id: int = 7) -> bytes:
    """A response frame without its size prefix: correlation id, header tags if flexible, body."""
    head = struct.pack(">i", correlation_id)
    if header_flexible(name, version):
        head += b"\x00"
    return head + body


def forge_int32(data: bytes, position: int, value: int) -> bytes:
    position = max(0, min(position, max(0, len(data) - 4)))
    return data[:position] + struct.pack(">i", value) + data[position + 4 :]


def forge_uvarint(data: bytes, position: int, varint: bytes) -> bytes:
    position = max(0, min(position, len(data)))
    return data[:position] + varint + data[position + 1 :]


def bogus_tags(data: bytes, position: int, tag: int, size: int) -> bytes:
    """Insert a tagged-field section claiming one field `tag` of `size` bytes (with too few behind it)."""
    position = max(0, min(position, len(data)))
    section = b"\x01" + _uvarint(tag) + _uvarint(size) + b"\x00" * min(size, 3)
    return data[:position] + section + data[position:]


def _uvarint(value: int) -> bytes:
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def metadata_files(directory: Path) -> list[Path]:
    """A segment, a snapshot and a bootstrap.checkpoint written by kcli's own metadata writer."""
    from kio.static.primitive import i16

    from kcli.metadata import records as r
    from kcli.metadata.writer import MetadataLogWriter

    rec: Any = r
    topic_id = uuid.UUID(int=0x1234)
    image = [
        rec.FeatureLevelRecord(name="metadata.version", feature_level=i16(25)),
        rec.TopicRecord(name="orders", topic_id=topic_id),
        rec.ConfigRecord(resource_type=2, resource_name="orders", name="retention.ms", value="1000"),
    ]
    with MetadataLogWriter(directory, node_id=1, cluster_id="WnLkTHhkQaiJbwP8FClPhw") as log:
        log.write_bootstrap_checkpoint(image[:1])
        last = log.append(image, epoch=1, timestamp_ms=1_700_000_000_000)
        last = log.append(
            [rec.ConfigRecord(resource_type=4, resource_name="", name="log.cleaner.threads", value="2")],
            epoch=1,
            timestamp_ms=1_700_000_000_500,
        )
        log.write_snapshot(image, offset=last + 1, epoch=1, last_contained_log_timestamp=1_700_000_000_500)
    return sorted(p for p in directory.rglob("*") if p.is_file() and p.name.endswith((".log", ".checkpoint")))


CORPUS = Path(__file__).parent / "corpus"


def write_response_corpus(directory: Path = CORPUS / "responses", per_type: int = 3) -> list[Path]:
    """Generate valid response frames (`<name>-v<version>-<n>.bin`) from kio's types with hypothesis."""
    import warnings

    from hypothesis import strategies as st
    from hypothesis.errors import NonInteractiveExampleWarning

    directory.mkdir(parents=True, exist_ok=True)
    written = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NonInteractiveExampleWarning)
        for name, version in RESPONSES:
            strategy: Any = st.from_type(response_class(name, version))
            for index in range(per_type):
                path = directory / f"{name}-v{version}-{index}.bin"
                path.write_bytes(frame(name, version, encode_body(strategy.example())))
                written.append(path)
    return written


def response_corpus(directory: Path = CORPUS / "responses") -> list[tuple[str, int, bytes]]:
    """(schema name, version, frame) for every corpus file."""
    out = []
    for path in sorted(directory.glob("*.bin")):
        stem, _, _index = path.stem.rpartition("-")
        name, _, version = stem.rpartition("-v")
        out.append((name, int(version), path.read_bytes()))
    return out


def fix_crcs(data: bytes) -> bytes:
    """Recompute the CRC-32C of every complete RecordBatch, so damage inside reaches record decoding."""
    import crc32c

    out = bytearray(data)
    pos = 0
    while pos + 21 <= len(out):
        length = struct.unpack_from(">i", out, pos + 8)[0]
        end = pos + 12 + length
        if length < 9 or end > len(out):
            break
        struct.pack_into(">I", out, pos + 17, crc32c.crc32c(bytes(out[pos + 21 : end])))
        pos = end
    return bytes(out)


# ---- the emulator's requests ---------------------------------------------------------------------


def request_kinds() -> list[tuple[str, int, int]]:
    """(kio schema name, api key, version) of every request version the emulator serves."""
    from kcli.sandbox.emulator.registry import load_all

    return [
        (spec.name, spec.key, version)
        for _key, spec in sorted(load_all().items())
        for version in range(spec.min_version, spec.max_version + 1)
    ]


def request_class(name: str, version: int) -> type:
    from kcli.client import protocol

    return protocol.request_class(name, version)


def request_frame(value: Any, correlation_id: int = 7) -> bytes:
    """A request frame without its size prefix: header (v1 or v2), body."""
    from kcli.sandbox.emulator.wire import encode_request

    return encode_request(value, correlation_id, "kcli-fuzz")


def write_request_corpus(directory: Path = CORPUS / "requests", per_kind: int = 2) -> list[Path]:
    """Valid request frames (`<name>-v<version>-<n>.bin`) of every served request version, drawn
    from kio's types with hypothesis."""
    written = []
    for name, _key, version in request_kinds():
        for index, value in enumerate(_examples(request_class(name, version), per_kind)):
            path = directory / f"{name}-v{version}-{index}.bin"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(request_frame(value))
            written.append(path)
    return written


def request_corpus(directory: Path = CORPUS / "requests") -> list[tuple[str, int, bytes]]:
    """(schema name, version, frame) for every request corpus file."""
    out = []
    for path in sorted(directory.glob("*.bin")):
        stem, _, _index = path.stem.rpartition("-")
        name, _, version = stem.rpartition("-v")
        out.append((name, int(version), path.read_bytes()))
    return out


def register_kio_strategies() -> None:
    """Strategies for kio types hypothesis cannot derive: Records (Produce's record batches) is
    opaque bytes in kio's schema, read and written by length alone."""
    from hypothesis import strategies as st
    from kio.static.primitive import Records

    st.register_type_strategy(Records, st.binary(max_size=64).map(Records))


def _examples(cls: type, count: int) -> list[Any]:
    import warnings

    from hypothesis import strategies as st
    from hypothesis.errors import NonInteractiveExampleWarning

    register_kio_strategies()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NonInteractiveExampleWarning)
        strategy: Any = st.from_type(cls)
        return [strategy.example() for _ in range(count)]


# ---- metadata logs: every record type, control records, every codec ------------------------------

CODECS = ("gzip", "snappy", "lz4", "zstd")


def write_metadata_corpus(directory: Path = CORPUS / "metadata") -> list[Path]:
    """Beside `metadata_files`' three: `every-record-type.log` (one drawn value of every metadata
    record class and version, and the Raft control records) and `compressed-<codec>.log` (those
    records in one compressed batch per codec)."""
    import shutil
    import tempfile

    from kcli.metadata import records as r
    from kcli.metadata.batch import Compression
    from kcli.metadata.writer import MetadataLogWriter

    values = [_examples(cls, 1)[0] for _key, cls in sorted(r.METADATA_RECORD_CLASSES.items())]
    rec: Any = r
    control = [
        rec.LeaderChangeMessage(version=0, leader_id=1, voters=(rec.Voter(voter_id=1),), granting_voters=()),
    ]
    written = []
    directory.mkdir(parents=True, exist_ok=True)
    for name, codec in [
        ("every-record-type", Compression.NONE),
        *((c, Compression[c.upper()]) for c in CODECS),
    ]:
        with tempfile.TemporaryDirectory() as work:
            with MetadataLogWriter(Path(work), node_id=1, cluster_id="WnLkTHhkQaiJbwP8FClPhw") as log:
                log.append_control(control, epoch=1, timestamp_ms=1_700_000_000_000)
                log.append(values, epoch=1, timestamp_ms=1_700_000_000_000, compression=codec)
            segment = next((Path(work) / "__cluster_metadata-0").glob("*.log"))
            target = directory / (f"{name}.log" if codec is Compression.NONE else f"compressed-{name}.log")
            shutil.copy(segment, target)
            written.append(target)
    return written
