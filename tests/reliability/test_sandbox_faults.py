"""Faults on the sandbox, end to end through the CLI: each ends in a result or one clear error.

None hangs (pytest-timeout); how long each takes is a figure of benchmarks/bench_deadlines.py.
The sandbox's control hook (`sb.control(api_key, hook)`) lets a fault happen at an exact moment of a
request: the hook runs on the sandbox's loop before the handler and sees (context, request).
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from kcli.sandbox.emulator import faults
from tests.conftest import CliResult, invoke
from tests.reliability.relay import Relay

pytestmark = [pytest.mark.sandbox, pytest.mark.timeout(120)]

DESCRIBE_CONFIGS = 32
INCREMENTAL_ALTER_CONFIGS = 44
DESCRIBE_QUORUM = 55
API_VERSIONS = 18


def props(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def one_error_line(result: CliResult) -> str:
    """The single `Error: ...` line a failed command prints (no traceback)."""
    assert "Traceback" not in result.stderr
    errors = [line for line in result.stderr.splitlines() if line.startswith("Error: ")]
    assert len(errors) == 1, result.stderr
    return errors[0]


def test_broker_stopped_mid_describe_finishes_with_what_it_got(fresh_sandbox: Any) -> None:
    """Broker 2 dies as its DescribeConfigs arrives: brokers 1 and 3 are printed, 2 is named, exit 1."""
    sb = fresh_sandbox
    victim = 2

    async def die_on_arrival(ctx: Any, request: Any) -> None:
        if ctx.node.node_id == victim and ctx.node.running:
            asyncio.get_running_loop().create_task(faults.stop_node(ctx.cluster, victim))
            await asyncio.sleep(0)  # let the stop begin: this answer is never written
        return None

    sb.control(DESCRIBE_CONFIGS, die_on_arrival)
    result = invoke("configs", "--describe", "--entity-type", "brokers", "-b", sb.bootstrap_servers)

    assert result.code == 1, (result.stdout, result.stderr)
    assert "Dynamic configs for broker 1 are:" in result.stdout
    assert "Dynamic configs for broker 3 are:" in result.stdout
    assert "Default configs for brokers in the cluster are:" in result.stdout
    assert "broker 2 are" not in result.stdout
    line = one_error_line(result)
    assert "broker 2" in line and "node 2" in line


def _replace_brokers_after(calls: list[int], n: int, *, fresh_ports: bool, relay: Relay) -> Any:
    """A DescribeQuorum hook that replaces every broker after the n-th request reached a broker."""

    async def hook(ctx: Any, request: Any) -> None:
        if not ctx.node.is_broker:
            return None
        calls.append(ctx.node.node_id)
        if len(calls) == n:

            async def later() -> None:
                await asyncio.sleep(0.05)  # after this answer went out
                await faults.replace_brokers(ctx.cluster, fresh_ports=fresh_ports)
                first = ctx.cluster.brokers()[0]
                relay.point_at(first.address)

            asyncio.get_running_loop().create_task(later())
        return None

    return hook


def _watch(bootstrap: str, config: str, count: int) -> CliResult:
    return invoke(
        "metadata-quorum", "-b", bootstrap, "-c", config,
        "describe", "--status", "--watch", "--interval", "0.2", "--count", str(count),
    )  # fmt: skip


def test_replaced_brokers_watch_rebootstraps_and_carries_on(fresh_sandbox: Any, tmp_path: Path) -> None:
    """KIP-899: every broker replaced (new ids, new ports) while --watch runs: it rebootstraps through
    the stable bootstrap address and every refresh still succeeds."""
    sb = fresh_sandbox
    old_ids = set(sb.broker_ids)
    calls: list[int] = []
    config = props(tmp_path, "c.properties", "request.timeout.ms=2000\ndefault.api.timeout.ms=8000\n")
    with Relay() as relay:
        relay.point_at(sb.bootstrap_servers.split(",")[0])
        sb.control(DESCRIBE_QUORUM, _replace_brokers_after(calls, 2, fresh_ports=True, relay=relay))
        result = _watch(relay.address, config, 6)

    assert result.code == 0, result.stderr
    assert "refresh failed" not in result.stdout
    assert result.stdout.count("ClusterId:") == 6
    new_ids = set(sb.broker_ids)
    assert not new_ids & old_ids
    assert set(calls[2:]) <= new_ids and calls[2:], calls  # later refreshes were answered by new brokers


def test_replaced_brokers_with_recovery_none_stops_with_a_clear_error(
    fresh_sandbox: Any, tmp_path: Path
) -> None:
    """metadata.recovery.strategy=none: the watch does not bootstrap again; it stops with one error."""
    sb = fresh_sandbox
    calls: list[int] = []
    config = props(
        tmp_path,
        "none.properties",
        "metadata.recovery.strategy=none\nrequest.timeout.ms=2000\ndefault.api.timeout.ms=5000\n",
    )
    with Relay() as relay:
        relay.point_at(sb.bootstrap_servers.split(",")[0])
        sb.control(DESCRIBE_QUORUM, _replace_brokers_after(calls, 2, fresh_ports=True, relay=relay))
        result = _watch(relay.address, config, 6)

    assert result.code == 1, (result.stdout, result.stderr)
    assert result.stdout.count("ClusterId:") == 2  # the refreshes before the replacement
    line = one_error_line(result)
    assert "connect" in line  # the old nodes are gone; nothing else was tried
    assert len(calls) == 2  # no request reached a new broker


def test_misrouted_broker_never_gets_a_write(fresh_sandbox: Any) -> None:
    """KIP-1242: broker 2 advertises broker 1's address. A write for broker 2 is not sent to broker 1:
    the client sees REBOOTSTRAP_REQUIRED, rebootstraps once, then reports the misroute."""
    sb = fresh_sandbox
    arrived: list[tuple[int, list[str]]] = []

    async def record(ctx: Any, request: Any) -> None:
        arrived.append((ctx.node.node_id, [r.resource_name for r in request.resources]))
        return None

    sb.control(INCREMENTAL_ALTER_CONFIGS, record)
    assert sb.misroute(2) == 1
    result = invoke(
        "configs", "-b", sb.bootstrap_servers, "--alter", "--entity-type", "brokers",
        "--entity-name", "2", "--add-config", "log.cleaner.threads=3",
    )  # fmt: skip

    assert result.code == 1, (result.stdout, result.stderr)
    line = one_error_line(result)
    assert "misrouted" in line and "node 2" in line and "REBOOTSTRAP_REQUIRED" in line
    assert arrived == []  # no IncrementalAlterConfigs reached any node
    described = invoke(
        "configs", "-b", sb.bootstrap_servers, "--describe", "--entity-type", "brokers", "--entity-name", "1"
    )
    assert described.code == 0, described.stderr
    assert "log.cleaner.threads" not in described.stdout
    # reads that may go to any node still work: the misrouted node is skipped
    assert invoke("cluster-id", "-b", sb.bootstrap_servers).code == 0


def test_answers_delayed_past_request_timeout(fresh_sandbox: Any, tmp_path: Path) -> None:
    """A node that answers after request.timeout.ms: its request fails within that time, others go on."""
    sb = fresh_sandbox
    sb.delay(1, 5000)
    config = props(tmp_path, "c.properties", "request.timeout.ms=500\ndefault.api.timeout.ms=4000\n")

    any_node = invoke("cluster-id", "-b", sb.bootstrap_servers, "-c", config)
    assert any_node.code == 0, any_node.stderr  # bootstrap moved on from broker 1 to broker 2
    assert any_node.stdout.strip() == f"Cluster ID: {sb.cluster_id}"

    result = invoke(
        "configs", "--describe", "--entity-type", "brokers", "-b", sb.bootstrap_servers, "-c", config
    )
    assert result.code == 1, (result.stdout, result.stderr)
    assert "Dynamic configs for broker 2 are:" in result.stdout
    assert "Dynamic configs for broker 3 are:" in result.stdout
    line = one_error_line(result)
    assert "broker 1" in line and "timed out after 500 ms" in line  # request.timeout.ms, not the 5 s delay


def test_cluster_id_change_on_rebootstrap_is_refused_and_nothing_is_written(
    make_sandbox: Any, tmp_path: Path
) -> None:
    """The address the client bootstrapped from now leads to another cluster: refused, no write anywhere."""
    first = make_sandbox(controllers=1, brokers=2)
    second = make_sandbox(controllers=1, brokers=2)
    assert first.cluster_id != second.cluster_id
    writes: list[str] = []

    async def count_writes(ctx: Any, request: Any) -> None:
        writes.append(ctx.cluster.cluster_id)
        return None

    with Relay() as relay:
        relay.point_at(first.bootstrap_servers.split(",")[0])

        async def swap_on_first_node_connection(ctx: Any, request: Any) -> None:
            # ApiVersions v5 with a cluster id is the client's first connection to a known node,
            # after bootstrap: now the first cluster's brokers go away and the address moves.
            if getattr(request, "cluster_id", None) and ctx.node.is_broker:
                relay.point_at(second.bootstrap_servers.split(",")[0])
                for broker in list(ctx.cluster.brokers()):
                    if broker.running:
                        asyncio.get_running_loop().create_task(faults.stop_node(ctx.cluster, broker.node_id))
                await asyncio.sleep(0.05)
                raise ConnectionResetError("broker going away")  # the sandbox drops this connection
            return None

        first.control(API_VERSIONS, swap_on_first_node_connection)
        for sb in (first, second):
            sb.control(INCREMENTAL_ALTER_CONFIGS, count_writes)
        config = props(tmp_path, "c.properties", "request.timeout.ms=2000\ndefault.api.timeout.ms=8000\n")
        result = invoke(
            "configs", "-b", relay.address, "-c", config, "--alter", "--entity-type", "brokers",
            "--entity-default", "--add-config", "log.cleaner.threads=3",
        )  # fmt: skip

    assert result.code == 1, (result.stdout, result.stderr)
    line = one_error_line(result)
    assert first.cluster_id in line and second.cluster_id in line
    assert "cluster id" in line
    assert writes == []
