"""The command lines kcli and Kafka's own tools are compared on: data, read without running anything.

Each case is one command line as its source writes it (`bin/kafka-configs.sh --bootstrap-server
localhost:9092 ...`), taken as a fact from Kafka 4.4's operations and security docs
(docs/operations/*.md, docs/security/*.md, docs/configuration/*.md, docs/getting-started/*.md in the
4.4 branch), from the tools' own --help, or written here as an error case. When a case runs:
- `localhost:9092` becomes the cluster's brokers, `localhost:9093` its controllers, and
  `client.properties` (and, where the line names none, a `--command-config` after the bootstrap
  option; `-c` for kafka-cluster, whose 4.0 release has no --command-config) the client settings
  both tools use; `{files}/NAME` a file the case writes first (`files`);
- `setup` lines (Kafka's tools) run first and `cleanup` lines last; `state` lists Kafka tool lines
  whose output is the cluster state the command changes; `undo` lists Kafka tool lines that put it
  back, so kcli starts from the state Kafka's tool started from (checked after kcli's run and undo).
A case runs on Kafka 4.4.0 unless `versions` says otherwise; where the tools' output changed between
releases it runs on 4.0.2 too, with that release's tools.

A `Difference` is one the suite expects, in named aspects (tests/kafka_diff/compare.py): documented
(kcli differs on purpose: docs/parity.md lists the reason) or `not_yet` (a difference kcli should not
have; the case is an expected failure until it is fixed, and fails once it no longer differs).
"""

from __future__ import annotations

import hashlib
import json
import shlex
from collections.abc import Mapping
from dataclasses import dataclass, field

NEWEST, OLDEST = "4.4.0", "4.0.2"
VERSIONS = (OLDEST, NEWEST)
TOOLS = (
    "acls", "cluster", "configs", "features", "metadata-quorum", "reassign-partitions",
    "consumer-groups", "groups", "get-offsets", "share-groups", "streams-groups",
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class Difference:
    """An expected difference: the aspects it covers, why, and whether it is deliberate."""

    aspects: frozenset[str]
    reason: str
    not_yet: bool = False
    versions: frozenset[str] = frozenset(VERSIONS)


@dataclass(frozen=True, slots=True)
class Case:
    id: str
    line: str
    source: str
    state: tuple[str, ...] = ()
    undo: tuple[str, ...] = ()
    setup: tuple[str, ...] = ()
    cleanup: tuple[str, ...] = ()
    restorable: bool = True  # False: no undo can restore the state exactly (both runs still compared)
    placeholder_addresses: bool = (
        False  # its addresses stand for "a cluster": both runs get one where nothing listens
    )
    versions: tuple[str, ...] = (NEWEST,)
    files: Mapping[str, str] = field(default_factory=dict)
    differences: tuple[Difference, ...] = ()

    @property
    def argv(self) -> list[str]:
        return shlex.split(self.line)

    @property
    def tool(self) -> str:
        """`configs` for `bin/kafka-configs.sh ...`."""
        program = self.argv[0].rsplit("/", 1)[-1]
        return program.removeprefix("kafka-").removesuffix(".sh")

    def expected(self, version: str) -> tuple[Difference, ...]:
        return tuple(d for d in self.differences if version in d.versions)


def differs(*aspects: str, reason: str, versions: tuple[str, ...] = VERSIONS) -> Difference:
    return Difference(frozenset(aspects), reason, versions=frozenset(versions))


def not_yet(*aspects: str, reason: str, versions: tuple[str, ...] = VERSIONS) -> Difference:
    return Difference(frozenset(aspects), reason, not_yet=True, versions=frozenset(versions))


# ---------------------------------------------------------------------------------- reasons

ONE_LINE_ERRORS = (
    "kcli reports a failure as one line on stderr (what, where, the Kafka error name, what to do); "
    "Kafka's tools print their usage text, a stack trace, or a client exception's wording"
)
ORDER_SORTED = (
    "kcli lists entities, quota keys and SCRAM users sorted by name; Kafka's tools print them in the "
    "iteration order of a Java HashMap or of the answering broker, which no runbook can rely on"
)
OWN_HELP = (
    "--help prints kcli's own help on stdout and exits 0 (the jopt-simple tools print theirs on stderr "
    "and exit 1; kafka-cluster exits 1 too)"
)
UNKNOWN_BROKER_AT_ONCE = (
    "a broker id the cluster does not have is refused at once, naming the brokers it has; Kafka's Admin "
    "client waits default.api.timeout.ms for a node that never comes and reports a timeout"
)
UNKNOWN_BROKER_NO_TRACE = (
    "an unknown broker id in a reassignment is one error line; kafka-reassign-partitions prints "
    "the same words after `Error: ` with a stack trace"
)
ACL_CONFIRM_WITHOUT_TTY = (
    "without a terminal kcli refuses --remove without --force (exit 2) instead of prompting; "
    "kafka-acls reads its answer from System.console(), which is null without a terminal (a "
    "NullPointerException, exit 1)"
)
DELETE_ABSENT_KEY = (
    "Kafka 4.3+ treats --delete-config of a key that is not set as a no-op (KAFKA-19880); kcli still "
    "refuses it as 4.0-4.2 did (`Invalid config(s)`); the check lives in kcli/ops/config_model.py "
    "(check_deletes) and kcli/workflows/configs.py (quotas) and should follow the answering broker's release"
)
CONTROLLER_BROKER_LOOKUP = (
    "with --bootstrap-controller, Kafka 4.4 checks a broker or broker-logger name against the nodes "
    "DescribeCluster returns (the controllers) and prints `The broker 'N' doesn't exist and doesn't "
    "have dynamic config.`; kcli skips that check through controllers (kcli/workflows/configs.py "
    "_not_existing) and fails on the routing instead"
)
RF_GUARD = (
    "kcli refuses a reassignment that changes a partition's replication factor unless "
    "--allow-replication-factor-change is given; kafka-reassign-partitions does it"
)
MISSING_NEWLINE = (
    "kcli ends the `None of the specified partition moves are active.` line; Kafka prints it without a "
    "newline, so its next line (`Clearing broker-level throttles on ...`) is glued to it"
)
USABLE_IS_KCLIS = (
    "`[usable: N]` is the version kcli itself would send (kio's newest), which for TxnOffsetCommit, "
    "DeleteGroups and the streams-group APIs is older than Kafka 4.4's client; an API kcli cannot send "
    "(StreamsGroupTopologyDescriptionUpdate) has no `[usable]` part"
)
ACL_NOTHING_TO_CONFIRM = (
    "with nothing matching, kcli has nothing to confirm and exits 0 without --force; kafka-acls asks "
    "first (and, without a terminal, fails on the null System.console())"
)
DOESNT_EXIST_4_1 = (
    "kcli says a broker or topic that does not exist `doesn't exist and doesn't have dynamic config` "
    "(exit 0), as kafka-configs does since 4.1; 4.0 prints the header, then fails on the describe"
)
NO_BOOTSTRAP_NEEDED = (
    "version-mapping and feature-dependencies answer from kcli's feature catalogue without a cluster, "
    "as kafka-features does since 4.3; 4.0-4.2 require a bootstrap option"
)
WORDED_AS_4_4 = "kcli words this message as Kafka 4.4 does; 4.0 words it differently"
SCALA_SET = (
    "Kafka 4.0's Scala kafka-configs prints the names as a Scala `Set(...)`; kcli as 4.4 (plain names)"
)
UNKNOWN_BROKERS_NAMED = (
    "kcli refuses a --broker-list that names no broker of the cluster by saying which brokers exist; "
    "Kafka's tool fails later, in the replica placement (4.4: `All brokers are currently fenced, or "
    "have all their log directories cordoned.`; 4.0: `Replication factor: 1 larger than available "
    "brokers: 0.`)"
)
ROLLBACK_FILE = (
    "kcli also writes the rollback JSON to a file and says where, in one more line after `Save this "
    "to use as the --reassignment-json-file option during rollback`"
)
OWN_VERSION = "--version prints kcli's version (`kcli X (kio Y, Python Z)`), not a Kafka release"
ACL_OPERATIONS_NAMED = (
    "kcli lists the operations a resource type supports as --operation spells them, in a fixed order; "
    "Kafka prints a Java set of enum names, in hash order"
)
MISSING_PARTITIONS = (
    "a reassignment file without a `partitions` array is refused as malformed JSON (what is missing, in "
    "which file); Kafka reads it as an empty list: `Partition reassignment list cannot be empty`"
)
UNKNOWN_TOPIC_ON_ALTER = (
    "altering a topic that does not exist: Kafka 4.4 reports the controller's `The topic 'X' does not "
    "exist.`; kcli reads the topic's configs first (kcli/workflows/configs.py) and reports that "
    "DescribeConfigs error (UNKNOWN_TOPIC_OR_PARTITION) instead"
)
MV_LIST_4_4 = (
    "Kafka 4.4 quotes the version and lists every metadata.version name up to the unstable 4.5-IV0 "
    "(`Unknown metadata.version 'X'. Supported metadata.version are: ...`); kcli keeps 4.0-4.3's sentence "
    "(`Unknown release version 'X'. Supported versions are: 3.3-IV3 to 4.4-IV2`), the one Kafka's ported "
    "FeatureCommandTest asserts (kcli/ops/features.py version_mapping)"
)

# ---------------------------------------------------------------------------------- helpers

TOPIC_CONFIG = (
    "bin/kafka-configs.sh --bootstrap-server localhost:9092 --describe --entity-type topics --entity-name {}"
)
BROKER_CONFIG = (
    "bin/kafka-configs.sh --bootstrap-server localhost:9092 --describe --entity-type brokers --entity-name {}"
)
BROKER_DEFAULTS = (
    "bin/kafka-configs.sh --bootstrap-server localhost:9092 --describe --entity-type brokers --entity-default"
)
GROUP_CONFIG = (
    "bin/kafka-configs.sh --bootstrap-server localhost:9092 --describe --entity-type groups --entity-name {}"
)
ACLS = "bin/kafka-acls.sh --bootstrap-server localhost:9092 --list"
FEATURES = "bin/kafka-features.sh --bootstrap-server localhost:9092 describe"
ASSIGNMENT = "bin/kafka-topics.sh --bootstrap-server localhost:9092 --describe --topic {}"


def quotas(*entity: str) -> str:
    return "bin/kafka-configs.sh --bootstrap-server localhost:9092 --describe " + " ".join(entity)


def unset_config(kind: str, name: str, keys: str) -> str:
    target = "--entity-default" if name == "" else f"--entity-name {name}"
    return (
        f"bin/kafka-configs.sh --bootstrap-server localhost:9092 --alter --entity-type {kind} {target} "
        f"--delete-config {keys}"
    )


def reassignment(*moves: tuple[str, int, list[int]]) -> str:
    return json.dumps(
        {"version": 1, "partitions": [{"topic": t, "partition": p, "replicas": r} for t, p, r in moves]}
    )


def execute_back(name: str) -> tuple[str, ...]:
    """Undo a reassignment: execute the original assignment (file `name`), then wait for it to finish."""
    return (
        f"bin/kafka-reassign-partitions.sh --bootstrap-server localhost:9092 --reassignment-json-file {{files}}/{name} --execute",
        f"bin/kafka-reassign-partitions.sh --bootstrap-server localhost:9092 --reassignment-json-file {{files}}/{name} --verify",
    )


# The topics every target has (tests/kafka_diff/conftest.py creates them with Kafka's kafka-topics):
# name -> replica assignment on a 3-broker cluster (one broker clusters put every replica on broker 1).
TOPICS: dict[str, list[list[int]]] = {
    "my-topic": [[1, 2], [2, 3], [3, 1]],
    "my_topic_name": [[1]],
    "Test-topic": [[2, 3], [3, 1]],
    "dlq.gs1dlqtopic": [[1]],
    "foo": [[1]],
    "foo1": [[1, 2], [2, 3], [3, 1]],
    "foo2": [[2, 3], [3, 1], [1, 2]],
    "tieredTopic": [[2]],
}
FOO_BACK = reassignment(("foo", 0, [1]))
FOO1_FOO2_BACK = reassignment(
    ("foo1", 0, [1, 2]), ("foo1", 1, [2, 3]), ("foo1", 2, [3, 1]),
    ("foo2", 0, [2, 3]), ("foo2", 1, [3, 1]), ("foo2", 2, [1, 2]),
)  # fmt: skip
MY_TOPIC_BACK = reassignment(("my-topic", 0, [1, 2]), ("my-topic", 1, [2, 3]), ("my-topic", 2, [3, 1]))
QUOTA_KEYS = "producer_byte_rate,consumer_byte_rate,request_percentage"
QUOTA_VALUES = "'producer_byte_rate=1024,consumer_byte_rate=2048,request_percentage=200'"

BOB_ALICE = (
    "--allow-principal User:Bob --allow-principal User:Alice --allow-host 198.51.100.0 "
    "--allow-host 198.51.100.1 --operation Read --operation Write --topic Test-topic"
)
JANE = "--allow-principal User:Jane --producer --topic Test- --resource-pattern-type Prefixed"
LISTED_ACLS = (
    f"bin/kafka-acls.sh --bootstrap-server localhost:9092 --add {BOB_ALICE}",
    f"bin/kafka-acls.sh --bootstrap-server localhost:9092 --add {JANE}",
    "bin/kafka-acls.sh --bootstrap-server localhost:9092 --add --allow-principal User:Peter --allow-host 198.51.200.1 --producer --topic '*'",
)

# ---------------------------------------------------------------------------------- the docs

OPS = "docs/operations/basic-kafka-operations.md"
KRAFT = "docs/operations/kraft.md"
BROKER_CONFIGS = "docs/configuration/broker-configs.md"
TOPIC_CONFIGS = "docs/configuration/topic-configs.md"
ZK2KRAFT = "docs/getting-started/zk2kraft.md"
TIERED = "docs/operations/tiered-storage.md"
SASL = "docs/security/authentication-using-sasl.md"
ACL_DOCS = "docs/security/authorization-and-acls.md"
SSL = "docs/security/encryption-and-authentication-using-ssl.md"
TENANCY = "docs/operations/multi-tenancy.md"
UPGRADE = "docs/getting-started/upgrade.md"
HARDWARE = "docs/operations/hardware-and-os.md"

DOCS: list[Case] = [
    # ---- broker configs (docs/configuration/broker-configs.md)
    Case(
        "broker-configs-alter-broker-0",
        "bin/kafka-configs.sh --bootstrap-server localhost:9092 --entity-type brokers --entity-name 0 --alter --add-config log.cleaner.threads=2",
        f"{BROKER_CONFIGS}:52",
        differences=(differs("message", reason=UNKNOWN_BROKER_AT_ONCE),),
    ),
    Case(
        "broker-configs-alter-broker-1",
        "bin/kafka-configs.sh --bootstrap-server localhost:9092 --entity-type brokers --entity-name 1 --alter --add-config log.cleaner.threads=2",
        f"{BROKER_CONFIGS}:52, with broker 1 (the cluster has no broker 0)",
        state=(BROKER_CONFIG.format(1),),
        undo=(unset_config("brokers", "1", "log.cleaner.threads"),),
        versions=VERSIONS,
    ),
    Case(
        "broker-configs-describe-broker-0",
        "bin/kafka-configs.sh --bootstrap-server localhost:9092 --entity-type brokers --entity-name 0 --describe",
        f"{BROKER_CONFIGS}:58",
        versions=VERSIONS,
        differences=(differs("exit", "stdout", "message", reason=DOESNT_EXIST_4_1, versions=(OLDEST,)),),
    ),
    Case(
        "broker-configs-describe-broker-1",
        "bin/kafka-configs.sh --bootstrap-server localhost:9092 --entity-type brokers --entity-name 1 --describe",
        f"{BROKER_CONFIGS}:58, with broker 1",
        versions=VERSIONS,
    ),
    Case(
        "broker-configs-delete-broker-0",
        "bin/kafka-configs.sh --bootstrap-server localhost:9092 --entity-type brokers --entity-name 0 --alter --delete-config log.cleaner.threads",
        f"{BROKER_CONFIGS}:64",
        differences=(differs("message", reason=UNKNOWN_BROKER_AT_ONCE),),
    ),
    Case(
        "broker-configs-delete-broker-1",
        "bin/kafka-configs.sh --bootstrap-server localhost:9092 --entity-type brokers --entity-name 1 --alter --delete-config log.cleaner.threads",
        f"{BROKER_CONFIGS}:64, with broker 1 (the key is not set: 4.3 made that a no-op)",
        state=(BROKER_CONFIG.format(1),),
        versions=VERSIONS,
        differences=(not_yet("exit", "stdout", reason=DELETE_ABSENT_KEY, versions=(NEWEST,)),),
    ),
    Case(
        "broker-configs-logger-broker-0",
        r"bin/kafka-configs.sh --bootstrap-server localhost:9092 --broker-logger 0 --add-config org.apache.kafka.server.quota.ClientQuotaManager\$ThrottledChannelReaper=DEBUG --alter",
        f"{BROKER_CONFIGS}:70",
        differences=(differs("message", reason=UNKNOWN_BROKER_AT_ONCE),),
    ),
    Case(
        "broker-configs-logger-broker-1",
        r"bin/kafka-configs.sh --bootstrap-server localhost:9092 --broker-logger 1 --add-config org.apache.kafka.server.quota.ClientQuotaManager\$ThrottledChannelReaper=DEBUG --alter",
        f"{BROKER_CONFIGS}:70, with broker 1",
        state=("bin/kafka-configs.sh --bootstrap-server localhost:9092 --describe --broker-logger 1",),
        undo=(
            r"bin/kafka-configs.sh --bootstrap-server localhost:9092 --broker-logger 1 --alter --delete-config org.apache.kafka.server.quota.ClientQuotaManager\$ThrottledChannelReaper",
        ),
        restorable=False,  # a logger once configured stays listed (at its parent's level)
    ),
    Case(
        "broker-configs-default-alter",
        "bin/kafka-configs.sh --bootstrap-server localhost:9092 --entity-type brokers --entity-default --alter --add-config log.cleaner.threads=2",
        f"{BROKER_CONFIGS}:76",
        state=(BROKER_DEFAULTS,),
        undo=(unset_config("brokers", "", "log.cleaner.threads"),),
        versions=VERSIONS,
    ),
    Case(
        "broker-configs-default-describe",
        "bin/kafka-configs.sh --bootstrap-server localhost:9092 --entity-type brokers --entity-default --describe",
        f"{BROKER_CONFIGS}:82",
        versions=VERSIONS,
    ),
    # ---- topic configs (docs/configuration/topic-configs.md)
    Case(
        "topic-configs-add",
        "bin/kafka-configs.sh --bootstrap-server localhost:9092 --entity-type topics --entity-name my-topic --alter --add-config max.message.bytes=128000",
        f"{TOPIC_CONFIGS}:39",
        state=(TOPIC_CONFIG.format("my-topic"),),
        undo=(unset_config("topics", "my-topic", "max.message.bytes"),),
        versions=VERSIONS,
    ),
    Case(
        "topic-configs-describe",
        "bin/kafka-configs.sh --bootstrap-server localhost:9092 --entity-type topics --entity-name my-topic --describe",
        f"{TOPIC_CONFIGS}:46",
        versions=VERSIONS,
    ),
    Case(
        "topic-configs-delete-absent",
        "bin/kafka-configs.sh --bootstrap-server localhost:9092 --entity-type topics --entity-name my-topic --alter --delete-config max.message.bytes",
        f"{TOPIC_CONFIGS}:52 (the key is not set)",
        state=(TOPIC_CONFIG.format("my-topic"),),
        versions=VERSIONS,
        differences=(not_yet("exit", "stdout", reason=DELETE_ABSENT_KEY, versions=(NEWEST,)),),
    ),
    # ---- docs/getting-started/zk2kraft.md
    Case(
        "zk2kraft-logger-servers",
        "bin/kafka-configs.sh --bootstrap-server localhost:9092 --entity-type broker-loggers --entity-name 1 --alter --add-config org.apache.kafka.raft.KafkaNetworkChannel=TRACE",
        f"{ZK2KRAFT}:109",
        state=(
            "bin/kafka-configs.sh --bootstrap-server localhost:9092 --describe --entity-type broker-loggers --entity-name 1",
        ),
        undo=(
            "bin/kafka-configs.sh --bootstrap-server localhost:9092 --alter --entity-type broker-loggers --entity-name 1 --delete-config org.apache.kafka.raft.KafkaNetworkChannel",
        ),
        restorable=False,  # a logger once configured stays listed (at its parent's level)
    ),
    Case(
        "zk2kraft-logger-controllers",
        "bin/kafka-configs.sh --bootstrap-controller localhost:9093 --entity-type broker-loggers --entity-name 1 --alter --add-config org.apache.kafka.raft.KafkaNetworkChannel=TRACE",
        f"{ZK2KRAFT}:121 (node 1 is a broker, not a controller, on this cluster)",
        differences=(differs("message", reason=UNKNOWN_BROKER_AT_ONCE),),
    ),
    Case(
        "zk2kraft-broker-io-threads",
        "bin/kafka-configs.sh --bootstrap-server localhost:9092 --entity-type brokers --entity-name 1 --alter --add-config num.io.threads=5",
        f"{ZK2KRAFT}:143",
        state=(BROKER_CONFIG.format(1),),
        undo=(unset_config("brokers", "1", "num.io.threads"),),
    ),
    Case(
        "zk2kraft-broker-default-max-connections",
        "bin/kafka-configs.sh --bootstrap-server localhost:9092 --entity-type brokers --entity-default --alter --add-config max.connections=10000",
        f"{ZK2KRAFT}:155",
        state=(BROKER_DEFAULTS,),
        undo=(unset_config("brokers", "", "max.connections"),),
    ),
    # ---- docs/operations/basic-kafka-operations.md
    Case(
        "ops-topic-add-unknown-key",
        "bin/kafka-configs.sh --bootstrap-server localhost:9092 --entity-type topics --entity-name my_topic_name --alter --add-config x=y",
        f"{OPS}:83",
        state=(TOPIC_CONFIG.format("my_topic_name"),),
        versions=VERSIONS,
    ),
    Case(
        "ops-topic-delete-absent",
        "bin/kafka-configs.sh --bootstrap-server localhost:9092 --entity-type topics --entity-name my_topic_name --alter --delete-config x",
        f"{OPS}:89",
        state=(TOPIC_CONFIG.format("my_topic_name"),),
        versions=VERSIONS,
        differences=(not_yet("exit", "stdout", reason=DELETE_ABSENT_KEY, versions=(NEWEST,)),),
    ),
    Case(
        "ops-features-describe",
        "bin/kafka-features.sh --bootstrap-server localhost:9092 describe",
        f"{OPS}:370 (without its `| grep share.version`)",
        versions=VERSIONS,
    ),
    Case(
        "ops-dlq-group",
        'bin/kafka-configs.sh --bootstrap-server localhost:9092 --alter --add-config "errors.deadletterqueue.topic.name=dlq.gs1dlqtopic" --entity-type groups --entity-name my-share-group',
        f"{OPS}:377",
        state=(GROUP_CONFIG.format("my-share-group"),),
        undo=(unset_config("groups", "my-share-group", "errors.deadletterqueue.topic.name"),),
    ),
    Case(
        "ops-dlq-broker-default-autocreate",
        'bin/kafka-configs.sh --bootstrap-server localhost:9092 --alter --add-config "errors.deadletterqueue.auto.create.topics.enable=true" --entity-type brokers --entity-default',
        f"{OPS}:384",
        state=(BROKER_DEFAULTS,),
        undo=(unset_config("brokers", "", "errors.deadletterqueue.auto.create.topics.enable"),),
    ),
    Case(
        "ops-dlq-topic",
        'bin/kafka-configs.sh --bootstrap-server localhost:9092 --alter --add-config "errors.deadletterqueue.group.enable=true" --entity-type topics --entity-name dlq.gs1dlqtopic',
        f"{OPS}:391",
        state=(TOPIC_CONFIG.format("dlq.gs1dlqtopic"),),
        undo=(unset_config("topics", "dlq.gs1dlqtopic", "errors.deadletterqueue.group.enable"),),
    ),
    Case(
        "ops-dlq-broker-default-prefix",
        'bin/kafka-configs.sh --bootstrap-server localhost:9092 --alter --add-config "errors.deadletterqueue.topic.name.prefix=com.mycompany.dlq." --entity-type brokers --entity-default',
        f"{OPS}:398",
        state=(BROKER_DEFAULTS,),
        undo=(unset_config("brokers", "", "errors.deadletterqueue.topic.name.prefix"),),
    ),
    Case(
        "ops-dlq-group-copy",
        'bin/kafka-configs.sh --bootstrap-server localhost:9092 --alter --add-config "errors.deadletterqueue.copy.record.enable=true" --entity-type groups --entity-name my-share-group',
        f"{OPS}:405",
        state=(GROUP_CONFIG.format("my-share-group"),),
        undo=(unset_config("groups", "my-share-group", "errors.deadletterqueue.copy.record.enable"),),
    ),
    Case(
        "ops-reassign-generate-5-6",
        'bin/kafka-reassign-partitions.sh --bootstrap-server localhost:9092 --topics-to-move-json-file {files}/topics-to-move.json --broker-list "5,6" --generate',
        f"{OPS}:447",
        files={"topics-to-move.json": '{"topics": [{"topic": "foo1"}, {"topic": "foo2"}], "version": 1}'},
        versions=VERSIONS,
        differences=(differs("message", reason=UNKNOWN_BROKERS_NAMED),),
    ),
    Case(
        "ops-reassign-execute-5-6",
        "bin/kafka-reassign-partitions.sh --bootstrap-server localhost:9092 --reassignment-json-file {files}/expand-cluster-reassignment.json --execute",
        f"{OPS}:472 (brokers 5 and 6 do not exist here)",
        files={
            "expand-cluster-reassignment.json": reassignment(
                ("foo1", 0, [6, 5]),
                ("foo1", 1, [5, 6]),
                ("foo1", 2, [6, 5]),
                ("foo2", 0, [5, 6]),
                ("foo2", 1, [6, 5]),
                ("foo2", 2, [5, 6]),
            )
        },
        state=(ASSIGNMENT.format("foo1"), ASSIGNMENT.format("foo2")),
    ),
    Case(
        "ops-reassign-execute-expand",
        "bin/kafka-reassign-partitions.sh --bootstrap-server localhost:9092 --reassignment-json-file {files}/expand-cluster-reassignment.json --execute",
        f"{OPS}:472, moving to brokers 2 and 3",
        differences=(differs("stdout", reason=ROLLBACK_FILE),),
        files={
            "expand-cluster-reassignment.json": reassignment(
                ("foo1", 0, [3, 2]),
                ("foo1", 1, [2, 3]),
                ("foo1", 2, [3, 2]),
                ("foo2", 0, [2, 3]),
                ("foo2", 1, [3, 2]),
                ("foo2", 2, [2, 3]),
            ),
            "back.json": FOO1_FOO2_BACK,
        },
        state=(ASSIGNMENT.format("foo1"), ASSIGNMENT.format("foo2")),
        undo=execute_back("back.json"),
    ),
    Case(
        "ops-reassign-verify-nothing-running",
        "bin/kafka-reassign-partitions.sh --bootstrap-server localhost:9092 --reassignment-json-file {files}/expand-cluster-reassignment.json --verify",
        f"{OPS}:491 (no reassignment running: the partitions are elsewhere)",
        files={
            "expand-cluster-reassignment.json": reassignment(
                ("foo1", 0, [3, 2]), ("foo1", 1, [2, 3]), ("foo2", 2, [2, 3])
            )
        },
    ),
    Case(
        "ops-reassign-verify-done",
        "bin/kafka-reassign-partitions.sh --bootstrap-server localhost:9092 --reassignment-json-file {files}/current.json --verify",
        f"{OPS}:491 (with the current assignment: complete)",
        files={"current.json": FOO1_FOO2_BACK},
    ),
    Case(
        "ops-reassign-custom-5-6",
        "bin/kafka-reassign-partitions.sh --bootstrap-server localhost:9092 --reassignment-json-file {files}/custom-reassignment.json --execute",
        f"{OPS}:517",
        files={"custom-reassignment.json": reassignment(("foo1", 0, [5, 6]), ("foo2", 1, [2, 3]))},
        state=(ASSIGNMENT.format("foo1"), ASSIGNMENT.format("foo2")),
    ),
    Case(
        "ops-reassign-custom",
        "bin/kafka-reassign-partitions.sh --bootstrap-server localhost:9092 --reassignment-json-file {files}/custom-reassignment.json --execute",
        f"{OPS}:517, foo1-0 to brokers 3 and 1",
        differences=(differs("stdout", reason=ROLLBACK_FILE),),
        files={
            "custom-reassignment.json": reassignment(("foo1", 0, [3, 1]), ("foo2", 1, [2, 3])),
            "back.json": reassignment(("foo1", 0, [1, 2]), ("foo2", 1, [3, 1])),
        },
        state=(ASSIGNMENT.format("foo1"), ASSIGNMENT.format("foo2")),
        undo=execute_back("back.json"),
    ),
    Case(
        "ops-cordon-all",
        'bin/kafka-configs.sh --bootstrap-server localhost:9092 --alter --add-config cordoned.log.dirs="*" --entity-type brokers --entity-name 1',
        f"{OPS}:547",
        state=(BROKER_CONFIG.format(1),),
        undo=(unset_config("brokers", "1", "cordoned.log.dirs"),),
    ),
    Case(
        "ops-unregister-unknown",
        "bin/kafka-cluster.sh unregister --bootstrap-server localhost:9092 --id 9",
        f"{OPS}:561, with an id no broker has (test_destructive.py unregisters a real broker)",
        versions=VERSIONS,
    ),
    Case(
        "ops-cordon-dir",
        "bin/kafka-configs.sh --bootstrap-server localhost:9092 --alter --add-config cordoned.log.dirs=/data/dir1 --entity-type brokers --entity-name 1",
        f"{OPS}:571",
        state=(BROKER_CONFIG.format(1),),
        undo=(unset_config("brokers", "1", "cordoned.log.dirs"),),
    ),
    Case(
        "ops-uncordon-controller",
        "bin/kafka-configs.sh --bootstrap-controller localhost:9093 --alter --delete-config cordoned.log.dirs --entity-type brokers --entity-name 1",
        f"{OPS}:586 (node 1 is a broker, not a controller, on this cluster)",
    ),
    Case(
        "ops-increase-rf-5-6-7",
        "bin/kafka-reassign-partitions.sh --bootstrap-server localhost:9092 --reassignment-json-file {files}/increase-replication-factor.json --execute",
        f"{OPS}:623",
        files={"increase-replication-factor.json": reassignment(("foo", 0, [5, 6, 7]))},
        state=(ASSIGNMENT.format("foo"),),
    ),
    Case(
        "ops-increase-rf",
        "bin/kafka-reassign-partitions.sh --bootstrap-server localhost:9092 --reassignment-json-file {files}/increase-replication-factor.json --execute",
        f"{OPS}:623, to brokers 1, 2 and 3",
        differences=(differs("exit", "stdout", "state", reason=RF_GUARD),),
        files={
            "increase-replication-factor.json": reassignment(("foo", 0, [1, 2, 3])),
            "back.json": FOO_BACK,
        },
        state=(ASSIGNMENT.format("foo"),),
        undo=execute_back("back.json"),
    ),
    Case(
        "ops-increase-rf-verify",
        "bin/kafka-reassign-partitions.sh --bootstrap-server localhost:9092 --reassignment-json-file {files}/increase-replication-factor.json --verify",
        f"{OPS}:636 (nothing running: foo-0 is on broker 1 alone)",
        files={"increase-replication-factor.json": reassignment(("foo", 0, [1, 2, 3]))},
    ),
    Case(
        "ops-throttle-execute",
        "bin/kafka-reassign-partitions.sh --bootstrap-server localhost:9092 --execute --reassignment-json-file {files}/bigger-cluster.json --throttle 50000000 --replica-alter-log-dirs-throttle 100000000",
        f"{OPS}:658 (bigger-cluster.json moves my-topic)",
        differences=(differs("stdout", reason=ROLLBACK_FILE),),
        files={
            "bigger-cluster.json": reassignment(("my-topic", 0, [2, 1]), ("my-topic", 1, [3, 2])),
            "back.json": MY_TOPIC_BACK,
        },
        state=(
            ASSIGNMENT.format("my-topic"),
            TOPIC_CONFIG.format("my-topic"),
            *(BROKER_CONFIG.format(b) for b in (1, 2, 3)),
        ),
        undo=execute_back("back.json"),
    ),
    Case(
        "ops-throttle-verify-clears",
        "bin/kafka-reassign-partitions.sh --bootstrap-server localhost:9092 --verify --reassignment-json-file {files}/bigger-cluster.json",
        f"{OPS}:681 (the reassignment is complete: the throttles go)",
        files={"bigger-cluster.json": MY_TOPIC_BACK},
        state=(TOPIC_CONFIG.format("my-topic"), *(BROKER_CONFIG.format(b) for b in (1, 2, 3))),
    ),
    Case(
        "ops-throttle-additional",
        "bin/kafka-reassign-partitions.sh --bootstrap-server localhost:9092 --additional --execute --reassignment-json-file {files}/bigger-cluster.json --throttle 700000000",
        f"{OPS}:672 (with nothing running, --additional starts it)",
        differences=(differs("stdout", reason=ROLLBACK_FILE),),
        files={
            "bigger-cluster.json": reassignment(("my-topic", 2, [1, 3])),
            "back.json": MY_TOPIC_BACK,
        },
        state=(ASSIGNMENT.format("my-topic"), *(BROKER_CONFIG.format(b) for b in (1, 2, 3))),
        undo=execute_back("back.json"),
    ),
    Case(
        "ops-describe-brokers",
        "bin/kafka-configs.sh --describe --bootstrap-server localhost:9092 --entity-type brokers",
        f"{OPS}:712",
        versions=VERSIONS,
    ),
    Case(
        "ops-describe-topics",
        "bin/kafka-configs.sh --describe --bootstrap-server localhost:9092 --entity-type topics",
        f"{OPS}:722",
        versions=VERSIONS,
        differences=(differs("order", reason=ORDER_SORTED),),
    ),
    *[
        Case(
            f"ops-quota-alter-{slug}",
            f"bin/kafka-configs.sh --bootstrap-server localhost:9092 --alter --add-config {QUOTA_VALUES} {entity}",
            f"{OPS}:{line}",
            state=(quotas(entity),),
            undo=(
                f"bin/kafka-configs.sh --bootstrap-server localhost:9092 --alter --delete-config {QUOTA_KEYS} {entity}",
            ),
            versions=VERSIONS if slug == "user-client" else (NEWEST,),
        )
        for slug, entity, line in [
            (
                "user-client",
                "--entity-type users --entity-name user1 --entity-type clients --entity-name clientA",
                766,
            ),
            ("user", "--entity-type users --entity-name user1", 773),
            ("client", "--entity-type clients --entity-name clientA", 780),
            (
                "user-client-default",
                "--entity-type users --entity-name user1 --entity-type clients --entity-default",
                789,
            ),
            ("user-default", "--entity-type users --entity-default", 796),
            ("client-default", "--entity-type clients --entity-default", 803),
        ]
    ],
    *[
        Case(
            f"ops-quota-describe-{slug}",
            f"bin/kafka-configs.sh --bootstrap-server localhost:9092 --describe {entity}",
            f"{OPS}:{line}",
            versions=VERSIONS,
            differences=differences,
        )
        for slug, entity, line, differences in [
            (
                "user-client",
                "--entity-type users --entity-name user1 --entity-type clients --entity-name clientA",
                810,
                (),
            ),
            ("user", "--entity-type users --entity-name user1", 817, ()),
            ("client", "--entity-type clients --entity-name clientA", 824, ()),
            ("user-default", "--entity-type users --entity-default", 831, ()),
            ("client-default", "--entity-type clients --entity-default", 838, ()),
            (
                "users",
                "--entity-type users",
                845,
                (differs("order", reason=ORDER_SORTED, versions=(NEWEST,)),),
            ),
            ("users-clients", "--entity-type users --entity-type clients", 853, ()),
        ]
    ],
    # ---- docs/operations/kraft.md (add/remove/unregister controller: test_destructive.py)
    Case(
        "kraft-features-controllers",
        "bin/kafka-features.sh --bootstrap-controller localhost:9093 describe",
        f"{KRAFT}:78",
        versions=VERSIONS,
    ),
    Case(
        "kraft-upgrade-release-4-1",
        "bin/kafka-features.sh --bootstrap-server localhost:9092 upgrade --release-version 4.1",
        f"{KRAFT}:91 (a downgrade on 4.4: refused)",
        state=(FEATURES,),
    ),
    Case(
        "kraft-upgrade-kraft-version",
        "bin/kafka-features.sh --bootstrap-server localhost:9092 upgrade --feature kraft.version=1",
        f"{KRAFT}:97 (already at 1)",
        state=(FEATURES,),
        versions=VERSIONS,
    ),
    Case(
        "kraft-quorum-status",
        "bin/kafka-metadata-quorum.sh --bootstrap-server localhost:9092 describe --status",
        f"{KRAFT}:262",
        versions=VERSIONS,
    ),
    Case(
        "hardware-quorum-replication",
        "bin/kafka-metadata-quorum.sh --bootstrap-server localhost:9092 describe --replication",
        f"{HARDWARE}:135",
        versions=VERSIONS,
    ),
    Case(
        "upgrade-release-4-3",
        "bin/kafka-features.sh --bootstrap-server localhost:9092 upgrade --release-version 4.3",
        f"{UPGRADE}:68 (a downgrade on 4.4: refused)",
        state=(FEATURES,),
    ),
    # ---- docs/operations/tiered-storage.md (no remote storage here: both refused)
    Case(
        "tiered-enable",
        "bin/kafka-configs.sh --bootstrap-server localhost:9092 --alter --entity-type topics --entity-name tieredTopic --add-config 'remote.storage.enable=true,remote.log.copy.disable=true,local.retention.ms=-2,local.retention.bytes=-2'",
        f"{TIERED}:149",
        state=(TOPIC_CONFIG.format("tieredTopic"),),
    ),
    Case(
        "tiered-disable",
        "bin/kafka-configs.sh --bootstrap-server localhost:9092 --alter --entity-type topics --entity-name tieredTopic --add-config 'remote.storage.enable=false,remote.log.delete.on.disable=true'",
        f"{TIERED}:157",
        state=(TOPIC_CONFIG.format("tieredTopic"),),
        undo=(unset_config("topics", "tieredTopic", "remote.storage.enable,remote.log.delete.on.disable"),),
    ),
    # ---- docs/security/authentication-using-sasl.md
    Case(
        "sasl-scram-add",
        "bin/kafka-configs.sh --bootstrap-server localhost:9092 --alter --add-config 'SCRAM-SHA-256=[iterations=8192,password=alice-secret]' --entity-type users --entity-name alice --command-config client.properties",
        f"{SASL}:301",
        state=(quotas("--entity-type users --entity-name alice"),),
        undo=(
            "bin/kafka-configs.sh --bootstrap-server localhost:9092 --alter --add-config 'SCRAM-SHA-256=[iterations=4096,password=alice-secret]' --entity-type users --entity-name alice",
        ),
    ),
    Case(
        "sasl-scram-describe",
        "bin/kafka-configs.sh --bootstrap-server localhost:9092 --describe --entity-type users --entity-name alice --command-config client.properties",
        f"{SASL}:311",
    ),
    Case(
        "sasl-scram-delete",
        "bin/kafka-configs.sh --bootstrap-server localhost:9092 --alter --delete-config 'SCRAM-SHA-256' --entity-type users --entity-name alice --command-config client.properties",
        f"{SASL}:318",
        state=(quotas("--entity-type users --entity-name alice"),),
        undo=(
            "bin/kafka-configs.sh --bootstrap-server localhost:9092 --alter --add-config 'SCRAM-SHA-256=[iterations=4096,password=alice-secret]' --entity-type users --entity-name alice",
        ),
    ),
    # ---- docs/security/encryption-and-authentication-using-ssl.md
    Case(
        "ssl-listener-endpoint-identification",
        'bin/kafka-configs.sh --bootstrap-server localhost:9093 --entity-type brokers --entity-name 0 --alter --add-config "listener.name.internal.ssl.endpoint.identification.algorithm="',
        f"{SSL}:60 (localhost:9093 is the controllers here, which serve no broker 0)",
        differences=(differs("message", reason=ONE_LINE_ERRORS),),
    ),
    # ---- docs/security/authorization-and-acls.md and docs/operations/multi-tenancy.md
    *[
        Case(
            f"acls-{slug}",
            f"bin/kafka-acls.sh --bootstrap-server localhost:9092 --add {args}",
            f"{source}:{line}",
            state=(ACLS,),
            undo=(f"bin/kafka-acls.sh --bootstrap-server localhost:9092 --remove --force {args}",),
        )
        for slug, args, source, line in [
            (
                "add-bob-alice",
                "--allow-principal User:Bob --allow-principal User:Alice --allow-host 198.51.100.0 --allow-host 198.51.100.1 --operation Read --operation Write --topic Test-topic",
                ACL_DOCS,
                553,
            ),
            (
                "add-deny-badbob",
                "--allow-principal User:'*' --allow-host '*' --deny-principal User:BadBob --deny-host 198.51.100.3 --operation Read --topic Test-topic",
                ACL_DOCS,
                559,
            ),
            (
                "add-peter-producer",
                "--allow-principal User:Peter --allow-host 198.51.200.1 --producer --topic '*'",
                ACL_DOCS,
                565,
            ),
            (
                "add-jane-prefixed",
                "--allow-principal User:Jane --producer --topic Test- --resource-pattern-type prefixed",
                ACL_DOCS,
                571,
            ),
            ("add-bob-producer", "--allow-principal User:Bob --producer --topic Test-topic", ACL_DOCS, 612),
            (
                "add-bob-consumer",
                "--allow-principal User:Bob --consumer --topic Test-topic --group Group-1",
                ACL_DOCS,
                618,
            ),
            (
                "add-alice-tenant",
                "--allow-principal User:Alice --producer --resource-pattern-type prefixed --topic acme.infosec.",
                TENANCY,
                103,
            ),
        ]
    ],
    Case(
        "acls-remove-bob-alice",
        f"bin/kafka-acls.sh --bootstrap-server localhost:9092 --remove {BOB_ALICE}",
        f"{ACL_DOCS}:579 (as the docs give it: no --force, no terminal)",
        setup=(f"bin/kafka-acls.sh --bootstrap-server localhost:9092 --add {BOB_ALICE}",),
        state=(ACLS,),
        cleanup=(f"bin/kafka-acls.sh --bootstrap-server localhost:9092 --remove --force {BOB_ALICE}",),
        differences=(differs("stdout", "message", reason=ACL_CONFIRM_WITHOUT_TTY),),
    ),
    Case(
        "acls-remove-nothing-no-force",
        f"bin/kafka-acls.sh --bootstrap-server localhost:9092 --remove {BOB_ALICE}",
        f"{ACL_DOCS}:579 (no --force, no terminal, nothing to remove)",
        state=(ACLS,),
        differences=(differs("exit", "stdout", "message", reason=ACL_NOTHING_TO_CONFIRM),),
    ),
    Case(
        "acls-remove-bob-alice-force",
        f"bin/kafka-acls.sh --bootstrap-server localhost:9092 --remove --force {BOB_ALICE}",
        f"{ACL_DOCS}:579, with --force",
        setup=(f"bin/kafka-acls.sh --bootstrap-server localhost:9092 --add {BOB_ALICE}",),
        state=(ACLS,),
        undo=(f"bin/kafka-acls.sh --bootstrap-server localhost:9092 --add {BOB_ALICE}",),
        cleanup=(f"bin/kafka-acls.sh --bootstrap-server localhost:9092 --remove --force {BOB_ALICE}",),
    ),
    Case(
        "acls-remove-jane-prefixed",
        f"bin/kafka-acls.sh --bootstrap-server localhost:9092 --remove --force {JANE}",
        f"{ACL_DOCS}:585, with --force",
        setup=(f"bin/kafka-acls.sh --bootstrap-server localhost:9092 --add {JANE}",),
        state=(ACLS,),
        undo=(f"bin/kafka-acls.sh --bootstrap-server localhost:9092 --add {JANE}",),
        cleanup=(f"bin/kafka-acls.sh --bootstrap-server localhost:9092 --remove --force {JANE}",),
    ),
    Case(
        "acls-remove-nothing",
        f"bin/kafka-acls.sh --bootstrap-server localhost:9092 --remove --force {JANE}",
        f"{ACL_DOCS}:585, with --force and nothing to remove",
        state=(ACLS,),
    ),
    *[
        Case(
            f"acls-list-{slug}",
            f"bin/kafka-acls.sh --bootstrap-server localhost:9092 --list {args}",
            f"{ACL_DOCS}:{line}",
            setup=LISTED_ACLS,
            cleanup=tuple(line.replace(" --add ", " --remove --force ") for line in LISTED_ACLS),
        )
        for slug, args, line in [
            ("topic", "--topic Test-topic", 592),
            ("wildcard", "--topic '*'", 598),
            ("match", "--topic Test-topic --resource-pattern-type match", 604),
        ]
    ],
]

# ---------------------------------------------------------------------------------- --help

HELP: list[Case] = [
    *[
        Case(
            f"help-{'-'.join(line.split()[:-1]) or 'root'}".replace("--", "")
            .replace("help-", f"help-{tool}-", 1)
            .rstrip("-"),
            f"bin/kafka-{tool}.sh {line}",
            "the tool's --help",
            versions=VERSIONS,
            differences=(
                differs(
                    *(
                        ("exit", "stdout")
                        if tool in ("cluster", "configs", "acls", "reassign-partitions")
                        else ("stdout",)
                    ),
                    reason=OWN_HELP,
                ),
                *((differs("exit", reason=OWN_HELP, versions=(OLDEST,)),) if tool == "features" else ()),
            ),
        )
        for tool, line in [
            ("configs", "--help"),
            ("acls", "--help"),
            ("reassign-partitions", "--help"),
            ("cluster", "--help"),
            ("cluster", "cluster-id --help"),
            ("cluster", "unregister --help"),
            ("cluster", "list-endpoints --help"),
            ("features", "--help"),
            ("features", "describe --help"),
            ("features", "upgrade --help"),
            ("features", "downgrade --help"),
            ("features", "disable --help"),
            ("features", "version-mapping --help"),
            ("features", "feature-dependencies --help"),
            ("metadata-quorum", "--help"),
            ("metadata-quorum", "describe --help"),
            ("metadata-quorum", "add-controller --help"),
            ("metadata-quorum", "remove-controller --help"),
        ]
    ],
    *[
        Case(
            f"help-cluster-{sub}",
            f"bin/kafka-cluster.sh {sub} --help",
            "the tool's --help (4.4)",
            differences=(differs("exit", "stdout", reason=OWN_HELP),),
        )
        for sub in ("unregister-controller", "api-versions")
    ],
    *[
        Case(
            f"version-{tool}",
            f"bin/kafka-{tool}.sh --version",
            "the tool's --help: `--version  Display Kafka version.`",
            versions=VERSIONS,
            differences=(differs("stdout", reason=OWN_VERSION),),
        )
        for tool in ("configs", "acls", "reassign-partitions")
    ],
    # The examples the help texts give.
    Case(
        "help-example-add-config-brackets",
        "bin/kafka-configs.sh --bootstrap-server localhost:9092 --entity-type topics --entity-name my-topic --alter --add-config 'k1=v1, k2=[v1,v2,v2],k3=v3'",
        "kafka-configs --help: --add-config `'k1=v1, k2=[v1,v2,v2],k3=v3'`",
        state=(TOPIC_CONFIG.format("my-topic"),),
    ),
    Case(
        "help-example-release-version-3-9",
        "bin/kafka-features.sh --bootstrap-server localhost:9092 upgrade --release-version 3.9-IV0 --dry-run",
        "kafka-features upgrade --help: `For example, 3.9-IV0 will set metadata.version=21`",
        state=(FEATURES,),
    ),
    Case(
        "help-example-downgrade-release-version-3-9",
        "bin/kafka-features.sh --bootstrap-server localhost:9092 downgrade --release-version 3.9-IV0 --dry-run",
        "kafka-features downgrade --help: `For example, 3.9-IV0 will set metadata.version=21`",
        state=(FEATURES,),
    ),
    Case(
        "help-example-feature-metadata-5",
        "bin/kafka-features.sh --bootstrap-server localhost:9092 downgrade --feature metadata.version=5 --dry-run",
        "kafka-features downgrade --help: `For example: metadata.version=5`",
        state=(FEATURES,),
    ),
    Case(
        "help-example-metadata-3-3-iv0",
        "bin/kafka-features.sh --bootstrap-server localhost:9092 downgrade --metadata 3.3-IV0 --dry-run",
        "kafka-features downgrade --help: `--metadata ... For example, 3.3-IV0`",
        state=(FEATURES,),
        differences=(not_yet("message", reason=MV_LIST_4_4),),
    ),
    Case(
        "help-example-version-mapping",
        "bin/kafka-features.sh version-mapping",
        "kafka-features --help: version-mapping with no --release-version",
        versions=VERSIONS,
        differences=(differs("exit", "stdout", "message", reason=NO_BOOTSTRAP_NEEDED, versions=(OLDEST,)),),
    ),
    Case(
        "help-example-version-mapping-3-3-iv3",
        "bin/kafka-features.sh version-mapping --release-version 3.3-IV3",
        "kafka-features version-mapping --help: `The minimum is 3.3-IV3`",
        versions=VERSIONS,
        differences=(differs("exit", "stdout", "message", reason=NO_BOOTSTRAP_NEEDED, versions=(OLDEST,)),),
    ),
    Case(
        "help-example-feature-dependencies",
        "bin/kafka-features.sh feature-dependencies --feature metadata.version=5",
        "kafka-features feature-dependencies --help: `For example: metadata.version=5`",
        versions=VERSIONS,
        differences=(differs("message", reason=NO_BOOTSTRAP_NEEDED, versions=(OLDEST,)),),
    ),
    Case(
        "help-example-acls-wildcard-principal",
        "bin/kafka-acls.sh --bootstrap-server localhost:9092 --list --principal User:'*'",
        "kafka-acls --help: `User:'*' is the wild card indicating all users`",
    ),
    Case(
        "help-example-acls-deny-at-realm",
        "bin/kafka-acls.sh --bootstrap-server localhost:9092 --add --allow-principal User:'*' --deny-principal=User:test@EXAMPLE.COM --operation Read --topic Test-topic",
        "kafka-acls --help: `--deny-principal=User:test@EXAMPLE.COM`",
        state=(ACLS,),
        undo=(
            "bin/kafka-acls.sh --bootstrap-server localhost:9092 --remove --force --allow-principal User:'*' --deny-principal=User:test@EXAMPLE.COM --operation Read --topic Test-topic",
        ),
    ),
]

# ---------------------------------------------------------------------------------- errors

ERRORS: list[Case] = [
    # missing and both bootstrap kinds
    *[
        Case(
            f"error-no-bootstrap-{tool}",
            f"bin/kafka-{tool}.sh {args}",
            "error case: no bootstrap option",
            versions=VERSIONS,
            differences=differences,
        )
        for tool, args, differences in [
            ("configs", "--describe --entity-type topics", ()),
            ("acls", "--list", ()),
            ("features", "describe", (differs("message", reason=WORDED_AS_4_4, versions=(OLDEST,)),)),
            ("metadata-quorum", "describe --status", (differs("message", reason=ONE_LINE_ERRORS),)),
            ("cluster", "cluster-id", (differs("message", reason=ONE_LINE_ERRORS),)),
            ("reassign-partitions", "--list", ()),
        ]
    ],
    *[
        Case(
            f"error-both-bootstrap-{tool}",
            f"bin/kafka-{tool}.sh {args}",
            "error case: both bootstrap kinds",
            versions=VERSIONS,
            differences=differences,
        )
        for tool, args, differences in [
            (
                "configs",
                "--bootstrap-server localhost:9092 --bootstrap-controller localhost:9093 --describe --entity-type topics",
                (),
            ),
            ("acls", "--bootstrap-server localhost:9092 --bootstrap-controller localhost:9093 --list", ()),
            (
                "features",
                "--bootstrap-server localhost:9092 --bootstrap-controller localhost:9093 describe",
                (differs("message", reason=ONE_LINE_ERRORS),),
            ),
            (
                "metadata-quorum",
                "--bootstrap-server localhost:9092 --bootstrap-controller localhost:9093 describe --status",
                (differs("message", reason=ONE_LINE_ERRORS),),
            ),
            (
                "cluster",
                "cluster-id --bootstrap-server localhost:9092 --bootstrap-controller localhost:9093",
                (differs("message", reason=ONE_LINE_ERRORS),),
            ),
            (
                "reassign-partitions",
                "--bootstrap-server localhost:9092 --bootstrap-controller localhost:9093 --list",
                (),
            ),
        ]
    ],
    # wrong entity pairs and types
    *[
        Case(
            f"error-configs-{slug}",
            f"bin/kafka-configs.sh --bootstrap-server localhost:9092 {args}",
            "error case",
            versions=VERSIONS,
            differences=(differs("message", reason=WORDED_AS_4_4, versions=(OLDEST,)),)
            if slug == "unknown-entity-type"
            else (),
        )
        for slug, args in [
            ("topics-with-brokers", "--describe --entity-type topics --entity-type brokers"),
            ("users-with-topics", "--describe --entity-type users --entity-type topics"),
            ("unknown-entity-type", "--describe --entity-type widgets"),
            ("no-entity-type", "--describe"),
            ("no-action", "--entity-type topics --entity-name my-topic"),
            ("two-actions", "--describe --alter --entity-type topics --entity-name my-topic"),
            ("broker-not-a-number", "--describe --entity-type brokers --entity-name one"),
            ("alter-without-name", "--alter --entity-type topics --add-config retention.ms=1"),
            ("alter-without-config", "--alter --entity-type topics --entity-name my-topic"),
            (
                "malformed-add-config",
                "--alter --entity-type topics --entity-name my-topic --add-config retention.ms",
            ),
            ("mixed-entity-flags", "--describe --entity-type topics --topic my-topic"),
            ("defaults-for-topics", "--describe --entity-type topics --entity-default"),
        ]
    ],
    # unknown configs and invalid values
    Case(
        "error-configs-unknown-topic-config",
        "bin/kafka-configs.sh --bootstrap-server localhost:9092 --alter --entity-type topics --entity-name my-topic --add-config no.such.config=1",
        "error case: an unknown topic config",
        state=(TOPIC_CONFIG.format("my-topic"),),
        versions=VERSIONS,
    ),
    Case(
        "error-configs-invalid-topic-value",
        "bin/kafka-configs.sh --bootstrap-server localhost:9092 --alter --entity-type topics --entity-name my-topic --add-config retention.ms=forever",
        "error case: a value of the wrong type",
        state=(TOPIC_CONFIG.format("my-topic"),),
        versions=VERSIONS,
    ),
    Case(
        "error-configs-unknown-broker-config",
        "bin/kafka-configs.sh --bootstrap-server localhost:9092 --alter --entity-type brokers --entity-name 1 --add-config no.such.config=1",
        "error case: an unknown broker config (Kafka stores it: IncrementalAlterConfigs takes unknown broker keys)",
        state=(BROKER_CONFIG.format(1),),
        undo=(unset_config("brokers", "1", "no.such.config"),),
        versions=VERSIONS,
    ),
    Case(
        "error-configs-static-broker-config",
        "bin/kafka-configs.sh --bootstrap-server localhost:9092 --alter --entity-type brokers --entity-name 1 --add-config log.dirs=/tmp/x",
        "error case: a read-only broker config",
        state=(BROKER_CONFIG.format(1),),
    ),
    Case(
        "error-configs-non-quota-user-config",
        "bin/kafka-configs.sh --bootstrap-server localhost:9092 --alter --entity-type users --entity-name user1 --add-config retention.ms=1",
        "error case: a topic config on a user",
        versions=VERSIONS,
        differences=(differs("message", reason=SCALA_SET, versions=(OLDEST,)),),
    ),
    Case(
        "error-configs-unknown-topic",
        "bin/kafka-configs.sh --bootstrap-server localhost:9092 --alter --entity-type topics --entity-name no-such-topic --add-config retention.ms=1",
        "error case: a topic that does not exist",
        versions=VERSIONS,
        differences=(not_yet("message", reason=UNKNOWN_TOPIC_ON_ALTER, versions=(NEWEST,)),),
    ),
    Case(
        "error-configs-describe-unknown-topic",
        "bin/kafka-configs.sh --bootstrap-server localhost:9092 --describe --entity-type topics --entity-name no-such-topic",
        "error case: describing a topic that does not exist",
        versions=VERSIONS,
        differences=(differs("exit", "stdout", reason=DOESNT_EXIST_4_1, versions=(OLDEST,)),),
    ),
    Case(
        "error-configs-bad-add-config-file",
        "bin/kafka-configs.sh --bootstrap-server localhost:9092 --alter --entity-type topics --entity-name my-topic --add-config-file {files}/missing.properties",
        "error case: --add-config-file that does not exist",
        versions=VERSIONS,
    ),
    Case(
        "error-configs-controllers-broker",
        "bin/kafka-configs.sh --bootstrap-controller localhost:9093 --describe --entity-type brokers --entity-name 1",
        "error case: a broker id described through the controllers",
        differences=(not_yet("exit", "stdout", reason=CONTROLLER_BROKER_LOOKUP),),
    ),
    # acls
    *[
        Case(
            f"error-acls-{slug}",
            f"bin/kafka-acls.sh --bootstrap-server localhost:9092 {args}",
            "error case",
            versions=VERSIONS,
            differences=differences,
        )
        for slug, args, differences in [
            ("no-action", "--topic Test-topic", ()),
            ("two-actions", "--add --list --topic Test-topic", ()),
            ("add-without-principal", "--add --operation Read --topic Test-topic", ()),
            ("producer-without-topic", "--add --allow-principal User:Bob --producer", ()),
            ("consumer-without-group", "--add --allow-principal User:Bob --consumer --topic Test-topic", ()),
            (
                "unknown-operation",
                "--add --allow-principal User:Bob --operation Fly --topic Test-topic",
                (differs("message", reason=ONE_LINE_ERRORS),),
            ),
            (
                "bad-principal",
                "--add --allow-principal Bob --operation Read --topic Test-topic",
                (),
            ),
            (
                "invalid-operation-for-topic",
                "--add --allow-principal User:Bob --operation ClusterAction --topic Test-topic",
                (differs("message", reason=ACL_OPERATIONS_NAMED),),
            ),
        ]
    ],
    Case(
        "error-acls-no-authorizer",
        "bin/kafka-acls.sh --bootstrap-server localhost:9092 --list",
        "error case: a cluster without an authorizer",
        versions=(OLDEST,),
    ),
    # features
    *[
        Case(
            f"error-features-{slug}",
            f"bin/kafka-features.sh --bootstrap-server localhost:9092 {args}",
            "error case",
            state=(FEATURES,),
            versions=VERSIONS,
            differences=(not_yet("message", reason=MV_LIST_4_4, versions=(NEWEST,)),)
            if slug == "unknown-release"
            else (),
        )
        for slug, args in [
            ("unknown-feature", "upgrade --feature no.such.version=1"),
            ("unknown-release", "upgrade --release-version 9.9-IV9"),
            ("metadata-and-release", "upgrade --metadata 3.9-IV0 --release-version 3.9-IV0"),
            ("feature-and-release", "upgrade --feature kraft.version=1 --release-version 4.0"),
            ("no-feature", "upgrade"),
            ("disable-metadata-version", "disable --feature metadata.version"),
            ("level-not-a-number", "upgrade --feature kraft.version=one"),
            ("upgrade-past-supported", "upgrade --feature transaction.version=99"),
            ("downgrade-metadata-unsafe-missing", "downgrade --metadata 3.3-IV3"),
        ]
    ],
    Case(
        "error-features-node-id-negative",
        "bin/kafka-features.sh --bootstrap-server localhost:9092 describe --node-id -1",
        "error case: describe --node-id of a negative id (4.2+)",
    ),
    Case(
        "error-features-node-id-unknown",
        "bin/kafka-features.sh --bootstrap-server localhost:9092 describe --node-id 42",
        "error case: describe --node-id of a node the cluster lacks",
        differences=(differs("message", reason=UNKNOWN_BROKER_AT_ONCE),),
    ),
    # metadata-quorum
    *[
        Case(
            f"error-quorum-{slug}",
            f"bin/kafka-metadata-quorum.sh --bootstrap-server localhost:9092 {args}",
            "error case",
            versions=VERSIONS,
        )
        for slug, args in [
            ("describe-nothing", "describe"),
            ("status-and-replication", "describe --status --replication"),
            ("human-readable-alone", "describe --human-readable"),
            (
                "remove-bad-directory-id",
                "remove-controller --controller-id 101 --controller-directory-id not-a-uuid",
            ),
            (
                "remove-negative-id",
                "remove-controller --controller-id -1 --controller-directory-id AAAAAAAAAAAAAAAAAAAAAA",
            ),
            ("add-without-config", "add-controller"),
        ]
    ],
    Case(
        "error-quorum-remove-unknown-voter",
        "bin/kafka-metadata-quorum.sh --bootstrap-controller localhost:9093 remove-controller --controller-id 109 --controller-directory-id AAAAAAAAAAAAAAAAAAAAAA",
        "error case: removing a controller that is not a voter",
    ),
    # reassign-partitions: bad JSON, unknown brokers and topics
    *[
        Case(
            f"error-reassign-{slug}",
            f"bin/kafka-reassign-partitions.sh --bootstrap-server localhost:9092 {args}",
            "error case",
            files=files,
            versions=VERSIONS,
            differences=differences,
        )
        for slug, args, files, differences in [
            ("no-action", "--reassignment-json-file {files}/r.json", {"r.json": FOO_BACK}, ()),
            (
                "two-actions",
                "--execute --verify --reassignment-json-file {files}/r.json",
                {"r.json": FOO_BACK},
                (),
            ),
            (
                "bad-json",
                "--execute --reassignment-json-file {files}/r.json",
                {"r.json": '{"version":1,"partitions":[{"topic":"foo"'},
                (differs("message", reason=ONE_LINE_ERRORS),),
            ),
            (
                "json-not-a-plan",
                "--execute --reassignment-json-file {files}/r.json",
                {"r.json": '{"version":1}'},
                (differs("message", reason=MISSING_PARTITIONS),),
            ),
            (
                "missing-file",
                "--execute --reassignment-json-file {files}/absent.json",
                {},
                (differs("message", reason=ONE_LINE_ERRORS),),
            ),
            (
                "unknown-topic",
                "--execute --reassignment-json-file {files}/r.json",
                {"r.json": reassignment(("no-such-topic", 0, [1]))},
                (),
            ),
            (
                "unknown-broker",
                "--execute --reassignment-json-file {files}/r.json",
                {"r.json": reassignment(("foo", 0, [7]))},
                (),
            ),
            (
                "duplicate-replica",
                "--execute --reassignment-json-file {files}/r.json",
                {"r.json": reassignment(("foo", 0, [1, 1]))},
                (),
            ),
            (
                "generate-unknown-broker",
                "--generate --topics-to-move-json-file {files}/t.json --broker-list 7,8",
                {"t.json": '{"topics":[{"topic":"foo"}],"version":1}'},
                (differs("message", reason=UNKNOWN_BROKERS_NAMED),),
            ),
            (
                "generate-bad-broker-list",
                "--generate --topics-to-move-json-file {files}/t.json --broker-list 1,x",
                {"t.json": '{"topics":[{"topic":"foo"}],"version":1}'},
                (differs("message", reason=ONE_LINE_ERRORS),),
            ),
            (
                "generate-without-brokers",
                "--generate --topics-to-move-json-file {files}/t.json",
                {"t.json": '{"topics":[{"topic":"foo"}],"version":1}'},
                (),
            ),
            (
                "cancel-nothing-running",
                "--cancel --reassignment-json-file {files}/r.json",
                {"r.json": FOO_BACK},
                (differs("stdout", reason=MISSING_NEWLINE),),
            ),
            ("list-nothing-running", "--list", {}, ()),
            (
                "verify-with-broker-list",
                "--verify --reassignment-json-file {files}/r.json --broker-list 1",
                {"r.json": FOO_BACK},
                (),
            ),
            (
                "throttle-with-verify",
                "--verify --reassignment-json-file {files}/r.json --throttle 1",
                {"r.json": FOO_BACK},
                (),
            ),
        ]
    ],
    # kafka-cluster
    *[
        Case(
            f"error-cluster-{slug}",
            f"bin/kafka-cluster.sh {args}",
            "error case",
            versions=versions,
            differences=differences,
        )
        for slug, args, versions, differences in [
            (
                "unregister-without-id",
                "unregister --bootstrap-server localhost:9092",
                VERSIONS,
                (differs("message", reason=ONE_LINE_ERRORS),),
            ),
            (
                "unregister-id-not-a-number",
                "unregister --bootstrap-server localhost:9092 --id one",
                VERSIONS,
                (differs("message", reason=ONE_LINE_ERRORS),),
            ),
            (
                "fenced-with-controllers",
                "list-endpoints --bootstrap-controller localhost:9093 --include-fenced-brokers",
                VERSIONS,
                (),
            ),
            (
                "unknown-subcommand",
                "describe --bootstrap-server localhost:9092",
                VERSIONS,
                (differs("message", reason=ONE_LINE_ERRORS),),
            ),
            (
                "unregister-controller-unknown",
                "unregister-controller --bootstrap-server localhost:9092 --id 109",
                (NEWEST,),
                (),
            ),
            (
                "unregister-controller-active",
                "unregister-controller --bootstrap-controller localhost:9093 --id {active_controller}",
                (NEWEST,),
                (),
            ),
        ]
    ],
]

# ---------------------------------------------------------------------------------- read-only lines

READS: list[Case] = [
    *[
        Case(f"read-{slug}", line, "read-only tool line", versions=VERSIONS, differences=differences)
        for slug, line, differences in [
            ("cluster-id-servers", "bin/kafka-cluster.sh cluster-id --bootstrap-server localhost:9092", ()),
            (
                "cluster-id-controllers",
                "bin/kafka-cluster.sh cluster-id --bootstrap-controller localhost:9093",
                (),
            ),
            (
                "endpoints-servers",
                "bin/kafka-cluster.sh list-endpoints --bootstrap-server localhost:9092",
                (),
            ),
            (
                "endpoints-fenced",
                "bin/kafka-cluster.sh list-endpoints --bootstrap-server localhost:9092 --include-fenced-brokers",
                (),
            ),
            (
                "endpoints-controllers",
                "bin/kafka-cluster.sh list-endpoints --bootstrap-controller localhost:9093",
                (),
            ),
            (
                "quorum-status-controllers",
                "bin/kafka-metadata-quorum.sh --bootstrap-controller localhost:9093 describe --status",
                (),
            ),
            (
                "quorum-replication-controllers",
                "bin/kafka-metadata-quorum.sh --bootstrap-controller localhost:9093 describe --replication",
                (),
            ),
            (
                "configs-describe-all-topic",
                "bin/kafka-configs.sh --bootstrap-server localhost:9092 --describe --all --entity-type topics --entity-name my-topic",
                (),
            ),
            (
                "configs-describe-all-broker",
                "bin/kafka-configs.sh --bootstrap-server localhost:9092 --describe --all --entity-type brokers --entity-name 1",
                (),
            ),
            (
                "configs-describe-topic-shortcut",
                "bin/kafka-configs.sh --bootstrap-server localhost:9092 --describe --topic my-topic",
                (),
            ),
            (
                "configs-describe-broker-defaults-shortcut",
                "bin/kafka-configs.sh --bootstrap-server localhost:9092 --describe --broker-defaults",
                (),
            ),
            (
                "configs-describe-ips",
                "bin/kafka-configs.sh --bootstrap-server localhost:9092 --describe --entity-type ips",
                (),
            ),
            (
                "configs-describe-controller-101",
                "bin/kafka-configs.sh --bootstrap-controller localhost:9093 --describe --entity-type brokers --entity-name {controller}",
                (),
            ),
            (
                "reassign-list",
                "bin/kafka-reassign-partitions.sh --bootstrap-server localhost:9092 --list",
                (),
            ),
            ("acls-list-all", "bin/kafka-acls.sh --bootstrap-server localhost:9092 --list", ()),
        ]
    ],
    *[
        Case(f"read-{slug}", line, "read-only tool line", differences=differences)
        for slug, line, differences in [
            (
                "api-versions-servers",
                "bin/kafka-cluster.sh api-versions --bootstrap-server localhost:9092",
                (differs("stdout", reason=USABLE_IS_KCLIS),),
            ),
            (
                "api-versions-controllers",
                "bin/kafka-cluster.sh api-versions --bootstrap-controller localhost:9093",
                (),
            ),
            (
                "features-node",
                "bin/kafka-features.sh --bootstrap-server localhost:9092 describe --node-id 1",
                (),
            ),
            (
                "configs-describe-groups",
                "bin/kafka-configs.sh --bootstrap-server localhost:9092 --describe --entity-type groups",
                (),
            ),
            (
                "configs-describe-client-metrics",
                "bin/kafka-configs.sh --bootstrap-server localhost:9092 --describe --entity-type client-metrics",
                (),
            ),
            (
                "configs-describe-unknown-group",
                "bin/kafka-configs.sh --bootstrap-server localhost:9092 --describe --entity-type groups --entity-name no-such-group",
                (),
            ),
            ("acls-list-controllers", "bin/kafka-acls.sh --bootstrap-controller localhost:9093 --list", ()),
            (
                "reassign-list-controllers",
                "bin/kafka-reassign-partitions.sh --bootstrap-controller localhost:9093 --list",
                (),
            ),
        ]
    ],
]

# ---------------------------------------------------------------------------------- tests/kafka_parity

# The lines the parity suite gives kcli that need no cluster (kcli refuses them on the command line):
# tests/kafka_diff/parity_lines.json, written by scripts/parity-lines.py from a run of the suite.
CLICK_PARSE_ERRORS = (
    "a line the parser itself refuses (an unknown option, a required one missing) gets click's usage "
    "error (exit 2): `No such option: --blah`, `Missing option '--controller-id'`; jopt-simple and "
    "argparse4j word it `blah is not a recognized option`, `argument --controller-id/-i is required`"
)
NAMES_IN_HASH_ORDER = (
    "kcli lists the refused config names in the order given; kafka-configs in the iteration order of a "
    "Java HashMap of them"
)
CONTROLLERS_NO_QUOTAS = (
    "through --bootstrap-controller, kcli refuses client quotas and SCRAM credentials before connecting "
    "and says why (the controllers do not serve those admin APIs, KIP-919); Kafka's Admin client says "
    "`This Admin API is not yet supported when communicating directly with the controller quorum.`"
)
NO_ARGS_HELP = (
    "with no arguments kcli prints its own help on stdout (exit 2); kafka-reassign-partitions prints its "
    "usage on stderr (exit 1)"
)

# How the parity lines differ, by the parity method (and argv digest where one method has several).
_PARITY_METHOD_DIFFERENCES: dict[str, Difference] = {
    "shouldExitWithNonZeroStatusOnArgError": differs("message", reason=CLICK_PARSE_ERRORS),
    "testRemoveControllerRequiresControllerId": differs("message", reason=CLICK_PARSE_ERRORS),
    "shouldFailIfNoArgs": differs("stdout", reason=NO_ARGS_HELP),
    "testHandleUpgradeToUnsupportedMetadataVersion": not_yet("message", reason=MV_LIST_4_4),
    "testHandleVersionMappingWithInvalidReleaseVersion": not_yet("message", reason=MV_LIST_4_4),
    "testInvalidReleaseVersion": not_yet("message", reason=MV_LIST_4_4),
    "testMetadataVersionsToString": not_yet("message", reason=MV_LIST_4_4),
}


def _parity_difference(method: str, argv: list[str]) -> Difference | None:
    if method in _PARITY_METHOD_DIFFERENCES:
        return _PARITY_METHOD_DIFFERENCES[method]
    deleted = argv[argv.index("--delete-config") + 1] if "--delete-config" in argv else ""
    if method == "shouldNotAlterNonQuotaIpConfigsUsingBootstrapServer" and "," in deleted:
        return differs("message", reason=NAMES_IN_HASH_ORDER)  # two names refused: Kafka's set orders them
    if not method.startswith("shouldParseArgumentsFor"):
        return None
    quota_kind = any(flag in argv for flag in ("--client", "--user", "--ip")) or any(
        kind in argv for kind in ("clients", "users", "ips")
    )
    if "--bootstrap-controller" in argv and "--describe" in argv and quota_kind:
        return differs("message", reason=CONTROLLERS_NO_QUOTAS)
    if "a._-c=b,c=,d=e,a$b=c,f=" in argv and quota_kind:  # the test's names no quota has
        return differs("message", reason=NAMES_IN_HASH_ORDER)
    return None


def _parity_cases() -> list[Case]:
    from pathlib import Path

    entries = json.loads((Path(__file__).with_name("parity_lines.json")).read_text(encoding="utf-8"))
    cases = []
    for entry in entries:
        argv = entry["argv"]
        tool, rest = (
            ("cluster", ["cluster-id", *argv[1:]]) if argv[0] == "cluster-id" else (argv[0], argv[1:])
        )
        method = entry["parity_case"].split("::", 1)[1].split("[", 1)[0].split("_", 2)[2]
        digest = hashlib.sha1("\0".join(argv).encode()).hexdigest()[:6]  # stable however the file is ordered
        difference = _parity_difference(method, argv)
        cases.append(
            Case(
                f"parity-{method}-{digest}",
                f"bin/kafka-{tool}.sh {shlex.join(rest)}",
                f"tests/kafka_parity: {entry['parity_case']}",
                placeholder_addresses=True,
                differences=(difference,) if difference else (),
            )
        )
    return cases


PARITY: list[Case] = _parity_cases()

from tests.kafka_diff import corpus_groups  # noqa: E402 - the group and offset tools' cases, and their topic

TOPICS.update(corpus_groups.TOPICS)
CASES: list[Case] = [*DOCS, *HELP, *ERRORS, *READS, *PARITY, *corpus_groups.CASES]


def by_id() -> dict[str, Case]:
    """Every case by id (ids are unique: checked by tests/kafka_diff/test_corpus.py)."""
    return {case.id: case for case in CASES}


# ---------------------------------------------------------------------------------- a cluster of their own

# Lines that remove and unregister nodes (tests/kafka_diff/test_destructive.py): Kafka 4.4.0 with one
# controller (101), controller 102 formatted --no-initial-controllers and running as an observer (a
# registered controller, not a voter), and brokers 1 and 2, plaintext. `<id>` is 102, `<directory-id>`
# its directory id, `config/controller.properties` its server.properties (the file add-controller reads).
CONTROLLERS = "bin/kafka-cluster.sh list-endpoints --bootstrap-controller localhost:9093"
VOTERS = "bin/kafka-metadata-quorum.sh --bootstrap-controller localhost:9093 describe --status"
ADD_102 = (
    "bin/kafka-metadata-quorum.sh --command-config config/controller.properties "
    "--bootstrap-controller localhost:9093 add-controller"
)
REMOVE_102 = (
    "bin/kafka-metadata-quorum.sh --bootstrap-controller localhost:9093 remove-controller "
    "--controller-id <id> --controller-directory-id <directory-id>"
)
BROKERS = "bin/kafka-cluster.sh list-endpoints --bootstrap-server localhost:9092 --include-fenced-brokers"

DESTRUCTIVE: list[Case] = [
    *[
        Case(
            f"kraft-add-controller-{kind}",
            f"bin/kafka-metadata-quorum.sh --command-config config/controller.properties --bootstrap-{kind} {address} add-controller",
            f"{KRAFT}:{line}",
            state=(VOTERS,),
            undo=(REMOVE_102,),
        )
        for kind, address, line in [("server", "localhost:9092", 206), ("controller", "localhost:9093", 212)]
    ],
    *[
        Case(
            f"kraft-remove-controller-{kind}",
            f"bin/kafka-metadata-quorum.sh --bootstrap-{kind} {address} remove-controller --controller-id <id> --controller-directory-id <directory-id>",
            f"{KRAFT}:{line}",
            setup=(ADD_102,),
            state=(VOTERS,),
            undo=(ADD_102,),
            cleanup=(REMOVE_102,),
        )
        for kind, address, line in [("server", "localhost:9092", 226), ("controller", "localhost:9093", 232)]
    ],
    Case(
        "kraft-remove-controller-unregister",
        "bin/kafka-metadata-quorum.sh --bootstrap-server localhost:9092 remove-controller --controller-id <id> --controller-directory-id <directory-id> --unregister",
        f"{KRAFT}:238 (102 still runs: it registers again, as Kafka's controllers do)",
        setup=(ADD_102,),
        state=(VOTERS,),
        undo=(ADD_102,),
        cleanup=(REMOVE_102,),
    ),
    *[
        Case(
            f"kraft-unregister-controller-{kind}",
            f"bin/kafka-cluster.sh unregister-controller --bootstrap-{kind} {address} --id <id>",
            f"{KRAFT}:{line} (102 removed from the voters and shut down)",
            setup=("sandbox stop-node 102",),
            state=(CONTROLLERS,),
            undo=("sandbox start-node 102", "sandbox registered 102", "sandbox stop-node 102"),
            cleanup=("sandbox start-node 102", "sandbox registered 102"),
        )
        for kind, address, line in [("server", "localhost:9092", 246), ("controller", "localhost:9093", 252)]
    ],
    Case(
        "kraft-unregister-controller-running",
        "bin/kafka-cluster.sh unregister-controller --bootstrap-server localhost:9092 --id <id>",
        f"{KRAFT}:246, while 102 still runs (it registers again, when is its own business: no state compared)",
        undo=("sandbox registered 102",),
    ),
    Case(
        "kraft-remove-controller-unregister-not-a-voter",
        "bin/kafka-metadata-quorum.sh --bootstrap-controller localhost:9093 remove-controller --controller-id <id> --controller-directory-id <directory-id> --unregister",
        f"{KRAFT}:238, for a controller that is not a voter",
        state=(VOTERS,),
        differences=(
            differs(
                "message",
                reason="kcli's advice names its own command (`kcli cluster unregister-controller --id N`), "
                "not `kafka-cluster.sh unregister-controller --id N`",
            ),
        ),
    ),
    Case(
        "ops-unregister-broker",
        "bin/kafka-cluster.sh unregister --bootstrap-server localhost:9092 --id 2",
        f"{OPS}:561, with broker 2 shut down (this cluster's broker 1 stays)",
        setup=("sandbox stop-node 2",),
        state=(BROKERS,),
        undo=("sandbox start-node 2", "sandbox registered 2", "sandbox stop-node 2"),
        cleanup=("sandbox start-node 2", "sandbox registered 2"),
    ),
]

# That cluster's brokers have racks `a` and `b`: kafka-cluster sizes the RACK column to the longest rack,
# one letter here, under a four-letter header, so rows read `a unfenced` (ClusterTool's printf); kcli too.
DESTRUCTIVE += [
    Case(
        f"racks-list-endpoints-{slug}",
        f"bin/kafka-cluster.sh list-endpoints --bootstrap-{kind} {address}{extra}",
        "read-only tool line, brokers with racks a and b",
    )
    for slug, kind, address, extra in [
        ("servers", "server", "localhost:9092", ""),
        ("fenced", "server", "localhost:9092", " --include-fenced-brokers"),
        ("controllers", "controller", "localhost:9093", ""),
    ]
]

ALL_CASES: list[Case] = [*CASES, *DESTRUCTIVE]
