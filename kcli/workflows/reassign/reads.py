"""Reads shared by the reassignment workflows: replicas, log dirs (best effort), topic checks."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from kcli.errors import KcliError
from kcli.ops.reassign.json_format import ReassignmentFile
from kcli.ops.reassign.model import TopicPartition, sort_key

if TYPE_CHECKING:
    from kcli.client.admin import Admin
    from kcli.client.api.log_dirs import BrokerLogDirs


async def log_dirs_quietly(
    admin: Admin, brokers: Sequence[int], partitions: Sequence[TopicPartition]
) -> Mapping[int, BrokerLogDirs | KcliError]:
    """DescribeLogDirs where possible: sizes and dirs are extras, a failure must not stop a plan."""
    from kcli.client.api.log_dirs import describe_log_dirs

    if not brokers or not partitions:
        return {}
    try:
        return await describe_log_dirs(admin, brokers, partitions)
    except KcliError as error:
        return dict.fromkeys(brokers, error)


def require_topics(missing: Sequence[str]) -> None:
    """Refuse a plan naming topics the cluster does not have, as kafka-reassign-partitions.sh does."""
    if missing:
        raise KcliError(
            f"Topic {missing[0]} not found." + (f" (also {', '.join(missing[1:])})" if missing[1:] else "")
        )


async def current_replicas(admin: Admin, file: ReassignmentFile) -> dict[TopicPartition, tuple[int, ...]]:
    """The replicas of every partition the file names (a KcliError names the first one missing)."""
    from kcli.client.api.topics import describe_assignments

    described = await describe_assignments(admin, file.topics)
    for tp in sorted(file.targets, key=sort_key):
        if tp not in described.replicas:
            raise KcliError(f"Unable to find partition: {tp}")
    return described.replicas


def file_of(targets: Mapping[TopicPartition, tuple[int, ...]]) -> ReassignmentFile:
    """A reassignment file of `targets`, to read their partitions back with current_replicas."""
    from kcli.ops.reassign.json_format import ReassignmentEntry

    return ReassignmentFile(
        entries=tuple(ReassignmentEntry(partition=tp, replicas=r) for tp, r in targets.items())
    )
