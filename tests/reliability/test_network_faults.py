"""A broken network between kcli and a node: half-open connections and listeners that reset.

A relay (tests/reliability/relay.py) sits in front of a sandbox broker and misbehaves on purpose.
Each case ends in one clear error (a half-open connection after request.timeout.ms, a reset at
once) or in success through the next bootstrap address, and none hangs (pytest-timeout). How long
each takes is a figure of benchmarks/bench_deadlines.py.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.conftest import CliResult, invoke
from tests.reliability.relay import Relay

pytestmark = [pytest.mark.sandbox, pytest.mark.timeout(60)]

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


def cluster_id(bootstrap: str, config: str) -> CliResult:
    return invoke("cluster-id", "-b", bootstrap, "-c", config)


@pytest.mark.parametrize("mode", ["freeze", "freeze_after_reply"])
def test_half_open_connection_times_out_in_request_timeout(sandbox: Any, fast_config: str, mode: str) -> None:
    """The peer vanished without FIN or RST (before, or right after, the ApiVersions handshake): the
    request waits request.timeout.ms, not default.api.timeout.ms, and fails naming the node."""
    with Relay(mode=mode) as relay:
        relay.point_at(sandbox.bootstrap_servers.split(",")[0])
        result = cluster_id(relay.address, fast_config)
    line = error_line(result)
    assert f"timed out after {REQUEST_TIMEOUT_MS} ms" in line and relay.address in line, line


@pytest.mark.parametrize("mode", ["freeze", "freeze_after_reply", "reset", "reset_after_reply"])
def test_a_broken_first_address_is_skipped_for_the_next(sandbox: Any, fast_config: str, mode: str) -> None:
    with Relay(mode=mode) as relay:
        relay.point_at(sandbox.bootstrap_servers.split(",")[0])
        second = sandbox.bootstrap_servers.split(",")[1]
        result = cluster_id(f"{relay.address},{second}", fast_config)
        assert relay.accepted >= 1
    assert result.code == 0, result.stderr
    assert result.stdout.strip() == f"Cluster ID: {sandbox.cluster_id}"


def test_listener_that_resets_at_once(sandbox: Any, fast_config: str) -> None:
    with Relay(mode="reset") as relay:
        result = cluster_id(relay.address, fast_config)
    line = error_line(result)
    # the RST may land during the TCP handshake (connect fails) or just after it (reset/closed)
    assert relay.address in line and any(word in line for word in ("connect", "reset", "closed")), line
    assert "timed out" not in line, line  # a reset is noticed, not waited out


def test_listener_that_resets_mid_session(sandbox: Any, fast_config: str) -> None:
    """ApiVersions is answered, then the connection is reset while DescribeCluster is in flight."""
    with Relay(mode="reset_after_reply") as relay:
        relay.point_at(sandbox.bootstrap_servers.split(",")[0])
        result = cluster_id(relay.address, fast_config)
    line = error_line(result)
    assert relay.address in line and ("reset" in line or "closed" in line), line
    assert "timed out" not in line, line


def test_a_reset_in_the_middle_of_a_response_is_reported_as_such(fast_config: str) -> None:
    """A broker that reset the connection while answering DescribeConfigs, twice, was reported as
    "DescribeConfigs is not supported by this server": say what happened instead."""
    import asyncio
    import struct

    from tests.client.kafka_double import Cut, KafkaDouble, describe_cluster_handler, serving

    double = KafkaDouble()
    double.handlers[60] = describe_cluster_handler([(1, double)], controller=1)
    # the frame header and the start of an answer to the request, then an RST
    double.handlers[32] = lambda received: Cut(struct.pack(">ii", 200, received.correlation_id) + bytes(20))

    async def scenario() -> Any:
        async with serving(double):
            return await asyncio.to_thread(
                invoke, "configs", "-b", double.bootstrap, "--describe", "--entity-type", "brokers",
                "--entity-name", "1", "--command-config", fast_config,
            )  # fmt: skip

    result = asyncio.run(scenario())
    assert result.code == 1 and "not supported" not in result.stderr
    assert result.stderr == (
        f"Error: describing configs for broker 1: the connection to node 1 ({double.bootstrap}) failed while "
        "answering DescribeConfigs v4: Connection reset by peer (twice, on fresh connections) (the node, or a proxy in front of it, "
        "broke off while answering: check its log)\n"
    )
    assert [r.api_key for r in double.received].count(32) == 2
