"""Reading the config catalogue (kcli/data/config_catalogue.json, written from a running Kafka by
scripts/kafka-config-catalogue.py): entries into ConfigDefs, Kafka's validation messages, the file's shape."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kcli.kafka import ConfigType
from kcli.ops.config_catalogue import ConfigDef, UpdateMode, catalogue, configs_of, definition

DATA = Path(__file__).resolve().parents[2] / "kcli" / "data" / "config_catalogue.json"


def _def(kind: ConfigType, **extra: object) -> ConfigDef:
    return ConfigDef(name="k", type=kind, default=None, doc="", **extra)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("config", "value", "message"),
    [
        (_def(ConfigType.BOOLEAN), "TRUE", None),
        (
            _def(ConfigType.BOOLEAN),
            "yes",
            "Invalid value yes for configuration k: Expected value to be either true or false",
        ),
        (_def(ConfigType.LONG), " 5 ", None),
        (_def(ConfigType.LONG), "1.5", "Invalid value 1.5 for configuration k: Not a number of type LONG"),
        (
            _def(ConfigType.INT),
            "99999999999",
            "Invalid value 99999999999 for configuration k: Not a number of type INT",
        ),
        (
            _def(ConfigType.SHORT),
            "32768",
            "Invalid value 32768 for configuration k: Not a number of type SHORT",
        ),
        (_def(ConfigType.INT), "1_000", "Invalid value 1_000 for configuration k: Not a number of type INT"),
        (
            _def(ConfigType.INT, minimum="1048576"),
            "1",
            "Invalid value 1 for configuration k: Value must be at least 1048576",
        ),
        (
            _def(ConfigType.INT, maximum="22"),
            "99",
            "Invalid value 99 for configuration k: Value must be no more than 22",
        ),
        # a DOUBLE is shown as Java prints the parsed value; the bound as Kafka's message states it
        (
            _def(ConfigType.DOUBLE, maximum="1"),
            "5",
            "Invalid value 5.0 for configuration k: Value must be no more than 1",
        ),
        (_def(ConfigType.DOUBLE), "x", "Invalid value x for configuration k: Not a number of type DOUBLE"),
        (
            _def(ConfigType.STRING, choices=("a", "b")),
            "c",
            "Invalid value c for configuration k: String must be one of: a, b",
        ),
        (
            _def(ConfigType.LIST, choices=("compact", "delete")),
            "delete, abc",
            "Invalid value abc for configuration k: String must be one of: compact, delete",
        ),
        (_def(ConfigType.LIST, choices=("compact", "delete")), "", None),
        (_def(ConfigType.LIST, choices=("compact", "delete")), "delete,delete", None),
    ],
)
def test_values_are_checked_with_kafkas_words(config: ConfigDef, value: str, message: str | None) -> None:
    assert config.validate(value) == message


def test_an_entry_becomes_a_definition() -> None:
    made = definition(
        "num.io.threads",
        {
            "type": "INT",
            "default": "8",
            "doc": "d",
            "update": "cluster-wide",
            "minimum": "1",
            "thread_pool": True,
        },
    )
    assert made == ConfigDef(
        name="num.io.threads",
        type=ConfigType.INT,
        default="8",
        doc="d",
        minimum="1",
        update=UpdateMode.CLUSTER_WIDE,
        thread_pool=True,
    )
    assert not made.read_only
    secret = definition("ssl.key.password", {"type": "PASSWORD", "default": None, "update": "listener"})
    assert (
        secret.secret and not secret.sensitive and secret.update is UpdateMode.LISTENER and secret.doc == ""
    )
    assert definition("node.id", {"type": "INT", "default": None, "update": "read-only"}).read_only
    quota = definition(
        "leader.replication.throttled.rate", {"type": "LONG", "unlisted": True, "update": "cluster-wide"}
    )
    assert quota.unlisted
    with pytest.raises(ValueError):
        definition("x", {"type": "LIST", "choices": "a,b"})
    with pytest.raises(ValueError):
        definition("x", {"type": "INT", "update": "sometimes"})
    with pytest.raises(KeyError):
        definition("x", {"default": "1"})


def test_the_file_is_what_the_script_writes() -> None:
    text = DATA.read_text(encoding="utf-8")
    raw = json.loads(text)
    assert json.dumps(raw, indent=1, ensure_ascii=False) + "\n" == text
    assert "scripts/kafka-config-catalogue.py" in raw["_about"] and raw["_kafka_version"]
    for section in ("topics", "brokers", "groups", "client-metrics"):
        assert list(raw[section]) == sorted(raw[section]), f"{section} in name order"
        assert catalogue()[section].keys() == raw[section].keys()


def test_the_catalogue_holds_kafkas_facts_together() -> None:
    brokers, topics = configs_of("brokers"), configs_of("topics")
    for name, config in topics.items():
        assert set(config.synonyms) <= set(brokers), f"{name}'s broker synonyms are broker keys"
        assert config.update is UpdateMode.NONE
    for name, config in brokers.items():
        assert config.update is not UpdateMode.NONE, name
        if config.update is UpdateMode.LISTENER:
            assert name.startswith("ssl."), f"only SSL keys are per listener in Kafka 4.4: {name}"
        if config.synonyms:  # a setting in several units: each unit lists the same set
            assert name in config.synonyms
            assert all(brokers[m].synonyms == config.synonyms for m in config.synonyms if brokers[m].synonyms)
    # facts of issue 25, as read from Kafka 4.4.0
    assert {n for n, c in brokers.items() if c.type is ConfigType.LIST} >= {
        "listeners",
        "advertised.listeners",
        "log.dirs",
        "controller.listener.names",
    }
    assert brokers["num.partitions"].read_only
    assert brokers["listeners"].update is UpdateMode.PER_BROKER
    assert brokers["sasl.jaas.config"].update is UpdateMode.PER_BROKER
    assert brokers["ssl.keystore.location"].update is UpdateMode.LISTENER
    assert "super.users" not in brokers  # Kafka does not define it: a node reports it as an unknown key
    assert {
        "compression.gzip.level",
        "remote.log.copy.disable",
        "errors.deadletterqueue.group.enable",
    } <= set(topics)
