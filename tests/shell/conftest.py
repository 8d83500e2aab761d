"""A small metadata log written with the kcli writer, shared by the shell tests."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest
from kio.static.primitive import f64, i8, i16, i32, i64, u16

from kcli.metadata import records as r
from kcli.metadata.writer import MetadataLogWriter

ORDERS = uuid.UUID(int=0x1234)
PAYMENTS = uuid.UUID(int=0x5678)
ACL_ID = uuid.UUID(int=0x99)


def _partition(topic_id: uuid.UUID, partition: int, leader: int) -> r.PartitionRecordV0:
    return r.PartitionRecordV0(
        partition_id=i32(partition), topic_id=topic_id, replicas=(i32(1), i32(2)), isr=(i32(1), i32(2)),
        removing_replicas=(), adding_replicas=(), leader=i32(leader), leader_epoch=i32(0), partition_epoch=i32(0),
    )  # fmt: skip


def write_small_log(directory: Path) -> Path:
    with MetadataLogWriter(directory, node_id=1, cluster_id="test-cluster-id") as log:
        log.append_control(
            [
                r.LeaderChangeMessage(
                    version=i16(0), leader_id=i32(1), voters=(r.Voter(voter_id=i32(1)),), granting_voters=()
                )
            ],
            epoch=1,
            timestamp_ms=1_700_000_000_000,
        )
        broker = r.RegisterBrokerRecordV0(
            broker_id=i32(1), incarnation_id=uuid.UUID(int=1), broker_epoch=i64(5),
            end_points=(r.BrokerEndpoint(name="PLAINTEXT", host="localhost", port=u16(9092), security_protocol=i16(0)),),
            features=(r.BrokerFeature(name="metadata.version", min_supported_version=i16(1), max_supported_version=i16(25)),),
            rack=None,
        )  # fmt: skip
        log.append(
            [
                r.FeatureLevelRecord(name="metadata.version", feature_level=i16(25)),
                broker,
                r.BrokerRegistrationChangeRecordV0(broker_id=i32(1), broker_epoch=i64(5), fenced=i8(-1)),
                r.TopicRecord(name="orders", topic_id=ORDERS),
                _partition(ORDERS, 0, 1),
                _partition(ORDERS, 1, 2),
                r.TopicRecord(name="payments", topic_id=PAYMENTS),
                _partition(PAYMENTS, 0, 1),
                r.ConfigRecord(
                    resource_type=i8(2), resource_name="orders", name="retention.ms", value="1000"
                ),
                r.ConfigRecord(resource_type=i8(4), resource_name="", name="log.retention.hours", value="1"),
                r.ClientQuotaRecord(
                    entity=(r.EntityData(entity_type="user", entity_name="alice"),),
                    key="producer_byte_rate",
                    value=f64(1024.0),
                    remove=False,
                ),
                r.AccessControlEntryRecord(
                    id=ACL_ID,
                    resource_type=i8(2),
                    resource_name="orders",
                    pattern_type=i8(3),
                    principal="User:alice",
                    host="*",
                    operation=i8(3),
                    permission_type=i8(3),
                ),
                r.ProducerIdsRecord(broker_id=i32(1), broker_epoch=i64(5), next_producer_id=i64(1000)),
                r.NoOpRecord(),
            ],
            epoch=1,
            timestamp_ms=1_700_000_001_000,
        )
        log.append(
            [r.PartitionChangeRecordV0(partition_id=i32(1), topic_id=ORDERS, leader=i32(1), isr=(i32(1),))],
            epoch=1,
            timestamp_ms=1_700_000_002_000,
        )
        log.append(
            [r.BeginTransactionRecord(name="aborted"), r.TopicRecord(name="ghost", topic_id=uuid.uuid4())],
            epoch=1,
            timestamp_ms=1_700_000_003_000,
        )
        log.append([r.AbortTransactionRecord(reason="test")], epoch=1, timestamp_ms=1_700_000_004_000)
    return directory


@pytest.fixture(scope="session")
def small_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_small_log(tmp_path_factory.mktemp("small-log"))
