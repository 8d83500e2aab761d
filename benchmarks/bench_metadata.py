"""Benchmark the metadata reader on the shapes Kafka writes: image build, --dump, a cold `ls`.

    python benchmarks/bench_metadata.py [--directory ROOT] [--shapes a,b] [--runs N] [--before DIR]

Generates with kcli's writer (once; ROOT keeps them between runs) one log directory per shape:

- snapshot-1m: what a 1,000,000-partition cluster's controller writes as its snapshot (Kafka 4.x,
  MetadataVersion 4.0-IV3): one `.checkpoint` with the SnapshotHeaderRecord and SnapshotFooterRecord
  control batches around data batches of up to 8 MiB (KafkaRaftClient.MAX_BATCH_SIZE_BYTES), in
  the image's order: FeatureLevelRecords, 300 RegisterBrokerRecords v3, then per topic a TopicRecord
  and its 36 PartitionRecords v2 (3 replicas striped over three racks, their log directories,
  leader and partition epochs of a cluster that has lived, 2% of ISRs shrunk), then two
  ConfigRecords per topic, then the ProducerIdsRecord. 27,778 topics: 1,000,008 partitions.
- log-10k: the log a 3.x controller writes while that cluster is created and lives: bootstrap
  records, RegisterBrokerRecords v2, CreateTopics results (TopicRecord, its ConfigRecords, its
  PartitionRecords v0) in batches of up to 10,000 records (QuorumController.MAX_RECORDS_PER_BATCH),
  then rolling restarts (BrokerRegistrationChangeRecords, PartitionChangeRecords v0 moving leaders
  and shrinking/expanding ISRs, in 10,000-record batches) and the idle controller's NoOpRecord
  batches (one record each) between them.
- log-zstd: the same records as log-10k, each data batch zstd-compressed.
- today: the earlier benchmark's log (10,000 topics x 10 partitions in batches of <= 50 records,
  then PartitionChangeRecords and NoOpRecords up to 1,000,000 records).

Then, per shape, each command in fresh processes (`--runs`, default 3, median by CPU time):

- image: build the metadata image in-process (kcli.metadata.image.build_image), CPU and peak RSS.
- dump:  `python -m kcli metadata-shell --directory D --dump -o json > /dev/null`, a whole process.
- ls:    `python -m kcli metadata-shell --directory D ls /image/topics/byName > /dev/null`, cold.
- kio:   kio.records.readers.read_batch over the same file(s), no body decoding: the baseline.
  kio has no decompression; for a compressed batch the baseline checks the CRC, inflates the
  records with cramjam (as kcli does) and frames each record with kio's read_record.

Rates are decoded records per CPU second (user + sys): every record read except NoOpRecords,
which are counted apart (the manifest of each shape says how many there are). The machine is
shared, so wall figures say more about the neighbours than about kcli; the load average is printed.
`--before DIR` (or KCLI_BENCH_BEFORE) also runs every command against another checkout's `kcli`
package (e.g. an export of main) in the same run, a before/after pair in the same conditions; its
figures are labelled "before". `--code DIR` measures only that checkout.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

SHAPES = ("snapshot-1m", "log-10k", "log-zstd", "today")
MANIFEST = "manifest.json"
NOW = 1_750_000_000_000


# -- generation ------------------------------------------------------------------------------------


class Cluster:
    """The big cluster both the snapshot and the logs describe (deterministic for a seed)."""

    BROKERS = 300
    TOPICS = 27_778
    PARTITIONS = 36

    def __init__(self, seed: int = 16) -> None:
        self.random = random.Random(seed)
        self.brokers = list(range(1, self.BROKERS + 1))
        self.racks = {broker: f"rack-{broker % 3}" for broker in self.brokers}
        # interleaved by rack, as StripedReplicaPlacer walks them
        self.striped = sorted(self.brokers, key=lambda b: (b // 3, b % 3))
        self.directories = {broker: self._uuid() for broker in self.brokers}
        self.incarnations = {broker: self._uuid() for broker in self.brokers}
        words = ["orders", "payments", "clicks", "audit", "billing", "search", "events", "inventory"]
        self.topic_names = [
            f"{self.random.choice(words)}.{self.random.choice(words)}-service.v{i % 7 + 1}-{i:05d}"
            for i in range(self.TOPICS)
        ]
        self.topic_ids = [self._uuid() for _ in range(self.TOPICS)]

    def _uuid(self) -> uuid.UUID:
        return uuid.UUID(int=self.random.getrandbits(128))

    def replicas(self, topic: int, partition: int) -> tuple[int, int, int]:
        count = len(self.striped)
        start = (topic * 7919) % count
        shift = 1 + (topic * 104_729) % (count - 2)
        leader = self.striped[(start + partition) % count]
        second = self.striped[(start + partition + shift) % count]
        third = self.striped[(start + partition + shift + 1) % count]
        if second == leader or third == leader:
            third = self.striped[(start + partition + shift + 2) % count]
        return leader, second, third

    def partition_state(
        self, topic: int, partition: int
    ) -> tuple[tuple[int, ...], tuple[int, ...], int, int]:
        """(replicas, isr, leader epoch, partition epoch) of a partition of a cluster that has lived."""
        replicas = self.replicas(topic, partition)
        isr = replicas[:2] if self.random.random() < 0.02 else replicas
        leader_epoch = int(self.random.expovariate(0.25))
        partition_epoch = leader_epoch + int(self.random.expovariate(0.5))
        return replicas, isr, leader_epoch, partition_epoch


def _features(records: Any, levels: dict[str, int]) -> list[Any]:
    from kio.static.primitive import i16

    return [records.FeatureLevelRecord(name=name, feature_level=i16(level)) for name, level in levels.items()]


def _broker(r: Any, cluster: Cluster, broker: int, version: int) -> Any:
    from kio.static.primitive import i16, i32, i64, u16

    common = {
        "broker_id": i32(broker),
        "incarnation_id": cluster.incarnations[broker],
        "broker_epoch": i64(broker * 100),
        "end_points": (
            r.BrokerEndpoint(
                name="INTERNAL", host=f"broker-{broker}.kafka.svc", port=u16(9092), security_protocol=i16(0)
            ),
            r.BrokerEndpoint(
                name="EXTERNAL", host=f"broker-{broker}.example.com", port=u16(9093), security_protocol=i16(1)
            ),
        ),
        "features": (
            r.BrokerFeature(
                name="metadata.version", min_supported_version=i16(1), max_supported_version=i16(25)
            ),
        ),
        "rack": cluster.racks[broker],
        "fenced": False,
    }
    if version == 3:
        return r.RegisterBrokerRecordV3(**common, log_dirs=(cluster.directories[broker],))
    return r.RegisterBrokerRecordV2(**common)


def _configs(r: Any, name: str) -> list[Any]:
    from kio.static.primitive import i8

    return [
        r.ConfigRecord(resource_type=i8(2), resource_name=name, name="retention.ms", value="604800000"),
        r.ConfigRecord(resource_type=i8(2), resource_name=name, name="min.insync.replicas", value="2"),
    ]


def snapshot_records(cluster: Cluster) -> Iterator[Any]:
    """The image of the big cluster in the order MetadataImage.write puts it (Kafka 4.0)."""
    from kio.static.primitive import i32, i64

    from kcli.metadata import records as r

    yield from _features(r, {"metadata.version": 25, "group.version": 1, "transaction.version": 2})
    for broker in cluster.brokers:
        yield _broker(r, cluster, broker, 3)
    for topic, (name, topic_id) in enumerate(zip(cluster.topic_names, cluster.topic_ids, strict=True)):
        yield r.TopicRecord(name=name, topic_id=topic_id)
        for partition in range(cluster.PARTITIONS):
            replicas, isr, leader_epoch, partition_epoch = cluster.partition_state(topic, partition)
            yield r.PartitionRecordV2(
                partition_id=i32(partition),
                topic_id=topic_id,
                replicas=tuple(i32(b) for b in replicas),
                isr=tuple(i32(b) for b in isr),
                removing_replicas=(),
                adding_replicas=(),
                leader=i32(replicas[0]),
                leader_epoch=i32(leader_epoch),
                partition_epoch=i32(partition_epoch),
                directories=tuple(cluster.directories[b] for b in replicas),
            )
    for name in cluster.topic_names:
        yield from _configs(r, name)
    yield r.ProducerIdsRecord(broker_id=i32(1), broker_epoch=i64(100), next_producer_id=i64(3_000_000))


def write_snapshot(directory: Path) -> dict[str, Any]:
    from kcli.metadata.writer import MetadataLogWriter

    cluster = Cluster()
    with MetadataLogWriter(directory, node_id=3000, cluster_id="bigclusterbigclusterAA") as log:
        records = list(snapshot_records(cluster))
        path = log.write_snapshot(
            records, offset=48_211_907, epoch=212, timestamp_ms=NOW, last_contained_log_timestamp=NOW - 500
        )
        log.write_quorum_state(leader_id=3000, leader_epoch=212, voters=[3000, 3001, 3002])
    return {"files": {path.name: {"records": len(records) + 2, "noops": 0}}, "topics": cluster.TOPICS}


class LogBuilder:
    """Appends the log-10k records, as a 3.x controller would write them, to one or more writers."""

    BATCH = 10_000

    def __init__(self, writers: list[tuple[Any, Any]]) -> None:
        self.writers = writers  # (MetadataLogWriter, Compression)
        self.pending: list[Any] = []
        self.records = 0
        self.noops = 0
        self.clock = NOW

    def add(self, records: list[Any]) -> None:
        """One controller result: joins the open batch unless that would pass 10,000 records."""
        if len(self.pending) + len(records) > self.BATCH:
            self.flush()
        self.pending.extend(records)

    def flush(self) -> None:
        from kcli.metadata import records as r

        for start in range(0, len(self.pending), self.BATCH):
            chunk = self.pending[start : start + self.BATCH]
            for writer, compression in self.writers:
                writer.append(
                    chunk, epoch=writer.epoch or 1, timestamp_ms=self.clock, compression=compression
                )
            self.records += len(chunk)
            self.clock += 37
        self.pending = []
        # the idle controller writes a NoOpRecord batch every 500 ms between results
        for _ in range(3):
            for writer, _compression in self.writers:
                writer.append([r.NoOpRecord()], epoch=writer.epoch or 1, timestamp_ms=self.clock)
            self.records += 1
            self.noops += 1
            self.clock += 500


def write_logs(directories: list[tuple[Path, Any]]) -> dict[str, Any]:
    """Write log-10k (and log-zstd) side by side: the same records, one pass."""
    from kio.static.primitive import i8, i16, i32, i64

    from kcli.metadata import records as r
    from kcli.metadata.writer import MetadataLogWriter

    cluster = Cluster(seed=17)
    writers = [
        (MetadataLogWriter(directory, node_id=3000, cluster_id="bigclusterbigclusterAA"), compression)
        for directory, compression in directories
    ]
    builder = LogBuilder(writers)
    voters = tuple(r.Voter(voter_id=i32(v)) for v in (3000, 3001, 3002))
    for writer, _compression in writers:
        writer.append_control(
            [
                r.LeaderChangeMessage(
                    version=i16(0), leader_id=i32(3000), voters=voters, granting_voters=voters
                )
            ],
            epoch=1,
            timestamp_ms=NOW,
        )
    builder.records += 1
    builder.add(_features(r, {"metadata.version": 14}))
    builder.flush()
    for broker in cluster.brokers:
        builder.add([_broker(r, cluster, broker, 2)])
    builder.flush()
    # CreateTopics requests of 250 topics each: TopicRecord, ConfigRecords, PartitionRecords per topic
    for topic, (name, topic_id) in enumerate(zip(cluster.topic_names, cluster.topic_ids, strict=True)):
        result: list[Any] = [r.TopicRecord(name=name, topic_id=topic_id), *_configs(r, name)]
        for partition in range(cluster.PARTITIONS):
            replicas = tuple(i32(b) for b in cluster.replicas(topic, partition))
            result.append(
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
        builder.add(result)
        if topic % 250 == 249:
            builder.flush()
    builder.flush()
    # rolling restarts: a broker is fenced, its leaderships move and ISRs shrink, then back
    moves = 0
    rng = random.Random(18)
    while moves < 300_000:
        broker = rng.choice(cluster.brokers)
        builder.add(
            [
                r.BrokerRegistrationChangeRecordV1(
                    broker_id=i32(broker), broker_epoch=i64(broker * 100), fenced=i8(1)
                )
            ]
        )
        changes: list[Any] = []
        for _ in range(1_000):
            topic = rng.randrange(cluster.TOPICS)
            partition = rng.randrange(cluster.PARTITIONS)
            placed = cluster.replicas(topic, partition)
            others = tuple(i32(b) for b in placed if b != broker) or (i32(placed[0]),)
            leader = others[0] if broker == placed[0] else i32(-2)  # -2: no leader change
            changes.append(
                r.PartitionChangeRecordV0(
                    partition_id=i32(partition), topic_id=cluster.topic_ids[topic], leader=leader, isr=others
                )
            )
        builder.add(changes)
        builder.add(
            [
                r.BrokerRegistrationChangeRecordV1(
                    broker_id=i32(broker), broker_epoch=i64(broker * 100), fenced=i8(-1)
                )
            ]
        )
        moves += len(changes)
    builder.flush()
    for writer, _compression in writers:
        writer.close()
    files = {
        path.name: {"records": builder.records, "noops": builder.noops}
        for path in sorted((directories[0][0] / "__cluster_metadata-0").glob("*.log"))
    }
    if len(files) != 1:
        raise RuntimeError("the log shapes are meant to fit one segment")
    return {"files": files, "topics": cluster.TOPICS}


def write_today(directory: Path, total: int = 1_000_000) -> dict[str, Any]:
    """The earlier benchmark's shape: 10,000 topics x 10, then changes and NoOps (batches of <= 50)."""
    from kio.static.primitive import i8, i16, i32, i64, u16

    from kcli.metadata import records as r
    from kcli.metadata.writer import MetadataLogWriter

    topics, partitions, brokers = 10_000, 10, 6
    written = noops = 0
    with MetadataLogWriter(directory, node_id=1, cluster_id="benchmarkclusterid0001") as log:
        voters = tuple(r.Voter(voter_id=i32(b)) for b in range(1, 4))
        log.append_control(
            [r.LeaderChangeMessage(version=i16(0), leader_id=i32(1), voters=voters, granting_voters=voters)],
            epoch=1,
            timestamp_ms=NOW,
        )
        bootstrap: list[Any] = [r.FeatureLevelRecord(name="metadata.version", feature_level=i16(25))]
        for broker in range(1, brokers + 1):
            bootstrap.append(
                r.RegisterBrokerRecordV3(
                    broker_id=i32(broker),
                    incarnation_id=uuid.UUID(int=broker),
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
                    log_dirs=(uuid.UUID(int=1000 + broker),),
                )
            )
        written = 1 + log.append(bootstrap, epoch=1, timestamp_ms=NOW)
        topic_ids = []
        for topic in range(topics):
            topic_id = uuid.UUID(int=random.Random(topic).getrandbits(128))
            topic_ids.append(topic_id)
            batch: list[Any] = [r.TopicRecord(name=f"topic-{topic:05d}", topic_id=topic_id)]
            for partition in range(partitions):
                replicas = tuple(i32((partition + k) % brokers + 1) for k in range(3))
                batch.append(
                    r.PartitionRecordV0(
                        partition_id=i32(partition), topic_id=topic_id, replicas=replicas, isr=replicas,
                        removing_replicas=(), adding_replicas=(), leader=replicas[0], leader_epoch=i32(0),
                        partition_epoch=i32(0),
                    )
                )  # fmt: skip
            for key, value in (("retention.ms", "604800000"), ("cleanup.policy", "delete")):
                batch.append(
                    r.ConfigRecord(
                        resource_type=i8(2), resource_name=f"topic-{topic:05d}", name=key, value=value
                    )
                )
            written = 1 + log.append(batch, epoch=1, timestamp_ms=NOW + topic)
        change_target = written + (total - written) // 2
        step = 0
        while written + 50 <= change_target:
            batch = []
            for _ in range(50):
                leader = i32(step % brokers + 1)
                batch.append(
                    r.PartitionChangeRecordV0(
                        partition_id=i32(step % partitions), topic_id=topic_ids[step % topics], leader=leader,
                        isr=(leader,),
                    )
                )  # fmt: skip
                step += 1
            written = 1 + log.append(batch, epoch=1, timestamp_ms=NOW + 100_000 + step)
        while written < total:
            written = 1 + log.append([r.NoOpRecord()], epoch=1, timestamp_ms=NOW + 200_000 + written)
            noops += 1
    segment = next((directory / "__cluster_metadata-0").glob("*.log"))
    return {"files": {segment.name: {"records": written, "noops": noops}}, "topics": topics}


def generate(root: Path, shapes: list[str]) -> None:
    """Write every missing shape under `root` (each in its own directory, with a manifest)."""
    from kcli.metadata.batch import Compression

    missing = [shape for shape in shapes if not (root / shape / MANIFEST).exists()]
    if "log-10k" in missing or "log-zstd" in missing:
        pair: list[str] = [name for name in ("log-10k", "log-zstd") if name in missing]
        started = time.perf_counter()
        manifest = write_logs(
            [(root / s, Compression.ZSTD if s == "log-zstd" else Compression.NONE) for s in pair]
        )
        for shape in pair:
            (root / shape / MANIFEST).write_text(json.dumps(manifest))
        print(f"generated {', '.join(pair)} in {time.perf_counter() - started:.0f} s", flush=True)
    writers: tuple[tuple[str, Any], ...] = (("snapshot-1m", write_snapshot), ("today", write_today))
    for shape, write in writers:
        if shape in missing:
            started = time.perf_counter()
            manifest = write(root / shape)
            (root / shape / MANIFEST).write_text(json.dumps(manifest))
            print(f"generated {shape} in {time.perf_counter() - started:.0f} s", flush=True)


# -- measuring -------------------------------------------------------------------------------------


def data_files(shape_dir: Path) -> list[Path]:
    manifest = json.loads((shape_dir / MANIFEST).read_text())
    return [shape_dir / "__cluster_metadata-0" / name for name in manifest["files"]]


def kio_scan(paths: list[Path]) -> int:
    """Every record of the files through kio's reader (no bodies decoded); returns the count."""
    import struct

    import cramjam
    from crc32c import crc32c
    from kio.records.readers import read_batch, read_record

    header = struct.Struct(">qiibIhiqqqhii")
    records = 0
    for path in paths:
        data = path.read_bytes()
        position = 0
        while position < len(data):
            (base_offset, length, _e, _m, crc, attributes, _d, base_ts, _mx, _p, _pe, _s, count) = (
                header.unpack_from(data, position)
            )
            if attributes & 0x07 == 0:
                batch, size = read_batch(data, position)
                records += len(batch.records)
                position += size
                continue
            end = position + 12 + length
            if crc32c(memoryview(data)[position + 21 : end]) != crc:
                raise ValueError("Checksum mismatch when reading record batch")
            area = bytes(cramjam.zstd.decompress(data[position + 61 : end]))
            offset = 0
            for _ in range(count):
                _record, size = read_record(area, base_ts, base_offset, offset)
                offset += size
            records += count
            position = end
    return records


def measure_in_process(kind: str, shape_dir: Path) -> dict[str, Any]:
    """One measurement in this fresh process (CPU from here, imports included)."""
    sys.modules.setdefault("hypothesis", None)  # type: ignore[arg-type]  # as the console entry does
    cpu = time.process_time()
    start = time.perf_counter()
    if kind == "image":
        from kcli.metadata.image import build_image

        image = build_image(shape_dir)
        records = image.stats.records
        topics = len(image.topics)
        manifest = json.loads((shape_dir / MANIFEST).read_text())
        if topics != manifest["topics"]:
            raise RuntimeError(f"image has {topics} topics, expected {manifest['topics']}")
    else:
        records = kio_scan(data_files(shape_dir))
    return {
        "cpu": time.process_time() - cpu,
        "wall": time.perf_counter() - start,
        "records": records,
        "kcli": str(Path(sys.modules["kcli"].__file__ or "").parent) if "kcli" in sys.modules else "",
    }


def _child_env(code: Path | None) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # measure as installed: bytecode cached
    if code is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(code), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    return env


def run_child(argv: list[str], code: Path | None, *, capture: bool = False) -> dict[str, Any]:
    """Run a whole process; its wall time, CPU (user + sys) and peak RSS from its own rusage."""
    start = time.perf_counter()
    with open(os.devnull, "w") as sink:
        child = subprocess.Popen(
            argv,
            stdout=subprocess.PIPE if capture else sink,
            env=_child_env(code),
            text=True,
            cwd=tempfile.gettempdir(),  # `-m` puts the working directory first on sys.path
        )
        output = child.stdout.read() if capture and child.stdout else ""
        _pid, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)} exited {child.returncode}")
    return {
        "wall": wall,
        "cpu": usage.ru_utime + usage.ru_stime,
        "rss_mb": usage.ru_maxrss / 1024,
        "output": output,
    }


def measure(kind: str, shape_dir: Path, code: Path | None) -> dict[str, Any]:
    python = sys.executable
    if kind in ("image", "kio"):
        argv = [python, __file__, "--measure", kind, "--directory", str(shape_dir)]
        result = run_child(argv, code, capture=True)
        inner = json.loads(result["output"])
        return {**inner, "rss_mb": result["rss_mb"], "process_cpu": result["cpu"]}
    command = ["ls", "/image/topics/byName"] if kind == "ls" else ["--dump", "-o", "json"]
    argv = [python, "-m", "kcli", "metadata-shell", "--directory", str(shape_dir), *command]
    return run_child(argv, code)


def median_run(kind: str, shape_dir: Path, code: Path | None, runs: int) -> dict[str, Any]:
    if runs > 1:
        measure(kind, shape_dir, code)  # warm: bytecode written, the file in the page cache
    results = sorted((measure(kind, shape_dir, code) for _ in range(runs)), key=lambda r: r["cpu"])
    chosen = dict(results[len(results) // 2])
    chosen["cpus"] = [round(r["cpu"], 2) for r in results]
    return chosen


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--directory",
        type=Path,
        default=os.environ.get("KCLI_BENCH_METADATA_DIR") or None,
        help="where the shapes are (generated when missing; KCLI_BENCH_METADATA_DIR)",
    )
    parser.add_argument("--shapes", default=",".join(SHAPES))
    parser.add_argument("--runs", type=int, default=3, help="fresh processes per measurement (median)")
    parser.add_argument("--code", type=Path, help="measure the kcli package of this checkout instead")
    parser.add_argument(
        "--before",
        type=Path,
        default=os.environ.get("KCLI_BENCH_BEFORE") or None,
        help="also measure this checkout's kcli package (e.g. main), labelled 'before'",
    )
    parser.add_argument("--before-runs", type=int, default=1, help="fresh processes per 'before' measurement")
    parser.add_argument("--label", default="", help="prefix of every figure (e.g. 'before')")
    parser.add_argument("--measure", choices=["image", "kio"], help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        print(json.dumps(measure_in_process(args.measure, args.directory)))
        return
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run as a script, too
    from benchmarks.figures import record

    root = args.directory or Path(tempfile.mkdtemp(prefix="kcli-bench-"))
    shapes = [shape for shape in args.shapes.split(",") if shape]
    unknown = set(shapes) - set(SHAPES)
    if unknown:
        parser.error(f"unknown shapes {sorted(unknown)} (known: {', '.join(SHAPES)})")
    generate(root, shapes)
    print(f"load average {os.getloadavg()[0]:.1f} at the start; CPU figures are user+sys", flush=True)
    passes = [(args.label, args.code, args.runs)]
    if args.before is not None:
        passes.insert(0, ("before", args.before, args.before_runs))
    for label, code, runs in passes:
        for shape in shapes:
            measure_shape(root / shape, shape, f"{label}: " if label else "", code, runs, record)
    print(f"(load average {os.getloadavg()[0]:.1f} at the end)", flush=True)


def measure_shape(shape_dir: Path, shape: str, label: str, code: Path | None, runs: int, record: Any) -> None:
    """Every command on one shape, its figures recorded."""
    manifest = json.loads((shape_dir / MANIFEST).read_text())
    total = sum(f["records"] for f in manifest["files"].values())
    noops = sum(f["noops"] for f in manifest["files"].values())
    decoded = total - noops
    size = sum(path.stat().st_size for path in data_files(shape_dir))
    print(
        f"== {label}{shape}: {total:,} records ({noops:,} NoOpRecords counted apart), {size / 1e6:.0f} MB",
        flush=True,
    )
    kio = median_run("kio", shape_dir, code, 1)  # the baseline is slow: one run
    if kio["records"] != total:
        raise RuntimeError(f"kio read {kio['records']} records, the manifest says {total}")
    image = median_run("image", shape_dir, code, runs)
    if image["records"] != total:
        raise RuntimeError(f"the image build read {image['records']} records, the manifest says {total}")
    print(f"   (image build from {image['kcli']})", flush=True)
    dump = median_run("dump", shape_dir, code, runs)
    ls = median_run("ls", shape_dir, code, runs)
    kio_rate = decoded / kio["cpu"]
    baseline = "kio read_batch (no bodies)"
    for name, result in (("image build", image), ("--dump -o json", dump)):
        rate = decoded / result["cpu"]
        record(f"{label}{shape}: {name}: decoded records per CPU second", rate, "records/s",
               target=">= 500000", baseline=kio_rate, baseline_name=baseline)  # fmt: skip
        record(f"{label}{shape}: {name}: speed over kio read_batch (CPU)", rate / kio_rate, "x",
               target=">= 5")  # fmt: skip
        record(f"{label}{shape}: {name}: CPU", result["cpu"], "s")
        print(f"   ({name} CPU of each run: {result['cpus']})", flush=True)
    record(f"{label}{shape}: image build: peak RSS", image["rss_mb"], "MB",
           target="< 1024" if shape == "snapshot-1m" else None)  # fmt: skip
    record(f"{label}{shape}: --dump -o json: peak RSS (streams: constant memory)", dump["rss_mb"], "MB",
           target="< 200", baseline=size / 1e6, baseline_name="size of the file(s)")  # fmt: skip
    record(f"{label}{shape}: cold `ls /image/topics/byName`: wall", ls["wall"], "s",
           target="<= 2" if shape == "snapshot-1m" else None)  # fmt: skip
    record(f"{label}{shape}: cold `ls /image/topics/byName`: CPU", ls["cpu"], "s")
    record(f"{label}{shape}: cold `ls /image/topics/byName`: peak RSS", ls["rss_mb"], "MB")
    record(f"{label}{shape}: kio read_batch: CPU", kio["cpu"], "s")


if __name__ == "__main__":
    main()
