"""The audit Spark job: load snapshots and metadata history, check and run the rules, write findings.

This is the only module (with kcli.audit.metadata_source) that imports pyspark, and only inside its
functions. One SparkSession serves the whole job; a session that was already active (tests share one)
is reused and left running.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from kcli.audit.rules import FINDING_COLUMNS, Rule, RuleError, Severity
from kcli.audit.tables import HISTORY_TABLES, SNAPSHOT_TABLES, TABLES_BY_NAME, Table
from kcli.errors import KcliError, UsageError

if TYPE_CHECKING:
    from pyspark.sql import DataFrame, SparkSession

DEFAULT_MASTER = "local[*]"
# Defaults a --conf overrides: no UI port, few shuffle partitions, UTC for timestamps. Adaptive
# execution is off: the rules run as one union of many small plans, and AQE materialises all their
# broadcasts at once on the driver (out of memory at 1M partitions) while gaining nothing on
# fleet-sized tables; re-enable it with --conf spark.sql.adaptive.enabled=true on a real cluster.
DEFAULT_CONF: Mapping[str, str] = {
    "spark.app.name": "kcli-audit",
    "spark.ui.enabled": "false",
    "spark.ui.showConsoleProgress": "false",
    "spark.sql.shuffle.partitions": "8",
    "spark.sql.adaptive.enabled": "false",
    "spark.sql.session.timeZone": "UTC",
    "spark.sql.sources.partitionColumnTypeInference.enabled": "false",
    "spark.driver.memory": "2g",
}
# Spark's own log lines would bury the summary on stderr: only errors, and only from Spark.
LOG4J2_PROPERTIES = """\
status = error
rootLogger.level = error
rootLogger.appenderRef.stderr.ref = console
appender.console.type = Console
appender.console.name = console
appender.console.target = SYSTEM_ERR
appender.console.layout.type = PatternLayout
appender.console.layout.pattern = spark: %p %c{1}: %m%n%ex
"""
FINDINGS_PARQUET = "findings.parquet"
FINDINGS_JSONL = "findings.jsonl"


@dataclass(frozen=True, slots=True, kw_only=True)
class AuditRequest:
    """What to audit and how: snapshot dirs, metadata log dirs, rules, Spark master and conf."""

    inputs: tuple[Path, ...] = ()
    metadata_dirs: tuple[Path, ...] = ()
    rules: tuple[Rule, ...]
    out: Path | None = None
    master: str = DEFAULT_MASTER
    conf: Mapping[str, str] = field(default_factory=dict)
    worst: int = 10


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
    out: Path | None
    stage_seconds: Mapping[str, float]
    warnings: tuple[str, ...] = ()

    @property
    def total(self) -> int:
        return sum(count.findings for count in self.counts)

    def by_severity(self) -> dict[str, int]:
        totals = {severity.name: 0 for severity in sorted(Severity, reverse=True)}
        for count in self.counts:
            totals[count.severity.name] += count.findings
        return totals

    def max_severity(self) -> Severity | None:
        found = [count.severity for count in self.counts if count.findings]
        return max(found) if found else None


def parse_conf(pairs: Sequence[str]) -> dict[str, str]:
    """--conf k=v pairs as a dict (a pair without '=' is a usage error)."""
    conf: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise UsageError(f"--conf {pair!r}: expected KEY=VALUE, e.g. spark.executor.memory=4g")
        conf[key.strip()] = value.strip()
    return conf


@contextmanager
def spark_session(master: str, conf: Mapping[str, str]) -> Iterator[SparkSession]:
    """The job's one SparkSession; stopped at the end unless it was already running."""
    from pyspark.sql import SparkSession

    active = SparkSession.getActiveSession()
    if active is not None:
        for key, value in conf.items():
            if key.startswith("spark.sql."):
                active.conf.set(key, value)
        yield active
        return
    with tempfile.TemporaryDirectory(prefix="kcli-spark-") as scratch:
        log_config = Path(scratch) / "log4j2.properties"
        log_config.write_text(LOG4J2_PROPERTIES, encoding="utf-8")
        # Spark creates its (unused) SQL warehouse dir in the working directory unless told otherwise.
        settings = {**DEFAULT_CONF, "spark.sql.warehouse.dir": str(Path(scratch) / "warehouse"), **conf}
        if master.startswith("local") and not os.environ.get("PYSPARK_PYTHON"):
            # Local Python workers must run this interpreter (with kcli and its readers installed);
            # pyspark takes the worker interpreter from the environment when the context starts.
            os.environ["PYSPARK_PYTHON"] = sys.executable
        java_options = settings.get("spark.driver.extraJavaOptions", "")
        settings["spark.driver.extraJavaOptions"] = (
            f"-Dlog4j2.configurationFile={log_config.as_uri()} {java_options}".strip()
        )
        builder = SparkSession.builder.master(master)
        for key, value in settings.items():
            builder = builder.config(key, value)
        try:
            session = builder.getOrCreate()
        except Exception as error:  # the JVM failed to start or the master is unreachable
            raise KcliError(f"cannot start Spark (master {master}): {_first_line(error)}") from None
        session.sparkContext.setLogLevel("ERROR")
        try:
            yield session
        finally:
            session.stop()


def run_audit(
    spark: SparkSession, request: AuditRequest, *, progress: Callable[[str], None] | None = None
) -> AuditResult:
    """Load the tables, check every rule, run them all and write the findings.

    A failing Spark job (a task error, a lost executor) becomes one KcliError line.
    """
    from py4j.protocol import Py4JError
    from pyspark.errors import PySparkException

    try:
        return _run_audit(spark, request, progress=progress)
    except (PySparkException, Py4JError) as error:
        raise KcliError(f"Spark job failed: {_spark_error_line(error)}") from error


def _spark_error_line(error: BaseException) -> str:
    """The most telling line of a Spark error: a Python worker's own exception, else the first line."""
    lines = [line.strip() for line in str(error).splitlines() if line.strip()]
    for line in reversed(lines):
        if line.split(":", 1)[0].endswith(("Error", "Exception")) and not line.startswith("at "):
            return line
    return lines[0] if lines else type(error).__name__


def _run_audit(
    spark: SparkSession, request: AuditRequest, *, progress: Callable[[str], None] | None = None
) -> AuditResult:
    from pyspark.sql import functions as F

    stages: dict[str, float] = {}
    say = progress or (lambda _line: None)

    started = time.monotonic()
    say("loading tables")
    warnings: list[str] = []
    views = load_snapshot_tables(spark, request.inputs)
    views.update(load_history_tables(spark, request.metadata_dirs, warnings=warnings))
    for name, frame in views.items():
        frame.createOrReplaceTempView(name)
    stages["load"] = time.monotonic() - started

    started = time.monotonic()
    say(f"checking {len(request.rules)} rules")
    frames = [rule_frame(spark, rule) for rule in request.rules]
    stages["check rules"] = time.monotonic() - started

    started = time.monotonic()
    say("running rules")
    findings = _union(frames).persist()
    try:
        total = findings.count()
        stages["run rules"] = time.monotonic() - started

        started = time.monotonic()
        if request.out is not None:
            say(f"writing {total} findings to {request.out}")
            write_findings(findings, request.out)
        stages["write findings"] = time.monotonic() - started

        started = time.monotonic()
        per_rule = {
            row["rule_id"]: int(row["count"]) for row in findings.groupBy("rule_id").count().collect()
        }
        rank = F.when(F.col("severity") == "high", 3).when(F.col("severity") == "medium", 2)
        rank = rank.when(F.col("severity") == "low", 1).otherwise(0)
        worst_rows = (
            findings.orderBy(rank.desc(), "rule_id", "cluster_id", "resource").limit(request.worst).collect()
            if request.worst > 0
            else []
        )
        clusters = views["clusters"].select("cluster_id").distinct().count()
        partitions = views["partitions"].count()
        history = views["broker_events"].count() + views["leader_changes"].count()
        stages["summary"] = time.monotonic() - started
    finally:
        findings.unpersist()
    counts = tuple(
        RuleCount(rule_id=rule.id, severity=rule.severity, findings=per_rule.get(rule.id, 0))
        for rule in request.rules
    )
    worst = tuple(
        Finding(
            rule_id=row["rule_id"],
            severity=Severity[row["severity"]],
            cluster_id=row["cluster_id"],
            resource=row["resource"],
            message=row["message"],
        )
        for row in worst_rows
    )
    return AuditResult(
        clusters=clusters,
        partitions=partitions,
        history_rows=history,
        counts=counts,
        worst=worst,
        out=request.out,
        stage_seconds=stages,
        warnings=tuple(warnings),
    )


def empty_frame(spark: SparkSession, spec: Table) -> DataFrame:
    return spark.createDataFrame([], schema=spec.spark_ddl())


def load_snapshot_tables(spark: SparkSession, inputs: Sequence[Path]) -> dict[str, DataFrame]:
    """Every snapshot table as a DataFrame holding only the newest snapshot of each cluster."""
    from pyspark.sql import functions as F

    for directory in inputs:
        if not (directory / "clusters").is_dir():
            raise UsageError(
                f"--input {directory}: not a kcli snapshot directory (no clusters/ table; "
                "write one with `kcli spark collect --out DIR`)"
            )
    frames: dict[str, DataFrame] = {}
    for spec in SNAPSHOT_TABLES:
        parts = [
            spark.read.schema(spec.spark_ddl()).parquet(str(directory / spec.name))
            for directory in inputs
            if (directory / spec.name).is_dir()
        ]
        frames[spec.name] = _union(parts) if parts else empty_frame(spark, spec)
    # A snapshot counts once its clusters row exists (written last); the newest one per cluster wins.
    latest = frames["clusters"].groupBy("cluster_id").agg(F.max("collected_at").alias("collected_at"))
    latest = F.broadcast(latest)
    return {
        name: frame.join(latest, ["cluster_id", "collected_at"], "left_semi")
        for name, frame in frames.items()
    }


def load_history_tables(
    spark: SparkSession, metadata_dirs: Sequence[Path], *, warnings: list[str] | None = None
) -> dict[str, DataFrame]:
    """The metadata-history tables from KRaft log dirs (empty when none are given)."""
    if not metadata_dirs:
        return {spec.name: empty_frame(spark, spec) for spec in HISTORY_TABLES}
    from kcli.audit.metadata_source import history_frames

    return history_frames(spark, metadata_dirs, warnings=warnings)


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


def write_findings(findings: DataFrame, out: Path) -> None:
    """Every finding as Parquet (DIR/findings.parquet/) and as JSON lines (DIR/findings.jsonl)."""
    out.mkdir(parents=True, exist_ok=True)
    findings.write.mode("overwrite").parquet(str(out / FINDINGS_PARQUET))
    staging = out / ".findings-json"
    findings.coalesce(1).write.mode("overwrite").json(str(staging))
    # Spark writes a directory of part files; the operator gets one JSON-lines file.
    with (out / FINDINGS_JSONL).open("wb") as target:
        for part in sorted(staging.glob("part-*")):
            with part.open("rb") as source:
                shutil.copyfileobj(source, target)
    shutil.rmtree(staging, ignore_errors=True)


def _union(frames: Sequence[DataFrame]) -> DataFrame:
    result = frames[0]
    for frame in frames[1:]:
        result = result.unionByName(frame)
    return result


def _first_line(error: BaseException) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__
