"""Incremental fetch sessions (KIP-227), one cache per broker, as Kafka's FetchManager keeps them.

Behavior:
- Session id 0 with epoch -1 is a sessionless full fetch; epoch 0 is a full fetch that opens a new
  session (the response carries its id; none when the cache is full of newer sessions), closing the
  session the request names. Any id with epoch -1 closes it and fetches sessionless.
- An incremental fetch (id and epoch > 0) to an unknown id is FETCH_SESSION_ID_NOT_FOUND, at
  another epoch than the session's INVALID_FETCH_SESSION_EPOCH. It updates the partitions it
  names, drops its forgotten ones, and reads every partition of the session; the response holds
  only those with something to say (records, an error, a changed high watermark or log start, a
  diverging epoch), and a partition that returned records moves to the end of the session. A session
  left without partitions is closed, and that fetch answered sessionless.
- The session's epoch then moves on (wrapping from 2^31 - 1 to 1).
- At most `slots` sessions (max.incremental.fetch.session.cache.slots); the least recently used
  one makes room.
"""

from __future__ import annotations

import itertools
import random
import time
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass

from kio.schema.errors import ErrorCode

INVALID_SESSION_ID = 0
INITIAL_EPOCH = 0
FINAL_EPOCH = -1
DEFAULT_SLOTS = 1000

PartitionKey = tuple[str, int]  # topic (its name, or its id's text from v13), partition


@dataclass(slots=True)
class Wanted:
    """What a fetch asks of one partition."""

    fetch_offset: int
    max_bytes: int
    current_leader_epoch: int = -1
    last_fetched_epoch: int = -1


@dataclass(slots=True)
class Cached:
    """A session's partition: what it asks, and what it was last told."""

    wanted: Wanted
    high_watermark: int = -1
    log_start_offset: int = -1


@dataclass(slots=True)
class Session:
    session_id: int
    epoch: int
    partitions: OrderedDict[PartitionKey, Cached]
    last_used: float


@dataclass(frozen=True, slots=True)
class Answered:
    """What a read gave one partition, as the session compares it."""

    key: PartitionKey
    error: int
    high_watermark: int
    log_start_offset: int
    has_records: bool
    diverging: bool


class FetchContext:
    """One fetch's view of its session: the partitions to read, and how to finish the response."""

    def __init__(
        self, partitions: list[tuple[PartitionKey, Wanted]], session: Session | None, incremental: bool
    ) -> None:
        self.partitions = partitions
        self.session = session
        self.incremental = incremental
        self.error = 0

    @property
    def session_id(self) -> int:
        return self.session.session_id if self.session is not None else INVALID_SESSION_ID

    def finish(self, answered: Iterable[Answered]) -> set[PartitionKey]:
        """Record what was answered in the session; the partitions the response must hold."""
        keep: set[PartitionKey] = set()
        for answer in answered:
            cached = self.session.partitions.get(answer.key) if self.session is not None else None
            must = (
                not self.incremental
                or answer.has_records
                or answer.error != 0
                or answer.diverging
                or cached is None
                or cached.high_watermark != answer.high_watermark
                or cached.log_start_offset != answer.log_start_offset
            )
            if cached is not None:
                cached.high_watermark = -1 if answer.error else answer.high_watermark
                cached.log_start_offset = answer.log_start_offset
                if self.incremental and answer.has_records and self.session is not None:
                    self.session.partitions.move_to_end(answer.key)
            if must:
                keep.add(answer.key)
        return keep


class FetchSessions:
    """The fetch session cache of one broker."""

    def __init__(self, slots: int = DEFAULT_SLOTS) -> None:
        self.slots = slots
        self._sessions: OrderedDict[int, Session] = OrderedDict()
        self._ids = itertools.count(random.randint(1, 2**30))

    def context(
        self,
        session_id: int,
        epoch: int,
        wanted: list[tuple[PartitionKey, Wanted]],
        forgotten: Iterable[PartitionKey],
    ) -> FetchContext:
        """The context of one fetch request (context.error set for a session error)."""
        now = time.monotonic()
        if epoch in (INITIAL_EPOCH, FINAL_EPOCH):
            if session_id != INVALID_SESSION_ID:
                self._sessions.pop(session_id, None)
            if epoch == FINAL_EPOCH:
                return FetchContext(wanted, None, incremental=False)
            session = self._open(wanted, now)
            return FetchContext(wanted, session, incremental=False)
        session = self._sessions.get(session_id)
        if session is None:
            return _failed(ErrorCode.fetch_session_id_not_found)
        if session.epoch != epoch:
            return _failed(ErrorCode.invalid_fetch_session_epoch)
        for key, request in wanted:
            cached = session.partitions.get(key)
            if cached is None:
                session.partitions[key] = Cached(request)
            else:
                cached.wanted = request
        for key in forgotten:
            session.partitions.pop(key, None)
        if not session.partitions:  # an emptied session is closed: the answer is sessionless
            del self._sessions[session_id]
            return FetchContext([], None, incremental=False)
        session.epoch = 1 if epoch == 2**31 - 1 else epoch + 1
        session.last_used = now
        self._sessions.move_to_end(session_id)
        return FetchContext([(k, c.wanted) for k, c in session.partitions.items()], session, incremental=True)

    def _open(self, wanted: list[tuple[PartitionKey, Wanted]], now: float) -> Session | None:
        if self.slots <= 0:
            return None
        while len(self._sessions) >= self.slots:
            self._sessions.popitem(last=False)
        session_id = next(self._ids) % (2**31 - 1) or next(self._ids)
        session = Session(session_id, 1, OrderedDict((k, Cached(w)) for k, w in wanted), now)
        self._sessions[session_id] = session
        return session


def _failed(code: int) -> FetchContext:
    context = FetchContext([], None, incremental=False)
    context.error = code
    return context
