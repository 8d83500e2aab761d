"""`kcli spark audit`'s checks and exit status as values (kcli.audit.request), without typer or Spark."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pytest

from kcli.audit.request import AuditOptions, plan_audit, verdict
from kcli.errors import ExitCode, UsageError
from kcli.kafka import Severity


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (AuditOptions(fail_on="extreme", worst=-1), "--fail-on: "),  # --fail-on before --worst
        (AuditOptions(worst=-1, conf=("nokey",)), "--worst must be 0 or more"),
        (AuditOptions(conf=("nokey",), inputs=("/nonexistent/x",)), "--conf"),
        (AuditOptions(inputs=("/nonexistent/x",)), "--input /nonexistent/x: no such directory"),
        (AuditOptions(), "nothing to audit"),
    ],
)
def test_the_checks_run_in_order(options: AuditOptions, message: str) -> None:
    with pytest.raises(UsageError, match=message):
        plan_audit(options)


def test_a_plan_of_local_dirs(tmp_path: Path) -> None:
    plan = plan_audit(AuditOptions(metadata_dirs=(str(tmp_path),), fail_on="medium", conf=("a.b=c",)))
    assert plan.threshold is Severity.medium and plan.conf == {"a.b": "c"} and plan.rules
    assert plan.metadata_dirs[0].startswith("file:") and plan.inputs == ()


@dataclass
class Count:
    severity: Severity
    findings: int


@dataclass
class Result:
    counts: list[Count]
    warnings: list[str] = field(default_factory=list)

    def max_severity(self) -> Severity | None:
        return max((c.severity for c in self.counts if c.findings), default=None)


def test_the_exit_status() -> None:
    high = Result([Count(Severity.high, 2), Count(Severity.low, 5)], warnings=["w"])
    assert verdict(high, Severity.medium) == (
        ExitCode.ERROR, "Error: 2 findings at or above medium (--fail-on medium)",
    )  # fmt: skip
    code, line = verdict(high, None)
    assert code is ExitCode.INCOMPLETE and line is not None and "(1 warning above)" in line
    assert verdict(Result([Count(Severity.low, 1)]), Severity.high) == (ExitCode.OK, None)
