"""`kcli configs` output: kafka-configs.sh lines, JSON and rich tables, as pure functions of results."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from kcli.kafka import ConfigOp
from kcli.ops.config_model import (
    AlterOutcome,
    ConfigDiff,
    ConfigEntry,
    DescribeResult,
    KeyPreview,
    QuotaEntity,
    QuotaEntry,
    ResourceConfigs,
    ResourceError,
    ScramInfo,
    java_double,
)
from kcli.ops.config_spec import Entity, EntityType

if TYPE_CHECKING:
    from rich.console import RenderableType


def _null(value: str | None) -> str:
    return "null" if value is None else value


def entry_line(entry: ConfigEntry) -> str:
    """`  name=value sensitive=false synonyms={SOURCE:name=value, ...}` (sensitive values as null)."""
    synonyms = ", ".join(
        f"{s.source.name}:{s.name}={_null(None if entry.sensitive else s.value)}" for s in entry.synonyms
    )
    return f"  {entry.name}={_null(entry.shown_value)} sensitive={str(entry.sensitive).lower()} synonyms={{{synonyms}}}"


def header_line(entity: Entity, *, describe_all: bool) -> str:
    if entity.default and entity.type is EntityType.BROKERS:
        return "Default configs for brokers in the cluster are:"
    kind = "All" if describe_all else "Dynamic"
    return f"{kind} configs for {entity.type.singular} {entity.name} are:"


def missing_line(entity: Entity) -> str:
    return f"The {entity.type.singular} '{entity.name}' doesn't exist and doesn't have dynamic config."


def quota_parts(entity: QuotaEntity) -> str:
    labels = {"user": "user-principal", "client-id": "client-id", "ip": "ip"}
    parts = []
    for kind, name in entity.components:
        label = labels.get(kind, kind)
        parts.append(f"the default {label}" if name is None else f"{label} '{name}'")
    return ", ".join(parts)


def quota_line(entry: QuotaEntry) -> str:
    values = ", ".join(f"{k}={java_double(v)}" for k, v in sorted(entry.values.items()))
    return f"Quota configs for {quota_parts(entry.entity)} are {values}"


def scram_line(info: ScramInfo) -> str:
    if info.error is not None:
        return (
            f"Error retrieving SCRAM credential configs for user-principal '{info.user}': "
            f"{java_exception_name(info.error.name)}: {info.error.message or info.error.name}"
        )
    creds = ", ".join(
        f"{m.mechanism_name if m else 'UNKNOWN'}=iterations={iterations}"
        for m, iterations in info.credentials
    )
    return f"SCRAM credential configs for user-principal '{info.user}' are {creds}"


def java_exception_name(error_name: str) -> str:
    """RESOURCE_NOT_FOUND -> ResourceNotFoundException (how Kafka's tools name the failure)."""
    return "".join(p.capitalize() for p in error_name.split("_")) + "Exception"


def resource_error_line(resource: ResourceConfigs) -> str:
    assert resource.error is not None
    return f"Error: describing configs for {resource.entity.label}: {resource.error.line()}"


def describe_text(result: DescribeResult) -> Iterator[str]:
    """kafka-configs.sh --describe stdout (errors go to stderr separately, see resource_error_line)."""
    for entity in result.missing:
        yield missing_line(entity)
    # Entries equal across resources are shared objects (see kcli.client.api.configs): format once.
    lines: dict[int, str] = {}
    for resource in result.resources:
        if resource.error is not None:
            continue
        yield header_line(resource.entity, describe_all=result.describe_all)
        for entry in resource.shown(describe_all=result.describe_all):
            line = lines.get(id(entry))
            if line is None:
                line = lines[id(entry)] = entry_line(entry)
            yield line
    for quota in result.quotas:
        yield quota_line(quota)
    for info in result.scram:
        # DescribeUserScramCredentialsResult.users() leaves out users without credentials
        # (RESOURCE_NOT_FOUND): kafka-configs prints nothing for them, so neither does kcli.
        if info.error is None or info.error.name != "RESOURCE_NOT_FOUND":
            yield scram_line(info)


NO_BROKER_DEFAULTS = (
    "Note: no cluster-wide broker defaults are set; each broker uses its own configuration "
    "(--entity-type brokers --entity-name ID --all shows it)."
)


def describe_notes(result: DescribeResult) -> Iterator[str]:
    """Lines for stderr beside the text output: what an empty block means (stdout stays Kafka's)."""
    for resource in result.resources:
        entity = resource.entity
        if (
            resource.error is None
            and entity.default
            and entity.type is EntityType.BROKERS
            and not resource.shown(describe_all=result.describe_all)
        ):
            yield NO_BROKER_DEFAULTS


def error_json(error: ResourceError | None) -> dict[str, Any] | None:
    if error is None:
        return None
    return {"code": error.code, "name": error.name, "message": error.message}


def entry_json(entry: ConfigEntry) -> dict[str, Any]:
    return {
        "name": entry.name,
        "value": entry.shown_value,
        "source": entry.source.name,
        "sensitive": entry.sensitive,
        "read_only": entry.read_only,
        "type": entry.type_name,
        "synonyms": [
            {"name": s.name, "value": None if entry.sensitive else s.value, "source": s.source.name}
            for s in entry.synonyms
        ],
    }


def entity_json(entity: Entity) -> dict[str, Any]:
    return {"type": entity.type.value, "name": entity.name, "default": entity.default}


def describe_json(result: DescribeResult) -> dict[str, Any]:
    """Every config with value, source, sensitive, read-only and synonyms (JSON keeps all, --all or not)."""
    return {
        "resources": [
            {
                "entity": entity_json(r.entity),
                "error": error_json(r.error),
                "configs": [entry_json(e) for e in r.shown(describe_all=result.describe_all)],
            }
            for r in result.resources
        ],
        "missing": [entity_json(e) for e in result.missing],
        "quotas": [
            {
                "entity": [{"type": kind, "name": name} for kind, name in q.entity.components],
                "values": dict(sorted(q.values.items())),
            }
            for q in result.quotas
        ],
        "scram": [
            {
                "user": s.user,
                "error": error_json(s.error),
                "credentials": [
                    {"mechanism": m.mechanism_name if m else None, "iterations": it}
                    for m, it in s.credentials
                ],
            }
            for s in result.scram
        ],
    }


def describe_json_chunks(result: DescribeResult) -> Iterator[str]:
    """`json.dumps(describe_json(result), indent=2)` in pieces, each shared entry formatted once.

    The document of 10,000 topics with --all has ~270,000 entries; json.dumps with an indent runs
    the pure-Python encoder over all of them. Here each distinct entry object is encoded once (at
    the depth entries sit at) and the pieces are joined; tests check the text is identical.
    """
    dumps = json.dumps
    entry_pad = "\n" + " " * 8  # entries sit at depth 4 of the document
    fragments: dict[int, str] = {}
    resources = result.resources
    yield '{\n  "resources": ' + ("[" if resources else "[]")
    for index, r in enumerate(resources):
        head = dumps({"entity": entity_json(r.entity), "error": error_json(r.error)}, indent=2)
        pieces = []
        for entry in r.shown(describe_all=result.describe_all):
            fragment = fragments.get(id(entry))
            if fragment is None:
                fragment = fragments[id(entry)] = dumps(entry_json(entry), indent=2).replace("\n", entry_pad)
            pieces.append(fragment)
        configs = "[" + entry_pad + ("," + entry_pad).join(pieces) + "\n      ]" if pieces else "[]"
        body = head[:-2].replace("\n", "\n    ") + ',\n      "configs": ' + configs + "\n    }"
        yield ("\n    " if index == 0 else ",\n    ") + body
    if resources:
        yield "\n  ]"
    rest = describe_json(DescribeResult(missing=result.missing, quotas=result.quotas, scram=result.scram))
    del rest["resources"]
    yield "," + dumps(rest, indent=2)[1:] + "\n"


def describe_table(result: DescribeResult) -> RenderableType:
    from rich.console import Group
    from rich.table import Table

    parts: list[Any] = []
    for entity in result.missing:
        parts.append(missing_line(entity))
    for resource in result.resources:
        if resource.error is not None:
            continue
        table = Table(title=header_line(resource.entity, describe_all=result.describe_all).rstrip(":"))
        for column in ("Name", "Value", "Source", "Sensitive", "Read-only", "Synonyms"):
            table.add_column(column)
        for entry in resource.shown(describe_all=result.describe_all):
            synonyms = "\n".join(
                f"{s.source.name}: {_null(None if entry.sensitive else s.value)}" for s in entry.synonyms
            )
            table.add_row(
                entry.name,
                _null(entry.shown_value),
                entry.source.name,
                "yes" if entry.sensitive else "",
                "yes" if entry.read_only else "",
                synonyms,
            )
        parts.append(table)
    if result.quotas:
        table = Table(title="Client quotas")
        table.add_column("Entity")
        table.add_column("Quota")
        table.add_column("Value", justify="right")
        for quota in result.quotas:
            for key, value in sorted(quota.values.items()):
                table.add_row(quota_parts(quota.entity), key, java_double(value))
        parts.append(table)
    if result.scram:
        table = Table(title="SCRAM credentials")
        for column in ("User", "Mechanism", "Iterations"):
            table.add_column(column)
        for info in result.scram:
            if info.error is not None:
                table.add_row(info.user, info.error.name, "")
            for mechanism, iterations in info.credentials:
                table.add_row(
                    info.user, mechanism.mechanism_name if mechanism else "UNKNOWN", str(iterations)
                )
        parts.append(table)
    return Group(*parts)


# --- alter -----------------------------------------------------------------------------------------


def completed_line(entity: Entity) -> str:
    """Kafka's success line."""
    if entity.default:
        return f"Completed updating default config for {entity.type.value} in the cluster."
    return f"Completed updating config for {entity.type.singular} {entity.name}."


def _shown(value: str | None, *, sensitive: bool, is_default: bool) -> str:
    if sensitive:
        return "(sensitive)"
    if value is None:
        return "(default)" if is_default else "(unset)"
    return f"(default) {value}" if is_default else value


def preview_line(p: KeyPreview) -> str:
    arrow = {
        ConfigOp.SET: "",
        ConfigOp.DELETE: "delete ",
        ConfigOp.APPEND: "append ",
        ConfigOp.SUBTRACT: "subtract ",
    }
    before = _shown(p.before, sensitive=p.sensitive, is_default=False) if p.before_read else "(not read)"
    # a SET whose new value is withheld (a password-like key) prints like a sensitive one
    hidden = p.sensitive or (p.after is None and p.op is ConfigOp.SET)
    after = _shown(p.after, sensitive=hidden, is_default=p.after_is_default)
    return f"  {arrow[p.op]}{p.key}: {before} -> {after}"


def alter_text(outcomes: tuple[AlterOutcome, ...]) -> Iterator[str]:
    for outcome in outcomes:
        if outcome.error is not None:
            continue
        if outcome.dry_run:
            how = (
                "validated by the cluster"
                if outcome.validated
                else "not sent: no validate-only for this change"
            )
            yield f"Dry run for {outcome.entity.label} ({how}), nothing was changed:"
            for p in outcome.previews:
                yield preview_line(p)
        else:
            yield completed_line(outcome.entity)


def alter_error_line(outcome: AlterOutcome) -> str:
    assert outcome.error is not None
    verb = "validating" if outcome.dry_run else "updating"
    return f"Error: {verb} config for {outcome.entity.label}: {outcome.error.line()}"


def alter_json(outcomes: tuple[AlterOutcome, ...]) -> dict[str, Any]:
    return {
        "results": [
            {
                "entity": entity_json(o.entity),
                "dry_run": o.dry_run,
                "validated": o.validated,
                "error": error_json(o.error),
                "changes": [
                    {
                        "key": p.key,
                        "op": p.op.name,
                        "before": None if p.sensitive else p.before,
                        "before_read": p.before_read,
                        "after": None if p.sensitive else p.after,
                        "after_is_default": p.after_is_default,
                        "sensitive": p.sensitive,
                    }
                    for p in o.previews
                ],
            }
            for o in outcomes
        ]
    }


# --- diff ------------------------------------------------------------------------------------------


def diff_text(diff: ConfigDiff) -> Iterator[str]:
    scope = "configs" if diff.describe_all else "dynamic configs"
    if not diff.rows:
        yield f"No differences in {scope} between {' and '.join(diff.labels)}."
        return
    yield f"{len(diff.rows)} {scope} differ between {' and '.join(diff.labels)}:"
    for row in diff.rows:
        values = "  ".join(
            f"[{label}] {_null(v) if v is not None else '(unset)'}"
            for label, v in zip(diff.labels, row.values, strict=True)
        )
        yield f"  {row.key}: {values}"


def diff_json(diff: ConfigDiff) -> dict[str, Any]:
    return {
        "entities": list(diff.labels),
        "all": diff.describe_all,
        "differences": [{"name": r.key, "values": list(r.values)} for r in diff.rows],
    }


def diff_table(diff: ConfigDiff) -> RenderableType:
    from rich.table import Table

    table = Table(title="Config differences")
    table.add_column("Config")
    for label in diff.labels:
        table.add_column(label)
    for row in diff.rows:
        table.add_row(row.key, *[v if v is not None else "(unset)" for v in row.values])
    return table
