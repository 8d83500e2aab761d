"""kcli topics on the sandbox, read back with kafka-python: the lines say what the cluster holds."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import invoke
from tests.reassign.peer import create_topic, peer_admin

pytestmark = pytest.mark.sandbox


def _described(bootstrap: str, topic: str) -> dict[int, tuple[int, tuple[int, ...], tuple[int, ...]]]:
    """partition -> (leader, replicas, isr), as kafka-python reads them."""
    with peer_admin(bootstrap) as admin:
        (found,) = admin.describe_topics([topic])
    return {
        int(p["partition_index"]): (int(p["leader_id"]), tuple(p["replica_nodes"]), tuple(p["isr_nodes"]))
        for p in found["partitions"]
    }


def test_list_and_describe_show_what_kafka_python_reads(sandbox: Any) -> None:
    b = sandbox.bootstrap_servers
    create_topic(b, "topics-shown", [[1, 2], [2, 3], [3, 1]])
    listed = invoke("topics", "-b", b, "--list")
    assert listed.code == 0, listed.stderr
    assert "topics-shown" in listed.lines and listed.lines == sorted(listed.lines)

    described = invoke("topics", "-b", b, "--describe", "--topic", "topics-shown")
    assert described.code == 0, described.stderr
    header, *rows = described.lines
    assert header.startswith("Topic: topics-shown\tTopicId: ")
    # ELR is enabled at the sandbox's 4.4 level, and with it the controller sets the cluster-level
    # min.insync.replicas that kafka-topics lists as not a default
    assert "\tPartitionCount: 3\tReplicationFactor: 2\tConfigs: " in header
    # (the shared sandbox may hold other tests' cluster defaults too)
    assert "min.insync.replicas=1" in header.split("\tConfigs: ")[1].split(",")
    expected = _described(b, "topics-shown")
    assert rows == [
        f"\tTopic: topics-shown\tPartition: {p}\tLeader: {leader}\tReplicas: {','.join(map(str, replicas))}"
        f"\tIsr: {','.join(map(str, isr))}\tElr: \tLastKnownElr: "
        for p, (leader, replicas, isr) in sorted(expected.items())
    ]
    configured = invoke(
        "configs", "-b", b, "--alter", "--topic", "topics-shown", "--add-config", "retention.ms=60000"
    )
    assert configured.code == 0, configured.stderr
    overrides = invoke("topics", "-b", b, "--describe", "--topics-with-overrides", "--topic", "topics-.*")
    assert any(
        line.startswith("Topic: topics-shown\t")
        and "retention.ms=60000" in line.split("\tConfigs: ")[1].split(",")
        for line in overrides.lines
    )
    assert not any(line.startswith("\t") for line in overrides.lines)


def test_reports_follow_a_stopped_broker(fresh_sandbox: Any) -> None:
    sb = fresh_sandbox
    b = sb.bootstrap_servers
    create_topic(b, "topics-alone", [[3]])
    create_topic(b, "topics-pair", [[1, 3], [1, 2]])
    healthy = invoke("topics", "-b", b, "--describe", "--under-replicated-partitions")
    assert (healthy.code, healthy.stdout) == (0, "")
    sb.stop_node(3)
    under = invoke("topics", "-b", b, "--describe", "--under-replicated-partitions", "-o", "json")
    assert under.code == 0, under.stderr
    shown = {(t["name"], p["partition"]) for t in under.json["topics"] for p in t["partitions"]}
    pair = _described(b, "topics-pair")
    assert ("topics-pair", 0) in shown and ("topics-pair", 1) not in shown
    assert pair[0][2] == (1,)  # kafka-python agrees: broker 3 left the ISR
    unavailable = invoke("topics", "-b", b, "--describe", "--unavailable-partitions")
    assert [line.split("\t")[1:4] for line in unavailable.lines] == [
        ["Topic: topics-alone", "Partition: 0", "Leader: none"]
    ]


def test_usage_errors(sandbox: Any) -> None:
    b = sandbox.bootstrap_servers
    for argv, message in (
        (("--list", "--describe"), "exactly one action: --list, --describe, --create, --alter or --delete"),
        (
            ("--list", "--under-replicated-partitions"),
            'Option "[under-replicated-partitions]" can\'t be used with option "[list]"',
        ),
        (("--describe", "--topic", "a("), "is an invalid regex"),
    ):
        result = invoke("topics", "-b", b, *argv)
        assert result.code == 2 and message in result.stderr, (argv, result.stderr)
    controllers = invoke("topics", "-C", sb_controllers(sandbox), "--list")
    assert controllers.code == 2 and "use --bootstrap-server" in controllers.stderr
    missing = invoke("topics", "-b", b, "--describe", "--topic", "no-such-topic")
    assert missing.code == 1 and "Topic 'no-such-topic' does not exist as expected" in missing.stderr
    quiet = invoke("topics", "-b", b, "--describe", "--topic", "no-such-topic", "--if-exists")
    assert (quiet.code, quiet.stdout) == (0, "")


def sb_controllers(sandbox: Any) -> str:
    return str(sandbox.bootstrap_controllers)


def test_create_alter_delete_read_back_by_kafka_python(sandbox: Any) -> None:
    """The changes of kcli topics, each read back by kafka-python, on the emulator."""
    b = sandbox.bootstrap_servers
    made = invoke("topics", "-b", b, "--create", "--topic", "topics-made", "--replica-assignment", "1:2,2:3",
                  "--config", "retention.ms=60000")  # fmt: skip
    assert (made.code, made.stdout) == (0, "Created topic topics-made.\n"), made.stderr
    assert {p: r for p, (_, r, _) in _described(b, "topics-made").items()} == {0: (1, 2), 1: (2, 3)}
    again = invoke("topics", "-b", b, "--create", "--topic", "topics-made", "--partitions", "1")
    assert again.code == 1 and "TOPIC_ALREADY_EXISTS" in again.stderr
    assert invoke("topics", "-b", b, "--create", "--topic", "topics-made", "--if-not-exists").code == 0

    grown = invoke("topics", "-b", b, "--alter", "--topic", "topics-made", "--partitions", "3",
                   "--replica-assignment", "1:2,2:3,3:1")  # fmt: skip
    assert (grown.code, grown.stdout) == (0, ""), grown.stderr
    assert _described(b, "topics-made")[2][1] == (3, 1)  # the entry past the current count
    fewer = invoke("topics", "-b", b, "--alter", "--topic", "topics-made", "--partitions", "2")
    assert fewer.code == 1 and "INVALID_PARTITIONS" in fewer.stderr
    assert len(_described(b, "topics-made")) == 3  # nothing changed

    gone = invoke("topics", "-b", b, "--delete", "--topic", "topics-made")
    assert (gone.code, gone.stdout) == (0, ""), gone.stderr
    with peer_admin(b) as admin:
        assert "topics-made" not in admin.list_topics()
    absent = invoke("topics", "-b", b, "--delete", "--topic", "topics-made")
    assert absent.code == 1 and "Topic 'topics-made' does not exist as expected" in absent.stderr
    assert invoke("topics", "-b", b, "--delete", "--topic", "topics-made", "--if-exists").code == 0


def test_log_dirs_and_leader_election_on_the_emulator(sandbox: Any) -> None:
    b = sandbox.bootstrap_servers
    create_topic(b, "topics-led", [[1, 2]])
    described = invoke("log-dirs", "-b", b, "--describe", "--topic-list", "topics-led")
    assert described.code == 0, described.stderr
    querying, received, line = described.lines
    assert (querying, received) == (
        "Querying brokers for log directories information",
        "Received log directory information from brokers 1,2,3",
    )
    import json

    partitions = [
        p for broker in json.loads(line)["brokers"] for d in broker["logDirs"] for p in d["partitions"]
    ]
    assert sorted(p["partition"] for p in partitions) == ["topics-led-0", "topics-led-0"]
    elected = invoke(
        "leader-election",
        "-b",
        b,
        "--election-type",
        "preferred",
        "--topic",
        "topics-led",
        "--partition",
        "0",
    )
    assert elected.code == 0, elected.stderr
    assert elected.lines in (
        ["Valid replica already elected for partitions topics-led-0"],
        ["Successfully completed leader election (PREFERRED) for partitions topics-led-0"],
    )
    dry = invoke("leader-election", "-b", b, "--election-type", "preferred", "--topic", "topics-led",
                 "--partition", "0", "--dry-run")  # fmt: skip
    assert dry.lines == [
        "Dry run: every partition of the scope is led by its preferred replica; nothing to elect."
    ]
