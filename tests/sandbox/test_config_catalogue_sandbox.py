"""The sandbox's config answers follow the catalogue (kcli/data/config_catalogue.json) key by key:
what it describes, with which type, default, documentation and flags, and which updates it takes."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from kcli.kafka import ConfigSource, ConfigType
from kcli.ops.config_catalogue import ConfigDef, UpdateMode, configs_of
from tests.fidelity import calls

pytestmark = pytest.mark.sandbox

TOPIC, BROKER, CLIENT_METRICS, GROUP = 2, 4, 16, 32
SET = 0
BROKERS, TOPICS = configs_of("brokers"), configs_of("topics")
SAMPLE = {
    ConfigType.STRING: "kcli",
    ConfigType.LIST: "",
    ConfigType.PASSWORD: "kcli",
    ConfigType.CLASS: "x.Y",
}


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    from kcli.sandbox.emulator.handle import Sandbox

    with Sandbox(directory=tmp_path_factory.mktemp("catalogue"), controllers=1, brokers=1, topics=1) as sb:
        yield sb


def _brokers(sb: Any) -> calls.Endpoint:
    return calls.Endpoint(sb.bootstrap_servers)


def _sample(config: ConfigDef) -> str:
    return config.default if config.default is not None else SAMPLE.get(config.type, "1")


def _check_entry(config: ConfigDef, entry: dict[str, Any]) -> None:
    assert entry["type"] == int(config.type), config.name
    assert entry["documentation"] == (None if config.unlisted else config.doc), config.name
    assert entry["sensitive"] == config.secret, config.name


def test_a_broker_describes_every_listed_key_as_the_catalogue_says(small: Any) -> None:
    described = calls.describe(_brokers(small), BROKER, "1", 1)
    assert described.code == 0
    static = small.run(lambda c: c.broker_config(1))
    listed = {name for name, config in BROKERS.items() if not config.unlisted}
    assert listed <= set(described.entries)
    assert set(described.entries) - listed <= set(static), "the rest are the node's own static keys"
    for name in listed:
        entry, config = described.entries[name], BROKERS[name]
        _check_entry(config, entry)
        assert entry["read_only"] == config.read_only, name
        if name not in static and entry["source"] == ConfigSource.DEFAULT_CONFIG:
            assert entry["value"] == (None if config.secret else config.default), name
    # a key Kafka does not define is an unknown, sensitive, read-only one (super.users on a real node)
    unknown = {n: e for n, e in described.entries.items() if n not in BROKERS}
    assert all(
        e["type"] == 0 and e["sensitive"] and e["read_only"] and e["value"] is None for e in unknown.values()
    )


def test_a_topic_describes_every_key_as_the_catalogue_says(small: Any) -> None:
    described = calls.describe(_brokers(small), TOPIC, "sandbox-topic-00000")
    assert set(described.entries) == set(TOPICS)
    for name, config in TOPICS.items():
        entry = described.entries[name]
        _check_entry(config, entry)
        assert (entry["value"], entry["read_only"]) == (config.default, False), name
        assert {s[0] for s in entry["synonyms"]} <= set(config.synonyms), name


@pytest.mark.parametrize(
    ("resource_type", "section"), [(GROUP, "groups"), (CLIENT_METRICS, "client-metrics")]
)
def test_groups_and_subscriptions_list_every_key(small: Any, resource_type: int, section: str) -> None:
    described = calls.describe(_brokers(small), resource_type, "kcli-catalogue")
    assert set(described.entries) == set(configs_of(section))
    for name, config in configs_of(section).items():
        entry = described.entries[name]
        _check_entry(config, entry)
        assert (entry["value"], entry["source"]) == (config.default, ConfigSource.DEFAULT_CONFIG), name


def _answer(sb: Any, name: str, key: str, value: str) -> tuple[int, str | None]:
    node = 1 if name else None
    (result,) = calls.alter(_brokers(sb), [(BROKER, name, [(key, SET, value)])], node=node)
    return result[2], result[3]


@pytest.mark.parametrize("mode", list(UpdateMode)[:4])
def test_every_broker_key_takes_the_updates_its_mode_allows(small: Any, mode: UpdateMode) -> None:
    for name, config in BROKERS.items():
        if config.update is not mode or name == "min.insync.replicas":  # ELR refuses it per broker
            continue
        per_broker, cluster = (
            _answer(small, "1", name, _sample(config)),
            _answer(small, "", name, _sample(config)),
        )
        if mode is UpdateMode.READ_ONLY:
            refused = (42, f"Cannot update these configs dynamically: [{name}]")
            assert (per_broker, cluster) == (refused, refused), name
        elif mode is UpdateMode.LISTENER:
            refused = (
                42,
                f"These security configs can be dynamically updated only per-listener using the listener prefix: [{name}]",
            )
            assert (per_broker, cluster) == (refused, refused), name
            prefixed = f"listener.name.plaintext.{name}"
            assert _answer(small, "1", prefixed, _sample(config)) == (0, None), name
            assert _answer(small, "", prefixed, _sample(config))[1] == (
                f"Cannot update these configs at default cluster level, broker id must be specified: [{prefixed}]"
            )
        elif mode is UpdateMode.PER_BROKER:
            assert per_broker == (0, None), name
            assert cluster == (
                42,
                f"Cannot update these configs at default cluster level, broker id must be specified: [{name}]",
            )
        else:
            assert (per_broker, cluster) == ((0, None), (0, None)), name


def test_the_catalogues_bounds_are_enforced(small: Any) -> None:
    checked = 0
    for name, config in BROKERS.items():
        if config.minimum is None or config.read_only or config.update is UpdateMode.LISTENER:
            continue
        below = str(int(float(config.minimum)) - 1)
        code, message = _answer(small, "1", name, below)
        shown = f"{float(below)}" if config.type is ConfigType.DOUBLE else below
        assert (code, message) == (
            42,
            f"Invalid value {shown} for configuration {name}: Value must be at least {config.minimum}",
        )
        checked += 1
    assert checked > 40


def test_custom_broker_keys_are_kept_and_described_as_kafka_does(small: Any) -> None:
    (result,) = calls.alter(
        _brokers(small), [(BROKER, "1", [("kcli.custom.setting", SET, "v")])], node=1, validate_only=False
    )
    assert result[2:] == (0, None)
    entry = calls.describe(_brokers(small), BROKER, "1", 1).entries["kcli.custom.setting"]
    assert entry == {
        "value": None,
        "source": ConfigSource.DYNAMIC_BROKER_CONFIG,
        "read_only": True,
        "sensitive": True,
        "type": 0,
        "documentation": None,
        "synonyms": [("kcli.custom.setting", None, ConfigSource.DYNAMIC_BROKER_CONFIG)],
    }
