"""The coordinator records: generated from Kafka's schemas, written and read back as Kafka frames them."""

from __future__ import annotations

import difflib
import importlib.util
import json
import uuid
from pathlib import Path
from types import ModuleType

import pytest

from kcli.sandbox.emulator.groups import generated_records as G
from kcli.sandbox.emulator.groups import records as R

ROOT = Path(__file__).resolve().parents[2]


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "coordinator_records", ROOT / "scripts" / "coordinator-records.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_generated_module_matches_the_data_file() -> None:
    script = _script()
    expected = script.generate(json.loads(script.DATA.read_text()))
    actual = script.OUTPUT.read_text()
    diff = "".join(difflib.unified_diff(actual.splitlines(True), expected.splitlines(True), n=1))
    assert not diff, f"run scripts/coordinator-records.py generate:\n{diff[:4000]}"


def test_the_data_file_holds_facts_only() -> None:
    assert '"about"' not in _script().DATA.read_text()


def test_an_offset_commit_is_framed_as_kafka_frames_it() -> None:
    """Key: type 1, then group, topic, partition (int16-length strings); value: version 4 (flexible)."""
    topic_id = uuid.UUID("38bab3fd-4c0b-498b-b2f7-a14d31608bd0")
    record = R.offset_commit(
        "g", "t", 3, offset=100, leader_epoch=2, metadata="", commit_timestamp=5, topic_id=topic_id
    )
    key, value = R.encode(record)
    assert key == bytes.fromhex("000100016700017400000003")
    assert value == bytes.fromhex("0004000000000000006400000002010000000000000005010010") + topic_id.bytes
    assert R.decode(key, value) == record


def test_a_tagged_nullable_struct_carries_its_marker() -> None:
    """ClassicMemberMetadata (tag 0) is written as Kafka's generator writes it: size + 1, marker 1, struct."""
    value = G.ConsumerGroupMemberMetadataValueV0(
        instance_id=None,
        rack_id=None,
        client_id="c",
        client_host="h",
        subscribed_topic_names=("a",),
        subscribed_topic_regex=None,
        server_assignor=None,
        classic_member_metadata=G.ClassicMemberMetadata(
            session_timeout_ms=45000,  # type: ignore[arg-type]
            supported_protocols=(G.ClassicProtocol(name="range", metadata=b"xy"),),
        ),
    )
    record = R.keyed(G.ConsumerGroupMemberMetadataKeyV0, value, group_id="g", member_id="m")
    key, encoded = R.encode(record)
    assert encoded is not None
    assert encoded.endswith(bytes.fromhex("010011010000afc8020672616e67650378790000"))
    assert R.decode(key, encoded) == record


def test_tombstones_and_damage() -> None:
    key, value = R.encode(R.group_tombstone("g"))
    assert value is None
    assert R.decode(key, None) == R.group_tombstone("g")
    with pytest.raises(R.RecordError, match="unknown record type 99"):
        R.decode(b"\x00\x63\x00\x01g", None)
    with pytest.raises(R.RecordError, match="damaged"):
        R.decode(key[:-1], None)
    with pytest.raises(R.RecordError, match="does not belong"):
        R.decode(key, None, transactions=True)
