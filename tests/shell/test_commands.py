"""Shell commands as values: parsing, globs, output of each command over a real (written) log."""

from __future__ import annotations

from pathlib import Path

import pytest

from kcli.metadata.image import build_image
from kcli.metadata.tree import build_tree
from kcli.shell.commands import (
    CatCommand,
    CdCommand,
    ErroneousCommand,
    FindCommand,
    HistoryCommand,
    LsCommand,
    NoOpCommand,
    Shell,
    TreeCommand,
    parse_line,
)
from kcli.shell.completion import suggest
from kcli.shell.glob import component_regex, expand, normalize
from kcli.shell.listing import print_entries


def _shell(small_log: Path) -> tuple[Shell, list[str], list[str]]:
    out: list[str] = []
    err: list[str] = []
    shell = Shell(root=build_tree(build_image(small_log)), out=out.append, err=err.append)
    return shell, out, err


def _run(shell: Shell, line: str) -> bool:
    return parse_line(line).run(shell)


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("", NoOpCommand()),
        ("ls", LsCommand()),
        ("ls -l /image /local", LsCommand(targets=("/image", "/local"), long=True)),
        ("cat 'a b' c", CatCommand(targets=("a b", "c"))),
        ("cd", CdCommand(target="/")),
        ("find", FindCommand()),
        ("tree /image/features", TreeCommand(targets=("/image/features",))),
        ("history 3", HistoryCommand(count=3)),
        ("history /topics/orders", HistoryCommand(path="/topics/orders")),
        ("history " + "9" * 5000, HistoryCommand(path="9" * 5000)),  # no count: past int()'s digit limit
        ("ls \\*", LsCommand(targets=("\\*",))),
        (
            "lx",
            ErroneousCommand(
                message="invalid choice: 'lx' (choose from 'cat', 'cd', 'exit', 'find', 'help', 'history', "
                "'ls', 'man', 'pwd', 'tree')"
            ),
        ),
        ("tre", ErroneousCommand(message="invalid choice: 'tre': did you mean 'tree'?")),
        ("c", ErroneousCommand(message="ambiguous command: c could match cat, cd")),
        ("cat", ErroneousCommand(message="cat: at least one path is required")),
        ("ls -x", ErroneousCommand(message="ls: unknown option -x")),
        ("cat 'unclosed", ErroneousCommand(message="cannot parse line: No closing quotation")),
    ],
)
def test_parse_gives_values(line: str, expected: object) -> None:
    assert parse_line(line) == expected


def test_shell_only_commands_are_refused_one_shot() -> None:
    assert parse_line("cd /image", interactive=False) == ErroneousCommand(
        message="invalid choice: 'cd' (choose from 'cat', 'find', 'history', 'ls', 'tree'): "
        "cd is only available in the interactive shell"
    )


def test_globs_and_paths() -> None:
    assert normalize(("image", "topics"), "../cluster/./brokers") == ("image", "cluster", "brokers")
    assert normalize(("a",), "/../../b") == ("b",)
    regex = component_regex("{orders,pay*}")
    assert regex is not None and regex.fullmatch("payments") and regex.fullmatch("orders")
    assert not regex.fullmatch("order")
    assert component_regex("plain") is None
    # An escape alone does not make a glob: the component is a literal, backslash included (as
    # GlobComponent); with a wildcard beside it, it escapes.
    assert component_regex("a\\*") is None
    escaped = component_regex("a\\*?")
    assert escaped is not None and escaped.fullmatch("a*b") and not escaped.fullmatch("abb")


def test_ls_cat_find_tree(small_log: Path) -> None:
    shell, out, err = _shell(small_log)
    assert _run(shell, "ls /")
    assert out == ["image", "local"]
    out.clear()
    assert _run(shell, "ls /image/topics/byName /topics")
    assert out == ["byName:", "orders", "payments", "", "topics:", "orders", "payments"]
    out.clear()
    assert _run(shell, "cat /image/topics/byName/orders/1")
    assert out == [
        "PartitionRegistration(replicas=[1, 2], directories=[AAAAAAAAAAAAAAAAAAAAAA, AAAAAAAAAAAAAAAAAAAAAA], isr=[1], "
        "removingReplicas=[], addingReplicas=[], "
        "elr=[], lastKnownElr=[], leader=1, leaderRecoveryState=RECOVERED, leaderEpoch=1, partitionEpoch=1)"
    ]
    out.clear()
    assert _run(shell, "cat /image/topics/byName/*/id")
    assert out == ["AAAAAAAAAAAAAAAAAAASNA", "AAAAAAAAAAAAAAAAAABWeA"]
    out.clear()
    assert _run(shell, "find /image/configs")
    assert out == [
        "/image/configs",
        "/image/configs/BROKER",
        "/image/configs/BROKER/log.retention.hours",
        "/image/configs/TOPIC:orders",
        "/image/configs/TOPIC:orders/retention.ms",
    ]
    out.clear()
    assert _run(shell, "tree /image/clientQuotas /image/producerIds")
    # as Kafka's MetadataNode.print: the targets' children, not their own names
    assert out == ["user(alice):", "  producer_byte_rate:", "    1024.0", "nextProducerId:", "  1000"]
    out.clear()
    assert _run(shell, "cat /image/acls/byId/*")
    assert out == [
        "StandardAcl(resourceType=TOPIC, resourceName=orders, patternType=LITERAL, principal=User:alice, "
        "host=*, operation=READ, permissionType=ALLOW)"
    ]
    assert err == []


def test_errors_are_lines_not_exceptions(small_log: Path) -> None:
    shell, _out, err = _shell(small_log)
    assert not _run(shell, "ls /nope")
    assert not _run(shell, "cat /image")
    assert not _run(shell, "cd /image/provenance")
    assert not _run(shell, "tree /x*")
    assert err == [
        "ls: /nope: no such file or directory.",
        "cat: /image: Is a directory",
        "cd: /image/provenance: not a directory.",
        "tree: /x*: No such file or directory.",
    ]


def test_cd_pwd_history_and_relative_paths(small_log: Path) -> None:
    shell, out, _err = _shell(small_log)
    for line in ("cd /image/topics", "cd byName/orders", "pwd", "ls ..", "history 2"):
        shell.history.append(line)
        assert _run(shell, line)
    assert out == ["/image/topics/byName/orders", "orders", "payments", "    4  ls ..", "    5  history 2"]


def test_record_history_callback(small_log: Path) -> None:
    from kcli.metadata.directory import find_log_directory
    from kcli.metadata.history import record_history

    directory = find_log_directory(small_log)
    lines = list(record_history(directory, ("topics", "orders", "1")))
    kinds = [line.split(" type: ")[1].split(" ")[0] for line in lines]
    assert kinds == ["TopicRecord", "PartitionRecord", "PartitionChangeRecord"]
    lines = list(record_history(directory, ("image", "cluster", "brokers", "1")))
    assert [line.split(" type: ")[1].split(" ")[0] for line in lines] == [
        "RegisterBrokerRecord",
        "BrokerRegistrationChangeRecord",
    ]
    with pytest.raises(LookupError):
        list(record_history(directory, ("local", "version")))


def test_aborted_transaction_is_not_applied(small_log: Path) -> None:
    image = build_image(small_log)
    assert set(image.topic_names) == {"orders", "payments"}
    assert image.open_transaction is None


def test_expand_matches_in_sorted_order(small_log: Path) -> None:
    root = build_tree(build_image(small_log))
    assert [path for path, _node in expand(root, (), "/image/topics/by*/*")][:2] == [
        ("image", "topics", "byId", "AAAAAAAAAAAAAAAAAAASNA"),
        ("image", "topics", "byId", "AAAAAAAAAAAAAAAAAABWeA"),
    ]


def test_completion_suggestions(small_log: Path) -> None:
    root = build_tree(build_image(small_log))
    assert suggest("l", root, ()) == (-1, ["ls"])
    assert suggest("cat /image/to", root, ()) == (-2, ["topics/"])
    assert suggest("ls byName/o", root, ("image", "topics")) == (-1, ["orders/"])
    assert suggest("cat /image/prov", root, ()) == (-4, ["provenance"])


def test_columns_fill_column_major() -> None:
    assert print_entries("", 8, ["a", "bb", "c", "d"]) == ["a   c", "bb  d"]


def test_columns_are_as_wide_as_their_own_longest_entry() -> None:
    # kafka-metadata-shell sizes each column by its own entries, so one long name does not
    # force a single column.
    assert print_entries("", 12, ["aaaaaa", "b", "c", "d"]) == ["aaaaaa  c", "b       d"]
    assert print_entries("", 10, ["aaaaaa", "b", "c", "d"]) == ["aaaaaa", "b", "c", "d"]
    assert print_entries("", 3, ["a", "b", "c"]) == ["a", "b", "c"]


def test_ls_introduces_and_names_by_last_path_component(small_log: Path) -> None:
    shell, out, err = _shell(small_log)
    assert _run(shell, "ls /image/producerIds/nextProducerId /image/topics/byName")
    assert out == ["nextProducerId", "", "byName:", "orders", "payments"]
    out.clear()
    assert _run(shell, "ls /image/topics/byName/orders/name /")
    assert out == ["name", "", "/:", "image", "local"]
    assert err == []


def test_a_live_image_says_what_controllers_cannot_show() -> None:
    from kcli.metadata.image_model import MetadataImage
    from kcli.shell.live import PARTIAL, UNAVAILABLE

    image = MetadataImage(partial=PARTIAL, unavailable=dict(UNAVAILABLE))
    image.features["metadata.version"] = 25
    out: list[str] = []
    err: list[str] = []
    shell = Shell(root=build_tree(image), out=out.append, err=err.append)
    reason = UNAVAILABLE[("topics",)]
    assert not _run(shell, "ls /image/topics/byName")
    assert (out, err) == ([], [f"ls: /image/topics/byName: {reason}"])
    err.clear()
    assert not _run(shell, "cat /topics/orders/0")
    assert err == [f"cat: /topics/orders/0: {reason}"]
    err.clear()
    assert _run(shell, "ls /image/cluster") and out == ["brokers", "controllers"]
    out.clear()
    assert not _run(shell, "find /image/cluster")
    assert out == ["/image/cluster", "/image/cluster/brokers", "/image/cluster/controllers"]
    assert err == [f"find: /image/cluster/brokers: {UNAVAILABLE[('cluster', 'brokers')]}"]
    out.clear()
    err.clear()
    assert _run(shell, "cat /image/features/metadataVersion") and out == ["Optional[4.0-IV3]"]
