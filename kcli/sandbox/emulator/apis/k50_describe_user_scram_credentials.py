"""DescribeUserScramCredentials (50), version 0: mechanisms and iterations of users' SCRAM credentials.

Behavior:
- Auth: DESCRIBE on the cluster, else CLUSTER_AUTHORIZATION_FAILED (top level).
- Users null or empty -> every user with a credential; a named user without one -> RESOURCE_NOT_FOUND;
  a user named twice -> DUPLICATE_RESOURCE. Salts and keys are never returned.
- A controller advertises it (the schema lists the controller) but has no handler, as in Kafka 4.4:
  it answers UNKNOWN_SERVER_ERROR, with one nameless UNKNOWN_SERVER_ERROR result per named user,
  and to a request for every user (null) nothing at all (Kafka fails building that error answer),
  so the connection waits until the node stops.
"""

from __future__ import annotations

from typing import Any

from kio.schema.errors import ErrorCode

from kcli.kafka import CLUSTER_NAME, AclOperation, ApiKey, ResourceType
from kcli.sandbox.emulator.context import RequestContext
from kcli.sandbox.emulator.registry import api


@api(ApiKey.DESCRIBE_USER_SCRAM_CREDENTIALS, (0, 0))
async def handle_describe_user_scram_credentials(ctx: RequestContext, request: Any) -> Any:
    """Describe SCRAM credentials."""
    if not ctx.node.is_broker:
        return await _controller_answer(ctx, request)
    if not ctx.authorize(AclOperation.DESCRIBE, ResourceType.CLUSTER, CLUSTER_NAME):
        return ctx.refuse_cluster("DescribeUserScramCredentialsResponse", results=())
    by_user: dict[str, list[Any]] = {}
    for credential in ctx.cluster.image.scram.values():
        by_user.setdefault(credential.name, []).append(credential)
    names = [u.name for u in request.users] if request.users else sorted(by_user)
    results = []
    for name in names:
        if names.count(name) > 1:
            code, message, infos = (
                ErrorCode.duplicate_resource,
                f"Cannot describe SCRAM credentials for the same user twice in a single request: {name}",
                (),
            )
        elif name not in by_user:
            code, message, infos = (
                ErrorCode.resource_not_found,
                f"Attempt to describe a user credential that does not exist: {name}",
                (),
            )
        else:
            code, message = ErrorCode.none, None
            infos = tuple(
                ctx.r("CredentialInfo", mechanism=c.mechanism, iterations=c.iterations)
                for c in sorted(by_user[name], key=lambda c: c.mechanism)
            )
        results.append(
            ctx.r(
                "DescribeUserScramCredentialsResult",
                user=name,
                error_code=code,
                error_message=message,
                credential_infos=infos,
            )
        )
    return ctx.answer("DescribeUserScramCredentialsResponse", 0, None, results=tuple(results))


async def _controller_answer(ctx: RequestContext, request: Any) -> Any:
    """What a Kafka 4.4 controller answers: the error answer of an API it does not handle."""
    import asyncio

    from kcli.sandbox.emulator import wire

    if request.users is None:
        while ctx.node.running:
            await asyncio.sleep(0.5)
        raise wire.FrameError("DescribeUserScramCredentials with every user: a controller never answers it")
    results = tuple(
        ctx.r(
            "DescribeUserScramCredentialsResult",
            user="",
            error_code=ErrorCode.unknown_server_error,
            error_message=None,
            credential_infos=(),
        )
        for _ in request.users
    )
    return ctx.answer(
        "DescribeUserScramCredentialsResponse", ErrorCode.unknown_server_error, None, results=results
    )
