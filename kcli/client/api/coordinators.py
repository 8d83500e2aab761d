"""Group coordinators: FindCoordinator (10), and sending a per-group request to each group's coordinator.

Behavior (as Kafka's Admin client's CoordinatorStrategy):
- FindCoordinator v4-v6 asks for many keys in one request (KIP-699); brokers before 3.0 (v0-v3)
  get one request per key. COORDINATOR_NOT_AVAILABLE (the offsets topic is being created or a
  coordinator is moving) and COORDINATOR_LOAD_IN_PROGRESS are retried with backoff until the deadline.
- `on_coordinators` groups the keys by coordinator, sends one request per coordinator concurrently,
  and takes each key's answer: a value, a KafkaError for that key, or RETRY_ELSEWHERE
  (NOT_COORDINATOR, COORDINATOR_NOT_AVAILABLE: look the coordinator up again) and RETRY_HERE
  (COORDINATOR_LOAD_IN_PROGRESS), both retried within the deadline.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from kcli.client.errors import KafkaError, RequestTimedOut, code_of
from kcli.errors import KcliError
from kcli.kafka import ApiKey

if TYPE_CHECKING:
    from kcli.client.admin import Admin
    from kcli.ops.groups.model import Node

T = TypeVar("T")
GROUP_KEY, TRANSACTION_KEY, SHARE_KEY = 0, 1, 2  # FindCoordinator key types
COORDINATOR_NOT_AVAILABLE = code_of("COORDINATOR_NOT_AVAILABLE")
NOT_COORDINATOR = code_of("NOT_COORDINATOR")
COORDINATOR_LOAD_IN_PROGRESS = code_of("COORDINATOR_LOAD_IN_PROGRESS")
MOVED = frozenset({COORDINATOR_NOT_AVAILABLE, NOT_COORDINATOR})


class Retry:
    """An answer for one key that asks for another try (`elsewhere`: after a new lookup)."""

    __slots__ = ("elsewhere",)

    def __init__(self, elsewhere: bool) -> None:
        self.elsewhere = elsewhere


RETRY_ELSEWHERE = Retry(True)
RETRY_HERE = Retry(False)


def retry_for(code: int) -> Retry | None:
    """The retry a coordinator error code asks for, or None when it is an answer."""
    if code in MOVED:
        return RETRY_ELSEWHERE
    if code == COORDINATOR_LOAD_IN_PROGRESS:
        return RETRY_HERE
    return None


async def find_coordinators(
    admin: Admin, keys: Sequence[str], *, key_type: int = GROUP_KEY, deadline: float
) -> dict[str, Node | KcliError]:
    """The coordinator of each key (or the error FindCoordinator gave for it)."""
    from kio.static.primitive import i8

    from kcli.client.admin import Target
    from kcli.client.protocol import make, request_class

    pending = list(dict.fromkeys(keys))
    found: dict[str, Node | KcliError] = {}

    async def ask(batch: list[str]) -> list[tuple[str, int, str | None, Node | None]]:
        def build(version: int) -> Any:
            cls = request_class("find_coordinator", version)
            if version >= 4:
                return make(cls, key_type=i8(key_type), coordinator_keys=tuple(batch))
            return make(cls, key=batch[0], key_type=i8(key_type))

        response = await admin.call(
            ApiKey.FIND_COORDINATOR, build, versions=(0, 6), target=Target.ANY, timeout_ms=ms_left(deadline)
        )
        answered = _coordinators(response, batch)
        if len(batch) > 1 and not hasattr(response, "coordinators"):  # before v4: one key per request
            rest = await asyncio.gather(*(ask([key]) for key in batch[1:]))
            answered += [entry for entries in rest for entry in entries]
        return answered

    attempt = 0
    while pending:
        retry: list[str] = []
        for key, code, message, node in await ask(pending):
            if code in MOVED or code == COORDINATOR_LOAD_IN_PROGRESS:
                retry.append(key)
            elif code != 0:
                found[key] = KafkaError(code, message, what=f"FindCoordinator for {key}")
            else:
                assert node is not None
                found[key] = node
        pending = retry
        attempt += 1
        if pending and not await backoff(admin, attempt, deadline):
            for key in pending:
                found[key] = RequestTimedOut(f"no coordinator for {key} became available in time")
            break
    return found


Lookups = dict[tuple[int, str], "asyncio.Future[dict[str, Node | KcliError]]"]


async def _coordinators_of(
    admin: Admin, keys: Sequence[str], *, key_type: int, deadline: float, fresh: bool
) -> dict[str, Node | KcliError]:
    """find_coordinators, once a key a session: a describe and its offset fetch start together and
    share one FindCoordinator. `fresh` (a coordinator moved) asks again."""
    lookups: Lookups = admin.memo.setdefault("coordinators", {})
    if fresh:
        for key in keys:
            lookups.pop((key_type, key), None)
    missing = [key for key in keys if (key_type, key) not in lookups]
    if missing:
        asked = asyncio.ensure_future(find_coordinators(admin, missing, key_type=key_type, deadline=deadline))
        for key in missing:
            lookups[(key_type, key)] = asked
    found: dict[str, Node | KcliError] = {}
    for key in keys:
        lookup = lookups[(key_type, key)]
        try:
            # shielded: one caller's cancellation must not cancel the lookup the other waits for
            found[key] = (await asyncio.shield(lookup))[key]
        except BaseException:
            if lookup.done():  # a failed lookup is not kept: the next call asks again
                for stale in [k for k, held in lookups.items() if held is lookup]:
                    del lookups[stale]
            raise
    return found


def _coordinators(response: Any, batch: list[str]) -> list[tuple[str, int, str | None, Node | None]]:
    entries = getattr(response, "coordinators", None)
    if entries:
        return [
            (str(c.key), int(c.error_code), c.error_message, _node(c) if int(c.error_code) == 0 else None)
            for c in entries
        ]
    code = int(response.error_code)
    return [(batch[0], code, response.error_message, _node(response) if code == 0 else None)]


def _node(raw: Any) -> Node:
    from kcli.ops.groups.model import Node  # the group model: only once a coordinator answered

    return Node(node_id=int(raw.node_id), host=str(raw.host), port=int(raw.port))


def ms_left(deadline: float) -> int:
    """The milliseconds left until a monotonic deadline (at least 1: a request still gets its chance)."""
    return max(1, int((deadline - time.monotonic()) * 1000))


def nested(cls: type, *names: str) -> tuple[Any, ...]:
    """Classes defined beside a kio message class (its nested entities), by name."""
    import sys

    module = sys.modules[cls.__module__]
    return tuple(getattr(module, name) for name in names)


async def backoff(admin: Admin, attempt: int, deadline: float) -> bool:
    """Sleep the client's exponential retry backoff; False when the deadline leaves no time for it."""
    config = admin.config
    delay = min(config.retry_backoff_max_ms, config.retry_backoff_ms * 2 ** max(0, attempt - 1)) / 1000
    if time.monotonic() + delay >= deadline:
        return False
    await asyncio.sleep(delay)
    return True


async def on_coordinators(
    admin: Admin,
    keys: Sequence[str],
    send: Callable[[Node, list[str]], Awaitable[dict[str, T | KcliError | Retry]]],
    *,
    deadline: float,
    key_type: int = GROUP_KEY,
) -> dict[str, T | KcliError]:
    """send(coordinator, keys) for the keys of each coordinator, concurrently, retried as asked.

    `send` answers each key with a value, a KcliError, or a Retry. A coordinator that cannot be
    reached fails the keys sent to it with that error.
    """
    pending = list(dict.fromkeys(keys))
    results: dict[str, T | KcliError] = {}
    lookup = True
    coordinators: dict[str, Node | KcliError] = {}
    attempt = 0
    while pending:
        if lookup:
            coordinators.update(
                await _coordinators_of(admin, pending, key_type=key_type, deadline=deadline, fresh=attempt > 0)
            )
        by_node: dict[int, tuple[Node, list[str]]] = {}
        for key in pending:
            where = coordinators[key]
            if isinstance(where, KcliError):
                results[key] = where
            else:
                by_node.setdefault(where.node_id, (where, []))[1].append(key)

        async def one(node: Node, batch: list[str]) -> dict[str, T | KcliError | Retry]:
            try:
                return await send(node, batch)
            except KcliError as error:
                return dict.fromkeys(batch, error)

        answers = await asyncio.gather(*(one(node, batch) for node, batch in by_node.values()))
        pending, lookup = [], False
        for answer in answers:
            for key, value in answer.items():
                if isinstance(value, Retry):
                    pending.append(key)
                    lookup = lookup or value.elsewhere
                else:
                    results[key] = value
        attempt += 1
        if pending and not await backoff(admin, attempt, deadline):
            for key in pending:
                results[key] = RequestTimedOut(f"the coordinator of {key} did not answer in time")
            break
    return results
