"""Output of `kcli topics --create / --alter / --delete`: kafka-topics.sh's lines (it prints "Created topic
X." and nothing on a successful alter or delete), kcli's --dry-run report, and JSON."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from kcli.ops.topic_command import COLLISION_WARNING

if TYPE_CHECKING:
    from rich.console import RenderableType

    from kcli.ops.topic_changes import AlterResult, CreateResult, DeleteResult, GroupOffsets


def _ids(ids: Any) -> str:
    return ",".join(str(i) for i in ids)


def create_text(result: CreateResult) -> Iterator[str]:
    """TopicService.createTopic: the collision warning, then `Created topic X.` (nothing when
    --if-not-exists found it there); --dry-run: what the controller validated."""
    if result.collision_warning:
        yield COLLISION_WARNING
    if result.failed or result.existed:
        return
    topic = result.topic
    if not result.dry_run:
        yield f"Created topic {topic.name}."
        return
    yield f"Dry run: topic {topic.name} would be created (validated by the controller; nothing was changed)."
    yield f"  Partitions: {topic.partitions}\tReplicationFactor: {topic.replication_factor}"
    yield from _placement_lines(result)
    if topic.configs:
        yield "  Configs (value and source, as the topic would have them):"
        for c in sorted(topic.configs, key=lambda c: (c.source_name == "DEFAULT_CONFIG", c.name)):
            value = "<sensitive>" if c.sensitive else c.value
            yield f"    {c.name}={value} ({c.source_name})"


def _placement_lines(result: CreateResult) -> Iterator[str]:
    placement = result.placement
    if placement is None:
        return
    if placement.assignment is not None:
        yield "  Placement (--replica-assignment; the first replica of each is its preferred leader):"
        for partition, replicas in placement.assignment.items():
            yield f"    Partition: {partition}\tReplicas: {_ids(replicas)}"
        return
    topic = result.topic
    low, high = placement.replicas_per_broker(topic.partitions, topic.replication_factor)
    spread = f"{low}" if low == high else f"{low} to {high}"
    racks = sorted({r for r in placement.racks.values() if r})
    aware = f", rack-aware over racks {','.join(racks)}" if racks else ""
    yield (
        f"  Placement: {topic.partitions * topic.replication_factor} replicas over brokers "
        f"{_ids(placement.brokers)} ({spread} each{aware}); the controller picks each partition's brokers"
    )


def create_json(result: CreateResult) -> dict[str, Any]:
    topic = result.topic
    placement = result.placement
    return {
        "topic": topic.name,
        "topic_id": topic.topic_id,
        "dry_run": result.dry_run,
        "created": not result.failed and not result.existed and not result.dry_run,
        "already_existed": result.existed,
        "error": None if topic.error is None or result.existed else topic.error.line(),
        "partitions": topic.partitions,
        "replication_factor": topic.replication_factor,
        "configs": [
            {
                "name": c.name,
                "value": None if c.sensitive else c.value,
                "source": c.source_name,
                "read_only": c.read_only,
                "sensitive": c.sensitive,
            }
            for c in topic.configs
        ],
        "placement": None
        if placement is None
        else {
            "assignment": None
            if placement.assignment is None
            else {str(p): list(r) for p, r in placement.assignment.items()},
            "brokers": list(placement.brokers),
        },
    }


def create_table(result: CreateResult) -> RenderableType:
    from rich.table import Table

    table = Table(title=f"{result.topic.name}{' (dry run)' if result.dry_run else ''}")
    for column in ("Config", "Value", "Source"):
        table.add_column(column)
    for c in sorted(result.topic.configs, key=lambda c: c.name):
        table.add_row(c.name, "<sensitive>" if c.sensitive else str(c.value), c.source_name)
    return table


def alter_text(result: AlterResult) -> Iterator[str]:
    """Kafka prints nothing after adding partitions; --dry-run says what would be added."""
    if not result.dry_run:
        return
    for i in result.increases:
        if i.error is None:
            added = "" if i.assignment is None else f" (replicas {' '.join(_ids(r) for r in i.assignment)})"
            yield f"Dry run: topic {i.topic} would go from {i.current} to {i.count} partitions{added}."


def alter_json(result: AlterResult) -> dict[str, Any]:
    return {
        "dry_run": result.dry_run,
        "topics": [
            {
                "topic": i.topic,
                "partitions_before": i.current,
                "partitions": i.count,
                "new_assignment": None if i.assignment is None else [list(r) for r in i.assignment],
                "error": None if i.error is None else i.error.line(),
            }
            for i in result.increases
        ],
    }


def _held(topic: str, partitions: int) -> str:
    return f"{topic}: {partitions} partition{'' if partitions == 1 else 's'}"


def groups_line(groups: tuple[GroupOffsets, ...]) -> str:
    """The groups whose committed offsets go with the deleted topics, for stderr."""
    named = "; ".join(f"{g.group} ({', '.join(_held(t, n) for t, n in g.topics)})" for g in groups)
    return f"Groups with committed offsets on these topics (deleted with them): {named}"


def delete_text(result: DeleteResult) -> Iterator[str]:
    """Kafka prints nothing after deleting; --dry-run names what would go."""
    if not result.dry_run:
        return
    for t in result.topics:
        yield f"Dry run: topic {t.name} (TopicId: {t.topic_id}) would be deleted."
    if result.groups:
        yield groups_line(result.groups)


def delete_json(result: DeleteResult) -> dict[str, Any]:
    return {
        "dry_run": result.dry_run,
        "topics": [
            {"topic": t.name, "topic_id": t.topic_id, "error": None if t.error is None else t.error.line()}
            for t in result.topics
        ],
        "groups_with_offsets": [{"group": g.group, "topics": dict(g.topics)} for g in result.groups],
        "groups_error": result.groups_error,
    }
