"""Both audit kinds on a real standalone Spark cluster whose workers' Python does not have kcli.

One master and one worker, started from pyspark's own `spark-class` on loopback, serve the whole
module. The worker runs Python tasks with a plain virtual environment (no kcli, no kio, no crc32c),
so a `--metadata-dir` audit only works because kcli ships itself to the executors. The master is
named the ways a deployment names it: spark-defaults.conf for one run, PYSPARK_SUBMIT_ARGS for the
other (never --master). Findings must equal those of a local run over the same input.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
import venv
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from kcli.processes import kill_child, signal_child
from tests.conftest import KRAFT_FIXTURES, invoke

pytestmark = [pytest.mark.spark, pytest.mark.sandbox, pytest.mark.slow]

START_DEADLINE_S = 180
RUN_TIMEOUT_S = 600
HIAGE = KRAFT_FIXTURES / "hiage-kafka-raft"
BANNERS = ("WARNING: Using incubator modules", "Setting default log level", "NativeCodeLoader", "WARN ")


@dataclass(frozen=True)
class Standalone:
    master: str
    python: Path  # the workers' Python: a plain venv
    work: Path  # the worker's work dir (an app-*/ folder per application it ran executors for)


def _spark_class() -> tuple[Path, Path]:
    import pyspark

    home = Path(pyspark.__file__).parent
    return home, home / "bin" / "spark-class"


def _wait_for(log: Path, pattern: str, process: subprocess.Popen[bytes]) -> re.Match[str]:
    deadline = time.monotonic() + START_DEADLINE_S
    while time.monotonic() < deadline:
        text = log.read_text(errors="replace") if log.exists() else ""
        found = re.search(pattern, text)
        if found:
            return found
        if process.poll() is not None:
            raise AssertionError(f"{log.name}: exited {process.returncode}: {text[-2000:]}")
        time.sleep(0.2)
    raise AssertionError(f"{log.name}: no {pattern!r} within {START_DEADLINE_S} s")


@pytest.fixture(scope="module")
def standalone(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Standalone]:
    root = tmp_path_factory.mktemp("standalone")
    python_env = root / "plain-python"
    venv.EnvBuilder(with_pip=False).create(python_env)
    home, spark_class = _spark_class()
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    env.update(SPARK_HOME=str(home), SPARK_LOCAL_IP="127.0.0.1", SPARK_NO_DAEMONIZE="1")
    started: list[subprocess.Popen[bytes]] = []

    def start(name: str, *args: str) -> tuple[Path, subprocess.Popen[bytes]]:
        log = root / f"{name}.log"
        with log.open("wb") as out:
            # Outside the checkout, so nothing can import kcli from the working directory.
            process = subprocess.Popen([str(spark_class), *args], stdout=out, stderr=out, env=env, cwd=root)
        started.append(process)
        return log, process

    try:
        master_log, master = start(
            "master", "org.apache.spark.deploy.master.Master", "--host", "127.0.0.1", "--port", "0",
            "--webui-port", "0",
        )  # fmt: skip
        url = _wait_for(master_log, r"Starting Spark master at (spark://\S+)", master)[1]
        work = root / "work"
        worker_log, worker = start(
            "worker", "org.apache.spark.deploy.worker.Worker", "--host", "127.0.0.1", "--cores", "1",
            "--memory", "1g", "--work-dir", str(work), "--webui-port", "0", url,
        )  # fmt: skip
        _wait_for(worker_log, r"Successfully registered with master", worker)
        yield Standalone(master=url, python=python_env / "bin" / "python", work=work)
    finally:
        for process in reversed(started):
            signal_child(process, signal.SIGTERM)
        for process in started:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                kill_child(process)
                process.wait(timeout=30)


def _kcli(args: list[str], *, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """kcli in its own process (a driver of its own, as a user runs it), never --master."""
    base = {key: value for key, value in os.environ.items() if not key.startswith(("PYSPARK_", "SPARK_"))}
    return subprocess.run(
        [sys.executable, "-m", "kcli", *args],
        capture_output=True,
        text=True,
        timeout=RUN_TIMEOUT_S,
        env={
            **base,
            "NO_COLOR": "1",
            "KCLI_CONFIG": "/nonexistent/kcli.toml",
            "SPARK_LOCAL_IP": "127.0.0.1",
            **env,
        },
    )


def _findings(out: Path) -> list[dict[str, Any]]:
    return sorted(
        (json.loads(line) for line in (out / "findings.jsonl").read_text().splitlines()),
        key=lambda f: (f["rule_id"], f["cluster_id"], f["resource"]),
    )


def test_the_workers_python_cannot_import_kcli(standalone: Standalone) -> None:
    for module in ("kcli", "crc32c", "kio"):
        done = subprocess.run(
            [str(standalone.python), "-c", f"import {module}"],
            capture_output=True,
            text=True,
            cwd=standalone.work.parent,
            env={"PATH": os.environ.get("PATH", "")},
        )
        assert done.returncode != 0
        assert f"No module named '{module}'" in done.stderr


def test_a_live_collected_audit_runs_on_the_master_of_spark_defaults(
    standalone: Standalone, audit_sandbox: Any, spark: Any, tmp_path: Path
) -> None:
    conf = tmp_path / "conf"
    conf.mkdir()
    (conf / "spark-defaults.conf").write_text(
        f"spark.master {standalone.master}\nspark.executor.memory 512m\n", encoding="utf-8"
    )
    out = tmp_path / "cluster"
    done = _kcli(
        [
            "spark",
            "audit",
            "--bootstrap-server",
            audit_sandbox.bootstrap_servers,
            "--out",
            str(out),
            "-o",
            "json",
        ],
        env={"SPARK_CONF_DIR": str(conf), "PYSPARK_PYTHON": str(standalone.python)},
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""  # no JVM or Spark banner, no progress off a terminal
    summary = json.loads(done.stdout)
    assert summary["spark"]["master"] == standalone.master
    # The same snapshot (written under OUT/snapshots) audited locally gives the same findings.
    local = tmp_path / "local"
    again = invoke("spark", "audit", "-i", str(out / "snapshots"), "--out", str(local), "-o", "json")
    assert again.code == 0, again.stderr
    assert _findings(out) == _findings(local)
    assert summary["by_rule"] == again.json["by_rule"]
    assert summary["partitions"] == again.json["partitions"] == 12
    assert summary["findings"] > 0


def test_a_metadata_log_audit_ships_kcli_to_workers_without_it(
    standalone: Standalone, spark: Any, crafted_fleet: tuple[Path, Path], tmp_path: Path
) -> None:
    _snapshots, logs = crafted_fleet
    out = tmp_path / "cluster"
    apps_before = set(standalone.work.glob("app-*"))
    args = ["spark", "audit", "--metadata-dir", str(logs), "--metadata-dir", str(HIAGE), "-o", "json"]
    done = _kcli(
        ["--debug", *args, "--out", str(out)],
        env={
            "PYSPARK_SUBMIT_ARGS": f"--master {standalone.master} --conf spark.executor.memory=512m pyspark-shell",
            "PYSPARK_PYTHON": str(standalone.python),
        },
    )
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["spark"]["master"] == standalone.master
    # --debug lets the JVM's own output through
    assert any(banner in done.stderr for banner in BANNERS), done.stderr
    local = tmp_path / "local"
    again = invoke(*args, "--out", str(local))
    assert again.code == 0, again.stderr
    assert _findings(out) == _findings(local)
    assert {f["rule_id"] for f in _findings(out)} == {"broker-fence-churn", "partition-leader-changes"}
    assert (summary["metadata_logs"], summary["history_rows"]) == (
        again.json["metadata_logs"],
        again.json["history_rows"],
    )
    # The Python tasks ran on the worker (it keeps a folder per application it ran executors for).
    assert len(set(standalone.work.glob("app-*")) - apps_before) == 1
