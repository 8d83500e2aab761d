"""Timestamps of -1 in responses whose kio fields cannot hold them.

Kafka answers -1 where a timestamp is unset (CreateDelegationToken's issue/expiry/max timestamps on an
error, RenewDelegationToken's and ExpireDelegationToken's expiry on an error, DescribeTransactions' start
time of a transaction not begun). kio types those fields as non-negative datetimes, so a response is built
with UNSET in them and `encoded` writes -1 in its place.
"""

from __future__ import annotations

import struct
from datetime import UTC, datetime, timedelta
from typing import Any

from kcli.sandbox.emulator.wire import PreEncoded, encode_entity

_SENTINEL_MS = 0xDEAD_BEEF_CAFE  # year 9728: no real timestamp, and a byte pattern no other field makes
UNSET = datetime(1970, 1, 1, tzinfo=UTC) + timedelta(milliseconds=_SENTINEL_MS)
_SENTINEL = struct.pack(">q", _SENTINEL_MS)
_MINUS_ONE = struct.pack(">q", -1)


def timestamp(ms: int) -> datetime:
    """A Kafka millisecond timestamp as kio's datetime; UNSET for -1."""
    return UNSET if ms < 0 else datetime(1970, 1, 1, tzinfo=UTC) + timedelta(milliseconds=ms)


def encoded(response: Any) -> Any:
    """`response` as it is, or already encoded with -1 where it holds UNSET."""
    body = encode_entity(response)
    if _SENTINEL not in body:
        return response
    return PreEncoded(cls=type(response), body=body.replace(_SENTINEL, _MINUS_ONE))
