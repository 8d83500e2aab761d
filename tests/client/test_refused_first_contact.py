"""Nothing listening: a cluster never reached whose every address refuses fails after a brief retry.

An explicit default.api.timeout.ms is waited out as Kafka's clients do, and so is rebootstrapping a
cluster that answered before (KIP-899). Against the Kafka-speaking test double on real loopback sockets.
"""

from __future__ import annotations

import asyncio
import re
from typing import Any

import pytest

from kcli.client import protocol
from kcli.client.admin import Admin
from kcli.client.bootstrap_failures import REFUSED_RETRY_MS
from kcli.client.config import ClientConfig, config_from_properties
from kcli.client.errors import ConnectionFailed
from tests.client.kafka_double import KafkaDouble, describe_cluster_handler
from tests.conftest import invoke
from tests.fixtures_tansu import free_port

pytestmark = pytest.mark.timeout(60)  # no case hangs

BRIEF_HINT = (
    "is a node listening there? kcli retries refused connections for 3 s only; set default.api.timeout.ms, "
    "e.g. KCLI_DEFAULT_API_TIMEOUT_MS=60000, to keep retrying as long as Kafka's clients do"
)
TRIES = r"; (?P<tries>\d+) tries in (?P<seconds>\d+\.\d) s"


def _config(bootstrap: str, **props: str) -> ClientConfig:
    return config_from_properties({"bootstrap.servers": bootstrap, **props}, warn=lambda _: None)


def _describe_request(version: int) -> Any:
    return protocol.make(
        protocol.request_class("describe_cluster", version),
        include_cluster_authorized_operations=False,
        endpoint_type=1,
        include_fenced_brokers=False,
    )


def _most_tries_in_the_brief_window() -> int:
    """How many tries the backoff (retry.backoff.ms doubling up to retry.backoff.max.ms, Kafka's
    defaults) fits in REFUSED_RETRY_MS: kcli does not start a wait that would end past it."""
    config = _config("127.0.0.1:1")
    waited, tries = 0, 1
    while True:
        wait = min(config.retry_backoff_max_ms, config.retry_backoff_ms * 2 ** (tries - 1))
        if waited + wait >= REFUSED_RETRY_MS:
            return tries
        waited, tries = waited + wait, tries + 1


def _check_brief(match: re.Match[str] | None) -> None:
    assert match is not None
    # it did retry (backoff 100, 200, 400 ms ...), and stopped when the brief window ran out, not at
    # the one-minute default.api.timeout.ms (a slow machine makes fewer tries, never more)
    assert 3 <= int(match["tries"]) <= _most_tries_in_the_brief_window()


def test_first_contact_refused_everywhere_fails_after_the_brief_retry() -> None:
    async def scenario() -> None:
        port = free_port()
        with pytest.raises(ConnectionFailed) as failure:
            async with Admin(_config(f"127.0.0.1:{port}")):
                pass
        error = failure.value
        _check_brief(
            re.fullmatch(rf"cannot connect to 127\.0\.0\.1:{port}: connection refused{TRIES}", error.message)
        )
        assert error.hint == BRIEF_HINT

    asyncio.run(scenario())


def test_cli_nothing_listening_is_one_line_naming_the_setting_for_a_longer_wait() -> None:
    ports = [free_port(), free_port()]
    addresses = ",".join(f"127.0.0.1:{port}" for port in ports)
    result = invoke("cluster-id", "--bootstrap-server", addresses)
    assert result.code == 1 and result.stdout == ""
    _check_brief(
        re.fullmatch(
            rf"Error: none of the bootstrap brokers answered \(127\.0\.0\.1:{ports[0]}, 127\.0\.0\.1:{ports[1]}\); "
            rf"first error: cannot connect to 127\.0\.0\.1:{ports[0]}: connection refused{TRIES} "
            rf"\({re.escape(BRIEF_HINT)}\)\n",
            result.stderr,
        )
    )


def _late_node(port: int) -> KafkaDouble:
    node = KafkaDouble(port=port)
    node.handlers[60] = describe_cluster_handler([(1, node)], controller=1)
    return node


async def _listen_later(node: KafkaDouble, port: int, delay: float) -> asyncio.base_events.Server:
    await asyncio.sleep(delay)
    return await asyncio.start_server(node._serve, "127.0.0.1", port)


async def _close(server: asyncio.base_events.Server, node: KafkaDouble) -> None:
    server.close()
    for writer in node._writers:
        writer.close()
    await server.wait_closed()


def test_an_explicit_default_api_timeout_is_waited_out_as_kafka_does() -> None:
    """The node starts listening after the brief window: with default.api.timeout.ms set, kcli is still there."""

    async def scenario() -> None:
        port = free_port()
        node = _late_node(port)
        starter = asyncio.create_task(_listen_later(node, port, REFUSED_RETRY_MS / 1000 + 0.5))
        config = _config(f"127.0.0.1:{port}", **{"default.api.timeout.ms": "20000"})
        async with Admin(config, warn=lambda _: None) as admin:
            assert admin.cluster_id == "double-cluster"
        await _close(await starter, node)

    asyncio.run(scenario())


def test_rebootstrapping_a_reached_cluster_waits_the_whole_timeout() -> None:
    """KIP-899: a cluster that answered before and restarts past the brief window is waited for."""

    async def scenario() -> None:
        port = free_port()
        node = _late_node(port)
        server = await asyncio.start_server(node._serve, "127.0.0.1", port)
        config = _config(f"127.0.0.1:{port}", **{"retry.backoff.max.ms": "300"})  # timeout not set
        async with Admin(config, warn=lambda _: None) as admin:
            await admin.call(60, _describe_request, versions=(0, 1))
            await _close(server, node)  # the whole cluster restarts ...
            restarted = _late_node(port)
            starter = asyncio.create_task(_listen_later(restarted, port, REFUSED_RETRY_MS / 1000 + 0.5))
            response = await admin.call(60, _describe_request, versions=(0, 1))  # ... and is waited for
            assert [int(b.broker_id) for b in response.brokers] == [1]
            await _close(await starter, restarted)

    asyncio.run(scenario())
