"""`kcli cluster doctor --group G`: a consumer group's lag as doctor findings.

Pure: the groups come in described with their offset rows (kcli.workflows.groups.consumer), and
the findings go into the doctor's report beside its endpoint checks (`with_group_findings`).

Findings (check `group-lag`):
- high: a partition's lag over --max-lag records, or its record older than --max-time-lag (the
  same thresholds as `consumer-groups --fail-on-lag / --fail-on-time-lag`); a group that does not
  exist, or could not be described;
- low: a group rebalancing right now (its lag is not settled);
- info: each group's lag when no threshold is passed (the total, the worst partition, the age).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence

from kcli.errors import KcliError
from kcli.kafka import Severity
from kcli.ops.doctor import DoctorReport, Finding
from kcli.ops.groups.describe import GroupOffsets
from kcli.ops.groups.lag import duration_text, over_thresholds

CHECK = "group-lag"


def group_findings(
    groups: Sequence[GroupOffsets],
    failed: Sequence[tuple[str, KcliError]],
    *,
    max_lag: int | None,
    max_time_lag_ms: int | None,
) -> Iterable[Finding]:
    for group_id, error in failed:
        yield Finding(
            check=CHECK,
            severity=Severity.high,
            subject=f"group {group_id}",
            message=f"cannot be described: {error.message}",
            hint=error.hint or "kcli consumer-groups --list shows the groups there are",
        )
    for group in groups:
        subject = f"group {group.group_id}"
        if group.state.rebalancing:
            yield Finding(
                check=CHECK, severity=Severity.low, subject=subject, message=f"is rebalancing ({group.state})"
            )
        over = over_thresholds([group], records=max_lag, time_ms=max_time_lag_ms)
        if over:
            worst = max(over, key=lambda o: (o.lag or 0, o.time_lag_ms or 0))
            age = f", {duration_text(worst.time_lag_ms)} behind" if worst.time_lag_ms is not None else ""
            limits = " or ".join(
                text
                for text in (
                    f"{max_lag} records" if max_lag is not None else "",
                    duration_text(max_time_lag_ms) if max_time_lag_ms is not None else "",
                )
                if text
            )
            yield Finding(
                check=CHECK,
                severity=Severity.high,
                subject=subject,
                message=(
                    f"{len(over)} partition(s) over the lag threshold ({limits}); the most: "
                    f"{worst.topic}-{worst.partition} lag {worst.lag}{age}"
                ),
                hint=f"kcli consumer-groups --describe --group {group.group_id} --time-lag shows every partition",
            )
        elif max_lag is None and max_time_lag_ms is None:
            rows = [r for r in group.rows if r.lag is not None]
            most = max(rows, key=lambda r: r.lag or 0, default=None)
            most_text = (
                f"; the most: {most.topic}-{most.partition} lag {most.lag}"
                if most is not None and most.lag
                else ""
            )
            age = (
                f", {duration_text(group.max_time_lag_ms)} behind at most"
                if group.max_time_lag_ms is not None
                else ""
            )
            yield Finding(
                check=CHECK,
                severity=Severity.info,
                subject=subject,
                message=(
                    f"{group.state}, {len(group.description.members)} member(s), "
                    f"lag {group.total_lag}{most_text}{age}"
                ),
            )


def with_group_findings(report: DoctorReport, findings: Iterable[Finding]) -> DoctorReport:
    """The doctor's report with the group findings among its own, worst first, and the check listed."""
    merged = sorted((*report.findings, *findings), key=lambda f: (-int(f.severity), f.check, f.subject))
    return dataclasses.replace(report, findings=tuple(merged), checked=(*report.checked, CHECK))
