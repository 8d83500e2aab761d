"""The differential cases of the group and offset tools: kafka-consumer-groups, kafka-groups,
kafka-share-groups, kafka-streams-groups and kafka-get-offsets (see tests/kafka_diff/corpus.py for
how a case runs and is judged).

The lines are every command line of those tools in Kafka 4.4's docs (docs/operations/
basic-kafka-operations.md, docs/streams/developer-guide/kafka-streams-group-sh.md), the examples
of their --help, and the error lines an operator hits. They run on groups made once per target by
Kafka's own ConsoleConsumer and by librdkafka members (tests/kafka_diff/group_state.py): the docs'
`my-group` and `my-other-group`, an active group of each protocol.
"""

from __future__ import annotations

from tests.kafka_diff.corpus import OLDEST, VERSIONS, Case, differs

TOOLS = ("consumer-groups", "groups", "get-offsets", "share-groups", "streams-groups")
GROUP_TOPIC = "topic1"
RECORDS = 300
TOPICS: dict[str, list[list[int]]] = {GROUP_TOPIC: [[1, 2], [2, 3], [3, 1]]}
# group -> (protocol, records its ConsoleConsumer reads before it commits and leaves, then the
# offsets of topic1's partitions 0, 1, 2 that group_state sets, so that every run sees the same ones)
CONSOLE_GROUPS: dict[str, tuple[str, int, tuple[int, int, int]]] = {
    "my-group": ("classic", 100, (10, 20, 30)),
    "my-other-group": ("consumer", 150, (5, 15, 25)),
    "test-consumer-group": ("classic", 300, (40, 50, 60)),
}
# group -> protocol of the librdkafka member that keeps it Stable for the session
ACTIVE_GROUPS: dict[str, str] = {"cg-active-classic": "classic", "cg-active-848": "consumer"}
SHARE_GROUP = "my-share-group"

OPS = "docs/operations/basic-kafka-operations.md"
HELP = "the tool's --help"
CG = "bin/kafka-consumer-groups.sh --bootstrap-server localhost:9092"
GET = "bin/kafka-get-offsets.sh --bootstrap-server localhost:9092"
GROUPS = "bin/kafka-groups.sh --bootstrap-server localhost:9092"
DESCRIBE_MY_GROUP = f"{CG} --describe --group my-group"
DESCRIBE_BOTH = f"{CG} --describe --group my-group --group my-other-group"

# ---------------------------------------------------------------------------------- reasons

CHECKED_AS_4_4 = (
    "kcli checks this as Kafka 4.4's tool does (before it connects, so whatever the cluster's release); "
    "Kafka 4.0's tool accepted it"
)
PARTITIONS_CHECKED = (
    "kcli refuses a partition that does not exist at once, as Kafka 4.2+ does; Kafka 4.0 waits for a "
    "leader of it until --timeout runs out, then fails with a TimeoutException"
)
FAILS_WITH_EXIT_1 = (
    "a failed group operation is one `Error:` line on stderr and exit 1; kafka-consumer-groups prints "
    "`Error: ...` on stdout (a stack trace on stderr) and exits 0, so a script cannot see the failure"
)
PAST_THE_END_REFUSED = (
    "kcli refuses a --to-offset or --from-file offset past the partition's log end offset (one line, "
    "nothing changed); Kafka sets the log end offset instead, with a warning in its log"
)
NOTICES_ON_STDERR = (
    "kcli prints the `Warn: Partition N from topic T is empty. Falling back to latest known offset.` "
    "notices on stderr (stdout is for data); Kafka prints them on stdout, between blank lines"
)
OWN_HELP = (
    "--help prints kcli's own help on stdout and exits 0 (the jopt-simple tools print theirs on stderr "
    "and exit 1)"
)
WORDED_AS_4_4 = "kcli words this message as Kafka 4.4 does; 4.0 words it differently"


def restore(group: str) -> tuple[str, ...]:
    """Kafka tool lines that give `group` its offsets again (a deleted group comes back, Empty)."""
    offsets = CONSOLE_GROUPS[group][2]
    return tuple(
        f"{CG} --reset-offsets --group {group} --topic {GROUP_TOPIC}:{partition} --to-offset {offset} --execute"
        for partition, offset in enumerate(offsets)
    )


def _cg(case_id: str, args: str, source: str = HELP, **extra: object) -> Case:
    return Case(f"cg-{case_id}", f"{CG} {args}", source, **extra)  # type: ignore[arg-type]


# ---- the docs (docs/operations/basic-kafka-operations.md)

DOCS: list[Case] = [
    Case("ops-cg-describe", DESCRIBE_MY_GROUP, f"{OPS}:157", versions=VERSIONS),
    Case(
        "ops-groups-list",
        f"{GROUPS} --list",
        f"{OPS}:169",
        versions=VERSIONS,
    ),
    Case(
        "ops-cg-list",
        f"{CG} --list",
        f"{OPS}:180",
        versions=VERSIONS,
    ),
    Case("ops-cg-describe-offsets", DESCRIBE_MY_GROUP, f"{OPS}:187", versions=VERSIONS),
    Case("ops-cg-describe-members", f"{DESCRIBE_MY_GROUP} --members", f"{OPS}:202", versions=VERSIONS),
    Case(
        "ops-cg-describe-members-verbose",
        f"{DESCRIBE_MY_GROUP} --members --verbose",
        f"{OPS}:213",
        versions=VERSIONS,
    ),
    Case("ops-cg-describe-state", f"{DESCRIBE_MY_GROUP} --state", f"{OPS}:225", versions=VERSIONS),
    Case(
        "ops-cg-delete",
        f"{CG} --delete --group my-group --group my-other-group",
        f"{OPS}:234",
        state=(DESCRIBE_BOTH,),
        undo=(*restore("my-group"), *restore("my-other-group")),
        versions=VERSIONS,
    ),
    Case(
        "ops-cg-reset-to-latest",
        f"{CG} --reset-offsets --group my-group --topic topic1 --to-latest",
        f"{OPS}:264 (no --execute: a dry run)",
        state=(DESCRIBE_MY_GROUP,),
        versions=VERSIONS,
    ),
    Case(
        "ops-cg-reset-export",
        f"{CG} --reset-offsets --group my-group --all-topics --to-current --dry-run --export",
        f"{OPS}:342 (stdout is the CSV the docs redirect to FILE.CSV)",
        versions=VERSIONS,
    ),
]

# ---- reads: every view of each kind of group, both releases

_GROUP_KINDS = ("my-group", "my-other-group", "cg-active-classic", "cg-active-848")
READS: list[Case] = [
    *[
        _cg(
            f"describe-{view.strip('-').replace(' --', '-') or 'default'}-{group}",
            f"--describe --group {group} {view}".rstrip(),
            "read-only tool line",
            versions=VERSIONS,
        )
        for group in _GROUP_KINDS
        for view in (
            "",
            "--offsets",
            "--verbose",
            "--members",
            "--members --verbose",
            "--state",
            "--state --verbose",
        )
    ],
    _cg("describe-two-groups", "--describe --group my-group --group test-consumer-group", versions=VERSIONS),
    _cg("describe-all-groups-state", "--describe --all-groups --state", versions=VERSIONS),
    _cg("describe-all-groups-members", "--describe --all-groups --members", versions=VERSIONS),
    _cg("describe-all-groups", "--describe --all-groups", versions=VERSIONS),
    *[
        _cg(
            f"list-{slug}",
            f"--list {args}",
            versions=VERSIONS,
        )
        for slug, args in [
            ("state", "--state"),
            ("type", "--type"),
            ("state-type", "--state --type"),
            ("state-stable-empty", "--state stable,empty"),
            ("type-classic-consumer", "--type classic,consumer"),
            ("type-consumer", "--type consumer"),
            ("state-empty", "--state Empty"),
        ]
    ],
    _cg(
        "list-state-stable",
        "--list --state stable",
        versions=VERSIONS,
    ),
    _cg("validate-regex", "--validate-regex 'topic.*'", versions=VERSIONS),
    _cg(
        "validate-regex-bad",
        "--validate-regex 'topic(.*'",
        versions=VERSIONS,
        differences=(
            differs(
                "stdout",
                reason="kcli checks the syntax with Python's re, whose error words differ from RE2's",
            ),
        ),
    ),
    *[
        Case(f"get-offsets-{slug}", f"{GET} {args}", HELP, versions=VERSIONS)
        for slug, args in [
            ("topic", f"--topic {GROUP_TOPIC}"),
            ("earliest", f"--topic {GROUP_TOPIC} --time earliest"),
            ("minus-2", f"--topic {GROUP_TOPIC} --time -2"),
            ("max-timestamp", f"--topic {GROUP_TOPIC} --time max-timestamp"),
            ("timestamp-0", f"--topic {GROUP_TOPIC} --time 0"),
            ("future", f"--topic {GROUP_TOPIC} --time 99999999999999"),
            ("partitions", f"--topic {GROUP_TOPIC} --partitions 0,2"),
            ("topic-partitions", "--topic-partitions topic1:0,my-topic:1-3,foo"),
            ("topic-partitions-ranges", "--topic-partitions 'topic1:1-,my-topic:-2'"),
            ("topic-partitions-any-topic", "--topic-partitions :0"),
            ("regex", "--topic 'topic.*|foo'"),
            ("exclude-internal", "--exclude-internal-topics"),
        ]
    ],
    *[
        Case(
            f"groups-{slug}",
            f"{GROUPS} --list {args}",
            HELP,
            versions=VERSIONS,
        )
        for slug, args in [
            ("consumer", "--consumer"),
            ("protocol-consumer", "--protocol consumer"),
            ("group-type-classic", "--group-type classic"),
            ("group-type-consumer", "--group-type Consumer"),
        ]
    ],
    Case("groups-share", f"{GROUPS} --list --share", HELP, versions=VERSIONS),
    Case("groups-streams", f"{GROUPS} --list --streams", f"{HELP} (4.4: --streams came with 4.1)"),
]

# ---- changes (dry runs read only; --execute and deletions are undone)

_RESET = "--reset-offsets --group my-group"
CHANGES: list[Case] = [
    *[
        _cg(
            f"reset-{slug}",
            f"{_RESET} {args}",
            state=(DESCRIBE_MY_GROUP,),
            versions=VERSIONS,
            differences=differences,
        )
        for slug, args, differences in [
            ("earliest", "--topic topic1 --to-earliest", ()),
            ("latest-dry-run", "--topic topic1 --to-latest --dry-run", ()),
            ("current-all-topics", "--all-topics --to-current", ()),
            ("shift-back", "--topic topic1:0,2 --shift-by -5", ()),
            ("shift-past-the-end", "--topic topic1:1 --shift-by 100000", ()),
            ("to-offset", "--topic topic1:0 --to-offset 3", ()),
            (
                "to-offset-past-the-end",
                "--topic topic1 --to-offset 100000",
                (differs("exit", "stdout", reason=PAST_THE_END_REFUSED),),
            ),
            ("datetime-past", "--topic topic1 --to-datetime 2020-01-01T00:00:00.000", ()),
            (
                "datetime-future",
                "--topic topic1 --to-datetime 2999-01-01T00:00:00.000+01:00",
                (differs("stdout", reason=NOTICES_ON_STDERR),),
            ),
            ("duration", "--topic topic1 --by-duration PT0S", (differs("stdout", reason=NOTICES_ON_STDERR),)),
            ("export", "--topic topic1 --to-earliest --export", ()),
            ("two-groups-export", "--group my-other-group --topic topic1 --to-latest --export", ()),
        ]
    ],
    _cg(
        "reset-new-group", "--reset-offsets --group cg-fresh --topic topic1:0 --to-latest", versions=VERSIONS
    ),
    _cg(
        "reset-active",
        "--reset-offsets --group cg-active-classic --topic topic1 --to-earliest",
        versions=VERSIONS,
        state=(f"{CG} --describe --group cg-active-classic",),
        differences=(differs("exit", reason=FAILS_WITH_EXIT_1),),
    ),
    _cg(
        "reset-active-848",
        "--reset-offsets --group cg-active-848 --all-topics --to-latest --execute",
        versions=VERSIONS,
        state=(f"{CG} --describe --group cg-active-848",),
        differences=(differs("exit", reason=FAILS_WITH_EXIT_1),),
    ),
    _cg(
        "reset-execute-earliest",
        f"{_RESET} --topic topic1 --to-earliest --execute",
        state=(DESCRIBE_MY_GROUP,),
        undo=restore("my-group"),
        versions=VERSIONS,
    ),
    _cg(
        "reset-execute-from-file",
        f"{_RESET} --from-file {{files}}/plan.csv --execute",
        state=(DESCRIBE_MY_GROUP,),
        undo=restore("my-group"),
        versions=VERSIONS,
        files={"plan.csv": "topic1,0,7\ntopic1,2,9\n"},
    ),
    _cg(
        "reset-from-file-groups",
        "--reset-offsets --group my-group --group my-other-group --from-file {files}/plan.csv",
        versions=VERSIONS,
        files={"plan.csv": "my-group,topic1,1,3\nmy-other-group,topic1,0,2\n"},
    ),
    _cg(
        "delete-offsets",
        "--delete-offsets --group my-group --topic topic1:1",
        state=(DESCRIBE_MY_GROUP,),
        undo=restore("my-group"),
        versions=VERSIONS,
    ),
    _cg(
        "delete-offsets-topic",
        "--delete-offsets --group my-group --topic topic1",
        state=(DESCRIBE_MY_GROUP,),
        undo=restore("my-group"),
        versions=VERSIONS,
    ),
    _cg(
        "delete-offsets-active",
        "--delete-offsets --group cg-active-classic --topic topic1",
        versions=VERSIONS,
        state=(f"{CG} --describe --group cg-active-classic",),
        differences=(differs("exit", reason=FAILS_WITH_EXIT_1),),
    ),
    _cg(
        "delete-offsets-unknown-topic",
        "--delete-offsets --group my-group --topic no-such-topic",
        versions=VERSIONS,
        state=(DESCRIBE_MY_GROUP,),
        differences=(differs("exit", reason=FAILS_WITH_EXIT_1),),
    ),
    _cg(
        "delete-one",
        "--delete --group test-consumer-group",
        state=(f"{CG} --describe --group test-consumer-group",),
        undo=restore("test-consumer-group"),
        versions=VERSIONS,
    ),
    _cg(
        "delete-active",
        "--delete --group cg-active-classic",
        versions=VERSIONS,
        state=(f"{CG} --describe --group cg-active-classic",),
        differences=(differs("exit", reason=FAILS_WITH_EXIT_1),),
    ),
    _cg(
        "delete-unknown",
        "--delete --group no-such-group",
        versions=VERSIONS,
        differences=(differs("exit", reason=FAILS_WITH_EXIT_1),),
    ),
]

# ---- errors: each check of ConsumerGroupCommandOptions, and bad input

ERRORS: list[Case] = [
    *[
        _cg(f"error-{slug}", args, "error case", versions=VERSIONS, differences=differences)
        for slug, args, differences in [
            ("no-action", "", ()),
            ("two-actions", "--list --describe --group my-group", ()),
            ("describe-no-group", "--describe", ()),
            ("describe-two-views", "--describe --group my-group --members --state", ()),
            ("describe-state-value", "--describe --group my-group --state Stable", ()),
            ("delete-no-group", "--delete", ()),
            ("delete-with-topic", "--delete --group my-group --topic topic1", ()),
            ("delete-offsets-no-topic", "--delete-offsets --group my-group", ()),
            ("reset-dry-run-and-execute", f"{_RESET} --topic topic1 --to-earliest --dry-run --execute", ()),
            ("reset-no-group", "--reset-offsets --topic topic1 --to-earliest", ()),
            ("reset-two-specs", f"{_RESET} --topic topic1 --to-earliest --to-latest", ()),
            ("reset-no-spec", f"{_RESET} --topic topic1", ()),
            ("reset-no-scope", f"{_RESET} --to-earliest", ()),
            ("group-and-all-groups", "--describe --group my-group --all-groups", ()),
            ("list-with-group", "--list --group my-group", ()),
            ("describe-with-topic", "--describe --group my-group --topic topic1", ()),
            ("members-without-describe", "--list --members", ()),
            ("type-with-describe", "--describe --group my-group --type", ()),
            ("bad-state", "--list --state bogus", ()),
            (
                "bad-type",
                "--list --type share",
                (differs("exit", "stdout", reason=CHECKED_AS_4_4, versions=(OLDEST,)),),
            ),
            (
                "describe-unknown-group",
                "--describe --group no-such-group",
                (differs("exit", reason=FAILS_WITH_EXIT_1),),
            ),
            (
                "reset-unknown-partition",
                f"{_RESET} --topic topic1:7 --to-earliest",
                (
                    differs("exit", reason=FAILS_WITH_EXIT_1),
                    differs("message", reason=PARTITIONS_CHECKED, versions=(OLDEST,)),
                ),
            ),
            (
                "reset-unknown-topic",
                f"{_RESET} --topic no-such-topic --to-earliest",
                (differs("exit", reason=FAILS_WITH_EXIT_1),),
            ),
            ("reset-bad-partition", f"{_RESET} --topic topic1:x --to-earliest", ()),
            (
                "reset-bad-datetime",
                f"{_RESET} --topic topic1 --to-datetime 2020-13-01",
                (differs("exit", reason=FAILS_WITH_EXIT_1),),
            ),
            (
                "reset-bad-duration",
                f"{_RESET} --topic topic1 --by-duration 1h",
                (differs("exit", reason=FAILS_WITH_EXIT_1),),
            ),
            (
                "reset-bad-offset",
                f"{_RESET} --topic topic1 --to-offset ten",
                (differs("exit", reason=FAILS_WITH_EXIT_1),),
            ),
            ("shift-without-offset", "--reset-offsets --group cg-fresh --topic topic1 --shift-by 1", ()),
        ]
    ],
    *[
        Case(
            f"get-offsets-error-{slug}",
            f"{GET} {args}",
            "error case",
            versions=VERSIONS,
            differences=differences,
        )
        for slug, args, differences in [
            ("unknown-topic", "--topic no-such-topic", ()),
            ("bad-partitions", f"--topic {GROUP_TOPIC} --partitions one", ()),
            (
                "bad-time",
                f"--topic {GROUP_TOPIC} --time yesterday",
                (differs("message", reason=WORDED_AS_4_4, versions=(OLDEST,)),),
            ),
            ("topic-and-topic-partitions", f"--topic {GROUP_TOPIC} --topic-partitions {GROUP_TOPIC}:0", ()),
        ]
    ],
    *[
        Case(f"groups-error-{slug}", f"{GROUPS} {args}", "error case", versions=VERSIONS)
        for slug, args in [
            ("no-action", ""),
            ("bad-type", "--list --group-type bogus"),
            ("consumer-and-share", "--list --consumer --share"),
            ("share-and-protocol", "--list --share --protocol consumer"),
        ]
    ],
]

HELPS: list[Case] = [
    *[
        Case(
            f"help-{tool}",
            f"bin/kafka-{tool}.sh --help",
            HELP,
            versions=VERSIONS,
            differences=(differs("exit", "stdout", reason=OWN_HELP),),
        )
        for tool in ("consumer-groups", "groups", "get-offsets")
    ],
]

CASES: list[Case] = [*DOCS, *READS, *CHANGES, *ERRORS, *HELPS]
