"""The end of a read of a log: what was skipped or breaks Kafka's invariants, said once, and the exit code."""

from __future__ import annotations

from kcli.env import Env
from kcli.errors import ExitCode
from kcli.metadata.directory import LogDirectory
from kcli.metadata.read_model import ReadStats


def read_problems_code(stats: ReadStats, env: Env, directory: LogDirectory | None = None) -> int:
    """Exit 1 with a warning when corrupt data was skipped (the output above is incomplete) or the
    log breaks Kafka's invariants (the output above may mix histories)."""
    code = 0
    if stats.skipped:
        env.err(
            f"Warning: skipped corrupt data: {stats.skipped_records} records, {stats.skipped_batches} batches, "
            f"{stats.skipped_bytes} trailing bytes"
        )
        for problem in stats.problems[:20]:
            env.err(f"  {problem}")
        code = int(ExitCode.ERROR)
    warnings = [*(directory.warnings if directory is not None else ()), *stats.warnings]
    if warnings:
        env.err(
            f"Warning: the log breaks Kafka's invariants ({len(warnings)} "
            f"{'problem' if len(warnings) == 1 else 'problems'}): a diverged or damaged log; "
            "offsets and epochs below are as read"
        )
        for warning in warnings[:20]:
            env.err(f"  {warning}")
        if len(warnings) > 20:
            env.err(f"  ... and {len(warnings) - 20} more")
        code = int(ExitCode.ERROR)
    return code
