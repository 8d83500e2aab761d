"""The corpus lines of kafka-topics, kafka-log-dirs, kafka-leader-election and kafka-delete-records
(tests/kafka_diff/corpus.py registers them: import that module, which imports this one).

Every command line of these tools in Kafka 4.4's docs (docs/operations/*.md, docs/configuration/
topic-configs.md, docs/getting-started/quickstart.md, docs/streams/quickstart.md), their --help and
--version, their errors (each check of the tools' own, in their order), and their reads, run as
tests/kafka_diff/corpus.py describes. A line that creates, grows or deletes a topic reads the state
back with Kafka's tools (kafka-get-offsets for the partition count, kafka-topics for the topic line)
and undoes itself; the topics these lines make are `kt-*`, or the docs' own names.
"""

from __future__ import annotations

import json

from tests.kafka_diff.corpus import (
    NEWEST,
    OLDEST,
    OPS,
    OWN_HELP,
    OWN_VERSION,
    TIERED,
    TOPIC_CONFIGS,
    VERSIONS,
    WORDED_AS_4_4,
    Case,
    differs,
)

QUICKSTART = "docs/getting-started/quickstart.md"
STREAMS = "docs/streams/quickstart.md"
TOPICS = "bin/kafka-topics.sh --bootstrap-server localhost:9092"
LOG_DIRS = "bin/kafka-log-dirs.sh --bootstrap-server localhost:9092"
ELECT = "bin/kafka-leader-election.sh --bootstrap-server localhost:9092"
DELETE_RECORDS = "bin/kafka-delete-records.sh --bootstrap-server localhost:9092"

# ---------------------------------------------------------------------------------- reasons

TOPIC_IDS_DELETE = (
    "kcli deletes by --topic-id as well as by --topic (DeleteTopics v6); kafka-topics requires --topic "
    'for --delete (`Missing required argument "[topic]"`)'
)
ADMIN_CONFIG_DEPRECATED = (
    "given --admin.config, kcli says on stdout that it is deprecated (use --command-config), as "
    "kafka-leader-election does since 4.2; 4.0's tool, which has no --command-config, says nothing"
)
CHECKED_FIRST = (
    "kcli reads each partition's log start offset and high watermark before deleting and refuses the whole "
    "file, deleting nothing, when an offset is past the end (exit 1); kafka-delete-records sends it, prints "
    "`partition: X\terror: ...OffsetOutOfRangeException` for it and exits 0"
)


def _state(topic: str) -> tuple[str, ...]:
    """The state a topic change leaves, without the placement the controller picks at random: the
    partition count (kafka-get-offsets) and the topic line (count, replication factor, configs; on
    4.4 the cluster's min.insync.replicas is an override of every topic, so --topics-with-overrides
    always prints it; on 4.0 it does for a topic with configs of its own)."""
    return (
        f"bin/kafka-get-offsets.sh --bootstrap-server localhost:9092 --topic {topic}",
        f"{TOPICS} --describe --topic {topic} --topics-with-overrides",
    )


def _delete(topic: str) -> str:
    return f"{TOPICS} --delete --topic {topic} --if-exists"


def _create(topic: str, layout: str = "1") -> str:
    return f"{TOPICS} --create --topic {topic} --replica-assignment {layout}"


LISTED = (f"{TOPICS} --list",)

DOCS: list[Case] = [
    Case(
        "topics-configs-create-existing",
        f"{TOPICS} --create --topic my-topic --partitions 1 --replication-factor 1 --config max.message.bytes=64000 --config flush.messages=1",
        f"{TOPIC_CONFIGS}:32 (my-topic exists: both refuse it)",
        state=_state("my-topic"),
        versions=VERSIONS,
    ),
    Case(
        "topics-quickstart-create",
        "bin/kafka-topics.sh --create --topic quickstart-events --bootstrap-server localhost:9092",
        f"{QUICKSTART}:103",
        state=_state("quickstart-events"),
        undo=(_delete("quickstart-events"),),
        versions=VERSIONS,
    ),
    Case(
        "topics-quickstart-describe",
        "bin/kafka-topics.sh --describe --topic quickstart-events --bootstrap-server localhost:9092",
        f"{QUICKSTART}:109",
        setup=(_create("quickstart-events"),),
        cleanup=(_delete("quickstart-events"),),
        versions=VERSIONS,
    ),
    Case(
        "topics-ops-create-unknown-config",
        f"{TOPICS} --create --topic my_topic_name --partitions 20 --replication-factor 3 --config x=y",
        f"{OPS}:38",
        versions=VERSIONS,
    ),
    Case(
        "topics-ops-alter-partitions",
        f"{TOPICS} --alter --topic my_topic_name --partitions 40",
        f"{OPS}:57 (the topic has one partition; the undo makes it again as it was)",
        state=_state("my_topic_name"),
        undo=(_delete("my_topic_name"), _create("my_topic_name")),
        versions=VERSIONS,
    ),
    Case(
        "topics-ops-delete",
        f"{TOPICS} --delete --topic my_topic_name",
        f"{OPS}:95 (the undo makes it again as it was)",
        state=LISTED,
        undo=(_create("my_topic_name"),),
        versions=VERSIONS,
    ),
    Case(
        "election-ops-all",
        f"{ELECT} --election-type preferred --all-topic-partitions",
        f"{OPS}:129 (every partition led by its preferred replica: nothing to print)",
        setup=(f"{ELECT} --election-type preferred --all-topic-partitions",),
        versions=VERSIONS,
        differences=(differs("stdout", reason=ADMIN_CONFIG_DEPRECATED, versions=(OLDEST,)),),
    ),
    Case("topics-ops-describe-foo", f"{TOPICS} --topic foo --describe", f"{OPS}:644", versions=VERSIONS),
    Case(
        "topics-tiered-create-existing",
        "bin/kafka-topics.sh --create --topic tieredTopic --bootstrap-server localhost:9092 --config remote.storage.enable=true --config local.retention.ms=1000 --config retention.ms=3600000 --config segment.bytes=1048576 --config file.delete.delay.ms=1000",
        f"{TIERED}:114 (tieredTopic exists)",
        versions=VERSIONS,
    ),
    Case(
        "topics-tiered-delete",
        "bin/kafka-topics.sh --delete --topic tieredTopic --bootstrap-server localhost:9092",
        f"{TIERED}:165 (the undo makes it again on broker 2, as it was)",
        state=LISTED,
        undo=(_create("tieredTopic", "2"),),
    ),
    Case(
        "topics-streams-create-input",
        "bin/kafka-topics.sh --create --bootstrap-server localhost:9092 --replication-factor 1 --partitions 1 --topic streams-plaintext-input",
        f"{STREAMS}:97",
        state=_state("streams-plaintext-input"),
        undo=(_delete("streams-plaintext-input"),),
        versions=VERSIONS,
    ),
    Case(
        "topics-streams-create-compacted",
        "bin/kafka-topics.sh --create --bootstrap-server localhost:9092 --replication-factor 1 --partitions 1 --topic streams-wordcount-output --config cleanup.policy=compact",
        f"{STREAMS}:107",
        state=_state("streams-wordcount-output"),
        undo=(_delete("streams-wordcount-output"),),
        versions=VERSIONS,
    ),
    Case(
        "topics-streams-describe-exclude-internal",
        f"{TOPICS} --describe --exclude-internal",
        f"{STREAMS}:118",
        versions=VERSIONS,
    ),
]

HELP: list[Case] = [
    *[
        Case(
            f"help-{tool}",
            f"bin/kafka-{tool}.sh --help",
            "the tool's --help",
            versions=VERSIONS,
            differences=(differs("exit", "stdout", reason=OWN_HELP),),
        )
        for tool in ("topics", "log-dirs", "leader-election", "delete-records")
    ],
    *[
        Case(
            f"version-{tool}",
            f"bin/kafka-{tool}.sh --version",
            "the tool's --help: `--version  Display Kafka version.`",
            differences=(differs("stdout", reason=OWN_VERSION),),
        )
        for tool in ("topics", "log-dirs", "leader-election", "delete-records")
    ],
]

_ELECTION_FILES = {
    "duplicate.json": '{"partitions": [{"topic": "my-topic", "partition": 0}, {"topic": "my-topic", "partition": 0}]}',
    "broken.json": '{"partitions": [\n {"topic": "my-topic", "partition": 0,}]}',
    "no-partitions.json": '{"x": 1}',
    "no-topic.json": '{"partitions": [{"partition": 0}]}',
    "two.json": '{"partitions": [{"topic": "my-topic", "partition": 0}, {"topic": "my-topic", "partition": 1}]}',
    "empty.json": '{"partitions": []}',
}


def _offsets(*entries: tuple[str, int, int], version: int | None = 1) -> str:
    doc: dict[str, object] = {
        "partitions": [{"topic": t, "partition": p, "offset": o} for t, p, o in entries]
    }
    if version is not None:
        doc["version"] = version
    return json.dumps(doc)


_OFFSET_FILES = {
    "duplicate.json": _offsets(("my-topic", 0, 1), ("my-topic", 0, 2)),
    "broken.json": '{"partitions":\n[{"topic":"my-topic","partition":0,"offset":1}',
    "version-2.json": _offsets(("my-topic", 0, 1), version=2),
    "no-partitions.json": '{"version": 1}',
    "no-offset.json": '{"partitions": [{"topic": "my-topic", "partition": 0}]}',
    "to-20.json": _offsets(("kt-records", 0, 20)),
    "to-0.json": _offsets(("kt-records", 0, 0)),
    "beyond.json": _offsets(("kt-records", 0, 99999)),
    "all.json": _offsets(("kt-records", 0, -1), version=None),
}

# Not here: --alter with --config. kafka-topics names the options in the order of a Set.of(...), which
# each JVM iterates differently (`[[config], [bootstrap-server]]` or the reverse): no line can match it
# every run (tests/topics/test_topic_command.py checks kcli's words).
ERRORS: list[Case] = [
    *[
        Case(f"topics-error-{slug}", f"{TOPICS} {args}", "error case", versions=versions, differences=diffs)
        for slug, args, versions, diffs in [
            ("no-action", "--topic my-topic", VERSIONS, ()),
            ("two-actions", "--list --describe", (NEWEST,), ()),
            ("create-without-topic", "--create --partitions 1", (NEWEST,), ()),
            ("alter-without-partitions", "--alter --topic my-topic", (NEWEST,), ()),
            ("describe-with-partitions", "--describe --partitions 4", (NEWEST,), ()),
            ("list-if-exists", "--list --if-exists", (NEWEST,), ()),
            ("describe-if-exists-no-topic", "--describe --if-exists", (NEWEST,), ()),
            (
                "assignment-and-partitions",
                "--create --topic kt-x --partitions 2 --replica-assignment 1",
                (NEWEST,),
                (),
            ),
            (
                "reports-and-overrides",
                "--describe --under-replicated-partitions --topics-with-overrides",
                (NEWEST,),
                (),
            ),
            ("partitions-not-a-number", "--create --topic kt-x --partitions abc", (NEWEST,), ()),
            ("zero-partitions", "--create --topic kt-x --partitions 0", (NEWEST,), ()),
            ("zero-replication-factor", "--create --topic kt-x --replication-factor 0", (NEWEST,), ()),
            ("repeated-broker", "--create --topic kt-x --replica-assignment 1:1", (NEWEST,), ()),
            ("ragged-assignment", "--create --topic kt-x --replica-assignment 1:2,2", (NEWEST,), ()),
            ("config-without-value", "--create --topic kt-x --config retention.ms", (NEWEST,), ()),
            ("config-bad-value", "--create --topic kt-x --config retention.ms=abc", VERSIONS, ()),
            ("unknown-broker", "--create --topic kt-x --replica-assignment 1:9", VERSIONS, ()),
            ("existing-topic", "--create --topic foo --partitions 1", VERSIONS, ()),
            ("fewer-partitions", "--alter --topic foo --partitions 1", VERSIONS, ()),
            ("bad-topic-id", "--describe --topic-id abc", (NEWEST,), ()),
            ("unknown-topic-id", "--describe --topic-id AAAAAAAAAAAAAAAAAAAAAQ", (NEWEST,), ()),
            (
                "delete-unknown",
                "--delete --topic kt-no-such",
                VERSIONS,
                (differs("message", reason=WORDED_AS_4_4, versions=(OLDEST,)),),
            ),
            (
                "describe-unknown",
                "--describe --topic kt-no-such",
                VERSIONS,
                (differs("message", reason=WORDED_AS_4_4, versions=(OLDEST,)),),
            ),
            (
                "delete-by-id",
                "--delete --topic-id AAAAAAAAAAAAAAAAAAAAAQ",
                (NEWEST,),
                (differs("message", reason=TOPIC_IDS_DELETE),),
            ),
        ]
    ],
    Case(
        "topics-error-no-bootstrap",
        "bin/kafka-topics.sh --list",
        "error case: no bootstrap option",
        versions=VERSIONS,
    ),
    *[
        Case(f"log-dirs-error-{slug}", f"{LOG_DIRS} {args}", "error case", versions=VERSIONS)
        for slug, args in [
            ("no-describe", "--broker-list 1"),
            ("unknown-broker", "--describe --broker-list 1,9"),
            ("broker-not-a-number", "--describe --broker-list x"),
        ]
    ],
    *[
        Case(
            f"election-error-{slug}",
            f"{ELECT} {args}",
            "error case",
            versions=versions,
            files=_ELECTION_FILES,
        )
        for slug, args, versions in [
            ("no-type", "--topic my-topic --partition 0", VERSIONS),
            ("bad-type", "--election-type bogus --topic my-topic --partition 0", (NEWEST,)),
            ("topic-without-partition", "--election-type preferred --topic my-topic", (NEWEST,)),
            ("no-scope", "--election-type preferred", (NEWEST,)),
            (
                "two-scopes",
                "--election-type preferred --topic my-topic --partition 0 --all-topic-partitions",
                (NEWEST,),
            ),
            (
                "partition-without-topic",
                "--election-type preferred --all-topic-partitions --partition 0",
                (NEWEST,),
            ),
            ("duplicate", "--election-type preferred --path-to-json-file {files}/duplicate.json", (NEWEST,)),
            ("broken-json", "--election-type preferred --path-to-json-file {files}/broken.json", VERSIONS),
            (
                "no-partitions",
                "--election-type preferred --path-to-json-file {files}/no-partitions.json",
                (NEWEST,),
            ),
            ("no-topic", "--election-type preferred --path-to-json-file {files}/no-topic.json", (NEWEST,)),
        ]
    ],
    Case(
        "election-error-unknown-partition",
        f"{ELECT} --election-type preferred --topic my-topic --partition 7",
        "error case: a partition the topic does not have",
        versions=VERSIONS,
        differences=(differs("stdout", reason=ADMIN_CONFIG_DEPRECATED, versions=(OLDEST,)),),
    ),
    *[
        Case(
            f"records-error-{slug}",
            f"{DELETE_RECORDS} {args}",
            "error case",
            versions=versions,
            files=_OFFSET_FILES,
        )
        for slug, args, versions in [
            ("no-file", "", (NEWEST,)),
            ("duplicate", "--offset-json-file {files}/duplicate.json", (NEWEST,)),
            ("broken-json", "--offset-json-file {files}/broken.json", VERSIONS),
            ("version-2", "--offset-json-file {files}/version-2.json", (NEWEST,)),
            ("no-partitions", "--offset-json-file {files}/no-partitions.json", (NEWEST,)),
            ("no-offset", "--offset-json-file {files}/no-offset.json", (NEWEST,)),
        ]
    ],
]

_RECORDS_SETUP = (
    _create("kt-records"),
    "bin/kafka-producer-perf-test.sh --bootstrap-server localhost:9092 --topic kt-records --num-records 100 "
    "--record-size 100 --throughput -1",
)
_EARLIEST = ("bin/kafka-get-offsets.sh --bootstrap-server localhost:9092 --topic kt-records --time -2",)

READS: list[Case] = [
    *[
        Case(f"topics-read-{slug}", f"{TOPICS} {args}", "read-only tool line", versions=versions)
        for slug, args, versions in [
            ("list", "--list", VERSIONS),
            ("list-exclude-internal", "--list --exclude-internal", (NEWEST,)),
            ("list-regex", "--list --topic 'foo.*'", (NEWEST,)),
            ("describe-my-topic", "--describe --topic my-topic", VERSIONS),
            ("describe-under-replicated", "--describe --under-replicated-partitions", (NEWEST,)),
            ("describe-with-overrides", "--describe --topics-with-overrides", (NEWEST,)),
            (
                "describe-page-of-one",
                "--describe --topic my-topic --partition-size-limit-per-response 1",
                (NEWEST,),
            ),
            (
                "describe-zero-topic-id",
                "--describe --topic-id AAAAAAAAAAAAAAAAAAAAAA --exclude-internal",
                (NEWEST,),
            ),
            ("create-existing-if-not-exists", "--create --topic foo --if-not-exists", (NEWEST,)),
            ("delete-unknown-if-exists", "--delete --topic kt-no-such --if-exists", (NEWEST,)),
        ]
    ],
    *[
        Case(f"log-dirs-read-{slug}", f"{LOG_DIRS} {args}", "read-only tool line", versions=VERSIONS)
        for slug, args in [
            ("describe", "--describe"),
            ("brokers-and-topics", "--describe --broker-list 1 --topic-list my-topic,foo"),
        ]
    ],
    *[
        Case(
            f"election-read-{slug}",
            f"{ELECT} {args}",
            "read-only tool line (the setup elects first: nothing left to elect)",
            setup=(f"{ELECT} --election-type preferred --all-topic-partitions",),
            files=_ELECTION_FILES,
            versions=versions,
            differences=(differs("stdout", reason=ADMIN_CONFIG_DEPRECATED, versions=(OLDEST,)),)
            if OLDEST in versions
            else (),
        )
        for slug, args, versions in [
            ("one-partition", "--election-type preferred --topic my-topic --partition 0", VERSIONS),
            ("file", "--election-type PREFERRED --path-to-json-file {files}/two.json", (NEWEST,)),
        ]
    ],
    *[
        Case(f"election-read-{slug}", f"{ELECT} {args}", "read-only tool line", files=_ELECTION_FILES)
        for slug, args in [
            ("empty-file", "--election-type preferred --path-to-json-file {files}/empty.json"),
            ("unclean-with-a-leader", "--election-type unclean --topic my-topic --partition 0"),
        ]
    ],
    Case(
        "records-delete-to-20",
        f"{DELETE_RECORDS} --offset-json-file {{files}}/to-20.json",
        "the tool's --help format: 100 records, the first 20 deleted (kcli then deletes below 20 again: nothing)",
        setup=_RECORDS_SETUP,
        state=_EARLIEST,
        cleanup=(_delete("kt-records"),),
        files=_OFFSET_FILES,
        restorable=False,
    ),
    Case(
        "records-delete-to-0-empty",
        f"{DELETE_RECORDS} --offset-json-file {{files}}/to-0.json",
        "an empty partition: nothing to delete (4.0.2's perf test cannot write records here: no --bootstrap-server)",
        setup=(_create("kt-records"),),
        state=_EARLIEST,
        cleanup=(_delete("kt-records"),),
        files=_OFFSET_FILES,
        versions=(OLDEST,),
    ),
    Case(
        "records-delete-beyond-end",
        f"{DELETE_RECORDS} --offset-json-file {{files}}/beyond.json",
        "bad input: an offset past the end (Kafka's tool prints an error line and exits 0; kcli deletes nothing)",
        setup=(_create("kt-records"),),
        state=_EARLIEST,
        cleanup=(_delete("kt-records"),),
        files=_OFFSET_FILES,
        differences=(differs("exit", "stdout", reason=CHECKED_FIRST),),
    ),
]

TOPIC_TOOL_CASES: list[Case] = [*DOCS, *HELP, *ERRORS, *READS]
