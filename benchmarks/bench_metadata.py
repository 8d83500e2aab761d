"""Benchmark the metadata reader: a generated 1,000,000-record KRaft log, read four ways.

    python benchmarks/bench_metadata.py [--directory DIR] [--records N]

Generates (with kcli's writer, unless DIR already holds a log) a cluster of 6 brokers and
10,000 topics x 10 partitions = 100,000 partitions with 2 topic configs each, followed by
PartitionChangeRecords (leader/ISR moves) and NoOpRecords (one per batch, as the controller
writes them) up to N records. Then, each in a fresh process so peak RSS is its own:

- dump:   `--dump -o json` of every record to /dev/null (records/s)
- image:  build the metadata image (records/s, peak RSS)
- ls:     `kcli metadata-shell --directory DIR ls /topics > /dev/null` from a cold start (wall s)
- kio:    kio.records.readers.read_batch over the same segment(s), no body decoding (records/s)

dump, image and ls run `--runs` times (default 3) and report the median by CPU time (user+sys):
the machine is shared, so wall figures say more about the neighbours than about kcli. Figures go
through benchmarks/figures.py (kio's reader is the baseline).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

TOPICS = 10_000
PARTITIONS = 10
BROKERS = 6


def generate(directory: Path, total: int) -> int:
    """Write the benchmark log; returns the number of records written."""
    from kio.static.primitive import i8, i16, i32, i64, u16

    from kcli.metadata import records as r
    from kcli.metadata.writer import MetadataLogWriter

    written = 0
    now = 1_750_000_000_000
    with MetadataLogWriter(directory, node_id=1, cluster_id="benchmarkclusterid0001") as log:
        voters = tuple(r.Voter(voter_id=i32(b)) for b in range(1, 4))
        log.append_control(
            [r.LeaderChangeMessage(version=i16(0), leader_id=i32(1), voters=voters, granting_voters=voters)],
            epoch=1,
            timestamp_ms=now,
        )
        written += 1
        bootstrap: list[object] = [r.FeatureLevelRecord(name="metadata.version", feature_level=i16(25))]
        for broker in range(1, BROKERS + 1):
            bootstrap.append(
                r.RegisterBrokerRecordV3(
                    broker_id=i32(broker),
                    incarnation_id=uuid.uuid4(),
                    broker_epoch=i64(broker),
                    end_points=(
                        r.BrokerEndpoint(
                            name="PLAINTEXT", host=f"broker{broker}", port=u16(9092), security_protocol=i16(0)
                        ),
                    ),
                    features=(
                        r.BrokerFeature(
                            name="metadata.version",
                            min_supported_version=i16(7),
                            max_supported_version=i16(25),
                        ),
                    ),
                    rack=f"rack{broker % 3}",
                    fenced=False,
                    log_dirs=(uuid.uuid4(),),
                )
            )
        written = 1 + log.append(bootstrap, epoch=1, timestamp_ms=now)  # type: ignore[arg-type]
        topic_ids = []
        for topic in range(TOPICS):
            topic_id = uuid.uuid4()
            topic_ids.append(topic_id)
            batch: list[object] = [r.TopicRecord(name=f"topic-{topic:05d}", topic_id=topic_id)]
            for partition in range(PARTITIONS):
                replicas = tuple(i32((partition + k) % BROKERS + 1) for k in range(3))
                batch.append(
                    r.PartitionRecordV0(
                        partition_id=i32(partition),
                        topic_id=topic_id,
                        replicas=replicas,
                        isr=replicas,
                        removing_replicas=(),
                        adding_replicas=(),
                        leader=replicas[0],
                        leader_epoch=i32(0),
                        partition_epoch=i32(0),
                    )
                )
            batch.append(
                r.ConfigRecord(
                    resource_type=i8(2),
                    resource_name=f"topic-{topic:05d}",
                    name="retention.ms",
                    value="604800000",
                )
            )
            batch.append(
                r.ConfigRecord(
                    resource_type=i8(2),
                    resource_name=f"topic-{topic:05d}",
                    name="cleanup.policy",
                    value="delete",
                )
            )
            written = 1 + log.append(batch, epoch=1, timestamp_ms=now + topic)  # type: ignore[arg-type]
        change_target = written + (total - written) // 2
        step = 0
        while written + 50 <= change_target:
            batch = []
            for _ in range(50):
                topic_id = topic_ids[step % TOPICS]
                leader = i32(step % BROKERS + 1)
                batch.append(
                    r.PartitionChangeRecordV0(
                        partition_id=i32(step % PARTITIONS), topic_id=topic_id, leader=leader, isr=(leader,)
                    )
                )
                step += 1
            written = 1 + log.append(batch, epoch=1, timestamp_ms=now + 100_000 + step)  # type: ignore[arg-type]
        noop = [r.NoOpRecord()]
        while written < total:
            written = 1 + log.append(noop, epoch=1, timestamp_ms=now + 200_000 + written)  # type: ignore[arg-type]
    return written


def _peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def measure(kind: str, directory: Path) -> dict[str, float]:
    """Run one measurement in this (fresh) process."""
    sys.modules.setdefault("hypothesis", None)  # type: ignore[arg-type]  # as the console entry does
    start = time.perf_counter()
    cpu = time.process_time()
    if kind == "dump":
        from kcli.env import Env
        from kcli.metadata.directory import find_log_directory
        from kcli.metadata.reader import ReadStats
        from kcli.shell.session import SessionRequest, dump

        stats = ReadStats()
        with open(os.devnull, "w") as sink:
            dump(
                find_log_directory(directory),
                SessionRequest(directory=directory, dump=True, json=True),
                Env(stdout=sink),
                stats=stats,
            )
        records = stats.records
    elif kind == "image":
        from kcli.metadata.image import build_image

        image = build_image(directory)
        records = image.stats.records
        assert len(image.topics) == TOPICS
    elif kind == "kio":
        from kio.records.readers import read_batch

        records = 0
        for segment in sorted((directory / "__cluster_metadata-0").glob("*.log")):
            data = segment.read_bytes()
            position = 0
            while position < len(data):
                batch, size = read_batch(data, position)
                position += size
                records += len(batch.records)
    else:
        raise SystemExit(f"unknown measurement {kind}")
    seconds = time.perf_counter() - start
    cpu_seconds = time.process_time() - cpu
    return {
        "seconds": seconds,
        "cpu_seconds": cpu_seconds,
        "records": records,
        "records_per_s": records / seconds,
        "records_per_cpu_s": records / cpu_seconds,
        "peak_rss_mb": _peak_rss_mb(),
    }


def _run_measure(kind: str, directory: Path) -> dict[str, float]:
    output = subprocess.run(
        [sys.executable, __file__, "--measure", kind, "--directory", str(directory)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    result: dict[str, float] = json.loads(output)
    print(
        f"{kind:6s} {result['records']:>9,.0f} records  {result['seconds']:6.2f} s wall "
        f"({result['records_per_s']:>9,.0f}/s)  {result['cpu_seconds']:6.2f} s CPU "
        f"({result['records_per_cpu_s']:>9,.0f}/s)  peak RSS {result['peak_rss_mb']:.0f} MB",
        flush=True,
    )
    return result


def _median_run(kind: str, directory: Path, runs: int) -> dict[str, float]:
    """The run with the median CPU time of `runs` fresh processes (the machine may be shared)."""
    results = sorted((_run_measure(kind, directory) for _ in range(runs)), key=lambda r: r["cpu_seconds"])
    return results[len(results) // 2]


def _cold_command(argv: list[str], runs: int) -> tuple[float, float]:
    """Median wall seconds and median CPU seconds (user + sys) of `argv` run `runs` times."""
    walls: list[float] = []
    cpus: list[float] = []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        with open(os.devnull, "w") as sink:
            subprocess.run(argv, check=True, stdout=sink)
        walls.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return statistics.median(walls), statistics.median(cpus)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--directory", type=Path)
    parser.add_argument("--records", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=3, help="fresh processes per measurement (median)")
    parser.add_argument("--measure", choices=["dump", "image", "kio"])
    args = parser.parse_args()
    if args.measure:
        print(json.dumps(measure(args.measure, args.directory)))
        return
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run as a script, too
    from benchmarks.figures import record

    directory = args.directory or Path(tempfile.mkdtemp(prefix="kcli-bench-"))
    if not (directory / "__cluster_metadata-0").exists():
        start = time.perf_counter()
        written = generate(directory, args.records)
        print(f"generated {written:,} records in {time.perf_counter() - start:.1f} s into {directory}")
    size = sum(p.stat().st_size for p in (directory / "__cluster_metadata-0").glob("*.log"))
    print(f"log size {size / 1e6:.1f} MB; load average {os.getloadavg()[0]:.1f}; CPU figures are user+sys")
    kio = _run_measure("kio", directory)  # the baseline is slow: one run
    dump = _median_run("dump", directory, args.runs)
    image = _median_run("image", directory, args.runs)
    kcli = str(Path(sys.executable).with_name("kcli"))
    ls_wall, ls_cpu = _cold_command(
        [kcli, "metadata-shell", "--directory", str(directory), "ls", "/topics"], args.runs
    )
    help_wall, help_cpu = _cold_command([kcli, "--help"], args.runs)
    baseline = "kio read_batch (no bodies)"
    record("metadata --dump -o json: records per CPU second", dump["records_per_cpu_s"], "records/s",
           target=">= 500000", baseline=kio["records_per_cpu_s"], baseline_name=baseline)  # fmt: skip
    record("metadata --dump -o json: records per wall second", dump["records_per_s"], "records/s",
           baseline=kio["records_per_s"], baseline_name=baseline)  # fmt: skip
    record("metadata image build: records per CPU second", image["records_per_cpu_s"], "records/s",
           target=">= 500000", baseline=kio["records_per_cpu_s"], baseline_name=baseline)  # fmt: skip
    record("metadata image build: records per wall second", image["records_per_s"], "records/s",
           baseline=kio["records_per_s"], baseline_name=baseline)  # fmt: skip
    record("metadata image build: peak RSS", image["peak_rss_mb"], "MB", target="< 1024",
           baseline=kio["peak_rss_mb"], baseline_name=baseline)  # fmt: skip
    record("metadata-shell cold `ls /topics` on 1M records: wall", ls_wall, "s", target="< 2",
           baseline=help_wall, baseline_name="kcli --help")  # fmt: skip
    record("metadata-shell cold `ls /topics` on 1M records: CPU", ls_cpu, "s", target="< 2",
           baseline=help_cpu, baseline_name="kcli --help")  # fmt: skip
    print(f"(load average {os.getloadavg()[0]:.1f} at the end)")


if __name__ == "__main__":
    main()
