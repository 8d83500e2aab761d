"""ListGroups (16), versions 0-5: the groups of the brokers' group coordinators.

Behavior:
- Brokers only. The sandbox runs no group coordinator (no member ever joins, no offset is committed),
  so a broker coordinates no group and the list is empty; group configs (ConfigResource GROUP) are
  independent of this and listed by ListConfigResources v1.
- States (v4) and types (v5) filters narrow an empty list: still empty.

Version notes: v1 throttle time; v3 flexible; v4 states filter and GroupState; v5 types filter and GroupType.
"""

from __future__ import annotations

from typing import Any

from kcli.kafka import ApiKey
from kcli.sandbox.emulator.context import RequestContext
from kcli.sandbox.emulator.registry import Listener, api


@api(ApiKey.LIST_GROUPS, (0, 5), listeners=Listener.BROKER)
async def handle_list_groups(ctx: RequestContext, request: Any) -> Any:
    """List the groups this broker coordinates."""
    return ctx.answer("ListGroupsResponse", 0, None, groups=())
