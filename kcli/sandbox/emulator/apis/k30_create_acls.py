"""CreateAcls (30), versions 1-3: add ACL bindings (AccessControlEntryRecords).

Behavior:
- Without --authorizer: SECURITY_DISABLED (no authorizer is configured), as Kafka answers.
- Auth: ALTER on the cluster, else CLUSTER_AUTHORIZATION_FAILED per creation.
- Validation per binding: a concrete resource type, LITERAL or PREFIXED pattern, a concrete
  operation and ALLOW/DENY, a `Type:name` principal, and `kafka-cluster` as the cluster's name;
  else INVALID_REQUEST. A binding that already exists succeeds without a new record.
- Brokers forward it to the active controller in an Envelope (KIP-590).
"""

from __future__ import annotations

import uuid
from typing import Any

from kio.schema.errors import ErrorCode

from kcli.kafka import CLUSTER_NAME, AclOperation, ApiKey, PatternType, PermissionType, ResourceType
from kcli.metadata import records as _records
from kcli.sandbox.emulator.context import ZERO, RequestContext
from kcli.sandbox.emulator.registry import api

R: Any = _records

# A binding names one concrete resource type (not UNKNOWN or the ANY of filters).
_SPECIFIC_RESOURCE_TYPES = frozenset(kind for kind in ResourceType if kind > ResourceType.ANY)


def binding_problem(
    resource_type: int, name: str, pattern: int, principal: str, operation: int, permission: int
) -> str | None:
    """Why a binding cannot be stored (None when it can)."""
    if resource_type not in _SPECIFIC_RESOURCE_TYPES:
        return "Invalid resource type"
    if pattern not in (PatternType.LITERAL, PatternType.PREFIXED):
        return "Invalid pattern type"
    if not AclOperation.ALL <= operation <= max(AclOperation):
        return "Invalid operation"
    if permission not in (PermissionType.ALLOW, PermissionType.DENY):
        return "Invalid permission type"
    if ":" not in principal or not principal.split(":", 1)[0]:
        return f"Could not parse principal from `{principal}` (no colon is present separating the principal type from the principal name)"
    if resource_type == ResourceType.CLUSTER and name != CLUSTER_NAME:
        return "The only valid name for the CLUSTER resource is kafka-cluster"
    if not name:
        return "Resource name must not be empty"
    return None


@api(ApiKey.CREATE_ACLS, (1, 3), forward=True)
async def handle_create_acls(ctx: RequestContext, request: Any) -> Any:
    """Create ACLs."""
    if not ctx.cluster.settings.authorizer:
        results = [
            ctx.r(
                "AclCreationResult",
                error_code=ErrorCode.security_disabled,
                error_message="No Authorizer is configured.",
            )
            for _ in request.creations
        ]
        return ctx.r("CreateAclsResponse", throttle_time=ZERO, results=tuple(results))
    allowed = ctx.authorize(AclOperation.ALTER, ResourceType.CLUSTER, CLUSTER_NAME)
    existing = {
        (
            a.resource_type,
            a.resource_name,
            a.pattern_type,
            a.principal,
            a.host,
            a.operation,
            a.permission_type,
        )
        for a in ctx.cluster.image.acls.values()
    }
    results = []
    records: list[Any] = []
    for c in request.creations:
        if not allowed:
            results.append(
                ctx.r(
                    "AclCreationResult",
                    error_code=ErrorCode.cluster_authorization_failed,
                    error_message="Authorization failed.",
                )
            )
            continue
        problem = binding_problem(
            c.resource_type,
            c.resource_name,
            c.resource_pattern_type,
            c.principal,
            c.operation,
            c.permission_type,
        )
        if problem:
            results.append(
                ctx.r("AclCreationResult", error_code=ErrorCode.invalid_request, error_message=problem)
            )
            continue
        key = (
            c.resource_type,
            c.resource_name,
            c.resource_pattern_type,
            c.principal,
            c.host,
            c.operation,
            c.permission_type,
        )
        if key not in existing:
            existing.add(key)
            records.append(
                R.AccessControlEntryRecord(
                    id=uuid.uuid4(),
                    resource_type=c.resource_type,
                    resource_name=c.resource_name,
                    pattern_type=c.resource_pattern_type,
                    principal=c.principal,
                    host=c.host,
                    operation=c.operation,
                    permission_type=c.permission_type,
                )
            )
        results.append(ctx.r("AclCreationResult", error_code=0, error_message=None))
    await ctx.cluster.commit(records)
    return ctx.r("CreateAclsResponse", throttle_time=ZERO, results=tuple(results))
