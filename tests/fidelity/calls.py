"""Requests sent alike to a real Kafka cluster and to a sandbox, through kcli's client; answers as
plain values, so that the two can be compared field by field."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from kcli.client.admin import Admin, Target
from kcli.client.api.wire import make, nested, request_cls
from kcli.client.config import config_from_properties
from kcli.kafka import ApiKey

T = TypeVar("T")
Op = tuple[str, int, str | None]  # key, IncrementalAlterConfigs operation, value


@dataclass(frozen=True)
class Endpoint:
    """One bootstrap list of a cluster: its brokers, or (controllers=True) its controllers."""

    bootstrap: str
    controllers: bool = False

    def run(self, call: Callable[[Admin], Awaitable[T]]) -> T:
        key = "bootstrap.controllers" if self.controllers else "bootstrap.servers"
        config = config_from_properties(
            {key: self.bootstrap, "request.timeout.ms": "15000"}, warn=lambda _: None
        )

        async def go() -> T:
            async with Admin(config) as admin:
                return await call(admin)

        return asyncio.run(go())


@dataclass(frozen=True)
class Described:
    """A DescribeConfigs result: the resource's error and its entries by name (each a dict of fields)."""

    code: int
    message: str | None
    entries: dict[str, dict[str, Any]] = field(default_factory=dict)


def _target(node: int | None) -> Target:
    return Target.ANY if node is None else Target.node(node)


def describe(endpoint: Endpoint, resource_type: int, name: str, node: int | None = None) -> Described:
    from kio.static.primitive import i8

    def build(version: int) -> Any:
        cls = request_cls("describe_configs", version)
        resource = nested(cls, "DescribeConfigsResource")(
            resource_type=i8(resource_type), resource_name=name, configuration_keys=None
        )
        return make(cls, resources=(resource,), include_synonyms=True, include_documentation=True)

    async def call(admin: Admin) -> Described:
        response = await admin.call(ApiKey.DESCRIBE_CONFIGS, build, versions=(4, 4), target=_target(node))
        (result,) = response.results
        entries = {
            c.name: {
                "value": c.value,
                "source": int(c.config_source),
                "read_only": bool(c.read_only),
                "sensitive": bool(c.is_sensitive),
                "type": int(c.config_type),
                "documentation": c.documentation,
                "synonyms": [(s.name, s.value, int(s.source)) for s in c.synonyms],
            }
            for c in result.configs
        }
        return Described(int(result.error_code), result.error_message, entries)

    return endpoint.run(call)


def alter(
    endpoint: Endpoint,
    resources: Sequence[tuple[int, str, Sequence[Op]]],
    *,
    node: int | None = None,
    validate_only: bool = True,
) -> list[tuple[int, str, int, str | None]]:
    """IncrementalAlterConfigs of `resources` in one request: (type, name, error code, message) each."""
    from kio.static.primitive import i8

    def build(version: int) -> Any:
        cls = request_cls("incremental_alter_configs", version)
        resource, alterable = nested(cls, "AlterConfigsResource"), nested(cls, "AlterableConfig")
        return cls(
            resources=tuple(
                resource(
                    resource_type=i8(kind),
                    resource_name=name,
                    configs=tuple(alterable(name=k, config_operation=i8(op), value=v) for k, op, v in ops),
                )
                for kind, name, ops in resources
            ),
            validate_only=validate_only,
        )

    async def call(admin: Admin) -> list[tuple[int, str, int, str | None]]:
        response = await admin.call(
            ApiKey.INCREMENTAL_ALTER_CONFIGS, build, versions=(0, 1), target=_target(node)
        )
        return [
            (int(r.resource_type), r.resource_name, int(r.error_code), r.error_message)
            for r in response.responses
        ]

    return endpoint.run(call)


@dataclass(frozen=True)
class ApiTable:
    """What a node's ApiVersions says: API version ranges, supported and finalized features."""

    apis: dict[int, tuple[int, int]]
    supported: dict[str, tuple[int, int]]
    finalized: dict[str, int]


def api_versions(endpoint: Endpoint, node: int) -> ApiTable:
    async def call(admin: Admin) -> ApiTable:
        response = await admin.api_versions(node)
        return ApiTable(
            apis={int(a.api_key): (int(a.min_version), int(a.max_version)) for a in response.api_keys},
            supported={f.name: (int(f.min_version), int(f.max_version)) for f in response.supported_features},
            finalized={f.name: int(f.max_version_level) for f in response.finalized_features},
        )

    return endpoint.run(call)


def node_ids(endpoint: Endpoint) -> list[int]:
    """The node ids the endpoint's DescribeCluster lists (brokers, or controllers)."""

    async def call(admin: Admin) -> list[int]:
        return sorted(admin.nodes)

    return endpoint.run(call)


def raw(
    endpoint: Endpoint, api_key: int, build: Callable[[int], Any], versions: tuple[int, int], node: int
) -> Any:
    """Any request to one node, its kio response (kcli's errors raised as they come)."""

    async def call(admin: Admin) -> Any:
        return await admin.call(api_key, build, versions=versions, target=Target.node(node))

    return endpoint.run(call)


def create_topic(endpoint: Endpoint, name: str) -> None:
    from datetime import timedelta

    from kio.static.primitive import i16, i32

    def build(version: int) -> Any:
        cls = request_cls("create_topics", version)
        topic = make(
            nested(cls, "CreatableTopic"),
            name=name,
            num_partitions=i32(1),
            replication_factor=i16(1),
            assignments=(),
            configs=(),
        )
        return make(cls, topics=(topic,), timeout=timedelta(seconds=30), validate_only=False)

    async def call(admin: Admin) -> None:
        response = await admin.call(ApiKey.CREATE_TOPICS, build, versions=(2, 7), target=Target.ANY)
        code = int(response.topics[0].error_code)
        assert code == 0, response.topics[0].error_message

    endpoint.run(call)


def delete_topic(endpoint: Endpoint, name: str) -> None:
    from datetime import timedelta

    def build(version: int) -> Any:
        cls = request_cls("delete_topics", version)
        state = make(nested(cls, "DeleteTopicState"), name=name, topic_id=None)
        return make(cls, topics=(state,), timeout=timedelta(seconds=30))

    async def call(admin: Admin) -> None:
        await admin.call(ApiKey.DELETE_TOPICS, build, versions=(6, 6), target=Target.ANY)

    endpoint.run(call)
