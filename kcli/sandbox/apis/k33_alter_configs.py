"""AlterConfigs (33), versions 0-2: the legacy whole-set replacement of a resource's dynamic configs.

Behavior:
- The given keys replace every dynamic key of the resource (keys not given are deleted).
- Auth, validation and forwarding as IncrementalAlterConfigs.

Version notes: v2 flexible.
"""

from __future__ import annotations

from typing import Any

from kcli.kafka import ApiKey
from kcli.sandbox.apis.k44_incremental_alter_configs import authorize_alter, resource_result
from kcli.sandbox.configview import ConfigProblem, replace_records
from kcli.sandbox.context import ZERO, RequestContext
from kcli.sandbox.registry import api


@api(ApiKey.ALTER_CONFIGS, (0, 2), forward=True)
async def handle_alter_configs(ctx: RequestContext, request: Any) -> Any:
    """Replace configs."""
    results = []
    records: list[Any] = []
    for resource in request.resources:
        code, message = authorize_alter(ctx, resource.resource_type, resource.resource_name)
        if not code:
            values = {c.name: c.value for c in resource.configs}
            try:
                records.extend(
                    replace_records(ctx.cluster, resource.resource_type, resource.resource_name, values)
                )
            except ConfigProblem as problem:
                code, message = problem.code, problem.message
        results.append(resource_result(ctx, "AlterConfigsResourceResponse", resource, code, message))
    if records and not request.validate_only:
        await ctx.cluster.commit(records)
    return ctx.r("AlterConfigsResponse", throttle_time=ZERO, responses=tuple(results))
