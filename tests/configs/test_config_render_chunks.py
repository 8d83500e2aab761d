"""The streamed describe output (JSON in pieces, shared entries formatted once) equals the plain one."""

from __future__ import annotations

import json

import pytest

from kcli.kafka import ConfigSource, ScramMechanism
from kcli.ops.config_model import (
    ConfigEntry,
    ConfigSynonym,
    DescribeResult,
    QuotaEntity,
    QuotaEntry,
    ResourceConfigs,
    ResourceError,
    ScramInfo,
)
from kcli.ops.config_spec import Entity, EntityType
from kcli.render.configs import describe_json, describe_json_chunks, describe_text, entry_line

DEFAULT = ConfigEntry(
    name="cleanup.policy",
    value="delete",
    source=ConfigSource.DEFAULT_CONFIG,
    config_type=2,
    synonyms=(ConfigSynonym(name="log.cleanup.policy", value="delete", source=ConfigSource.DEFAULT_CONFIG),),
)
SECRET = ConfigEntry(
    name="ssl.key.password", value="x", source=ConfigSource.DYNAMIC_TOPIC_CONFIG, sensitive=True
)
UNICODE = ConfigEntry(
    name="message.format", value='"quoted" \u00e9\n', source=ConfigSource.DYNAMIC_TOPIC_CONFIG
)


def _topic(name: str, *entries: ConfigEntry, error: ResourceError | None = None) -> ResourceConfigs:
    return ResourceConfigs(entity=Entity(type=EntityType.TOPICS, name=name), entries=entries, error=error)


RESULTS = [
    DescribeResult(),
    DescribeResult(resources=(_topic("a"),)),
    DescribeResult(
        resources=(
            _topic("a", DEFAULT, SECRET),
            _topic("b", DEFAULT, UNICODE),
            _topic("c", error=ResourceError(code=29, name="TOPIC_AUTHORIZATION_FAILED", message="denied")),
            _topic("d", DEFAULT),
        ),
        missing=(Entity(type=EntityType.TOPICS, name="gone"),),
        describe_all=True,
    ),
    DescribeResult(
        resources=(_topic("a", DEFAULT, SECRET), _topic("b", UNICODE)),
        describe_all=False,
    ),
    DescribeResult(
        quotas=(
            QuotaEntry(
                entity=QuotaEntity(components=(("user", "alice"), ("client-id", None))),
                values={"producer_byte_rate": 1024.0},
            ),
        ),
        scram=(ScramInfo(user="alice", credentials=((ScramMechanism.SCRAM_SHA_512, 8192),)),),
        quota_kind=True,
    ),
]


@pytest.mark.parametrize("result", RESULTS)
def test_json_chunks_equal_json_dumps(result: DescribeResult) -> None:
    expected = json.dumps(describe_json(result), indent=2) + "\n"
    assert "".join(describe_json_chunks(result)) == expected


def test_shared_entries_are_formatted_once_with_the_same_text() -> None:
    resources = tuple(_topic(f"t{i}", DEFAULT) for i in range(3))
    lines = list(describe_text(DescribeResult(resources=resources, describe_all=True)))
    assert lines.count(entry_line(DEFAULT)) == 3
    document = json.loads(
        "".join(describe_json_chunks(DescribeResult(resources=resources, describe_all=True)))
    )
    assert [r["configs"][0]["synonyms"][0]["name"] for r in document["resources"]] == [
        "log.cleanup.policy"
    ] * 3
