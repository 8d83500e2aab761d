"""Kafka's Uuid text form: URL-safe base64 of the 16 bytes without padding (22 characters).

Kafka prints every Uuid this way (Uuid.toString) and reads it back with Uuid.fromString; the
all-zero Uuid (Uuid.ZERO_UUID, which kio reads as None) prints as `AAAAAAAAAAAAAAAAAAAAAA`.
"""

from __future__ import annotations

import string
import uuid
from base64 import urlsafe_b64decode, urlsafe_b64encode

ZERO_UUID = uuid.UUID(int=0)
KAFKA_UUID_LENGTH = 22
_ALPHABET = frozenset(string.ascii_letters + string.digits + "-_")


def kafka_uuid(value: uuid.UUID | None) -> str:
    """A Uuid as Kafka prints it; None (how kio reads Uuid.ZERO_UUID) prints as the zero Uuid."""
    raw = ZERO_UUID.bytes if value is None else value.bytes
    return urlsafe_b64encode(raw)[:KAFKA_UUID_LENGTH].decode("ascii")


def parse_kafka_uuid(text: str) -> uuid.UUID:
    """A Uuid from Kafka's text form, read as Uuid.fromString does; ValueError with Kafka's reason if not."""
    if len(text) > 24:
        raise ValueError(f"Input string with prefix `{text[:24]}` is too long to be decoded as a base64 UUID")
    body = text.removesuffix("==") if len(text) == 24 else text
    # Java's URL-safe decoder rejects characters outside the alphabet (Python's would skip them).
    if not _ALPHABET.issuperset(body) or len(body) % 4 == 1:
        raise ValueError(f"Input string `{text}` is not a valid base64 encoded Uuid")
    raw = urlsafe_b64decode(body + "=" * (-len(body) % 4))
    if len(raw) != 16:
        raise ValueError(
            f"Input string `{text}` decoded as {len(raw)} bytes, which is not equal to the expected "
            "16 bytes of a base64-encoded UUID"
        )
    return uuid.UUID(bytes=raw)


__all__ = ["KAFKA_UUID_LENGTH", "ZERO_UUID", "kafka_uuid", "parse_kafka_uuid"]
