"""DescribeUserScramCredentials (50), version 0: mechanisms and iterations of users' SCRAM credentials.

Behavior:
- Auth: DESCRIBE on the cluster, else CLUSTER_AUTHORIZATION_FAILED (top level).
- Users null or empty -> every user with a credential; a named user without one -> RESOURCE_NOT_FOUND;
  a user named twice -> DUPLICATE_RESOURCE. Salts and keys are never returned.
"""

from __future__ import annotations

from typing import Any

from kcli.sandbox.authorizer import CLUSTER, CLUSTER_NAME, DESCRIBE
from kcli.sandbox.context import ZERO, RequestContext
from kcli.sandbox.registry import api

CLUSTER_AUTHORIZATION_FAILED, RESOURCE_NOT_FOUND, DUPLICATE_RESOURCE = 31, 91, 92


@api(50, "describe_user_scram_credentials", (0, 0))
async def handle_describe_user_scram_credentials(ctx: RequestContext, request: Any) -> Any:
    """Describe SCRAM credentials."""
    if not ctx.authorize(DESCRIBE, CLUSTER, CLUSTER_NAME):
        return ctx.r(
            "DescribeUserScramCredentialsResponse",
            throttle_time=ZERO,
            error_code=CLUSTER_AUTHORIZATION_FAILED,
            error_message="Authorization failed.",
            results=(),
        )
    by_user: dict[str, list[Any]] = {}
    for credential in ctx.cluster.image.scram.values():
        by_user.setdefault(credential.name, []).append(credential)
    names = [u.name for u in request.users] if request.users else sorted(by_user)
    results = []
    for name in names:
        if names.count(name) > 1:
            code, message, infos = (
                DUPLICATE_RESOURCE,
                f"Cannot describe SCRAM credentials for the same user twice in a single request: {name}",
                (),
            )
        elif name not in by_user:
            code, message, infos = (
                RESOURCE_NOT_FOUND,
                f"Attempt to describe a user credential that does not exist: {name}",
                (),
            )
        else:
            code, message = 0, None
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
    return ctx.r(
        "DescribeUserScramCredentialsResponse",
        throttle_time=ZERO,
        error_code=0,
        error_message=None,
        results=tuple(results),
    )
