"""What every doctor check returns: one finding. Its own module so that check modules beside
kcli.ops.doctor (kcli.ops.doctor_transactions) use it without importing the doctor that runs them."""

from __future__ import annotations

from dataclasses import dataclass

from kcli.kafka import Severity


@dataclass(frozen=True, slots=True, kw_only=True)
class Finding:
    """One problem (or notice) the doctor found."""

    check: str
    severity: Severity
    subject: str
    message: str
    hint: str | None = None
