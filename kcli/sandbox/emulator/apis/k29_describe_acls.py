"""DescribeAcls (29), versions 1-3: the ACL bindings that match a filter, grouped by resource pattern.

Behavior:
- Without --authorizer: SECURITY_DISABLED.
- Auth: DESCRIBE on the cluster, else CLUSTER_AUTHORIZATION_FAILED.
- Filter semantics: ANY matches every value; MATCH matches the LITERAL, wildcard and PREFIXED
  patterns that would apply to the named resource; null name/principal/host match all.
"""

from __future__ import annotations

from typing import Any

from kio.schema.errors import ErrorCode

from kcli.kafka import CLUSTER_NAME, AclOperation, ApiKey, ResourceType
from kcli.sandbox.emulator.authorizer import filter_matches
from kcli.sandbox.emulator.context import RequestContext
from kcli.sandbox.emulator.registry import api


@api(ApiKey.DESCRIBE_ACLS, (1, 3))
async def handle_describe_acls(ctx: RequestContext, request: Any) -> Any:
    """Describe ACLs."""
    if not ctx.cluster.settings.authorizer:
        return ctx.answer(
            "DescribeAclsResponse", ErrorCode.security_disabled, "No Authorizer is configured.", resources=()
        )
    if not ctx.authorize(AclOperation.DESCRIBE, ResourceType.CLUSTER, CLUSTER_NAME):
        return ctx.refuse_cluster("DescribeAclsResponse", resources=())
    groups: dict[tuple[int, str, int], list[Any]] = {}
    for acl in ctx.cluster.image.acls.values():
        if filter_matches(acl, request):
            groups.setdefault((acl.resource_type, acl.resource_name, acl.pattern_type), []).append(acl)
    resources = tuple(
        ctx.r(
            "DescribeAclsResource",
            resource_type=resource_type,
            resource_name=name,
            pattern_type=pattern,
            acls=tuple(
                ctx.r(
                    "AclDescription",
                    principal=a.principal,
                    host=a.host,
                    operation=a.operation,
                    permission_type=a.permission_type,
                )
                for a in sorted(acls, key=lambda a: (a.principal, a.host, a.operation, a.permission_type))
            ),
        )
        for (resource_type, name, pattern), acls in sorted(groups.items())
    )
    return ctx.answer("DescribeAclsResponse", 0, None, resources=resources)
