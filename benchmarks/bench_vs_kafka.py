"""kcli's metadata reader beside Kafka's own tools on the same files: whole processes, medians, peak memory.

    python benchmarks/bench_vs_kafka.py [--runs N] [--directory ROOT] [--real DIR]

Each pair runs the same command line with the program name replaced, one fresh process per run
(`--runs`, default 3; Kafka's and kcli's runs interleaved), under /usr/bin/time for the wall time and
the peak RSS of the process tree's largest process (a Kafka tool is one JVM; kcli one Python process);
the figure is the median wall time, with Kafka's median as the baseline (the ratio below 1 is kcli faster):

- dump: `kafka-dump-log.sh --cluster-metadata-decoder --files F` (Kafka 4.4.0's DumpLogSegments)
  against `kcli metadata-shell --snapshot F --dump -o json`, output to /dev/null;
- ls:   `kafka-metadata-shell.sh --snapshot F ls /image/topics/byName` against `kcli metadata-shell
  --snapshot F ls /image/topics/byName`;
- cat:  the same with `cat /image/topics/byName/TOPIC/0`.
The shell is Kafka 4.0.2's (kafka-shell 4.4.0 is not on Maven Central). A one-shot 4.0.2 shell can
run its command before its loader hands it the image (tests/metadata_vs_kafka/MetadataShellDriver.java
says why) and then prints nothing: each run's output is checked, and a run that printed nothing is
counted and reported, since it did less work than kcli.

A Kafka run still going after DEADLINE_S is stopped and counted at that time (noted in the figure):
4.0.2's one-shot shell can wait for ever for an image its loader does not publish.

Files: the newest snapshot of a real Kafka 4.0.2 cluster and of a real 4.4.0 one, each filled by
tests/metadata_vs_kafka/populate.py (1 controller, 2 brokers, 1,500 topics; for 4.0.2 `--real DIR`, a
copy of a __cluster_metadata-0, may stand in), and the 1,000,000-partition snapshot shape of benchmarks/bench_metadata.py (generated once under ROOT).
Kafka's tools run with their scripts' own JVM options (-Xmx256M); Java and the distributions come
from scripts/kafka-dist.sh.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO))

from benchmarks.figures import record  # noqa: E402
from kcli.processes import kill_child  # noqa: E402

NEWEST, SHELL_VERSION = "4.4.0", "4.0.2"
DEADLINE_S = 180.0  # a run that takes longer is stopped and counted as not finished
_TIME = re.compile(r"^BENCH (\d+\.\d+) (\d+)$", re.MULTILINE)


def kafka_dist(version: str) -> Path:
    done = subprocess.run(
        ["bash", str(REPO / "scripts" / "kafka-dist.sh"), version], capture_output=True, text=True, check=True
    )
    return Path(done.stdout.strip().splitlines()[-1])


def timed(argv: list[str]) -> tuple[float, int, int, int]:
    """(wall seconds, peak RSS in MB, bytes of stdout, exit status) of one whole process."""
    with tempfile.TemporaryFile() as out:
        # its own process group: a run stopped at the deadline takes the JVM below /usr/bin/time with it,
        # or that JVM would go on loading the machine under the runs after it
        child = subprocess.Popen(
            ["/usr/bin/time", "-f", "BENCH %e %M", *argv], stdout=out, stderr=subprocess.PIPE, start_new_session=True
        )
        try:
            _, errors = child.communicate(timeout=DEADLINE_S)
        except subprocess.TimeoutExpired:  # 4.0.2's shell can wait for an image its loader never publishes
            kill_child(child, group=True)
            child.communicate()
            return DEADLINE_S, 0, 0, -1
        size = out.seek(0, os.SEEK_END)
    stderr = errors.decode(errors="replace")
    found = _TIME.search(stderr)
    if found is None:
        raise SystemExit(f"{' '.join(argv[:4])} ... exited {child.returncode}: {stderr[-800:]}")
    return float(found.group(1)), int(found.group(2)) // 1024, size, child.returncode


def kcli_command() -> list[str]:
    """The `kcli` program as an installed user runs it: the console script beside this interpreter."""
    script = Path(sys.executable).parent / "kcli"
    return [str(script)] if script.exists() else [sys.executable, "-m", "kcli"]


def compare(what: str, kafka: list[str], kcli: list[str], runs: int, *, speed_target: str = ">= 5") -> None:
    # interleaved, so that a change of the machine's load while they run weighs on both tools alike
    pairs = [(timed(kafka), timed(kcli)) for _ in range(runs)]
    kafka_runs, kcli_runs = [k for k, _ in pairs], [c for _, c in pairs]
    if any(code for *_, code in kcli_runs):
        raise SystemExit(f"kcli failed: {' '.join(kcli)}")
    empty = sum(1 for _, _, size, _ in kafka_runs if size == 0)
    failed = sum(1 for *_, code in kafka_runs if code > 0)
    stopped = sum(1 for *_, code in kafka_runs if code < 0)
    kafka_wall = statistics.median(t for t, *_ in kafka_runs)
    kcli_wall = statistics.median(t for t, *_ in kcli_runs)
    note = f"; {empty} of {runs} Kafka runs printed nothing" if empty else ""
    note += f"; {failed} of {runs} exited non-zero" if failed else ""
    note += f"; {stopped} of {runs} stopped after {DEADLINE_S:.0f} s" if stopped else ""
    record(f"{what}: Kafka's tool (median wall{note})", kafka_wall, "s")
    record(f"{what}: kcli (median wall)", kcli_wall, "s", baseline=kafka_wall, baseline_name="Kafka's tool")
    record(f"{what}: speed-up over Kafka's tool (wall)", kafka_wall / kcli_wall, "x", target=speed_target)
    kafka_rss, kcli_rss = max(m for _, m, *_ in kafka_runs) or 1, max(m for _, m, *_ in kcli_runs)
    record(f"{what}: Kafka's tool peak RSS", kafka_rss, "MB")
    record(f"{what}: kcli peak RSS", kcli_rss, "MB", baseline=kafka_rss, baseline_name="Kafka's tool")
    record(f"{what}: kcli peak RSS / Kafka's", kcli_rss / kafka_rss, "x", target="<= 1")


def real_snapshot(work: Path, version: str = SHELL_VERSION) -> Path:
    """A populated cluster's controller log (Kafka `version`), copied (the cluster is stopped afterwards)."""
    from kcli.sandbox.kafka.handle import KafkaSandbox
    from tests.metadata_vs_kafka import populate

    work = work / version
    with KafkaSandbox(
        kafka_dist(version), work / "cluster", controllers=1, brokers=2, security="sasl_plaintext",
        authorizer=True, server_config={"metadata.log.max.record.bytes.between.snapshots": "65536",
                                        "delegation.token.secret.key": "bench-secret"},
    ) as kafka:  # fmt: skip
        populate.populate(kafka, work / "populate", topics=1500)
        log = kafka.metadata_log_dir(kafka.controller_ids[0])
    copy = work / "copy" / log.name
    shutil.copytree(log, copy, ignore=shutil.ignore_patterns("*.index", "*.timeindex", "*-checkpoint"))
    return copy


def newest_snapshot(log: Path) -> Path:
    return sorted(p for p in log.glob("*.checkpoint") if not p.name.startswith("00000000000000000000-"))[-1]


def run_file(label: str, snapshot: Path, topic: str, runs: int, *, with_shell: bool = True) -> None:
    dump_home, shell_home = kafka_dist(NEWEST), kafka_dist(SHELL_VERSION)
    kcli = [*kcli_command(), "metadata-shell", "--snapshot", str(snapshot)]
    shell = [str(shell_home / "bin" / "kafka-metadata-shell.sh"), "--snapshot", str(snapshot)]
    dump = [str(dump_home / "bin" / "kafka-dump-log.sh"), "--cluster-metadata-decoder", "--files", str(snapshot)]
    compare(f"{label}: dump", dump, [*kcli, "--dump", "-o", "json"], runs)
    if not with_shell:
        return
    compare(f"{label}: ls /image/topics/byName", [*shell, "ls", "/image/topics/byName"],
            [*kcli, "ls", "/image/topics/byName"], runs)  # fmt: skip
    path = f"/image/topics/byName/{topic}/0"
    compare(f"{label}: cat {path}", [*shell, "cat", path], [*kcli, "cat", path], runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--directory", type=Path, default=Path(tempfile.gettempdir()) / "kcli-bench-metadata")
    parser.add_argument("--real", type=Path, help="a copy of a real 4.0.2 cluster's __cluster_metadata-0")
    args = parser.parse_args()
    if shutil.which("java") is None or not Path("/usr/bin/time").exists():
        raise SystemExit("needs java (Kafka's tools) and /usr/bin/time (peak memory)")
    os.environ["PYTHONPATH"] = str(REPO)
    with tempfile.TemporaryDirectory(prefix="kcli-bench-vs-kafka-") as work:
        real = args.real or real_snapshot(Path(work))
        run_file("real 4.0.2 snapshot (1,500 topics)", newest_snapshot(real), "md-00007", args.runs)
        # the newest Kafka's snapshot beside its own DumpLogSegments (its shell is not on Maven Central,
        # and 4.0.2's one-shot shell waits for ever for the image of a 4.4.0 snapshot)
        newest = real_snapshot(Path(work), NEWEST)
        run_file("real 4.4.0 snapshot (1,500 topics)", newest_snapshot(newest), "md-00007", args.runs, with_shell=False)
    from benchmarks import bench_metadata

    bench_metadata.generate(args.directory, ["snapshot-1m"])
    snapshot = bench_metadata.data_files(args.directory / "snapshot-1m")[0]
    first_topic = bench_metadata.Cluster().topic_names[0]
    run_file("1,000,000-partition snapshot", snapshot, first_topic, args.runs)


if __name__ == "__main__":
    main()
