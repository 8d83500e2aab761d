"""A/B of kcli's hand-written wire codecs against kio on the same bytes: alone, and in whole commands.

Each hand-written codec is measured against kio in its place:
- alone: the same bytes decoded (the same values encoded) by both, in this process, CPU time per
  call; kio's decoding includes kcli.bounds' length check, as every kio decode in kcli does.
- end to end: a whole kcli command from process start to exit, run with the codec and with kio in
  its place (everything else equal, the two sides alternating run by run), against a sandbox as
  users meet it: 3 brokers, 10,000 topics x 10 partitions. Median CPU (user+sys) and wall time.

The switch is `use()` below, called by the launcher of every child process (LAUNCH, both sides
alike) before kcli's entry point; it swaps one codec for kio in that process. kcli has no option
for it. The kio side is kio as kcli would use it without the codec: kio's request classes and
writer, its reader behind kcli.bounds; in the sandbox, kio objects (cached where the codec caches
bytes) and kio's writer.

Codecs (CODECS says where each lives), and the commands that decide them:
- metadata (client decoder of Metadata v12): `kcli configs --describe --entity-type topics`, which
  lists every topic with one Metadata request (100,000 partitions).
- describe_configs (client decoder of DescribeConfigs v4): the same command (10,000 topics, one
  request per broker), and with --all (every config printed); both sides with kio's Metadata decoder.
- handshake (ApiVersions and DescribeCluster by hand, no kio import): `kcli cluster-id`, cold.
- records (the sandbox's encoder of PartitionRecord and TopicRecord values): `kcli sandbox up` of
  100,000 partitions until every listener accepts (CPU of the sandbox process).
- responses (the sandbox's encoders of Metadata v10-13 and DescribeConfigs v4 responses): the
  configs command above served by the sandbox (CPU the sandbox spends serving it).

Rule: keep a codec only where the whole command is at least 2x faster with it (speed-up = kio CPU
time / hand-written CPU time; the smallest over a codec's commands decides).

    python benchmarks/bench_codecs.py [--topics 10000] [--partitions 10] [--runs 5]
"""

from __future__ import annotations

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
    "metadata": "kcli/client/protocol/fast_metadata.py",
    "describe_configs": "kcli/client/protocol/fast_describe_configs.py",
    "handshake": "kcli/client/protocol/handshake.py",
    "records": "kcli/sandbox/fastcodec.py (record values, used by kcli/sandbox/logwriter.py)",
    "responses": "kcli/sandbox/fastcodec.py (Metadata and DescribeConfigs responses)",
}


def use(side: str) -> None:
    """In a child process: put kio in the place of codecs (side "kio:<codec>[+<codec>...]"), or of none (HAND)."""
    if side == HAND:
        return
    for codec in side.removeprefix("kio:").split("+"):
        _swap(codec)


def _swap(codec: str) -> None:
    if codec in ("metadata", "describe_configs"):
        from kcli.client import protocol

        original = protocol.fast_reader
        skipped = {"metadata": (3, 12), "describe_configs": (32, 4)}[codec]

        def fast_reader(api_key: int, version: int) -> Any:
            return None if (api_key, version) == skipped else original(api_key, version)

        protocol.fast_reader = fast_reader
    elif codec == "handshake":
        from kcli.client.protocol import handshake

        handshake.api_versions_request = kio_api_versions_request  # type: ignore[assignment]
        handshake.api_versions_reader = lambda version: kio_body_reader("api_versions", version)
        handshake.describe_cluster_request = kio_describe_cluster_request  # type: ignore[assignment]
    elif codec == "records":
        from kcli.sandbox import logwriter

        logwriter.fast_record_value = lambda record: None
    elif codec == "responses":
        from kcli.sandbox import fastcodec

        for name in KIO_ENCODERS:
            setattr(fastcodec, name, globals()[f"kio_{name}"])
    else:
        raise SystemExit(f"unknown codec {codec!r}; one of {', '.join(CODECS)}")


# ---- kio in the place of the handshake ---------------------------------------------------------------


def kio_api_versions_request(
    version: int,
    *,
    client_software_name: str,
    client_software_version: str,
    cluster_id: str | None = None,
    node_id: int = -1,
) -> Any:
    from kcli.client import protocol

    return protocol.make(
        protocol.request_class("api_versions", version),
        client_software_name=client_software_name,
        client_software_version=client_software_version,
        cluster_id=cluster_id,
        node_id=node_id,
    )


def kio_describe_cluster_request(
    version: int, *, endpoint_type: int, include_fenced_brokers: bool = False
) -> Any:
    from kio.static.primitive import i8

    from kcli.client import protocol

    return protocol.make(
        protocol.request_class("describe_cluster", version),
        include_cluster_authorized_operations=False,
        endpoint_type=i8(endpoint_type),
        include_fenced_brokers=include_fenced_brokers,
    )


def kio_body_reader(api: str, version: int) -> Any:
    """reader(frame, body offset) -> value: kcli.bounds' check, then kio's reader."""
    from kcli.client import protocol

    cls = protocol.response_class(api, version)

    def read(frame: bytes, offset: int) -> Any:
        from kio.serial import entity_reader

        from kcli.bounds import check

        check(cls, frame, offset)
        return entity_reader(cls)(frame, offset)[0]

    return read


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
            alone(capture_frames(served.bootstrap.split(",")[0], self.args.topics), served.directory)
            self.client_codecs(served.bootstrap)
            self.sandbox_codec(served)
        finally:
            served.stop()
        for codec, speedups in self.speedups.items():
            if not speedups:
                continue
            worst = min(speedups)
            verdict = "keep it" if worst >= 2 else "use kio"
            print(f"decision, {codec}: smallest end-to-end speed-up {worst:.2f}x -> {verdict}")

    def client_codecs(self, bootstrap: str) -> None:
        describe = ("configs", "--bootstrap-server", bootstrap, "--describe", "--entity-type", "topics")
        # (codec, command, codecs in kio's hands on both sides): the DescribeConfigs decoder is measured
        # with the Metadata decoder already replaced, as that one loses on its own (see its rows).
        cases = (
            ("metadata", "kcli configs --describe --entity-type topics", describe, ""),
            ("describe_configs", "kcli configs --describe --entity-type topics", describe, "metadata"),
            (
                "describe_configs",
                "kcli configs --describe --entity-type topics --all",
                (*describe, "--all"),
                "metadata",
            ),
            ("handshake", "kcli cluster-id, cold start", ("cluster-id", "--bootstrap-server", bootstrap), ""),
        )
        for codec, label, kcli_args, base in cases:
            runs = self.args.runs * 3 if codec == "handshake" else self.args.runs
            hand_side = f"kio:{base}" if base else HAND
            kio_side = f"kio:{base}+{codec}" if base else f"kio:{codec}"
            hand, kio = self.argv(hand_side, *kcli_args), self.argv(kio_side, *kcli_args)
            if run_process(hand, self.env)[2] != run_process(kio, self.env)[2]:  # also the warm-up
                raise SystemExit(f"{codec}: `{label}` printed something else with kio")
            measured: dict[str, list[tuple[float, float]]] = {"hand": [], "kio": []}
            for _ in range(runs):
                for side, argv in (("hand", hand), ("kio", kio)):
                    wall, cpu, _ = run_process(argv, self.env)
                    measured[side].append((cpu, wall))
            self.report(codec, label, measured, "CPU")

    def sandbox_codec(self, hand: SandboxProcess) -> None:
        up: dict[str, list[tuple[float, float]]] = {"hand": [], "kio": []}
        for _ in range(max(2, self.args.runs // 2)):
            for side in ("hand", "kio"):
                started = self.sandbox(HAND if side == "hand" else "kio:records")
                up[side].append((started.ready_cpu, started.ready_wall))
                started.stop()
        self.report("records", f"kcli sandbox up ({self.shape}) until ready", up, "sandbox CPU")

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

        from kcli.sandbox.control import SandboxControlError, read_info, state_file

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

        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(120)
            except subprocess.TimeoutExpired:
                self.process.kill()
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
    from kcli.client.protocol import handshake

    describe_configs = protocol.request_class("describe_configs", 4)
    resource = sys.modules[describe_configs.__module__].DescribeConfigsResource
    requests = {
        "api_versions": handshake.api_versions_request(
            4, client_software_name="kcli", client_software_version="0.1.0"
        ),
        "describe_cluster": handshake.describe_cluster_request(1, endpoint_type=1),
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


def alone(frames: dict[str, bytes], sandbox_dir: Any) -> None:
    """Every codec and kio on the same input; the outputs are checked equal before timing."""
    from benchmarks.figures import record
    from kcli.client import protocol
    from kcli.client.protocol import handshake

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

    def decoders(api: str, version: int, hand_reader: Any) -> tuple[Any, Any]:
        frame = frames[api]
        cls = protocol.response_class(api, version)
        flexible = protocol.response_header_flexible(protocol_key(api), cls)
        offset = protocol.body_offset(frame, header_flexible=flexible)

        def hand() -> Any:
            with protocol.collector_paused():
                return hand_reader(frame, offset)

        return hand, lambda: protocol.decode_response(frame, cls, header_flexible=flexible)

    md, dc = frames["metadata"], frames["describe_configs"]
    metadata = decoders("metadata", 12, protocol.fast_reader(3, 12))[1]()
    partitions = sum(len(t.partitions) for t in metadata.topics)
    configs = decoders("describe_configs", 4, protocol.fast_reader(32, 4))[1]()
    resources = len(configs.results)
    what = f"decode Metadata v12 of {partitions:,} partitions ({len(md) / 1e6:.1f} MB)"
    pair("metadata", what, *decoders("metadata", 12, protocol.fast_reader(3, 12)))
    what = f"decode DescribeConfigs v4 of {resources:,} topics ({len(dc) / 1e6:.1f} MB)"
    pair("describe_configs", what, *decoders("describe_configs", 4, protocol.fast_reader(32, 4)))

    what = f"decode ApiVersions v4 ({len(frames['api_versions'])} bytes)"
    pair("handshake", what, *decoders("api_versions", 4, handshake.api_versions_reader(4)))
    what = f"decode DescribeCluster v1 ({len(frames['describe_cluster'])} bytes)"

    def cluster(value: Any) -> Any:  # v1 has no is_fenced, which the hand-written value carries
        brokers = [(b.broker_id, b.host, b.port, b.rack) for b in value.brokers]
        return value.cluster_id, value.controller_id, int(value.error_code), brokers

    pair(
        "handshake",
        what,
        *decoders("describe_cluster", 1, handshake.describe_cluster_reader(1)),
        view=cluster,
    )
    values: dict[str, Any] = {"client_software_name": "kcli", "client_software_version": "0.1.0"}
    pair(
        "handshake",
        "build and encode an ApiVersions v4 request",
        lambda: protocol.encode_request(
            handshake.api_versions_request(4, **values), correlation_id=1, client_id="kcli"
        ),
        lambda: protocol.encode_request(
            kio_api_versions_request(4, **values), correlation_id=1, client_id="kcli"
        ),
    )
    pair(
        "handshake",
        "build and encode a DescribeCluster v1 request",
        lambda: protocol.encode_request(
            handshake.describe_cluster_request(1, endpoint_type=1), correlation_id=1, client_id="kcli"
        ),
        lambda: protocol.encode_request(
            kio_describe_cluster_request(1, endpoint_type=1), correlation_id=1, client_id="kcli"
        ),
    )

    from kcli.sandbox import fastcodec

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

    from kcli.metadata.codec import encode_metadata_record
    from kcli.sandbox.fastcodec import fast_record_value

    records = sandbox_records(sandbox_dir)
    what = f"encode {len(records):,} TopicRecord and PartitionRecord values"
    pair(
        "records",
        what,
        lambda: [fast_record_value(r) for r in records],
        lambda: [encode_metadata_record(r) for r in records],
        rounds=3,
    )


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


def sandbox_records(directory: Any) -> list[Any]:
    """The TopicRecord and PartitionRecord values the sandbox wrote to its metadata log."""
    from kcli.metadata.reader import read_file

    log = sorted(directory.glob("*/__cluster_metadata-0/00000000000000000000.log"))[0]
    wanted = ("TopicRecord", "PartitionRecord")
    return [e.record for e in read_file(log) if getattr(type(e.record), "__record_name__", "") in wanted]


if __name__ == "__main__":
    sys.exit(main())
