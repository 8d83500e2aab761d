"""Bodies of metadata and control records: kio's entity reader/writer applied to kcli.metadata.records.

Behavior:
- A metadata record value is framed as uvarint frame version (1), uvarint api key, uvarint schema
  version, then the body in the flexible encoding (`AbstractApiMessageSerde`).
- A control record key is int16 version (0) + int16 control type; the value is the body alone, read at
  version 0 (`ControlRecordUtils`).
- Readers and writers are compiled once per class by kio and cached here per (key, version); every
  reader runs the class's length walk first (kcli.bounds.checked_reader), so a forged count is a
  DecodeError, not an allocation in kio's native decoder. Readers take (buf, start, end).
"""

from __future__ import annotations

import functools
import io
import struct
from collections.abc import Callable
from typing import Any

from kcli.bounds import CheckedReader, checked_reader
from kcli.kafka import write_uvarint
from kcli.metadata.records import (
    CONTROL_RECORD_CLASSES,
    CONTROL_TYPES,
    METADATA_RECORD_CLASSES,
    ControlRecord,
    MetadataRecord,
)

FRAME_VERSION = 1

Reader = CheckedReader
Writer = Callable[[Any, Any], None]

_CONTROL_KEY = struct.Struct(">hh")


@functools.cache
def metadata_body_reader(api_key: int, version: int) -> Reader | None:
    """kio's reader for one metadata record type and version behind its length walk, or None when unknown."""
    cls = METADATA_RECORD_CLASSES.get((api_key, version))
    return None if cls is None else checked_reader(cls)


@functools.cache
def control_body_reader(control_type: int, version: int = 0) -> Reader | None:
    """kio's reader for one control record type behind its length walk (read at version 0, as Kafka does)."""
    cls = CONTROL_RECORD_CLASSES.get((control_type, version))
    return None if cls is None else checked_reader(cls)


@functools.cache
def _body_writer(cls: Any) -> Writer:
    from kio.serial import entity_writer

    return entity_writer(cls)  # type: ignore[no-any-return]


def encode_body(record: object) -> bytes:
    """The record's fields in the flexible encoding, without any frame header."""
    stream = io.BytesIO()
    writer: Writer = _body_writer(type(record))  # type: ignore[arg-type]
    writer(stream, record)
    return stream.getvalue()


def encode_metadata_record(record: MetadataRecord) -> bytes:
    """The value bytes of one metadata record: frame version, api key, version, body."""
    header = bytes((FRAME_VERSION,)) + write_uvarint(record.__api_key__) + write_uvarint(record.__version__)
    return header + encode_body(record)


def encode_control_record(record: ControlRecord) -> tuple[bytes, bytes]:
    """The (key, value) bytes of one control record."""
    return _CONTROL_KEY.pack(0, CONTROL_TYPES[type(record)]), encode_body(record)
