"""One-shot commands read only the record types they show, and show exactly what the whole image
shows: every path of the tree, listed, long-listed, read, found, against the full replay."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from kcli.metadata.image import build_image
from kcli.metadata.projection import TOPIC_NAMES, Projection, keys_for, read_records, topics_for
from kcli.metadata.read_model import ReadStats
from kcli.metadata.reader import FileReader
from kcli.metadata.tree import Node, build_tree
from kcli.metadata.uuids import kafka_uuid
from kcli.shell.commands import Shell, parse_words
from kcli.shell.session import needed_projection
from tests.conftest import KRAFT_FIXTURES, invoke

DIRS = [
    KRAFT_FIXTURES / "hiage-kafka-raft/data/kafka1",
    KRAFT_FIXTURES / "rjmfernandes-flink-on-prem/data",
    KRAFT_FIXTURES / "galgrayzer-kafka-docker-compose/kafka_data/data",
    KRAFT_FIXTURES / "qkrckstjq-spring-kafka/data",
]


def test_what_a_path_needs() -> None:
    assert keys_for(("image", "topics", "byName"), 1) == TOPIC_NAMES
    assert keys_for(("topics",), 1) == TOPIC_NAMES  # the pre-3.5 alias
    assert keys_for(("image", "topics", "byName", "orders"), 1) == frozenset({2, 3, 5, 9, 28})
    assert keys_for(("image", "topics"), 1) == frozenset()  # byName and byId: no records needed
    assert keys_for(("image", "topics"), 2) == TOPIC_NAMES
    assert keys_for(("image", "cluster", "brokers"), 1) == frozenset({0, 1})
    assert keys_for(("image",), None) is not None and 4 in keys_for(("image",), None)  # type: ignore[operator]
    assert keys_for(("local", "records"), 0) is None  # counts of undecodable records: everything
    assert keys_for((), None) is None


def test_which_topics_partitions_a_path_needs() -> None:
    assert topics_for(("image", "topics", "byName", "orders", "0"), 0) == {"orders"}
    assert topics_for(("topics", "orders"), 1) == {"orders"}  # the pre-3.5 alias
    topic_id = "jC2-6wIkSe2Uq1_8n6mIfQ"
    assert topics_for(("image", "topics", "byId", topic_id), None) == {topic_id}
    assert topics_for(("image", "topics", "byName"), 1) == frozenset()  # names only: no partition
    assert topics_for(("image", "topics", "byName"), 2) is None  # every topic's partitions
    assert topics_for(("image", "cluster", "brokers"), 1) == frozenset()
    assert topics_for((), None) is None
    words = ["cat", "/image/topics/byName/orders/0", "/image/features/metadataVersion", "/topicIds/x/1"]
    assert needed_projection(parse_words(words)).topics == {"orders", "x"}
    globbed = ["cat", "/image/topics/byName/orders/0", "/image/topics/byName/*/1"]
    assert needed_projection(parse_words(globbed)).topics is None


def test_a_topic_path_keeps_that_topic_s_partitions_alone(small_log: Path) -> None:
    needed = needed_projection(parse_words(["cat", "/image/topics/byName/orders/1"]))
    image = build_image(small_log, keys=needed.keys, topics=needed.topics)
    kept = {topic.name: len(topic.partitions) for topic in image.topics.values()}
    assert kept == {"orders": 2, "payments": 0}
    full = build_image(small_log)
    orders = image.topic_names["orders"]
    assert len(full.topics[full.topic_names["payments"]].partitions) == 1
    assert image.topics[orders].partitions == full.topics[orders].partitions
    by_id = needed_projection(parse_words(["ls", f"/image/topics/byId/{kafka_uuid(orders)}"])).topics
    assert {t.name: len(t.partitions) for t in build_image(small_log, topics=by_id).topics.values()} == kept


def _paths(root: Node, limit: int = 400) -> list[str]:
    out: list[str] = []

    def walk(node: Node, shown: str) -> None:
        if len(out) >= limit:
            return
        out.append(shown or "/")
        if node.is_directory():
            for name in node.child_names()[:12]:  # a sample of every directory's children
                child = node.child(name)
                if child is not None:
                    walk(child, f"{shown}/{name}")

    walk(root, "")
    return out


def _output(root: Node, words: list[str]) -> tuple[bool, list[str], list[str]]:
    out: list[str] = []
    err: list[str] = []
    ok = parse_words(words, interactive=False).run(Shell(root=root, out=out.append, err=err.append))
    return ok, out, err


@pytest.mark.parametrize("root", DIRS, ids=lambda p: str(p.relative_to(KRAFT_FIXTURES)))
def test_projected_output_equals_the_whole_image(root: Path) -> None:
    full = build_tree(build_image(root, skip_corrupt=True))

    @cache
    def projected(needed: Projection) -> Node:
        return build_tree(build_image(root, skip_corrupt=True, keys=needed.keys, topics=needed.topics))

    checked = 0
    for path in _paths(full):
        for words in (["ls", path], ["ls", "-l", path], ["cat", path], ["find", path], ["tree", path]):
            needed = needed_projection(parse_words(words, interactive=False))
            assert _output(projected(needed), words) == _output(full, words), words
            checked += 1
    for words in (["ls", "/topics"], ["cat", "/image/topics/byName/*/0"], ["ls", "/image/*"], ["find", "/"]):
        needed = needed_projection(parse_words(words, interactive=False))
        assert _output(projected(needed), words) == _output(full, words), words
    assert checked > 100


def test_listing_topic_names_decodes_no_partition(small_log: Path) -> None:
    image = build_image(small_log, keys=needed_projection(parse_words(["ls", "/image/topics/byName"])).keys)
    assert sorted(image.topic_names) == ["orders", "payments"]
    assert all(not topic.partitions for topic in image.topics.values())
    assert image.configs == {} and image.brokers == {}
    assert image.stats.records == build_image(small_log).stats.records  # every record still framed


def test_read_records_gives_the_chosen_types_as_named_views(small_log: Path) -> None:
    segment = next((small_log / "__cluster_metadata-0").glob("*.log"))
    everything = [e for e in FileReader(path=segment, stats=ReadStats()).entries() if not e.control]
    chosen = list(read_records(segment, {2, 3, 5}))
    assert [e.offset for e in chosen] == [e.offset for e in everything if e.key in (2, 3, 5)]
    for view, entry in zip(chosen, (e for e in everything if e.key in (2, 3, 5)), strict=True):
        record = view.record
        assert type(record).__record_name__ == type(entry.record).__record_name__
        assert record.topic_id == entry.record.topic_id
        assert tuple(record) == tuple(getattr(entry.record, name) for name in record._fields)
    assert [type(e.record).__record_name__ for e in read_records(segment, {0})] == ["RegisterBrokerRecord"]


def test_cli_one_shot_uses_the_projection_and_the_full_image_agrees(small_log: Path) -> None:
    result = invoke("metadata-shell", "-d", str(small_log), "ls", "-l", "/image/topics/byName")
    assert result.lines == ["type      size  name", "dir          4  orders", "dir          3  payments"]
    result = invoke("metadata-shell", "-d", str(small_log), "cat", "/image/topics/byName/orders/1")
    # written without directories (PartitionRecord v0): MIGRATING for each replica, as Kafka reads it
    assert result.lines[0].startswith(
        "PartitionRegistration(replicas=[1, 2], directories=[AAAAAAAAAAAAAAAAAAAAAA, AAAAAAAAAAAAAAAAAAAAAA], isr=[1], "
    )
