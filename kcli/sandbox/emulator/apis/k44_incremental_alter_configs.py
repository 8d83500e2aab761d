"""IncrementalAlterConfigs (44), versions 0-1: SET / DELETE / APPEND / SUBTRACT per key.

Behavior:
- The receiving broker checks what Kafka's ConfigAdminManager checks (kcli.sandbox.emulator.configalter:
  resources named twice, duplicate keys, null values, and broker resources as DynamicBrokerConfig
  validates them), carries out BROKER_LOGGER resources itself (its log levels, not records; the
  name must be its id), and forwards the other resources to the active controller in an Envelope
  (KIP-590); it answers all in the request's order.
- The controller authorizes (ALTER_CONFIGS on the topic -> TOPIC_AUTHORIZATION_FAILED, on the group
  -> GROUP_AUTHORIZATION_FAILED, on the cluster for the other types -> CLUSTER_AUTHORIZATION_FAILED),
  checks each resource as ConfigurationControlManager does and writes ConfigRecords; validate_only
  changes nothing. Asked directly, it answers a resource named twice once ("Duplicate resource.")
  and lets the last of duplicate keys win, as Kafka's controller does.

Version notes: v1 flexible.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from kio.schema.errors import ErrorCode

from kcli.kafka import CLUSTER_NAME, AclOperation, ApiKey, ConfigOp, ConfigResourceType, ResourceType
from kcli.sandbox.emulator import loggers
from kcli.sandbox.emulator.configalter import (
    check_keys,
    duplicate_resources,
    incremental_records,
    preprocess,
    replace_records,
)
from kcli.sandbox.emulator.configview import ConfigProblem
from kcli.sandbox.emulator.context import ZERO, RequestContext
from kcli.sandbox.emulator.registry import api


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
            f"Unexpected node id. Expected {node_id}, but received {resource.resource_name}",
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
    from kcli.sandbox.emulator import wire
    from kcli.sandbox.emulator.forwarding import forward

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
    responses = await alter(ctx, request, legacy=False)
    return ctx.r("IncrementalAlterConfigsResponse", throttle_time=ZERO, responses=responses)


def _ops(resource: Any, legacy: bool) -> list[tuple[str, int, str | None]]:
    if legacy:
        return [(c.name, int(ConfigOp.SET), c.value) for c in resource.configs]
    return [(c.name, int(c.config_operation), c.value) for c in resource.configs]


async def alter(ctx: RequestContext, request: Any, *, legacy: bool) -> tuple[Any, ...]:
    """The per-resource answers of IncrementalAlterConfigs, or with `legacy` of AlterConfigs (whose
    given keys replace a resource's dynamic configs), on a broker or a controller."""
    on_broker = ctx.node.is_broker and not ctx.forwarded
    resources = list(request.resources)
    results: dict[int, tuple[int, str | None]] = {}
    if on_broker:
        twice = duplicate_resources(resources)
        once = "Each resource must appear at most once."
        results = {id(r): (ErrorCode.invalid_request, once) for r in resources if id(r) in twice}
    else:
        resources = _distinct(resources, results)
    rest: list[Any] = []
    for resource in resources:
        if id(resource) in results:
            continue
        ops = _ops(resource, legacy)
        try:
            if on_broker:
                check_keys(ops, legacy=legacy)
            if resource.resource_type == ConfigResourceType.BROKER_LOGGER and not legacy:
                results[id(resource)] = _alter_loggers(ctx, resource, request.validate_only)
                continue
            if on_broker:
                name = resource.resource_name
                preprocess(ctx.cluster, ctx.node.node_id, resource.resource_type, name, ops, legacy=legacy)
        except ConfigProblem as problem:
            results[id(resource)] = (problem.code, problem.message)
            continue
        rest.append(resource)
    if rest and on_broker:
        for resource, answer in zip(rest, await _forward_rest(ctx, request, rest), strict=True):
            results[id(resource)] = (int(answer.error_code), answer.error_message)
    elif rest:
        records: list[Any] = []
        for resource in rest:
            code, message = authorize_alter(ctx, resource.resource_type, resource.resource_name)
            if not code:
                try:
                    records.extend(_records(ctx, resource, legacy))
                except ConfigProblem as problem:
                    code, message = problem.code, problem.message
            results[id(resource)] = (code, message)
        if records and not request.validate_only:
            await ctx.cluster.commit(records)
    return tuple(
        resource_result(ctx, "AlterConfigsResourceResponse", resource, *results[id(resource)])
        for resource in resources
    )


def _records(ctx: RequestContext, resource: Any, legacy: bool) -> list[Any]:
    """The controller's ConfigRecords for one resource (ConfigProblem when refused)."""
    kind, name = resource.resource_type, resource.resource_name
    if legacy:
        return replace_records(ctx.cluster, kind, name, {c.name: c.value for c in resource.configs})
    return incremental_records(ctx.cluster, kind, name, _last_wins(_ops(resource, legacy)))


def _distinct(resources: list[Any], results: dict[int, tuple[int, str | None]]) -> list[Any]:
    """A controller answers each resource once: a repeated one is refused at its first place."""
    seen: dict[tuple[int, str], Any] = {}
    for resource in resources:
        key = (int(resource.resource_type), resource.resource_name)
        if key in seen:
            results[id(seen[key])] = (ErrorCode.invalid_request, "Duplicate resource.")
        else:
            seen[key] = resource
    return list(seen.values())


def _last_wins(ops: list[tuple[str, int, str | None]]) -> list[tuple[str, int, str | None]]:
    """The controller keys operations by name: of duplicate keys the last one counts."""
    return list({key: (key, op, value) for key, op, value in ops}.values())
