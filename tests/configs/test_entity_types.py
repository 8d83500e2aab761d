"""Entity types are one table (kcli.ops.config_spec.ENTITY_TYPES) and config keys one catalogue
(kcli/data/config_catalogue.json), which completion and the sandbox both read."""

from __future__ import annotations

import json
from importlib import resources

import pytest

from kcli.cli.completers import config_keys
from kcli.kafka import ConfigResourceType, ConfigSource
from kcli.ops.config_catalogue import catalogue, configs_of
from kcli.ops.config_spec import (
    DEFAULTABLE_TYPES,
    DYNAMIC_SOURCE,
    ENTITY_TYPES,
    QUOTA_ENTITY_KEY,
    QUOTA_TYPES,
    EntityType,
    entity_type_of_resource,
)
from kcli.sandbox.emulator.configdefs import definitions


def test_every_entity_type_has_exactly_one_row() -> None:
    assert set(ENTITY_TYPES) == set(EntityType)
    codes = [spec.resource_type for spec in ENTITY_TYPES.values() if spec.resource_type is not None]
    assert len(codes) == len(set(codes))


def test_each_type_is_either_a_config_resource_or_a_quota_entity() -> None:
    for kind, spec in ENTITY_TYPES.items():
        assert (spec.resource_type is None) == (spec.quota_key is not None), kind


def test_the_derived_tables_are_kafkas() -> None:
    assert {EntityType.USERS, EntityType.CLIENTS, EntityType.IPS} == QUOTA_TYPES
    assert {EntityType.USERS, EntityType.CLIENTS, EntityType.BROKERS, EntityType.IPS} == DEFAULTABLE_TYPES
    assert QUOTA_ENTITY_KEY == {
        EntityType.USERS: "user",
        EntityType.CLIENTS: "client-id",
        EntityType.IPS: "ip",
    }
    assert DYNAMIC_SOURCE[EntityType.GROUPS] is ConfigSource.DYNAMIC_GROUP_CONFIG
    assert EntityType.BROKER_LOGGERS not in DYNAMIC_SOURCE
    assert EntityType.TOPICS.resource_type is ConfigResourceType.TOPIC
    with pytest.raises(KeyError):
        _ = EntityType.USERS.resource_type


def test_the_catalogue_sections_are_config_resource_types() -> None:
    raw = json.loads(resources.files("kcli").joinpath("data", "config_catalogue.json").read_text("utf-8"))
    sections = {name for name in raw if not name.startswith("_")}
    assert sections == set(catalogue())
    for section in sections:
        assert EntityType(section).spec.resource_type is not None


@pytest.mark.parametrize("section", ["topics", "brokers", "groups", "client-metrics"])
def test_every_default_passes_its_own_rules(section: str) -> None:
    definitions_ = configs_of(section)
    assert definitions_
    bad = {
        name: d.validate(d.default)
        for name, d in definitions_.items()
        if d.default is not None and d.validate(d.default) is not None
    }
    assert bad == {}


@pytest.mark.parametrize(
    "kind", [EntityType.TOPICS, EntityType.BROKERS, EntityType.GROUPS, EntityType.CLIENT_METRICS]
)
def test_completion_and_the_sandbox_read_the_same_keys(kind: EntityType) -> None:
    assert entity_type_of_resource(kind.resource_type) is kind
    assert config_keys(kind.value) == tuple(sorted(definitions(kind.resource_type)))


def test_a_resource_type_without_a_catalogue_has_no_keys() -> None:
    assert definitions(ConfigResourceType.BROKER_LOGGER) == {}
    assert entity_type_of_resource(ConfigResourceType.UNKNOWN) is None
