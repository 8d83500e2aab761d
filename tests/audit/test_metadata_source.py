"""The metadata-log source: real Apache Kafka logs (fixtures) and logs written by the sandbox.

Files are listed and read through Spark's Hadoop filesystem layer, so these tests use the shared
Spark session; local paths and file:// URIs take the same path.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from kcli.audit.storage import to_uri
from tests.conftest import KRAFT_FIXTURES

pytestmark = pytest.mark.spark

FIXTURES = KRAFT_FIXTURES
HIAGE = FIXTURES / "hiage-kafka-raft"  # Kafka 3.3.1, three nodes' copies of one log
FURKAN = FIXTURES / "furkancets-flink-docker"  # Kafka 3.2.0: RegisterBrokerRecord v0 + UnfenceBrokerRecord
DEVANDREF = FIXTURES / "devandref-kafka-eda-study"  # Kafka 4.0, two segments
OTUS = FIXTURES / "1stapossum-otus-kafka"  # AK 3.8: one snapshot besides the log
CORRUPT = FIXTURES / "apache-kafka-pr15553"  # pre-release trunk files: the deliberate negative case


def _storage(spark: Any) -> Any:
    from kcli.audit.storage import Storage

    return Storage(spark)


def test_tasks_are_one_per_segment_plus_the_newest_snapshot(spark: Any) -> None:
    from kcli.audit.metadata_source import metadata_log_dirs, plan_tasks

    storage = _storage(spark)
    assert len(metadata_log_dirs(storage, to_uri(str(HIAGE)))) == 3
    plan = plan_tasks(storage, [to_uri(str(HIAGE)), to_uri(str(DEVANDREF))])
    hiage = [t for t in plan.tasks if t.cluster_id == "EP6hyiddQNW5FPrAvR9kWw"]
    assert sorted(t.node_id for t in hiage) == [1, 2, 3]
    assert {t.kind for t in hiage} == {"segment"}
    devandref = [t for t in plan.tasks if t not in hiage]
    segments = sorted(Path(t.path).name for t in devandref)
    assert segments == ["00000000000000000000.log", "00000000000000014667.log"]
    assert plan.logs == 4 and plan.size > 0
    otus = plan_tasks(storage, [to_uri(str(OTUS))])
    assert sorted((t.kind, Path(t.path).name) for t in otus.tasks) == [
        ("segment", "00000000000000000000.log"),
        ("snapshot", "00000000000000008931-0000000023.checkpoint"),
    ]


def test_a_dir_without_a_metadata_log_is_a_usage_error(spark: Any, tmp_path: Path) -> None:
    from kcli.audit.metadata_source import plan_tasks
    from kcli.errors import UsageError

    with pytest.raises(UsageError, match="no __cluster_metadata-0 directory"):
        plan_tasks(_storage(spark), [to_uri(str(tmp_path))])


def test_fixture_logs_read_in_parallel_and_deduplicated(spark: Any) -> None:
    from kcli.audit.metadata_source import history_frames, plan_tasks

    warnings: list[str] = []
    plan = plan_tasks(_storage(spark), [to_uri(str(HIAGE)), to_uri(str(FURKAN))])
    frames = history_frames(spark, plan, warnings=warnings)
    assert warnings == []
    events = {
        (row["cluster_id"], row["broker_id"], row["event"]) for row in frames["broker_events"].collect()
    }
    # Kafka 3.2.0 writes RegisterBrokerRecord (fenced) then UnfenceBrokerRecord.
    assert ("EP6hyiddQNW5FPrAvR9kWw", 1, "register") in events
    assert ("EP6hyiddQNW5FPrAvR9kWw", 1, "unfence") in events
    assert {b for c, b, e in events if e == "register"} == {1, 2, 3}
    changes = frames["leader_changes"]
    offsets = [row["offset"] for row in changes.select("offset").collect()]
    assert len(offsets) == len(set(offsets))  # three nodes' copies counted once
    creates = changes.filter("change = 'create'").count()
    assert creates == 60 + 3  # hiage: 60 PartitionRecords; furkancets: 3
    topics = {row["topic"] for row in frames["metadata_topics"].collect()}
    assert {"test1", "__consumer_offsets", "test5"} <= topics


def test_a_corrupt_log_gives_its_good_records_and_a_warning_per_problem(spark: Any) -> None:
    from kcli.audit.metadata_source import history_frames, plan_tasks

    warnings: list[str] = []
    plan = plan_tasks(_storage(spark), [to_uri(str(CORRUPT))])
    frames = history_frames(spark, plan, warnings=warnings)
    assert len(warnings) == 6
    assert all(warning.startswith("file:/") and "__cluster_metadata-0/" in warning for warning in warnings)
    assert frames["broker_events"].count() > 0


@pytest.mark.sandbox
def test_a_sandbox_log_reads_as_history(spark: Any, sandbox: Any) -> None:
    from kcli.audit.metadata_source import history_frames, plan_tasks

    log_dir = sandbox.metadata_log_dir(sandbox.active_controller_id)
    frames = history_frames(spark, plan_tasks(_storage(spark), [to_uri(str(log_dir.parent))]))
    registered = {row["broker_id"] for row in frames["broker_events"].filter("event = 'register'").collect()}
    assert set(sandbox.broker_ids) <= registered
    assert {row["cluster_id"] for row in frames["broker_events"].collect()} == {sandbox.cluster_id}


@pytest.mark.parametrize("single", [True, False], ids=["in memory", "cached on executors"])
def test_an_out_of_range_timestamp_nulls_its_events_and_the_file_reads_on(
    spark: Any, tmp_path: Path, single: bool
) -> None:
    from datetime import UTC, datetime

    from kcli.audit.metadata_source import history_frames, plan_tasks
    from kcli.metadata import records as r
    from kcli.metadata.writer import MetadataLogWriter

    start = 1_700_000_000_000
    beyond_9999 = 2**62  # a valid int64 batch timestamp, about 146 million years after 1970
    with MetadataLogWriter(tmp_path / "node-1", node_id=1, cluster_id="odd-times") as log:
        log.append([r.FenceBrokerRecordV0(id=2, epoch=10)], epoch=1, timestamp_ms=start)
        log.append([r.UnfenceBrokerRecordV0(id=2, epoch=10)], epoch=1, timestamp_ms=beyond_9999)
        log.append([r.FenceBrokerRecordV0(id=2, epoch=11)], epoch=1, timestamp_ms=start + 2000)
        log.append([r.UnfenceBrokerRecordV0(id=2, epoch=11)], epoch=1, timestamp_ms=start + 3000)
        segment = log.log_dir / "00000000000000000000.log"
    warnings: list[str] = []
    plan = plan_tasks(_storage(spark), [to_uri(str(tmp_path))])
    frames = history_frames(spark, plan, warnings=warnings, single=single)
    events = sorted(
        (row["offset"], row["event"], row["ts"])
        for row in frames["broker_events"].select("offset", "event", "ts").collect()
    )
    assert [(offset, event) for offset, event, _ts in events] == [
        (0, "fence"),
        (1, "unfence"),
        (2, "fence"),
        (3, "unfence"),
    ]
    # pyspark gives naive datetimes in the local time zone
    times = [None if ts is None else ts.astimezone(UTC) for _offset, _event, ts in events]
    expected = [datetime.fromtimestamp(ms / 1000, UTC) for ms in (start, start + 2000, start + 3000)]
    assert times == [expected[0], None, expected[1], expected[2]]
    assert warnings == [
        f"file:{segment}: the batch of offset 1 has timestamp {beyond_9999} ms, outside the years 1 to 9999: "
        "its events have a null ts"
    ]
