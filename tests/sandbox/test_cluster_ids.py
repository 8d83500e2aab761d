"""New cluster and directory ids never start with '-': Kafka's tools would read one as an option."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest

from kcli.sandbox.nodes import new_cluster_id


def test_an_id_that_would_start_with_a_dash_is_drawn_again(monkeypatch: pytest.MonkeyPatch) -> None:
    draws = iter([uuid.UUID(bytes=b"\xf8" + bytes(15)), uuid.UUID(bytes=b"\x01" + bytes(15))])
    monkeypatch.setattr(uuid, "uuid4", lambda: next(draws))
    assert new_cluster_id() == "AQAAAAAAAAAAAAAAAAAAAA"  # the second draw: the first encodes as "-AAA..."


def test_the_storage_tool_gets_the_cluster_id_as_one_argument() -> None:
    from kcli.sandbox.kafka.layout import ClusterLayout, NodeSpec
    from kcli.sandbox.kafka.storage import format_arguments

    layout = ClusterLayout(cluster_id="-bcdefghijklmnopqrstuv", kafka_version="4.4.0", dynamic_quorum=False)
    spec = NodeSpec(node_id=1, roles=("broker",), broker_port=9092)
    arguments = format_arguments(layout, spec, Path("/d/1/server.properties"), release_version=None, scram_users={})
    assert arguments[:3] == ["format", "--cluster-id=-bcdefghijklmnopqrstuv", "--config=/d/1/server.properties"]
