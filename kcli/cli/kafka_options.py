"""The options of the Kafka tools kcli mirrors, per kcli command: one table, used twice.

- Parsing (kcli.cli.argv): an abbreviated long option that names one option of the Kafka tool
  resolves to it even where kcli's own extra options share its prefix.
- tests/test_compat_options.py: every option listed here parses with kcli, with the same arity.

Transcribed from the option lists of the Kafka tools (3.7 - 4.2, and the newest kafka-cluster):
a runbook line that works with the original must parse with kcli after replacing the program
name. Removed ZooKeeper-era options (--zookeeper, --authorizer-properties, ...) are deliberately
not carried over.
"""

from __future__ import annotations

from enum import Enum
from functools import cache

VALUE, FLAG = True, False
# The connection options every networked Kafka tool takes (kafka-cluster adds short forms).
CONNECTION = ("--bootstrap-server", "--bootstrap-controller", "--command-config")

# (command path below `kcli`, option as the original spells it, takes a value)
ORIGINAL_OPTIONS: list[tuple[tuple[str, ...], str, bool]] = [
    # kafka-cluster.sh: connection options after the subcommand
    *[
        (path, option, VALUE)
        for path in (
            ("cluster-id",),
            ("cluster", "cluster-id"),
            ("cluster", "unregister"),
            ("cluster", "list-endpoints"),
            ("cluster", "api-versions"),
        )
        for option in (*CONNECTION, "-b", "-C", "-c", "--config")
    ],
    (("cluster", "unregister"), "--id", VALUE),
    (("cluster", "unregister"), "-i", VALUE),
    (("cluster", "list-endpoints"), "--include-fenced-brokers", FLAG),
    # kafka-configs.sh
    *[
        (("configs",), option, arity)
        for option, arity in [
            *((option, VALUE) for option in CONNECTION),
            ("--describe", FLAG),
            ("--alter", FLAG),
            ("--all", FLAG),
            ("--entity-type", VALUE),
            ("--entity-name", VALUE),
            ("--entity-default", FLAG),
            ("--add-config", VALUE),
            ("--add-config-file", VALUE),
            ("--delete-config", VALUE),
            ("--force", FLAG),
            ("--topic", VALUE),
            ("--client", VALUE),
            ("--user", VALUE),
            ("--broker", VALUE),
            ("--broker-logger", VALUE),
            ("--ip", VALUE),
            ("--group", VALUE),
            ("--client-metrics", VALUE),
            ("--client-defaults", FLAG),
            ("--user-defaults", FLAG),
            ("--broker-defaults", FLAG),
            ("--ip-defaults", FLAG),
        ]
    ],
    # kafka-acls.sh
    *[
        (("acls",), option, arity)
        for option, arity in [
            *((option, VALUE) for option in CONNECTION),
            ("--add", FLAG),
            ("--remove", FLAG),
            ("--list", FLAG),
            ("--topic", VALUE),
            ("--cluster", FLAG),
            ("--group", VALUE),
            ("--transactional-id", VALUE),
            ("--delegation-token", VALUE),
            ("--user-principal", VALUE),
            ("--resource-pattern-type", VALUE),
            ("--operation", VALUE),
            ("--allow-principal", VALUE),
            ("--deny-principal", VALUE),
            ("--allow-host", VALUE),
            ("--deny-host", VALUE),
            ("--principal", VALUE),
            ("--producer", FLAG),
            ("--consumer", FLAG),
            ("--idempotent", FLAG),
            ("--force", FLAG),
        ]
    ],
    # kafka-features.sh: connection options before the subcommand (kcli accepts them after too)
    *[(("features",), option, VALUE) for option in CONNECTION],
    (("features", "describe"), "--node-id", VALUE),
    *[
        (("features", sub), option, arity)
        for sub in ("upgrade", "downgrade")
        for option, arity in [
            ("--feature", VALUE),
            ("--metadata", VALUE),
            ("--release-version", VALUE),
            ("--dry-run", FLAG),
        ]
    ],
    (("features", "downgrade"), "--unsafe", FLAG),
    (("features", "disable"), "--feature", VALUE),
    (("features", "disable"), "--unsafe", FLAG),
    (("features", "disable"), "--dry-run", FLAG),
    (("features", "version-mapping"), "--release-version", VALUE),
    (("features", "feature-dependencies"), "--feature", VALUE),
    # kafka-metadata-quorum.sh
    *[(("metadata-quorum",), option, VALUE) for option in CONNECTION],
    (("metadata-quorum", "describe"), "--status", FLAG),
    (("metadata-quorum", "describe"), "--replication", FLAG),
    (("metadata-quorum", "describe"), "--human-readable", FLAG),
    (("metadata-quorum", "add-controller"), "--dry-run", FLAG),
    (("metadata-quorum", "remove-controller"), "--controller-id", VALUE),
    (("metadata-quorum", "remove-controller"), "-i", VALUE),
    (("metadata-quorum", "remove-controller"), "--controller-directory-id", VALUE),
    (("metadata-quorum", "remove-controller"), "-d", VALUE),
    (("metadata-quorum", "remove-controller"), "--dry-run", FLAG),
    # kafka-metadata-shell.sh
    (("metadata-shell",), "--snapshot", VALUE),
    (("metadata-shell",), "-s", VALUE),
    # kafka-topics.sh: the options of --list and --describe (kcli topics reads only)
    *[
        (("topics",), option, arity)
        for option, arity in [
            ("--list", FLAG),
            ("--describe", FLAG),
            *((option, VALUE) for option in CONNECTION),
            ("--topic", VALUE),
            ("--exclude-internal", FLAG),
            ("--if-exists", FLAG),
            ("--under-replicated-partitions", FLAG),
            ("--unavailable-partitions", FLAG),
            ("--under-min-isr-partitions", FLAG),
            ("--at-min-isr-partitions", FLAG),
            ("--topics-with-overrides", FLAG),
        ]
    ],
    # kafka-reassign-partitions.sh
    *[
        (("reassign-partitions",), option, arity)
        for option, arity in [
            ("--generate", FLAG),
            ("--execute", FLAG),
            ("--verify", FLAG),
            ("--cancel", FLAG),
            ("--list", FLAG),
            *((option, VALUE) for option in CONNECTION),
            ("--reassignment-json-file", VALUE),
            ("--topics-to-move-json-file", VALUE),
            ("--broker-list", VALUE),
            ("--disable-rack-aware", FLAG),
            ("--throttle", VALUE),
            ("--replica-alter-log-dirs-throttle", VALUE),
            ("--timeout", VALUE),
            ("--additional", FLAG),
            ("--preserve-throttles", FLAG),
            ("--disallow-replication-factor-change", FLAG),
        ]
    ],
]


class Style(Enum):
    """How the Kafka tool parses its command line."""

    JOPT = "jopt-simple"  # kafka-configs, kafka-acls, kafka-reassign-partitions, kafka-topics
    ARGPARSE = "argparse4j"  # kafka-cluster, kafka-features, kafka-metadata-quorum, kafka-metadata-shell


_JOPT_TOOLS = frozenset({"configs", "acls", "reassign-partitions", "topics"})
_MIRRORED = frozenset({("cluster",), ("features",), ("metadata-quorum",)}) | {
    where for where, _, _ in ORIGINAL_OPTIONS
}


@cache
def kafka_option_names(path: tuple[str, ...]) -> frozenset[str] | None:
    """The long option names (without dashes) the Kafka tool has at this kcli command, or None.

    None means the command mirrors no Kafka tool (kcli's own commands): no Kafka parsing rules apply.
    """
    names = {option[2:] for where, option, _ in ORIGINAL_OPTIONS if where == path and option.startswith("--")}
    if path not in _MIRRORED:
        return None
    return frozenset(names | {"help"})


def style(path: tuple[str, ...]) -> Style | None:
    """The parsing style of the Kafka tool this command mirrors (None: a kcli-only command)."""
    if kafka_option_names(path) is None:
        return None
    return Style.JOPT if path[0] in _JOPT_TOOLS else Style.ARGPARSE
