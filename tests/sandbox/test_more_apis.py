"""Client quotas, DescribeTopicPartitions paging, log-dir sizes and feature dependencies over raw kio requests."""

from __future__ import annotations

import datetime
import uuid
from pathlib import Path
from typing import Any

import pytest

from tests.sandbox.peers import admin
from tests.sandbox.raw import RawConnection, first

pytestmark = pytest.mark.sandbox


def test_client_quotas_alter_and_describe(sandbox: Any) -> None:
    from kio.schema.alter_client_quotas.v1 import request as alter
    from kio.schema.describe_client_quotas.v1 import request as describe

    user = f"quota-{uuid.uuid4().hex[:6]}"
    entity = (alter.EntityData(entity_type="user", entity_name=user),)
    with RawConnection(first(sandbox.bootstrap_servers)) as conn:
        altered = conn.call(
            alter.AlterClientQuotasRequest(
                entries=(
                    alter.EntryData(
                        entity=entity,
                        ops=(alter.OpData(key="producer_byte_rate", value=1024.0, remove=False),),
                    ),
                ),
                validate_only=False,
            )
        )
        assert altered.entries[0].error_code.value == 0
        bad = conn.call(
            alter.AlterClientQuotasRequest(
                entries=(
                    alter.EntryData(
                        entity=entity, ops=(alter.OpData(key="bogus_rate", value=1.0, remove=False),)
                    ),
                ),
                validate_only=False,
            )
        )
        assert bad.entries[0].error_code.value == 42
        found = conn.call(
            describe.DescribeClientQuotasRequest(
                components=(describe.ComponentData(entity_type="user", match_type=0, match=user),),
                strict=False,
            )
        )
    assert found.error_code.value == 0
    assert [(v.key, v.value) for e in found.entries for v in e.values] == [("producer_byte_rate", 1024.0)]


def test_describe_topic_partitions_pages_with_a_cursor(sandbox: Any) -> None:
    from kafka.admin import NewTopic
    from kio.schema.describe_topic_partitions.v0.request import (
        Cursor,
        DescribeTopicPartitionsRequest,
        TopicRequest,
    )

    name = f"paged-{uuid.uuid4().hex[:6]}"
    with admin(sandbox.bootstrap_servers) as client:
        client.create_topics([NewTopic(name, 5, 1)])
    seen: list[int] = []
    cursor = None
    with RawConnection(first(sandbox.bootstrap_servers)) as conn:
        for _ in range(5):
            page = conn.call(
                DescribeTopicPartitionsRequest(
                    topics=(TopicRequest(name=name),), response_partition_limit=2, cursor=cursor
                )
            )
            seen += [p.partition_index for p in page.topics[0].partitions]
            if page.next_cursor is None:
                break
            cursor = Cursor(
                topic_name=page.next_cursor.topic_name, partition_index=page.next_cursor.partition_index
            )
    assert seen == [0, 1, 2, 3, 4]


def test_log_dirs_report_the_bytes_their_replicas_hold(sandbox: Any) -> None:
    from kafka.admin import NewTopic
    from kio.schema.describe_log_dirs.v4.request import DescribableLogDirTopic, DescribeLogDirsRequest

    from tests.dataplane.filling import fill

    name = f"sized-{uuid.uuid4().hex[:6]}"
    with admin(sandbox.bootstrap_servers) as client:
        client.create_topics([NewTopic(name, -1, -1, replica_assignments={0: [1], 1: [2]})])
    written = fill(sandbox, name, [0], 3000)
    with RawConnection(f"127.0.0.1:{sandbox.port_of(1)}") as conn:
        answer = conn.call(
            DescribeLogDirsRequest(topics=(DescribableLogDirTopic(topic=name, partitions=(0, 1)),))
        )
    result = answer.results[0]
    assert result.log_dir.endswith("/1")
    partitions = {p.partition_index: p.partition_size for t in result.topics for p in t.partitions}
    assert list(partitions) == [0]  # partition 1 lives on broker 2 only
    on_disk = sum(f.stat().st_size for f in (Path(result.log_dir) / f"{name}-0").glob("*.log"))
    assert partitions[0] == on_disk == written
    assert result.total_bytes > result.usable_bytes > 0


def test_update_features_checks_dependencies(fresh_sandbox: Any, make_sandbox: Any) -> None:
    from kio.schema.update_features.v1.request import FeatureUpdateKey, UpdateFeaturesRequest

    timeout = datetime.timedelta(seconds=5)

    def update(*changes: tuple[str, int, int], validate_only: bool = False) -> Any:
        keys = tuple(
            FeatureUpdateKey(feature=f, max_version_level=level, upgrade_type=kind)
            for f, level, kind in changes
        )
        with RawConnection(first(fresh_sandbox.bootstrap_controllers)) as conn:
            return conn.call(
                UpdateFeaturesRequest(timeout=timeout, feature_updates=keys, validate_only=validate_only)
            )

    def error(response: Any) -> tuple[int, str]:
        return response.error_code.value, str(response.error_message)

    # metadata.version downgrades across a level that changed the metadata (23) are refused
    failed_all = "The update failed for all features since the following feature had an error: "
    assert error(update(("metadata.version", 21, 3))) == (
        95,
        failed_all
        + "Unsupported metadata.version downgrade from 33 to 21. Unsafe metadata downgrade is not supported in this version.",
    )
    assert error(update(("metadata.version", 22, 2))) == (
        95,
        failed_all
        + "Unsupported metadata.version downgrade from 33 to 22. Refusing to perform the requested "
        "downgrade because it might delete metadata information.",
    )
    # a new sandbox finalizes share.version at its default for the latest metadata.version
    assert fresh_sandbox.run(lambda c: c.image.features.get("share.version")) == 2
    disabled = update(("share.version", 0, 2))
    assert disabled.results[0].error_code.value == 0
    dry = update(("share.version", 1, 1), validate_only=True)
    assert dry.results[0].error_code.value == 0
    assert fresh_sandbox.run(lambda c: c.image.features.get("share.version")) is None
    done = update(("share.version", 1, 1))
    assert done.results[0].error_code.value == 0
    assert fresh_sandbox.run(lambda c: c.image.features["share.version"]) == 1
    unknown = update(("no.such.feature", 1, 1))
    assert unknown.error_code.value == 95 and unknown.results == ()
    # 4.4-IV2 (33) changed the metadata: no safe downgrade from it; 4.4-IV0 (31) did not: 31 -> 30 is safe
    assert error(update(("metadata.version", 32, 2)))[0] == 95
    older = make_sandbox(controllers=1, brokers=1, release_version="4.4-IV0")
    with RawConnection(first(older.bootstrap_controllers)) as conn:
        key = FeatureUpdateKey(feature="metadata.version", max_version_level=30, upgrade_type=2)
        done = conn.call(UpdateFeaturesRequest(timeout=timeout, feature_updates=(key,), validate_only=False))
    assert (done.error_code.value, done.error_message) == (0, None)
    assert older.run(lambda c: c.image.features["metadata.version"]) == 30


def test_a_broker_resource_named_by_5000_digits_is_not_a_node_id(sandbox: Any) -> None:
    from kio.schema.incremental_alter_configs.v1 import request as alter

    name = "9" * 5000  # past int()'s digit limit: a plain int() in the handler would fail the request
    resource = alter.AlterConfigsResource(
        resource_type=4,  # BROKER
        resource_name=name,
        configs=(alter.AlterableConfig(name="log.cleaner.threads", config_operation=0, value="2"),),
    )
    with RawConnection(first(sandbox.bootstrap_servers)) as conn:
        response = conn.call(alter.IncrementalAlterConfigsRequest(resources=(resource,), validate_only=True))
    (result,) = response.responses
    invalid_request = 42
    # the receiving broker's check, as Kafka 4.4 words it (ConfigAdminManager: the name is no int)
    assert (result.error_code.value, result.error_message) == (
        invalid_request,
        f"Node id must be an integer, but it is: {name}",
    )
