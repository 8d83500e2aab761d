"""`kcli spark audit`'s command line as a value, its checks in order, and its exit status.

`plan_audit(options)` checks, before any Spark session or cluster connection: --fail-on's severity,
--worst, the rule files (kcli.audit.rules), the --conf pairs, that each local --input and
--metadata-dir is a directory (other filesystems are Spark's to check), and that something is to be
audited. `verdict(result, threshold)` is the exit status and its one line: 1 when a finding reaches
--fail-on, 3 (incomplete) when the input had warnings, else 0.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kcli.errors import ExitCode, UsageError
from kcli.kafka import Severity


@dataclass(frozen=True, slots=True, kw_only=True)
class AuditOptions:
    """The command line of `kcli spark audit` (the clusters to collect apart)."""

    inputs: tuple[str, ...] = ()
    metadata_dirs: tuple[str, ...] = ()
    rules: tuple[Path, ...] = ()
    builtin_rules: bool = True
    conf: tuple[str, ...] = ()
    fail_on: str | None = None
    worst: int = 10
    live: bool = False  # clusters to collect were given (--bootstrap-server or --profile)


@dataclass(frozen=True, slots=True, kw_only=True)
class AuditPlan:
    """Checked options: what the audit runs with."""

    threshold: Severity | None
    rules: tuple[Any, ...]  # kcli.audit.rules.Rule
    conf: dict[str, str]
    inputs: tuple[str, ...]  # URIs
    metadata_dirs: tuple[str, ...]  # URIs


def plan_audit(options: AuditOptions) -> AuditPlan:
    """The checks of the module docstring, in that order."""
    from kcli.audit.job import parse_conf
    from kcli.audit.rules import parse_severity, rule_set
    from kcli.audit.storage import local_path, to_uri

    threshold = None
    if options.fail_on is not None:
        try:
            threshold = parse_severity(options.fail_on)
        except ValueError as error:
            raise UsageError(f"--fail-on: {error}") from None
    if options.worst < 0:
        raise UsageError("--worst must be 0 or more")
    rules = rule_set(list(options.rules), builtin=options.builtin_rules)
    conf = parse_conf(list(options.conf))
    inputs = tuple(to_uri(text) for text in options.inputs)
    metadata_dirs = tuple(to_uri(text) for text in options.metadata_dirs)
    for flag, given, uri in [
        *(("--input", text, uri) for text, uri in zip(options.inputs, inputs, strict=True)),
        *(
            ("--metadata-dir", text, uri)
            for text, uri in zip(options.metadata_dirs, metadata_dirs, strict=True)
        ),
    ]:
        directory = local_path(uri)
        if directory is not None and not directory.is_dir():  # other filesystems are checked by Spark
            raise UsageError(f"{flag} {given}: no such directory")
    if not inputs and not metadata_dirs and not options.live:
        raise UsageError("nothing to audit: give --input DIR, --metadata-dir DIR or --bootstrap-server")
    return AuditPlan(threshold=threshold, rules=rules, conf=conf, inputs=inputs, metadata_dirs=metadata_dirs)


def verdict(result: Any, threshold: Severity | None) -> tuple[ExitCode, str | None]:
    """The exit status of an audit's result (kcli.audit.job.AuditResult) and its error line."""
    worst_found = result.max_severity()
    if threshold is not None and worst_found is not None and worst_found >= threshold:
        failing = sum(count.findings for count in result.counts if count.severity >= threshold)
        return (
            ExitCode.ERROR,
            f"Error: {failing} findings at or above {threshold.name} (--fail-on {threshold.name})",
        )
    if result.warnings:
        count = len(result.warnings)
        return ExitCode.INCOMPLETE, (
            f"Error: the audit's input is incomplete ({count} warning{'s' if count != 1 else ''} above): "
            "findings that need the missing data may be absent"
        )
    return ExitCode.OK, None
