"""A sandbox node on disk, for both engines: the ids Kafka would give it, and where its files live.

- Ids as Kafka's Uuid.randomUuid makes them: 22 characters of URL-safe base64, never one with a "-"
  (Kafka's tools read an id that starts with "-" as an option: `kafka-storage.sh format
  --cluster-id -x...` fails), for cluster ids and log directory ids alike.
- DIR/<id> is a node's first log dir (meta.properties, __cluster_metadata-0/), beside its other
  files; a broker's further log dirs are DIR/logdirs/<id>-N (N = 1, 2, ...), as both engines lay
  them out, so a directory of either engine reads the same way.
"""

from __future__ import annotations

import uuid
from pathlib import Path

METADATA_LOG = "__cluster_metadata-0"
# The nodes and ports of a sandbox of real Kafka nodes (kcli.sandbox.kafka.layout): its presence is
# how a directory is told to be one, rather than the emulator's
KAFKA_LAYOUT_FILE = "kafka-cluster.json"


def new_kafka_uuid() -> str:
    """A random Kafka Uuid in its text form, without a "-" (Kafka never makes one)."""
    from kcli.metadata.uuids import kafka_uuid

    while "-" in (text := kafka_uuid(uuid.uuid4())):
        pass
    return text


def new_cluster_id() -> str:
    """A new cluster id, as `kafka-storage.sh random-uuid` gives one."""
    return new_kafka_uuid()


def new_directory_id() -> str:
    """A new log directory id (meta.properties directory.id)."""
    return new_kafka_uuid()


def node_dir(directory: Path, node_id: int) -> Path:
    """DIR/<id>: the node's first log dir, holding meta.properties and __cluster_metadata-0."""
    return directory / str(node_id)


def metadata_log_dir(directory: Path, node_id: int) -> Path:
    """DIR/<id>/__cluster_metadata-0: the node's replica of the metadata log."""
    return node_dir(directory, node_id) / METADATA_LOG


def extra_log_dir_paths(directory: Path, broker_id: int, count: int) -> list[Path]:
    """A broker's log dirs after the first (DIR/<id> is the first): DIR/logdirs/<id>-1, ..."""
    return [directory / "logdirs" / f"{broker_id}-{n}" for n in range(1, count)]
