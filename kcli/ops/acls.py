"""ACL bindings and filters as kafka-acls.sh builds them, matching, and JSON export/import diffing.

Pure and wire-free. String forms are Kafka's (`ResourcePattern(...)`, `(principal=..., ...)`), so the
text output can keep kafka-acls.sh's line shapes. Option rules follow AclCommand (4.x); violations
raise UsageError naming the offending text.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import IntEnum
from typing import Any

from kcli.errors import UsageError
from kcli.kafka import (
    CLUSTER_NAME,
    SUPPORTED_OPERATIONS,
    WILDCARD,
    AclOperation,
    PatternType,
    PermissionType,
    ResourceType,
)

EXPORT_VERSION = 1


_CAMEL_SPLIT = re.compile(r"(?<=[a-z])(?=[A-Z])")


def parse_operation(text: str) -> AclOperation:
    """`Read`, `READ`, `read`, `DescribeConfigs` or `DESCRIBE_CONFIGS` (case-insensitive)."""
    raw = text.strip()
    candidates = {raw.upper(), _CAMEL_SPLIT.sub("_", raw).upper()}
    for candidate in candidates:
        if candidate in AclOperation.__members__ and candidate not in ("UNKNOWN", "ANY"):
            return AclOperation[candidate]
    squashed = raw.replace("_", "").upper()
    for op in AclOperation:
        if op.name.replace("_", "") == squashed and op not in (AclOperation.UNKNOWN, AclOperation.ANY):
            return op
    names = ", ".join(op.pascal for op in AclOperation if op not in (AclOperation.UNKNOWN, AclOperation.ANY))
    raise UsageError(f"Invalid operation '{text}': must be one of {names}")


def parse_pattern_type(text: str) -> PatternType:
    try:
        value = PatternType[text.strip().upper()]
    except KeyError:
        value = PatternType.UNKNOWN
    if value is PatternType.UNKNOWN:
        raise UsageError(
            f"Invalid --resource-pattern-type '{text}': must be one of ANY, MATCH, LITERAL, PREFIXED"
        )
    return value


def parse_principal(text: str) -> str:
    """`Type:name` (SecurityUtils.parseKafkaPrincipal); returned trimmed as the wire string."""
    value = text.strip()
    kind, sep, name = value.partition(":")
    if not sep or not kind or not name:
        raise UsageError(f"expected a string in format principalType:principalName but got {text}")
    return value


# --- values ----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True, order=True)
class ResourcePattern:
    resource_type: ResourceType
    name: str
    pattern_type: PatternType = PatternType.LITERAL

    def __str__(self) -> str:
        return f"ResourcePattern(resourceType={self.resource_type.name}, name={self.name}, patternType={self.pattern_type.name})"

    def to_filter(self) -> ResourcePatternFilter:
        return ResourcePatternFilter(
            resource_type=self.resource_type, name=self.name, pattern_type=self.pattern_type
        )


@dataclass(frozen=True, slots=True, kw_only=True, order=True)
class AccessControlEntry:
    principal: str
    host: str
    operation: AclOperation
    permission_type: PermissionType

    def __str__(self) -> str:
        return (
            f"(principal={self.principal}, host={self.host}, operation={self.operation.name}, "
            f"permissionType={self.permission_type.name})"
        )

    def to_filter(self) -> AccessControlEntryFilter:
        return AccessControlEntryFilter(
            principal=self.principal,
            host=self.host,
            operation=self.operation,
            permission_type=self.permission_type,
        )


@dataclass(frozen=True, slots=True, kw_only=True, order=True)
class AclBinding:
    pattern: ResourcePattern
    entry: AccessControlEntry

    def __str__(self) -> str:
        return f"(pattern={self.pattern}, entry={self.entry})"

    def to_filter(self) -> AclBindingFilter:
        return AclBindingFilter(pattern=self.pattern.to_filter(), entry=self.entry.to_filter())


@dataclass(frozen=True, slots=True, kw_only=True, order=True)
class ResourcePatternFilter:
    """A resource filter: ANY type, None name (any), ANY/MATCH/LITERAL/PREFIXED pattern."""

    resource_type: ResourceType = ResourceType.ANY
    name: str | None = None
    pattern_type: PatternType = PatternType.ANY

    def __str__(self) -> str:
        name = "<any>" if self.name is None else self.name
        return f"ResourcePattern(resourceType={self.resource_type.name}, name={name}, patternType={self.pattern_type.name})"

    def matches(self, pattern: ResourcePattern) -> bool:
        """Kafka's ResourcePatternFilter.matches (MATCH: literal equal or wildcard, or a prefix of it)."""
        if self.resource_type is not ResourceType.ANY and self.resource_type is not pattern.resource_type:
            return False
        if (
            self.pattern_type not in (PatternType.ANY, PatternType.MATCH)
            and self.pattern_type is not pattern.pattern_type
        ):
            return False
        if self.name is None:
            return True
        if self.pattern_type in (PatternType.ANY, PatternType.LITERAL, PatternType.PREFIXED):
            return self.name == pattern.name
        # MATCH: which stored patterns apply to a resource with this literal name
        if pattern.pattern_type is PatternType.LITERAL:
            return pattern.name in (self.name, WILDCARD)
        if pattern.pattern_type is PatternType.PREFIXED:
            return self.name.startswith(pattern.name)
        return False


@dataclass(frozen=True, slots=True, kw_only=True, order=True)
class AccessControlEntryFilter:
    principal: str | None = None
    host: str | None = None
    operation: AclOperation = AclOperation.ANY
    permission_type: PermissionType = PermissionType.ANY

    def __str__(self) -> str:
        principal = "<any>" if self.principal is None else self.principal
        host = "<any>" if self.host is None else self.host
        return (
            f"(principal={principal}, host={host}, operation={self.operation.name}, "
            f"permissionType={self.permission_type.name})"
        )

    def matches(self, entry: AccessControlEntry) -> bool:
        return (
            (self.principal is None or self.principal == entry.principal)
            and (self.host is None or self.host == entry.host)
            and (self.operation is AclOperation.ANY or self.operation is entry.operation)
            and (self.permission_type is PermissionType.ANY or self.permission_type is entry.permission_type)
        )


@dataclass(frozen=True, slots=True, kw_only=True, order=True)
class AclBindingFilter:
    pattern: ResourcePatternFilter = ResourcePatternFilter()
    entry: AccessControlEntryFilter = AccessControlEntryFilter()

    def __str__(self) -> str:
        return f"(patternFilter={self.pattern}, entryFilter={self.entry})"

    def matches(self, binding: AclBinding) -> bool:
        return self.pattern.matches(binding.pattern) and self.entry.matches(binding.entry)


ANY_FILTER = AclBindingFilter()
CLUSTER_FILTER = ResourcePatternFilter(
    resource_type=ResourceType.CLUSTER, name=CLUSTER_NAME, pattern_type=PatternType.LITERAL
)


def group_by_resource(
    bindings: Iterable[AclBinding],
) -> dict[ResourcePattern, tuple[AccessControlEntry, ...]]:
    """Bindings grouped per resource pattern, both sorted (Kafka prints hash order; sorted is stable)."""
    grouped: dict[ResourcePattern, set[AccessControlEntry]] = {}
    for binding in bindings:
        grouped.setdefault(binding.pattern, set()).add(binding.entry)
    return {p: tuple(sorted(grouped[p])) for p in sorted(grouped)}


# --- the command-line options ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class AclOptions:
    """kafka-acls.sh's options as given (lists keep command-line order)."""

    add: bool = False
    remove: bool = False
    list: bool = False
    topics: Sequence[str] = ()
    groups: Sequence[str] = ()
    cluster: bool = False
    transactional_ids: Sequence[str] = ()
    delegation_tokens: Sequence[str] = ()
    user_principals: Sequence[str] = ()
    pattern_type: str | None = None
    operations: Sequence[str] = ()
    allow_principals: Sequence[str] = ()
    deny_principals: Sequence[str] = ()
    allow_hosts: Sequence[str] = ()
    deny_hosts: Sequence[str] = ()
    principals: Sequence[str] = ()
    producer: bool = False
    consumer: bool = False
    idempotent: bool = False

    @property
    def resolved_pattern_type(self) -> PatternType:
        return PatternType.LITERAL if self.pattern_type is None else parse_pattern_type(self.pattern_type)


def check_options(opts: AclOptions, *, actions_extra: Sequence[str] = ()) -> None:
    """AclCommandOptions.checkArgs: exactly one action and the exclusion rules (UsageError)."""
    actions = [a for a, on in (("--list", opts.list), ("--add", opts.add), ("--remove", opts.remove)) if on]
    actions += list(actions_extra)
    if len(actions) != 1:
        if actions_extra:
            raise UsageError(
                "Command must include exactly one action: --list, --add, --remove, --export, --import "
                f"(given: {', '.join(actions)})"
            )
        raise UsageError("Command must include exactly one action: --list, --add, --remove. ")
    if opts.list:
        for flag, on in (
            ("--producer", opts.producer),
            ("--consumer", opts.consumer),
            ("--allow-host", bool(opts.allow_hosts)),
            ("--allow-principal", bool(opts.allow_principals)),
            ("--deny-host", bool(opts.deny_hosts)),
            ("--deny-principal", bool(opts.deny_principals)),
        ):
            if on:
                raise UsageError(f'Option "[list]" can\'t be used with option "[{flag[2:]}]"')
    for convenience, on in (("--producer", opts.producer), ("--consumer", opts.consumer)):
        if not on:
            continue
        for flag, other in (
            ("--operation", bool(opts.operations)),
            ("--deny-principal", bool(opts.deny_principals)),
            ("--deny-host", bool(opts.deny_hosts)),
        ):
            if other:
                raise UsageError(f'Option "[{convenience[2:]}]" can\'t be used with option "[{flag[2:]}]"')
    if opts.principals and not opts.list and not actions_extra:  # kcli's --export/--import take it too
        raise UsageError("The --principal option is only available if --list is set")
    if opts.producer and not opts.topics:
        raise UsageError("With --producer you must specify a --topic")
    if opts.idempotent and not opts.producer:
        raise UsageError("The --idempotent option is only available if --producer is set")
    if opts.consumer and (
        not opts.topics or not opts.groups or (not opts.producer and (opts.cluster or opts.transactional_ids))
    ):
        raise UsageError(
            "With --consumer you must specify a --topic and a --group and no --cluster or --transactional-id option should be specified."
        )
    for principal in (*opts.allow_principals, *opts.deny_principals, *opts.principals):
        parse_principal(principal)
    for operation in opts.operations:
        parse_operation(operation)
    opts.resolved_pattern_type  # noqa: B018 - validates the value


def resource_filters(opts: AclOptions, *, required: bool) -> list[ResourcePatternFilter]:
    """The resource filters the options name (getResourceFilter), deduplicated, in option order."""
    pattern = opts.resolved_pattern_type
    out: list[ResourcePatternFilter] = []

    def add(kind: ResourceType, names: Iterable[str]) -> None:
        for name in names:
            out.append(ResourcePatternFilter(resource_type=kind, name=name.strip(), pattern_type=pattern))

    add(ResourceType.TOPIC, opts.topics)
    if pattern is PatternType.LITERAL and (opts.cluster or opts.idempotent):
        out.append(CLUSTER_FILTER)
    add(ResourceType.GROUP, opts.groups)
    add(ResourceType.TRANSACTIONAL_ID, opts.transactional_ids)
    add(ResourceType.DELEGATION_TOKEN, opts.delegation_tokens)
    add(ResourceType.USER, opts.user_principals)
    for f in out:
        if f.name == "":
            raise UsageError(f"Empty resource name for {f.resource_type.name}")
    if not out and required:
        raise UsageError(
            "You must provide at least one resource: --topic <topic> or --cluster or --group <group> or "
            "--delegation-token <Delegation Token ID>"
        )
    return list(dict.fromkeys(out))


def _entries(opts: AclOptions, operations: Iterable[AclOperation]) -> set[AccessControlEntry]:
    """Principals × operations × hosts, for allow and deny separately (getAcl)."""
    ops = list(operations)
    out: set[AccessControlEntry] = set()
    for principals, hosts, permission in (
        (opts.allow_principals, opts.allow_hosts, PermissionType.ALLOW),
        (opts.deny_principals, opts.deny_hosts, PermissionType.DENY),
    ):
        if not principals:
            continue
        host_set = [h.strip() for h in hosts] or [WILDCARD]
        for principal in principals:
            for op in ops:
                for host in host_set:
                    out.add(
                        AccessControlEntry(
                            principal=parse_principal(principal),
                            host=host,
                            operation=op,
                            permission_type=permission,
                        )
                    )
    return out


def filter_to_entries(opts: AclOptions) -> dict[ResourcePatternFilter, tuple[AccessControlEntry, ...]]:
    """Each resource filter with the entries the options give it (getResourceFilterToAcls)."""
    filters = resource_filters(opts, required=True)
    result: dict[ResourcePatternFilter, set[AccessControlEntry]] = {}
    if not opts.producer and not opts.consumer:
        operations = [parse_operation(o) for o in opts.operations] or [AclOperation.ALL]
        entries = _entries(opts, dict.fromkeys(operations))
        for f in filters:
            result[f] = set(entries)
    if opts.producer:
        topic_entries = _entries(opts, (AclOperation.WRITE, AclOperation.DESCRIBE, AclOperation.CREATE))
        txn_entries = _entries(opts, (AclOperation.WRITE, AclOperation.DESCRIBE))
        for f in filters:
            if f.resource_type is ResourceType.TOPIC:
                result[f] = set(topic_entries)
            elif f.resource_type is ResourceType.TRANSACTIONAL_ID:
                result[f] = set(txn_entries)
        if opts.idempotent:
            result[CLUSTER_FILTER] = _entries(opts, (AclOperation.IDEMPOTENT_WRITE,))
    if opts.consumer:
        for f in filters:
            if f.resource_type is ResourceType.TOPIC:
                result[f] = result.get(f, set()) | _entries(opts, (AclOperation.READ, AclOperation.DESCRIBE))
            elif f.resource_type is ResourceType.GROUP:
                result[f] = result.get(f, set()) | _entries(opts, (AclOperation.READ,))
    for f, entries in result.items():
        valid = (*SUPPORTED_OPERATIONS.get(f.resource_type, ()), AclOperation.ALL)
        if any(e.operation not in valid for e in entries):
            names = ", ".join(op.pascal for op in valid)
            raise UsageError(f"ResourceType {f.resource_type.name} only supports operations {names}")
    return {f: tuple(sorted(e)) for f, e in result.items()}


def bindings_to_add(opts: AclOptions) -> dict[ResourcePattern, tuple[AccessControlEntry, ...]]:
    """What --add creates, per resource (getResourceToAcls); needs a specific pattern type and a principal."""
    pattern = opts.resolved_pattern_type
    if not pattern.is_specific:
        raise UsageError(
            f"A '--resource-pattern-type' value of '{pattern.name}' is not valid when adding acls."
        )
    mapping = filter_to_entries(opts)
    if any(not entries for entries in mapping.values()):
        raise UsageError(
            "You must specify one of: --allow-principal, --deny-principal when trying to add ACLs."
        )
    out: dict[ResourcePattern, tuple[AccessControlEntry, ...]] = {}
    for f, entries in mapping.items():
        assert f.name is not None
        out[ResourcePattern(resource_type=f.resource_type, name=f.name, pattern_type=f.pattern_type)] = (
            entries
        )
    return out


def deletion_filters(opts: AclOptions) -> dict[ResourcePatternFilter, tuple[AclBindingFilter, ...]]:
    """What --remove sends per resource filter: one filter per entry, or one ANY-entry filter."""
    out: dict[ResourcePatternFilter, tuple[AclBindingFilter, ...]] = {}
    for f, entries in filter_to_entries(opts).items():
        if entries:
            out[f] = tuple(AclBindingFilter(pattern=f, entry=e.to_filter()) for e in entries)
        else:
            out[f] = (AclBindingFilter(pattern=f),)
    return out


def list_filters(opts: AclOptions) -> tuple[AclBindingFilter, ...]:
    """The DescribeAcls filters for --list (and for re-listing after add/remove): ANY when no resource."""
    filters = resource_filters(opts, required=False)
    if not filters:
        return (ANY_FILTER,)
    return tuple(AclBindingFilter(pattern=f) for f in filters)


# --- export / import -------------------------------------------------------------------------------


def scoped_filters(opts: AclOptions) -> tuple[AclBindingFilter, ...]:
    """What --export writes and --import --prune may remove: the resources given (else every one),
    narrowed to the ACLs of --principal when given (one principal's ACLs, to copy or retire them)."""
    filters = list_filters(opts)
    if not opts.principals:
        return filters
    return tuple(
        AclBindingFilter(pattern=f.pattern, entry=AccessControlEntryFilter(principal=parse_principal(p)))
        for f in filters
        for p in dict.fromkeys(opts.principals)
    )


def binding_to_json(binding: AclBinding) -> dict[str, str]:
    return {
        "resourceType": binding.pattern.resource_type.name,
        "name": binding.pattern.name,
        "patternType": binding.pattern.pattern_type.name,
        "principal": binding.entry.principal,
        "host": binding.entry.host,
        "operation": binding.entry.operation.name,
        "permissionType": binding.entry.permission_type.name,
    }


def export_document(bindings: Iterable[AclBinding]) -> dict[str, Any]:
    """The `--export` JSON document: sorted, so it diffs cleanly in version control."""
    return {"version": EXPORT_VERSION, "acls": [binding_to_json(b) for b in sorted(set(bindings))]}


def _enum_field(item: Mapping[str, Any], key: str, enum: type[IntEnum], where: str) -> Any:
    raw = item.get(key)
    if not isinstance(raw, str):
        raise UsageError(f"{where}: '{key}' must be a string")
    if enum is AclOperation:
        return parse_operation(raw)
    try:
        value = enum[raw.strip().upper()]
    except KeyError:
        raise UsageError(f"{where}: unknown {key} '{raw}'") from None
    return value


def parse_document(text: str, *, source: str) -> tuple[AclBinding, ...]:
    """Read an `--import` document (the `--export` format). UsageError naming the bad entry."""
    from kcli.integers import json_int

    try:
        doc = json.loads(text, parse_int=json_int)
    except json.JSONDecodeError as error:
        raise UsageError(f"{source}: not valid JSON: {error}") from None
    except RecursionError:
        raise UsageError(f"{source}: not valid JSON: nested too deeply") from None
    from kcli.text import first_surrogate_path, may_hold_surrogates

    found = first_surrogate_path(doc) if may_hold_surrogates(text) else None
    if found is not None:
        raise UsageError(f"{source}: {found[0]} {found[1]}")
    if not isinstance(doc, dict) or not isinstance(doc.get("acls"), list):
        raise UsageError(f'{source}: expected an object {{"version": 1, "acls": [...]}}')
    if doc.get("version", EXPORT_VERSION) != EXPORT_VERSION:
        raise UsageError(f"{source}: unsupported version {doc.get('version')!r} (expected {EXPORT_VERSION})")
    out: list[AclBinding] = []
    for index, item in enumerate(doc["acls"]):
        where = f"{source}: acls[{index}]"
        if not isinstance(item, dict):
            raise UsageError(f"{where}: expected an object")
        resource_type = _enum_field(item, "resourceType", ResourceType, where)
        pattern_type = _enum_field(item, "patternType", PatternType, where)
        permission = _enum_field(item, "permissionType", PermissionType, where)
        operation = _enum_field(item, "operation", AclOperation, where)
        if resource_type in (ResourceType.ANY, ResourceType.UNKNOWN) or not pattern_type.is_specific:
            raise UsageError(f"{where}: resourceType and patternType must be specific (not ANY/MATCH)")
        if permission not in (PermissionType.ALLOW, PermissionType.DENY):
            raise UsageError(f"{where}: permissionType must be ALLOW or DENY")
        name, principal, host = item.get("name"), item.get("principal"), item.get("host", WILDCARD)
        if not isinstance(name, str) or not name:
            raise UsageError(f"{where}: 'name' must be a non-empty string")
        if not isinstance(principal, str) or not isinstance(host, str):
            raise UsageError(f"{where}: 'principal' and 'host' must be strings")
        valid = (*SUPPORTED_OPERATIONS.get(resource_type, ()), AclOperation.ALL)
        if operation not in valid:
            raise UsageError(
                f"{where}: ResourceType {resource_type.name} does not support operation {operation.pascal}"
            )
        out.append(
            AclBinding(
                pattern=ResourcePattern(resource_type=resource_type, name=name, pattern_type=pattern_type),
                entry=AccessControlEntry(
                    principal=parse_principal(principal),
                    host=host,
                    operation=operation,
                    permission_type=permission,
                ),
            )
        )
    return tuple(dict.fromkeys(out))


@dataclass(frozen=True, slots=True, kw_only=True)
class AclPlan:
    """What an import changes: bindings to create, bindings already present, and extras (prune)."""

    create: tuple[AclBinding, ...]
    present: tuple[AclBinding, ...]
    extra: tuple[AclBinding, ...]


def plan_import(
    desired: Iterable[AclBinding],
    current: Iterable[AclBinding],
    *,
    scope: Sequence[AclBindingFilter] = (ANY_FILTER,),
) -> AclPlan:
    """Diff a desired set against the cluster's: create the missing, keep the present, list extras.

    Extras are current bindings within `scope` (the resource filters given, else everything) that the
    document does not list; only `--prune` removes them.
    """
    want = set(desired)
    have = set(current)
    in_scope = {b for b in have if any(f.matches(b) for f in scope)}
    return AclPlan(
        create=tuple(sorted(want - have)),
        present=tuple(sorted(want & have)),
        extra=tuple(sorted(in_scope - want)),
    )
