"""kcli.ops.log_dirs: kafka-log-dirs' JSON line, its broker checks, and kcli's totals.

The expected JSON is what Kafka 4.4.0's LogDirsCommand printed for a real cluster with these log
dirs and replicas (3 brokers, two dirs each, topic t1 of 3 partitions, 2 replicas each).
"""

from __future__ import annotations

import pytest

from kcli.errors import KcliError, UsageError
from kcli.ops.log_dirs import (
    BrokerReport,
    GroupBy,
    LogDirReport,
    LogDirsDescription,
    ReplicaEntry,
    brokers_to_query,
    human_bytes,
    kafka_json,
    parse_broker_list,
    usage_rows,
)

D = "/tmp/tdev/k44"
KAFKA_PRINTED = (
    '{"brokers":[{"broker":1,"logDirs":[{"partitions":[{"partition":"t1-0","size":3488,"offsetLag":0,'
    '"isFuture":false}],"error":null,"logDir":"/tmp/tdev/k44/logdirs/1-1"},{"partitions":[{"partition":'
    '"t1-1","size":0,"offsetLag":0,"isFuture":false}],"error":null,"logDir":"/tmp/tdev/k44/1"}]},'
    '{"broker":2,"logDirs":[{"partitions":[{"partition":"t1-2","size":0,"offsetLag":0,"isFuture":false}],'
    '"error":null,"logDir":"/tmp/tdev/k44/2"},{"partitions":[{"partition":"t1-1","size":0,"offsetLag":0,'
    '"isFuture":false}],"error":null,"logDir":"/tmp/tdev/k44/logdirs/2-1"}]},{"broker":3,"logDirs":'
    '[{"partitions":[{"partition":"t1-2","size":0,"offsetLag":0,"isFuture":false}],"error":null,"logDir":'
    '"/tmp/tdev/k44/logdirs/3-1"},{"partitions":[{"partition":"t1-0","size":3488,"offsetLag":0,'
    '"isFuture":false}],"error":null,"logDir":"/tmp/tdev/k44/3"}]}],"version":1}'
)


def _replica(
    topic: str, partition: int, size: int = 0, *, lag: int = 0, future: bool = False
) -> ReplicaEntry:
    return ReplicaEntry(topic=topic, partition=partition, size=size, offset_lag=lag, is_future=future)


def _cluster() -> LogDirsDescription:
    dirs = {
        1: [(f"{D}/1", [_replica("t1", 1)]), (f"{D}/logdirs/1-1", [_replica("t1", 0, 3488)])],
        2: [(f"{D}/2", [_replica("t1", 2)]), (f"{D}/logdirs/2-1", [_replica("t1", 1)])],
        3: [(f"{D}/3", [_replica("t1", 0, 3488)]), (f"{D}/logdirs/3-1", [_replica("t1", 2)])],
    }
    reports = {
        b: BrokerReport(
            broker=b,
            dirs=tuple(
                LogDirReport(path=p, replicas=tuple(r), total_bytes=100, usable_bytes=40) for p, r in ds
            ),
        )
        for b, ds in dirs.items()
    }
    return LogDirsDescription(queried=brokers_to_query([], [1, 2, 3]), reports=reports)


def test_the_json_line_is_kafkas() -> None:
    assert kafka_json(_cluster()) == KAFKA_PRINTED


def test_topic_list_filters_partitions_not_dirs() -> None:
    import dataclasses
    import json

    shown = json.loads(kafka_json(dataclasses.replace(_cluster(), topics=frozenset({"other"}))))
    dirs = [d for b in shown["brokers"] for d in b["logDirs"]]
    assert len(dirs) == 6 and all(d["partitions"] == [] for d in dirs)


def test_a_dir_with_an_error_names_the_java_exception() -> None:
    report = LogDirReport(
        path="/d", error_code=56, error_class="org.apache.kafka.common.errors.KafkaStorageException"
    )
    described = LogDirsDescription(queried=(1,), reports={1: BrokerReport(broker=1, dirs=(report,))})
    assert '"error":"org.apache.kafka.common.errors.KafkaStorageException"' in kafka_json(described)


def test_brokers_are_asked_in_kafkas_hash_set_order() -> None:
    assert brokers_to_query([], [102, 3, 17, 1]) == (17, 1, 3, 102)
    assert brokers_to_query([3, 1], [1, 2, 3]) == (1, 3)
    with pytest.raises(KcliError) as refused:
        brokers_to_query([1, 7, 9], [3, 2, 1])
    assert refused.value.message == (
        "ERROR: The given brokers do not exist from --broker-list: 7,9. Current existent brokers: 1,2,3"
    )


def test_broker_list_as_integer_value_of_reads_it() -> None:
    assert parse_broker_list("3,,1,") == [3, 1]
    with pytest.raises(UsageError, match='For input string: " 2"'):
        parse_broker_list("1, 2")


def test_totals_by_broker_count_a_shared_volume_once_and_show_the_skew() -> None:
    rows = usage_rows(_cluster(), GroupBy.BROKER)
    assert [(r.broker, r.replicas, r.size, r.total_bytes, r.usable_bytes) for r in rows] == [
        (1, 2, 3488, 100, 40),
        (2, 2, 0, 100, 40),
        (3, 2, 3488, 100, 40),
    ]
    assert [round(r.skew or 0, 3) for r in rows] == [0.5, -1.0, 0.5]


def test_future_replicas_are_counted_apart() -> None:
    moving = LogDirReport(path="/b", replicas=(_replica("t", 0, 500, lag=7, future=True),))
    here = LogDirReport(path="/a", replicas=(_replica("t", 0, 900),))
    described = LogDirsDescription(queried=(1,), reports={1: BrokerReport(broker=1, dirs=(here, moving))})
    by_dir = usage_rows(described, GroupBy.DIR)
    assert [(r.path, r.replicas, r.size, r.future, r.future_lag) for r in by_dir] == [
        ("/a", 1, 900, 0, 0),
        ("/b", 0, 0, 1, 7),
    ]
    (topic,) = usage_rows(described, GroupBy.TOPIC)
    assert (topic.key, topic.replicas, topic.size, topic.future) == ("t", 1, 900, 1)


def test_human_bytes() -> None:
    assert [human_bytes(v) for v in (-1, 0, 1023, 1536, 5 * 2**30, 2**40 - 2**28, 2**40 - 1, 2**52)] == [
        "-",
        "0 B",
        "1023 B",
        "1.5 KiB",
        "5.0 GiB",
        "1023.8 GiB",
        "1.0 TiB",  # a dir's total just under 1 TiB: never "1024.0 GiB"
        "4096.0 TiB",
    ]
