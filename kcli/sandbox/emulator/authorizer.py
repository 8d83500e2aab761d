"""The sandbox's StandardAuthorizer: ACL matching as Kafka does it (KIP-290 prefixes, DENY wins).

Behavior:
- Super users (super.users) may do everything.
- An ACL applies when its resource type matches and its pattern does: LITERAL (exact, or the `*`
  wildcard name) or PREFIXED (name starts with it); its principal is the caller or `User:*`; its
  host is the caller's or `*`; its operation is the one asked, ALL, or one that implies it
  (READ/WRITE/DELETE/ALTER imply DESCRIBE, ALTER_CONFIGS implies DESCRIBE_CONFIGS).
- A matching DENY wins over any ALLOW; with no matching ALLOW the answer is no
  (allow.everyone.if.no.acl.found=false).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kcli.kafka import (
    SUPPORTED_OPERATIONS,
    WILDCARD,
    AclOperation,
    PatternType,
    PermissionType,
)

if TYPE_CHECKING:
    from kcli.sandbox.emulator.view import ClusterView

_IMPLIES: dict[int, tuple[AclOperation, ...]] = {
    AclOperation.DESCRIBE: (AclOperation.READ, AclOperation.WRITE, AclOperation.DELETE, AclOperation.ALTER),
    AclOperation.DESCRIBE_CONFIGS: (AclOperation.ALTER_CONFIGS,),
}


def _resource_matches(acl: Any, resource_type: int, name: str) -> bool:
    if acl.resource_type != resource_type:
        return False
    if acl.pattern_type == PatternType.LITERAL:
        return acl.resource_name in (name, WILDCARD)
    if acl.pattern_type == PatternType.PREFIXED:
        return name.startswith(acl.resource_name)
    return False


def _operation_matches(acl_operation: int, operation: int, permission: int) -> bool:
    if acl_operation in (AclOperation.ALL, operation):
        return True
    # implication applies to ALLOW entries only: a DENY READ does not deny DESCRIBE
    return permission == PermissionType.ALLOW and acl_operation in _IMPLIES.get(operation, ())


def authorize(
    cluster: ClusterView, principal: str, host: str, operation: int, resource_type: int, name: str
) -> bool:
    """Whether `principal` from `host` may do `operation` on (resource_type, name)."""
    if principal in cluster.settings.super_users:
        return True
    allowed = False
    for acl in cluster.image.acls.values():
        if not _resource_matches(acl, resource_type, name):
            continue
        if acl.principal not in (principal, "User:*") or acl.host not in (host, WILDCARD):
            continue
        if not _operation_matches(acl.operation, operation, acl.permission_type):
            continue
        if acl.permission_type == PermissionType.DENY:
            return False
        if acl.permission_type == PermissionType.ALLOW:
            allowed = True
    return allowed


def authorized_operations(ctx: Any, resource_type: int, name: str) -> int:
    """The bit field of operations the caller may do on the resource (KIP-430)."""
    bits = 0
    for operation in SUPPORTED_OPERATIONS.get(resource_type, ()):
        if ctx.authorize(operation, resource_type, name):
            bits |= 1 << operation
    return bits


def filter_matches(acl: Any, f: Any) -> bool:
    """Whether ACL binding `acl` matches a Describe/DeleteAcls filter (ANY and MATCH semantics)."""
    if f.resource_type_filter not in (1, acl.resource_type):
        return False
    pattern = f.pattern_type_filter
    name = f.resource_name_filter
    if pattern == PatternType.MATCH:
        if name is not None:
            if acl.pattern_type == PatternType.LITERAL and acl.resource_name not in (name, WILDCARD):
                return False
            if acl.pattern_type == PatternType.PREFIXED and not name.startswith(acl.resource_name):
                return False
    else:
        if pattern not in (PatternType.ANY, acl.pattern_type):
            return False
        if name is not None and acl.resource_name != name:
            return False
    if f.principal_filter is not None and acl.principal != f.principal_filter:
        return False
    if f.host_filter is not None and acl.host != f.host_filter:
        return False
    if f.operation not in (AclOperation.ANY, acl.operation):
        return False
    return f.permission_type in (PermissionType.ANY, acl.permission_type)
