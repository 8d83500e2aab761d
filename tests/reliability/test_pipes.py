"""Pipes and FIFOs as input files, as scripts give them: `--command-config <(vault ...)` and
`--reassignment-json-file /dev/stdin` keep secrets and plans off disk, and Kafka's tools read both.

A pipe with a writer is read, bounded in size and in time (KCLI_INPUT_TIMEOUT_MS); only a FIFO
nobody writes to, or a writer that never finishes, is refused, once that deadline has passed.
Each case is a real shell pipeline around a kcli process.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

DEADLINE_S = 60
BAD_TIMEOUT = (
    "request.timeout.ms must be an integer of Kafka's type INT (-2147483648 to 2147483647), not 'soon'"
)


def _shell(
    script: str, *, timeout_ms: int | None = None, stdin: str | None = None
) -> subprocess.CompletedProcess[str]:
    environ = {
        **os.environ,
        "NO_COLOR": "1",
        "KCLI_CONFIG": "/nonexistent/kcli.toml",
        "KCLI": f"{sys.executable} -m kcli",
    }
    if timeout_ms is not None:
        environ["KCLI_INPUT_TIMEOUT_MS"] = str(timeout_ms)
    return subprocess.run(
        ["bash", "-c", script], input=stdin, capture_output=True, text=True, env=environ,
        timeout=DEADLINE_S, check=False,
    )  # fmt: skip


def test_command_config_from_process_substitution_is_read() -> None:
    """It was refused: "properties file /dev/fd/63 is a FIFO, not a regular file"."""
    result = _shell(
        "$KCLI cluster-id -c <(printf 'bootstrap.servers=127.0.0.1:1\\nrequest.timeout.ms=soon\\n')"
    )
    assert result.returncode == 2
    assert result.stderr.startswith(f"Error: {BAD_TIMEOUT} (set by --command-config /dev/fd/")


def test_a_slow_writer_is_waited_for_within_the_deadline() -> None:
    result = _shell(
        "$KCLI cluster-id -c <(sleep 1; printf 'bootstrap.servers=127.0.0.1:1\\nrequest.timeout.ms=soon\\n')",
        timeout_ms=20_000,
    )
    assert result.returncode == 2 and result.stderr.startswith(
        f"Error: {BAD_TIMEOUT} (set by --command-config"
    )


def test_reassignment_json_from_dev_stdin_is_read() -> None:
    """`--reassignment-json-file /dev/stdin` was refused as a FIFO."""
    document = '{"version":1,"partitions":[{"topic":"t","partition":0,"replicas":[1,"x"]}]}'
    result = _shell(
        "$KCLI reassign-partitions -b 127.0.0.1:1 --reassignment-json-file /dev/stdin --execute",
        stdin=document,
    )
    assert (result.returncode, result.stderr) == (
        2,
        "Error: Invalid reassignment JSON in /dev/stdin: partitions[0]: replicas must be an array of broker ids "
        "(32-bit integers); replicas[1] is 'x'\n",
    )


def test_a_fifo_nobody_writes_to_is_refused_after_its_deadline(tmp_path: Path) -> None:
    fifo = tmp_path / "client.properties"
    os.mkfifo(fifo)
    started = time.monotonic()
    result = _shell(f"$KCLI cluster-id -c {fifo}", timeout_ms=500)
    assert time.monotonic() - started < DEADLINE_S
    assert (result.returncode, result.stderr) == (
        2,
        f"Error: properties file {fifo} is a pipe that was not written to within 0.5 s (start its writer "
        "first, give a regular file, or raise KCLI_INPUT_TIMEOUT_MS)\n",
    )


def test_a_writer_that_never_finishes_is_refused_after_the_deadline() -> None:
    result = _shell("$KCLI cluster-id -c <(printf 'client.id=x\\n'; sleep 20)", timeout_ms=500)
    assert result.returncode == 2
    assert result.stderr.startswith("Error: properties file /dev/fd/")
    assert result.stderr.endswith(
        " is a pipe that sent 12 bytes and did not finish within 0.5 s (start its writer first, give a regular "
        "file, or raise KCLI_INPUT_TIMEOUT_MS)\n"
    )


@pytest.mark.parametrize(
    ("flag", "limit"),
    [("-c", "1 MiB"), ("--reassignment-json-file", "64 MiB")],
    ids=["properties", "reassignment"],
)
def test_a_pipe_is_read_only_up_to_its_bound(flag: str, limit: str) -> None:
    action = " --execute" if flag != "-c" else ""
    command = "reassign-partitions -b 127.0.0.1:1" if flag != "-c" else "cluster-id"
    result = _shell(f"$KCLI {command} {flag} <(yes '# padding' | head -c 80000000){action}")
    assert result.returncode == 2
    assert result.stderr.startswith("Error: ") and result.stderr.endswith(
        f" gives more than the {limit} kcli reads for it\n"
    )
