"""IncrementalAlterConfigs (44), versions 0-1: SET / DELETE / APPEND / SUBTRACT per key.

Behavior:
- Auth: ALTER_CONFIGS on the topic (TOPIC_AUTHORIZATION_FAILED), the group
  (GROUP_AUTHORIZATION_FAILED) or the cluster for the other types (CLUSTER_AUTHORIZATION_FAILED).
- Each resource is validated on its own (unknown key or bad value -> INVALID_CONFIG, unknown topic
  -> UNKNOWN_TOPIC_OR_PARTITION, duplicate keys -> INVALID_REQUEST); a valid resource's changes
  are ConfigRecords; validate_only changes nothing.
- BROKER_LOGGER resources are carried out by the answering node itself (its log levels, not
  records; the name must be its id); a broker forwards the other resources to the active
  controller in an Envelope (KIP-590) and answers both in the request's order, as Kafka's
  ConfigAdminManager does.

Version notes: v1 flexible.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from kio.schema.errors import ErrorCode

from kcli.kafka import CLUSTER_NAME, AclOperation, ApiKey, ConfigResourceType, ResourceType
from kcli.sandbox import loggers
from kcli.sandbox.configview import ConfigProblem, incremental_records
from kcli.sandbox.context import ZERO, RequestContext
from kcli.sandbox.registry import api


def authorize_config(
    ctx: RequestContext, operation: int, resource_type: int, name: str
) -> tuple[int, str | None]:
    """(error code, message) of a config operation on one resource (0 when allowed)."""
    if resource_type == ConfigResourceType.TOPIC:
        if not ctx.authorize(operation, ResourceType.TOPIC, name):
            return ErrorCode.topic_authorization_failed, "Authorization failed."
    elif resource_type == ConfigResourceType.GROUP:
        if not ctx.authorize(operation, ResourceType.GROUP, name):
            return ErrorCode.group_authorization_failed, "Authorization failed."
    elif not ctx.authorize(operation, ResourceType.CLUSTER, CLUSTER_NAME):
        return ErrorCode.cluster_authorization_failed, "Authorization failed."
    return 0, None


def resource_result(
    ctx: RequestContext, struct: str, resource: Any, code: int, message: str | None, **values: Any
) -> Any:
    """The answer `struct` about one resource of a config request: its error and the resource."""
    return ctx.r(
        struct,
        error_code=code,
        error_message=message,
        resource_type=resource.resource_type,
        resource_name=resource.resource_name,
        **values,
    )


def authorize_alter(ctx: RequestContext, resource_type: int, name: str) -> tuple[int, str | None]:
    """(error code, message) of ALTER_CONFIGS on one resource (0 when allowed)."""
    return authorize_config(ctx, AclOperation.ALTER_CONFIGS, resource_type, name)


def _alter_loggers(ctx: RequestContext, resource: Any, validate_only: bool) -> tuple[int, str | None]:
    """Carry out one BROKER_LOGGER resource on the answering node: (error code, message)."""
    code, message = authorize_alter(ctx, ConfigResourceType.BROKER_LOGGER, resource.resource_name)
    if code:
        return code, message
    node_id = ctx.node.node_id
    if resource.resource_name != str(node_id):
        return (
            ErrorCode.invalid_request,
            f"Unexpected broker id, expected {node_id}, but received {resource.resource_name}",
        )
    ops = [(c.name, int(c.config_operation), c.value) for c in resource.configs]
    try:
        loggers.validate(ctx.node.log_levels, ops)
    except loggers.LoggerProblem as problem:
        return problem.code, problem.message
    if not validate_only:
        loggers.apply(ctx.node.log_levels, ops)
    return 0, None


async def _forward_rest(ctx: RequestContext, request: Any, rest: list[Any]) -> list[Any]:
    """The controller's results for the resources other than this node's loggers."""
    from kcli.sandbox import wire
    from kcli.sandbox.forwarding import forward

    frame = ctx.extra["frame"]
    if len(rest) != len(request.resources):
        header = ctx.header
        frame = wire.encode_request(
            dataclasses.replace(request, resources=tuple(rest)), header.correlation_id, header.client_id
        )
    answer = await forward(dataclasses.replace(ctx, extra={**ctx.extra, "frame": frame}), request)
    return list(answer.responses)


@api(ApiKey.INCREMENTAL_ALTER_CONFIGS, (0, 1), forward=True, forwards_itself=True)
async def handle_incremental_alter_configs(ctx: RequestContext, request: Any) -> Any:
    """Alter configs incrementally."""
    local = [r for r in request.resources if r.resource_type == ConfigResourceType.BROKER_LOGGER]
    rest = [r for r in request.resources if r.resource_type != ConfigResourceType.BROKER_LOGGER]
    results: dict[int, tuple[int, str | None]] = {}
    forwarded: list[Any] = []
    for resource in local:
        results[id(resource)] = _alter_loggers(ctx, resource, request.validate_only)
    if rest and ctx.node.is_broker and not ctx.forwarded:
        forwarded = await _forward_rest(ctx, request, rest)
    elif rest:
        records: list[Any] = []
        for resource in rest:
            code, message = authorize_alter(ctx, resource.resource_type, resource.resource_name)
            if not code:
                ops = [(c.name, c.config_operation, c.value) for c in resource.configs]
                try:
                    records.extend(
                        incremental_records(ctx.cluster, resource.resource_type, resource.resource_name, ops)
                    )
                except ConfigProblem as problem:
                    code, message = problem.code, problem.message
            results[id(resource)] = (code, message)
        if records and not request.validate_only:
            await ctx.cluster.commit(records)
    remote = iter(forwarded)
    responses = []
    for resource in request.resources:
        if id(resource) not in results:
            responses.append(next(remote))
            continue
        code, message = results[id(resource)]
        responses.append(resource_result(ctx, "AlterConfigsResourceResponse", resource, code, message))
    return ctx.r("IncrementalAlterConfigsResponse", throttle_time=ZERO, responses=tuple(responses))
