"""ShareGroupDescribe (77), versions 1-1: share groups described, refused as by a broker with the feature off.

Behavior: answered as a Kafka 4.4.0 broker whose share.version and streams.version are 0 answers
(kcli.sandbox.emulator.groups_off): the emulator keeps no share or streams groups.
"""

from __future__ import annotations

from typing import Any

from kcli.kafka import ApiKey
from kcli.sandbox.emulator import groups_off
from kcli.sandbox.emulator.context import RequestContext
from kcli.sandbox.emulator.registry import Listener, api


@api(ApiKey.SHARE_GROUP_DESCRIBE, (1, 1), listeners=Listener.BROKER)
async def handle_share_group_describe(ctx: RequestContext, request: Any) -> Any:
    """Refuse, as a broker without share (streams) groups does."""
    return groups_off.refused_groups(ctx, "ShareGroupDescribeResponse", request.group_ids)
