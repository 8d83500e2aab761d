"""Kafka's Uuid text form has one implementation, kcli.metadata.uuids, that every layer uses."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest

from kcli.metadata.uuids import ZERO_UUID, kafka_uuid, parse_kafka_uuid

KCLI = Path(__file__).resolve().parents[2] / "kcli"
# Uuid.METADATA_TOPIC_ID and a random id, as Kafka prints them.
METADATA_TOPIC_ID = uuid.UUID(int=1)


def test_kafka_uuid_prints_as_kafka_does() -> None:
    assert kafka_uuid(METADATA_TOPIC_ID) == "AAAAAAAAAAAAAAAAAAAAAQ"
    assert kafka_uuid(None) == kafka_uuid(ZERO_UUID) == "AAAAAAAAAAAAAAAAAAAAAA"
    assert kafka_uuid(uuid.UUID(bytes=b"\xfb\xff" * 8)) == "-__7__v_-__7__v_-__7_w"


@pytest.mark.parametrize("value", [uuid.UUID(int=0), METADATA_TOPIC_ID, uuid.UUID(bytes=b"\xff" * 16)])
def test_parse_reads_back_what_kafka_uuid_prints(value: uuid.UUID) -> None:
    assert parse_kafka_uuid(kafka_uuid(value)) == value
    assert parse_kafka_uuid(kafka_uuid(value) + "==") == value  # Java's decoder takes padding


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("abc", "decoded as 2 bytes, which is not equal to the expected 16 bytes"),
        ("AAAAAAAAAAAAAAAAAAAAAAAAA", "is too long to be decoded as a base64 UUID"),
        ("AAAAAAAAAAAAAAAAAAAA+A", "is not a valid base64 encoded Uuid"),  # standard, not URL-safe
        ("AAAAAAAAAA AAAAAAAAAAA", "is not a valid base64 encoded Uuid"),
        ("AAAAA", "is not a valid base64 encoded Uuid"),
    ],
)
def test_parse_rejects_what_kafka_rejects(text: str, reason: str) -> None:
    with pytest.raises(ValueError, match=reason):
        parse_kafka_uuid(text)


def test_no_other_module_spells_the_uuid_encoding_itself() -> None:
    spelled = [
        str(path.relative_to(KCLI.parent))
        for path in KCLI.rglob("*.py")
        if path.name != "uuids.py" and "urlsafe_b64" in path.read_text(encoding="utf-8")
    ]
    assert spelled == []
