"""What each sandbox listener advertises, against the request schemas inside kafka-clients.jar.

Kafka builds a listener's ApiVersions table from the `listeners` of each message schema (a broker
advertises the "broker" APIs, a controller the "controller" ones), and the Java client sends nothing
its peer does not advertise. So an API the sandbox advertises on the wrong kind of node would be
answered by the sandbox where Kafka refuses, and one it leaves out would be refused where Kafka answers.
Also ApiVersions v0, which the Java client's SASL authenticator sends first, must be answered.
"""

from __future__ import annotations

import json
import re
import zipfile
from typing import Any

import pytest

from tests.peers.java.peer import find_jars
from tests.sandbox.raw import RawConnection, first

pytestmark = pytest.mark.java


def kafka_request_schemas() -> dict[int, dict[str, Any]]:
    """api key -> {"name", "listeners", "versions": (min, max)} from kafka-clients.jar's message schemas."""
    out: dict[int, dict[str, Any]] = {}
    with zipfile.ZipFile(find_jars()[0]) as jar:
        for name in jar.namelist():
            if not (name.startswith("common/message/") and name.endswith("Request.json")):
                continue
            text = re.sub(r"^\s*//.*$", "", jar.read(name).decode("utf-8"), flags=re.M)
            schema = json.loads(text)
            if schema.get("type") != "request":
                continue
            low, _, high = str(schema["validVersions"]).partition("-")
            out[int(schema["apiKey"])] = {
                "name": schema["name"],
                "listeners": set(schema.get("listeners", ())),
                "versions": (int(low), int(high or low)),
            }
    return out


def advertised(address: str, version: int = 3) -> dict[int, tuple[int, int]]:
    from kio.index import load_request_schema

    request_cls: Any = load_request_schema(18, version)
    fields = (
        {"client_software_name": "kcli-peer-test", "client_software_version": "1"} if version >= 3 else {}
    )
    with RawConnection(address) as conn:
        answer = conn.call(request_cls(**fields))
    assert int(answer.error_code) == 0
    return {int(k.api_key): (int(k.min_version), int(k.max_version)) for k in answer.api_keys}


def test_each_listener_advertises_the_apis_kafka_lists_for_it(peer_sandbox: Any) -> None:
    from kcli.sandbox.emulator.registry import Listener, specs_for

    schemas = kafka_request_schemas()
    for kind, address in (("broker", first(peer_sandbox.bootstrap_servers)),
                          ("controller", first(peer_sandbox.bootstrap_controllers))):  # fmt: skip
        table = advertised(address)
        for key, (low, high) in table.items():
            schema = schemas.get(key)
            if schema is None:
                continue  # an API newer than kafka-clients 3.9
            assert kind in schema["listeners"], f"{schema['name']} ({key}) advertised by a {kind}"
            java_low, java_high = schema["versions"]
            assert max(low, java_low) <= min(high, java_high), f"{schema['name']}: no version in common"
        # what this kind of node serves (Fetch: the brokers' data plane; a controller's raft Fetch is not served)
        for key in (spec.key for spec in specs_for(Listener.BROKER if kind == "broker" else Listener.CONTROLLER)):
            schema = schemas.get(key)
            if (
                schema is not None and kind in schema["listeners"] and key != 58
            ):  # Envelope: broker to controller
                assert key in table, f"{schema['name']} ({key}) served but not advertised by a {kind}"


@pytest.mark.parametrize("version", [0, 1, 2, 3])
def test_every_api_versions_version_is_answered(version: int, peer_sandbox: Any) -> None:
    """v0 is the first request of the Java client's SASL authenticator; v1-v2 carry no feature fields."""
    table = advertised(first(peer_sandbox.bootstrap_servers), version)
    assert table[18] == (0, 5)
    assert 3 in table
