"""A broken network between kcli and a node: half-open connections and listeners that reset.

A relay (tests/reliability/relay.py) sits in front of a sandbox broker and misbehaves on purpose.
Each case ends in one clear error within request.timeout.ms (plus connect time), or in success
through the next bootstrap address.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import CliResult, invoke
from tests.reliability.relay import Relay

pytestmark = pytest.mark.sandbox

REQUEST_TIMEOUT_MS = 600


@pytest.fixture
def fast_config(tmp_path: Path) -> str:
    path = tmp_path / "fast.properties"
    path.write_text(f"request.timeout.ms={REQUEST_TIMEOUT_MS}\ndefault.api.timeout.ms=5000\n")
    return str(path)


def error_line(result: CliResult) -> str:
    assert result.code == 1, (result.stdout, result.stderr)
    assert result.stdout == ""
    assert "Traceback" not in result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.stderr
    return lines[0]


def cluster_id(bootstrap: str, config: str) -> tuple[CliResult, float]:
    started = time.monotonic()
    result = invoke("cluster-id", "-b", bootstrap, "-c", config)
    return result, time.monotonic() - started


@pytest.mark.parametrize("mode", ["freeze", "freeze_after_reply"])
def test_half_open_connection_times_out_in_request_timeout(sandbox: Any, fast_config: str, mode: str) -> None:
    """The peer vanished without FIN or RST (before, or right after, the ApiVersions handshake)."""
    with Relay(mode=mode) as relay:
        relay.point_at(sandbox.bootstrap_servers.split(",")[0])
        result, elapsed = cluster_id(relay.address, fast_config)
    line = error_line(result)
    assert "timed out" in line and relay.address in line, line
    assert REQUEST_TIMEOUT_MS / 1000 * 0.9 < elapsed < REQUEST_TIMEOUT_MS / 1000 + 2, elapsed


@pytest.mark.parametrize("mode", ["freeze", "freeze_after_reply", "reset", "reset_after_reply"])
def test_a_broken_first_address_is_skipped_for_the_next(sandbox: Any, fast_config: str, mode: str) -> None:
    with Relay(mode=mode) as relay:
        relay.point_at(sandbox.bootstrap_servers.split(",")[0])
        second = sandbox.bootstrap_servers.split(",")[1]
        result, elapsed = cluster_id(f"{relay.address},{second}", fast_config)
        assert relay.accepted >= 1
    assert result.code == 0, result.stderr
    assert result.stdout.strip() == f"Cluster ID: {sandbox.cluster_id}"
    assert elapsed < REQUEST_TIMEOUT_MS / 1000 + 2, elapsed


def test_listener_that_resets_at_once(sandbox: Any, fast_config: str) -> None:
    with Relay(mode="reset") as relay:
        result, elapsed = cluster_id(relay.address, fast_config)
    line = error_line(result)
    # the RST may land during the TCP handshake (connect fails) or just after it (reset/closed)
    assert relay.address in line and any(word in line for word in ("connect", "reset", "closed")), line
    assert elapsed < 2, elapsed


def test_listener_that_resets_mid_session(sandbox: Any, fast_config: str) -> None:
    """ApiVersions is answered, then the connection is reset while DescribeCluster is in flight."""
    with Relay(mode="reset_after_reply") as relay:
        relay.point_at(sandbox.bootstrap_servers.split(",")[0])
        result, elapsed = cluster_id(relay.address, fast_config)
    line = error_line(result)
    assert relay.address in line and ("reset" in line or "closed" in line), line
    assert elapsed < 2, elapsed
