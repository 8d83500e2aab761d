"""What the real-Kafka engine writes before any JVM runs: server.properties, its layout, the ids it formats with."""

from __future__ import annotations

from pathlib import Path

from kcli.sandbox.kafka.layout import load_layout, new_layout, save_layout
from kcli.sandbox.kafka.server_properties import server_properties
from kcli.sandbox.settings import SandboxSettings


def test_added_settings_reach_every_node_override_the_engines_and_are_kept(tmp_path: Path) -> None:
    settings = SandboxSettings(directory=tmp_path, controllers=1, brokers=2)
    added = {"metadata.log.max.record.bytes.between.snapshots": "4096", "group.initial.rebalance.delay.ms": "100"}
    layout = new_layout(
        settings, cluster_id="x" * 22, kafka_version="4.4.0", dynamic_quorum=True, combined=False,
        server_properties=added,
    )  # fmt: skip
    for spec in layout.nodes:
        props = server_properties(settings, layout, spec, tls_dir=None)
        assert props["metadata.log.max.record.bytes.between.snapshots"] == "4096"
        assert props["group.initial.rebalance.delay.ms"] == "100"  # the engine's own "0" is overridden
        assert props["node.id"] == str(spec.node_id)
    save_layout(tmp_path, layout)
    reopened = load_layout(tmp_path)
    assert reopened is not None and reopened.server_properties == added


def test_a_layout_saved_before_added_settings_existed_still_opens(tmp_path: Path) -> None:
    import json

    layout = new_layout(
        SandboxSettings(directory=tmp_path, controllers=1, brokers=1), cluster_id="y" * 22, kafka_version="4.4.0",
        dynamic_quorum=True, combined=False,
    )  # fmt: skip
    save_layout(tmp_path, layout)
    path = tmp_path / "kafka-cluster.json"
    data = json.loads(path.read_text())
    del data["server_properties"]
    path.write_text(json.dumps(data))
    reopened = load_layout(tmp_path)
    assert reopened is not None and reopened.server_properties == {}


def test_new_ids_never_hold_a_dash_as_kafkas_own_never_do() -> None:
    """Kafka's Uuid.randomUuid redraws an id with "-" in it; StorageTool reads `--cluster-id -x...` as an
    option. A random id has a "-" about three times in ten."""
    from kcli.sandbox.cluster import new_cluster_id
    from kcli.sandbox.kafka.storage import new_directory_id

    drawn = [new_cluster_id() for _ in range(500)] + [new_directory_id() for _ in range(500)]
    assert all(len(text) == 22 and "-" not in text for text in drawn)
