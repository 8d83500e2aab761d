"""What every part of the coordinators shares: results, deferred replies, typed errors, the clock.

An operation of a coordinator shard is a plain function: it reads and changes the shard's state and
returns a `Result`, the records to append to the shard's partition (and whether they still have to be
replayed into the state, as Kafka's CoordinatorResult says) with the value to answer. Answers that
wait for other members (a JoinGroup parked until the rebalance completes) are `Reply` objects the
shard settles later. Nothing here touches the network or an event loop: the runtime
(kcli.sandbox.emulator.groups.runtime) appends the records and awaits the replies.
"""

from __future__ import annotations

import functools
import uuid
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

from kio.schema.errors import ErrorCode

from kcli.sandbox.emulator.groups.records import CoordinatorRecord

T = TypeVar("T")

UNKNOWN_MEMBER_ID = ""  # JoinGroupRequest.UNKNOWN_MEMBER_ID
NO_GENERATION = -1


class CoordinatorError(Exception):
    """An operation refused with a Kafka error code (Kafka's ApiException of that code); without a
    message of its own it carries the code's default message, as Kafka's Errors.exception() does."""

    def __init__(self, code: ErrorCode, message: str | None = None) -> None:
        self.code = code
        self.message = message if message is not None else default_message(code)
        super().__init__(self.message)


@functools.cache
def _messages() -> dict[int, str]:
    from kcli.data import read_text

    rows = (line.split("\t") for line in read_text("kafka_errors.tsv").splitlines())
    return {int(row[0]): row[3] for row in rows if len(row) >= 4}


def default_message(code: int) -> str:
    """Kafka's default message of an error code (Errors.message())."""
    return _messages().get(int(code), "")


class Reply(Generic[T]):
    """A value settled once, later; callbacks run when it is."""

    __slots__ = ("_callbacks", "_done", "_value")

    def __init__(self) -> None:
        self._done = False
        self._value: Any = None
        self._callbacks: list[Callable[[T], None]] = []

    @property
    def done(self) -> bool:
        return self._done

    def value(self) -> T:
        if not self._done:
            raise RuntimeError("the reply is not settled yet")
        return self._value  # type: ignore[no-any-return]

    def settle(self, value: T) -> bool:
        """Settle with `value` (False, and nothing changes, when it already is)."""
        if self._done:
            return False
        self._done, self._value = True, value
        for callback in self._callbacks:
            callback(value)
        self._callbacks.clear()
        return True

    def then(self, callback: Callable[[T], None]) -> None:
        """Run `callback` with the value once settled (at once when it already is)."""
        if self._done:
            callback(self._value)
        else:
            self._callbacks.append(callback)


@dataclass(slots=True)
class Result(Generic[T]):
    """Records to append and the answer (Kafka's CoordinatorResult).

    `replay`: the records change the state only when replayed (offsets, KIP-848 groups); classic
    group records describe what the operation already changed. `after` runs once the records are
    durable (Kafka's append future): a SyncGroup leader's assignment is propagated only then.
    """

    records: Sequence[CoordinatorRecord] = ()
    response: T | None = None
    replay: bool = True
    after: list[Callable[[], None]] = field(default_factory=list)


EMPTY: Result[Any] = Result()


class Clock(Protocol):
    """Wall-clock milliseconds (the emulator's clock; tests drive their own)."""

    def now_ms(self) -> int: ...


class Timer(Protocol):
    """Timeouts keyed by name: scheduling a key again replaces its timeout (Kafka's CoordinatorTimer).

    The action runs as an operation of the shard that scheduled it: its records are appended.
    """

    def schedule(self, key: str, delay_ms: int, action: Callable[[], Result[Any]]) -> None: ...

    def cancel(self, key: str) -> None: ...

    def is_scheduled(self, key: str) -> bool: ...


class TopicsView(Protocol):
    """The cluster's topics, as the coordinators see them (the emulator's metadata image)."""

    def topic_id(self, name: str) -> uuid.UUID | None: ...

    def topic_name(self, topic_id: uuid.UUID) -> str | None: ...

    def partition_count(self, topic_id: uuid.UUID) -> int:
        """The topic's partitions (-1: no such topic)."""
        ...

    def topic_names(self) -> Iterable[str]: ...


@dataclass(frozen=True, slots=True, kw_only=True)
class ListedGroup:
    """A group as ListGroups lists it."""

    group_id: str
    protocol_type: str
    state: str
    type: str
