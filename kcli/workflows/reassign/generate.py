"""--generate: read the topics' replicas, the brokers' racks and log dirs, then plan."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from kcli.errors import KcliError
from kcli.ops.reassign.generate import GeneratePlan, Strategy, generate, select_brokers
from kcli.ops.reassign.model import sort_key
from kcli.workflows.reassign.reads import log_dirs_quietly, require_topics

if TYPE_CHECKING:
    from kcli.client.admin import Admin


async def do_generate(
    admin: Admin,
    *,
    topics: Sequence[str],
    broker_list: Sequence[int],
    strategy: Strategy,
    disable_rack_aware: bool,
    seed: int | None,
    replication_factor: int | None = None,
    log_dirs: Mapping[int, str] | None = None,
) -> GeneratePlan:
    """--generate: read the topics' replicas and the brokers' racks and log dirs, then plan."""
    from kcli.client.api.log_dirs import partition_sizes, replica_log_dirs
    from kcli.client.api.topics import describe_assignments

    described = await describe_assignments(admin, topics)
    require_topics(described.missing)
    brokers = select_brokers(broker_list, described.racks)
    current = described.replicas
    hosting = sorted({b for r in current.values() for b in r if b in described.racks})
    dirs = await log_dirs_quietly(admin, hosting, sorted(current, key=sort_key))
    sizes = partition_sizes(dirs) if any(not isinstance(v, KcliError) for v in dirs.values()) else None
    return generate(
        current=current,
        brokers=brokers,
        strategy=strategy,
        disable_rack_aware=disable_rack_aware,
        seed=seed,
        sizes=sizes,
        current_log_dirs=replica_log_dirs(dirs, current),
        replication_factor=replication_factor,
        log_dirs=log_dirs,
    )
