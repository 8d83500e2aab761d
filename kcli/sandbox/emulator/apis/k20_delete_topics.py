"""DeleteTopics (20), versions 1-6: remove topics by name or (v6) by id.

Behavior:
- Auth: DELETE on the topic, else TOPIC_AUTHORIZATION_FAILED.
- Unknown names -> UNKNOWN_TOPIC_OR_PARTITION; unknown ids -> UNKNOWN_TOPIC_ID; one RemoveTopicRecord each.
- Brokers forward it to the active controller in an Envelope (KIP-590).

Version notes: v5 error messages; v6 topic ids.
"""

from __future__ import annotations

import uuid
from typing import Any

from kio.schema.errors import ErrorCode

from kcli.kafka import AclOperation, ApiKey, ResourceType
from kcli.metadata import records as _records
from kcli.sandbox.emulator.context import ZERO, RequestContext
from kcli.sandbox.emulator.registry import api

# Record constructors take kio's phantom int types; plain ints are what they hold at runtime.
R: Any = _records

NULL_ID = uuid.UUID(int=0)


@api(ApiKey.DELETE_TOPICS, (1, 6), forward=True)
async def handle_delete_topics(ctx: RequestContext, request: Any) -> Any:
    """Delete topics."""
    image = ctx.cluster.image
    wanted: list[tuple[str | None, uuid.UUID | None]] = (
        [(t.name, t.topic_id) for t in request.topics]
        if ctx.version >= 6
        else [(n, None) for n in request.topic_names]
    )
    results = []
    records: list[Any] = []
    for name, topic_id in wanted:
        if name is None and topic_id is not None and topic_id != NULL_ID:
            topic = image.topics.get(topic_id)
            if topic is None:
                results.append(
                    _result(
                        ctx,
                        None,
                        topic_id,
                        ErrorCode.unknown_topic_id,
                        "This server does not host this topic ID.",
                    )
                )
                continue
        else:
            topic = image.topic(name or "")
            if not ctx.authorize(AclOperation.DELETE, ResourceType.TOPIC, name or ""):
                results.append(
                    _result(ctx, name, None, ErrorCode.topic_authorization_failed, "Authorization failed.")
                )
                continue
            if topic is None:
                results.append(
                    _result(
                        ctx,
                        name,
                        None,
                        ErrorCode.unknown_topic_or_partition,
                        "This server does not host this topic-partition.",
                    )
                )
                continue
        if not ctx.authorize(AclOperation.DELETE, ResourceType.TOPIC, topic.name):
            results.append(
                _result(
                    ctx,
                    topic.name,
                    topic.topic_id,
                    ErrorCode.topic_authorization_failed,
                    "Authorization failed.",
                )
            )
            continue
        records.append(R.RemoveTopicRecord(topic_id=topic.topic_id))
        results.append(_result(ctx, topic.name, topic.topic_id, 0, None))
    await ctx.cluster.commit(records)
    return ctx.r("DeleteTopicsResponse", throttle_time=ZERO, responses=tuple(results))


def _result(
    ctx: RequestContext, name: str | None, topic_id: uuid.UUID | None, code: int, message: str | None
) -> Any:
    return ctx.r(
        "DeletableTopicResult",
        name=name,
        topic_id=topic_id or NULL_ID,
        error_code=code,
        error_message=message,
    )
