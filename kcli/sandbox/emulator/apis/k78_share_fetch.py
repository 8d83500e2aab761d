"""ShareFetch (78), versions 1-2: records fetched for a share group, refused as by a broker with the feature off.

Behavior: answered as a Kafka 4.4.0 broker whose share.version and streams.version are 0 answers
(kcli.sandbox.emulator.groups_off): the emulator keeps no share or streams groups.
"""

from __future__ import annotations

from typing import Any

from kcli.kafka import ApiKey
from kcli.sandbox.emulator import groups_off
from kcli.sandbox.emulator.context import ZERO, RequestContext
from kcli.sandbox.emulator.registry import Listener, api


@api(ApiKey.SHARE_FETCH, (1, 2), listeners=Listener.BROKER)
async def handle_share_fetch(ctx: RequestContext, request: Any) -> Any:
    """Refuse, as a broker without share (streams) groups does."""
    return ctx.answer(
        "ShareFetchResponse",
        groups_off.UNSUPPORTED,
        None,
        acquisition_lock_timeout=ZERO,
        responses=(),
        node_endpoints=(),
    )
