"""The sandbox against a real Kafka cluster of the same shape, field by field (tests/fidelity/normalize.py
says what may differ).

The real cluster is Kafka 4.4.0 started for the module by the real-Kafka engine (`KafkaSandbox`: one
controller, three brokers, PLAINTEXT, no authorizer), whose nodes are written with the settings a sandbox
node reports (kcli.sandbox.emulator.registration.static_config) and the sandbox's node ids (brokers 1..,
controllers 101..). Another cluster can be named instead:

    KCLI_TEST_REAL_BOOTSTRAP_SERVER=127.0.0.1:29501       its brokers
    KCLI_TEST_REAL_BOOTSTRAP_CONTROLLER=127.0.0.1:29601   its controllers

It must then be a fresh Kafka 4.4 cluster of that kind: PLAINTEXT, without an authorizer, the sandbox's
node ids, and each node started with process.roles, node.id, controller.quorum.bootstrap.servers,
listeners, advertised.listeners, controller.listener.names=CONTROLLER,
listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT, log.dirs, metadata.log.dir (the
first log dir), and on brokers inter.broker.listener.name=PLAINTEXT and, with fewer than 3 brokers, the
internal topics' replication factors (and with 1 broker their min ISRs) set to the broker count.
A sandbox with as many controllers and brokers is started beside it. The tests change nothing on the
real cluster but a topic of their own, deleted at the end (alterations are validate-only).
"""

from __future__ import annotations

import contextlib
import os
import re
import time
import uuid
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.fidelity import calls, normalize
from tests.fidelity.calls import Endpoint

# The data plane's scenarios run in this module, on its real cluster (one real cluster for the suite).
from tests.fidelity.data_plane import (  # noqa: F401
    clients,
    test_an_unserved_request_closes_the_connection_as_kafka,
    test_data_plane_answers_as_kafka,
)
from tests.fidelity.groups import group_sides, test_group_coordinator_answers_as_kafka  # noqa: F401
from tests.fidelity.topic_admin import test_topic_admin_answers_as_kafka  # noqa: F401

SERVER_ENV = "KCLI_TEST_REAL_BOOTSTRAP_SERVER"
CONTROLLER_ENV = "KCLI_TEST_REAL_BOOTSTRAP_CONTROLLER"
pytestmark = pytest.mark.realkafka

TOPIC, BROKER, LOGGER, CLIENT_METRICS, GROUP = 2, 4, 8, 16, 32
SET, DELETE, APPEND = 0, 1, 2


@dataclass(frozen=True)
class Side:
    """One cluster as the tests see it."""

    name: str
    brokers: Endpoint
    controllers: Endpoint
    broker_ids: list[int]
    controller_ids: list[int]
    places: dict[str, str]  # host:port -> placeholder (normalize.addresses)
    topic: str

    @property
    def broker(self) -> int:
        return self.broker_ids[0]

    @property
    def controller(self) -> int:
        return self.controller_ids[0]

    def listeners(self) -> str:
        return str(
            calls.describe(self.brokers, BROKER, str(self.broker), self.broker).entries["listeners"]["value"]
        )


def _side(name: str, servers: str, controllers: str, topic: str) -> Side:
    import asyncio

    from kcli.client.admin import Admin
    from kcli.client.config import config_from_properties

    async def nodes(key: str, bootstrap: str) -> dict[int, str]:
        config = config_from_properties({key: bootstrap}, warn=lambda _: None)
        async with Admin(config) as admin:
            return {node_id: f"{info.host}:{info.port}" for node_id, info in admin.nodes.items()}

    brokers = asyncio.run(nodes("bootstrap.servers", servers))
    quorum = asyncio.run(nodes("bootstrap.controllers", controllers))
    return Side(
        name=name,
        brokers=Endpoint(servers),
        controllers=Endpoint(controllers, controllers=True),
        broker_ids=sorted(brokers),
        controller_ids=sorted(quorum),
        places=normalize.addresses(brokers, quorum),
        topic=topic,
    )


def _wait_for_topic(side: Side) -> None:
    deadline = time.monotonic() + 30
    while calls.describe(side.brokers, TOPIC, side.topic).code != 0:
        assert time.monotonic() < deadline, (
            f"{side.name}: topic {side.topic} not known to the brokers after 30 s"
        )
        time.sleep(0.2)


@pytest.fixture(scope="module")
def sides(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Side, Side]]:
    topic = f"kcli-fidelity-{uuid.uuid4().hex[:8]}"
    directory = Path(tmp_path_factory.mktemp("fidelity"))
    with contextlib.ExitStack() as stack:
        servers, controllers = os.environ.get(SERVER_ENV), os.environ.get(CONTROLLER_ENV)
        if not (servers and controllers):
            from kcli.sandbox.kafka.handle import KafkaSandbox
            from tests.fixtures_kafka import NEWEST, kafka_home

            kafka = stack.enter_context(
                KafkaSandbox(kafka_home(NEWEST), directory / "real", controllers=1, brokers=3)
            )
            servers, controllers = kafka.bootstrap_servers, kafka.bootstrap_controllers
        yield from _beside_a_sandbox(_side("real", servers, controllers, topic), directory / "sandbox", topic)


def _beside_a_sandbox(real: Side, directory: Path, topic: str) -> Iterator[tuple[Side, Side]]:
    from kcli.sandbox.emulator.handle import Sandbox

    with Sandbox(
        directory=directory, controllers=len(real.controller_ids), brokers=len(real.broker_ids)
    ) as sb:
        emulated = _side("sandbox", sb.bootstrap_servers, sb.bootstrap_controllers, topic)
        if (real.broker_ids, real.controller_ids) != (emulated.broker_ids, emulated.controller_ids):
            pytest.skip(
                f"the real cluster's node ids {real.broker_ids} / {real.controller_ids} are not the sandbox's "
                f"{emulated.broker_ids} / {emulated.controller_ids}"
            )
        calls.create_topic(real.brokers, topic)
        try:
            calls.create_topic(emulated.brokers, topic)
            for side in (real, emulated):
                _wait_for_topic(side)
            yield real, emulated
        finally:
            calls.delete_topic(real.brokers, topic)


# ---- DescribeConfigs ---------------------------------------------------------------------------------


def _described(side: Side, via: str, resource_type: int, name: str) -> tuple[int, str | None, dict[str, Any]]:
    name = name.format(broker=side.broker, controller=side.controller, topic=side.topic)
    endpoint = side.brokers if via == "broker" else side.controllers
    known = side.broker_ids if via == "broker" else side.controller_ids
    node = int(name) if resource_type in (BROKER, LOGGER) and name.isdigit() and int(name) in known else None
    described = calls.describe(endpoint, resource_type, name, node)
    return described.code, described.message, normalize.entries(described.entries, side.places)


DESCRIBED = [
    ("broker", "broker", BROKER, "{broker}"),
    ("controller", "controller", BROKER, "{controller}"),
    ("cluster defaults via a broker", "broker", BROKER, ""),
    ("cluster defaults via a controller", "controller", BROKER, ""),
    ("topic via a broker", "broker", TOPIC, "{topic}"),
    ("topic via a controller", "controller", TOPIC, "{topic}"),
    ("group", "broker", GROUP, "kcli-fidelity-group"),
    ("group via a controller", "controller", GROUP, "kcli-fidelity-group"),
    ("client-metrics subscription", "broker", CLIENT_METRICS, "kcli-fidelity-metrics"),
    ("unknown topic", "broker", TOPIC, "kcli-fidelity-no-such-topic"),
    ("another broker's configs", "broker", BROKER, "999"),
    ("not a broker id", "broker", BROKER, "x"),
    ("a controller asked for a broker's configs", "controller", BROKER, "{broker}"),
    ("loggers without a node", "broker", LOGGER, ""),
    ("group without a name", "broker", GROUP, ""),
    ("subscription without a name", "broker", CLIENT_METRICS, ""),
]


@pytest.mark.parametrize(
    ("via", "resource_type", "name"), [c[1:] for c in DESCRIBED], ids=[c[0] for c in DESCRIBED]
)
def test_describe_configs_as_kafka(sides: tuple[Side, Side], via: str, resource_type: int, name: str) -> None:
    real, emulated = (_described(side, via, resource_type, name) for side in sides)
    assert real[:2] == emulated[:2], "error code and message"
    assert normalize.differences(real[2], emulated[2]) == []


# ---- IncrementalAlterConfigs (validate-only) -----------------------------------------------------------

Resource = tuple[int, str, Sequence[tuple[str, int, str | None]]]
L = "listener.name.plaintext."

# (case, via, resources). "{broker}", "{topic}", "{listeners}": the side's own broker id, topic, listeners.
ALTERED: list[tuple[str, str, list[Resource]]] = [
    ("read-only key", "broker", [(BROKER, "{broker}", [("num.partitions", SET, "3")])]),
    ("read-only key as cluster default", "broker", [(BROKER, "", [("num.partitions", SET, "3")])]),
    (
        "advertised.listeners",
        "broker",
        [(BROKER, "{broker}", [("advertised.listeners", SET, "{listeners}")])],
    ),
    ("listeners per broker", "broker", [(BROKER, "{broker}", [("listeners", SET, "{listeners}")])]),
    ("listeners as cluster default", "broker", [(BROKER, "", [("listeners", SET, "{listeners}")])]),
    ("SSL key without listener", "broker", [(BROKER, "{broker}", [("ssl.keystore.location", SET, "/x")])]),
    ("SSL key without listener, default", "broker", [(BROKER, "", [("ssl.keystore.location", SET, "/x")])]),
    ("SSL key of a listener", "broker", [(BROKER, "{broker}", [(L + "ssl.keystore.location", SET, "/x")])]),
    ("SSL key of a listener, default", "broker", [(BROKER, "", [(L + "ssl.keystore.location", SET, "/x")])]),
    ("JAAS as cluster default", "broker", [(BROKER, "", [("sasl.jaas.config", SET, "x required;")])]),
    ("JAAS per broker", "broker", [(BROKER, "{broker}", [("sasl.jaas.config", SET, "x required;")])]),
    ("JAAS of a mechanism, default", "broker", [(BROKER, "", [(L + "plain.sasl.jaas.config", SET, "x;")])]),
    ("cluster-level listener key", "broker", [(BROKER, "", [(L + "max.connections", SET, "100")])]),
    ("custom key per broker", "broker", [(BROKER, "{broker}", [("kcli.custom.key", SET, "v")])]),
    ("custom key as cluster default", "broker", [(BROKER, "", [("kcli.custom.key", SET, "v")])]),
    ("not a LONG", "broker", [(BROKER, "{broker}", [("log.retention.ms", SET, "abc")])]),
    ("below a minimum", "broker", [(BROKER, "", [("num.io.threads", SET, "0")])]),
    ("thread pool doubled and more", "broker", [(BROKER, "{broker}", [("num.io.threads", SET, "100")])]),
    ("thread pool below half", "broker", [(BROKER, "{broker}", [("num.io.threads", SET, "3")])]),
    ("list item not a choice", "broker", [(BROKER, "{broker}", [("log.cleanup.policy", SET, "abc")])]),
    ("append to a broker non-list", "broker", [(BROKER, "{broker}", [("log.retention.ms", APPEND, "5")])]),
    (
        "append to a broker list",
        "broker",
        [(BROKER, "{broker}", [("log.cleanup.policy", APPEND, "compact")])],
    ),
    ("unknown operation", "broker", [(BROKER, "{broker}", [("log.retention.ms", 9, "5")])]),
    (
        "broker min.insync.replicas with ELR",
        "broker",
        [(BROKER, "{broker}", [("min.insync.replicas", SET, "1")])],
    ),
    (
        "cluster min.insync.replicas removed",
        "broker",
        [(BROKER, "", [("min.insync.replicas", DELETE, None)])],
    ),
    ("another broker", "broker", [(BROKER, "999", [("log.retention.ms", SET, "1000")])]),
    ("not a broker id", "broker", [(BROKER, "x", [("log.retention.ms", SET, "1000")])]),
    (
        "duplicate keys",
        "broker",
        [(BROKER, "{broker}", [("log.retention.ms", SET, "1"), ("log.retention.ms", SET, "2")])],
    ),
    ("null value", "broker", [(BROKER, "{broker}", [("log.retention.ms", SET, None)])]),
    (
        "replication quota below 0",
        "broker",
        [(BROKER, "", [("follower.replication.throttled.rate", SET, "-5")])],
    ),
    (
        "replication quota",
        "broker",
        [(BROKER, "{broker}", [("leader.replication.throttled.rate", SET, "1000")])],
    ),
    ("topic: not a LONG", "broker", [(TOPIC, "{topic}", [("retention.ms", SET, "abc")])]),
    ("topic: below a minimum", "broker", [(TOPIC, "{topic}", [("segment.bytes", SET, "1")])]),
    ("topic: not an INT", "broker", [(TOPIC, "{topic}", [("max.message.bytes", SET, "99999999999")])]),
    ("topic: above a maximum", "broker", [(TOPIC, "{topic}", [("min.cleanable.dirty.ratio", SET, "5")])]),
    ("topic: not a boolean", "broker", [(TOPIC, "{topic}", [("preallocate", SET, "abc")])]),
    ("topic: boolean in capitals", "broker", [(TOPIC, "{topic}", [("preallocate", SET, "TRUE")])]),
    ("topic: spaces around a number", "broker", [(TOPIC, "{topic}", [("retention.ms", SET, " 5 ")])]),
    ("topic: not a choice", "broker", [(TOPIC, "{topic}", [("compression.type", SET, "abc")])]),
    (
        "topic: list item not a choice",
        "broker",
        [(TOPIC, "{topic}", [("cleanup.policy", SET, "delete,abc")])],
    ),
    ("topic: empty list", "broker", [(TOPIC, "{topic}", [("cleanup.policy", SET, "")])]),
    ("topic: unknown key", "broker", [(TOPIC, "{topic}", [("no.such.key", SET, "1")])]),
    ("topic: remote storage", "broker", [(TOPIC, "{topic}", [("remote.storage.enable", SET, "true")])]),
    (
        "topic: throttled replicas",
        "broker",
        [(TOPIC, "{topic}", [("leader.replication.throttled.replicas", SET, "abc")])],
    ),
    (
        "topic: every replica throttled",
        "broker",
        [(TOPIC, "{topic}", [("follower.replication.throttled.replicas", SET, "*")])],
    ),
    ("topic: gzip level", "broker", [(TOPIC, "{topic}", [("compression.gzip.level", SET, "10")])]),
    ("topic: zstd level", "broker", [(TOPIC, "{topic}", [("compression.zstd.level", SET, "99")])]),
    ("topic: append to a non-list", "broker", [(TOPIC, "{topic}", [("retention.ms", APPEND, "5")])]),
    ("topic: unknown", "broker", [(TOPIC, "kcli-fidelity-no-such-topic", [("retention.ms", SET, "5")])]),
    (
        "topic: duplicate keys",
        "broker",
        [(TOPIC, "{topic}", [("retention.ms", SET, "5"), ("retention.ms", SET, "6")])],
    ),
    ("topic: named twice", "broker", [(TOPIC, "{topic}", [("retention.ms", SET, "5")])] * 2),
    (
        "group: below the broker's bound",
        "broker",
        [(GROUP, "g", [("consumer.session.timeout.ms", SET, "1")])],
    ),
    ("group: below a minimum", "broker", [(GROUP, "g", [("consumer.session.timeout.ms", SET, "-5")])]),
    ("group: not an INT", "broker", [(GROUP, "g", [("consumer.session.timeout.ms", SET, "abc")])]),
    ("group: unknown key", "broker", [(GROUP, "g", [("no.such.key", SET, "1")])]),
    ("group: offset reset", "broker", [(GROUP, "g", [("share.auto.offset.reset", SET, "abc")])]),
    (
        "group: offset reset by duration",
        "broker",
        [(GROUP, "g", [("share.auto.offset.reset", SET, "by_duration:PT1H")])],
    ),
    ("group: standby replicas", "broker", [(GROUP, "g", [("streams.num.standby.replicas", SET, "5")])]),
    ("group: assignor", "broker", [(GROUP, "g", [("streams.assignor.name", SET, "x")])]),
    ("group: append to a non-list", "broker", [(GROUP, "g", [("consumer.session.timeout.ms", APPEND, "5")])]),
    ("group: in bounds", "broker", [(GROUP, "g", [("consumer.session.timeout.ms", SET, "50000")])]),
    ("metrics: unknown key", "broker", [(CLIENT_METRICS, "m", [("no.such.key", SET, "1")])]),
    ("metrics: interval", "broker", [(CLIENT_METRICS, "m", [("interval.ms", SET, "1")])]),
    ("metrics: not an INT", "broker", [(CLIENT_METRICS, "m", [("interval.ms", SET, "abc")])]),
    ("metrics: bad match", "broker", [(CLIENT_METRICS, "m", [("match", SET, "bad")])]),
    ("metrics: match", "broker", [(CLIENT_METRICS, "m", [("match", SET, "client_id=app-.*")])]),
    ("metrics: metrics", "broker", [(CLIENT_METRICS, "m", [("metrics", SET, "org.apache")])]),
    ("loggers of another node", "broker", [(LOGGER, "999", [("root", SET, "INFO")])]),
    (
        "controller: broker values unchecked",
        "controller",
        [(BROKER, "{broker}", [("log.retention.ms", SET, "abc")])],
    ),
    ("controller: read-only key", "controller", [(BROKER, "{broker}", [("num.partitions", SET, "3")])]),
    ("controller: unregistered node", "controller", [(BROKER, "999", [("log.retention.ms", SET, "1")])]),
    ("controller: not a broker id", "controller", [(BROKER, "x", [("log.retention.ms", SET, "1")])]),
    ("controller: its own id", "controller", [(BROKER, "{controller}", [("log.retention.ms", SET, "1")])]),
    ("controller: topic value", "controller", [(TOPIC, "{topic}", [("retention.ms", SET, "abc")])]),
    (
        "controller: unknown topic",
        "controller",
        [(TOPIC, "kcli-fidelity-no-such-topic", [("retention.ms", SET, "5")])],
    ),
    (
        "controller: duplicate keys",
        "controller",
        [(TOPIC, "{topic}", [("retention.ms", SET, "5"), ("retention.ms", SET, "6")])],
    ),
    ("controller: named twice", "controller", [(TOPIC, "{topic}", [("retention.ms", SET, "5")])] * 2),
    ("controller: group bound", "controller", [(GROUP, "g", [("consumer.session.timeout.ms", SET, "1")])]),
    ("controller: ELR", "controller", [(BROKER, "{broker}", [("min.insync.replicas", SET, "1")])]),
    ("controller: loggers of another node", "controller", [(LOGGER, "{broker}", [("root", SET, "INFO")])]),
]


def _answers(side: Side, via: str, resources: list[Resource]) -> list[tuple[int, str, int, str | None]]:
    names = {"broker": side.broker, "controller": side.controller, "topic": side.topic}
    listeners = side.listeners() if any("{listeners}" in str(ops) for _, _, ops in resources) else ""
    sent = [
        (
            kind,
            name.format(**names),
            [(k, op, None if v is None else v.replace("{listeners}", listeners)) for k, op, v in ops],
        )
        for kind, name, ops in resources
    ]
    first = sent[0]
    node = int(first[1]) if via == "broker" and first[0] in (BROKER, LOGGER) and first[1].isdigit() else None
    node = node if node in side.broker_ids else None
    endpoint = side.brokers if via == "broker" else side.controllers
    return sorted(calls.alter(endpoint, sent, node=node), key=lambda r: (r[0], r[1]))


@pytest.mark.parametrize(("via", "resources"), [c[1:] for c in ALTERED], ids=[c[0] for c in ALTERED])
def test_alterations_answered_as_kafka(sides: tuple[Side, Side], via: str, resources: list[Resource]) -> None:
    real, emulated = (_answers(side, via, resources) for side in sides)
    assert emulated == real


# ---- ApiVersions, features ---------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["broker", "controller"])
def test_api_versions_as_kafka_but_what_is_not_served(sides: tuple[Side, Side], kind: str) -> None:
    from kcli.sandbox.emulator.registry import NOT_SERVED, SHORT_OF_KAFKA, Listener

    real, emulated = (
        calls.api_versions(
            side.brokers if kind == "broker" else side.controllers,
            side.broker if kind == "broker" else side.controller,
        )
        for side in sides
    )
    omitted = NOT_SERVED[Listener.BROKER if kind == "broker" else Listener.CONTROLLER]
    assert set(emulated.apis) - set(real.apis) == set(), "the sandbox claims APIs Kafka does not serve there"
    assert set(real.apis) - set(emulated.apis) == set(omitted), "APIs left out are those NOT_SERVED names"
    ranges = {
        key: (real.apis[key], emulated.apis[key])
        for key in emulated.apis
        if real.apis[key] != emulated.apis[key]
    }
    short = SHORT_OF_KAFKA if kind == "broker" else {}
    assert ranges == {
        key: ((emulated.apis[key][0], highest), emulated.apis[key]) for key, (highest, _) in short.items()
    }, "ranges differ only where SHORT_OF_KAFKA says, by what it says"
    assert emulated.supported == real.supported
    assert emulated.finalized == real.finalized


def test_features_described_as_kafka(sides: tuple[Side, Side]) -> None:
    from tests.conftest import invoke

    outputs = []
    for side in sides:
        result = invoke("features", "describe", "--bootstrap-server", side.brokers.bootstrap)
        assert result.code == 0, result.stderr
        outputs.append([re.split(r"\s+Epoch:", line)[0] for line in result.lines])  # epochs are offsets
    assert outputs[1] == outputs[0]
    assert not any("UNKNOWN" in line for line in outputs[0])


# ---- the admin APIs a controller serves ------------------------------------------------------------------


def _controller_answers(side: Side) -> dict[str, Any]:
    from kio.static.primitive import f64, i8, i32

    from kcli.client.api.wire import nested, request_cls
    from kcli.client.errors import UnsupportedByServer

    def quotas(version: int) -> Any:
        cls = request_cls("alter_client_quotas", version)
        entry, entity, op = nested(cls, "EntryData"), nested(cls, "EntityData"), nested(cls, "OpData")
        return cls(
            entries=(
                entry(
                    entity=(entity(entity_type="client-id", entity_name="kcli-fidelity"),),
                    ops=(op(key="producer_byte_rate", value=f64(1024.0), remove=False),),
                ),
            ),
            validate_only=True,
        )

    def scram_named(version: int) -> Any:
        cls = request_cls("describe_user_scram_credentials", version)
        return cls(users=(nested(cls, "UserName")(name="kcli-fidelity"),))

    def scram_upsert(version: int) -> Any:
        cls = request_cls("alter_user_scram_credentials", version)
        upsertion = nested(cls, "ScramCredentialUpsertion")
        deletion = nested(cls, "ScramCredentialDeletion")
        return cls(
            deletions=(deletion(name="kcli-fidelity-nobody", mechanism=i8(1)),),
            upsertions=(
                upsertion(name="", mechanism=i8(1), iterations=i32(4096), salt=b"s", salted_password=b"p"),
            ),
        )

    out: dict[str, Any] = {}
    answer = calls.raw(side.controllers, 49, quotas, (0, 1), side.controller)
    out["AlterClientQuotas"] = [(int(e.error_code), e.error_message) for e in answer.entries]
    answer = calls.raw(side.controllers, 50, scram_named, (0, 0), side.controller)
    out["DescribeUserScramCredentials"] = (
        int(answer.error_code),
        [(r.user, int(r.error_code), r.error_message) for r in answer.results],
    )
    answer = calls.raw(side.controllers, 51, scram_upsert, (0, 0), side.controller)
    out["AlterUserScramCredentials"] = sorted(
        (r.user, int(r.error_code), r.error_message) for r in answer.results
    )
    try:
        calls.raw(side.controllers, 48, lambda v: None, (0, 1), side.controller)
        out["DescribeClientQuotas"] = "served"
    except UnsupportedByServer:
        out["DescribeClientQuotas"] = "not advertised"
    return out


def test_controller_admin_apis_answered_as_kafka(sides: tuple[Side, Side]) -> None:
    real, emulated = (_controller_answers(side) for side in sides)
    assert emulated == real


# (case, upsertions (user, mechanism, iterations), deletions (user, mechanism)): each refused, so nothing changes
SCRAM: list[tuple[str, list[tuple[str, int, int]], list[tuple[str, int]]]] = [
    ("too few iterations", [("kcli-fidelity-a", 1, 100)], []),
    ("too many iterations", [("kcli-fidelity-a", 1, 20000)], []),
    ("unknown mechanism", [("kcli-fidelity-a", 9, 4096)], []),
    ("unknown mechanism deleted", [], [("kcli-fidelity-a", 9)]),
    ("no user name", [("", 1, 4096)], [("", 1)]),
    ("missing credential deleted", [], [("kcli-fidelity-nobody", 1)]),
    ("upserted and deleted", [("kcli-fidelity-a", 1, 4096)], [("kcli-fidelity-a", 2)]),
    ("twice", [("kcli-fidelity-a", 1, 4096), ("kcli-fidelity-a", 1, 4096)], []),
]


@pytest.mark.parametrize(("upserts", "deletes"), [c[1:] for c in SCRAM], ids=[c[0] for c in SCRAM])
def test_scram_alterations_answered_as_kafka(
    sides: tuple[Side, Side], upserts: list[tuple[str, int, int]], deletes: list[tuple[str, int]]
) -> None:
    from kio.static.primitive import i8, i32

    from kcli.client.api.wire import nested, request_cls

    def build(version: int) -> Any:
        cls = request_cls("alter_user_scram_credentials", version)
        upsertion, deletion = nested(cls, "ScramCredentialUpsertion"), nested(cls, "ScramCredentialDeletion")
        return cls(
            deletions=tuple(deletion(name=n, mechanism=i8(m)) for n, m in deletes),
            upsertions=tuple(
                upsertion(name=n, mechanism=i8(m), iterations=i32(it), salt=b"s", salted_password=b"p" * 32)
                for n, m, it in upserts
            ),
        )

    real, emulated = (
        sorted(
            (r.user, int(r.error_code), r.error_message)
            for r in calls.raw(side.brokers, 51, build, (0, 0), side.broker).results
        )
        for side in sides
    )
    assert emulated == real
    assert all(code for _, code, _ in real), "a probe that changes the real cluster"


UPGRADE, SAFE_DOWNGRADE, UNSAFE_DOWNGRADE = 1, 2, 3
# (case, [(feature, level, upgrade type)]), sent validate-only to the active controller
FEATURE_UPDATES: list[tuple[str, list[tuple[str, int, int]]]] = [
    ("safe metadata downgrade across a change", [("metadata.version", 22, SAFE_DOWNGRADE)]),
    ("unsafe metadata downgrade", [("metadata.version", 22, UNSAFE_DOWNGRADE)]),
    ("metadata.version removed", [("metadata.version", 0, SAFE_DOWNGRADE)]),
    ("metadata.version downgraded as an upgrade", [("metadata.version", 20, UPGRADE)]),
    ("beyond the supported levels", [("share.version", 3, UPGRADE)]),
    ("unknown feature", [("kcli.no.such.version", 1, UPGRADE)]),
    ("negative level", [("group.version", -1, SAFE_DOWNGRADE)]),
    ("feature disabled", [("share.version", 0, SAFE_DOWNGRADE)]),
    ("kraft.version downgraded", [("kraft.version", 0, SAFE_DOWNGRADE)]),
    ("current levels", [("group.version", 1, UPGRADE), ("transaction.version", 2, UPGRADE)]),
]


@pytest.mark.parametrize("updates", [c[1] for c in FEATURE_UPDATES], ids=[c[0] for c in FEATURE_UPDATES])
def test_feature_updates_answered_as_kafka(
    sides: tuple[Side, Side], updates: list[tuple[str, int, int]]
) -> None:
    from datetime import timedelta

    from kio.static.primitive import i8, i16, i32Timedelta

    from kcli.client.api.wire import nested, request_cls

    def build(version: int) -> Any:
        cls = request_cls("update_features", version)
        key = nested(cls, "FeatureUpdateKey")
        return cls(
            timeout=i32Timedelta.parse(timedelta(seconds=15)),
            feature_updates=tuple(
                key(feature=f, max_version_level=i16(lv), upgrade_type=i8(t)) for f, lv, t in updates
            ),
            validate_only=True,
        )

    real, emulated = (
        (lambda r: (int(r.error_code), r.error_message))(
            calls.raw(side.controllers, 57, build, (1, 1), side.controller)
        )
        for side in sides
    )
    assert emulated == real


# (case, entity [(type, name)], ops [(key, value, remove)]), validate-only
QUOTAS: list[tuple[str, list[tuple[str, str | None]], list[tuple[str, float, bool]]]] = [
    ("a rate", [("client-id", "kcli-q")], [("producer_byte_rate", 1024.0, False)]),
    ("removing an unset key", [("client-id", "kcli-q")], [("producer_byte_rate", 0.0, True)]),
    ("unknown key", [("client-id", "kcli-q")], [("nope", 1.0, False)]),
    ("not above 0", [("user", "u")], [("consumer_byte_rate", 0.0, False)]),
    ("a fraction of an integral key", [("client-id", "kcli-q")], [("producer_byte_rate", 1.5, False)]),
    ("a fraction of a double key", [("client-id", "kcli-q")], [("controller_mutation_rate", 1.5, False)]),
    ("key given twice", [("client-id", "kcli-q")], [("producer_byte_rate", 1.0, False)] * 2),
    ("empty entity", [], [("producer_byte_rate", 1.0, False)]),
    ("unknown entity type", [("foo", "a")], [("producer_byte_rate", 1.0, False)]),
    ("empty name", [("user", "")], [("producer_byte_rate", 1.0, False)]),
    ("ip with a user", [("ip", "1.2.3.4"), ("user", "u")], [("connection_creation_rate", 1.0, False)]),
    ("ip with a client key", [("ip", "1.2.3.4")], [("producer_byte_rate", 1.0, False)]),
    ("not an ip", [("ip", "kcli.invalid")], [("connection_creation_rate", 1.0, False)]),
    ("default ip", [("ip", None)], [("connection_creation_rate", 10.0, False)]),
    ("default user and client", [("user", None), ("client-id", None)], [("request_percentage", 50.0, False)]),
]


@pytest.mark.parametrize("via", ["broker", "controller"])
@pytest.mark.parametrize(("entity", "ops"), [c[1:] for c in QUOTAS], ids=[c[0] for c in QUOTAS])
def test_quota_alterations_answered_as_kafka(
    sides: tuple[Side, Side],
    via: str,
    entity: list[tuple[str, str | None]],
    ops: list[tuple[str, float, bool]],
) -> None:
    from kio.static.primitive import f64

    from kcli.client.api.wire import nested, request_cls

    def build(version: int) -> Any:
        cls = request_cls("alter_client_quotas", version)
        entry, data, op = nested(cls, "EntryData"), nested(cls, "EntityData"), nested(cls, "OpData")
        return cls(
            entries=(
                entry(
                    entity=tuple(data(entity_type=t, entity_name=n) for t, n in entity),
                    ops=tuple(op(key=k, value=f64(v), remove=r) for k, v, r in ops),
                ),
            ),
            validate_only=True,
        )

    real, emulated = (
        [
            (int(e.error_code), e.error_message)
            for e in calls.raw(
                side.brokers if via == "broker" else side.controllers,
                49,
                build,
                (0, 1),
                side.broker if via == "broker" else side.controller,
            ).entries
        ]
        for side in sides
    )
    assert emulated == real


def test_list_operations_start_from_the_default(sides: tuple[Side, Side]) -> None:
    """APPEND to a topic key without a value of its own extends its default (Kafka's getParts), on the
    suite's own topic, then the key is deleted again."""
    described = []
    for side in sides:
        ops = [("cleanup.policy", APPEND, "compact")]
        (answer,) = calls.alter(side.brokers, [(TOPIC, side.topic, ops)], validate_only=False)
        assert answer[2:] == (0, None), side.name
        deadline = time.monotonic() + 30
        while (entry := calls.describe(side.brokers, TOPIC, side.topic).entries["cleanup.policy"])[
            "source"
        ] != 1:
            assert time.monotonic() < deadline, f"{side.name}: the change did not arrive"
            time.sleep(0.2)
        described.append(entry)
        calls.alter(
            side.brokers, [(TOPIC, side.topic, [("cleanup.policy", DELETE, None)])], validate_only=False
        )
    assert described[1] == described[0]
    assert described[0]["value"] == "delete,compact"
