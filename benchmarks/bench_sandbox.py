"""Benchmark: a sandbox with 10,000 topics x 10 partitions (100k partitions), and an empty one.

Measures how long `up` takes until every listener accepts, how long one Metadata request for
every topic and one DescribeConfigs request for every topic take over the wire, and peak memory.
Targets: ready < 10 s, each request < 1 s, memory < 1 GB; an empty 3 + 3 sandbox ready < 1 s
(once the process has imported what a sandbox needs).

Then the first read of every partition of a new sandbox (2,000 topics x 3 partitions, replication
factor 3: 18,000 replicas): `kcli get-offsets` as a user runs it, just after `up` and a second time.
Target: the first run within 2x of the second (the replicas nothing was written to are not laid out
on disk by a read).

    python benchmarks/bench_sandbox.py [--topics 10000] [--partitions 10] [--offsets-topics 2000]
"""

from __future__ import annotations

import argparse
import io
import resource
import socket
import struct
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.modules.setdefault("hypothesis", None)  # type: ignore[arg-type]  # kio's optional hypothesis hook is slow


def call(address: str, request: Any) -> tuple[Any, float, int]:
    """Send one kio request on a new connection: (response, seconds, response bytes)."""
    from kio.index import load_response_schema
    from kio.serial import entity_reader, entity_writer

    host, port = address.rsplit(":", 1)
    cls = type(request)
    header_cls = cls.__header_schema__
    buffer = io.BytesIO()
    entity_writer(header_cls)(
        buffer,
        header_cls(
            request_api_key=cls.__api_key__,
            request_api_version=cls.__version__,
            correlation_id=1,
            client_id="bench",
        ),
    )
    entity_writer(cls)(buffer, request)
    data = buffer.getvalue()
    with socket.create_connection((host, int(port)), timeout=60) as conn:
        started = time.perf_counter()
        conn.sendall(struct.pack(">i", len(data)) + data)
        size = struct.unpack(">i", _read(conn, 4))[0]
        frame = _read(conn, size)
        elapsed = time.perf_counter() - started
    response_cls = load_response_schema(cls.__api_key__, cls.__version__)
    _, offset = entity_reader(response_cls.__header_schema__)(frame, 0)
    body, _ = entity_reader(response_cls)(frame, offset)
    return body, elapsed, size


def _read(conn: socket.socket, count: int) -> bytes:
    chunks = bytearray()
    while len(chunks) < count:
        chunk = conn.recv(min(1 << 20, count - len(chunks)))
        if not chunk:
            raise ConnectionError("closed")
        chunks += chunk
    return bytes(chunks)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--topics", type=int, default=10_000)
    parser.add_argument("--partitions", type=int, default=10)
    parser.add_argument("--offsets-topics", type=int, default=2000)
    args = parser.parse_args()
    first_read_ok = first_read(args.offsets_topics)

    from kio.schema.describe_configs.v4.request import DescribeConfigsRequest, DescribeConfigsResource
    from kio.schema.metadata.v12.request import MetadataRequest

    from kcli.sandbox.emulator.handle import Sandbox

    with tempfile.TemporaryDirectory(prefix="kcli-bench-sandbox-") as tmp:
        with Sandbox(directory=Path(tmp) / "warm", controllers=1, brokers=1):
            pass  # the first start in a process also pays for imports
        started = time.perf_counter()
        with Sandbox(directory=Path(tmp) / "empty", controllers=3, brokers=3):
            empty_s = time.perf_counter() - started
    with tempfile.TemporaryDirectory(prefix="kcli-bench-sandbox-") as tmp:
        started = time.perf_counter()
        sb = Sandbox(
            directory=Path(tmp), controllers=3, brokers=3, topics=args.topics, partitions=args.partitions
        )
        sb.start()
        ready_s = time.perf_counter() - started
        try:
            broker = sb.bootstrap_servers.split(",")[0]
            metadata, metadata_s, metadata_bytes = call(
                broker,
                MetadataRequest(
                    topics=None, allow_auto_topic_creation=False, include_topic_authorized_operations=False
                ),
            )
            partitions = sum(len(t.partitions) for t in metadata.topics)
            names = [t.name for t in metadata.topics]
            resources = tuple(
                DescribeConfigsResource(resource_type=2, resource_name=n, configuration_keys=None)
                for n in names
            )
            configs, configs_s, configs_bytes = call(
                broker,
                DescribeConfigsRequest(
                    resources=resources, include_synonyms=False, include_documentation=False
                ),
            )
            entries = sum(len(r.configs) for r in configs.results)
            log_bytes = sum(p.stat().st_size for p in sb.metadata_log_dir(101).glob("*.log"))
        finally:
            stop_started = time.perf_counter()
            sb.stop()
            stop_s = time.perf_counter() - stop_started
        peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        f"topics x partitions         {args.topics} x {args.partitions} = {args.topics * args.partitions} partitions"
    )
    print(f"up, empty 3 + 3 (ready)     {empty_s:6.2f} s   target < 1 s")
    print(f"up (every listener ready)   {ready_s:6.2f} s   target < 10 s")
    print(
        f"Metadata, all topics        {metadata_s:6.3f} s   {len(metadata.topics)} topics, {partitions} partitions, {metadata_bytes / 1e6:.1f} MB   target < 1 s"
    )
    print(
        f"DescribeConfigs, all topics {configs_s:6.3f} s   {entries} entries, {configs_bytes / 1e6:.1f} MB   target < 1 s"
    )
    print(f"metadata log (controller)   {log_bytes / 1e6:6.1f} MB")
    print(f"down (incl. snapshot)       {stop_s:6.2f} s")
    print(f"peak memory (process RSS)   {peak_mb:6.0f} MB   target < 1024 MB")
    from benchmarks.figures import record

    total = args.topics * args.partitions
    record("sandbox up, 3 controllers + 3 brokers, empty, ready", empty_s, "s", target="< 1")
    record(f"sandbox up, {total:,} partitions, ready", ready_s, "s", target="< 10")
    record(f"Metadata over {partitions:,} partitions", metadata_s, "s", target="< 1")
    record(f"DescribeConfigs over {len(names):,} topics ({entries:,} entries)", configs_s, "s", target="< 1")
    record("sandbox peak memory (RSS)", peak_mb, "MB", target="< 1024")
    ok = ready_s < 10 and metadata_s < 1 and configs_s < 1 and peak_mb < 1024
    return 0 if ok and first_read_ok else 1


def first_read(topics: int) -> bool:
    """`kcli get-offsets` of every partition, whole processes: just after `up`, then again."""
    import subprocess

    from benchmarks.figures import record
    from kcli.sandbox.emulator.handle import Sandbox

    with (
        tempfile.TemporaryDirectory(prefix="kcli-bench-sandbox-") as tmp,
        Sandbox(directory=Path(tmp), controllers=3, brokers=3, topics=topics, partitions=3) as sb,
    ):
        argv = [sys.executable, "-m", "kcli", "get-offsets", "-b", sb.bootstrap_servers]
        runs = []
        for _ in range(2):
            started = time.perf_counter()
            done = subprocess.run(argv, capture_output=True, text=True, timeout=600, check=True)
            runs.append(time.perf_counter() - started)
        lines = len(done.stdout.splitlines())
    first, second = runs
    what = f"kcli get-offsets of {lines:,} partitions (RF 3), a new sandbox"
    record(f"{what}: first run, wall", first, "s", baseline=second, baseline_name="the second run")
    record(f"{what}: second run, wall", second, "s")
    figure = record(f"{what}: first run / second run", first / second, "x", target="<= 2")
    return bool(figure.meets_target)


if __name__ == "__main__":
    raise SystemExit(main())
