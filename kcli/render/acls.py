"""`kcli acls` output: kafka-acls.sh (4.x) text, JSON and rich tables, as pure functions of results.

Line shapes (B = backtick): list  "Current ACLs for resource B<pattern>B:" + TAB entries + blank line;
add "Adding ACLs for resource B<pattern>B: " + " " TAB entries + blank line; remove prompts likewise.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from kcli.ops.acls import (
    AccessControlEntry,
    AclBinding,
    AclBindingFilter,
    AclPlan,
    ResourcePattern,
    ResourcePatternFilter,
    binding_to_json,
    export_document,
    group_by_resource,
)

if TYPE_CHECKING:
    from rich.console import RenderableType


def _tabbed(entries: Iterable[object]) -> list[str]:
    return ["\t" + str(e) for e in entries]


def current_lines(pattern: ResourcePattern, entries: Sequence[AccessControlEntry]) -> list[str]:
    """One resource of --list: header, TAB-indented entries, blank line."""
    return [f"Current ACLs for resource `{pattern}`:", *_tabbed(entries), ""]


def adding_lines(pattern: ResourcePattern, entries: Sequence[AccessControlEntry]) -> list[str]:
    body = _tabbed(entries)
    if body:
        body[0] = " " + body[0]
    return [f"Adding ACLs for resource `{pattern}`: ", *body, ""]


def already_exists_line(binding: AclBinding) -> str:
    return f"Acl {binding} already exists."


def remove_prompt(resource_filter: ResourcePatternFilter, filters: Sequence[AclBindingFilter]) -> str:
    """The y/n question kafka-acls.sh asks before deleting (entries given, or all for the filter)."""
    entries = [f.entry for f in filters if f.entry != AclBindingFilter().entry]
    if not entries:
        return f"Are you sure you want to delete all ACLs for resource filter `{resource_filter}`? (y/n)"
    body = _tabbed(entries)
    body[0] = " " + body[0]
    return (
        "Are you sure you want to remove ACLs: \n"
        + "\n".join(body)
        + f"\n from resource filter `{resource_filter}`? (y/n)"
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class AclListing:
    """Bindings found by DescribeAcls, optionally viewed per principal (--principal)."""

    bindings: tuple[AclBinding, ...]
    principals: tuple[str, ...] = ()


def list_text(listing: AclListing) -> Iterator[str]:
    if not listing.principals:
        for pattern, entries in group_by_resource(listing.bindings).items():
            yield from current_lines(pattern, entries)
        return
    for principal in listing.principals:
        yield f"ACLs for principal `{principal}`"
        mine = [b for b in listing.bindings if b.entry.principal == principal]
        for pattern, entries in group_by_resource(mine).items():
            yield from current_lines(pattern, entries)


def list_json(listing: AclListing) -> dict[str, Any]:
    bindings = listing.bindings
    if listing.principals:
        bindings = tuple(b for b in bindings if b.entry.principal in listing.principals)
    return {"acls": export_document(bindings)["acls"]}


def bindings_table(bindings: Iterable[AclBinding], title: str = "ACLs") -> RenderableType:
    from rich.table import Table

    table = Table(title=title)
    for column in ("Resource type", "Name", "Pattern", "Principal", "Host", "Operation", "Permission"):
        table.add_column(column)
    for binding in sorted(set(bindings)):
        row = binding_to_json(binding)
        table.add_row(
            row["resourceType"],
            row["name"],
            row["patternType"],
            row["principal"],
            row["host"],
            row["operation"],
            row["permissionType"],
        )
    return table


def list_table(listing: AclListing) -> RenderableType:
    bindings = listing.bindings
    if listing.principals:
        bindings = tuple(b for b in bindings if b.entry.principal in listing.principals)
    return bindings_table(bindings)


def plan_text(plan: AclPlan, *, prune: bool, dry_run: bool) -> Iterator[str]:
    """What an --import did (or would do)."""
    verb = "Would create" if dry_run else "Creating"
    yield f"{len(plan.present)} ACL binding(s) already present, {len(plan.create)} to create, {len(plan.extra)} not in the file."
    for binding in plan.create:
        yield f"{verb} {binding}"
    for binding in plan.extra:
        if prune:
            yield f"{'Would remove' if dry_run else 'Removing'} {binding}"
        else:
            yield f"Not in the file (kept; --prune removes it): {binding}"


def plan_json(
    plan: AclPlan, *, prune: bool, dry_run: bool, errors: Mapping[AclBinding, str] | None = None
) -> dict[str, Any]:
    failed = errors or {}
    return {
        "dry_run": dry_run,
        "prune": prune,
        "create": [binding_to_json(b) | {"error": failed.get(b)} for b in plan.create],
        "present": [binding_to_json(b) for b in plan.present],
        "extra": [
            binding_to_json(b) | {"removed": prune and not dry_run and b not in failed} for b in plan.extra
        ],
    }
