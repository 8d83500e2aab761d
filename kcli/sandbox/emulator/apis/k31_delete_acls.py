"""DeleteAcls (31), versions 1-3: remove the ACL bindings matching each filter.

Behavior:
- Without --authorizer: SECURITY_DISABLED per filter.
- Auth: ALTER on the cluster, else CLUSTER_AUTHORIZATION_FAILED per filter.
- Each filter reports the bindings it removed (a binding matched by two filters is removed once,
  reported by both); one RemoveAccessControlEntryRecord per removed binding.
- Brokers forward it to the active controller in an Envelope (KIP-590).
"""

from __future__ import annotations

from typing import Any

from kio.schema.errors import ErrorCode

from kcli.kafka import CLUSTER_NAME, AclOperation, ApiKey, ResourceType
from kcli.metadata import records as _records
from kcli.sandbox.emulator.authorizer import filter_matches
from kcli.sandbox.emulator.context import ZERO, RequestContext
from kcli.sandbox.emulator.registry import api

R: Any = _records


@api(ApiKey.DELETE_ACLS, (1, 3), forward=True)
async def handle_delete_acls(ctx: RequestContext, request: Any) -> Any:
    """Delete ACLs."""
    enabled = ctx.cluster.settings.authorizer
    allowed = enabled and ctx.authorize(AclOperation.ALTER, ResourceType.CLUSTER, CLUSTER_NAME)
    removed: dict[Any, Any] = {}
    results = []
    for f in request.filters:
        if not enabled or not allowed:
            code = ErrorCode.security_disabled if not enabled else ErrorCode.cluster_authorization_failed
            message = "No Authorizer is configured." if not enabled else "Authorization failed."
            results.append(
                ctx.r("DeleteAclsFilterResult", error_code=code, error_message=message, matching_acls=())
            )
            continue
        matching = [a for a in ctx.cluster.image.acls.values() if filter_matches(a, f)]
        for acl in matching:
            removed[acl.acl_id] = acl
        results.append(
            ctx.r(
                "DeleteAclsFilterResult",
                error_code=0,
                error_message=None,
                matching_acls=tuple(
                    ctx.r(
                        "DeleteAclsMatchingAcl",
                        error_code=0,
                        error_message=None,
                        resource_type=a.resource_type,
                        resource_name=a.resource_name,
                        pattern_type=a.pattern_type,
                        principal=a.principal,
                        host=a.host,
                        operation=a.operation,
                        permission_type=a.permission_type,
                    )
                    for a in matching
                ),
            )
        )
    await ctx.cluster.commit([R.RemoveAccessControlEntryRecord(id=acl_id) for acl_id in removed])
    return ctx.r("DeleteAclsResponse", throttle_time=ZERO, filter_results=tuple(results))
