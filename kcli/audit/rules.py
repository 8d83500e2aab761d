"""Declarative audit rules: loading and validating rule files (TOML), without Spark.

A rule file is a TOML document with one `[[rule]]` table per rule:

    [[rule]]
    id = "replication-factor-below-floor"     # lower-case letters, digits and dashes
    severity = "high"                          # info | low | medium | high
    description = "Topics whose replication factor is below the floor."
    params = { floor = 3 }                     # optional; ${floor} in the SQL is replaced
    sql = '''
    SELECT cluster_id, topic AS resource, concat('replication factor ', replication_factor) AS message
    FROM topics WHERE replication_factor < ${floor}
    '''

The query runs in Spark SQL over the tables of kcli.audit.tables and must return the columns
`cluster_id`, `resource` and `message`; every returned row is a finding. Checks that need Spark
(syntax, unknown tables and columns) happen in kcli.audit.job before any rule runs.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from kcli.errors import UsageError
from kcli.integers import TomlLimit, load_toml
from kcli.kafka import Severity

BUILTIN_SOURCE = "builtin"
FINDING_COLUMNS = ("cluster_id", "resource", "message")
RULE_KEYS = frozenset({"id", "severity", "description", "sql", "params"})
_ID = re.compile(r"^[a-z0-9][a-z0-9-]{0,63}$")
_PLACEHOLDER = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")


# A rule's severity: kcli.kafka's scale up to high (critical is the doctor's, for an endpoint that
# does not answer); --fail-on and the by-severity totals of an audit use the same four.
RULE_SEVERITIES = tuple(severity for severity in Severity if severity <= Severity.high)


def parse_severity(text: str) -> Severity:
    """A rule severity by name, --fail-on medium fails on medium and high; ValueError names the choices."""
    by_name = {severity.name: severity for severity in RULE_SEVERITIES}
    try:
        return by_name[text.strip().lower()]
    except KeyError:
        raise ValueError(f"unknown severity {text!r} (use {'|'.join(by_name)})") from None


class RuleError(UsageError):
    """A rule file or a rule in it is invalid: one line naming the file and the rule."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Rule:
    """One audit rule, its parameters already substituted into `sql`."""

    id: str
    severity: Severity
    description: str
    sql: str
    params: Mapping[str, Any] = field(default_factory=dict)
    source: str = BUILTIN_SOURCE


def load_builtin_rules() -> tuple[Rule, ...]:
    """The rules shipped with kcli (kcli/audit/rules/builtin.toml)."""
    text = resources.files("kcli.audit").joinpath("rules/builtin.toml").read_text(encoding="utf-8")
    return parse_rules(text, source=BUILTIN_SOURCE)


def load_rule_file(path: Path) -> tuple[Rule, ...]:
    """The rules of a user's rule file."""
    from kcli.files import read_text

    try:
        text = read_text(path, what="rules file")
    except OSError as error:
        raise RuleError(f"rules file {path}: cannot read: {error.strerror or error}") from None
    return parse_rules(text, source=str(path))


def rule_set(files: Sequence[Path], *, builtin: bool = True) -> tuple[Rule, ...]:
    """Built-in rules (unless `builtin` is false) then each file's; a later rule replaces one with its id."""
    by_id: dict[str, Rule] = {}
    if builtin:
        by_id.update((rule.id, rule) for rule in load_builtin_rules())
    for path in files:
        by_id.update((rule.id, rule) for rule in load_rule_file(path))
    if not by_id:
        raise UsageError("no rules to run (give --rules FILE or drop --no-builtin-rules)")
    return tuple(by_id.values())


def parse_rules(text: str, *, source: str) -> tuple[Rule, ...]:
    """Parse and validate a rule file's text; errors are RuleErrors naming `source` and the rule."""
    try:
        document = load_toml(text)
    except (tomllib.TOMLDecodeError, TomlLimit) as error:
        where = _rule_at_line(text, _error_line(error))
        raise RuleError(f"rules file {source}{where}: invalid TOML: {_first_line(error)}") from None
    unknown = set(document) - {"rule"}
    if unknown:
        raise RuleError(
            f"rules file {source}: unknown top-level keys {sorted(unknown)} (rules go in [[rule]] tables)"
        )
    entries = document.get("rule", [])
    if not isinstance(entries, list) or not all(isinstance(entry, dict) for entry in entries):
        raise RuleError(f"rules file {source}: `rule` must be an array of tables ([[rule]])")
    rules: list[Rule] = []
    seen: set[str] = set()
    for number, entry in enumerate(entries, start=1):
        rule = _rule_of(entry, source=source, number=number)
        if rule.id in seen:
            raise RuleError(f"rules file {source}: rule {rule.id}: duplicate id")
        seen.add(rule.id)
        rules.append(rule)
    return tuple(rules)


def _rule_of(entry: Mapping[str, Any], *, source: str, number: int) -> Rule:
    raw_id = entry.get("id")
    name = raw_id if isinstance(raw_id, str) and raw_id else f"#{number}"

    def fail(problem: str) -> RuleError:
        return RuleError(f"rules file {source}: rule {name}: {problem}")

    missing = [key for key in ("id", "severity", "description", "sql") if key not in entry]
    if missing:
        raise fail(f"missing {', '.join(missing)}")
    unknown = set(entry) - RULE_KEYS
    if unknown:
        raise fail(f"unknown keys {sorted(unknown)} (allowed: {', '.join(sorted(RULE_KEYS))})")
    for key in ("id", "severity", "description", "sql"):
        if not isinstance(entry[key], str) or not entry[key].strip():
            raise fail(f"{key} must be a non-empty string")
    if not _ID.match(entry["id"]):
        raise fail("id must be lower-case letters, digits and dashes (at most 64)")
    try:
        severity = parse_severity(entry["severity"])
    except ValueError as error:
        raise fail(str(error)) from None
    params = entry.get("params", {})
    if not isinstance(params, dict) or not all(
        isinstance(value, (int, float, str, bool)) for value in params.values()
    ):
        raise fail("params must be a table of numbers, strings or booleans")
    sql = substitute(entry["sql"], params, fail=fail)
    return Rule(
        id=entry["id"],
        severity=severity,
        description=" ".join(entry["description"].split()),
        sql=sql.strip().rstrip(";"),
        params=dict(params),
        source=source,
    )


def substitute(sql: str, params: Mapping[str, Any], *, fail: Any) -> str:
    """Replace ${name} with the parameter's SQL literal; an undefined name is an error."""

    def literal(match: re.Match[str]) -> str:
        key = match.group(1)
        if key not in params:
            raise fail(f"${{{key}}} is not defined in params")
        value = params[key]
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, str):
            return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"
        return repr(value)

    return _PLACEHOLDER.sub(literal, sql)


def _error_line(error: ValueError) -> int | None:
    """The line of a TOML error (an attribute from Python 3.14, else in the message)."""
    line = getattr(error, "lineno", None)
    if isinstance(line, int):
        return line
    match = re.search(r"at line (\d+)", str(error))
    return int(match.group(1)) if match else None


def _rule_at_line(text: str, lineno: int | None) -> str:
    """' (in rule X)' for the [[rule]] a TOML error line falls in, so the error names the rule."""
    if not lineno:
        return ""
    lines = text.splitlines()[:lineno]
    start = None
    for index in range(len(lines) - 1, -1, -1):
        if lines[index].strip().startswith("[[rule]]"):
            start = index
            break
    if start is None:
        return ""
    for line in text.splitlines()[start + 1 :]:
        stripped = line.strip()
        if stripped.startswith("[["):
            break
        match = re.match(r"""^id\s*=\s*["']([^"']+)["']""", stripped)
        if match:
            return f" (in rule {match.group(1)})"
    ordinal = sum(1 for line in lines[: start + 1] if line.strip().startswith("[[rule]]"))
    return f" (in rule #{ordinal})"


def _first_line(error: Exception) -> str:
    return str(error).splitlines()[0] if str(error) else type(error).__name__
