"""The documented audit tables: what a snapshot and a metadata log become, column by column.

Rules are Spark SQL over exactly these tables (docs/audit-tables.md is the operator's copy of this
module). Types use a small vocabulary that maps both to pyarrow (the snapshot writer) and to Spark DDL
(empty tables, the metadata-log source) so neither library is needed to describe them.

Snapshot tables are stored as Parquet partitioned Hive-style by `cluster_id` and `collected_at`; those
two columns live in the directory names, not in the files, and every snapshot table has them.
Metadata-history tables come from KRaft log segments and carry `cluster_id` as an ordinary column.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any


class ColumnType(StrEnum):
    STRING = "string"
    INT = "int"
    BIGINT = "bigint"
    DOUBLE = "double"
    BOOLEAN = "boolean"
    TIMESTAMP = "timestamp"
    INT_ARRAY = "array<int>"
    STRING_ARRAY = "array<string>"


@dataclass(frozen=True, slots=True, kw_only=True)
class Column:
    """One column: name, type, and what it means (shown in the docs)."""

    name: str
    type: ColumnType
    doc: str


class TableKind(StrEnum):
    SNAPSHOT = "snapshot"  # collected from a live cluster by `kcli spark collect`
    HISTORY = "history"  # read from KRaft metadata log segments


@dataclass(frozen=True, slots=True, kw_only=True)
class Table:
    """One audit table: its columns (partition columns excluded for snapshot tables)."""

    name: str
    kind: TableKind
    doc: str
    columns: tuple[Column, ...]

    @property
    def column_names(self) -> tuple[str, ...]:
        return tuple(column.name for column in self.columns)

    def all_columns(self) -> tuple[Column, ...]:
        """The columns a query sees: stored columns plus the partition columns of snapshot tables."""
        if self.kind is TableKind.SNAPSHOT:
            return (*self.columns, *PARTITION_COLUMNS)
        return self.columns

    def spark_ddl(self, *, with_partitions: bool = True) -> str:
        """The Spark DDL schema string, e.g. "`topic` STRING, `replicas` ARRAY<INT>"."""
        columns = self.all_columns() if with_partitions else self.columns
        return ", ".join(f"`{c.name}` {c.type.value.upper()}" for c in columns)

    def arrow_schema(self, *, with_partitions: bool = False) -> Any:
        """The pyarrow schema of the stored files (no partition columns unless asked)."""
        import pyarrow as pa

        columns = self.all_columns() if with_partitions else self.columns
        return pa.schema([pa.field(c.name, _arrow_type(c.type)) for c in columns])


def _arrow_type(kind: ColumnType) -> Any:
    import pyarrow as pa

    return {
        ColumnType.STRING: pa.string(),
        ColumnType.INT: pa.int32(),
        ColumnType.BIGINT: pa.int64(),
        ColumnType.DOUBLE: pa.float64(),
        ColumnType.BOOLEAN: pa.bool_(),
        ColumnType.TIMESTAMP: pa.timestamp("ms", tz="UTC"),
        ColumnType.INT_ARRAY: pa.list_(pa.int32()),
        ColumnType.STRING_ARRAY: pa.list_(pa.string()),
    }[kind]


def _c(name: str, kind: ColumnType, doc: str) -> Column:
    return Column(name=name, type=kind, doc=doc)


# Short names keep the table declarations below one line per column.
S, N, L, D, B, T, A, SA = (
    ColumnType.STRING,
    ColumnType.INT,
    ColumnType.BIGINT,
    ColumnType.DOUBLE,
    ColumnType.BOOLEAN,
    ColumnType.TIMESTAMP,
    ColumnType.INT_ARRAY,
    ColumnType.STRING_ARRAY,
)

PARTITION_COLUMNS: tuple[Column, ...] = (
    _c("cluster_id", S, "Cluster id (partition column)."),
    _c("collected_at", S, "Collection time, UTC, as YYYYMMDDTHHMMSSZ (partition column)."),
)

SNAPSHOT_TABLES: tuple[Table, ...] = (
    Table(
        name="clusters",
        kind=TableKind.SNAPSHOT,
        doc="One row per collected snapshot of a cluster.",
        columns=(
            _c("bootstrap", S, "The bootstrap servers or controllers the snapshot was collected through."),
            _c("endpoint_type", S, "brokers or controllers: what the bootstrap addresses were."),
            _c("controller_id", N, "Active controller id as reported by DescribeCluster (-1 unknown)."),
            _c("collected_ms", L, "Collection time in epoch milliseconds."),
            _c("kcli_version", S, "Version of kcli that collected the snapshot."),
            _c(
                "snapshot_rows",
                L,
                "Rows in all tables of this snapshot (sizes the audit's plan; null in snapshots written "
                "before kcli recorded it).",
            ),
            _c(
                "warnings",
                SA,
                "What the collection could not collect (a stopped or misrouted broker, a part the server "
                "does not offer); empty when complete, null in snapshots written before kcli recorded them.",
            ),
        ),
    ),
    Table(
        name="brokers",
        kind=TableKind.SNAPSHOT,
        doc="Registered brokers.",
        columns=(
            _c("broker_id", N, "Broker node id."),
            _c("host", S, "Advertised host."),
            _c("port", N, "Advertised port."),
            _c("rack", S, "broker.rack, null when unset."),
            _c("fenced", B, "True when the controller has fenced the broker."),
        ),
    ),
    Table(
        name="controllers",
        kind=TableKind.SNAPSHOT,
        doc="Controller nodes (from DescribeCluster with --bootstrap-controller, else from the quorum).",
        columns=(
            _c("controller_id", N, "Controller node id."),
            _c("host", S, "Host, null when only known from the quorum."),
            _c("port", N, "Port, null when only known from the quorum."),
            _c("rack", S, "Rack, null when unset or unknown."),
            _c("is_active", B, "True for the active controller (quorum leader)."),
        ),
    ),
    Table(
        name="quorum",
        kind=TableKind.SNAPSHOT,
        doc="Metadata quorum replica state (DescribeQuorum): one row per voter and observer.",
        columns=(
            _c("replica_id", N, "Node id of the replica."),
            _c("role", S, "leader, follower (voters) or observer."),
            _c("leader_id", N, "Quorum leader id."),
            _c("leader_epoch", N, "Quorum leader epoch."),
            _c("high_watermark", L, "Quorum high watermark."),
            _c("log_end_offset", L, "The replica's log end offset (-1 unknown)."),
            _c("lag", L, "high_watermark - log_end_offset (null when unknown)."),
            _c("last_fetch_ms", L, "Last fetch timestamp, epoch ms (-1 unknown)."),
            _c("last_caught_up_ms", L, "Last caught-up timestamp, epoch ms (-1 unknown)."),
        ),
    ),
    Table(
        name="endpoints",
        kind=TableKind.SNAPSHOT,
        doc="Every advertised broker and controller endpoint, dialled on its own connection (as "
        "`kcli cluster doctor` does): who answered there.",
        columns=(
            _c("role", S, "broker or controller."),
            _c("node_id", N, "The node id the endpoint is advertised for."),
            _c("host", S, "Advertised host."),
            _c("port", N, "Advertised port."),
            _c("answered", B, "True when the endpoint accepted a connection and answered ApiVersions."),
            _c(
                "identity",
                S,
                "verified (the node there is node_id of this cluster), mismatch (it is another node, "
                "KIP-1242) or unchecked (the server cannot tell, or it did not answer).",
            ),
            _c("served_by_node_id", N, "The node id that answered there, null when unknown."),
            _c("served_by_cluster_id", S, "The cluster id the answering node reported, null when unknown."),
            _c("error", S, "Why the endpoint did not answer, null when it did."),
        ),
    ),
    Table(
        name="topics",
        kind=TableKind.SNAPSHOT,
        doc="Topics.",
        columns=(
            _c("topic", S, "Topic name."),
            _c("topic_id", S, "Topic id (base64 UUID)."),
            _c("internal", B, "True for internal topics (__consumer_offsets, ...)."),
            _c("partition_count", N, "Number of partitions."),
            _c("replication_factor", N, "Replicas of partition 0 (the topic's replication factor)."),
        ),
    ),
    Table(
        name="partitions",
        kind=TableKind.SNAPSHOT,
        doc="Partitions with leader, replicas, ISR and ELR (KIP-966).",
        columns=(
            _c("topic", S, "Topic name."),
            _c("partition", N, "Partition index."),
            _c("leader", N, "Leader broker id, -1 when offline."),
            _c("leader_epoch", N, "Leader epoch (-1 unknown)."),
            _c("replicas", A, "Replica broker ids, preferred leader first."),
            _c("isr", A, "In-sync replica ids."),
            _c("elr", A, "Eligible leader replicas (KIP-966), empty when unsupported."),
            _c("last_known_elr", A, "Last known ELR (KIP-966), empty when unsupported."),
            _c("offline_replicas", A, "Replicas on offline log dirs."),
        ),
    ),
    Table(
        name="groups",
        kind=TableKind.SNAPSHOT,
        doc="Every group ListGroups lists, of every type (classic, consumer, share, streams).",
        columns=(
            _c("group_id", S, "Group id."),
            _c("type", S, "Classic, Consumer, Share or Streams (GroupType); null before ListGroups v5."),
            _c("protocol_type", S, "consumer, connect, share, streams; empty for offsets only."),
            _c("state", S, "Stable, Empty, PreparingRebalance, ... (GroupState); null before ListGroups v4."),
        ),
    ),
    Table(
        name="group_offsets",
        kind=TableKind.SNAPSHOT,
        doc="Committed offsets of every group but share groups (OffsetFetch), beside the log offsets of "
        "their partitions at collection time (ListOffsets).",
        columns=(
            _c("group_id", S, "Group id."),
            _c("topic", S, "Topic name (it may no longer exist)."),
            _c("partition", N, "Partition index."),
            _c("committed_offset", L, "The group's committed offset."),
            _c("leader_epoch", N, "Leader epoch of the commit, null when it had none."),
            _c("log_start_offset", L, "The partition's log start offset, null when gone or leaderless."),
            _c("log_end_offset", L, "The partition's log end offset, null when gone or leaderless."),
            _c("lag", L, "log_end_offset - committed_offset (0 at least), null when the end is unknown."),
        ),
    ),
    Table(
        name="topic_configs",
        kind=TableKind.SNAPSHOT,
        doc="Every topic config entry, defaults included, with its source.",
        columns=(
            _c("topic", S, "Topic name."),
            _c("name", S, "Config key."),
            _c("value", S, "Value (null when sensitive or unset)."),
            _c("source", S, "Kafka ConfigSource name: DYNAMIC_TOPIC_CONFIG, DEFAULT_CONFIG, ..."),
            _c("is_default", B, "True when the value comes from a default."),
            _c("is_sensitive", B, "True for passwords and other secrets."),
            _c("read_only", B, "True when the key cannot be altered."),
        ),
    ),
    Table(
        name="broker_configs",
        kind=TableKind.SNAPSHOT,
        doc="Every broker config entry of every broker, defaults included, with its source.",
        columns=(
            _c("broker_id", N, "Broker node id."),
            _c("name", S, "Config key."),
            _c("value", S, "Value (null when sensitive or unset)."),
            _c(
                "source", S, "STATIC_BROKER_CONFIG, DYNAMIC_BROKER_CONFIG, DYNAMIC_DEFAULT_BROKER_CONFIG, ..."
            ),
            _c("is_default", B, "True when the value comes from a default."),
            _c("is_sensitive", B, "True for passwords and other secrets."),
            _c("read_only", B, "True when the key cannot be altered dynamically."),
        ),
    ),
    Table(
        name="acls",
        kind=TableKind.SNAPSHOT,
        doc="ACL bindings (DescribeAcls with a match-any filter).",
        columns=(
            _c("resource_type", S, "TOPIC, GROUP, CLUSTER, TRANSACTIONAL_ID, DELEGATION_TOKEN, USER."),
            _c("resource_name", S, "Resource name ('*' is the wildcard resource)."),
            _c("pattern_type", S, "LITERAL or PREFIXED."),
            _c("principal", S, "Principal, e.g. User:alice ('User:*' is the wildcard principal)."),
            _c("host", S, "Host ('*' for any)."),
            _c("operation", S, "ALL, READ, WRITE, CREATE, DELETE, ALTER, DESCRIBE, ..."),
            _c("permission_type", S, "ALLOW or DENY."),
        ),
    ),
    Table(
        name="client_quotas",
        kind=TableKind.SNAPSHOT,
        doc="Client quotas: one row per entity and quota key.",
        columns=(
            _c("entity", S, "The entity as 'user=alice,client-id=app' ('<default>' for a default name)."),
            _c("user", S, "User part of the entity, null when absent."),
            _c("client_id", S, "Client-id part of the entity, null when absent."),
            _c("ip", S, "IP part of the entity, null when absent."),
            _c("key", S, "Quota key, e.g. producer_byte_rate."),
            _c("value", D, "Quota value."),
        ),
    ),
    Table(
        name="log_dirs",
        kind=TableKind.SNAPSHOT,
        doc="Log directories of every broker (DescribeLogDirs), with the bytes their partitions hold.",
        columns=(
            _c("broker_id", N, "Broker node id."),
            _c("log_dir", S, "Absolute path of the log directory."),
            _c("error", S, "Kafka error name for an offline dir, null when healthy."),
            _c("total_bytes", L, "Volume size in bytes (-1 when the broker does not report it)."),
            _c("usable_bytes", L, "Free bytes on the volume (-1 when not reported)."),
            _c("partition_count", N, "Replicas stored in this dir."),
            _c("partition_bytes", L, "Sum of the sizes of the replicas stored in this dir."),
        ),
    ),
    Table(
        name="features",
        kind=TableKind.SNAPSHOT,
        doc="Supported and finalized feature levels (ApiVersions), e.g. metadata.version.",
        columns=(
            _c("feature", S, "Feature name."),
            _c("finalized_level", N, "Finalized level, null when not finalized."),
            _c("min_supported", N, "Lowest level the node supports, null when not reported."),
            _c("max_supported", N, "Highest level the node supports, null when not reported."),
        ),
    ),
)

HISTORY_TABLES: tuple[Table, ...] = (
    Table(
        name="broker_events",
        kind=TableKind.HISTORY,
        doc="Broker registration, fence/unfence and controlled-shutdown events from the metadata log.",
        columns=(
            _c("cluster_id", S, "cluster.id from meta.properties of the log dir (else the dir name)."),
            _c("node_id", N, "node.id of the log dir the record was read from (-1 unknown)."),
            _c("offset", L, "Offset of the record in the metadata log."),
            _c("ts", T, "Batch append time (UTC); null when outside the years 1 to 9999."),
            _c("broker_id", N, "The broker the event is about."),
            _c("broker_epoch", L, "Broker epoch (-1 when the record has none)."),
            _c("event", S, "register, unregister, fence, unfence or controlled_shutdown."),
        ),
    ),
    Table(
        name="leader_changes",
        kind=TableKind.HISTORY,
        doc="Partition leader elections: the initial leader (PartitionRecord) and every change of leader.",
        columns=(
            _c("cluster_id", S, "cluster.id from meta.properties of the log dir (else the dir name)."),
            _c("node_id", N, "node.id of the log dir the record was read from (-1 unknown)."),
            _c("offset", L, "Offset of the record in the metadata log."),
            _c("ts", T, "Batch append time (UTC); null when outside the years 1 to 9999."),
            _c("topic_id", S, "Topic id (base64 UUID)."),
            _c("partition", N, "Partition index."),
            _c("leader", N, "New leader (-1 = no leader)."),
            _c("change", S, "create (PartitionRecord) or elect (PartitionChangeRecord)."),
        ),
    ),
    Table(
        name="metadata_topics",
        kind=TableKind.HISTORY,
        doc="Topic names by id from TopicRecords (log segments and snapshots), to name leader changes.",
        columns=(
            _c("cluster_id", S, "cluster.id from meta.properties of the log dir (else the dir name)."),
            _c("topic_id", S, "Topic id (base64 UUID)."),
            _c("topic", S, "Topic name."),
        ),
    ),
)

ALL_TABLES: tuple[Table, ...] = SNAPSHOT_TABLES + HISTORY_TABLES
TABLES_BY_NAME: dict[str, Table] = {table.name: table for table in ALL_TABLES}


def table(name: str) -> Table:
    """The table called `name` (KeyError names the known tables)."""
    try:
        return TABLES_BY_NAME[name]
    except KeyError:
        raise KeyError(f"unknown table {name!r} (known: {', '.join(TABLES_BY_NAME)})") from None
