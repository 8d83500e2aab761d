"""What a Kafka 4.4.0 broker with share.version and streams.version at 0 answers: the share group (KIP-932)
and streams group (KIP-1071) APIs, which the emulator advertises and refuses the way such a broker does.

Seen on a real 4.4.0 broker after `kafka-features.sh downgrade --feature share.version=0 --feature
streams.version=0`: ApiVersions still lists the APIs; the group and fetch APIs answer
UNSUPPORTED_VERSION (per group where the answer lists groups); the share state APIs, which brokers
send each other, check CLUSTER_ACTION and answer each partition NOT_COORDINATOR, "Unable to <verb>
share group state: This is not the correct coordinator."
"""

from __future__ import annotations

from typing import Any

from kio.schema.errors import ErrorCode

from kcli.kafka import CLUSTER_NAME, AclOperation, ResourceType

UNSUPPORTED = ErrorCode.unsupported_version
NO_OPERATIONS = -(2**31)


def refused_groups(ctx: Any, response: str, group_ids: Any, **values: Any) -> Any:
    """A describe answer: UNSUPPORTED_VERSION for every group."""
    groups = tuple(
        ctx.r(
            "DescribedGroup",
            error_code=UNSUPPORTED,
            error_message=None,
            group_id=g,
            group_state="",
            group_epoch=0,
            assignment_epoch=0,
            assignor_name="",
            members=(),
            topology=None,
            authorized_operations=NO_OPERATIONS,
        )
        for g in group_ids
    )
    return ctx.r(response, throttle_time=_zero(), groups=groups, **values)


def refused_state(ctx: Any, response: str, result: str, verb: str, request: Any) -> Any:
    """A share group state answer: NOT_COORDINATOR for every partition (CLUSTER_ACTION first)."""
    if not ctx.authorize(AclOperation.CLUSTER_ACTION, ResourceType.CLUSTER, CLUSTER_NAME):
        code, message = ErrorCode.cluster_authorization_failed, None
    else:
        code, message = ErrorCode.not_coordinator, f"Unable to {verb}: This is not the correct coordinator."
    results = tuple(
        ctx.r(
            result,
            topic_id=topic.topic_id,
            partitions=tuple(
                ctx.r(
                    "PartitionResult",
                    partition=p.partition,
                    error_code=code,
                    error_message=message,
                    state_epoch=0,
                    leader_epoch=0,
                    start_offset=0,
                    state_batches=(),
                )
                for p in topic.partitions
            ),
        )
        for topic in request.topics
    )
    return ctx.r(response, results=results)


def _zero() -> Any:
    from kcli.sandbox.emulator.context import ZERO

    return ZERO
