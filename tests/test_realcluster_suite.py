"""The opt-in real-cluster suite itself works: run it, as an operator would, against a sandbox."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.sandbox
def test_real_cluster_suite_passes_against_a_cluster_named_by_the_environment(sandbox: Any) -> None:
    env = {
        **os.environ,
        "KCLI_TEST_BOOTSTRAP_SERVER": sandbox.bootstrap_servers,
        "KCLI_TEST_BOOTSTRAP_CONTROLLER": sandbox.bootstrap_controllers,
    }
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-W",
            "ignore::DeprecationWarning",
            "tests/realcluster",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert "7 passed" in done.stdout


def test_real_cluster_suite_is_shown_skipped_with_its_reason_without_a_cluster() -> None:
    from tests.conftest import REAL_CLUSTER_SKIP

    env = {key: value for key, value in os.environ.items() if not key.startswith("KCLI_TEST_")}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider", "tests/realcluster"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stdout
    summary = done.stdout.strip().splitlines()
    assert summary[-1].startswith("7 skipped"), done.stdout
    skipped = [line for line in summary if line.startswith("SKIPPED")]
    assert len(skipped) == 1 and skipped[0].endswith(f": {REAL_CLUSTER_SKIP}"), done.stdout
