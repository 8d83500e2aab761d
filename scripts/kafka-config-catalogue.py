#!/usr/bin/env python3
"""Kafka's config catalogue as kcli data, read from a running Apache Kafka cluster.

    python scripts/kafka-config-catalogue.py --bootstrap-server B --bootstrap-controller C \
        --kafka-version 4.4.0 [--check]

Writes kcli/data/config_catalogue.json: every config key of topics, brokers, groups and
client-metrics subscriptions with what the cluster itself reports or does, asked through kcli's
own client:
- DescribeConfigs with synonyms and documentation of a broker, a controller, a topic, a group and
  a client-metrics subscription: names, types, defaults (the DEFAULT_CONFIG synonym), sensitivity,
  documentation, and for topics and groups the broker keys they fall back to;
- IncrementalAlterConfigs with validateOnly, key by key: how a broker key may be updated
  (`cluster-wide`, `per-broker`, `listener` = only with a `listener.name.<l>.` prefix, per broker,
  or `read-only`), and the bounds and choices Kafka's validators state in their refusals (a value
  below/above any bound and a value no choice list holds are sent, and "Value must be at least N",
  "Value must be no more than N" and "String must be one of: ..." are read back);
- broker keys Kafka lists only once they are set (the replication quotas): each is set as a
  cluster default, described and deleted again;
- topic keys whose broker synonyms have no default (retention.ms -> log.retention.ms, ...): each
  null broker key is set as a cluster default, the topic described, and the key deleted again.

Only a scratch cluster will do: the script creates a topic of its own (deleted at the end) and sets
and deletes cluster-default broker configs. One broker and one controller, separate nodes, started
from a Kafka distribution (scripts/kafka-dist.sh) with nothing but the settings a node needs.

One fact a running node cannot show is written here: the broker keys that are one setting in several
units (DynamicBrokerConfig.brokerConfigSynonyms). A node lists the members of such a set only when
they have a value, and the coarser units cannot be set dynamically; what it does show is checked
against this table.

`--check` writes nothing and exits 1 when the file on disk differs from what the cluster gives.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import sys
import uuid
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kcli.client.admin import Admin, Target  # noqa: E402
from kcli.client.api.configs import (  # noqa: E402
    describe_configs,
    incremental_alter_configs,
    make,
    nested,
    request_cls,
)
from kcli.client.config import config_from_properties  # noqa: E402
from kcli.kafka import ApiKey, ConfigOp, ConfigSource, ConfigType  # noqa: E402
from kcli.ops.config_model import ConfigEntry  # noqa: E402
from kcli.ops.config_spec import ConfigChange, ConfigChanges, Entity, EntityType  # noqa: E402

OUTPUT = ROOT / "kcli" / "data" / "config_catalogue.json"
SCRIPT = "scripts/kafka-config-catalogue.py"
PROBE_NAME = "kcli-catalogue-probe"

# Broker keys that are one setting in several units, most specific first (see the module docstring).
# log.flush.scheduler.interval.ms is log.flush.interval.ms's fallback, not a unit of it: it has no set.
UNIT_SETS: tuple[tuple[str, ...], ...] = (
    ("log.retention.ms", "log.retention.minutes", "log.retention.hours"),
    ("log.roll.ms", "log.roll.hours"),
    ("log.roll.jitter.ms", "log.roll.jitter.hours"),
    ("log.flush.interval.ms", "log.flush.scheduler.interval.ms"),
)

# Broker keys Kafka accepts dynamically but lists only once set (DynamicConfig.Broker's own keys, the
# replication quotas): their names are given here, everything else about them is read from the node.
UNLISTED_BROKER_KEYS = (
    "leader.replication.throttled.rate",
    "follower.replication.throttled.rate",
    "replica.alter.log.dirs.io.max.bytes.per.second",
)

# Kafka's refusals that name an update mode (DynamicBrokerConfig.validateConfigs), in its order.
READ_ONLY = "Cannot update these configs dynamically"
LISTENER_ONLY = (
    "These security configs can be dynamically updated only per-listener using the listener prefix"
)
PER_BROKER = "Cannot update these configs at default cluster level, broker id must be specified"

# Values outside any bound of a type, and one no choice list holds.
LOW = {
    ConfigType.SHORT: str(-(2**15)),
    ConfigType.INT: str(-(2**31)),
    ConfigType.LONG: str(-(2**63)),
    ConfigType.DOUBLE: "-1.0E300",
}
HIGH = {
    ConfigType.SHORT: str(2**15 - 1),
    ConfigType.INT: str(2**31 - 1),
    ConfigType.LONG: str(2**63 - 1),
    ConfigType.DOUBLE: "1.0E300",
}
NO_CHOICE = "kcli-no-such-choice"
# A value of each type every plain validator accepts, for keys whose own value is null.
SAMPLE = {
    ConfigType.BOOLEAN: "false",
    ConfigType.STRING: "kcli",
    ConfigType.INT: "1",
    ConfigType.SHORT: "1",
    ConfigType.LONG: "1",
    ConfigType.DOUBLE: "0.5",
    ConfigType.LIST: "",
    ConfigType.CLASS: "java.lang.Object",
    ConfigType.PASSWORD: "kcli",
}

MINIMUM = re.compile(r": Value must be at least (\S+)$")
MAXIMUM = re.compile(r": Value must be no more than (\S+)$")
CHOICES = re.compile(r": String must be one of: (.*)$")


def log(message: str) -> None:
    print(f"{SCRIPT}: {message}", file=sys.stderr)


class Probe:
    """The cluster asked: one admin client through the brokers, one through the controllers."""

    def __init__(self, brokers: Admin, controllers: Admin) -> None:
        self.brokers = brokers
        self.controllers = controllers
        self.broker_id = min(brokers.nodes)
        self.controller_id = min(controllers.nodes)
        self.unparsed: list[str] = []

    async def describe(self, admin: Admin, entity: Entity) -> dict[str, ConfigEntry]:
        (result,) = await describe_configs(admin, [entity], include_synonyms=True, include_documentation=True)
        if result.error is not None:
            raise SystemExit(f"{SCRIPT}: describing {entity.label} failed: {result.error.message}")
        return {entry.name: entry for entry in result.entries}

    async def alter(
        self, entity: Entity, key: str, value: str | None, *, commit: bool = False
    ) -> tuple[int, str]:
        """(error code, message) of one SET (DELETE when value is None) of one key, validate-only unless commit."""
        op = ConfigOp.DELETE if value is None else ConfigOp.SET
        changes = ConfigChanges(changes=(ConfigChange(key=key, op=op, value=value),))
        (error,) = await incremental_alter_configs(
            self.brokers, [(entity, changes)], validate_only=not commit
        )
        return (0, "") if error is None else (error.code, error.message)

    async def set_default(self, key: str, value: str | None) -> tuple[int, str]:
        """Set (None: delete) a cluster default and wait until the broker applied it from the metadata log."""
        code, message = await self.alter(self.cluster(), key, value, commit=True)
        if code:
            return code, message
        for _ in range(100):
            entry = (await self.describe(self.brokers, self.broker())).get(key)
            held = entry is not None and any(
                s.source is ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG for s in entry.synonyms
            )
            if held == (value is not None):
                return 0, ""
            await asyncio.sleep(0.1)
        raise SystemExit(f"{SCRIPT}: the broker did not apply the cluster default {key}={value} within 10 s")

    # ---- brokers ----------------------------------------------------------------------------------

    def broker(self) -> Entity:
        return Entity(type=EntityType.BROKERS, name=str(self.broker_id))

    @staticmethod
    def cluster() -> Entity:
        return Entity(type=EntityType.BROKERS, default=True)

    async def update_mode(self, entry: ConfigEntry, listener: str) -> str:
        """How Kafka lets this broker key be updated dynamically."""
        code, message = await self.alter(self.broker(), entry.name, sample(entry))
        if message.startswith(READ_ONLY):
            return "read-only"
        if message.startswith(LISTENER_ONLY):
            prefixed = f"listener.name.{listener}.{entry.name}"
            code, message = await self.alter(self.broker(), prefixed, sample(entry))
            if code:
                raise SystemExit(f"{SCRIPT}: {prefixed} refused per broker: {message}")
            return "listener"
        cluster_code, cluster_message = await self.alter(self.cluster(), entry.name, sample(entry))
        if cluster_message.startswith(PER_BROKER) and not code:
            return "per-broker"
        if cluster_code:
            raise SystemExit(
                f"{SCRIPT}: no valid sample value for {entry.name}: {message or cluster_message}"
            )
        if code:  # a rule of its own for this key per broker (the sandbox's own check covers it)
            self.unparsed.append(f"{self.broker().label} {entry.name}={sample(entry)}: {message}")
        return "cluster-wide"

    async def bounds(
        self, entity: Entity, key: str, config_type: ConfigType, prefix: str = ""
    ) -> dict[str, Any]:
        """The minimum, maximum and choices Kafka's refusals of out-of-range values state."""
        found: dict[str, Any] = {}
        values = [v for v in (LOW.get(config_type), HIGH.get(config_type)) if v is not None]
        if config_type in (ConfigType.STRING, ConfigType.LIST):
            values.append(NO_CHOICE)
        for value in values:
            code, message = await self.alter(entity, prefix + key, value)
            if not code:
                continue
            if "Dynamic thread count update validation failed" in message:
                found["thread_pool"] = True  # bounded by the current value, not by a constant
            elif m := MINIMUM.search(message):
                found["minimum"] = m.group(1)
            elif m := MAXIMUM.search(message):
                found["maximum"] = m.group(1)
            elif m := CHOICES.search(message):
                found["choices"] = m.group(1).split(", ")
            else:
                self.unparsed.append(f"{entity.label} {key}={value}: {message}")
        return found

    # ---- topic synonyms -----------------------------------------------------------------------------

    async def hidden_synonyms(
        self, topic: Entity, topics: dict[str, ConfigEntry], brokers: dict[str, Any]
    ) -> dict[str, list[str]]:
        """Topic key -> the broker synonyms a topic lists once a null broker key has a cluster default."""
        out: dict[str, list[str]] = {}
        candidates = [
            name
            for name, fact in brokers.items()
            if fact["default"] is None
            and fact["update"] == "cluster-wide"
            and not fact.get("sensitive")
            and not fact.get("unlisted")
        ]
        for key in candidates:
            fact = brokers[key]
            code, message = await self.set_default(key, SAMPLE[ConfigType[fact["type"]]])
            if code:
                log(f"could not set {key} as a cluster default ({message}); its topic synonym stays unknown")
                continue
            try:
                described = await self.describe(self.brokers, topic)
                for name, entry in described.items():
                    listed = [
                        s.name for s in entry.synonyms if s.source is not ConfigSource.DYNAMIC_TOPIC_CONFIG
                    ]
                    if key in listed and not topics[name].synonyms:
                        out[name] = listed
            finally:
                await self.set_default(key, None)
        return out


def sample(entry: ConfigEntry) -> str:
    """A value Kafka accepts for this key: its own, else one that fits its type."""
    if entry.value is not None and not entry.sensitive:
        return entry.value
    return SAMPLE[ConfigType(entry.config_type)]


def default_of(entry: ConfigEntry) -> str | None:
    """The default a describe shows: the DEFAULT_CONFIG synonym, or the value when that is its source."""
    for synonym in entry.synonyms:
        if synonym.source is ConfigSource.DEFAULT_CONFIG and synonym.name == entry.name:
            return synonym.value
    return entry.value if entry.source is ConfigSource.DEFAULT_CONFIG else None


def base_fact(entry: ConfigEntry) -> dict[str, Any]:
    fact: dict[str, Any] = {"type": ConfigType(entry.config_type).name, "default": default_of(entry)}
    if entry.sensitive:
        fact["sensitive"] = True
    fact["doc"] = entry.documentation or ""
    return fact


def unit_set(name: str) -> tuple[str, ...]:
    for members in UNIT_SETS:
        if name in members and name != "log.flush.scheduler.interval.ms":
            return members
    return ()


def full_chain(listed: Sequence[str]) -> list[str]:
    """A topic key's broker synonyms: what the node listed, each unit set completed from UNIT_SETS."""
    out: list[str] = []
    for name in listed:
        members = unit_set(name)
        if members:
            order = [m for m in listed if m in members]
            if order != [m for m in members if m in order]:
                raise SystemExit(
                    f"{SCRIPT}: the node lists {order}, UNIT_SETS says {members}: update UNIT_SETS"
                )
            out += [m for m in members if m not in out]
        elif name not in out:
            out.append(name)
    return out


def differences(broker: dict[str, ConfigEntry], controller: dict[str, ConfigEntry]) -> list[str]:
    """Where a controller's view of the broker keys differs from a broker's (besides node values)."""
    out = sorted(set(broker) ^ set(controller))
    for name in sorted(set(broker) & set(controller)):
        a, b = broker[name], controller[name]
        if (a.config_type, a.sensitive, a.read_only, a.documentation, default_of(a)) != (
            b.config_type,
            b.sensitive,
            b.read_only,
            b.documentation,
            default_of(b),
        ):
            out.append(name)
    return out


async def create_topic(admin: Admin, name: str) -> None:
    from datetime import timedelta

    from kio.static.primitive import i16, i32

    def build(version: int) -> Any:
        cls = request_cls("create_topics", version)
        topic = nested(cls, "CreatableTopic")
        return make(
            cls,
            topics=(
                make(
                    topic,
                    name=name,
                    num_partitions=i32(1),
                    replication_factor=i16(1),
                    assignments=(),
                    configs=(),
                ),
            ),
            timeout=timedelta(seconds=30),
            validate_only=False,
        )

    response = await admin.call(ApiKey.CREATE_TOPICS, build, versions=(2, 7), target=Target.CONTROLLER)
    code = int(response.topics[0].error_code)
    if code:
        raise SystemExit(f"{SCRIPT}: creating topic {name} failed: {response.topics[0].error_message}")


async def delete_topic(admin: Admin, name: str) -> None:
    from datetime import timedelta

    def build(version: int) -> Any:
        cls = request_cls("delete_topics", version)
        if version >= 6:
            state = nested(cls, "DeleteTopicState")
            return make(cls, topics=(make(state, name=name, topic_id=None),), timeout=timedelta(seconds=30))
        return make(cls, topic_names=(name,), timeout=timedelta(seconds=30))

    await admin.call(ApiKey.DELETE_TOPICS, build, versions=(1, 6), target=Target.CONTROLLER)


async def collect(bootstrap_server: str, bootstrap_controller: str, kafka_version: str) -> dict[str, Any]:
    async with (
        Admin(config_from_properties({"bootstrap.servers": bootstrap_server}, warn=log)) as brokers,
        Admin(
            config_from_properties({"bootstrap.controllers": bootstrap_controller}, warn=log)
        ) as controllers,
    ):
        probe = Probe(brokers, controllers)
        topic_name = f"kcli-catalogue-{uuid.uuid4().hex[:8]}"
        await create_topic(brokers, topic_name)
        try:
            return await _collect(probe, Entity(type=EntityType.TOPICS, name=topic_name), kafka_version)
        finally:
            await delete_topic(brokers, topic_name)


async def _collect(probe: Probe, topic: Entity, kafka_version: str) -> dict[str, Any]:
    broker = await probe.describe(probe.brokers, probe.broker())
    controller = await probe.describe(
        probe.controllers, Entity(type=EntityType.BROKERS, name=str(probe.controller_id))
    )
    if differing := differences(broker, controller):
        raise SystemExit(f"{SCRIPT}: a controller and a broker describe these keys differently: {differing}")
    listeners = broker["listeners"].value or ""
    listener = listeners.split("://", 1)[0].lower()

    brokers: dict[str, Any] = {}
    for name in sorted(broker):
        entry = broker[name]
        fact = base_fact(entry)
        fact["update"] = await probe.update_mode(entry, listener)
        if members := unit_set(name):
            fact["synonyms"] = list(members)
        kind = ConfigType(entry.config_type)
        if fact["update"] in ("cluster-wide", "per-broker"):
            fact.update(await probe.bounds(probe.broker(), name, kind))
        elif fact["update"] == "listener":
            fact.update(await probe.bounds(probe.broker(), name, kind, prefix=f"listener.name.{listener}."))
        brokers[name] = fact
        if entry.read_only != (fact["update"] == "read-only"):
            raise SystemExit(
                f"{SCRIPT}: {name} is read_only={entry.read_only} but its update mode is {fact['update']}"
            )

    for name in UNLISTED_BROKER_KEYS:
        code, message = await probe.set_default(name, "1")
        if code:
            raise SystemExit(f"{SCRIPT}: {name} refused as a cluster default: {message}")
        try:
            entry = (await probe.describe(probe.brokers, probe.broker()))[name]
            fact = base_fact(entry)
            fact["unlisted"] = True
            fact["update"] = await probe.update_mode(entry, listener)
            fact.update(await probe.bounds(probe.broker(), name, ConfigType(entry.config_type)))
            brokers[name] = fact
        finally:
            await probe.set_default(name, None)
    brokers = dict(sorted(brokers.items()))

    described_topic = await probe.describe(probe.brokers, topic)
    hidden = await probe.hidden_synonyms(topic, described_topic, brokers)
    topics: dict[str, Any] = {}
    for name in sorted(described_topic):
        entry = described_topic[name]
        fact = base_fact(entry)
        fact["default"] = entry.value if entry.source is ConfigSource.DEFAULT_CONFIG else default_of(entry)
        listed = [s.name for s in entry.synonyms] or hidden.get(name, [])
        if chain := full_chain(listed):
            fact["synonyms"] = chain
        fact.update(await probe.bounds(topic, name, ConfigType(entry.config_type)))
        topics[name] = fact

    group = Entity(type=EntityType.GROUPS, name=PROBE_NAME)
    groups: dict[str, Any] = {}
    for name, entry in sorted((await probe.describe(probe.brokers, group)).items()):
        fact = base_fact(entry)
        if entry.synonyms:
            fact["synonyms"] = [s.name for s in entry.synonyms]
        fact.update(await probe.bounds(group, name, ConfigType(entry.config_type)))
        groups[name] = fact

    subscription = Entity(type=EntityType.CLIENT_METRICS, name=PROBE_NAME)
    metrics: dict[str, Any] = {}
    for name, entry in sorted((await probe.describe(probe.brokers, subscription)).items()):
        fact = base_fact(entry)
        fact.update(await probe.bounds(subscription, name, ConfigType(entry.config_type)))
        metrics[name] = fact

    for line in probe.unparsed:
        log(f"refusal not read as a bound (the sandbox's own check covers it): {line}")
    return {
        "_about": (
            f"Config keys per entity type as Apache Kafka {kafka_version} reports them (names, types, defaults, "
            "sensitivity, documentation, broker synonyms, update modes, bounds and choices). Written by "
            f"{SCRIPT} from a running cluster; do not edit. Read by shell completion and by the sandbox."
        ),
        "_kafka_version": kafka_version,
        "topics": topics,
        "brokers": brokers,
        "groups": groups,
        "client-metrics": metrics,
    }


def render(catalogue: dict[str, Any]) -> str:
    return json.dumps(catalogue, indent=1, ensure_ascii=False) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bootstrap-server", required=True, help="the scratch cluster's broker")
    parser.add_argument("--bootstrap-controller", required=True, help="the scratch cluster's controller")
    parser.add_argument(
        "--kafka-version", required=True, help="the Kafka release the cluster runs, e.g. 4.4.0"
    )
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if the file differs")
    args = parser.parse_args(argv)
    text = render(asyncio.run(collect(args.bootstrap_server, args.bootstrap_controller, args.kafka_version)))
    if args.check:
        if OUTPUT.read_text(encoding="utf-8") != text:
            log(f"{OUTPUT.relative_to(ROOT)} differs from what the cluster reports")
            return 1
        return 0
    OUTPUT.write_text(text, encoding="utf-8")
    log(f"wrote {OUTPUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
