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

from kcli.sandbox.authorizer import CLUSTER, CLUSTER_NAME, DESCRIBE_CONFIGS
from kcli.sandbox.configdefs import BROKER, BROKER_LOGGER, CLIENT_METRICS, GROUP, TOPIC
from kcli.sandbox.context import ZERO, RequestContext
from kcli.sandbox.registry import Listener, api

CLUSTER_AUTHORIZATION_FAILED, UNSUPPORTED_VERSION = 31, 35
SUPPORTED_TYPES = (GROUP, CLIENT_METRICS, BROKER_LOGGER, BROKER, TOPIC)


def _names(ctx: RequestContext, resource_type: int) -> list[str]:
    image = ctx.cluster.image
    if resource_type in (GROUP, CLIENT_METRICS):
        return sorted(name for kind, name in image.configs if kind == resource_type)
    if resource_type in (BROKER, BROKER_LOGGER):
        return [str(n) for n, node in sorted(ctx.cluster.nodes.items()) if node.is_broker]
    return sorted(topic.name for topic in image.topics.values())


@api(74, "list_config_resources", (0, 1), listeners=Listener.BROKER)
async def handle_list_config_resources(ctx: RequestContext, request: Any) -> Any:
    """List the resources that have configs."""

    def answer(code: int, resources: list[tuple[str, int]]) -> Any:
        return ctx.r(
            "ListConfigResourcesResponse",
            throttle_time=ZERO,
            error_code=code,
            config_resources=tuple(
                ctx.r("ConfigResource", resource_name=name, resource_type=kind) for name, kind in resources
            ),
        )

    if not ctx.authorize(DESCRIBE_CONFIGS, CLUSTER, CLUSTER_NAME):
        return answer(CLUSTER_AUTHORIZATION_FAILED, [])
    if ctx.version == 0:
        return answer(0, [(name, CLIENT_METRICS) for name in _names(ctx, CLIENT_METRICS)])
    wanted = [int(t) for t in request.resource_types] or list(SUPPORTED_TYPES)
    if any(t not in SUPPORTED_TYPES for t in wanted):
        return answer(UNSUPPORTED_VERSION, [])
    return answer(
        0, [(name, kind) for kind in SUPPORTED_TYPES if kind in wanted for name in _names(ctx, kind)]
    )
