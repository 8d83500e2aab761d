"""Transactions on the wire: FindCoordinator (10), ListTransactions (66), DescribeTransactions (65),
InitProducerId (22); their partitions (DescribeProducers, WriteTxnMarkers): kcli.client.api.producers.

Behavior (as Kafka's Admin client does it for kafka-transactions.sh):
- ListTransactions goes to every broker (each coordinates the transactional ids of its
  __transaction_state partitions); COORDINATOR_LOAD_IN_PROGRESS is retried, any other error fails.
- DescribeTransactions and InitProducerId go to each transactional id's coordinator
  (FindCoordinator, key type 1, batched: v4+); NOT_COORDINATOR and COORDINATOR_NOT_AVAILABLE look
  the coordinator up again, COORDINATOR_LOAD_IN_PROGRESS and CONCURRENT_TRANSACTIONS are retried,
  all within default.api.timeout.ms.
- Error texts are the Admin client's, so an operator sees the sentence kafka-transactions.sh prints.
Version notes: ListTransactions v1 adds DurationFilter (3.8), v2 TransactionalIdPattern (4.1);
DescribeTransactions v0 is read by kcli.client.protocol.signed_timestamps (a -1 start time);
InitProducerId v0-v5.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from kcli.client.errors import KafkaError, UnsupportedByServer, code_of, error_info
from kcli.errors import KcliError
from kcli.kafka import ApiKey
from kcli.ops.reassign.model import TopicPartition
from kcli.ops.transactions import (
    TransactionDescription,
    TransactionListing,
)

if TYPE_CHECKING:
    from kcli.client.admin import Admin

T = TypeVar("T")
TRANSACTION_KEY_TYPE = 1  # FindCoordinator's key type of a transactional id (0: a group)
NONE = code_of("NONE")
NOT_COORDINATOR = code_of("NOT_COORDINATOR")
COORDINATOR_NOT_AVAILABLE = code_of("COORDINATOR_NOT_AVAILABLE")
COORDINATOR_LOAD_IN_PROGRESS = code_of("COORDINATOR_LOAD_IN_PROGRESS")
CONCURRENT_TRANSACTIONS = code_of("CONCURRENT_TRANSACTIONS")
TRANSACTIONAL_ID_NOT_FOUND = code_of("TRANSACTIONAL_ID_NOT_FOUND")
TRANSACTIONAL_ID_AUTHORIZATION_FAILED = code_of("TRANSACTIONAL_ID_AUTHORIZATION_FAILED")
CLUSTER_AUTHORIZATION_FAILED = code_of("CLUSTER_AUTHORIZATION_FAILED")
UNKNOWN_TOPIC_OR_PARTITION = code_of("UNKNOWN_TOPIC_OR_PARTITION")
NOT_LEADER_OR_FOLLOWER = code_of("NOT_LEADER_OR_FOLLOWER")
TOPIC_AUTHORIZATION_FAILED = code_of("TOPIC_AUTHORIZATION_FAILED")
INVALID_PRODUCER_EPOCH = code_of("INVALID_PRODUCER_EPOCH")
TRANSACTION_COORDINATOR_FENCED = code_of("TRANSACTION_COORDINATOR_FENCED")
_RELOOKUP = frozenset({NOT_COORDINATOR, COORDINATOR_NOT_AVAILABLE})
_RETRY = frozenset({COORDINATOR_LOAD_IN_PROGRESS, CONCURRENT_TRANSACTIONS})


class TransactionError(KcliError):
    """A transactional id, partition or marker the cluster refused: the Admin client's sentence."""

    def __init__(self, message: str, *, code: int | None = None) -> None:
        info = error_info(code) if code is not None else None
        super().__init__(message, hint=info.hint if info is not None else None)
        self.code = code
        self.name = info.name if info is not None else ""


def request(api: str, version: int, **values: Any) -> Any:
    from kcli.client.protocol import make, request_class

    return make(request_class(api, version), **values)


def nested(api: str, version: int, name: str) -> type:
    import sys

    from kcli.client.protocol import request_class

    return getattr(sys.modules[request_class(api, version).__module__], name)  # type: ignore[no-any-return]


class Retries:
    """The deadline and backoff of one operation that Kafka's Admin client retries."""

    def __init__(self, admin: Admin) -> None:
        self.admin = admin
        self.deadline = time.monotonic() + admin.config.default_api_timeout_ms / 1000
        self.attempt = 0

    async def again(self) -> bool:
        """Wait the next backoff; False when the deadline leaves no time for another try."""
        config = self.admin.config
        delay = min(config.retry_backoff_ms * 2**self.attempt, config.retry_backoff_max_ms) / 1000
        self.attempt += 1
        if time.monotonic() + delay >= self.deadline:
            return False
        await asyncio.sleep(delay)
        return True


# ------------------------------------------------------------------------------------- coordinators


async def find_coordinators(admin: Admin, transactional_ids: Sequence[str]) -> dict[str, int | KcliError]:
    """The broker coordinating each transactional id (FindCoordinator, key type 1)."""
    from kio.static.primitive import i8

    wanted = list(dict.fromkeys(transactional_ids))
    found: dict[str, int | KcliError] = {}
    retries = Retries(admin)
    while wanted:
        pending: list[str] = []
        for key, node_or_code in (await _find_once(admin, wanted, i8(TRANSACTION_KEY_TYPE))).items():
            if isinstance(node_or_code, int) and node_or_code >= 0:
                found[key] = node_or_code
                continue
            code, message = node_or_code if isinstance(node_or_code, tuple) else (-1, None)
            if error_info(code).retriable:
                pending.append(key)
            else:
                found[key] = KafkaError(code, message, what=f"FindCoordinator for transactional id {key}")
        wanted = pending
        if wanted and not await retries.again():
            for key in wanted:
                found[key] = TransactionError(
                    f"the coordinator of transactional id `{key}` was not found within "
                    f"{admin.config.default_api_timeout_ms} ms (default.api.timeout.ms)",
                    code=COORDINATOR_NOT_AVAILABLE,
                )
            break
    return found


async def _find_once(admin: Admin, keys: list[str], key_type: Any) -> dict[str, int | tuple[int, str | None]]:
    """One FindCoordinator round: a node id, or (error code, message), per key."""
    response = await admin.call(
        ApiKey.FIND_COORDINATOR,
        lambda version: request(
            "find_coordinator", version, key_type=key_type, coordinator_keys=tuple(keys), key=keys[0]
        ),
        versions=(4, 6),
    )
    out: dict[str, int | tuple[int, str | None]] = {}
    for coordinator in response.coordinators:
        code = int(coordinator.error_code)
        out[str(coordinator.key)] = (
            int(coordinator.node_id) if code == NONE else (code, coordinator.error_message)
        )
    return out


async def _at_coordinators(
    admin: Admin,
    transactional_ids: Sequence[str],
    send: Callable[[int, list[str]], Awaitable[dict[str, T | int | KcliError]]],
) -> dict[str, T | KcliError]:
    """Run `send(coordinator, ids)` for each coordinator's ids; an id answered with a code in _RELOOKUP is
    looked up again and one in _RETRY sent again, until every id has a value or an error."""
    results: dict[str, T | KcliError] = {}
    wanted = list(dict.fromkeys(transactional_ids))
    retries = Retries(admin)
    while wanted:
        coordinators = await find_coordinators(admin, wanted)
        by_node: dict[int, list[str]] = {}
        for key, node in coordinators.items():
            if isinstance(node, KcliError):
                results[key] = node
            else:
                by_node.setdefault(node, []).append(key)
        answers = await asyncio.gather(*(send(node, keys) for node, keys in by_node.items()))
        wanted = []
        for answer in answers:
            for key, value in answer.items():
                if isinstance(value, int) and not isinstance(value, bool) and value in _RELOOKUP | _RETRY:
                    wanted.append(key)
                else:
                    results[key] = value  # type: ignore[assignment]
        if wanted and not await retries.again():
            for key in wanted:
                results[key] = TransactionError(
                    f"the coordinator of transactional id `{key}` did not answer within "
                    f"{admin.config.default_api_timeout_ms} ms (default.api.timeout.ms)",
                    code=COORDINATOR_NOT_AVAILABLE,
                )
            break
    return results


# ------------------------------------------------------------------------------------- transactions


async def list_transactions(
    admin: Admin,
    *,
    duration_ms: int | None = None,
    pattern: str | None = None,
    producer_ids: Sequence[int] = (),
) -> list[TransactionListing]:
    """Every broker's transactions (ListTransactions), brokers by id, each in the order it answered."""
    from kio.static.primitive import i64

    from kcli.client.admin import Target

    if pattern:
        versions = (2, 2)
    elif duration_ms is not None and duration_ms >= 0:
        versions = (1, 2)
    else:
        versions = (0, 2)

    def build(version: int) -> Any:
        return request(
            "list_transactions",
            version,
            state_filters=(),
            producer_id_filters=tuple(i64(p) for p in producer_ids),
            duration_filter=i64(-1 if duration_ms is None else duration_ms),
            transactional_id_pattern=pattern or None,
        )

    async def one(broker: int) -> Any:
        try:
            return await admin.call(
                ApiKey.LIST_TRANSACTIONS, build, versions=versions, target=Target.node(broker)
            )
        except UnsupportedByServer as error:
            field = "TransactionalIdPattern" if pattern else "DurationFilter"
            raise UnsupportedByServer(
                f"{error.message}: --{'transactional-id-pattern' if pattern else 'duration-filter'} needs "
                f"ListTransactions v{versions[0]} ({field})"
            ) from None

    brokers = sorted(admin.nodes)
    replies = await asyncio.gather(*(one(broker) for broker in brokers))
    listings: list[TransactionListing] = []
    for broker, reply in zip(brokers, replies, strict=True):
        code = int(reply.error_code)
        if code == COORDINATOR_NOT_AVAILABLE:
            raise TransactionError(
                f"ListTransactions request sent to broker {broker} failed because the coordinator is shutting down",
                code=code,
            )
        if code != NONE:
            raise TransactionError(
                f"ListTransactions request sent to broker {broker} failed with an unexpected exception: "
                f"{error_info(code).message}",
                code=code,
            )
        listings.extend(
            TransactionListing(
                transactional_id=str(state.transactional_id),
                coordinator=broker,
                producer_id=int(state.producer_id),
                state=transaction_state_name(str(state.transaction_state)),
            )
            for state in reply.transaction_states
        )
    return listings


# TransactionState.toString of Kafka's Admin client: the states it knows by their names, others Unknown.
STATES = (
    "Ongoing",
    "PrepareAbort",
    "PrepareCommit",
    "CompleteAbort",
    "CompleteCommit",
    "Empty",
    "PrepareEpochFence",
    "Unknown",
)


def transaction_state_name(state: str) -> str:
    return state if state in STATES else "Unknown"


async def describe_transactions(
    admin: Admin, transactional_ids: Sequence[str]
) -> dict[str, TransactionDescription | KcliError]:
    """Each transactional id's state at its coordinator (DescribeTransactions)."""
    from kcli.client.admin import Target

    async def send(node: int, ids: list[str]) -> dict[str, TransactionDescription | int | KcliError]:
        response = await admin.call(
            ApiKey.DESCRIBE_TRANSACTIONS,
            lambda version: request("describe_transactions", version, transactional_ids=tuple(ids)),
            versions=(0, 0),
            target=Target.node(node),
        )
        out: dict[str, TransactionDescription | int | KcliError] = {}
        for state in response.transaction_states:
            key = str(state.transactional_id)
            if key not in ids:
                continue
            code = int(state.error_code)
            out[key] = _description(node, state) if code == NONE else _describe_error(key, code)
        return out

    return await _at_coordinators(admin, transactional_ids, send)


def _description(node: int, state: Any) -> TransactionDescription:
    start = int(state.transaction_start_time_ms)
    return TransactionDescription(
        coordinator_id=node,
        transactional_id=str(state.transactional_id),
        producer_id=int(state.producer_id),
        producer_epoch=int(state.producer_epoch),
        state=transaction_state_name(str(state.transaction_state)),
        timeout_ms=int(state.transaction_timeout_ms),
        start_time_ms=start if start >= 0 else None,
        topic_partitions=tuple(
            TopicPartition(str(topic.topic), int(p)) for topic in state.topics for p in topic.partitions
        ),
    )


def _describe_error(key: str, code: int) -> int | KcliError:
    """DescribeTransactionsHandler's handling: retry/relookup codes come back as ints, others fail."""
    if code in _RELOOKUP or code == COORDINATOR_LOAD_IN_PROGRESS:
        return code
    what = f"DescribeTransactions request for transactionalId `{key}`"
    if code == TRANSACTIONAL_ID_AUTHORIZATION_FAILED:
        return TransactionError(f"{what} failed due to authorization failure", code=code)
    if code == TRANSACTIONAL_ID_NOT_FOUND:
        return TransactionError(f"{what} failed because the ID could not be found", code=code)
    return TransactionError(f"{what} failed due to unexpected error: {error_info(code).message}", code=code)


async def fence_producer(admin: Admin, transactional_id: str, *, timeout_ms: int) -> tuple[int, int]:
    """InitProducerId for `transactional_id` without producer id or epoch: the coordinator bumps the
    epoch, fencing its producer and aborting its ongoing transaction (forceTerminateTransaction).
    Returns the new (producer id, epoch)."""
    from kcli.client.admin import Target
    from kcli.client.api.reassign import timeout_value

    async def send(node: int, ids: list[str]) -> dict[str, tuple[int, int] | int | KcliError]:
        response = await admin.call(
            ApiKey.INIT_PRODUCER_ID,
            lambda version: request(
                "init_producer_id",
                version,
                transactional_id=transactional_id,
                transaction_timeout=timeout_value(timeout_ms),
            ),
            versions=(0, 5),
            target=Target.node(node),
            idempotent=False,
        )
        code = int(response.error_code)
        if code == NONE:
            return {transactional_id: (int(response.producer_id), int(response.producer_epoch))}
        if code in _RELOOKUP | _RETRY:
            return {transactional_id: code}
        what = f"InitProducerId request for transactionalId `{transactional_id}`"
        if code == CLUSTER_AUTHORIZATION_FAILED:
            text = f"{what} failed due to cluster authorization failure"
        elif code == TRANSACTIONAL_ID_AUTHORIZATION_FAILED:
            text = f"{what} failed due to transactional ID authorization failure"
        else:
            text = f"{what} failed due to unexpected error: {error_info(code).message}"
        return {transactional_id: TransactionError(text, code=code)}

    result = (await _at_coordinators(admin, [transactional_id], send))[transactional_id]
    if isinstance(result, KcliError):
        raise result
    return result
