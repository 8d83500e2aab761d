"""Leaves spelled word for word as Kafka's MetadataShell prints them (found against Kafka 4.0.2's shell
on a real cluster's snapshot, tests/metadata_vs_kafka)."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

from kcli.metadata.tree import iso_time, token_text


def test_provenance_time_is_javas_iso_zoned_date_time_in_utc() -> None:
    # ISO_ZONED_DATE_TIME: the fraction without trailing zeros, none when zero, then the zone id
    assert iso_time(1_795_762_608_885) == "2026-11-27T06:56:48.885Z[UTC]"
    assert iso_time(1_795_762_608_120) == "2026-11-27T06:56:48.12Z[UTC]"
    assert iso_time(1_795_762_608_000) == "2026-11-27T06:56:48Z[UTC]"


def test_delegation_token_is_delegation_token_data_node_print() -> None:
    record = SimpleNamespace(
        token_id="QowmBgMpSsGVMy8FfSp_5w", owner="User:admin", requester="User:admin",
        renewers=("User:bob", "User:carol"), issue_timestamp=1, max_timestamp=3, expiration_timestamp=2,
    )  # fmt: skip
    assert token_text(record) == (
        "DelegationTokenDatatokenId=QowmBgMpSsGVMy8FfSp_5w(owner=User:admin(tokenRequester=User:admin"
        "(renewers=User:bob User:carol, issueTimestamp=1, maxTimestamp=3), expiryTimestamp=2"
    )


def test_the_nodes_kafkas_shell_lists_on_an_empty_image(tmp_path: Path) -> None:
    """ProducerIdsImageNode lists nextProducerId (-1 before any id was issued) and ScramImageNode every
    mechanism, with users or not (what Kafka 4.0's shell lists on a real 4.0.2 log)."""
    from kio.static.primitive import i16

    from kcli.metadata import records as r
    from kcli.metadata.writer import MetadataLogWriter
    from tests.conftest import invoke

    rec: Any = r
    with MetadataLogWriter(tmp_path, node_id=1, cluster_id="WnLkTHhkQaiJbwP8FClPhw") as log:
        log.append([rec.FeatureLevelRecord(name="metadata.version", feature_level=i16(21))], epoch=1, timestamp_ms=1)
    segment = str(next((tmp_path / "__cluster_metadata-0").glob("*.log")))
    listed = invoke("metadata-shell", "--snapshot", segment, "find", "/image/producerIds", "/image/scram")
    assert listed.lines == [
        "/image/producerIds", "/image/producerIds/nextProducerId",
        "/image/scram", "/image/scram/SCRAM-SHA-256", "/image/scram/SCRAM-SHA-512",
    ], listed.stderr  # fmt: skip
    assert invoke("metadata-shell", "--snapshot", segment, "cat", "/image/producerIds/nextProducerId").lines == ["-1"]
