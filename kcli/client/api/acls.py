"""ACL RPCs: DescribeAcls (29), CreateAcls (30), DeleteAcls (31).

Behavior:
- DescribeAcls takes one binding filter per request; several filters are sent concurrently and
  the bindings merged without duplicates.
- CreateAcls sends every binding in one request and expects one result per binding, in order. A
  reply with a different number of results is malformed (tansu 0.6.0 sends none at all): that is a
  clear error naming the server, not a hang and not a silent success.
- DeleteAcls sends every filter in one request; each filter result lists the bindings it removed.
- Writes go to the active controller with --bootstrap-controller (KIP-919) and to any broker
  otherwise (which forwards them, KIP-590).
Version notes: all three v1-v3 (Kafka 4.x dropped v0; v1 added pattern types, v2 is flexible).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from kcli.client.api.wire import CallStats, make, nested, request_cls, resource_error
from kcli.errors import KcliError
from kcli.kafka import AclOperation, ApiKey, PatternType, PermissionType, ResourceType
from kcli.ops.acls import AccessControlEntry, AclBinding, AclBindingFilter, ResourcePattern
from kcli.ops.resource_error import ResourceError

if TYPE_CHECKING:
    from kcli.client.admin import Admin, Target

VERSIONS = (1, 3)


class MalformedReply(KcliError):
    """The server answered, but not with what the request asks for (e.g. too few results)."""


def _enum(kind: type[Any], value: int) -> Any:
    try:
        return kind(int(value))
    except ValueError:
        return kind(0)


def _binding(resource_type: int, name: str, pattern_type: int, acl: Any) -> AclBinding:
    return AclBinding(
        pattern=ResourcePattern(
            resource_type=_enum(ResourceType, resource_type),
            name=name,
            pattern_type=_enum(PatternType, pattern_type),
        ),
        entry=AccessControlEntry(
            principal=acl.principal,
            host=acl.host,
            operation=_enum(AclOperation, acl.operation),
            permission_type=_enum(PermissionType, acl.permission_type),
        ),
    )


def _filter_fields(f: AclBindingFilter) -> dict[str, Any]:
    from kio.static.primitive import i8

    return {
        "resource_type_filter": i8(int(f.pattern.resource_type)),
        "resource_name_filter": f.pattern.name,
        "pattern_type_filter": i8(int(f.pattern.pattern_type)),
        "principal_filter": f.entry.principal,
        "host_filter": f.entry.host,
        "operation": i8(int(f.entry.operation)),
        "permission_type": i8(int(f.entry.permission_type)),
    }


async def _send(
    admin: Admin, key: ApiKey, build: Callable[[int], Any], stats: CallStats | None, *, target: Target
) -> Any:
    """One ACL request, counted in `stats` under its API name."""
    from kcli.client.protocol import api_name

    if stats is not None:
        stats.count(api_name(key))
    return await admin.call(key, build, versions=VERSIONS, target=target)


async def describe_acls(
    admin: Admin, filters: Sequence[AclBindingFilter], *, stats: CallStats | None = None
) -> tuple[AclBinding, ...]:
    """Every binding matching any of `filters` (server-side matching), sorted, without duplicates."""
    from kcli.client.admin import Target
    from kcli.client.errors import check

    async def one(f: AclBindingFilter) -> list[AclBinding]:
        def build(version: int) -> Any:
            return make(request_cls("describe_acls", version), **_filter_fields(f))

        response = await _send(admin, ApiKey.DESCRIBE_ACLS, build, stats, target=Target.ANY)
        check(int(response.error_code), response.error_message, what="DescribeAcls")
        return [
            _binding(r.resource_type, r.resource_name, getattr(r, "pattern_type", 3), acl)
            for r in response.resources
            for acl in r.acls
        ]

    found = await asyncio.gather(*(one(f) for f in dict.fromkeys(filters)))
    return tuple(sorted({b for part in found for b in part}))


async def create_acls(
    admin: Admin, bindings: Sequence[AclBinding], *, stats: CallStats | None = None
) -> list[ResourceError | None]:
    """Create `bindings` in one request; the per-binding errors, in order."""
    from kio.static.primitive import i8

    from kcli.client.admin import Target

    if not bindings:
        return []

    def build(version: int) -> Any:
        cls = request_cls("create_acls", version)
        creation = nested(cls, "AclCreation")
        return cls(
            creations=tuple(
                make(
                    creation,
                    resource_type=i8(int(b.pattern.resource_type)),
                    resource_name=b.pattern.name,
                    resource_pattern_type=i8(int(b.pattern.pattern_type)),
                    principal=b.entry.principal,
                    host=b.entry.host,
                    operation=i8(int(b.entry.operation)),
                    permission_type=i8(int(b.entry.permission_type)),
                )
                for b in bindings
            )
        )

    response = await _send(admin, ApiKey.CREATE_ACLS, build, stats, target=Target.CONTROLLER)
    results = response.results or ()
    if len(results) != len(bindings):
        raise MalformedReply(
            f"CreateAcls: malformed reply from the server: {len(results)} result(s) for {len(bindings)} ACL(s); "
            "it is unknown which ACLs were created",
            hint="list them with kcli acls --list; this server does not implement CreateAcls correctly",
        )
    return [resource_error(int(r.error_code), r.error_message) for r in results]


@dataclass(frozen=True, slots=True, kw_only=True)
class DeleteResult:
    """What one deletion filter removed, or why it failed."""

    filter: AclBindingFilter
    deleted: tuple[AclBinding, ...] = ()
    error: ResourceError | None = None


async def delete_acls(
    admin: Admin, filters: Sequence[AclBindingFilter], *, stats: CallStats | None = None
) -> list[DeleteResult]:
    """Delete every binding matching each filter (one request); per-filter results, in order."""
    from kcli.client.admin import Target

    if not filters:
        return []

    def build(version: int) -> Any:
        cls = request_cls("delete_acls", version)
        filter_cls = nested(cls, "DeleteAclsFilter")
        return cls(filters=tuple(make(filter_cls, **_filter_fields(f)) for f in filters))

    response = await _send(admin, ApiKey.DELETE_ACLS, build, stats, target=Target.CONTROLLER)
    results = response.filter_results or ()
    if len(results) != len(filters):
        raise MalformedReply(
            f"DeleteAcls: malformed reply from the server: {len(results)} result(s) for {len(filters)} filter(s)",
            hint="list the ACLs with kcli acls --list to see what was removed",
        )
    out = []
    for f, result in zip(filters, results, strict=True):
        error = resource_error(int(result.error_code), result.error_message)
        deleted = tuple(
            _binding(m.resource_type, m.resource_name, getattr(m, "pattern_type", 3), m)
            for m in result.matching_acls
            if int(m.error_code) == 0
        )
        failed = [m for m in result.matching_acls if int(m.error_code) != 0]
        if error is None and failed:
            error = resource_error(int(failed[0].error_code), failed[0].error_message)
        out.append(DeleteResult(filter=f, deleted=deleted, error=error))
    return out
