"""DescribeConfigs (32), versions 1-4: configs of topics and brokers with sources and synonyms.

Behavior:
- Auth: DESCRIBE_CONFIGS on the topic (TOPIC_AUTHORIZATION_FAILED) or the cluster for brokers
  (CLUSTER_AUTHORIZATION_FAILED).
- configuration_keys null -> every key; else only those keys (unknown keys are left out, as Kafka does).
- Unknown topics -> UNKNOWN_TOPIC_OR_PARTITION; a broker resource must name the answering node
  (or "" for the cluster-wide defaults), else INVALID_REQUEST.
- Sensitive values are null with is_sensitive=true; synonyms only when include_synonyms.

Version notes: v1 synonyms and sources; v3 config type and documentation; v4 flexible.
"""

from __future__ import annotations

from typing import Any

from kcli.sandbox.authorizer import CLUSTER, CLUSTER_NAME, DESCRIBE_CONFIGS, TOPIC
from kcli.sandbox.configdefs import TOPIC as TOPIC_RESOURCE
from kcli.sandbox.configview import ConfigProblem, describe
from kcli.sandbox.context import ZERO, RequestContext
from kcli.sandbox.registry import api

TOPIC_AUTHORIZATION_FAILED, CLUSTER_AUTHORIZATION_FAILED = 29, 31


@api(32, "describe_configs", (1, 4))
async def handle_describe_configs(ctx: RequestContext, request: Any) -> Any:
    """Describe configs."""
    results = []
    for resource in request.resources:
        code, message, entries = 0, None, []
        if resource.resource_type == TOPIC_RESOURCE and not ctx.authorize(
            DESCRIBE_CONFIGS, TOPIC, resource.resource_name
        ):
            code, message = TOPIC_AUTHORIZATION_FAILED, "Authorization failed."
        elif resource.resource_type != TOPIC_RESOURCE and not ctx.authorize(
            DESCRIBE_CONFIGS, CLUSTER, CLUSTER_NAME
        ):
            code, message = CLUSTER_AUTHORIZATION_FAILED, "Authorization failed."
        else:
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
                name=e.name,
                value=e.value,
                read_only=e.read_only,
                config_source=e.source,
                is_sensitive=e.sensitive,
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
            ctx.r(
                "DescribeConfigsResult",
                error_code=code,
                error_message=message,
                resource_type=resource.resource_type,
                resource_name=resource.resource_name,
                configs=configs,
            )
        )
    return ctx.r("DescribeConfigsResponse", throttle_time=ZERO, results=tuple(results))
