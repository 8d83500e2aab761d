"""IncrementalAlterConfigs (44), versions 0-1: SET / DELETE / APPEND / SUBTRACT per key.

Behavior:
- Auth: ALTER_CONFIGS on the topic (TOPIC_AUTHORIZATION_FAILED) or cluster (CLUSTER_AUTHORIZATION_FAILED).
- Each resource is validated on its own (unknown key or bad value -> INVALID_CONFIG, unknown topic
  -> UNKNOWN_TOPIC_OR_PARTITION, duplicate keys -> INVALID_REQUEST); a valid resource's changes
  are ConfigRecords; validate_only changes nothing.
- Brokers forward it to the active controller in an Envelope (KIP-590).

Version notes: v1 flexible.
"""

from __future__ import annotations

from typing import Any

from kcli.sandbox.authorizer import ALTER_CONFIGS, CLUSTER, CLUSTER_NAME, TOPIC
from kcli.sandbox.configdefs import TOPIC as TOPIC_RESOURCE
from kcli.sandbox.configview import ConfigProblem, incremental_records
from kcli.sandbox.context import ZERO, RequestContext
from kcli.sandbox.registry import api

TOPIC_AUTHORIZATION_FAILED, CLUSTER_AUTHORIZATION_FAILED = 29, 31


def authorize_alter(ctx: RequestContext, resource_type: int, name: str) -> tuple[int, str | None]:
    """(error code, message) of ALTER_CONFIGS on one resource (0 when allowed)."""
    if resource_type == TOPIC_RESOURCE:
        if not ctx.authorize(ALTER_CONFIGS, TOPIC, name):
            return TOPIC_AUTHORIZATION_FAILED, "Authorization failed."
    elif not ctx.authorize(ALTER_CONFIGS, CLUSTER, CLUSTER_NAME):
        return CLUSTER_AUTHORIZATION_FAILED, "Authorization failed."
    return 0, None


@api(44, "incremental_alter_configs", (0, 1), forward=True)
async def handle_incremental_alter_configs(ctx: RequestContext, request: Any) -> Any:
    """Alter configs incrementally."""
    results = []
    records: list[Any] = []
    for resource in request.resources:
        code, message = authorize_alter(ctx, resource.resource_type, resource.resource_name)
        if not code:
            ops = [(c.name, c.config_operation, c.value) for c in resource.configs]
            try:
                records.extend(
                    incremental_records(ctx.cluster, resource.resource_type, resource.resource_name, ops)
                )
            except ConfigProblem as problem:
                code, message = problem.code, problem.message
        results.append(
            ctx.r(
                "AlterConfigsResourceResponse",
                error_code=code,
                error_message=message,
                resource_type=resource.resource_type,
                resource_name=resource.resource_name,
            )
        )
    if records and not request.validate_only:
        await ctx.cluster.commit(records)
    return ctx.r("IncrementalAlterConfigsResponse", throttle_time=ZERO, responses=tuple(results))
