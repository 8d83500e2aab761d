"""In-flight copies survive a restart: a reassignment and a log-dir move resume where they stopped."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from kcli.sandbox.emulator.progress import PROGRESS_FILE, load
from tests.conftest import invoke
from tests.dataplane.filling import fill
from tests.polling import wait_for
from tests.reassign.peer import create_topic
from tests.sandbox.raw import RawConnection

pytestmark = pytest.mark.sandbox
TOPIC = "resume"


def sizes(sb: Any, broker: int) -> dict[tuple[int, bool], int]:
    """DescribeLogDirs of one broker: (partition, is future) -> bytes."""
    from kio.schema.describe_log_dirs.v4.request import DescribableLogDirTopic, DescribeLogDirsRequest

    topics: Any = (DescribableLogDirTopic(topic=TOPIC, partitions=(0, 1)),)  # type: ignore[arg-type]
    with RawConnection(f"127.0.0.1:{sb.port_of(broker)}") as conn:
        response = conn.call(DescribeLogDirsRequest(topics=topics))
    return {
        (int(p.partition_index), bool(p.is_future_key)): int(p.partition_size)
        for result in response.results
        for t in result.topics
        for p in t.partitions
    }


def set_broker_config(sb: Any, broker: int, entry: str) -> None:
    result = invoke(
        "configs", "--bootstrap-server", sb.bootstrap_servers, "--alter", "--entity-type", "brokers",
        "--entity-name", str(broker), "--add-config", entry,
    )  # fmt: skip
    assert result.code == 0, result.stderr


def test_reassignment_and_log_dir_move_resume_after_restart(tmp_path: Path) -> None:
    from kcli.sandbox.emulator.handle import Sandbox

    directory = tmp_path / "sb"
    rate = 400_000  # bytes/s: each copy takes several seconds
    with Sandbox(directory=directory, controllers=1, brokers=3, log_dirs=2) as sb:
        create_topic(sb.bootstrap_servers, TOPIC, [[1, 2], [1, 3]])
        wait_for(lambda: sizes(sb, 1).get((0, False)) == 0, timeout=20, what="the topic on broker 1")
        fill(sb, TOPIC, [0, 1], 20_000)  # about 2.5 MB a partition
        full = {p: sizes(sb, 1)[(p, False)] for p in (0, 1)}  # broker 1 leads both
        assert min(full.values()) > 2_000_000
        for broker in (1, 2, 3):
            set_broker_config(sb, broker, f"follower.replication.throttled.rate={rate}")
        set_broker_config(sb, 1, f"replica.alter.log.dirs.io.max.bytes.per.second={rate}")
        topic_throttle = invoke(
            "configs", "--bootstrap-server", sb.bootstrap_servers, "--alter", "--entity-type", "topics",
            "--entity-name", TOPIC, "--add-config", "follower.replication.throttled.replicas=*",
        )  # fmt: skip
        assert topic_throttle.code == 0, topic_throttle.stderr
        start: Any = _start_moves
        assert sb.run(start)

        def copying() -> tuple[int, int] | None:
            now = sizes(sb, 3).get((0, False), 0), sizes(sb, 1).get((1, True), 0)
            return now if now[0] > 0 and now[1] > 0 else None

        before = wait_for(copying, timeout=20, what="both copies under way")
        assert 0 < before[0] < full[0] and 0 < before[1] < full[1]
    saved = load(directory)  # written at shutdown
    assert saved.copies and saved.moves

    with Sandbox(directory=directory, controllers=1, brokers=3, log_dirs=2) as sb:
        after = sizes(sb, 3)[(0, False)], sizes(sb, 1)[(1, True)]
        assert after[0] >= before[0] and after[1] >= before[1]  # resumed, not started over
        # speed it up, then both finish
        for broker in (1, 2, 3):
            set_broker_config(sb, broker, "follower.replication.throttled.rate=100000000")
        set_broker_config(sb, 1, "replica.alter.log.dirs.io.max.bytes.per.second=100000000")
        wait_for(
            lambda: (
                sizes(sb, 3).get((0, False)) == full[0] and (1, True) not in sizes(sb, 1)
            ),
            timeout=20,
            what="both copies finished",
        )
        final = sizes(sb, 1)
        assert (1, True) not in final and final[(1, False)] == full[1]
        assert sizes(sb, 3)[(0, False)] == full[0]
    assert not (directory / PROGRESS_FILE).exists()  # nothing in flight any more


async def _start_moves(cluster: Any) -> bool:
    """Move partition 0 from [1, 2] to [1, 3] and broker 1's replica of partition 1 to its other dir."""
    from kcli.sandbox.emulator.logdirs import replica_directory

    topic = cluster.image.topic(TOPIC)
    p0, p1 = topic.partitions[0], topic.partitions[1]
    await cluster.commit(cluster.reassignments.start_records(p0, [1, 3]))
    current = replica_directory(cluster, p1, 1)
    other = next(d.directory_id for d in cluster.log_dirs[1] if d.directory_id != current)
    await cluster.log_dir_moves.request(TOPIC, p1, 1, other)
    return bool(cluster.image.topic(TOPIC).partitions[0].adding_replicas) and bool(
        cluster.log_dir_moves.moves
    )
