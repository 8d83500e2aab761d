"""AlterConfigs (33), versions 0-2: the legacy whole-set replacement of a resource's dynamic configs.

Behavior:
- The given keys replace every dynamic key of the resource (keys not given are deleted).
- Checks, auth and forwarding as IncrementalAlterConfigs (the receiving broker checks broker
  resources, the controller the rest); BROKER_LOGGER is not a resource of this API.

Version notes: v2 flexible.
"""

from __future__ import annotations

from typing import Any

from kcli.kafka import ApiKey
from kcli.sandbox.emulator.apis.k44_incremental_alter_configs import alter
from kcli.sandbox.emulator.context import ZERO, RequestContext
from kcli.sandbox.emulator.registry import api


@api(ApiKey.ALTER_CONFIGS, (0, 2), forward=True, forwards_itself=True)
async def handle_alter_configs(ctx: RequestContext, request: Any) -> Any:
    """Replace configs."""
    responses = await alter(ctx, request, legacy=True)
    return ctx.r("AlterConfigsResponse", throttle_time=ZERO, responses=responses)
