"""A refused bootstrap address is retried until default.api.timeout.ms, and the operator is told at once."""

from __future__ import annotations

import socket

from tests.conftest import invoke


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_long_retry_is_announced_on_stderr_then_one_error() -> None:
    port = _closed_port()
    result = invoke("cluster-id", "-b", f"127.0.0.1:{port}", environ={"KCLI_DEFAULT_API_TIMEOUT_MS": "2500"})
    assert result.code == 1 and result.stdout == ""
    warning, error = result.stderr.strip().splitlines()
    assert warning.startswith(
        f"Warning: cannot connect to 127.0.0.1:{port}: connection refused; retrying until"
    )
    assert "(Ctrl-C to stop)" in warning
    assert error.startswith("Error: ")
    tries = int(error.split("tried ", 1)[1].split(" ", 1)[0])
    assert tries > 1  # it retried with backoff (how long it takes: benchmarks/bench_deadlines.py)


def test_short_timeouts_fail_with_the_error_line_alone() -> None:
    result = invoke(
        "cluster-id", "-b", f"127.0.0.1:{_closed_port()}", environ={"KCLI_DEFAULT_API_TIMEOUT_MS": "300"}
    )
    assert result.code == 1
    assert len(result.stderr.strip().splitlines()) == 1
