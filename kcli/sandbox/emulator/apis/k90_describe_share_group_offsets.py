"""DescribeShareGroupOffsets (90), versions 0-1: a share group's start offsets, refused as by a broker with the feature off.

Behavior: answered as a Kafka 4.4.0 broker whose share.version and streams.version are 0 answers
(kcli.sandbox.emulator.groups_off): the emulator keeps no share or streams groups.
"""

from __future__ import annotations

from typing import Any

from kcli.kafka import ApiKey
from kcli.sandbox.emulator import groups_off
from kcli.sandbox.emulator.context import ZERO, RequestContext
from kcli.sandbox.emulator.registry import Listener, api


@api(ApiKey.DESCRIBE_SHARE_GROUP_OFFSETS, (0, 1), listeners=Listener.BROKER)
async def handle_describe_share_group_offsets(ctx: RequestContext, request: Any) -> Any:
    """Refuse, as a broker without share (streams) groups does."""
    groups = tuple(
        ctx.r(
            "DescribeShareGroupOffsetsResponseGroup",
            group_id=g.group_id,
            topics=(),
            error_code=groups_off.UNSUPPORTED,
            error_message=None,
        )
        for g in request.groups
    )
    return ctx.r("DescribeShareGroupOffsetsResponse", throttle_time=ZERO, groups=groups)
