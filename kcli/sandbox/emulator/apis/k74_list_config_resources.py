"""ListConfigResources (74), versions 0-1 (v0 was ListClientMetricsResources): resources that have configs.

Behavior:
- Brokers only. Auth: DESCRIBE_CONFIGS on the cluster, else CLUSTER_AUTHORIZATION_FAILED.
- v0: the client-metrics subscriptions (names with at least one config).
- v1: the requested resource types (none requested -> every supported type): GROUP and
  CLIENT_METRICS as the names with configs, BROKER_LOGGER and BROKER as the registered broker ids,
  TOPIC as every topic. A type outside these -> UNSUPPORTED_VERSION, as Kafka answers.

Version notes: v1 adds ResourceTypes (request) and ResourceType (response); both flexible.
"""

from __future__ import annotations

from typing import Any

from kio.schema.errors import ErrorCode

from kcli.kafka import CLUSTER_NAME, AclOperation, ApiKey, ConfigResourceType, ResourceType
from kcli.sandbox.emulator.context import RequestContext
from kcli.sandbox.emulator.registry import Listener, api

SUPPORTED_TYPES = (
    ConfigResourceType.GROUP,
    ConfigResourceType.CLIENT_METRICS,
    ConfigResourceType.BROKER_LOGGER,
    ConfigResourceType.BROKER,
    ConfigResourceType.TOPIC,
)


def _names(ctx: RequestContext, resource_type: int) -> list[str]:
    image = ctx.cluster.image
    if resource_type in (ConfigResourceType.GROUP, ConfigResourceType.CLIENT_METRICS):
        return sorted(name for kind, name in image.configs if kind == resource_type)
    if resource_type in (ConfigResourceType.BROKER, ConfigResourceType.BROKER_LOGGER):
        return [str(n) for n, node in sorted(ctx.cluster.nodes.items()) if node.is_broker]
    return sorted(topic.name for topic in image.topics.values())


@api(ApiKey.LIST_CONFIG_RESOURCES, (0, 1), listeners=Listener.BROKER)
async def handle_list_config_resources(ctx: RequestContext, request: Any) -> Any:
    """List the resources that have configs."""

    def answer(code: int, resources: list[tuple[str, int]]) -> Any:
        return ctx.answer(
            "ListConfigResourcesResponse",
            code,
            None,
            config_resources=tuple(
                ctx.r("ConfigResource", resource_name=name, resource_type=kind) for name, kind in resources
            ),
        )

    if not ctx.authorize(AclOperation.DESCRIBE_CONFIGS, ResourceType.CLUSTER, CLUSTER_NAME):
        return answer(ErrorCode.cluster_authorization_failed, [])
    if ctx.version == 0:
        return answer(
            0,
            [
                (name, ConfigResourceType.CLIENT_METRICS)
                for name in _names(ctx, ConfigResourceType.CLIENT_METRICS)
            ],
        )
    wanted = [int(t) for t in request.resource_types] or list(SUPPORTED_TYPES)
    if any(t not in SUPPORTED_TYPES for t in wanted):
        return answer(ErrorCode.unsupported_version, [])
    return answer(
        0, [(name, kind) for kind in SUPPORTED_TYPES if kind in wanted for name in _names(ctx, kind)]
    )
