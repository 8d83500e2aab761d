"""The parts of a Spark audit that need no cluster: URIs, the executor zip, sizing, progress."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path
from typing import Any

import pytest

from kcli.audit import shipping
from kcli.audit.job import SINGLE_PARTITION_ROWS, shuffle_partitions, sized_conf
from kcli.audit.progress import describe
from kcli.audit.session import is_local
from kcli.audit.storage import glob_escape, join, local_path, to_uri


def test_a_path_is_a_local_file_uri_and_a_uri_stays_as_it_is(tmp_path: Path) -> None:
    assert to_uri(str(tmp_path / "fleet")) == f"file://{tmp_path}/fleet"
    assert to_uri("hdfs://namenode:8020/fleet") == "hdfs://namenode:8020/fleet"
    assert to_uri("s3a://bucket/fleet/") == "s3a://bucket/fleet/"
    assert to_uri("file:///data/fleet") == "file:///data/fleet"
    assert to_uri("relative/dir") == "file://" + str(Path.cwd() / "relative" / "dir")


def test_local_paths_of_file_uris_keep_spaces_and_percent_signs() -> None:
    assert local_path("file:///data/a b%20c") == Path("/data/a b%20c")
    assert local_path("file:/data/x") == Path("/data/x")
    assert local_path("file://host/data/x") == Path("/data/x")
    assert local_path("hdfs://nn/data") is None


def test_glob_escape_and_join() -> None:
    assert glob_escape("file:/a/b[1]/{x,y}*?") == r"file:/a/b\[1\]/\{x,y\}\*\?"
    assert join("s3a://bucket/out/", "findings.jsonl") == "s3a://bucket/out/findings.jsonl"


def test_masters_that_run_on_this_machine() -> None:
    assert (
        is_local("local")
        and is_local("local[*]")
        and is_local("local[2]")
        and is_local("local-cluster[2,1,512]")
    )
    assert (
        not is_local("spark://head:7077") and not is_local("yarn") and not is_local("k8s://https://api:6443")
    )


def test_sizing_follows_the_input_rows() -> None:
    small = sized_conf(SINGLE_PARTITION_ROWS, 2)
    assert small["spark.sql.shuffle.partitions"] == "1"
    assert small["spark.sql.autoBroadcastJoinThreshold"] == "-1"
    large = sized_conf(SINGLE_PARTITION_ROWS + 1, 2)
    assert "spark.sql.autoBroadcastJoinThreshold" not in large
    assert large["spark.sql.shuffle.partitions"] == "1"
    assert shuffle_partitions(2_000_000, 2) == 8  # 4x the cores at most
    assert shuffle_partitions(400_000, 2) == 2
    assert shuffle_partitions(0, 2) == 1


def test_the_executor_zip_holds_all_of_kcli_and_keeps_binary_packages_apart(tmp_path: Path) -> None:
    built = shipping.build_zip(tmp_path / shipping.ZIP_NAME)
    with zipfile.ZipFile(built) as archive:
        names = set(archive.namelist())
        native = archive.read(shipping.LIST_FILE).decode().split()
        assert archive.read(shipping.TAG_FILE).decode() == shipping.platform_tag()
    package = Path(shipping.__file__).parents[1]
    modules = {f"kcli/{p.relative_to(package).as_posix()}" for p in package.rglob("*.py")}
    assert modules <= names  # every module, new ones too (not an install-time file list)
    assert "kcli/audit/rules/builtin.toml" in names
    assert {"crc32c", "cramjam"} <= set(native)
    for name in native:  # not importable from the zip itself: extracted on executors that need them
        assert f"{name}/__init__.py" not in names
        assert any(n.startswith(f"{shipping.NATIVE_DIR}/{name}/") for n in names)
        assert any(n.startswith(f"{shipping.NATIVE_DIR}/{name}-") and ".dist-info/" in n for n in names)
    assert not any("__pycache__" in n for n in names)


class FakeTracker:
    def __init__(self, stages: dict[int, tuple[int, int]]) -> None:
        self.stages = stages

    def getActiveStageIds(self) -> list[int]:
        return list(self.stages)

    def getStageInfo(self, stage: int) -> Any:
        done, total = self.stages[stage]
        return type("Info", (), {"numCompletedTasks": done, "numTasks": total})()


def test_the_progress_line_sums_the_running_stages() -> None:
    assert describe("running rules", FakeTracker({})) == "running rules"
    assert describe("running rules", FakeTracker({3: (1, 2)})) == "running rules: 1 stage, tasks 1/2"
    assert describe("loading tables", FakeTracker({3: (1, 2), 4: (0, 8)})) == (
        "loading tables: 2 stages, tasks 1/10"
    )


@pytest.mark.spark
def test_a_terminal_sees_the_phases_while_the_job_runs(spark: Any, crafted_fleet: tuple[Path, Path]) -> None:
    from rich.console import Console

    from kcli.audit.job import AuditRequest, run_audit
    from kcli.audit.progress import LiveProgress
    from kcli.audit.rules import load_builtin_rules

    snapshots, _logs = crafted_fleet
    screen = io.StringIO()
    console = Console(file=screen, force_terminal=True, width=100)
    phases: list[str] = []
    with LiveProgress(spark, console) as progress:

        def say(phase: str) -> None:
            phases.append(phase)
            progress.phase(phase)

        run_audit(spark, AuditRequest(inputs=(to_uri(str(snapshots)),), rules=load_builtin_rules()), say=say)
    assert phases[:2] == ["listing inputs", "loading tables"]
    assert "running rules" in phases
    assert "running rules" in screen.getvalue()  # drawn on the terminal, then cleared
