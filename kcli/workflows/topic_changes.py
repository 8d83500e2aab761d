"""`kcli topics --create / --alter / --delete`: the reads and the one change each makes.

Behavior (TopicCommand of Kafka 4.4, and what kcli adds):
- --create: one CreateTopics; an existing topic is an error unless --if-not-exists. --dry-run sends
  it validate-only and reports the configs the topic would get (with their sources) and where the
  replicas would go (DescribeCluster: the brokers the controller spreads them over).
- --alter --partitions: Metadata of every topic (the --topic regex picks), then one CreatePartitions
  of them all; with --replica-assignment the new partitions take the entries past the current
  count. --alter --replication-factor: no change, a plan of the minimal-movement planner
  (kcli.workflows.reassign.generate) for kcli reassign-partitions --execute.
- --delete: Metadata of every topic (the --topic regex or --topic-id picks), the groups with
  committed offsets on them (ListGroups, FindCoordinator, OffsetFetch), then one DeleteTopics.
- --alter and --delete refuse Kafka's internal topics (__consumer_offsets, ...) before anything is
  sent: Kafka's tool deletes __consumer_offsets when asked, and every group's offsets with it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from kcli.client.errors import code_of
from kcli.errors import KcliError
from kcli.ops.topic_changes import (
    AlterResult,
    CreateResult,
    DeleteResult,
    GroupOffsets,
    PartitionIncrease,
    Placement,
)
from kcli.ops.topic_command import NewTopic, has_collision_chars
from kcli.ops.topics import INTERNAL_TOPICS, select

if TYPE_CHECKING:
    from kcli.client.admin import Admin
    from kcli.ops.reassign.generate import GeneratePlan

TOPIC_ALREADY_EXISTS = code_of("TOPIC_ALREADY_EXISTS")


async def do_create(admin: Admin, topic: NewTopic, *, if_not_exists: bool, dry_run: bool) -> CreateResult:
    """--create: CreateTopics (validate-only with --dry-run, then with the placement it would use)."""
    from kcli.client.api.topics import create_topic_specs

    [created] = await create_topic_specs(admin, [topic], validate_only=dry_run)
    existed = bool(created.error is not None and created.error.code == TOPIC_ALREADY_EXISTS and if_not_exists)
    placement = None
    if dry_run and created.error is None:
        placement = await _placement(admin, topic)
    return CreateResult(
        topic=created,
        dry_run=dry_run,
        if_not_exists=if_not_exists,
        existed=existed,
        collision_warning=has_collision_chars(topic.name),
        placement=placement,
    )


async def _placement(admin: Admin, topic: NewTopic) -> Placement:
    description = await admin.describe_cluster()
    brokers = tuple(sorted(n.node_id for n in description.nodes))
    racks = {n.node_id: getattr(n, "rack", None) for n in description.nodes}
    return Placement(assignment=topic.assignment, brokers=brokers, racks=racks)


async def _topics(admin: Admin) -> dict[str, dict[str, Any]]:
    """Every topic's Metadata row (name, id, internal, partition count), by name."""
    from kcli.workflows.partitions import every_partition

    rows, _ = await every_partition(admin)
    return {row["topic"]: row for row in rows}


def refuse_internal(names: Sequence[str], rows: Mapping[str, Mapping[str, Any]], action: str) -> None:
    """Kafka's internal topics are Kafka's to manage: kcli neither alters nor deletes them."""
    internal = [n for n in names if n in INTERNAL_TOPICS or rows.get(n, {}).get("internal")]
    if internal:
        raise KcliError(
            f"Refusing to {action} internal topic{'s' if len(internal) > 1 else ''} {', '.join(internal)}: "
            "Kafka keeps its own state there (group offsets, transactions, share groups); nothing was changed",
            hint="name the topics to change with a --topic that leaves the internal ones out",
        )


async def do_alter(
    admin: Admin,
    *,
    topic: str,
    partitions: int,
    assignment: Mapping[int, tuple[int, ...]] | None,
    if_exists: bool,
    dry_run: bool,
) -> AlterResult:
    """--alter --partitions: every topic --topic matches to `partitions` partitions."""
    from kcli.client.api.topics import create_partitions

    rows = await _topics(admin)
    names = select(list(rows), topic=topic, exclude_internal=False, require=not if_exists)
    refuse_internal(names, rows, "alter")
    increases = []
    for name in names:
        current = int(rows[name]["partition_count"])
        new = None
        if assignment:
            new = tuple(replicas for index, replicas in assignment.items() if index >= current)
        increases.append(PartitionIncrease(topic=name, current=current, count=partitions, assignment=new))
    if increases:
        increases = await create_partitions(admin, increases, validate_only=dry_run)
    return AlterResult(increases=tuple(increases), dry_run=dry_run)


async def plan_replication_factor(
    admin: Admin, *, topic: str, replication_factor: int, if_exists: bool
) -> GeneratePlan:
    """--alter --replication-factor: the minimal-movement plan (nothing changes on the cluster)."""
    from kcli.ops.reassign.generate import Strategy
    from kcli.workflows.reassign.generate import do_generate

    rows = await _topics(admin)
    names = select(list(rows), topic=topic, exclude_internal=False, require=not if_exists)
    refuse_internal(names, rows, "alter")
    if not names:
        raise KcliError(f"No topic matches --topic {topic}: nothing to plan")
    description = await admin.describe_cluster()
    return await do_generate(
        admin,
        topics=names,
        broker_list=sorted(n.node_id for n in description.nodes),
        strategy=Strategy.MINIMAL_MOVEMENT,
        disable_rack_aware=False,
        seed=None,
        replication_factor=replication_factor,
    )


async def do_delete(
    admin: Admin, *, topic: str | None, topic_id: str | None, if_exists: bool, dry_run: bool
) -> DeleteResult:
    """--delete: the topics --topic (a regex) or --topic-id names, after naming the groups with
    committed offsets on them."""
    from kcli.client.api.topics import delete_topics

    rows = await _topics(admin)
    by_id = topic_id is not None and topic is None
    if by_id:
        assert topic_id is not None
        names = [name for name, row in rows.items() if row["topic_id"] == topic_id]
        if not names and not if_exists:
            raise KcliError(f"TopicId '{topic_id}' does not exist as expected")
    else:
        names = select(list(rows), topic=topic, exclude_internal=False, require=not if_exists)
    refuse_internal(names, rows, "delete")
    groups, groups_error = await _groups_on(admin, names)
    deleted: tuple[Any, ...] = ()
    if names and not dry_run:
        if by_id:
            from kcli.metadata.uuids import parse_kafka_uuid

            assert topic_id is not None
            deleted = tuple(await delete_topics(admin, topic_ids=[parse_kafka_uuid(topic_id)]))
        else:
            deleted = tuple(await delete_topics(admin, names))
    else:
        from kcli.ops.topic_changes import DeletedTopic

        deleted = tuple(DeletedTopic(name=n, topic_id=rows[n]["topic_id"]) for n in names)
    return DeleteResult(topics=deleted, groups=groups, dry_run=dry_run, groups_error=groups_error)


async def _groups_on(admin: Admin, names: Sequence[str]) -> tuple[tuple[GroupOffsets, ...], str | None]:
    """The groups with committed offsets on `names` (a failure to read them is said, not fatal)."""
    from kcli.client.api.committed import committed_offsets
    from kcli.client.api.configs import list_group_ids

    if not names:
        return (), None
    chosen = set(names)
    try:
        found = await committed_offsets(admin, await list_group_ids(admin))
    except KcliError as error:
        return (), error.line()
    groups = tuple(
        GroupOffsets(group=group, topics=tuple(sorted((t, n) for t, n in topics.items() if t in chosen)))
        for group, topics in sorted(found.by_group.items())
        if chosen.intersection(topics)
    )
    problem = None
    if found.unknown:
        first = sorted(found.unknown)[0]
        problem = f"the offsets of {len(found.unknown)} group(s) could not be read ({first}: {found.unknown[first]})"
    return groups, problem
