"""What several books prepare or read: topics made through the Java AdminClient, Kafka-format plan files."""

from __future__ import annotations

import json
from pathlib import Path

from tests.runbooks.book import Context


def create_topic(
    ctx: Context, name: str, placement: list[list[int]], configs: dict[str, str] | None = None
) -> None:
    """Create `name` with partition p on brokers placement[p] (kept when it exists: a rerun on the same cluster)."""
    topic: dict[str, object] = {"name": name, "assignments": placement}
    if configs:
        topic["configs"] = configs
    answer = ctx.reader.admin.call("createTopics", topics=[topic])[name]
    if "error" in answer and answer["error"]["code"] != "TOPIC_ALREADY_EXISTS":
        raise AssertionError(f"could not create topic {name}: {answer['error']}")

    def created() -> None:
        assert ctx.reader.replicas(name), f"topic {name} has no partitions yet"

    ctx.eventually(created, what=f"topic {name} created")


def plan_of(path: Path) -> dict[tuple[str, int], list[int]]:
    """A reassignment file in Kafka's format: (topic, partition) -> replicas."""
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise AssertionError(f"{path.name} is not a reassignment JSON file: {error}") from None
    return {(e["topic"], e["partition"]): list(e["replicas"]) for e in document["partitions"]}
