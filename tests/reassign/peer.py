"""kafka-python as an independent client for the reassignment end-to-end tests: create topics with
a chosen placement, read replicas and configs back without going through kcli."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any


@contextmanager
def peer_admin(bootstrap: str) -> Iterator[Any]:
    from kafka.admin import KafkaAdminClient

    admin = KafkaAdminClient(bootstrap_servers=bootstrap, request_timeout_ms=10000)
    try:
        yield admin
    finally:
        admin.close()


def create_topic(bootstrap: str, name: str, placement: Sequence[Sequence[int]]) -> None:
    """Create `name` with partition p on brokers placement[p]."""
    from kafka.admin import NewTopic

    with peer_admin(bootstrap) as admin:
        admin.create_topics(
            [NewTopic(name, replica_assignments={p: list(r) for p, r in enumerate(placement)})]
        )


def replicas_of(bootstrap: str, name: str) -> dict[int, list[int]]:
    with peer_admin(bootstrap) as admin:
        (topic,) = admin.describe_topics([name])
        return {int(p["partition_index"]): list(p["replica_nodes"]) for p in topic["partitions"]}


def topic_configs(bootstrap: str, name: str) -> Mapping[str, str]:
    return _configs(bootstrap, "TOPIC", name)


def broker_configs(bootstrap: str, broker: int) -> Mapping[str, str]:
    return _configs(bootstrap, "BROKER", str(broker))


def _configs(bootstrap: str, kind: str, name: str) -> Mapping[str, str]:
    """The dynamic configs of one resource (what kcli sets and clears), as kafka-python reads them."""
    from kafka.admin import ConfigResource, ConfigResourceType

    with peer_admin(bootstrap) as admin:
        result = admin.describe_configs(
            [ConfigResource(getattr(ConfigResourceType, kind), name)], config_filter="all"
        )
    (entries,) = next(iter(result.values())).values()
    return {
        key: entry["value"]
        for key, entry in entries.items()
        if str(entry["config_source"]).startswith("DYNAMIC") and entry["value"] is not None
    }
