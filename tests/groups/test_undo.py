"""The undo lines a reset prints after --execute: pasteable commands that name the cluster as the reset did."""

from __future__ import annotations

from pathlib import Path

from kcli.ops.groups.undo import connection_flags, undo_lines
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
