"""A/B of kcli's hand-written wire codecs against kio on the same bytes: alone, and in whole commands.

Each hand-written codec kcli keeps is measured against kio in its place:
- alone: the same values encoded by both, in this process, CPU time per call.
- end to end: a whole kcli command from process start to exit, run with the codec and with kio in
  its place (everything else equal, the two sides alternating run by run), against a sandbox as
  users meet it: 3 brokers, 10,000 topics x 10 partitions. Median CPU (user+sys) and wall time.

The switch is `use()` below, called by the launcher of every child process (LAUNCH, both sides
alike) before kcli's entry point; it swaps one codec for kio in that process. kcli has no option
for it. The kio side is kio as kcli would use it without the codec: kio's request classes and
writer, its reader behind kcli.bounds; in the sandbox, kio objects (cached where the codec caches
bytes) and kio's writer.

Codecs (CODECS says where each lives), and the commands that decide them:
- responses (the sandbox's encoders of Metadata v10-13 and DescribeConfigs v4 responses): the
  configs command above served by the sandbox (CPU the sandbox spends serving it).

Rule: keep a codec only where the whole command is at least 2x faster with it (speed-up = kio CPU
time / hand-written CPU time). REMOVED lists the codecs that missed it and the figure that decided
each; kio is used in their place.

Also measured: kcli.bounds' check alone on the largest responses kcli decodes (the bytes the
sandbox sends), beside kio's decode of the same bytes (which includes it, as every kio decode in
kcli does: kio's native reader aborts the process on a forged count).

    python benchmarks/bench_codecs.py [--topics 10000] [--partitions 10] [--runs 5]
"""

from __future__ import annotations

import signal
import sys
from typing import Any

# The launcher of every child process; its argv: side, then kcli's own arguments.
LAUNCH = (
    "import sys\n"
    "sys.modules.setdefault('hypothesis', None)\n"  # as kcli.cli.entry does, before anything imports kio
    "from benchmarks.bench_codecs import use\n"
    "use(sys.argv[1])\n"
    "sys.argv = ['kcli', *sys.argv[2:]]\n"
    "from kcli.cli.entry import console\n"
    "console()\n"
)
HAND = "hand"
# codec -> where it lives
CODECS = {
    "responses": "kcli/sandbox/emulator/fastcodec.py (Metadata and DescribeConfigs responses)",
}
# Codecs removed for missing the rule: (what it was, the command, its end-to-end speed-up over kio
# in CPU, the date of that run of this benchmark). kio is used in their place.
REMOVED = {
    "metadata": (
        "client decoder of Metadata v12",
        "kcli configs --describe --entity-type topics",
        0.811,
        "2026-11-23",
    ),
    "handshake": (
        "ApiVersions and DescribeCluster encoded and decoded without kio",
        "kcli cluster-id, cold start",
        1.11,
        "2026-11-23",
    ),
    "records": (
        "the sandbox's encoder of PartitionRecord and TopicRecord values",
        "kcli sandbox up (10,000 topics x 10 partitions, 3 brokers) until ready",
        1.34,
        "2026-11-23",
    ),
    # 2.14x and 1.86x (--all) in one run, 2.02x and 2.13x in a second, 1.85x and 1.82x in a third;
    # without kcli.bounds' check on the kio side, 1.66x and 1.27x in that third run.
    "describe_configs": (
        "client decoder of DescribeConfigs v4",
        "kcli configs --describe --entity-type topics --all",
        1.82,
        "2026-11-23",
    ),
}


def use(side: str) -> None:
    """In a child process: put kio in the place of codecs (side "kio:<codec>[+<codec>...]"), or of none (HAND)."""
    if side == HAND:
        return
    for codec in side.removeprefix("kio:").split("+"):
        _swap(codec)


def _swap(codec: str) -> None:
    if codec == "responses":
        from kcli.sandbox.emulator import fastcodec

        for name in KIO_ENCODERS:
            setattr(fastcodec, name, globals()[f"kio_{name}"])
    else:
        raise SystemExit(f"unknown codec {codec!r}; one of {', '.join(CODECS)}")


# ---- kio in the place of the sandbox's encoders (same signatures; kio objects where they return bytes) ----

KIO_ENCODERS = (
    "metadata_partition",
    "metadata_topic",
    "metadata_response",
    "config_entry",
    "config_result",
    "describe_configs_response",
)


def _metadata_v12() -> Any:
    from kio.schema.metadata.v12 import response

    return response


def kio_metadata_partition(
    error_code: int, index: int, leader: int, leader_epoch: int, replicas: Any, isr: Any, offline: Any
) -> Any:
    from kio.schema.errors import ErrorCode

    return _metadata_v12().MetadataResponsePartition(
        error_code=ErrorCode(error_code),
        partition_index=index,
        leader_id=leader,
        leader_epoch=leader_epoch,
        replica_nodes=tuple(replicas),
        isr_nodes=tuple(isr),
        offline_replicas=tuple(offline),
    )


def kio_metadata_topic(
    error_code: int, name: str | None, topic_id: Any, partitions: Any, authorized_operations: int
) -> Any:
    from kio.schema.errors import ErrorCode

    return _metadata_v12().MetadataResponseTopic(
        error_code=ErrorCode(error_code),
        name=name,
        topic_id=topic_id,
        is_internal=False,
        partitions=tuple(partitions),
        topic_authorized_operations=authorized_operations,
    )


def kio_metadata_response(
    version: int,
    brokers: Any,
    cluster_id: str | None,
    controller_id: int,
    topics: Any,
    cluster_authorized_operations: int,
    error_code: int = 0,
) -> bytes:
    """The whole body by kio's writer (topic and partition objects are v12's: the benchmark asks v12)."""
    from kio.schema.errors import ErrorCode

    from kcli.client import protocol

    cls = protocol.response_class("metadata", version)
    broker = sys.modules[cls.__module__].MetadataResponseBroker
    return kio_bytes(
        protocol.make(
            cls,
            throttle_time=_no_throttle(),
            brokers=tuple(broker(node_id=n, host=h, port=p, rack=r) for n, h, p, r in brokers),
            cluster_id=cluster_id,
            controller_id=controller_id,
            topics=tuple(topics),
            cluster_authorized_operations=cluster_authorized_operations,
            error_code=ErrorCode(error_code),
        )
    )


def _describe_configs_v4() -> Any:
    from kio.schema.describe_configs.v4 import response

    return response


def kio_config_entry(
    name: str,
    value: str | None,
    read_only: bool,
    source: int,
    sensitive: bool,
    synonyms: Any,
    config_type: int,
    documentation: str | None,
) -> Any:
    module = _describe_configs_v4()
    return module.DescribeConfigsResourceResult(
        name=name,
        value=value,
        read_only=read_only,
        config_source=source,
        is_sensitive=sensitive,
        synonyms=tuple(module.DescribeConfigsSynonym(name=n, value=v, source=s) for n, v, s in synonyms),
        config_type=config_type,
        documentation=documentation,
    )


def kio_config_result(
    error_code: int, error_message: str | None, resource_type: int, resource_name: str, entries: Any
) -> Any:
    from kio.schema.errors import ErrorCode

    return _describe_configs_v4().DescribeConfigsResult(
        error_code=ErrorCode(error_code),
        error_message=error_message,
        resource_type=resource_type,
        resource_name=resource_name,
        configs=tuple(entries),
    )


def kio_describe_configs_response(results: Any) -> bytes:
    return kio_bytes(
        _describe_configs_v4().DescribeConfigsResponse(throttle_time=_no_throttle(), results=tuple(results))
    )


def kio_bytes(value: Any) -> bytes:
    import io

    from kio.serial import entity_writer

    buffer = io.BytesIO()
    entity_writer(type(value))(buffer, value)
    return buffer.getvalue()


def _no_throttle() -> Any:
    import datetime

    from kio.static.primitive import i32Timedelta

    return i32Timedelta.parse(datetime.timedelta(0))


# ---- whole commands ---------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    import argparse
    import os
    import tempfile
    from pathlib import Path

    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--topics", type=int, default=10_000)
    parser.add_argument("--partitions", type=int, default=10)
    parser.add_argument("--brokers", type=int, default=3)
    parser.add_argument("--runs", type=int, default=5, help="runs of each whole command per side")
    args = parser.parse_args(argv)

    root = Path(__file__).resolve().parents[1]
    sys.path.insert(0, str(root))
    sys.modules.setdefault("hypothesis", None)  # type: ignore[arg-type]
    print(f"load average {_load()} on {os.cpu_count()} CPUs at start")
    with tempfile.TemporaryDirectory(prefix="kcli-bench-codecs-") as tmp:
        bench = Bench(root, Path(tmp), args)
        bench.run()
    print(f"load average {_load()} at end")
    return 0


def _load() -> str:
    import os

    return " ".join(f"{value:.1f}" for value in os.getloadavg())


class Bench:
    """The A/B runs: one sandbox with every codec serving the client commands, a second one with kio."""

    def __init__(self, root: Any, work: Any, args: Any) -> None:
        import os

        self.work = work
        self.args = args
        self.shape = f"{args.topics:,} topics x {args.partitions} partitions, {args.brokers} brokers"
        # Children run as installed programs run: byte-code cached (kept out of the source tree).
        self.env = {**os.environ, "PYTHONPATH": str(root), "PYTHONPYCACHEPREFIX": str(work / "pycache")}
        self.env.pop("PYTHONDONTWRITEBYTECODE", None)
        self.env.pop("KCLI_DEBUG", None)
        self.speedups: dict[str, list[float]] = {codec: [] for codec in CODECS}

    def argv(self, side: str, *kcli_args: str) -> list[str]:
        return [sys.executable, "-c", LAUNCH, side, *kcli_args]

    def sandbox(self, side: str) -> SandboxProcess:
        a = self.args
        return SandboxProcess(self, side, topics=a.topics, partitions=a.partitions, brokers=a.brokers)

    def run(self) -> None:
        served = self.sandbox(HAND)
        try:
            alone(capture_frames(served.bootstrap.split(",")[0], self.args.topics))
            self.sandbox_codec(served)
        finally:
            served.stop()
        for codec, speedups in self.speedups.items():
            if not speedups:
                continue
            worst = min(speedups)
            verdict = "keep it" if worst >= 2 else "use kio"
            print(f"decision, {codec}: smallest end-to-end speed-up {worst:.2f}x -> {verdict}")
        removed()

    def sandbox_codec(self, hand: SandboxProcess) -> None:
        kio = self.sandbox("kio:responses")
        try:
            describe = ("configs", "--describe", "--entity-type", "topics", "--bootstrap-server")
            sides = (("hand", hand), ("kio", kio))
            first = {
                side: run_process(self.argv(HAND, *describe, s.bootstrap), self.env)[2] for side, s in sides
            }
            if first["hand"] != first["kio"]:
                raise SystemExit(
                    "responses: the configs command printed something else against the kio sandbox"
                )
            served: dict[str, list[tuple[float, float]]] = {"hand": [], "kio": []}
            for _ in range(self.args.runs):
                for side, sandbox in sides:
                    before = sandbox.cpu()
                    wall, _, _ = run_process(self.argv(HAND, *describe, sandbox.bootstrap), self.env)
                    served[side].append((sandbox.cpu() - before, wall))
            label = "kcli configs --describe --entity-type topics, served by the sandbox"
            self.report("responses", label, served, "sandbox CPU")
        finally:
            kio.stop()

    def report(
        self, codec: str, label: str, measured: dict[str, list[tuple[float, float]]], what: str
    ) -> None:
        """Print and record one A/B pair: (CPU, wall) per run and side."""
        import statistics

        from benchmarks.figures import record

        cpu = {side: statistics.median(run[0] for run in runs) for side, runs in measured.items()}
        wall = {side: statistics.median(run[1] for run in runs) for side, runs in measured.items()}
        speedup = cpu["kio"] / max(cpu["hand"], 0.01)  # /proc counts CPU in 10 ms ticks
        self.speedups[codec].append(speedup)
        print(
            f"{codec}, end to end: {label}: {what} {cpu['hand']:.3f} s hand-written, {cpu['kio']:.3f} s kio "
            f"(speed-up {speedup:.2f}x); wall {wall['hand']:.3f} s, {wall['kio']:.3f} s "
            f"(median of {len(measured['hand'])})"
        )
        name = f"{codec} codec, end to end: {label}"
        record(f"{name}: {what}", cpu["hand"], "s", baseline=cpu["kio"], baseline_name="kio in its place")
        record(f"{name}: wall", wall["hand"], "s", baseline=wall["kio"], baseline_name="kio in its place")
        record(f"{name}: speed-up over kio ({what})", speedup, "x", target=">= 2")


class SandboxProcess:
    """`kcli sandbox up` in the foreground in its own process (through LAUNCH with `side`), until ready."""

    def __init__(self, bench: Bench, side: str, *, topics: int, partitions: int, brokers: int) -> None:
        import subprocess
        import tempfile
        import time
        from pathlib import Path

        from kcli.sandbox.emulator.control import SandboxControlError, read_info, state_file

        self.directory = Path(tempfile.mkdtemp(prefix="sandbox-", dir=bench.work))
        argv = bench.argv(
            side, "sandbox", "up", "--dir", str(self.directory), "--base-port", "0", "-o", "json"
        )
        argv += ["--brokers", str(brokers), "--topics", str(topics), "--partitions", str(partitions)]
        self._log = open(self.directory.parent / f"{self.directory.name}.log", "wb")  # noqa: SIM115 - closed in stop()
        started = time.perf_counter()
        self.process = subprocess.Popen(
            argv, env=bench.env, stdin=subprocess.DEVNULL, stdout=self._log, stderr=self._log
        )
        deadline = time.monotonic() + 600
        while True:
            if state_file(self.directory).exists():
                try:
                    info = read_info(self.directory, check_alive=False)
                except SandboxControlError:  # being written
                    info = None
                if info is not None and info.pid == self.process.pid:
                    break
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                log = Path(self._log.name).read_text(errors="replace")[-800:]
                raise SystemExit(f"the sandbox ({side}) did not start: {log}")
            time.sleep(0.01)
        self.ready_wall = time.perf_counter() - started
        self.ready_cpu = self.cpu()
        self.bootstrap = info.bootstrap_servers
        print(f"sandbox ({side}) ready: {self.ready_wall:.2f} s wall, {self.ready_cpu:.2f} s CPU")

    def cpu(self) -> float:
        """CPU seconds (user + system) the sandbox process has used so far."""
        import os

        with open(f"/proc/{self.process.pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self) -> None:
        import subprocess

        from kcli.processes import kill_child, signal_child

        if self.process.poll() is None:
            signal_child(self.process, signal.SIGTERM)
            try:
                self.process.wait(120)
            except subprocess.TimeoutExpired:
                kill_child(self.process)
                self.process.wait()
        self._log.close()


def run_process(argv: list[str], env: dict[str, str]) -> tuple[float, float, bytes]:
    """(wall s, CPU s user+sys, stdout) of one whole process; a failure ends the benchmark."""
    import resource
    import subprocess
    import time

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(argv, env=env, capture_output=True, timeout=600, check=False)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(
            f"{argv[3:]} failed ({done.returncode}): {done.stderr.decode(errors='replace')[-800:]}"
        )
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done.stdout


# ---- each codec alone, on the same bytes --------------------------------------------------------------


def capture_frames(broker: str, topics: int) -> dict[str, bytes]:
    """The response frames (correlation id onwards) the sandbox sends for kcli's requests."""
    from kio.static.primitive import i8

    from kcli.client import protocol

    describe_configs = protocol.request_class("describe_configs", 4)
    resource = sys.modules[describe_configs.__module__].DescribeConfigsResource
    requests = {
        "metadata": protocol.request_class("metadata", 12)(
            topics=None, allow_auto_topic_creation=False, include_topic_authorized_operations=False
        ),
        "describe_configs": describe_configs(
            resources=tuple(
                resource(resource_type=i8(2), resource_name=f"sandbox-topic-{i:05d}", configuration_keys=None)
                for i in range(topics)
            ),
            include_synonyms=True,
            include_documentation=False,
        ),
    }
    return {
        api: exchange(broker, protocol.encode_request(request, correlation_id=1, client_id="kcli"))
        for api, request in requests.items()
    }


def exchange(address: str, data: bytes) -> bytes:
    import socket
    import struct

    host, port = address.rsplit(":", 1)
    with socket.create_connection((host, int(port)), timeout=300) as conn:
        conn.sendall(data)
        size = struct.unpack(">i", conn.recv(4, socket.MSG_WAITALL))[0]
        frame = bytearray()
        while len(frame) < size:
            chunk = conn.recv(size - len(frame))
            if not chunk:
                raise ConnectionError(f"{address} closed the connection")
            frame += chunk
    return bytes(frame)


def cpu_per_call(call: Any, *, minimum_s: float = 0.3, rounds: int = 5) -> float:
    """Median CPU seconds of one call, over `rounds` rounds of as many calls as fill `minimum_s`."""
    import statistics
    import time

    call()  # imports, compiled readers and writers
    started = time.process_time()
    call()
    calls = max(1, int(minimum_s / max(time.process_time() - started, 1e-6)))
    per_call = []
    for _ in range(rounds):
        started = time.process_time()
        for _ in range(calls):
            call()
        per_call.append((time.process_time() - started) / calls)
    return statistics.median(per_call)


def alone(frames: dict[str, bytes]) -> None:
    """Every codec and kio on the same input; the outputs are checked equal before timing."""
    from benchmarks.figures import record
    from kcli.client import protocol

    def pair(codec: str, what: str, hand: Any, kio: Any, rounds: int = 5, view: Any = None) -> None:
        view = view or plain
        if view(hand()) != view(kio()):
            raise SystemExit(f"{codec}: {what}: the codec and kio disagree")
        hand_s, kio_s = cpu_per_call(hand, rounds=rounds), cpu_per_call(kio, rounds=rounds)
        print(
            f"{codec}, alone: {what}: {hand_s * 1e3:.3f} ms hand-written, {kio_s * 1e3:.3f} ms kio ({kio_s / hand_s:.2f}x)"
        )
        name = f"{codec} codec alone: {what}: CPU"
        record(name, hand_s * 1e3, "ms", baseline=kio_s * 1e3, baseline_name="kio")

    def kio_decoder(api: str, version: int) -> tuple[Any, Any, int]:
        """kio's decode as kcli does it (bounds check included), the class and the body offset."""
        frame = frames[api]
        cls = protocol.response_class(api, version)
        flexible = protocol.response_header_flexible(protocol_key(api), cls)
        offset = 4  # after the correlation id; response header v1 adds its tagged fields
        if flexible:
            from kio.schema.response_header.v1.header import ResponseHeader
            from kio.serial import entity_reader

            offset = entity_reader(ResponseHeader)(frame, 0)[1]
        return lambda: protocol.decode_response(frame, cls, header_flexible=flexible), cls, offset

    def bounds_check(api: str, version: int, what: str) -> None:
        """kcli.bounds' check alone beside kio's whole decode of the same frame (which includes it)."""
        from kcli.bounds import check

        frame = frames[api]
        decode, cls, offset = kio_decoder(api, version)
        check_s = cpu_per_call(lambda: check(cls, frame, offset), rounds=3)
        decode_s = cpu_per_call(decode, rounds=3)
        print(
            f"bounds check, {what}: {check_s * 1e3:.3f} ms; kio's decode with it {decode_s * 1e3:.3f} ms "
            f"({check_s / decode_s:.1%} of it)"
        )
        record(
            f"bounds check alone: {what}: CPU",
            check_s * 1e3,
            "ms",
            baseline=decode_s * 1e3,
            baseline_name="kio's decode (check included)",
        )

    md, dc = frames["metadata"], frames["describe_configs"]
    metadata = kio_decoder("metadata", 12)[0]()
    partitions = sum(len(t.partitions) for t in metadata.topics)
    configs = kio_decoder("describe_configs", 4)[0]()
    resources = len(configs.results)
    bounds_check("metadata", 12, f"Metadata v12 of {partitions:,} partitions ({len(md) / 1e6:.1f} MB)")
    what = f"DescribeConfigs v4 of {resources:,} topics ({len(dc) / 1e6:.1f} MB)"
    bounds_check("describe_configs", 4, what)

    from kcli.sandbox.emulator import fastcodec

    hand_encoders = {name: getattr(fastcodec, name) for name in KIO_ENCODERS}
    kio_encoders = {name: globals()[f"kio_{name}"] for name in KIO_ENCODERS}
    topics = [
        (
            int(t.error_code),
            t.name,
            t.topic_id,
            [
                (
                    int(p.error_code),
                    p.partition_index,
                    p.leader_id,
                    p.leader_epoch,
                    p.replica_nodes,
                    p.isr_nodes,
                    p.offline_replicas,
                )
                for p in t.partitions
            ],
            t.topic_authorized_operations,
        )
        for t in metadata.topics
    ]
    brokers = [(b.node_id, b.host, b.port, b.rack) for b in metadata.brokers]

    def metadata_body(encoders: dict[str, Any]) -> bytes:
        encoded = [
            encoders["metadata_topic"](
                code, name, topic_id, [encoders["metadata_partition"](*p) for p in parts], ops
            )
            for code, name, topic_id, parts, ops in topics
        ]
        return encoders["metadata_response"](
            12, brokers, metadata.cluster_id, metadata.controller_id, encoded, -(2**31)
        )  # type: ignore[no-any-return]

    results = [
        (
            int(r.error_code),
            r.error_message,
            r.resource_type,
            r.resource_name,
            [
                (
                    e.name,
                    e.value,
                    e.read_only,
                    e.config_source,
                    e.is_sensitive,
                    [(s.name, s.value, s.source) for s in e.synonyms],
                    e.config_type,
                    e.documentation,
                )
                for e in r.configs
            ],
        )
        for r in configs.results
    ]

    def configs_body(encoders: dict[str, Any]) -> bytes:
        encoded = [
            encoders["config_result"](
                code, message, kind, name, [encoders["config_entry"](*e) for e in entries]
            )
            for code, message, kind, name, entries in results
        ]
        return encoders["describe_configs_response"](encoded)  # type: ignore[no-any-return]

    what = f"encode Metadata v12 of {partitions:,} partitions (no cache)"
    pair(
        "responses", what, lambda: metadata_body(hand_encoders), lambda: metadata_body(kio_encoders), rounds=3
    )
    what = f"encode DescribeConfigs v4 of {resources:,} topics (no cache)"
    pair("responses", what, lambda: configs_body(hand_encoders), lambda: configs_body(kio_encoders), rounds=3)


def plain(value: Any) -> Any:
    """A decoded value as nested tuples in field order (kio dataclasses and NamedTuples alike)."""
    import dataclasses
    import datetime

    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return tuple(plain(getattr(value, f.name)) for f in dataclasses.fields(value))
    if isinstance(value, tuple | list):
        return tuple(plain(v) for v in value)
    if isinstance(value, datetime.timedelta):
        return round(value.total_seconds() * 1000)
    if isinstance(value, bool):
        return ("bool", value)
    if isinstance(value, int):
        return int(value)
    return value


def protocol_key(api: str) -> int:
    from kcli.client.protocol import API_SCHEMA_NAMES

    return next(key for key, name in API_SCHEMA_NAMES.items() if name == api)


def removed() -> None:
    """One row per removed codec: the end-to-end speed-up over kio that decided its removal."""
    from benchmarks.figures import record

    for codec, (what, command, speedup, day) in REMOVED.items():
        print(f"removed, {codec} ({what}): {speedup:.2f}x end to end on {day} -> kio used")
        record(
            f"{codec} codec ({what}): removed, kio used; end-to-end speed-up over kio that decided it "
            f"({command}, run of {day})",
            speedup,
            "x",
            target=">= 2",
        )


if __name__ == "__main__":
    sys.exit(main())
