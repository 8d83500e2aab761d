"""The undo lines a reset prints after --execute: pasteable commands that name the cluster as the reset did."""

from __future__ import annotations

from pathlib import Path

from kcli.ops.groups.undo import connection_flags, undo_lines, whole_fresh_topics
from kcli.ops.reassign.model import TopicPartition as TP


def test_connection_flags_name_the_cluster_as_given() -> None:
    assert connection_flags("k1:9092", ["k9:9092"]) == ("--bootstrap-server", "k1:9092")
    assert connection_flags(None, ["k1:9092", "k2:9092"]) == ("--bootstrap-server", "k1:9092,k2:9092")
    assert connection_flags(None, ["k1:9092"], profile="prod") == ("--profile", "prod")
    assert connection_flags("k1:9092", [], command_config=Path("/etc/c p.properties"), profile="prod") == (
        "--profile", "prod", "--bootstrap-server", "k1:9092", "--command-config", "/etc/c p.properties",
    )  # fmt: skip


def test_undo_lines_quote_paths_and_delete_the_offsets_that_were_not_there() -> None:
    flags = connection_flags("k1:9092", [], command_config=Path("/tmp/my conf"))
    fresh = {"g2": [TP("t", 2), TP("t", 0), TP("u", 1)]}

    lines = undo_lines("consumer-groups", flags, Path("/state/r.csv"), ["g1"], fresh)

    assert lines == [
        "Saved the offsets before the reset to /state/r.csv; to undo: kcli consumer-groups --bootstrap-server "
        "k1:9092 --command-config '/tmp/my conf' --reset-offsets --group g1 --from-file /state/r.csv --execute",
        "Group g2 had no offset for 3 partition(s); to undo those: kcli consumer-groups --bootstrap-server "
        "k1:9092 --command-config '/tmp/my conf' --delete-offsets --group g2 --topic t:0,2 --topic u:1",
    ]


def test_no_group_had_offsets_before() -> None:
    lines = undo_lines("share-groups", ["--bootstrap-server", "k:1"], Path("r.csv"), [], what="start offsets")
    assert lines == ["Saved the start offsets before the reset to r.csv (none of its partitions had any)"]


def test_a_topic_the_reset_named_whole_and_gave_every_first_offset_is_undone_by_its_name() -> None:
    # `--topic big --topic t:0`: big was named whole and had no offset before; t had one on 1
    reset = {"g": [TP("big", p) for p in range(30_000)] + [TP("t", 0), TP("t", 1)]}
    before = {"g": [TP("t", 1)]}
    whole = whole_fresh_topics(["big", "t"], reset, before)
    fresh = {"g": [tp for tp in reset["g"] if tp not in before["g"]]}

    (_saved, undo) = undo_lines("consumer-groups", ["--bootstrap-server", "k:1"], Path("r.csv"), ["g"], fresh, whole=whole)

    assert whole == {"g": {"big"}}  # t had an offset: deleting all of t would lose it
    assert undo.endswith("--delete-offsets --group g --topic big --topic t:0")
    assert max(len(word) for word in undo.split()) < 131_072  # one word of a Linux command line


def test_a_topic_named_with_its_partitions_is_undone_partition_by_partition() -> None:
    reset = {"g": [TP("t", 0), TP("t", 1)]}
    assert whole_fresh_topics([], reset, {}) == {}
    (_saved, undo) = undo_lines("consumer-groups", ["-b", "k:1"], Path("r.csv"), [], reset, whole={})
    assert undo.endswith("--topic t:0,1")
