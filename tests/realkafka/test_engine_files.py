"""What the real-Kafka engine writes before any JVM runs: server.properties, its layout, the ids it formats with."""

from __future__ import annotations

from pathlib import Path

from kcli.properties import read_properties_file
from kcli.sandbox.kafka.layout import new_layout
from kcli.sandbox.kafka.server_properties import write_server_properties
from kcli.sandbox.settings import SandboxSettings


def test_added_settings_reach_every_node(tmp_path: Path) -> None:
    added = {"metadata.log.max.record.bytes.between.snapshots": "4096", "group.initial.rebalance.delay.ms": "100"}
    settings = SandboxSettings(directory=tmp_path, controllers=1, brokers=2, server_config=tuple(added.items()))
    layout = new_layout(
        settings, cluster_id="x" * 22, kafka_version="4.4.0", dynamic_quorum=True, combined=False
    )  # fmt: skip
    for spec in layout.nodes:
        props = read_properties_file(write_server_properties(settings, layout, spec, tls_dir=None))
        assert props["metadata.log.max.record.bytes.between.snapshots"] == "4096"
        assert props["group.initial.rebalance.delay.ms"] == "100"
        assert props["node.id"] == str(spec.node_id)


def test_new_ids_never_hold_a_dash_as_kafkas_own_never_do() -> None:
    """Kafka's Uuid.randomUuid redraws an id with "-" in it; StorageTool reads `--cluster-id -x...` as an
    option. A random id has a "-" about three times in ten."""
    from kcli.sandbox.nodes import new_cluster_id, new_directory_id

    drawn = [new_cluster_id() for _ in range(500)] + [new_directory_id() for _ in range(500)]
    assert all(len(text) == 22 and "-" not in text for text in drawn)
