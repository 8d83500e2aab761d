"""The one replay rule (kcli.metadata.delta), record by record against Kafka's MetadataDelta, and on
the Kafka-written logs of ../shared/fixtures/kraft: the log replayed up to each snapshot Kafka wrote
is that snapshot's image (tests/metadata/replay_checks.py)."""

from __future__ import annotations

import uuid
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from kcli.metadata import delta
from kcli.metadata import records as r
from kcli.metadata.image import ImageBuilder
from kcli.metadata.image_model import MetadataImage, PartitionState
from kcli.metadata.read_model import Entry
from tests.conftest import KRAFT_FIXTURES
from tests.metadata.replay_checks import differences_from_snapshots, snapshots_of

R: Any = r
TOPIC = uuid.UUID(int=7)
DIR_A, DIR_B, DIR_C = (uuid.UUID(int=n) for n in (11, 12, 13))


def _state(**fields: Any) -> tuple[Any, ...]:
    values = dict(
        zip(
            delta.PARTITION_FIELDS,
            (0, TOPIC, (1, 2), (1, 2), (), (), 1, 0, 0, 0, (), None, None),
            strict=True,
        )
    )
    values.update(fields)
    return tuple(values.values())


def _change(**fields: Any) -> tuple[Any, ...]:
    record = R.PartitionChangeRecord(partition_id=0, topic_id=TOPIC, **fields)
    return tuple(getattr(record, name) for name in (
        "partition_id", "topic_id", "isr", "leader", "replicas", "removing_replicas", "adding_replicas",
        "leader_recovery_state", "directories", "eligible_leader_replicas", "last_known_elr"))  # fmt: skip


def test_a_change_carries_only_its_fields_and_bumps_the_epochs_as_merge_does() -> None:
    state = _state(leader_epoch=4, partition_epoch=9, leader_recovery_state=1)
    isr_only = delta.merge_partition(state, _change(isr=(1,)))
    assert isr_only is not None
    assert PartitionState.of(isr_only)[:8] == (
        (1, 2),
        (1,),
        (),
        (),
        1,
        1,
        4,
        10,
    )  # leader -2: no leader epoch bump
    elected = delta.merge_partition(state, _change(leader=2, leader_recovery_state=0))
    assert elected is not None
    assert (elected[6], elected[7], elected[8], elected[9]) == (2, 0, 5, 10)
    elr = delta.merge_partition(state, _change(eligible_leader_replicas=(2,), last_known_elr=(1,)))
    assert elr is not None and (elr[11], elr[12]) == ((2,), (1,))


def test_directories_default_to_migrating_and_mismatches_are_refused() -> None:
    assert PartitionState.of(_state()).directories == (delta.MIGRATING, delta.MIGRATING)
    moved = delta.merge_partition(
        _state(), _change(replicas=(1, 2, 3))
    )  # no directories known: still migrating
    assert moved is not None and PartitionState.of(moved).directories == (delta.MIGRATING,) * 3
    placed = _state(directories=(DIR_A, DIR_B))
    assert delta.merge_partition(placed, _change(replicas=(1, 2, 3))) is None  # 2 directories for 3 replicas
    assert delta.merge_partition(placed, _change(replicas=(1, 2, 3), directories=(DIR_A, DIR_B))) is None
    changed = delta.merge_partition(placed, _change(replicas=(1, 2, 3), directories=(DIR_A, DIR_B, DIR_C)))
    assert changed is not None and PartitionState.of(changed).directories == (DIR_A, DIR_B, DIR_C)
    assert delta.new_partition(_state(directories=(DIR_A,))) is None
    assert PartitionState.of(_state(directories=bytes(32))).directories == (delta.MIGRATING,) * 2


def test_clear_elr_is_a_change_only_where_there_is_an_elr() -> None:
    assert delta.cleared_elr(_state(eligible_leader_replicas=(), last_known_elr=None)) is None
    cleared = delta.cleared_elr(_state(partition_epoch=3, last_known_elr=(2,)))
    assert cleared is not None and (cleared[9], cleared[11], cleared[12]) == (4, (), ())


def _entry(offset: int, record: Any) -> Entry:
    return Entry(offset=offset, epoch=1, timestamp=0, control=False, key=type(record).__api_key__,
                 version=type(record).__version__, record=record)  # fmt: skip


def _replay(*records: Any) -> MetadataImage:
    builder = ImageBuilder(MetadataImage())
    for offset, record in enumerate(records):
        builder.apply(_entry(offset, record))
    return builder.finish()


def _broker(epoch: int = 5) -> Any:
    return R.RegisterBrokerRecord(broker_id=1, incarnation_id=uuid.UUID(int=1), broker_epoch=epoch, end_points=(),
                                  features=(), rack=None, fenced=True)  # fmt: skip


def test_broker_changes_apply_only_with_the_registrations_epoch() -> None:
    image = _replay(_broker(), R.BrokerRegistrationChangeRecord(broker_id=1, broker_epoch=4, fenced=-1))
    assert image.brokers[1].fenced and image.stats.warnings  # another epoch: refused, and said so
    image = _replay(_broker(), R.BrokerRegistrationChangeRecord(broker_id=1, broker_epoch=5, fenced=-1),
                    R.BrokerRegistrationChangeRecord(broker_id=1, broker_epoch=5, fenced=0, in_controlled_shutdown=1),
                    R.BrokerRegistrationChangeRecord(broker_id=1, broker_epoch=5, fenced=-1))  # fmt: skip
    broker = image.brokers[1]
    assert (broker.fenced, broker.in_controlled_shutdown, image.stats.warnings) == (False, True, [])
    image = _replay(_broker(), R.UnfenceBrokerRecord(id=1, epoch=5), R.FenceBrokerRecord(id=1, epoch=3))
    assert not image.brokers[1].fenced


def test_features_transactions_quotas_and_topic_removal() -> None:
    image = _replay(
        R.FeatureLevelRecord(name="kraft.version", feature_level=1),  # the quorum's, not the image's
        R.FeatureLevelRecord(name="group.version", feature_level=1),
        R.BeginTransactionRecord(name="one"),
        R.FeatureLevelRecord(name="transaction.version", feature_level=2),
        R.BeginTransactionRecord(name="nested"),  # ignored, as Kafka's loader ignores it
        R.EndTransactionRecord(),
        R.BeginTransactionRecord(name="two"),
        R.FeatureLevelRecord(name="group.version", feature_level=0),
        R.AbortTransactionRecord(),
        R.TopicRecord(name="t", topic_id=TOPIC),
        R.ConfigRecord(resource_type=2, resource_name="t", name="retention.ms", value="1"),
        R.RemoveTopicRecord(topic_id=TOPIC),
        R.ClientQuotaRecord(entity=(R.EntityData(entity_type="user", entity_name="a"),
                                    R.EntityData(entity_type="user", entity_name="b")),
                            key="consumer_byte_rate", value=1.0, remove=False),
    )  # fmt: skip
    assert image.features == {"group.version": 1, "transaction.version": 2}
    assert (image.topics, image.topic_names, image.configs, image.open_transaction) == ({}, {}, {}, None)
    assert image.client_quotas == {(("user", "b"),): {"consumer_byte_rate": 1.0}}


def test_a_registrations_listeners_are_a_map_by_name() -> None:
    endpoint = SimpleNamespace
    listed = delta.endpoints_by_name(
        [endpoint(name="B", port=1), endpoint(name="A", port=2), endpoint(name="B", port=3)]
    )
    assert [(e.name, e.port) for e in listed] == [("A", 2), ("B", 3)]


_LOGS = sorted(d for d in KRAFT_FIXTURES.rglob("__cluster_metadata-0") if snapshots_of(d))


@pytest.mark.parametrize("log_dir", _LOGS, ids=lambda d: str(d.relative_to(KRAFT_FIXTURES)))
def test_the_log_replayed_up_to_each_snapshot_is_that_snapshot(log_dir: Path) -> None:
    compared, differences = differences_from_snapshots(log_dir)
    assert compared, "no snapshot within the log"
    assert not differences, "\n".join(differences[:20])


def test_every_fixture_with_snapshots_and_its_log_is_compared() -> None:
    assert len(_LOGS) >= 5, _LOGS  # 3.5 to 4.2: greenlemont, rjmfernandes, 1stapossum, dkoh12, induswargods


def _shell_and_emulator_images(log_dir: Path) -> tuple[MetadataImage, Any]:
    from kcli.metadata.read_model import ReadStats
    from kcli.metadata.reader import FileReader
    from kcli.sandbox.emulator.image import Image

    builder, emulator = ImageBuilder(MetadataImage()), Image()
    for segment in sorted(log_dir.glob("[0-9]" * 20 + ".log")):
        for entry in FileReader(path=segment, stats=ReadStats()).entries():
            builder.apply(entry)
            if not entry.control:
                emulator.apply(entry.record)
    return builder.finish(), emulator


def _partition(state: tuple[Any, ...]) -> tuple[Any, ...]:
    """A partition's state compared field by field, in one form whichever reader kept it."""
    replicas, isr, removing, adding, leader, recovery, leader_epoch, partition_epoch = state[2:10]
    elr, last_known_elr = state[11] or (), state[12] or ()
    return (
        tuple(replicas), tuple(isr), tuple(removing), tuple(adding), leader, recovery, leader_epoch,
        partition_epoch, delta.directories(state), tuple(elr), tuple(last_known_elr),
    )  # fmt: skip


@pytest.mark.parametrize("log_dir", _LOGS, ids=lambda d: str(d.relative_to(KRAFT_FIXTURES)))
def test_the_sandbox_emulator_replays_a_kafka_log_as_the_shell_does(log_dir: Path) -> None:
    """The emulator's image (kcli/sandbox/emulator/image.py) and the shell's read the same Kafka-written
    log to the same partitions, configs, features, brokers' registrations and quotas: both change them
    through kcli.metadata.delta."""
    shell, emulator = _shell_and_emulator_images(log_dir)
    ours = {
        (topic.name, index): _partition(partition.state())
        for topic in emulator.topics.values()
        for index, partition in topic.partitions.items()
    }
    theirs = {
        (topic.name, index): _partition(state)
        for topic in shell.topics.values()
        for index, state in topic.partitions.items()
    }
    assert ours and ours == theirs
    assert emulator.configs == shell.configs
    assert emulator.features == shell.features
    brokers = {
        broker_id: (b.broker_epoch, b.fenced, b.in_controlled_shutdown, tuple(b.log_dirs))
        for broker_id, b in emulator.brokers.items()
    }
    assert brokers and brokers == {
        broker_id: (b.record.broker_epoch, b.fenced, b.in_controlled_shutdown, tuple(b.log_dirs))
        for broker_id, b in shell.brokers.items()
    }
    assert emulator.quotas == shell.client_quotas


def test_the_emulator_refuses_a_broker_change_of_another_epoch_and_reads_fence_records() -> None:
    """As Kafka's ClusterDelta: a change whose epoch is not the registration's changes nothing, and
    the FenceBrokerRecord/UnfenceBrokerRecord of 3.x logs fence and unfence."""
    import uuid

    from kcli.metadata import records
    from kcli.sandbox.emulator.image import Image

    R: Any = records  # record constructors take kio's phantom ints; plain ints are what they hold
    image = Image()
    image.apply(R.RegisterBrokerRecord(
        broker_id=1, incarnation_id=uuid.uuid4(), broker_epoch=7, end_points=(), features=(),
        rack=None, fenced=True,
    ))  # fmt: skip
    image.apply(R.BrokerRegistrationChangeRecord(broker_id=1, broker_epoch=6, fenced=-1))
    assert image.brokers[1].fenced  # epoch 6 is not the registration's: refused
    image.apply(R.UnfenceBrokerRecord(id=1, epoch=7))
    assert not image.brokers[1].fenced
    image.apply(R.BrokerRegistrationChangeRecord(broker_id=1, broker_epoch=7, in_controlled_shutdown=1))
    image.apply(R.BrokerRegistrationChangeRecord(broker_id=1, broker_epoch=7, fenced=-1))
    assert image.brokers[1].in_controlled_shutdown  # only a new registration ends a controlled shutdown
    image.apply(R.FenceBrokerRecord(id=1, epoch=7))
    assert image.brokers[1].fenced
