"""docs/parity.md is generated from tests/kafka_parity and must match it (scripts/parity_table.py).

The check collects the suite without running it; CI's run of tests/kafka_parity is what says the
cases pass.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def test_parity_table_is_current() -> None:
    done = subprocess.run(
        [sys.executable, "scripts/parity_table.py", "--check"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr + done.stdout[-2000:]


def test_readme_links_the_parity_table() -> None:
    assert "docs/parity.md" in (REPO / "README.md").read_text(encoding="utf-8")
