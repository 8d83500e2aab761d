"""The real-cluster suite itself: it runs against any cluster the environment names, and it never passes by
skipping in CI (KCLI_REQUIRE_REAL_KAFKA=1) when real Kafka cannot run."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.sandbox
def test_real_cluster_suite_passes_against_a_cluster_named_by_the_environment(fresh_sandbox: Any) -> None:
    # A sandbox of its own: the session's shared one holds whatever the other test files made, and the
    # suite's doctor run opens every partition of it (a first ListOffsets makes each replica's files).
    env = {
        **os.environ,
        "KCLI_TEST_BOOTSTRAP_SERVER": fresh_sandbox.bootstrap_servers,
        "KCLI_TEST_BOOTSTRAP_CONTROLLER": fresh_sandbox.bootstrap_controllers,
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
    summary = done.stdout.strip().splitlines()[-1]
    assert " passed" in summary and "skipped" not in summary and "failed" not in summary, summary


def _suite_without_java(**extra: str) -> subprocess.CompletedProcess[str]:
    """tests/realcluster with no cluster named and neither java nor mvn on PATH."""
    env = {key: value for key, value in os.environ.items() if not key.startswith(("KCLI_TEST_", "KCLI_REQUIRE"))}
    env.update(PATH=str(Path(sys.executable).parent), **extra)
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider", "tests/realcluster"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_without_java_the_suite_is_shown_skipped_with_what_to_install() -> None:
    done = _suite_without_java()
    assert done.returncode == 0, done.stdout
    skipped = [line for line in done.stdout.splitlines() if line.startswith("SKIPPED")]
    assert skipped and all("java and mvn not on PATH (install a Java 17 JDK and Maven" in line for line in skipped)
    assert " passed" not in done.stdout.strip().splitlines()[-1]


def test_in_ci_a_machine_without_java_fails_the_suite_instead_of_skipping_it() -> None:
    done = _suite_without_java(KCLI_REQUIRE_REAL_KAFKA="1")
    assert done.returncode == 1, done.stdout
    assert "real Kafka is required (KCLI_REQUIRE_REAL_KAFKA=1) but java and mvn not on PATH" in done.stdout
