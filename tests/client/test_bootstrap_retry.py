"""Bootstrap retries refused connections with backoff until the deadline; KIP-1102 rebootstrap trigger.

Against the Kafka-speaking test double (tests/client/kafka_double.py) on real loopback sockets.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from kcli.client import protocol
from kcli.client.admin import Admin
from kcli.client.config import ClientConfig, config_from_properties
from kcli.client.errors import ConnectionFailed, RequestTimedOut
from tests.client.kafka_double import KafkaDouble, Received, describe_cluster_handler, serving
from tests.conftest import invoke
from tests.fixtures_tansu import free_port


def _config(bootstrap: str, **props: str) -> ClientConfig:
    return config_from_properties(
        {"bootstrap.servers": bootstrap, "retry.backoff.ms": "50", "retry.backoff.max.ms": "200", **props},
        warn=lambda _: None,
    )


def _describe_request(version: int) -> Any:
    return protocol.make(
        protocol.request_class("describe_cluster", version),
        include_cluster_authorized_operations=False,
        endpoint_type=1,
        include_fenced_brokers=False,
    )


@pytest.mark.timeout(60)
def test_bootstrap_waits_for_a_node_that_starts_listening_later() -> None:
    """Connection refused at first (the node is starting): retried with backoff until it answers."""

    async def scenario() -> None:
        port = free_port()
        node = KafkaDouble(port=port)
        node.handlers[60] = describe_cluster_handler([(1, node)], controller=1)
        lines: list[str] = []

        async def start_later() -> Any:
            await asyncio.sleep(0.6)
            server = await asyncio.start_server(node._serve, "127.0.0.1", port)
            lines.append("listening")
            return server

        starter = asyncio.create_task(start_later())
        config = _config(f"127.0.0.1:{port}", **{"default.api.timeout.ms": "10000"})
        async with Admin(config, trace=lines.append) as admin:
            assert admin.cluster_id == "double-cluster"
            assert list(admin.nodes) == [1]
        # refused while the node was starting; the first request went out once it listened
        assert any("bootstrap pass" in line and "connection refused" in line for line in lines), lines
        sent = [index for index, line in enumerate(lines) if line.startswith("-> ")]
        assert sent and sent[0] > lines.index("listening"), lines
        server = await starter
        server.close()
        for writer in node._writers:
            writer.close()

    asyncio.run(scenario())


@pytest.mark.timeout(60)
def test_refused_everywhere_fails_at_the_deadline_naming_the_tries() -> None:
    """Retried until default.api.timeout.ms, then one error (how long that takes: benchmarks/bench_deadlines.py)."""

    async def scenario() -> None:
        ports = [free_port(), free_port()]
        config = _config(",".join(f"127.0.0.1:{p}" for p in ports), **{"default.api.timeout.ms": "800"})
        with pytest.raises(ConnectionFailed) as failure:
            async with Admin(config):
                pass
        message = failure.value.message
        assert "none of the bootstrap brokers answered" in message and "connection refused" in message
        assert "default.api.timeout.ms=800" in message
        tries = int(message.split("(tried ")[1].split(" ")[0])
        assert tries >= 3  # backoff 50, 100, 200, 200 ms ... within 800 ms

    asyncio.run(scenario())


@pytest.mark.timeout(60)
def test_a_pass_the_deadline_cuts_short_still_names_every_address(monkeypatch: pytest.MonkeyPatch) -> None:
    """The last pass reaches only the first address before default.api.timeout.ms runs out (a loaded
    machine): the error still sums up both, from their latest failures."""
    ports = [free_port(), free_port()]
    opened = Admin._open
    calls: list[int] = []

    async def slow_after_the_first_pass(self: Admin, endpoint: Any, deadline: float, **kw: Any) -> Any:
        calls.append(endpoint.port)
        try:
            return await opened(self, endpoint, deadline, **kw)
        finally:  # refused, then the machine stalls past the deadline
            if len(calls) > 2 and endpoint.port == ports[0]:
                await asyncio.sleep(max(0.0, deadline - time.monotonic()) + 0.05)

    monkeypatch.setattr(Admin, "_open", slow_after_the_first_pass)

    async def scenario() -> None:
        config = _config(",".join(f"127.0.0.1:{p}" for p in ports), **{"default.api.timeout.ms": "800"})
        with pytest.raises(ConnectionFailed) as failure:
            async with Admin(config):
                pass
        message = failure.value.message
        assert calls[-1] == ports[0] and calls.count(ports[1]) >= 1, calls
        assert "none of the bootstrap brokers answered" in message, message
        assert all(f"127.0.0.1:{p}" in message for p in ports), message

    asyncio.run(scenario())


@pytest.mark.timeout(60)
def test_cli_refused_address_is_one_line_after_the_deadline() -> None:
    port = free_port()
    result = invoke(
        "cluster-id",
        "--bootstrap-server",
        f"127.0.0.1:{port}",
        environ={"KCLI_DEFAULT_API_TIMEOUT_MS": "600"},
    )
    assert result.code == 1 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert f"cannot connect to 127.0.0.1:{port}: connection refused (tried" in result.stderr


@pytest.mark.timeout(15)  # well before the 20 s deadline a retry loop would run to
def test_a_non_kafka_listener_is_not_retried() -> None:
    """Only refusals are retried: a server that answers garbage is dialled once and fails at once."""

    async def scenario() -> None:
        connections: list[int] = []

        async def garbage(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            connections.append(1)
            await reader.read(4)
            writer.write(b"HTTP/1.1 400 Bad Request\r\n\r\n")
            await writer.drain()
            writer.close()

        server = await asyncio.start_server(garbage, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        try:
            with pytest.raises(ConnectionFailed, match="HTTP"):
                async with Admin(_config(f"127.0.0.1:{port}", **{"default.api.timeout.ms": "20000"})):
                    pass
        finally:
            server.close()
        assert len(connections) == 1

    asyncio.run(scenario())


def _stuck_then_moved(trigger_ms: str, strategy: str = "rebootstrap") -> tuple[int, list[str]]:
    """Node 1 stops answering (requests time out); the bootstrap address then knows node 2 only.

    Returns how many calls it took to get an answer (0: none of 3 did) and the trace.
    """

    async def scenario() -> tuple[int, list[str]]:
        seed, stuck, fresh = KafkaDouble(), KafkaDouble(), KafkaDouble()
        lines: list[str] = []
        async with serving(seed), serving(stuck), serving(fresh):
            stuck.handlers[60] = describe_cluster_handler([(1, stuck)], controller=1)
            fresh.handlers[60] = describe_cluster_handler([(2, fresh)], controller=2)
            seed.handlers[60] = describe_cluster_handler([(1, stuck)], controller=1)
            config = _config(
                seed.bootstrap,
                **{
                    "request.timeout.ms": "400",
                    "default.api.timeout.ms": "5000",
                    "metadata.recovery.strategy": strategy,
                    "metadata.recovery.rebootstrap.trigger.ms": trigger_ms,
                },
            )
            async with Admin(config, trace=lines.append) as admin:
                await admin.call(60, _describe_request, versions=(0, 1))

                async def never(received: Received) -> Any:
                    await asyncio.sleep(60)

                stuck.handlers[60] = never
                seed.handlers[60] = describe_cluster_handler([(2, fresh)], controller=2)
                for call in range(1, 4):
                    try:
                        response = await admin.call(60, _describe_request, versions=(0, 1))
                    except RequestTimedOut:
                        continue
                    assert [int(b.broker_id) for b in response.brokers] == [2]
                    return call, lines
        return 0, lines

    return asyncio.run(scenario())


def test_rebootstrap_after_the_trigger_when_known_nodes_stop_answering() -> None:
    """KIP-1102: no answer from any known node for metadata.recovery.rebootstrap.trigger.ms -> bootstrap again."""
    calls, lines = _stuck_then_moved("700")
    assert calls == 2, lines  # the first call times out (0.4 s < 0.7 s); the second passes the trigger
    assert any("metadata.recovery.rebootstrap.trigger.ms" in line for line in lines), lines


def test_no_rebootstrap_before_the_trigger_or_with_strategy_none() -> None:
    calls, lines = _stuck_then_moved("300000")
    assert calls == 0 and not any("bootstrapping again" in line for line in lines)
    calls, lines = _stuck_then_moved("100", strategy="none")
    assert calls == 0 and not any("bootstrapping again" in line for line in lines)
