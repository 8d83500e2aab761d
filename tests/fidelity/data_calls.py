"""Data-plane requests sent alike to a real Kafka cluster and to a sandbox (Produce, Fetch, ListOffsets,
OffsetForLeaderEpoch, DeleteRecords, InitProducerId, DescribeLogDirs, CreateTopics, ...), through kcli's
client at one exact version; answers as plain nested values so that the two compare field by field."""

from __future__ import annotations

import dataclasses
import datetime
import enum
import uuid
from collections.abc import Callable, Mapping
from typing import Any

from kcli.client.admin import Target
from kcli.client.api.wire import make, nested, request_cls
from tests.fidelity.calls import Endpoint

Build = Callable[[type], Any]  # the request class of the version -> the request


def plain(value: Any) -> Any:
    """A kio message as dicts, lists and plain scalars (the comparison's form)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, tuple | list):
        return [plain(v) for v in value]
    if isinstance(value, datetime.timedelta):
        return int(value.total_seconds() * 1000)
    if isinstance(value, datetime.datetime):
        return int(value.timestamp() * 1000)
    if isinstance(value, enum.Enum):
        return int(value.value)
    if isinstance(value, bytes):
        return bytes(value)
    return value


def request(
    endpoint: Endpoint,
    api: str,
    key: int,
    version: int,
    build: Build,
    node: int | None = None,
    *,
    timeout_ms: int | None = None,
) -> dict[str, Any]:
    """Send one request at exactly `version` to `node` (any node when None); the plain response.

    kcli's client retries a retriable top-level error until its deadline: a request expected to
    answer one is given a short `timeout_ms`."""
    cls = request_cls(api, version)

    def made(_: int) -> Any:
        return build(cls)

    async def call(admin: Any) -> Any:
        target = Target.ANY if node is None else Target.node(node)
        return await admin.call(key, made, versions=(version, version), target=target, timeout_ms=timeout_ms)

    return plain(endpoint.run(call))  # type: ignore[no-any-return]


def build_of(cls: type, struct: str, /, **values: Any) -> Any:
    """One nested struct `struct` of request class `cls` (fields the version lacks are dropped)."""
    return make(nested(cls, struct), **values)


def without(value: Any, keys: set[str]) -> Any:
    """`value` with every dict entry named in `keys` dropped, at any depth (what may differ on purpose)."""
    if isinstance(value, Mapping):
        return {k: without(v, keys) for k, v in value.items() if k not in keys}
    if isinstance(value, list):
        return [without(v, keys) for v in value]
    return value


def replaced(value: Any, mapping: Mapping[Any, Any]) -> Any:
    """`value` with each scalar found in `mapping` replaced (topic ids, producer ids, ports)."""
    if isinstance(value, Mapping):
        return {k: replaced(v, mapping) for k, v in value.items()}
    if isinstance(value, list):
        return [replaced(v, mapping) for v in value]
    if isinstance(value, uuid.UUID | int | str) and value in mapping:
        return mapping[value]
    return value
