"""What the engine asks the real cluster, through kcli's own client: quorum, brokers, topics, moves.

Each question is one short-lived Admin with its own deadline, as the admin user of the sandbox.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from kcli.errors import KcliError

if TYPE_CHECKING:
    from kcli.client.admin import Admin
    from kcli.ops.quorum import QuorumInfo

T = TypeVar("T")
QUESTION_TIMEOUT_MS = 15000


def client_config(settings: Mapping[str, str], *, bootstrap_key: str, bootstrap: str, timeout_ms: int) -> Any:
    from kcli.client.config import config_from_properties

    props = {
        **settings,
        bootstrap_key: bootstrap,
        "default.api.timeout.ms": str(timeout_ms),
        "request.timeout.ms": str(min(timeout_ms, 10000)),
    }
    return config_from_properties(props, warn=lambda _line: None)


def ask(config: Any, question: Callable[[Admin], Awaitable[T]]) -> T:
    """Run `question` with a fresh Admin on `config` (the engine is synchronous; one loop per question)."""
    from kcli.client.admin import Admin

    async def go() -> T:
        async with Admin(config) as admin:
            return await question(admin)

    return asyncio.run(go())


def quorum(config: Any) -> QuorumInfo:
    from kcli.client.api.quorum import describe

    return ask(config, lambda admin: describe(admin))


def unfenced_brokers(config: Any) -> set[int]:
    async def question(admin: Admin) -> set[int]:
        description = await admin.describe_cluster(include_fenced_brokers=True)
        return {node.node_id for node in description.nodes if not getattr(node, "fenced", False)}

    return ask(config, question)


def wait_for(check: Callable[[], T | None], *, deadline: float, what: str, pause: float = 0.25) -> T:
    """Poll `check` until it returns a value (errors of the cluster on the way count as 'not yet')."""
    last = ""
    while True:
        try:
            value = check()
        except KcliError as error:
            value, last = None, error.line()
        if value is not None:
            return value
        if time.monotonic() > deadline:
            raise KcliError(
                f"the sandbox's Kafka nodes: {what} did not happen in time" + (f" ({last})" if last else "")
            )
        time.sleep(pause)


def create_topics(config: Any, names: list[str], *, partitions: int, replication_factor: int) -> None:
    from kcli.client.api.topics import create_topics as create

    async def question(admin: Admin) -> None:
        for start in range(0, len(names), 1000):
            chunk = names[start : start + 1000]
            errors = await create(admin, chunk, partitions=partitions, replication_factor=replication_factor)
            failed = {
                name: e for name, e in errors.items() if e is not None and e.name != "TOPIC_ALREADY_EXISTS"
            }
            if failed:
                name, error = next(iter(failed.items()))
                raise KcliError(f"creating topic {name} failed: {error.name} {error.message or ''}".strip())

    ask(config, question)


def move_replicas(config: Any, mapping: Mapping[int, int], *, deadline: float) -> int:
    """Reassign every partition's replicas by `mapping` (old broker -> new) and wait until done; the count."""
    from kcli.client.api.reassign import alter_reassignments, list_reassignments
    from kcli.client.api.topic_names import list_topic_names
    from kcli.client.api.topics import describe_assignments

    async def start(admin: Admin) -> int:
        names = await list_topic_names(admin)
        current = (await describe_assignments(admin, names)).replicas
        targets = {
            tp: tuple(mapping.get(b, b) for b in replicas)
            for tp, replicas in current.items()
            if any(b in mapping for b in replicas)
        }
        if targets:
            errors = await alter_reassignments(admin, targets, allow_replication_factor_change=False)
            failed = [f"{tp.topic}-{tp.partition}: {e.name}" for tp, e in errors.items() if e is not None]
            if failed:
                raise KcliError(f"moving replicas to the new brokers failed: {', '.join(failed[:3])}")
        return len(targets)

    moved = ask(config, start)
    wait_for(
        lambda: True if not ask(config, lambda admin: list_reassignments(admin)) else None,
        deadline=deadline,
        what="moving every replica to the new brokers",
    )
    return moved


def unregister(config: Any, broker_id: int) -> None:
    from kcli.client.api.cluster import unregister_broker

    ask(config, lambda admin: unregister_broker(admin, broker_id))
