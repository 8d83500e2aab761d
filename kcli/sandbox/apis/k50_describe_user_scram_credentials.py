"""DescribeUserScramCredentials (50), version 0: mechanisms and iterations of users' SCRAM credentials.

Behavior:
- Auth: DESCRIBE on the cluster, else CLUSTER_AUTHORIZATION_FAILED (top level).
- Users null or empty -> every user with a credential; a named user without one -> RESOURCE_NOT_FOUND;
  a user named twice -> DUPLICATE_RESOURCE. Salts and keys are never returned.
"""

from __future__ import annotations

from typing import Any

from kio.schema.errors import ErrorCode

from kcli.kafka import CLUSTER_NAME, AclOperation, ApiKey, ResourceType
from kcli.sandbox.context import RequestContext
from kcli.sandbox.registry import api


@api(ApiKey.DESCRIBE_USER_SCRAM_CREDENTIALS, (0, 0))
async def handle_describe_user_scram_credentials(ctx: RequestContext, request: Any) -> Any:
    """Describe SCRAM credentials."""
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
