"""The documented `-o json` output of every kcli command: schemas (JSON Schema 2020-12) and pages.

This file is the source; `python docs/json/generate.py` writes docs/json/schemas/<command>.json and
docs/json/<command>.md from it, and tests/polish/test_json_output.py checks both are up to date and
that each command's real output validates against its schema. Every object lists all of its keys
as required and allows no others: a key added, renamed or retyped in a command's JSON fails the
test until this file (and so the documentation) says so.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
DIALECT = "https://json-schema.org/draft/2020-12/schema"

Schema = dict[str, Any]


# ------------------------------------------------------------------ building blocks


def string(description: str, **extra: Any) -> Schema:
    return {"type": "string", "description": description, **extra}


def integer(description: str, **extra: Any) -> Schema:
    return {"type": "integer", "description": description, **extra}


def number(description: str) -> Schema:
    return {"type": "number", "description": description}


def boolean(description: str) -> Schema:
    return {"type": "boolean", "description": description}


def enum(description: str, *values: str) -> Schema:
    return {"type": "string", "enum": list(values), "description": description}


def nullable(schema: Schema) -> Schema:
    """`schema` or null (JSON null where the value is absent or unknown)."""
    kinds = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
    out = {**schema, "type": [*kinds, "null"]}
    if "enum" in out:
        out["enum"] = [*out["enum"], None]
    return out


def array(items: Schema, description: str) -> Schema:
    return {"type": "array", "items": items, "description": description}


def obj(description: str, properties: Mapping[str, Schema], *, optional: tuple[str, ...] = ()) -> Schema:
    """An object with exactly these keys (all required unless named in `optional`)."""
    return {
        "type": "object",
        "description": description,
        "properties": dict(properties),
        "required": [key for key in properties if key not in optional],
        "additionalProperties": False,
    }


def mapping(values: Schema, description: str) -> Schema:
    """An object used as a map: any keys, values of one schema."""
    return {"type": "object", "description": description, "additionalProperties": values}


def one_of(description: str, *variants: Schema) -> Schema:
    return {"description": description, "oneOf": list(variants)}


# ------------------------------------------------------------------ shared pieces

SEVERITY = ("info", "low", "medium", "high", "critical")
ERROR = nullable(
    obj(
        "The Kafka error of this resource, null when it succeeded.",
        {
            "code": integer("Kafka error code."),
            "name": string(
                "Kafka error name, e.g. UNKNOWN_TOPIC_OR_PARTITION; empty when the client failed (see message)."
            ),
            "message": nullable(string("The server's error message.")),
        },
    )
)
ENTITY = obj(
    "A config entity.",
    {
        "type": string("Entity type as given to --entity-type: topics, brokers, users, clients, ips, ..."),
        "name": nullable(string("Entity name; null for the default entity.")),
        "default": boolean("True for the default entity (--entity-default)."),
    },
)
ACL = obj(
    "One ACL binding, in the shape of `kcli acls --export` files.",
    {
        "resourceType": string("TOPIC, GROUP, CLUSTER, TRANSACTIONAL_ID, DELEGATION_TOKEN or USER."),
        "name": string("Resource name (* for all)."),
        "patternType": string("LITERAL or PREFIXED."),
        "principal": string("Principal, e.g. User:alice."),
        "host": string("Host (* for any)."),
        "operation": string("Operation, e.g. READ, WRITE, ALL."),
        "permissionType": string("ALLOW or DENY."),
    },
)


def acl_with(extra: Mapping[str, Schema], description: str) -> Schema:
    return obj(description, {**ACL["properties"], **extra})


ASSIGNMENT = obj(
    "A replica assignment in Kafka's reassignment JSON format.",
    {
        "version": integer("Format version (1)."),
        "partitions": array(
            obj(
                "One partition.",
                {
                    "topic": string("Topic name."),
                    "partition": integer("Partition index."),
                    "replicas": array(integer("Broker id."), "Replica broker ids, preferred leader first."),
                    "log_dirs": array(string("Absolute log dir, or any."), "Log dir of each replica."),
                },
            ),
            "Partitions, sorted by topic and index.",
        ),
    },
)
PARTITION_STATE = obj(
    "One partition's reassignment state.",
    {
        "partition": string("TOPIC-INDEX."),
        "topic": string("Topic name."),
        "partition_index": integer("Partition index."),
        "status": enum("Reassignment state.", "complete", "in_progress", "not_found", "mismatch"),
        "replicas": array(integer("Broker id."), "Current replicas."),
        "target": array(integer("Broker id."), "Target replicas from the file."),
    },
)
THROTTLES_CLEARED = obj(
    "Throttles removed because every reassignment finished.",
    {
        "brokers": array(integer("Broker id."), "Brokers whose throttle rates were removed."),
        "topics": array(string("Topic."), "Topics whose throttled replica lists were removed."),
    },
)
REPLICA = obj(
    "A voter or observer of the metadata quorum.",
    {
        "id": integer("Node id."),
        "directory_id": nullable(string("Metadata directory id (base64 Uuid).")),
        "log_end_offset": integer("Its metadata log end offset."),
        "last_fetch_timestamp": nullable(integer("Last fetch, ms since the epoch (null: unknown).")),
        "last_caught_up_timestamp": nullable(integer("Last caught up, ms since the epoch (null: unknown).")),
        "endpoints": array(string("LISTENER://host:port"), "Its endpoints (voters only)."),
    },
)
FEATURE_UPDATE = obj(
    "What an upgrade, downgrade or disable did (or would do, with --dry-run).",
    {
        "operation": enum("The subcommand.", "upgrade", "downgrade", "disable"),
        "dry_run": boolean("True with --dry-run (ValidateOnly): nothing changed."),
        "results": array(
            obj(
                "One feature.",
                {
                    "feature": string("Feature name."),
                    "level": integer("Requested level (0: disabled)."),
                    "ok": boolean("True when the cluster accepted it."),
                    "error": nullable(string("Why it was refused.")),
                },
            ),
            "One entry per feature, sorted by name.",
        ),
        "failed": integer("How many were refused (exit status 1 when > 0)."),
    },
)
SANDBOX_NODE = obj(
    "One node of the sandbox.",
    {
        "id": integer("Node id (brokers 1.., controllers 101..; with --combined, nodes 1.. are both)."),
        "role": enum(
            "Its role (combined: broker and controller, real Kafka only).", "broker", "controller", "combined"
        ),
        "host": string("Listener host."),
        "port": integer("Listener port (a combined node's broker listener)."),
        "running": boolean("False after stop-node or kill-node."),
        "delay_ms": integer("Injected response delay (sandbox delay; always 0 on real Kafka)."),
        "advertises": nullable(integer("Node whose endpoint it advertises (sandbox misroute), else null.")),
        "rack": nullable(string("broker.rack of a broker (up --racks), else null.")),
        "pid": nullable(integer("Real Kafka only: the process id of the node's JVM (null when stopped).")),
    },
    optional=("pid",),
)
SANDBOX_STATUS = obj(
    "The state of a running sandbox.",
    {
        "engine": enum(
            "What runs the nodes: the emulator, or real Kafka (up --kafka-home).", "emulator", "kafka"
        ),
        "kafka_version": string("Real Kafka only: the release of --kafka-home."),
        "kafka_home": string("Real Kafka only: the Kafka distribution the nodes run from."),
        "cluster_id": string("Cluster id."),
        "active_controller_id": nullable(
            integer("Active controller id (null: real controllers that did not answer DescribeQuorum).")
        ),
        "leader_epoch": nullable(integer("Metadata leader epoch (null as above).")),
        "log_end_offset": nullable(
            integer("Metadata log end offset (the active controller's; null as above).")
        ),
        "high_watermark": nullable(
            integer("Metadata high watermark: records below it are on a majority of the voters, durably.")
        ),
        "security": enum("Listener security.", "plaintext", "sasl_plaintext", "ssl", "sasl_ssl"),
        "bootstrap_servers": string("Broker bootstrap list for -b."),
        "bootstrap_controllers": string("Controller bootstrap list for -C."),
        "topics": nullable(integer("Number of topics (null: real brokers that did not answer Metadata).")),
        "nodes": array(SANDBOX_NODE, "The nodes by id."),
        "pid": integer("The emulator only: the process id of the sandbox (up, status)."),
        "directory": string("The sandbox directory (up, status)."),
    },
    optional=("kafka_version", "kafka_home", "pid", "directory"),
)

# ------------------------------------------------------------------ one schema per command

COMMANDS: dict[str, tuple[str, Schema]] = {}


def command(path: str, summary: str, schema: Schema) -> None:
    COMMANDS[path] = (summary, schema)


command(
    "cluster-id",
    "The cluster id and who answered.",
    obj(
        "kcli cluster-id -o json",
        {
            "cluster_id": nullable(string("Cluster id (null: the cluster has none yet).")),
            "controller_id": nullable(integer("Controller id the bootstrap node reported (null: none).")),
            "endpoint_type": enum(
                "Which bootstrap kind answered (-b or -C).",
                "brokers",
                "controllers",
            ),
        },
    ),
)
command(
    "cluster cluster-id",
    "The cluster id and who answered.",
    obj(
        "kcli cluster cluster-id -o json",
        {
            "cluster_id": nullable(string("Cluster id (null: the cluster has none yet).")),
            "controller_id": nullable(integer("Controller id the bootstrap node reported (null: none).")),
            "endpoint_type": enum(
                "Which bootstrap kind answered (-b or -C).",
                "brokers",
                "controllers",
            ),
        },
    ),
)
command(
    "cluster api-versions",
    "The API versions of every broker (or, with -C, every controller), as kafka-cluster api-versions shows them.",
    obj(
        "kcli cluster api-versions -o json",
        {
            "endpoint_type": enum("Kind of the listed nodes.", "broker", "controller"),
            "nodes": array(
                obj(
                    "One node.",
                    {
                        "id": integer("Node id."),
                        "host": string("Advertised host."),
                        "port": integer("Advertised port."),
                        "error": nullable(string("Why the node could not be asked (null: it answered).")),
                        "apis": array(
                            obj(
                                "One API: offered by the node, or a client API it lacks.",
                                {
                                    "api_key": integer("API key."),
                                    "name": nullable(
                                        string("Kafka's name of the API (null: a key kcli does not know).")
                                    ),
                                    "min_version": nullable(
                                        integer("Lowest version the node offers (null: not offered).")
                                    ),
                                    "max_version": nullable(
                                        integer("Highest version the node offers (null: not offered).")
                                    ),
                                    "usable_version": nullable(
                                        integer("The version kcli would use with this node (null: none).")
                                    ),
                                    "request_header_version": nullable(
                                        integer("The request header version of usable_version (null: none).")
                                    ),
                                    "unusable": nullable(
                                        enum("Why no version is usable.", "node too new", "node too old")
                                    ),
                                },
                            ),
                            "By API key.",
                        ),
                    },
                ),
                "Nodes by id.",
            ),
        },
    ),
)
command(
    "cluster list-endpoints",
    "The brokers (or, with -C, the controllers) and their endpoints.",
    obj(
        "kcli cluster list-endpoints -o json",
        {
            "cluster_id": nullable(string("Cluster id.")),
            "endpoint_type": enum("Kind of the listed nodes.", "broker", "controller"),
            "nodes": array(
                obj(
                    "One node.",
                    {
                        "id": integer("Node id."),
                        "host": string("Advertised host."),
                        "port": integer("Advertised port."),
                        "rack": nullable(string("Rack (null: none).")),
                        "fenced": boolean("True for a fenced broker (with --include-fenced-brokers)."),
                    },
                ),
                "Nodes by id.",
            ),
        },
    ),
)
command(
    "cluster unregister",
    "Whether the broker was unregistered.",
    obj(
        "kcli cluster unregister -o json",
        {
            "broker_id": integer("The broker id given with --id."),
            "unregistered": boolean("True when the cluster removed the registration."),
            "supported": boolean("False when the cluster does not support UnregisterBroker."),
        },
        optional=("supported",),
    ),
)
command(
    "cluster unregister-controller",
    "Whether the controller was unregistered.",
    obj(
        "kcli cluster unregister-controller -o json",
        {
            "controller_id": integer("The controller id given with --id."),
            "unregistered": boolean("True when the cluster removed the registration."),
            "supported": boolean(
                "False when the cluster does not support UnregisterController (before Kafka 4.4, or "
                "metadata.version below 4.4-IV2)."
            ),
        },
        optional=("supported",),
    ),
)
command(
    "cluster doctor",
    "Every check, finding and probed endpoint.",
    obj(
        "kcli cluster doctor -o json",
        {
            "cluster_id": nullable(string("Cluster id (null: none could be read).")),
            "healthy": boolean("False when a finding reaches --fail-on (exit status 1)."),
            "fail_on": enum("The --fail-on severity.", *SEVERITY),
            "worst": nullable(enum("Severity of the worst finding (null: none).", *SEVERITY)),
            "findings": array(
                obj(
                    "One finding.",
                    {
                        "check": string("The check that found it."),
                        "severity": enum("Severity.", *SEVERITY),
                        "subject": string("What it is about (node, endpoint, cluster)."),
                        "message": string("What is wrong."),
                        "hint": nullable(string("What to do.")),
                    },
                ),
                "Findings, worst first.",
            ),
            "checked": array(string("Check name."), "Checks that ran."),
            "not_checked": array(string("Check name."), "Checks that could not run."),
            "endpoints": array(
                obj(
                    "One probed endpoint.",
                    {
                        "role": enum("Why it was probed.", "bootstrap", "broker", "controller"),
                        "node_id": nullable(integer("Node id (null for a bootstrap address).")),
                        "address": string("host:port."),
                        "ok": boolean("True when it answered."),
                        "error": nullable(string("Why it did not.")),
                        "latency_ms": nullable(number("Round trip in ms.")),
                        "cluster_id": nullable(string("Cluster id it reported.")),
                        "controller_id": nullable(integer("Controller id it reported.")),
                        "identity": nullable(
                            obj(
                                "Whether the node at this address is the node advertised there.",
                                {
                                    "method": string("How it was checked, e.g. api_versions_v5."),
                                    "verified": nullable(boolean("True ok, false mismatch, null unchecked.")),
                                    "actual_node_id": nullable(integer("The node id that answered.")),
                                    "detail": nullable(string("Detail of a mismatch.")),
                                },
                            )
                        ),
                        "finalized_metadata_version": nullable(
                            integer("metadata.version level it reported.")
                        ),
                    },
                ),
                "Every endpoint probed.",
            ),
        },
    ),
)

CONFIG_ENTRY = obj(
    "One config.",
    {
        "name": string("Config name."),
        "value": nullable(string("Value (null when sensitive or unset).")),
        "source": string("Where the value comes from, e.g. DYNAMIC_TOPIC_CONFIG, DEFAULT_CONFIG."),
        "sensitive": boolean("True for passwords and keys (value hidden)."),
        "read_only": boolean("True when it cannot be altered dynamically."),
        "type": nullable(string("Config type, e.g. LONG, LIST, PASSWORD (null: not reported).")),
        "synonyms": array(
            obj(
                "A synonym, in precedence order.",
                {
                    "name": string("Config name at that level."),
                    "value": nullable(string("Its value (null when sensitive).")),
                    "source": string("Its source."),
                },
            ),
            "Synonyms, highest precedence first.",
        ),
    },
)
command(
    "configs",
    "--describe, --alter and --diff each have their own shape.",
    one_of(
        "kcli configs -o json",
        obj(
            "--describe: configs of each entity, plus client quotas and SCRAM credentials.",
            {
                "resources": array(
                    obj(
                        "One entity's configs.",
                        {"entity": ENTITY, "error": ERROR, "configs": array(CONFIG_ENTRY, "Its configs.")},
                    ),
                    "Entities with configs (topics, brokers, broker-loggers, groups, client-metrics).",
                ),
                "missing": array(ENTITY, "Entities that do not exist."),
                "quotas": array(
                    obj(
                        "Client quotas of one entity (users, clients, ips).",
                        {
                            "entity": array(
                                obj(
                                    "One component.",
                                    {
                                        "type": string("user, client-id or ip."),
                                        "name": nullable(string("Name (null: the default).")),
                                    },
                                ),
                                "The quota entity's components.",
                            ),
                            "values": mapping(number("Quota value."), "Quota name -> value."),
                        },
                    ),
                    "Client quotas.",
                ),
                "scram": array(
                    obj(
                        "SCRAM credentials of one user.",
                        {
                            "user": string("User name."),
                            "error": ERROR,
                            "credentials": array(
                                obj(
                                    "One credential.",
                                    {
                                        "mechanism": nullable(string("SCRAM-SHA-256 or SCRAM-SHA-512.")),
                                        "iterations": integer("Iterations."),
                                    },
                                ),
                                "Its credentials.",
                            ),
                        },
                    ),
                    "SCRAM credentials (users).",
                ),
            },
        ),
        obj(
            "--alter: what changed (or, with --dry-run, would change) per entity.",
            {
                "results": array(
                    obj(
                        "One entity.",
                        {
                            "entity": ENTITY,
                            "dry_run": boolean("True with --dry-run (validateOnly)."),
                            "validated": boolean("True when the cluster validated the change."),
                            "error": ERROR,
                            "changes": array(
                                obj(
                                    "One config change.",
                                    {
                                        "key": string("Config name."),
                                        "op": enum("Operation.", "SET", "DELETE", "APPEND", "SUBTRACT"),
                                        "before": nullable(
                                            string("Value before (null: unset, sensitive or not known).")
                                        ),
                                        "before_read": boolean(
                                            "False when the value before could not be read (a broker's config "
                                            "or a quota through --bootstrap-controller)."
                                        ),
                                        "after": nullable(string("Value after (null: unset or sensitive).")),
                                        "after_is_default": boolean("True when it falls back to a default."),
                                        "sensitive": boolean("True for a sensitive config."),
                                    },
                                ),
                                "Changes, in the order given.",
                            ),
                        },
                    ),
                    "One result per entity.",
                ),
            },
        ),
        obj(
            "--diff: the configs that differ between the entities.",
            {
                "entities": array(string("Entity label, e.g. 'topic orders'."), "The compared entities."),
                "all": boolean("True with --all (every config, not only dynamic ones)."),
                "differences": array(
                    obj(
                        "One config that differs.",
                        {
                            "name": string("Config name."),
                            "values": array(
                                nullable(string("Value (null: unset).")), "One value per entity, in order."
                            ),
                        },
                    ),
                    "Differing configs by name.",
                ),
            },
        ),
    ),
)
command(
    "acls",
    "--list, --add, --remove and --import each have their own shape; ACL objects use Kafka's camelCase keys.",
    one_of(
        "kcli acls -o json",
        obj("--list: the ACL bindings.", {"acls": array(ACL, "Bindings.")}),
        obj(
            "--add: what was created, already present or (--dry-run) would be created.",
            {
                "dry_run": boolean("True with --dry-run."),
                "present": array(ACL, "Bindings that already existed."),
                "created": array(ACL, "Bindings created."),
                "would_create": array(ACL, "Bindings --dry-run would create."),
                "errors": array(acl_with({"error": string("Why.")}, "A binding that failed."), "Failures."),
                "acls": array(ACL, "The resources' bindings afterwards."),
            },
        ),
        obj(
            "--remove: what matched the filters and was removed.",
            {
                "dry_run": boolean("True with --dry-run."),
                "matched": array(ACL, "Bindings matching the filters."),
                "removed": array(ACL, "Bindings removed."),
                "skipped": array(string("A filter."), "Filters skipped (not confirmed)."),
                "errors": array(
                    obj("A failed filter.", {"filter": string("The filter."), "error": string("Why.")}),
                    "Failures.",
                ),
                "acls": array(ACL, "The resources' bindings afterwards."),
            },
        ),
        obj(
            "--import: the file compared with the cluster.",
            {
                "dry_run": boolean("True with --dry-run."),
                "prune": boolean("True with --prune."),
                "create": array(
                    acl_with(
                        {"error": nullable(string("Why it failed (null: created)."))}, "A binding to create."
                    ),
                    "Bindings in the file, missing on the cluster.",
                ),
                "present": array(ACL, "Bindings already on the cluster."),
                "extra": array(
                    acl_with(
                        {"removed": boolean("True when --prune removed it.")}, "A binding not in the file."
                    ),
                    "Bindings on the cluster, not in the file.",
                ),
            },
        ),
    ),
)
command(
    "features describe",
    "Supported and finalized feature levels.",
    obj(
        "kcli features describe -o json",
        {
            "node": nullable(integer("The --node-id asked (null: any node).")),
            "finalized_epoch": nullable(integer("Epoch of the finalized features.")),
            "features": array(
                obj(
                    "One feature (metadata.version adds its release names).",
                    {
                        "name": string("Feature name."),
                        "supported_min_version": integer("Lowest supported level."),
                        "supported_max_version": integer("Highest supported level."),
                        "finalized_version_level": integer("Finalized level (0: disabled)."),
                        "epoch": nullable(integer("Finalized features epoch.")),
                        "supported_min_release": string("metadata.version only: e.g. 3.3-IV3."),
                        "supported_max_release": string("metadata.version only."),
                        "finalized_release": string("metadata.version only."),
                    },
                    optional=("supported_min_release", "supported_max_release", "finalized_release"),
                ),
                "Features by name.",
            ),
        },
    ),
)
for _sub in ("upgrade", "downgrade", "disable"):
    command(f"features {_sub}", f"What `features {_sub}` did or would do.", FEATURE_UPDATE)
command(
    "features version-mapping",
    "Feature levels of a release.",
    obj(
        "kcli features version-mapping -o json",
        {
            "release_version": string("Release, e.g. 3.9-IV0."),
            "metadata_version": integer("Its metadata.version level."),
            "features": mapping(integer("Default level."), "Other feature -> its level in that release."),
        },
    ),
)
DEPENDENCY = obj(
    "A feature level.",
    {
        "feature": string("Feature name."),
        "level": integer("Level."),
        "release": nullable(string("Release name, for metadata.version (else null).")),
    },
)
command(
    "features feature-dependencies",
    "What each given feature level requires.",
    array(
        obj(
            "One --feature.",
            {**DEPENDENCY["properties"], "requires": array(DEPENDENCY, "Levels it requires.")},
        ),
        "kcli features feature-dependencies -o json: one entry per --feature.",
    ),
)
command(
    "metadata-quorum describe",
    "--status and --replication have their own shapes.",
    one_of(
        "kcli metadata-quorum describe -o json",
        obj(
            "--status: leader, epoch, high watermark, lag, voters and observers.",
            {
                "cluster_id": nullable(string("Cluster id.")),
                "leader_id": integer("Active controller id."),
                "leader_epoch": integer("Leader epoch."),
                "high_watermark": integer("Metadata log high watermark."),
                "max_follower_lag": integer("Largest voter lag in records."),
                "max_follower_lag_time_ms": integer("Largest voter lag in ms."),
                "voters": array(REPLICA, "Voters."),
                "observers": array(REPLICA, "Observers (brokers)."),
            },
        ),
        array(
            obj(
                "--replication: one row per voter and observer.",
                {
                    "node_id": integer("Node id."),
                    "directory_id": nullable(string("Metadata directory id (base64 Uuid).")),
                    "log_end_offset": integer("Log end offset."),
                    "lag": integer("Records behind the leader."),
                    "last_fetch_timestamp": nullable(integer("Last fetch, ms since the epoch.")),
                    "last_caught_up_timestamp": nullable(integer("Last caught up, ms since the epoch.")),
                    "status": enum("Its role.", "Leader", "Follower", "Observer"),
                    "last_fetch_ms_ago": nullable(integer("With --human-readable: ms since the last fetch.")),
                    "last_caught_up_ms_ago": nullable(integer("With --human-readable: ms since caught up.")),
                },
                optional=("last_fetch_ms_ago", "last_caught_up_ms_ago"),
            ),
            "--replication rows.",
        ),
    ),
)
CONTROLLER_CHANGE = obj(
    "What add-controller or remove-controller did (or, with --dry-run, would do).",
    {
        "action": enum("The change.", "add", "remove"),
        "dry_run": boolean("True with --dry-run: nothing was sent."),
        "controller_id": integer("The voter's node id."),
        "directory_id": string("Its metadata directory id (base64 Uuid)."),
        "endpoints": array(string("LISTENER://host:port"), "Its controller endpoints (add)."),
        "unregistered": boolean(
            "remove-controller --unregister only: True once its registration is gone too (KIP-1312)."
        ),
    },
    optional=("unregistered",),
)
command("metadata-quorum add-controller", "The voter added.", CONTROLLER_CHANGE)
command("metadata-quorum remove-controller", "The voter removed.", CONTROLLER_CHANGE)
command(
    "metadata-shell",
    "With --dump: JSON Lines, one object per record (the shell commands print text).",
    obj(
        "kcli metadata-shell --dump -o json: each line is one of these objects",
        {
            "offset": integer("Record offset in the metadata log."),
            "epoch": integer("Leader epoch of its batch."),
            "timestamp": integer("Batch timestamp, ms since the epoch."),
            "type": string("Record type, e.g. TopicRecord, PartitionRecord, FeatureLevelRecord."),
            "version": integer("Record version."),
            "data": {
                "type": "object",
                "description": "The record's fields, camelCase as Kafka's JsonConverter writes them "
                "(uuids in Kafka's base64, bytes in base64, SCRAM salts and keys redacted).",
            },
            "control": {
                "type": "boolean",
                "enum": [True],
                "description": "Present (true) on control records.",
            },
            "raw": string("An undecodable or unknown record: its bytes in base64 (instead of data)."),
            "reason": string("Why it could not be decoded (with raw)."),
        },
        optional=("data", "control", "raw", "reason"),
    ),
)
command(
    "topics",
    "--list: the topic names; --describe: topics with their partitions (only the reported ones with a report option).",
    one_of(
        "kcli topics -o json",
        obj("--list.", {"topics": array(string("Topic name."), "Sorted.")}),
        obj(
            "--describe.",
            {
                "reports": array(
                    enum(
                        "A report option given.",
                        "under-replicated-partitions",
                        "unavailable-partitions",
                        "under-min-isr-partitions",
                        "at-min-isr-partitions",
                    ),
                    "The partition reports asked for (none: every partition).",
                ),
                "topics": array(
                    obj(
                        "One topic.",
                        {
                            "name": string("Topic name."),
                            "topic_id": nullable(string("Topic id (base64).")),
                            "internal": boolean("An internal topic (__consumer_offsets, ...)."),
                            "partition_count": integer("Partitions."),
                            "replication_factor": integer(
                                "Replicas of the first partition (without those a running reassignment adds)."
                            ),
                            "configs": mapping(
                                nullable(string("Value.")), "The configs not at their default."
                            ),
                            "partitions": array(
                                obj(
                                    "One partition shown.",
                                    {
                                        "partition": integer("Partition index."),
                                        "leader": nullable(integer("Leader broker (null: none).")),
                                        "replicas": array(integer("Broker id."), "Replicas."),
                                        "isr": array(integer("Broker id."), "In-sync replicas."),
                                        "elr": nullable(
                                            array(
                                                integer("Broker id."),
                                                "Eligible leader replicas (null: not reported).",
                                            )
                                        ),
                                        "last_known_elr": nullable(
                                            array(
                                                integer("Broker id."), "Last known ELR (null: not reported)."
                                            )
                                        ),
                                        "adding_replicas": nullable(
                                            array(
                                                integer("Broker id."),
                                                "A running reassignment adds (null: none runs).",
                                            )
                                        ),
                                        "removing_replicas": nullable(
                                            array(integer("Broker id."), "A running reassignment removes.")
                                        ),
                                    },
                                ),
                                "Partitions shown.",
                            ),
                        },
                    ),
                    "Topics with something shown, by name.",
                ),
            },
        ),
    ),
)
command(
    "reassign-partitions",
    "--generate, --execute, --verify, --cancel and --list each have their own shape.",
    one_of(
        "kcli reassign-partitions -o json",
        obj(
            "--generate: the current and proposed assignments and what the plan moves.",
            {
                "strategy": enum("The --strategy.", "original", "minimal-movement"),
                "rack_aware": boolean("False with --disable-rack-aware."),
                "current": ASSIGNMENT,
                "proposed": ASSIGNMENT,
                "stats": obj(
                    "What the plan moves.",
                    {
                        "partitions": integer("Partitions considered."),
                        "partitions_changed": integer("Partitions whose replicas change."),
                        "replicas_moved": integer("Replicas moved to another broker."),
                        "bytes_moved": integer("Bytes those replicas hold."),
                        "leaders_changed": integer("Partitions with a new preferred leader."),
                        "replica_spread": integer("Max - min replicas per broker afterwards."),
                        "leader_spread": integer("Max - min leaders per broker afterwards."),
                        "brokers": array(
                            obj(
                                "One broker.",
                                {
                                    "broker": integer("Broker id."),
                                    "rack": nullable(string("Rack.")),
                                    "replicas_before": integer("Replicas before."),
                                    "replicas_after": integer("Replicas after."),
                                    "leaders_before": integer("Leaders before."),
                                    "leaders_after": integer("Leaders after."),
                                },
                            ),
                            "Per broker.",
                        ),
                    },
                ),
            },
        ),
        obj(
            "--execute: what was started.",
            {
                "rollback_file": nullable(string("Where the current assignment was saved.")),
                "current": ASSIGNMENT,
                "throttle": obj(
                    "Throttles set.",
                    {
                        "inter_broker_rate": nullable(integer("--throttle B/s (null: none).")),
                        "log_dir_rate": nullable(integer("--replica-alter-log-dirs-throttle B/s.")),
                        "topics": mapping(
                            mapping(string("Value."), "Config -> value."), "Topic -> configs set."
                        ),
                        "brokers": mapping(
                            mapping(string("Value."), "Config -> value."), "Broker id -> configs set."
                        ),
                    },
                ),
                "started": array(string("TOPIC-INDEX."), "Partitions whose reassignment started."),
                "errors": mapping(string("Error."), "TOPIC-INDEX -> why it did not start."),
                "log_dir_moves_started": array(
                    obj(
                        "A log-dir move.",
                        {
                            "partition": string("TOPIC-INDEX."),
                            "broker": integer("Broker id."),
                            "log_dir": string("Target log dir."),
                        },
                    ),
                    "Log-dir moves started.",
                ),
                "log_dir_moves_timed_out": array(string("TOPIC-INDEX-BROKER."), "Moves that did not start."),
                "wait": obj(
                    "With --wait: the progress until done or --timeout.",
                    {
                        "throttles": nullable(
                            obj(
                                "What became of the throttles once done (null: none was set, or --timeout).",
                                {
                                    "cleared": obj(
                                        "Where the throttle configs were removed, as --verify removes them.",
                                        {
                                            "brokers": array(integer("Broker id."), "Brokers."),
                                            "topics": array(string("Topic."), "Topics."),
                                        },
                                    ),
                                    "kept_because": nullable(
                                        string("Why they were left in place (null: removed).")
                                    ),
                                    "errors": array(string("Error."), "Configs that could not be removed."),
                                },
                            )
                        ),
                        "timed_out": boolean("True when --timeout passed first."),
                        "pending": array(string("TOPIC-INDEX."), "Still moving."),
                        "partitions": array(
                            obj(
                                "Progress of one partition.",
                                {
                                    "partition": string("TOPIC-INDEX."),
                                    "done": boolean("Finished."),
                                    "fraction": number("0..1."),
                                    "bytes_done": integer("Bytes copied."),
                                    "bytes_total": integer("Bytes to copy."),
                                },
                            ),
                            "Progress.",
                        ),
                        "states": array(PARTITION_STATE, "Final states."),
                        "log_dir_moves": array(
                            obj(
                                "A log-dir move of the file.",
                                {
                                    "partition": string("TOPIC-INDEX."),
                                    "broker": integer("Broker id."),
                                    "log_dir": string("Target log dir."),
                                    "done": boolean("The replica is in the target dir, no copy left."),
                                    "status": string("The line --verify prints for it."),
                                },
                            ),
                            "With log-dir moves: their state once done (or at the timeout).",
                        ),
                    },
                ),
            },
            optional=("wait",),
        ),
        obj(
            "--verify: the state of each partition of the file.",
            {
                "complete": boolean("True when every partition is done."),
                "any_reassignment_running": boolean("True while any reassignment runs in the cluster."),
                "partitions": array(PARTITION_STATE, "Per partition."),
                "log_dir_moves": array(
                    obj(
                        "A log-dir move.",
                        {
                            "partition": string("TOPIC-INDEX."),
                            "broker": integer("Broker id."),
                            "log_dir": string("Target log dir."),
                            "done": boolean("Finished."),
                            "status": string("Kafka's status line."),
                        },
                    ),
                    "Log-dir moves of the file.",
                ),
                "throttles_cleared": THROTTLES_CLEARED,
                "clear_errors": array(string("Error."), "Throttles that could not be removed."),
            },
        ),
        obj(
            "--cancel: what was cancelled and restored.",
            {
                "cancelled": array(string("TOPIC-INDEX."), "Reassignments cancelled."),
                "restored": mapping(
                    array(integer("Broker id."), "Replicas."), "TOPIC-INDEX -> replicas after."
                ),
                "errors": mapping(string("Error."), "TOPIC-INDEX -> why it was not cancelled."),
                "log_dir_moves_cancelled": array(string("TOPIC-INDEX-BROKER."), "Log-dir moves cancelled."),
                "throttles_cleared": THROTTLES_CLEARED,
                "clear_errors": array(string("Error."), "Throttles that could not be removed."),
            },
        ),
        obj(
            "--list: running reassignments.",
            {
                "reassignments": array(
                    obj(
                        "One running reassignment.",
                        {
                            "topic": string("Topic."),
                            "partition": integer("Partition index."),
                            "replicas": array(integer("Broker id."), "Replicas."),
                            "adding": array(integer("Broker id."), "Replicas being added."),
                            "removing": array(integer("Broker id."), "Replicas being removed."),
                        },
                    ),
                    "By topic and partition.",
                ),
            },
        ),
    ),
)
command(
    "profile list",
    "The profiles in the config file.",
    array(
        obj(
            "One profile.",
            {
                "name": string("Profile name."),
                "default": boolean("True for the default profile."),
                "bootstrap_servers": nullable(string("Its bootstrap.servers (null: not set).")),
                "bootstrap_controllers": nullable(string("Its bootstrap.controllers (null: not set).")),
            },
        ),
        "kcli profile list -o json: profiles by name.",
    ),
)
command(
    "profile show",
    "One profile's settings (secrets hidden).",
    obj(
        "kcli profile show -o json",
        {
            "name": string("Profile name."),
            "default": boolean("True for the default profile."),
            "settings": mapping(
                string("Value (secrets hidden, references kept)."), "Client setting -> value."
            ),
        },
    ),
)
command("sandbox up", "The started sandbox (with --detach).", SANDBOX_STATUS)
command("sandbox status", "The running sandbox.", SANDBOX_STATUS)
for _sub in ("stop-node", "kill-node", "start-node", "delay"):
    command(f"sandbox {_sub}", "The sandbox after the change.", SANDBOX_STATUS)
command(
    "sandbox failover",
    "The new active controller.",
    obj("kcli sandbox failover -o json", {"active_controller_id": integer("The new active controller.")}),
)
command(
    "sandbox misroute",
    "Whose endpoint the node now advertises.",
    obj("kcli sandbox misroute -o json", {"advertises": integer("The node whose endpoint it advertises.")}),
)
command(
    "sandbox add-node",
    "The new node, and the sandbox afterwards.",
    obj(
        "kcli sandbox add-node -o json",
        {
            "node_id": integer("The new node's id."),
            "role": enum("A broker, or a controller that is not a voter yet.", "broker", "controller"),
            "host": string("Its listener host."),
            "port": integer("Its listener port."),
            "config": nullable(
                string(
                    "A controller's server.properties, for metadata-quorum add-controller --command-config."
                )
            ),
            "status": SANDBOX_STATUS,
        },
    ),
)
command(
    "sandbox replace-brokers",
    "Old broker id -> new broker id, and the sandbox afterwards.",
    obj(
        "kcli sandbox replace-brokers -o json",
        {
            "replaced": mapping(integer("New broker id."), "Old broker id -> new broker id."),
            "status": SANDBOX_STATUS,
        },
    ),
)
command(
    "spark rules",
    "The audit rules.",
    array(
        obj(
            "One rule.",
            {
                "id": string("Rule id."),
                "severity": enum("Severity.", *SEVERITY),
                "description": string("What it finds."),
                "params": {"type": "object", "description": "Its parameters (name -> value)."},
                "source": string("builtin, or the --rules file it came from."),
            },
        ),
        "kcli spark rules -o json",
    ),
)
command(
    "spark collect",
    "The snapshots written.",
    array(
        obj(
            "One cluster's snapshot.",
            {
                "cluster_id": string("Cluster id."),
                "collected_at": string("UTC time, YYYYMMDDTHHMMSSZ (the snapshot's partition)."),
                "rows": mapping(
                    integer("Rows."), "Table -> rows written (brokers, topics, partitions, ...)."
                ),
            },
        ),
        "kcli spark collect -o json: one entry per cluster.",
    ),
)
command(
    "spark audit",
    "The audit summary (every finding is in --out).",
    obj(
        "kcli spark audit -o json",
        {
            "clusters": integer("Clusters audited (snapshots, collected or read)."),
            "partitions": integer("Partitions audited."),
            "metadata_logs": integer("__cluster_metadata-0 logs read (from --metadata-dir)."),
            "history_rows": integer("Broker and leader events read from the metadata logs."),
            "findings": integer("Findings in total."),
            "by_severity": mapping(integer("Findings."), "Severity -> findings."),
            "by_rule": array(
                obj(
                    "One rule.",
                    {
                        "rule_id": string("Rule id."),
                        "severity": enum("Severity.", *SEVERITY),
                        "findings": integer("Its findings."),
                    },
                ),
                "Per rule.",
            ),
            "worst": array(
                obj(
                    "A finding.",
                    {
                        "rule_id": string("Rule id."),
                        "severity": enum("Severity.", *SEVERITY),
                        "cluster_id": string("Cluster."),
                        "resource": string("Resource, e.g. topic:orders."),
                        "message": string("What is wrong."),
                    },
                ),
                "The worst findings (--worst).",
            ),
            "complete": boolean(
                "False when the input was incomplete (see warnings): exit 3 unless --fail-on fired."
            ),
            "warnings": array(
                obj(
                    "What the audit could not see.",
                    {
                        "source": enum("Where it was found.", "collect", "snapshot", "metadata"),
                        "message": string("What is missing, and where."),
                    },
                ),
                "Every warning (also on stderr and in warnings.jsonl / warnings.parquet under --out).",
            ),
            "out": nullable(
                string("URI of the directory with findings.parquet/, findings.jsonl and the warnings files.")
            ),
            "stage_seconds": mapping(number("Seconds."), "Stage -> wall time."),
            "spark": nullable(
                obj(
                    "The Spark work the audit did.",
                    {
                        "master": string("The master it ran on."),
                        "jobs": integer("Spark jobs run."),
                        "stages": integer("Stages run (skipped ones excluded)."),
                        "tasks": integer("Tasks run."),
                    },
                )
            ),
        },
    ),
)


# ---- the group and offset tools


def _listing() -> Schema:
    return obj(
        "--list.",
        {
            "groups": array(
                obj(
                    "One group (ListGroups).",
                    {
                        "group": string("Group id."),
                        "type": nullable(string("Classic, Consumer, Share or Streams (null: the broker did not say).")),
                        "state": nullable(string("Stable, Empty, PreparingRebalance, ... (null: the broker did not say).")),
                        "protocol_type": string("consumer, share, streams, connect, or empty (a simple consumer group)."),
                    },
                ),
                "Sorted by id.",
            )
        },
    )


COORDINATOR = obj(
    "The group's coordinator.", {"id": integer("Broker id."), "host": string("Host."), "port": integer("Port.")}
)
GROUP_ERRORS = array(
    obj("A group that could not be described.", {"group": string("Group id."), "error": string("Why (one line).")}),
    "Groups that failed (kcli exits 1 when there are any).",
)
DELETE_OFFSETS = obj(
    "--delete-offsets.",
    {
        "group": string("Group id."),
        "error": nullable(string("The group's error.")),
        "partitions": array(
            obj(
                "One partition.",
                {
                    "topic": string("Topic."),
                    "partition": nullable(integer("Partition (null: the whole topic could not be read).")),
                    "error": nullable(string("Why its offset was kept (null: deleted).")),
                },
            ),
            "Sorted.",
        ),
    },
)
RESET = obj(
    "--reset-offsets (a dry run unless executed).",
    {
        "executed": boolean("Whether the offsets were changed (--execute)."),
        "rollback_file": nullable(string("Where the offsets before the change were saved (--execute).")),
        "groups": array(
            obj(
                "One group.",
                {
                    "group": string("Group id."),
                    "error": nullable(string("Why this group was not reset (active members, ...).")),
                    "partitions": array(
                        obj(
                            "One partition.",
                            {
                                "topic": string("Topic."),
                                "partition": integer("Partition."),
                                "previous_offset": nullable(integer("The committed offset before (null: none).")),
                                "new_offset": integer("The new offset."),
                            },
                        ),
                        "Sorted.",
                    ),
                },
            ),
            "Sorted by id.",
        ),
        "warnings": array(string("A partition's offset moved into range, or a time with no record."), "As Kafka words them."),
        "unconfirmed": array(string("`group topic-partition` whose offset did not read back as set."), "After --execute."),
    },
)
command(
    "consumer-groups",
    "--list; --describe (offsets with lag per partition, group and topic, --time-lag; --members; --state); "
    "--reset-offsets; --delete; --delete-offsets; --validate-regex.",
    one_of(
        "kcli consumer-groups -o json",
        _listing(),
        obj(
            "--describe.",
            {
                "view": enum("What was described.", "offsets", "members", "state"),
                "groups": array(
                    obj(
                        "One group.",
                        {
                            "group": string("Group id."),
                            "type": string("Classic or Consumer (KIP-848)."),
                            "state": string("Stable, Empty, PreparingRebalance, Dead, ..."),
                            "coordinator": COORDINATOR,
                            "assignment_strategy": nullable(string("The partition assignor (classic: the protocol).")),
                            "group_epoch": nullable(integer("KIP-848 groups only.")),
                            "target_assignment_epoch": nullable(integer("KIP-848 groups only.")),
                            "members": array(
                                obj(
                                    "One member.",
                                    {
                                        "consumer_id": string("Member id."),
                                        "group_instance_id": nullable(string("Static membership id (KIP-345).")),
                                        "host": string("Client host."),
                                        "client_id": string("Client id."),
                                        "partitions": integer("Partitions assigned."),
                                        "assignment": array(string("topic-partition."), "Assigned, sorted."),
                                        "target_assignment": nullable(array(string("topic-partition."), "KIP-848: where the member is headed.")),
                                        "member_epoch": nullable(integer("KIP-848 groups only.")),
                                        "upgraded": nullable(boolean("KIP-848 groups: false for a member still on the classic protocol.")),
                                    },
                                ),
                                "In the coordinator's order.",
                            ),
                            "lag": integer("Lag summed over the group's partitions (offsets view)."),
                            "lag_by_topic": mapping(integer("Lag."), "Topic -> lag summed over its partitions."),
                            "max_time_lag_ms": nullable(integer("--time-lag: the oldest partition's age (ms).")),
                            "partitions": array(
                                obj(
                                    "One partition row, as kafka-consumer-groups prints it.",
                                    {
                                        "topic": nullable(string("Topic.")),
                                        "partition": nullable(integer("Partition.")),
                                        "current_offset": nullable(integer("Committed offset (null: none).")),
                                        "log_end_offset": nullable(integer("High watermark (null: no leader).")),
                                        "lag": nullable(integer("log_end_offset - current_offset.")),
                                        "time_lag_ms": nullable(integer("--time-lag: now minus the timestamp of the record at current_offset.")),
                                        "leader_epoch": nullable(integer("Of the commit.")),
                                        "consumer_id": nullable(string("The member holding it (null: none).")),
                                        "host": nullable(string("Its host.")),
                                        "client_id": nullable(string("Its client id.")),
                                    },
                                ),
                                "Members with most partitions first, then the unassigned ones.",
                            ),
                        },
                        optional=("lag", "lag_by_topic", "max_time_lag_ms", "partitions"),
                    ),
                    "Sorted by id.",
                ),
                "errors": GROUP_ERRORS,
            },
        ),
        RESET,
        obj(
            "--delete.",
            {"deleted": array(string("Group id."), "Deleted."), "errors": GROUP_ERRORS},
        ),
        DELETE_OFFSETS,
        obj(
            "--validate-regex.",
            {"regex": string("The expression."), "valid": boolean("Whether it compiles."), "error": nullable(string("Why not."))},
        ),
        obj(
            "--describe --watch: one object per line, per refresh.",
            {
                "time": string("HH:MM:SS of the refresh."),
                "groups": array(
                    obj(
                        "One group's lag.",
                        {
                            "group": string("Group id."),
                            "lag": integer("Lag summed over its partitions."),
                            "change": nullable(integer("Since the previous refresh (null: the first).")),
                            "per_second": nullable(number("Change per second.")),
                            "max_time_lag_ms": nullable(integer("--time-lag: the oldest partition's age.")),
                            "trend": nullable(enum("Direction.", "growing", "shrinking", "steady")),
                        },
                    ),
                    "Sorted by id.",
                ),
            },
        ),
    ),
)
command("groups", "--list: the groups of every type.", _listing())
command(
    "get-offsets",
    "The offsets of the chosen partitions at --time.",
    obj(
        "kcli get-offsets -o json",
        {
            "time": integer("The --time asked (-1 latest, -2 earliest, -3 max-timestamp, ..., or epoch ms)."),
            "offsets": array(
                obj(
                    "One partition.",
                    {
                        "topic": string("Topic."),
                        "partition": integer("Partition."),
                        "offset": integer("The offset."),
                        "timestamp": nullable(integer("The record's timestamp, where Kafka gives one (max-timestamp, a time).")),
                    },
                ),
                "Sorted by topic-partition as text, as Kafka's tool sorts them.",
            ),
            "skipped": array(
                obj("A partition that failed.", {"topic": string("Topic."), "partition": integer("Partition."), "error": string("Why.")}),
                "Partitions skipped (as kafka-get-offsets skips them).",
            ),
        },
    ),
)
command(
    "share-groups",
    "--list; --describe (start offsets and lag, --members, --state); --reset-offsets; --delete; --delete-offsets.",
    one_of(
        "kcli share-groups -o json",
        _listing(),
        obj(
            "--describe.",
            {
                "view": enum("What was described.", "offsets", "members", "state"),
                "groups": array(
                    obj(
                        "One share group.",
                        {
                            "group": string("Group id."),
                            "state": string("Stable, Empty or Dead."),
                            "coordinator": COORDINATOR,
                            "group_epoch": nullable(integer("Group epoch.")),
                            "assignment_epoch": nullable(integer("Assignment epoch.")),
                            "members": array(
                                obj(
                                    "One member.",
                                    {
                                        "consumer_id": string("Member id."),
                                        "host": string("Host."),
                                        "client_id": string("Client id."),
                                        "member_epoch": nullable(integer("Member epoch.")),
                                        "assignment": array(string("topic-partition."), "Sorted."),
                                    },
                                ),
                                "Sorted by id.",
                            ),
                            "lag": integer("Lag summed (offsets view)."),
                            "partitions": array(
                                obj(
                                    "One share-partition.",
                                    {
                                        "topic": string("Topic."),
                                        "partition": integer("Partition."),
                                        "start_offset": nullable(integer("Start offset (null: not initialized).")),
                                        "leader_epoch": nullable(integer("Leader epoch.")),
                                        "lag": nullable(integer("Lag (null: unknown).")),
                                    },
                                ),
                                "Sorted.",
                            ),
                        },
                        optional=("lag", "partitions"),
                    ),
                    "Sorted by id.",
                ),
                "errors": GROUP_ERRORS,
            },
        ),
        RESET,
        obj("--delete.", {"deleted": array(string("Group id."), "Deleted."), "errors": GROUP_ERRORS}),
        obj(
            "--delete-offsets.",
            {
                "group": string("Group id."),
                "topics": array(obj("One topic.", {"topic": string("Topic."), "error": nullable(string("Why kept."))}), "Sorted."),
            },
        ),
    ),
)
command(
    "streams-groups",
    "--list; --describe (offsets and lag of the active tasks' partitions, --members, --state); --reset-offsets; "
    "--delete; --delete-offsets.",
    one_of(
        "kcli streams-groups -o json",
        _listing(),
        obj(
            "--describe.",
            {
                "groups": array(
                    obj(
                        "One streams group.",
                        {
                            "group": string("Group id (application.id)."),
                            "state": string("Stable, Empty, NotReady, Assigning, Reconciling or Dead."),
                            "coordinator": COORDINATOR,
                            "group_epoch": integer("Group epoch."),
                            "target_assignment_epoch": integer("Target assignment epoch."),
                            "topology_epoch": integer("Topology epoch (-1: none)."),
                            "members": array(
                                obj(
                                    "One member.",
                                    {
                                        "member_id": string("Member id."),
                                        "process_id": string("Process id."),
                                        "client_id": string("Client id."),
                                        "host": string("Host."),
                                        "member_epoch": integer("Member epoch."),
                                        "protocol": enum("The member's protocol.", "classic", "streams"),
                                        "active_tasks": array(string("subtopology:[partitions]."), "Active tasks."),
                                    },
                                ),
                                "In the coordinator's order.",
                            ),
                            "lag": integer("Lag summed over the partitions."),
                            "partitions": array(
                                obj(
                                    "One input partition.",
                                    {
                                        "topic": string("Topic."),
                                        "partition": integer("Partition."),
                                        "current_offset": nullable(integer("Committed offset.")),
                                        "leader_epoch": nullable(integer("Of the commit.")),
                                        "log_end_offset": integer("Log end offset."),
                                        "lag": integer("Lag (end - committed, or end - start without a commit)."),
                                    },
                                ),
                                "Sorted.",
                            ),
                        },
                    ),
                    "In the order asked.",
                ),
                "errors": GROUP_ERRORS,
            },
        ),
        RESET,
        obj(
            "--delete.",
            {
                "deleted": array(string("Group id."), "Deleted."),
                "errors": GROUP_ERRORS,
                "internal_topics_deleted_for": array(string("Group id."), "Groups whose internal topics went too."),
                "internal_topic_errors": GROUP_ERRORS,
            },
        ),
        DELETE_OFFSETS,
    ),
)


# ------------------------------------------------------------------ files


def slug(path: str) -> str:
    return path.replace(" ", "-")


def schema_document(path: str) -> Schema:
    _summary, schema = COMMANDS[path]
    return {
        "$schema": DIALECT,
        "$id": f"https://kcli.invalid/json/{slug(path)}.json",
        "title": f"kcli {path} -o json",
        **schema,
    }


def page(path: str) -> str:
    summary, schema = COMMANDS[path]
    lines = [
        f"# `kcli {path} -o json`",
        "",
        summary,
        "",
        f"Machine-readable schema: [schemas/{slug(path)}.json](schemas/{slug(path)}.json) "
        "(JSON Schema 2020-12). Every key listed is always present unless marked optional; "
        "a value typed `... or null` may be null. Keys are never added or renamed without a change here.",
        "",
    ]
    _describe(schema, "", lines, level=2)
    lines += ["", f"An example run is at the end of `kcli {path} --help`.", ""]
    return "\n".join(lines)


def _type_name(schema: Schema) -> str:
    if "oneOf" in schema:
        return "one of the shapes below"
    kinds = schema.get("type", "any")
    kinds = kinds if isinstance(kinds, list) else [kinds]
    names = []
    for kind in kinds:
        if kind == "array":
            names.append(f"array of {_type_name(schema['items'])}")
        elif kind == "object" and isinstance(schema.get("additionalProperties"), dict):
            names.append(f"map of {_type_name(schema['additionalProperties'])}")
        else:
            names.append(str(kind))
    text = " or ".join(names)
    if "enum" in schema:
        text += " (" + ", ".join(json.dumps(v) for v in schema["enum"] if v is not None) + ")"
    return text


def _describe(schema: Schema, where: str, lines: list[str], *, level: int) -> None:
    heading = "#" * min(level, 6)
    if "oneOf" in schema:
        for index, variant in enumerate(schema["oneOf"], 1):
            lines += [f"{heading} Shape {index}: {variant.get('description', '')}", ""]
            _describe(variant, where, lines, level=level + 1)
        return
    if schema.get("type") == "array" or schema.get("type") == ["array"]:
        lines += [f"Top level{' of ' + where if where else ''}: array of objects.", ""]
        _describe(schema["items"], where, lines, level=level)
        return
    properties: dict[str, Schema] = schema.get("properties", {})
    if not properties:
        return
    required = set(schema.get("required", []))
    lines += ["| Key | Type | Meaning |", "| --- | --- | --- |"]
    nested: list[tuple[str, Schema]] = []
    for key, sub in properties.items():
        name = f"{where}.{key}" if where else key
        optional = "" if key in required else " (optional)"
        lines.append(f"| `{name}` | {_type_name(sub)}{optional} | {sub.get('description', '')} |")
        inner = _object_inside(sub)
        if inner is not None:
            nested.append((name + ("[]" if _is_array(sub) else ""), inner))
    lines.append("")
    for name, inner in nested:
        lines += [f"{heading} `{name}`", "", inner.get("description", ""), ""]
        _describe(inner, name, lines, level=level + 1)


def _is_array(schema: Schema) -> bool:
    kinds = schema.get("type")
    return kinds == "array" or (isinstance(kinds, list) and "array" in kinds)


def _object_inside(schema: Schema) -> Schema | None:
    """The object schema a key holds (directly or as array items), if it has documented keys."""
    if _is_array(schema):
        schema = schema["items"]
    if schema.get("properties") or "oneOf" in schema:
        return schema
    if isinstance(schema.get("additionalProperties"), dict):
        return _object_inside(schema["additionalProperties"])
    return None


def render_all() -> dict[Path, str]:
    """Path -> text of every generated file."""
    files: dict[Path, str] = {}
    for path in COMMANDS:
        files[HERE / "schemas" / f"{slug(path)}.json"] = json.dumps(schema_document(path), indent=2) + "\n"
        files[HERE / f"{slug(path)}.md"] = page(path)
    index = ["# JSON output of kcli", "", "Every command with `-o json`, and its schema:", ""]
    index += [f"- [`kcli {path}`]({slug(path)}.md): {COMMANDS[path][0]}" for path in sorted(COMMANDS)]
    index += [
        "",
        "Conventions: JSON goes to stdout only (errors and progress go to stderr), keys are snake_case "
        "except ACL bindings (Kafka's export format), absent values are null, never omitted.",
        "The pages are generated from `generate.py`; run `python docs/json/generate.py` after editing it.",
        "",
    ]
    files[HERE / "README.md"] = "\n".join(index)
    return files


def main() -> int:
    for path, text in render_all().items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    print(f"{len(COMMANDS)} commands documented under {HERE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
