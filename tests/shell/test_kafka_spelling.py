"""Leaves spelled word for word as Kafka's MetadataShell prints them (found against Kafka 4.0.2's shell
on a real cluster's snapshot, tests/metadata_vs_kafka)."""

from __future__ import annotations

from types import SimpleNamespace

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
