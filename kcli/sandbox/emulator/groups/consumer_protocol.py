"""The embedded consumer protocol of classic groups: what the coordinator reads of a subscription.

A classic consumer's JoinGroup metadata is a ConsumerProtocolSubscription prefixed with its version;
every version starts with the subscribed topics, which is all the coordinator reads (Kafka's
ClassicGroup.computeSubscribedTopics reads it at version 0 whatever the version is).
"""

from __future__ import annotations

import struct

_SHORT = struct.Struct(">h")
_INT = struct.Struct(">i")


class ProtocolError(Exception):
    """Metadata that is not a consumer protocol subscription."""


def subscription_topics(metadata: bytes) -> list[str]:
    """The topics of a version-prefixed ConsumerProtocolSubscription."""
    try:
        position = _SHORT.size  # the version
        (count,) = _INT.unpack_from(metadata, position)
        position += _INT.size
        if count < 0 or count * _SHORT.size > len(metadata) - position:
            raise ProtocolError(f"a subscription claiming {count} topics")
        topics = []
        for _ in range(count):
            (length,) = _SHORT.unpack_from(metadata, position)
            position += _SHORT.size
            if length < 0 or position + length > len(metadata):
                raise ProtocolError("a topic name past the end of the subscription")
            topics.append(metadata[position : position + length].decode("utf-8"))
            position += length
    except (struct.error, UnicodeDecodeError) as error:
        raise ProtocolError(f"a subscription that does not parse: {error}") from None
    return topics


def encode_subscription(topics: list[str], version: int = 0) -> bytes:
    """A version-prefixed subscription of `topics` (no user data, no owned partitions)."""
    out = bytearray(_SHORT.pack(version) + _INT.pack(len(topics)))
    for topic in topics:
        raw = topic.encode("utf-8")
        out += _SHORT.pack(len(raw)) + raw
    out += _INT.pack(-1)  # user data: null
    if version >= 1:
        out += _INT.pack(0)  # owned partitions
    if version >= 2:
        out += _INT.pack(-1)  # generation id
    if version >= 3:
        out += _SHORT.pack(-1)  # rack id: null
    return bytes(out)
