"""The crafted inputs of issue 30 through a real `kcli` process under a 1.5 GB address-space limit:
each ends in one clear error line and exit 1 (before: exit 134, kio's native decoder aborting on
"memory allocation of 34359738352 bytes failed", or a batch inflated whole).

Inputs (tests/fuzz/crafted.py): a metadata segment whose PartitionRecord declares 2**32 - 2
replicas under a valid CRC; a 48-byte DescribeCluster response whose null error message is the
two-byte varint `80 00`, sent by a hostile broker over a real socket; a 32 KB zstd batch that
inflates to 1 GiB.
"""

from __future__ import annotations

import os
import shutil
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from tests.fuzz import crafted
from tests.fuzz.test_fuzz_responses import scripted_broker

ROOT = Path(__file__).resolve().parents[2]
LIMIT = 1_500_000_000  # bytes of address space
PRLIMIT = shutil.which("prlimit")


def kcli(*args: str, limit: int | None = LIMIT) -> subprocess.CompletedProcess[str]:
    """`python -m kcli ARGS` in a child process of this checkout, under an address-space limit."""
    command = [sys.executable, "-m", "kcli", *args]
    if limit is not None:
        assert PRLIMIT is not None, "prlimit (util-linux) is needed for the memory-limit tests"
        command = [PRLIMIT, f"--as={limit}", *command]
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "PYTHONPATH": str(ROOT),
        "KCLI_CONFIG": "/nonexistent/kcli.toml",
        "NO_COLOR": "1",
        "HOME": os.environ.get("HOME", "/tmp"),
    }
    return subprocess.run(command, capture_output=True, text=True, timeout=120, env=env, cwd="/", check=False)


def assert_one_error_line(done: subprocess.CompletedProcess[str], *expected: str) -> str:
    assert done.returncode == 1, (done.returncode, done.stderr[-2000:])
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert "Traceback" not in done.stderr and "panicked" not in done.stderr, done.stderr[-2000:]
    error = next(line for line in lines if line.startswith(("Error: ", "  ")))
    for text in expected:
        assert text in done.stderr, done.stderr
    return error


@pytest.fixture(scope="module")
def forged_replicas(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return crafted.forged_replicas_log(tmp_path_factory.mktemp("replicas"))


@pytest.mark.parametrize(
    "args",
    [
        ("--dump",),
        ("--dump", "--skip-corrupt"),
        ("cat", "/image/topics/byName/T/0"),
        ("--skip-corrupt", "cat", "/image/topics/byName/T/0"),
    ],
)
def test_a_partition_record_declaring_2_to_the_32_replicas(
    forged_replicas: Path, args: tuple[str, ...]
) -> None:
    done = kcli("metadata-shell", "--directory", str(forged_replicas), *args)
    assert_one_error_line(
        done, "00000000000000000000.log: offset 2: PartitionRecord v2: array declares 4294967294"
    )
    if "--skip-corrupt" not in args:
        assert done.stderr.count("\n") == 1 and done.stderr.startswith("Error: "), done.stderr
        assert "at byte 156 (last good offset 1)" in done.stderr
    else:
        assert "skipped corrupt data: 1 records" in done.stderr


def test_a_hostile_broker_s_48_byte_describe_cluster_response() -> None:
    frame = crafted.describe_cluster_frame()
    with scripted_broker([frame]) as port:
        done = kcli("cluster-id", "--bootstrap-server", f"127.0.0.1:{port}")
    assert done.stdout == ""
    assert_one_error_line(
        done, "could not decode the DescribeCluster v1 response from", "array declares 4294967294"
    )
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("Error: "), done.stderr


def test_a_zstd_batch_inflating_to_1_gib(tmp_path: Path) -> None:
    directory = crafted.zstd_bomb_log(tmp_path)
    segment = directory / "__cluster_metadata-0" / "00000000000000000000.log"
    assert segment.stat().st_size < 40_000
    for args in (("--dump",), ("cat", "/image/features")):
        done = kcli("metadata-shell", "--directory", str(directory), *args)
        assert_one_error_line(done, "compressed batch (codec 4) inflates past 16777216 bytes")
        assert done.stderr.count("\n") == 1, done.stderr


def test_a_zstd_batch_inflating_to_1_gib_takes_no_gib(tmp_path: Path) -> None:
    """Without a limit, the over-cap batch is refused within the cap: the child's peak RSS stays
    far below the inflated size (before: the batch was inflated whole, over 1 GiB)."""
    directory = crafted.zstd_bomb_log(tmp_path)
    program = (
        "import resource, subprocess, sys\n"
        "subprocess.run(sys.argv[1:], capture_output=True, check=False)\n"
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
    )
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "PYTHONPATH": str(ROOT),
        "KCLI_CONFIG": "/nonexistent",
    }
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            program,
            sys.executable,
            "-m",
            "kcli",
            "metadata-shell",
            "--directory",
            str(directory),
            "--dump",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        cwd="/",
        check=True,
    )
    peak_mib = int(done.stdout.strip()) / 1024
    assert peak_mib < 400, f"peak RSS {peak_mib:.0f} MiB"


def test_the_emulator_refuses_a_request_declaring_2_to_the_32_topics() -> None:
    """A CreateTopics v7 request whose compact topic count is 2**32 - 2 (4 bytes of body): the
    emulator's decoding closes the connection with a FrameError (before: kio's native decoder
    aborted the emulator). Run in a child process, so an abort fails this test, not the run."""
    header = struct.pack(">hhih", 19, 7, 1, 4) + b"kcli" + b"\x00"  # request header v2, no tags
    body = b"\xff\xff\xff\xff\x0f" + struct.pack(">i?", 30000, False) + b"\x00"  # 2**32 - 2 topics
    program = (
        "import sys\n"
        "from kcli.sandbox.emulator import wire\n"
        "from kcli.sandbox.emulator.server import decode\n"
        "try:\n"
        "    decode('create_topics', 19, 7, bytes.fromhex(sys.argv[1]))\n"
        "except wire.FrameError as error:\n"
        "    print(error)\n"
    )
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-c", program, (header + body).hex()]
    if PRLIMIT is not None:
        command = [PRLIMIT, f"--as={LIMIT}", *command]
    done = subprocess.run(
        command, capture_output=True, text=True, timeout=120, env=env, cwd=ROOT, check=False
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert (
        "malformed create_topics v7 request: LengthError: array declares 4294967294 elements" in done.stdout
    )


@pytest.mark.parametrize(
    "args",
    [("--dump",), ("ls", "/image/features"), ("--skip-corrupt", "ls", "/image/features")],
)
def test_a_leader_change_with_null_granting_voters(tmp_path: Path, args: tuple[str, ...]) -> None:
    directory = crafted.null_granting_voters_log(tmp_path)
    done = kcli("metadata-shell", "--directory", str(directory), *args)
    if "--skip-corrupt" in args:
        assert_one_error_line(done, "skipped corrupt data: 1 records", "a non-nullable array is null")
        assert done.stdout == "metadataVersion\n"  # read on past the bad record, as for --skip-corrupt
        return
    assert_one_error_line(done, "offset 0: LEADER_CHANGE v0: a non-nullable array is null (length -1)")
    assert done.stderr.count("\n") == 1, done.stderr
