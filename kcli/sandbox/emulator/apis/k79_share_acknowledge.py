"""ShareAcknowledge (79), versions 1-2: a share group's acknowledgements, refused as by a broker with the feature off.

Behavior: answered as a Kafka 4.4.0 broker whose share.version and streams.version are 0 answers
(kcli.sandbox.emulator.groups_off): the emulator keeps no share or streams groups.
"""

from __future__ import annotations

from typing import Any

from kcli.kafka import ApiKey
from kcli.sandbox.emulator import groups_off
from kcli.sandbox.emulator.context import RequestContext
from kcli.sandbox.emulator.registry import Listener, api


@api(ApiKey.SHARE_ACKNOWLEDGE, (1, 2), listeners=Listener.BROKER)
async def handle_share_acknowledge(ctx: RequestContext, request: Any) -> Any:
    """Refuse, as a broker without share (streams) groups does."""
    return ctx.answer(
        "ShareAcknowledgeResponse", groups_off.UNSUPPORTED, None, responses=(), node_endpoints=()
    )
