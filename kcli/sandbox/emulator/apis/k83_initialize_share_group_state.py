"""InitializeShareGroupState (83), versions 0-0: share partition state initialized, refused as by a broker with the feature off.

Behavior: answered as a Kafka 4.4.0 broker whose share.version and streams.version are 0 answers
(kcli.sandbox.emulator.groups_off): the emulator keeps no share or streams groups.
"""

from __future__ import annotations

from typing import Any

from kcli.kafka import ApiKey
from kcli.sandbox.emulator import groups_off
from kcli.sandbox.emulator.context import RequestContext
from kcli.sandbox.emulator.registry import Listener, api


@api(ApiKey.INITIALIZE_SHARE_GROUP_STATE, (0, 0), listeners=Listener.BROKER)
async def handle_initialize_share_group_state(ctx: RequestContext, request: Any) -> Any:
    """Refuse, as a broker without share (streams) groups does."""
    return groups_off.refused_state(
        ctx,
        "InitializeShareGroupStateResponse",
        "InitializeStateResult",
        "initialize share group state",
        request,
    )
