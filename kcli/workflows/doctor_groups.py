"""`kcli cluster doctor --group G`: describe the groups (offsets, and the age of the records at them
when --max-time-lag asks) and turn their lag into doctor findings (kcli.ops.doctor_groups)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from kcli.ops.doctor import Finding

if TYPE_CHECKING:
    from kcli.client.admin import Admin


@dataclass(frozen=True, slots=True, kw_only=True)
class GroupCheck:
    groups: tuple[str, ...]
    max_lag: int | None = None
    max_time_lag_ms: int | None = None


async def group_findings_of(admin: Admin, check: GroupCheck, *, timeout_ms: int) -> list[Finding]:
    from kcli.ops.doctor_groups import group_findings
    from kcli.ops.groups.consumer_line import View
    from kcli.workflows.groups.consumer import describe_groups

    described = await describe_groups(
        admin,
        list(check.groups),
        view=View.OFFSETS,
        verbose=False,
        timeout_ms=timeout_ms,
        time_lag=True,
    )
    return list(
        group_findings(
            described.groups, described.failed, max_lag=check.max_lag, max_time_lag_ms=check.max_time_lag_ms
        )
    )
