"""The audits' metadata source takes records by the one replay rule (kcli.metadata.delta): the records
of an aborted metadata transaction give no events, a committed one's give theirs, an unfinished one's
are left out with a problem; fencing and controlled shutdown read as Kafka reads them."""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

from kcli.audit.metadata_source import FileTask, read_file_rows
from kcli.metadata import records as r
from kcli.metadata.writer import MetadataLogWriter, segment_name

R: Any = r


def _broker_change(fenced: int, shutdown: int = 0) -> Any:
    return R.BrokerRegistrationChangeRecord(
        broker_id=1, broker_epoch=5, fenced=fenced, in_controlled_shutdown=shutdown
    )


def test_history_rows_follow_the_replay_rule(tmp_path: Path) -> None:
    register = R.RegisterBrokerRecord(broker_id=1, incarnation_id=uuid.UUID(int=1), broker_epoch=5, end_points=(),
                                      features=(), rack=None, fenced=True)  # fmt: skip
    batches = [
        [register],
        [R.BeginTransactionRecord(name="aborted"), _broker_change(-1), R.AbortTransactionRecord()],
        [R.BeginTransactionRecord(name="committed"), _broker_change(-1)],
        [_broker_change(0, shutdown=1), R.EndTransactionRecord()],
        [_broker_change(7)],  # no fencing change Kafka knows: no event
        [R.BeginTransactionRecord(name="open"), _broker_change(1)],
    ]
    with MetadataLogWriter(tmp_path, node_id=1, cluster_id="c") as log:
        for batch in batches:
            log.append(batch, epoch=1, timestamp_ms=1_700_000_000_000)
    path = tmp_path / "__cluster_metadata-0" / segment_name(0)
    rows = list(read_file_rows(FileTask(path=str(path), kind="segment", cluster_id="c", node_id=1)))
    events = [(row[2], row[-1]) for table, row in rows if table == "broker_events"]
    assert events == [(0, "register"), (5, "unfence"), (6, "controlled_shutdown")]
    problems = [row[0] for table, row in rows if table == "problem"]
    assert (
        len(problems) == 1
        and "a metadata transaction is open at the end of the file: its 1 records" in problems[0]
    )
