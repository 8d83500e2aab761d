"""The `-o json` schemas of kcli topics' changes, log-dirs, leader-election and delete-records, and of the
preferred election that ends `reassign-partitions --execute --wait`.

generate.py calls `define(generate)` once its own commands are in COMMANDS: this module builds on its
building blocks and adds its shapes (kept apart so that neither file grows past a reader's patience).
"""

from __future__ import annotations

from types import ModuleType
from typing import Any


def define(g: ModuleType) -> None:
    string, integer, boolean, nullable = g.string, g.integer, g.boolean, g.nullable
    array, obj, mapping, one_of = g.array, g.obj, g.mapping, g.one_of
    broker = integer("Broker id.")
    partition_ref = obj("A partition.", {"topic": string("Topic."), "partition": integer("Partition index.")})

    create = obj(
        "--create: the topic and what the controller answered (validated only, with --dry-run).",
        {
            "topic": string("Topic name."),
            "topic_id": nullable(string("Topic id (base64); null when not created.")),
            "dry_run": boolean("True with --dry-run: nothing was created."),
            "created": boolean("The topic was created now."),
            "already_existed": boolean("--if-not-exists and the topic was there: nothing done."),
            "error": nullable(string("Why it was not created (the controller's error).")),
            "partitions": integer("Partitions (-1: not answered)."),
            "replication_factor": integer("Replicas per partition (-1: not answered)."),
            "configs": array(
                obj(
                    "One config as the topic has (or would have) it.",
                    {
                        "name": string("Config name."),
                        "value": nullable(string("Value (null when sensitive or unset).")),
                        "source": string("Kafka's config source: DYNAMIC_TOPIC_CONFIG, DEFAULT_CONFIG, ..."),
                        "read_only": boolean("Read-only."),
                        "sensitive": boolean("Sensitive (the value is never shown)."),
                    },
                ),
                "Every config of the topic (the controller's answer, CreateTopics v5+).",
            ),
            "placement": nullable(
                obj(
                    "With --dry-run: where the replicas would go.",
                    {
                        "assignment": nullable(
                            mapping(array(broker, "Replicas."), "Partition -> replicas (--replica-assignment).")
                        ),
                        "brokers": array(broker, "The brokers the controller spreads replicas over."),
                    },
                )
            ),
        },
    )
    alter = obj(
        "--alter --partitions: each topic grown (or, with --dry-run, that would be).",
        {
            "dry_run": boolean("True with --dry-run."),
            "topics": array(
                obj(
                    "One topic.",
                    {
                        "topic": string("Topic name."),
                        "partitions_before": integer("Partitions it had."),
                        "partitions": integer("Partitions asked for."),
                        "new_assignment": nullable(array(array(broker, "Replicas."), "The new partitions' replicas.")),
                        "error": nullable(string("The controller's error.")),
                    },
                ),
                "The topics --topic matched.",
            ),
        },
    )
    delete = obj(
        "--delete: the topics deleted (or, with --dry-run, that would be) and the groups with offsets on them.",
        {
            "dry_run": boolean("True with --dry-run."),
            "topics": array(
                obj(
                    "One topic.",
                    {
                        "topic": nullable(string("Topic name (null when deleted by id and not answered).")),
                        "topic_id": nullable(string("Topic id (base64).")),
                        "error": nullable(string("The controller's error.")),
                    },
                ),
                "The topics --topic or --topic-id named.",
            ),
            "groups_with_offsets": array(
                obj(
                    "A group with committed offsets on the topics.",
                    {
                        "group": string("Group id."),
                        "topics": mapping(integer("Partitions with a committed offset."), "Topic -> partitions."),
                    },
                ),
                "Groups whose offsets go with the topics, by group id.",
            ),
            "groups_error": nullable(string("Why some groups' offsets could not be read (the delete went on).")),
        },
    )
    summary, topics = g.COMMANDS["topics"]
    _, reassign = g.COMMANDS["reassign-partitions"]
    plan = reassign["oneOf"][0]  # the --generate shape: --alter --replication-factor prints that plan
    g.COMMANDS["topics"] = (
        summary + " --create, --alter and --delete: what changed (or would, with --dry-run); "
        "--alter --replication-factor: a reassignment plan.",
        one_of(topics["description"], *topics["oneOf"], create, alter, delete, plan),
    )
    elected = obj(
        "The partitions of an election, by outcome.",
        {
            "election_type": g.enum("--election-type.", "PREFERRED", "UNCLEAN"),
            "elected": array(partition_ref, "Partitions whose leader changed."),
            "not_needed": array(partition_ref, "Partitions already led as the election asks (ELECTION_NOT_NEEDED)."),
            "failed": array(
                obj(
                    "A partition that could not be elected.",
                    {
                        "topic": string("Topic."),
                        "partition": integer("Partition index."),
                        "error": nullable(string("Kafka's exception class for the error code.")),
                        "message": nullable(string("The controller's message.")),
                    },
                ),
                "Partitions that could not be elected.",
            ),
        },
    )
    _execute_with_election(g, reassign, elected)
    g.command(
        "leader-election",
        "The election's outcome per partition; --dry-run: the partitions the election is about.",
        one_of(
            "kcli leader-election -o json",
            elected,
            obj(
                "--dry-run.",
                {
                    "dry_run": boolean("Always true."),
                    "election_type": g.enum("--election-type.", "PREFERRED", "UNCLEAN"),
                    "partitions": array(
                        obj(
                            "A partition led by another than its preferred replica (or, unclean: by none).",
                            {
                                "topic": string("Topic."),
                                "partition": integer("Partition index."),
                                "leader": nullable(integer("Leader broker (null: none).")),
                                "preferred": nullable(integer("Preferred replica (the first).")),
                                "isr": array(broker, "In-sync replicas."),
                                "electable": nullable(boolean("A preferred election would move it (null: unclean).")),
                            },
                        ),
                        "Sorted by topic and partition.",
                    ),
                    "missing": array(partition_ref, "Partitions of the scope the cluster does not have."),
                },
            ),
        ),
    )
    replica = obj(
        "One replica in the dir.",
        {
            "topic": string("Topic."),
            "partition": integer("Partition index."),
            "size": integer("Bytes of its log segments."),
            "offset_lag": integer("Offsets behind the high watermark (a future replica: behind the current one)."),
            "is_future": boolean("The copy a move between dirs is making."),
        },
    )
    g.command(
        "log-dirs",
        "Each broker's log dirs, their space and the replicas in them (--topic-list's topics).",
        obj(
            "kcli log-dirs --describe -o json",
            {
                "brokers": array(
                    obj(
                        "One broker.",
                        {
                            "broker": broker,
                            "log_dirs": array(
                                obj(
                                    "One log dir.",
                                    {
                                        "path": string("Absolute path."),
                                        "error": nullable(string("Kafka's exception class of the dir's error.")),
                                        "total_bytes": nullable(integer("Volume size (null: not reported).")),
                                        "usable_bytes": nullable(integer("Free space (null: not reported).")),
                                        "cordoned": boolean("Cordoned (Kafka 4.4, KIP-1066)."),
                                        "size": integer("Bytes of its current replicas shown."),
                                        "replicas": array(replica, "By topic and partition."),
                                    },
                                ),
                                "By path.",
                            ),
                        },
                    ),
                    "By broker id.",
                ),
                "topics": nullable(array(string("Topic."), "--topic-list (null: every topic).")),
            },
        ),
    )
    g.command(
        "delete-records",
        "Each partition's new low watermark; --dry-run: its offsets and what would go.",
        one_of(
            "kcli delete-records -o json",
            obj(
                "The deletes.",
                {
                    "partitions": array(
                        obj(
                            "One partition.",
                            {
                                "topic": string("Topic."),
                                "partition": integer("Partition index."),
                                "low_watermark": nullable(integer("Its log start offset now (null: failed).")),
                                "error": nullable(string("Why it failed (Kafka's exception).")),
                            },
                        ),
                        "By topic and partition.",
                    )
                },
            ),
            obj(
                "--dry-run.",
                {
                    "dry_run": boolean("Always true."),
                    "partitions": array(
                        obj(
                            "One partition.",
                            {
                                "topic": string("Topic."),
                                "partition": integer("Partition index."),
                                "log_start_offset": integer("Its log start offset."),
                                "high_watermark": integer("Its high watermark."),
                                "offset": integer("The file's offset (-1: the high watermark)."),
                                "would_delete": integer("Offsets that would go."),
                                "new_low_watermark": integer("Its log start offset after."),
                            },
                        ),
                        "By topic and partition.",
                    ),
                },
            ),
        ),
    )


def _execute_with_election(g: ModuleType, reassign: dict[str, Any], elected: dict[str, Any]) -> None:
    """--execute --wait ends with a preferred election: its outcome under `preferred_election`."""
    execute = next(v for v in reassign["oneOf"] if v["description"].startswith("--execute"))
    execute["properties"]["preferred_election"] = elected | {
        "description": "With --wait (not --no-elect): the preferred leader election of the moved partitions."
    }
