"""`kcli acls` operations over an Admin: list, add, remove, export, import.

Each takes a connected Admin (passed in) plus validated values from kcli.ops.acls and returns
result values; the prompt for destructive steps is a callable the CLI supplies, so the decision
(TTY, --force) stays at the edge.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kcli.ops.acls import (
    AccessControlEntry,
    AclBinding,
    AclBindingFilter,
    AclPlan,
    ResourcePattern,
    ResourcePatternFilter,
    plan_import,
)
from kcli.ops.resource_error import ResourceError

if TYPE_CHECKING:
    from kcli.client.admin import Admin

Confirm = Callable[[str], bool]


@dataclass(frozen=True, slots=True, kw_only=True)
class AddResult:
    """What --add did: bindings already there, bindings created, per-binding failures."""

    present: tuple[AclBinding, ...]
    to_create: Mapping[ResourcePattern, tuple[AccessControlEntry, ...]]
    errors: Mapping[AclBinding, ResourceError]
    dry_run: bool = False


async def add(
    admin: Admin, wanted: Mapping[ResourcePattern, tuple[AccessControlEntry, ...]], *, dry_run: bool
) -> AddResult:
    """Create the wanted bindings that do not exist yet (Kafka ≥4.2 checks first), in one CreateAcls."""
    from kcli.client.api.acls import create_acls, describe_acls

    existing = set(await describe_acls(admin, [AclBindingFilter(pattern=p.to_filter()) for p in wanted]))
    present: list[AclBinding] = []
    to_create: dict[ResourcePattern, tuple[AccessControlEntry, ...]] = {}
    for pattern, entries in wanted.items():
        fresh = []
        for entry in entries:
            binding = AclBinding(pattern=pattern, entry=entry)
            if binding in existing:
                present.append(binding)
            else:
                fresh.append(entry)
        if fresh:
            to_create[pattern] = tuple(fresh)
    bindings = [AclBinding(pattern=p, entry=e) for p, es in to_create.items() for e in es]
    errors: dict[AclBinding, ResourceError] = {}
    if bindings and not dry_run:
        for binding, error in zip(bindings, await create_acls(admin, bindings), strict=True):
            if error is not None:
                errors[binding] = error
    return AddResult(present=tuple(present), to_create=to_create, errors=errors, dry_run=dry_run)


@dataclass(frozen=True, slots=True, kw_only=True)
class RemoveResult:
    """What --remove found per resource filter, what was confirmed, removed, and failed."""

    matched: Mapping[ResourcePatternFilter, tuple[AclBinding, ...]]
    removed: tuple[AclBinding, ...] = ()
    skipped: tuple[ResourcePatternFilter, ...] = ()
    errors: tuple[tuple[AclBindingFilter, ResourceError], ...] = ()
    dry_run: bool = False


async def matching(admin: Admin, filters: Sequence[AclBindingFilter]) -> tuple[AclBinding, ...]:
    """The bindings the cluster holds that match any filter (what a delete would remove)."""
    from kcli.client.api.acls import describe_acls

    found = await describe_acls(admin, [AclBindingFilter(pattern=f.pattern) for f in filters])
    return tuple(b for b in found if any(f.matches(b) for f in filters))


async def remove(
    admin: Admin,
    plan: Mapping[ResourcePatternFilter, tuple[AclBindingFilter, ...]],
    *,
    confirm: Callable[[ResourcePatternFilter, tuple[AclBindingFilter, ...], tuple[AclBinding, ...]], bool],
    dry_run: bool,
) -> RemoveResult:
    """Show what each resource filter matches, ask, then delete the confirmed ones in one DeleteAcls."""
    from kcli.client.api.acls import delete_acls

    matched: dict[ResourcePatternFilter, tuple[AclBinding, ...]] = {}
    confirmed: list[AclBindingFilter] = []
    skipped: list[ResourcePatternFilter] = []
    for resource_filter, filters in plan.items():
        matched[resource_filter] = await matching(admin, filters)
        if not matched[resource_filter] or dry_run:
            continue
        if confirm(resource_filter, filters, matched[resource_filter]):
            confirmed += filters
        else:
            skipped.append(resource_filter)
    removed: list[AclBinding] = []
    errors: list[tuple[AclBindingFilter, ResourceError]] = []
    if confirmed:
        for result in await delete_acls(admin, confirmed):
            removed += result.deleted
            if result.error is not None:
                errors.append((result.filter, result.error))
    return RemoveResult(
        matched=matched,
        removed=tuple(sorted(set(removed))),
        skipped=tuple(skipped),
        errors=tuple(errors),
        dry_run=dry_run,
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class ImportResult:
    plan: AclPlan
    errors: Mapping[AclBinding, str]
    pruned: bool
    dry_run: bool


async def import_bindings(
    admin: Admin,
    desired: Iterable[AclBinding],
    *,
    scope: Sequence[AclBindingFilter],
    prune: bool,
    dry_run: bool,
    confirm_prune: Callable[[tuple[AclBinding, ...]], bool],
) -> ImportResult:
    """Make the cluster hold `desired`: create the missing; with prune, remove extras after confirmation."""
    from kcli.client.api.acls import create_acls, delete_acls, describe_acls

    current = await describe_acls(admin, [AclBindingFilter(pattern=f.pattern) for f in scope])
    plan = plan_import(desired, current, scope=scope)
    errors: dict[AclBinding, str] = {}
    if dry_run:
        return ImportResult(plan=plan, errors=errors, pruned=False, dry_run=True)
    if plan.create:
        for binding, error in zip(plan.create, await create_acls(admin, plan.create), strict=True):
            if error is not None:
                errors[binding] = error.line()
    pruned = False
    if prune and plan.extra and confirm_prune(plan.extra):
        results = await delete_acls(admin, [b.to_filter() for b in plan.extra])
        for binding, result in zip(plan.extra, results, strict=True):
            if result.error is not None:
                errors[binding] = result.error.line()
        pruned = True
    return ImportResult(plan=plan, errors=errors, pruned=pruned, dry_run=False)
