"""Hostile response bytes through the client's decoding path: a value or ProtocolError, never anything else.

Valid responses are drawn from kio's own types (hypothesis `from_type`), encoded, then damaged:
truncated, int32 and varint lengths forged up to 2 GiB and beyond, negative sizes, bogus tagged
fields, flipped bytes. `Connection._decode` is the one place every response frame is decoded; the
end-to-end test sends such frames over a real socket to `kcli cluster-id`.
"""

from __future__ import annotations

import contextlib
import socket
import struct
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kcli.client.config import resolve_client_config
from kcli.client.connection import Connection
from kcli.client.endpoints import Endpoint
from kcli.client.errors import ProtocolError
from kcli.errors import KcliError
from tests.conftest import invoke
from tests.fuzz import seeds

CONFIG = resolve_client_config(
    bootstrap_server="127.0.0.1:9092",
    bootstrap_controller=None,
    command_config=None,
    profile=None,
    environ={},
    config_file=Path("/nonexistent/kcli.toml"),
    warn=lambda message: None,
)
CONNECTION = Connection(  # only decoding is used: no socket
    endpoint=Endpoint(host="127.0.0.1", port=9092),
    node_id=1,
    config=CONFIG,
    _reader=None,  # type: ignore[arg-type]
    _writer=None,  # type: ignore[arg-type]
)


def decode(name: str, version: int, data: bytes) -> Any:
    """The client's decoding of one response frame (what Connection.request does after reading it)."""
    return CONNECTION._decode(
        data, seeds.response_class(name, version), seeds.header_flexible(name, version), f"{name} v{version}"
    )


@st.composite
def valid_frames(draw: st.DrawFn) -> tuple[str, int, Any, bytes]:
    name, version = draw(st.sampled_from(seeds.RESPONSES))
    value = draw(st.from_type(seeds.response_class(name, version)))
    return name, version, value, seeds.frame(name, version, seeds.encode_body(value))


CORPUS = seeds.response_corpus()


@st.composite
def damaged_frames(draw: st.DrawFn) -> tuple[str, int, bytes]:
    name, version, data = draw(st.sampled_from(CORPUS))
    position = draw(st.integers(min_value=0, max_value=max(0, len(data))))
    kind = draw(st.sampled_from(["truncate", "int32", "uvarint", "tags", "flip", "garbage"]))
    if kind == "truncate":
        data = data[:position]
    elif kind == "int32":
        data = seeds.forge_int32(data, position, draw(st.sampled_from(seeds.FORGED_INT32)))
    elif kind == "uvarint":
        data = seeds.forge_uvarint(data, position, draw(st.sampled_from(seeds.FORGED_UVARINTS)))
    elif kind == "tags":
        tag = draw(st.integers(min_value=0, max_value=2**31))
        size = draw(st.integers(min_value=0, max_value=2**31))
        data = seeds.bogus_tags(data, position, tag, size)
    elif kind == "flip" and data:
        index = min(position, len(data) - 1)
        data = data[:index] + bytes([data[index] ^ draw(st.integers(1, 255))]) + data[index + 1 :]
    else:
        data = data[:position] + draw(st.binary(max_size=64))
    return name, version, data


FUZZ = settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(valid_frames())
def test_valid_responses_decode_to_the_same_value(case: tuple[str, int, Any, bytes]) -> None:
    name, version, value, data = case
    assert decode(name, version, data) == value


@FUZZ
@given(damaged_frames())
def test_damaged_responses_decode_or_raise_protocol_error(case: tuple[str, int, bytes]) -> None:
    name, version, data = case
    try:
        decode(name, version, data)
    except ProtocolError as error:
        assert error.line().startswith(f"could not decode the {name} v{version} response from node 1")


def peak_rss_kib() -> int:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    raise AssertionError("no VmHWM in /proc/self/status")


def test_corpus_frames_decode_and_encode_back() -> None:
    assert len(CORPUS) >= len(seeds.RESPONSES)
    for name, version, data in CORPUS:
        value = decode(name, version, data)
        assert seeds.frame(name, version, seeds.encode_body(value)) == data


def test_forged_lengths_of_2_gib_do_not_allocate() -> None:
    """Every int32 and varint position of every seed forged to >= 2 GiB: peak memory stays flat."""
    cases = []
    for name, version, data in CORPUS:
        if len(data) > 600:
            continue  # the small seeds already cover every field kind; keeps the test at seconds
        for position in range(len(data)):
            for forged in (0x7FFFFFFF, -(2**31)):
                cases.append((name, version, seeds.forge_int32(data, position, forged)))
            cases.append((name, version, seeds.forge_uvarint(data, position, seeds.FORGED_UVARINTS[0])))
    before = peak_rss_kib()
    outcomes = {"decoded": 0, "refused": 0}
    for name, version, data in cases:
        try:
            decode(name, version, data)
            outcomes["decoded"] += 1
        except ProtocolError:
            outcomes["refused"] += 1
    grown_mib = (peak_rss_kib() - before) / 1024
    assert outcomes["refused"] > 0 and len(cases) > 100
    assert grown_mib < 64, f"peak memory grew by {grown_mib:.0f} MiB over {len(cases)} forged frames"


# ---- over a real socket, through the CLI ----------------------------------------------------------


@contextlib.contextmanager
def scripted_broker(reply: list[bytes]) -> Iterator[int]:
    """A loopback server: correct ApiVersions, then `reply[0]` (a frame body after the correlation id)."""
    from tests.client.kafka_double import api_versions_response

    listener = socket.socket()
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    listener.settimeout(0.1)
    stop = threading.Event()

    def handle(conn: socket.socket) -> None:
        conn.settimeout(5)
        with contextlib.suppress(OSError), conn:
            while not stop.is_set():
                head = conn.recv(4, socket.MSG_WAITALL)
                if len(head) < 4:
                    return
                request = conn.recv(struct.unpack(">i", head)[0], socket.MSG_WAITALL)
                key, version, correlation = struct.unpack_from(">hhi", request, 0)
                if key == 18:
                    body = seeds.encode_body(api_versions_response(version, {18: (0, 4), 60: (0, 1)}))
                    out = struct.pack(">i", correlation) + body
                else:
                    out = struct.pack(">i", correlation) + reply[0][4:]
                conn.sendall(struct.pack(">i", len(out)) + out)

    def serve() -> None:
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            threading.Thread(target=handle, args=(conn,), daemon=True).start()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield int(listener.getsockname()[1])
    finally:
        stop.set()
        thread.join(2)
        listener.close()


@st.composite
def damaged_describe_cluster(draw: st.DrawFn) -> bytes:
    data = draw(st.sampled_from([d for n, _, d in CORPUS if n == "describe_cluster"]))
    position = draw(st.integers(min_value=5, max_value=len(data)))
    kind = draw(st.sampled_from(["truncate", "int32", "uvarint", "tags"]))
    if kind == "truncate":
        return data[:position]
    if kind == "int32":
        return seeds.forge_int32(data, position, draw(st.sampled_from(seeds.FORGED_INT32)))
    if kind == "uvarint":
        return seeds.forge_uvarint(data, position, draw(st.sampled_from(seeds.FORGED_UVARINTS)))
    return seeds.bogus_tags(data, position, draw(st.integers(0, 2**20)), draw(st.integers(0, 2**31)))


@pytest.mark.slow
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(damaged_describe_cluster())
def test_cluster_id_against_a_server_sending_damaged_describe_cluster(data: bytes) -> None:
    reply = [data]
    with scripted_broker(reply) as port:
        result = invoke("cluster-id", "-b", f"127.0.0.1:{port}", "-c", str(_fast_config()), "-o", "json")
    assert "Traceback" not in result.stderr
    if result.code == 0:
        assert "cluster_id" in result.json
    else:
        assert result.code == 1
        assert result.stdout == ""
        assert len(result.stderr.strip().splitlines()) == 1, result.stderr
        assert result.stderr.startswith("Error: ")


def _fast_config() -> Path:
    path = Path("/tmp") / f"kcli-fuzz-{threading.get_ident()}.properties"
    path.write_text("request.timeout.ms=1000\ndefault.api.timeout.ms=2000\n")
    return path


def test_kcli_error_is_what_decode_failures_derive_from() -> None:
    assert issubclass(ProtocolError, KcliError)


def test_regressions_found_by_the_long_fuzz_run_survive_in_a_child_process() -> None:
    """Inputs that aborted the interpreter (the first byte picks the response type, as in fuzz_long.py).

    Each runs in a child process: these aborted it inside kio's native decoder ("memory allocation of
    105226698736 bytes failed"), which no except clause can catch; the first was found by
    benchmarks/fuzz_long.py before kcli.bounds existed, the second (a tagged field whose declared
    size exceeds its content) got past kcli.bounds until the walk required the two to agree.
    """
    import subprocess
    import sys

    regressions = sorted((seeds.CORPUS / "regressions").glob("*.bin"))
    assert regressions
    program = (
        "import sys\n"
        "from benchmarks.fuzz_long import _responses_target\n"
        "one = _responses_target()\n"
        "for path in sys.argv[1:]:\n"
        "    one(open(path, 'rb').read())\n"
        "print('survived')\n"
    )
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, "-c", program, *map(str, regressions)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=root,
        env={"PYTHONPATH": str(root), "PATH": "/usr/bin:/bin"},
        check=False,
    )
    assert done.returncode == 0 and done.stdout.strip() == "survived", done.stderr[-2000:]
