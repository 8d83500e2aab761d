"""DescribeConfigs (32), versions 1-4: configs of topics, brokers, loggers, groups and client metrics.

Behavior:
- Auth: DESCRIBE_CONFIGS on the topic (TOPIC_AUTHORIZATION_FAILED), the group
  (GROUP_AUTHORIZATION_FAILED) or the cluster for the other types (CLUSTER_AUTHORIZATION_FAILED).
- configuration_keys null -> every key; else only those keys (unknown keys are left out, as Kafka does).
- Unknown topics -> UNKNOWN_TOPIC_OR_PARTITION; a broker resource must name the answering node
  (or "" for the cluster-wide defaults), else INVALID_REQUEST.
- Sensitive values are null with is_sensitive=true; synonyms only when include_synonyms.
- A resource described without error carries the message "" (Kafka's default), not null.

Performance: v4 responses are encoded by kcli.sandbox.emulator.fastcodec; a topic config at its default
is encoded once per node and broker-config state and reused for every topic.

Version notes: v1 synonyms and sources; v3 config type and documentation; v4 flexible.
"""

from __future__ import annotations

from typing import Any

from kcli.kafka import AclOperation, ApiKey, ConfigResourceType
from kcli.sandbox.emulator import fastcodec
from kcli.sandbox.emulator.apis.k44_incremental_alter_configs import authorize_config, resource_result
from kcli.sandbox.emulator.configdefs import TOPIC_CONFIGS
from kcli.sandbox.emulator.configview import ConfigProblem, Entry, describe, topic_entry
from kcli.sandbox.emulator.context import ZERO, RequestContext
from kcli.sandbox.emulator.registry import api
from kcli.sandbox.emulator.wire import PreEncoded


@api(ApiKey.DESCRIBE_CONFIGS, (1, 4))
async def handle_describe_configs(ctx: RequestContext, request: Any) -> Any:
    """Describe configs."""
    if ctx.version == 4:
        return _fast(ctx, request)
    results = []
    for resource in request.resources:
        entries = []
        code, message = authorize_config(
            ctx, AclOperation.DESCRIBE_CONFIGS, resource.resource_type, resource.resource_name
        )
        if not code:
            try:
                entries = describe(
                    ctx.cluster, resource.resource_type, resource.resource_name, ctx.node.node_id
                )
            except ConfigProblem as problem:
                code, message = problem.code, problem.message
        keys = resource.configuration_keys
        if keys is not None:
            wanted = set(keys)
            entries = [e for e in entries if e.name in wanted]
        configs = tuple(
            ctx.r(
                "DescribeConfigsResourceResult",
                **e.wire_fields,
                synonyms=tuple(
                    ctx.r("DescribeConfigsSynonym", name=s.name, value=s.value, source=s.source)
                    for s in e.synonyms
                )
                if request.include_synonyms
                else (),
                config_type=e.type,
                documentation=e.doc if getattr(request, "include_documentation", False) else None,
            )
            for e in entries
        )
        results.append(
            resource_result(ctx, "DescribeConfigsResult", resource, code, message or "", configs=configs)
        )
    return ctx.r("DescribeConfigsResponse", throttle_time=ZERO, results=tuple(results))


def _encode(entry: Entry, synonyms: bool, docs: bool) -> bytes:
    return fastcodec.config_entry(
        entry.name,
        entry.value,
        entry.read_only,
        entry.source,
        entry.sensitive,
        [(s.name, s.value, s.source) for s in entry.synonyms] if synonyms else (),
        entry.type,
        entry.doc if docs else None,
    )


def _topic_defaults(ctx: RequestContext, synonyms: bool, docs: bool) -> dict[str, bytes]:
    """Every topic config at its default, encoded, cached per node and broker-config state."""
    cluster = ctx.cluster
    key = ("topic-config-defaults", ctx.node.node_id, synonyms, docs)
    stamp = cluster.image.broker_config_version
    cached = cluster.response_cache.get(key)
    if cached is not None and cached[0] == stamp:
        return dict(cached[1])
    encoded = {
        name: _encode(topic_entry(cluster, ctx.node.node_id, definition, {}), synonyms, docs)
        for name, definition in TOPIC_CONFIGS.items()
    }
    cluster.response_cache[key] = (stamp, encoded)
    return encoded


def _fast(ctx: RequestContext, request: Any) -> Any:
    """DescribeConfigs v4 encoded by kcli.sandbox.emulator.fastcodec."""
    synonyms = bool(request.include_synonyms)
    docs = bool(getattr(request, "include_documentation", False))
    image = ctx.cluster.image
    results: list[bytes] = []
    for resource in request.resources:
        name, resource_type = resource.resource_name, resource.resource_type
        keys = None if resource.configuration_keys is None else set(resource.configuration_keys)
        entries = []
        code, message = authorize_config(ctx, AclOperation.DESCRIBE_CONFIGS, resource_type, name)
        if code:
            pass
        elif resource_type == ConfigResourceType.TOPIC and image.topic(name) is not None:
            defaults = _topic_defaults(ctx, synonyms, docs)
            dynamic = image.configs.get((ConfigResourceType.TOPIC, name), {})
            for key, definition in TOPIC_CONFIGS.items():
                if keys is not None and key not in keys:
                    continue
                if key in dynamic:
                    entries.append(
                        _encode(
                            topic_entry(ctx.cluster, ctx.node.node_id, definition, dynamic), synonyms, docs
                        )
                    )
                else:
                    entries.append(defaults[key])
        else:
            try:
                described = describe(ctx.cluster, resource_type, name, ctx.node.node_id)
            except ConfigProblem as problem:
                code, message = problem.code, problem.message
            else:
                entries = [_encode(e, synonyms, docs) for e in described if keys is None or e.name in keys]
        results.append(fastcodec.config_result(code, message or "", resource_type, name, entries))
    return PreEncoded(
        cls=ctx.response_module.DescribeConfigsResponse, body=fastcodec.describe_configs_response(results)
    )
