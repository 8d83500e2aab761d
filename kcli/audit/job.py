"""The audit Spark job: load and cache the input tables, run every rule in one query, write findings.

Behavior:
- Inputs are read through Spark's Hadoop filesystem layer (kcli.audit.storage): snapshot
  directories, metadata log directories and the output directory may be any Hadoop URI.
- The rules run as one union query whose findings are cached, and one summary query over them also
  counts the input rows, so an audit runs a handful of jobs.
- Sized to the data (sized_conf): a small input is one partition per table, read straight from
  memory or its few KB of Parquet, with no shuffle and no generated code; a larger one is cached (in
  one job) and shuffled over partitions sized to it, which adaptive execution coalesces further.
- What made the input incomplete (a collection warning, a snapshot without its clusters row, a
  corrupt metadata file) is a warning: kept in the result, in warnings.parquet/ warnings.jsonl
  beside the findings, and fatal before any rule runs under `strict`.
- A failing Spark job (a task error, a lost executor) is one AuditFailed line.

pyspark is imported only inside the functions (by this module and the modules it calls).
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from kcli.audit.progress import SparkWork
from kcli.audit.rules import FINDING_COLUMNS, RULE_SEVERITIES, Rule, RuleError
from kcli.audit.sqlconf import sql_conf
from kcli.audit.tables import HISTORY_TABLES, TABLES_BY_NAME
from kcli.errors import ExitCode, KcliError, UsageError
from kcli.kafka import Severity

if TYPE_CHECKING:
    from pyspark.sql import DataFrame, SparkSession

    from kcli.audit.storage import Storage
    from kcli.workflows.audit_collect import ClusterSnapshot

FINDINGS_PARQUET = "findings.parquet"
FINDINGS_JSONL = "findings.jsonl"
WARNINGS_PARQUET = "warnings.parquet"
WARNINGS_JSONL = "warnings.jsonl"
SHUFFLE_PARTITIONS = "spark.sql.shuffle.partitions"
# Input rows per initial shuffle partition: adaptive execution then coalesces what turns out small,
# so this only bounds the first guess.
ROWS_PER_SHUFFLE_PARTITION = 200_000
# Inputs up to this many rows run as one partition per table, without shuffles (see sized_conf).
SINGLE_PARTITION_ROWS = 50_000
# Row estimates where only file sizes are known: metadata logs (mostly idle NoOpRecords, skipped)
# and stored snapshots written before they recorded their size (Parquet compresses them ~10x).
HISTORY_BYTES_PER_ROW = 100
STORED_BYTES_PER_ROW = 2


class AuditFailed(KcliError):
    """The audit could not run (Spark, an input), or its input was incomplete under --strict."""

    exit_code = ExitCode.INCOMPLETE


@dataclass(frozen=True, slots=True, kw_only=True)
class AuditRequest:
    """What to audit: snapshot dirs and metadata log dirs (URIs), live snapshots, rules, output URI."""

    inputs: tuple[str, ...] = ()
    metadata_dirs: tuple[str, ...] = ()
    live: tuple[ClusterSnapshot, ...] = ()
    rules: tuple[Rule, ...]
    out: str | None = None
    conf: Mapping[str, str] = field(default_factory=dict)  # what the user set (not overridden here)
    worst: int = 10
    strict: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class AuditWarning:
    """Something the audit could not see: where it comes from (collect, snapshot, metadata) and what."""

    source: str
    message: str

    def as_json(self) -> dict[str, str]:
        return {"source": self.source, "message": self.message}


@dataclass(frozen=True, slots=True, kw_only=True)
class Finding:
    rule_id: str
    severity: Severity
    cluster_id: str
    resource: str
    message: str

    def as_json(self) -> dict[str, str]:
        return {
            "rule_id": self.rule_id,
            "severity": self.severity.name,
            "cluster_id": self.cluster_id,
            "resource": self.resource,
            "message": self.message,
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class RuleCount:
    rule_id: str
    severity: Severity
    findings: int


@dataclass(frozen=True, slots=True, kw_only=True)
class AuditResult:
    """The summary of one audit run (every finding is in the files under `out`)."""

    clusters: int
    partitions: int
    history_rows: int
    counts: tuple[RuleCount, ...]
    worst: tuple[Finding, ...]
    out: str | None
    stage_seconds: Mapping[str, float]
    warnings: tuple[AuditWarning, ...] = ()
    metadata_logs: int = 0
    spark: SparkWork | None = None

    @property
    def total(self) -> int:
        return sum(count.findings for count in self.counts)

    @property
    def complete(self) -> bool:
        return not self.warnings

    def by_severity(self) -> dict[str, int]:
        totals = {severity.name: 0 for severity in reversed(RULE_SEVERITIES)}
        for count in self.counts:
            totals[count.severity.name] += count.findings
        return totals

    def max_severity(self) -> Severity | None:
        found = [count.severity for count in self.counts if count.findings]
        return max(found) if found else None


def parse_conf(pairs: Sequence[str]) -> dict[str, str]:
    """--conf k=v pairs as a dict (a pair without '=' is a usage error)."""
    from kcli.workflows.profiles import parse_key_values

    return parse_key_values(pairs, option="--conf", example="spark.executor.memory=4g")


def shuffle_partitions(input_rows: int, parallelism: int) -> int:
    """The first guess at shuffle partitions: one per ROWS_PER_SHUFFLE_PARTITION, 1 to 4x the cores."""
    wanted = math.ceil(max(input_rows, 1) / ROWS_PER_SHUFFLE_PARTITION)
    return max(1, min(wanted, 4 * max(parallelism, 1)))


def run_audit(
    spark: SparkSession,
    request: AuditRequest,
    *,
    say: Callable[[str], None] | None = None,
    warn: Callable[[AuditWarning], None] | None = None,
) -> AuditResult:
    """Load the tables, check every rule, run them all and write the findings.

    `say(phase)` follows the progress; `warn(warning)` hears each warning found here as it is found
    (the live snapshots' own warnings were reported when they were collected). A failing Spark job
    (a task error, a lost executor) becomes one AuditFailed line.
    """
    from py4j.protocol import Py4JError
    from pyspark.errors import PySparkException

    from kcli.audit.progress import JobGroup

    group = JobGroup(spark, "kcli spark audit")
    try:
        return _run_audit(
            spark, request, group, say=say or (lambda _line: None), warn=warn or (lambda _warning: None)
        )
    except (PySparkException, Py4JError) as error:
        raise AuditFailed(f"Spark job failed: {_spark_error_line(error)}") from error
    finally:
        group.close()


def _spark_error_line(error: BaseException) -> str:
    """The most telling line of a Spark error: a Python worker's own exception, a JVM exception, else
    the first line."""
    lines = [line.strip().removeprefix(": ").strip() for line in str(error).splitlines() if line.strip()]
    for line in reversed(lines):
        if line.split(":", 1)[0].endswith(("Error", "Exception")) and not line.startswith("at "):
            return line
    return lines[0] if lines else type(error).__name__


def _run_audit(
    spark: SparkSession,
    request: AuditRequest,
    group: Any,
    *,
    say: Callable[[str], None],
    warn: Callable[[AuditWarning], None],
) -> AuditResult:
    from kcli.audit import shipping
    from kcli.audit.inputs import plan_snapshots, snapshot_frames, stored_clusters
    from kcli.audit.metadata_source import HistoryPlan, history_frames, plan_tasks
    from kcli.audit.snapshot import write_snapshot
    from kcli.audit.storage import Storage, join

    stages: dict[str, float] = {}
    storage = Storage(spark)
    warnings = [AuditWarning(source="collect", message=text) for s in request.live for text in s.warnings]

    def found(source: str, messages: Sequence[str]) -> None:
        for message in messages:
            warning = AuditWarning(source=source, message=message)
            warnings.append(warning)
            warn(warning)

    started = time.monotonic()
    if request.out is not None and request.live:
        say("writing the collected snapshots")
        for snapshot in request.live:
            write_snapshot(snapshot, None, sink=storage.sink(join(request.out, "snapshots")))
    say("listing inputs")
    for root in (*request.inputs, *request.metadata_dirs):
        flag = "--input" if root in request.inputs else "--metadata-dir"
        if not _readable_dir(storage, root, flag):
            raise UsageError(f"{flag} {root}: no such directory")
    snapshots = plan_snapshots(storage, request.inputs, request.live)
    found("snapshot", snapshots.superseded)
    history = (
        plan_tasks(storage, request.metadata_dirs) if request.metadata_dirs else HistoryPlan(tasks=(), logs=0)
    )
    stored = stored_clusters(spark, snapshots)
    for row in stored:
        found("snapshot", row["warnings"] or ())
    rows = sum(len(table) for s in request.live for table in s.tables.values())
    rows += sum(row["snapshot_rows"] or 0 for row in stored)
    if any(row["snapshot_rows"] is None for row in stored):
        rows += snapshots.size // STORED_BYTES_PER_ROW
    rows += history.size // HISTORY_BYTES_PER_ROW
    single = rows <= SINGLE_PARTITION_ROWS
    stages["list"] = time.monotonic() - started
    _stop_if_incomplete(request, warnings)
    with sql_conf(spark, sized_conf(rows, spark.sparkContext.defaultParallelism), keep=request.conf):
        started = time.monotonic()
        say("loading tables")
        views = snapshot_frames(spark, snapshots)
        problems: list[str] = []
        if history.tasks and shipping.needed(spark):
            say("shipping kcli to the executors")
            shipping.ship(spark)
        held: list[DataFrame] = []
        views.update(history_frames(spark, history, warnings=problems, single=single, held=held))
        found("metadata", problems)
        # A small input is read straight from memory (live snapshots) or a few KB of Parquet by every
        # rule: caching it would cost more (code generated per table) than it saves.
        cached = [] if single else [frame.cache() for frame in views.values()]
        views = (
            {name: frame.coalesce(1) for name, frame in views.items()}
            if single
            else dict(zip(views, cached, strict=True))
        )
        try:
            _stop_if_incomplete(request, warnings)
            if cached:
                materialize(spark, cached)
            for name, frame in views.items():
                frame.createOrReplaceTempView(name)
            stages["load"] = time.monotonic() - started
            return _run_rules(
                spark,
                storage,
                request,
                views,
                clusters=snapshots.clusters,
                logs=history.logs,
                warnings=warnings,
                stages=stages,
                group=group,
                say=say,
                partitions=1 if single else spark.sparkContext.defaultParallelism,
            )
        finally:
            for frame in (*cached, *held):
                frame.unpersist()


def _stop_if_incomplete(request: AuditRequest, warnings: Sequence[AuditWarning]) -> None:
    """Under --strict, an incomplete input ends the audit before any rule runs."""
    if request.strict and warnings:
        raise AuditFailed(
            f"the audit's input is incomplete ({_count(len(warnings), 'warning')}; --strict)",
            hint="; ".join(warning.message for warning in warnings[:3]),
        )


def _readable_dir(storage: Storage, uri: str, flag: str) -> bool:
    """Whether `uri` is a directory; a filesystem Hadoop cannot reach is one AuditFailed line."""
    from py4j.protocol import Py4JError

    try:
        return storage.is_dir(uri)
    except Py4JError as error:
        raise AuditFailed(f"{flag} {uri}: cannot read it: {_spark_error_line(error)}") from None


def materialize(spark: SparkSession, frames: Sequence[DataFrame]) -> None:
    """Fill every cache in one job (adaptive execution would run one job per cached table)."""
    from pyspark.sql import functions as F

    with sql_conf(spark, {"spark.sql.adaptive.enabled": "false"}):
        _union([frame.select(F.lit(1).alias("one")) for frame in frames]).count()


def sized_conf(input_rows: int, parallelism: int) -> dict[str, str]:
    """The SQL settings an input of this size runs best with.

    Up to SINGLE_PARTITION_ROWS every table is one partition: aggregations and (sort-merge) joins
    then need no shuffle at all and each query is a single stage. Larger inputs are cached and get
    shuffle partitions by size, which adaptive execution coalesces where they turn out small.
    """
    if input_rows <= SINGLE_PARTITION_ROWS:
        # Interpreted plans and expressions: compiling generated code (hundreds of classes for the
        # rules) costs far more than it saves on a few thousand rows.
        return {
            SHUFFLE_PARTITIONS: "1",
            "spark.sql.autoBroadcastJoinThreshold": "-1",
            "spark.sql.optimizer.dynamicPartitionPruning.enabled": "false",
            "spark.sql.codegen.wholeStage": "false",
            "spark.sql.codegen.factoryMode": "NO_CODEGEN",
        }
    return {
        SHUFFLE_PARTITIONS: str(shuffle_partitions(input_rows, parallelism)),
        # The cache lives for one audit: building it uncompressed is quicker, and it fits.
        "spark.sql.inMemoryColumnarStorage.compressed": "false",
    }


def _run_rules(
    spark: SparkSession,
    storage: Storage,
    request: AuditRequest,
    views: Mapping[str, DataFrame],
    *,
    clusters: int,
    logs: int,
    warnings: list[AuditWarning],
    stages: dict[str, float],
    group: Any,
    say: Callable[[str], None],
    partitions: int,
) -> AuditResult:
    from pyspark.sql import Window
    from pyspark.sql import functions as F

    started = time.monotonic()
    say(f"checking {len(request.rules)} rules")
    frames = [rule_frame(spark, rule) for rule in request.rules]
    stages["check rules"] = time.monotonic() - started

    started = time.monotonic()
    say("running rules")
    findings = _union(frames).coalesce(max(1, partitions)).cache()
    try:
        # One query: per rule its count and first rows (the worst findings are among them), and the
        # input counts for the headline.
        by_rule = Window.partitionBy("rule_id")
        ordered = by_rule.orderBy("cluster_id", "resource", "message")
        keep = max(request.worst, 1)
        # A cached table does not keep its single partition; coalescing again keeps the window shuffle-free.
        source = findings.coalesce(1) if partitions == 1 else findings
        firsts = (
            source.withColumn("n", F.count(F.lit(1)).over(by_rule))
            .withColumn("position", F.row_number().over(ordered))
            .filter(F.col("position") <= keep)
            .select(F.lit("rule").alias("kind"), "rule_id", "cluster_id", "resource", "message", "n")
        )
        counts = [
            views[name]
            .agg(F.count(F.lit(1)).alias("n"))
            .select(
                F.lit(name).alias("kind"), *(F.lit(None).cast("string").alias(c) for c in FINDING_ROW), "n"
            )
            for name in (
                "partitions",
                *(spec.name for spec in HISTORY_TABLES if spec.name != "metadata_topics"),
            )
        ]
        rows = _union([firsts, *counts]).collect()
        stages["run rules"] = time.monotonic() - started

        started = time.monotonic()
        if request.out is not None:
            say(f"writing findings to {request.out}")
            write_findings(spark, storage, findings, request.out)
            write_warnings(storage, warnings, request.out)
        stages["write findings"] = time.monotonic() - started
    finally:
        findings.unpersist()
    per_rule: dict[str, int] = {}
    candidates: list[Finding] = []
    inputs: dict[str, int] = {}
    severity_of = {rule.id: rule.severity for rule in request.rules}
    for row in rows:
        if row["kind"] != "rule":
            inputs[row["kind"]] = int(row["n"])
            continue
        per_rule[row["rule_id"]] = int(row["n"])
        candidates.append(
            Finding(
                rule_id=row["rule_id"],
                severity=severity_of[row["rule_id"]],
                cluster_id=row["cluster_id"],
                resource=row["resource"],
                message=row["message"],
            )
        )
    candidates.sort(key=lambda f: (-f.severity, f.rule_id, f.cluster_id, f.resource, f.message))
    counts_by_rule = tuple(
        RuleCount(rule_id=rule.id, severity=rule.severity, findings=per_rule.get(rule.id, 0))
        for rule in request.rules
    )
    return AuditResult(
        clusters=clusters,
        partitions=inputs.get("partitions", 0),
        history_rows=inputs.get("broker_events", 0) + inputs.get("leader_changes", 0),
        counts=counts_by_rule,
        worst=tuple(candidates[: request.worst]),
        out=request.out,
        stage_seconds=stages,
        warnings=tuple(warnings),
        metadata_logs=logs,
        spark=group.counts(),
    )


FINDING_ROW = ("rule_id", "cluster_id", "resource", "message")


def rule_frame(spark: SparkSession, rule: Rule) -> DataFrame:
    """The rule's query as findings columns; SQL problems become one-line RuleErrors naming the rule."""
    from pyspark.errors import AnalysisException
    from pyspark.sql import functions as F

    _quiet_query_context_loggers()
    try:
        frame = spark.sql(rule.sql)
        columns = set(frame.columns)
    except AnalysisException as error:
        raise RuleError(f"rule {rule.id} ({rule.source}): {_explain(error)}") from None
    missing = [name for name in FINDING_COLUMNS if name not in columns]
    if missing:
        raise RuleError(
            f"rule {rule.id} ({rule.source}): the query must return columns "
            f"{', '.join(FINDING_COLUMNS)}; missing {', '.join(missing)}"
        )
    return frame.select(
        F.lit(rule.id).alias("rule_id"),
        F.lit(rule.severity.name).alias("severity"),
        *(F.col(name).cast("string").alias(name) for name in FINDING_COLUMNS),
    )


def _quiet_query_context_loggers() -> None:
    """pyspark logs every analysis error with a traceback on stderr; kcli reports it in one line."""
    import logging

    for name in ("SQLQueryContextLogger", "DataFrameQueryContextLogger"):
        logging.getLogger(name).setLevel(logging.CRITICAL + 1)


def _explain(error: Exception) -> str:
    """One line for a Spark analysis or parse error: unknown tables and columns said plainly."""
    condition = ""
    for getter in ("getCondition", "getErrorClass"):
        method = getattr(error, getter, None)
        if method is not None:
            try:
                condition = method() or ""
            except Exception:
                condition = ""
            if condition:
                break
    parameters: dict[str, str] = {}
    get_parameters = getattr(error, "getMessageParameters", None)
    if get_parameters is not None:
        try:
            parameters = dict(get_parameters() or {})
        except Exception:
            parameters = {}
    if condition.startswith("TABLE_OR_VIEW_NOT_FOUND"):
        name = parameters.get("relationName", "?").replace("`", "")
        return f"unknown table {name} (tables: {', '.join(TABLES_BY_NAME)})"
    if condition.startswith("UNRESOLVED_COLUMN"):
        name = parameters.get("objectName", "?").replace("`", "")
        hint = parameters.get("proposal")
        return f"unknown column {name}" + (f" (did you mean {hint.replace('`', '')}?)" if hint else "")
    if condition.startswith("PARSE_SYNTAX_ERROR") or condition.startswith("PARSE"):
        return f"SQL syntax error: {_first_line(error)}"
    return f"SQL error: {_first_line(error)}"


def write_findings(spark: SparkSession, storage: Storage, findings: DataFrame, out: str) -> None:
    """Every finding as Parquet (OUT/findings.parquet/) and as JSON lines (OUT/findings.jsonl)."""
    from kcli.audit.storage import join, name_of

    storage.mkdirs(out)
    findings.write.mode("overwrite").parquet(join(out, FINDINGS_PARQUET))
    staging = join(out, ".findings-json")
    findings.coalesce(1).write.mode("overwrite").json(staging)
    # Spark writes a directory with one part file here; the operator gets one JSON-lines file. It is
    # found by listing, not by a glob: OUT may hold glob characters ([ ] { } * ?) of its own.
    parts = [info for info in storage.list_files(staging) if name_of(info.uri).startswith("part-")]
    if parts:
        storage.copy(parts[0].uri, join(out, FINDINGS_JSONL))
    else:
        storage.write_bytes(join(out, FINDINGS_JSONL), b"")
    storage.delete(staging)


def write_warnings(storage: Storage, warnings: Sequence[AuditWarning], out: str) -> None:
    """The warnings beside the findings: OUT/warnings.parquet and OUT/warnings.jsonl (empty when complete)."""
    import pyarrow as pa

    from kcli.audit.snapshot import parquet_bytes
    from kcli.audit.storage import join

    table = pa.table(
        {
            "source": pa.array([w.source for w in warnings], pa.string()),
            "message": pa.array([w.message for w in warnings], pa.string()),
        }
    )
    storage.write_bytes(join(out, WARNINGS_PARQUET), parquet_bytes(table))
    lines = "".join(json.dumps(w.as_json()) + "\n" for w in warnings)
    storage.write_bytes(join(out, WARNINGS_JSONL), lines.encode("utf-8"))


def _union(frames: Sequence[DataFrame]) -> DataFrame:
    result = frames[0]
    for frame in frames[1:]:
        result = result.unionByName(frame)
    return result


def _count(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def _first_line(error: BaseException) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__
