"""`kcli spark`: fleet audits as PySpark jobs (collect snapshots, audit them with rules, list rules).

pyspark is imported only inside `kcli spark audit` (by kcli.audit.session and kcli.audit.job), never
by this module's top level, so `kcli --help` and every other command start without it.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from kcli.cli.common import env_of, guarded, run, tool_group, what_is_left
from kcli.cli.completers import profile_names
from kcli.cli.connection_options import CommandConfigOpt, ConnectionArgs, client_config
from kcli.errors import ExitCode, KcliError, UsageError
from kcli.render import OutputFormat, emit

if TYPE_CHECKING:
    from kcli.audit.rules import Rule
    from kcli.client.config import ClientConfig
    from kcli.env import Env
    from kcli.workflows.audit_collect import ClusterSnapshot

app = tool_group(
    "spark", "Fleet audits as PySpark jobs: collect cluster snapshots, audit them against rules."
)

BootstrapServersOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--bootstrap-server",
        "-b",
        help="A cluster to collect: HOST:PORT[,HOST:PORT...] (repeat for several clusters).",
        rich_help_panel="Connection",
    ),
]
ProfilesOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--profile",
        help="A cluster to collect, by profile (repeatable).",
        rich_help_panel="Connection",
        autocompletion=profile_names,
    ),
]
RulesOpt = Annotated[
    list[Path] | None,
    typer.Option(
        "--rules", help="A TOML rule file to add (repeatable); a rule with a built-in id replaces it."
    ),
]
RulesOutputOpt = Annotated[
    OutputFormat, typer.Option("--output", "-o", help="Output format: text, table or json.")
]
CollectOutputOpt = Annotated[
    OutputFormat, typer.Option("--output", "-o", help="Output format: text or json.")
]
NoBuiltinOpt = Annotated[
    bool, typer.Option("--no-builtin-rules", help="Run only the rules of --rules files.")
]


SPARK_EXTRA = "pip install 'kcli-kafka[spark]'"
_NEEDED_FOR = {"pyspark": "PySpark", "pyarrow": "pyarrow (Parquet)"}


def require_extra(*modules: str, command: str, exit_code: ExitCode) -> None:
    """Refuse to start, in one line, when the [spark] extra's modules are not installed: checked
    before any cluster is asked, so nothing is collected for nothing."""
    import importlib

    missing = []
    for module in modules:
        try:
            importlib.import_module(module)
        except ImportError:
            missing.append(_NEEDED_FOR[module])
    if missing:
        needs = " and ".join(missing)
        alone = "; pip install pyarrow is enough: collect needs no Spark" if modules == ("pyarrow",) else ""
        verb = "are" if len(missing) > 1 else "is"
        error = KcliError(f"{command} needs {needs}, which {verb} not installed", hint=f"{SPARK_EXTRA}{alone}")
        error.exit_code = exit_code
        raise error


def register(root: typer.Typer) -> None:
    """Add this tool's commands to the root app."""
    root.add_typer(app)


@app.command("rules")
@guarded
def rules_command(
    rules: RulesOpt = None,
    no_builtin_rules: NoBuiltinOpt = False,
    output: RulesOutputOpt = OutputFormat.table,
) -> None:
    """List the audit rules (built-in and from --rules files): id, severity, description."""
    from kcli.audit import summary
    from kcli.audit.rules import rule_set

    env = env_of()
    chosen = rule_set(list(rules or ()), builtin=not no_builtin_rules)
    emit(
        env,
        output,
        list(chosen),
        text=summary.rules_text,
        json_value=summary.rules_json,
        table=summary.rules_table,
    )


@app.command("collect")
@guarded
def collect_command(
    out: Annotated[
        str,
        typer.Option(
            "--out",
            metavar="DIR",
            help="Local directory to write the snapshots to (Parquet); `kcli spark audit --out URI` "
            "writes them to any Hadoop filesystem.",
        ),
    ],
    bootstrap_server: BootstrapServersOpt = None,
    profile: ProfilesOpt = None,
    command_config: CommandConfigOpt = None,
    output: CollectOutputOpt = OutputFormat.text,
) -> None:
    """Collect a snapshot of each cluster (no Spark needed, only pyarrow) as Parquet partitioned by cluster and time."""
    from kcli.audit import summary
    from kcli.audit.snapshot import write_snapshot
    from kcli.audit.storage import local_path, to_uri

    env = env_of()
    require_extra("pyarrow", command="kcli spark collect", exit_code=ExitCode.ERROR)
    directory = local_path(to_uri(out))
    if directory is None:
        raise UsageError(
            f"--out {out}: kcli spark collect writes a local directory; to write a snapshot to another "
            "filesystem use `kcli spark audit --bootstrap-server ... --out URI`"
        )
    from kcli.writes import WriteFailed

    configs = _cluster_configs(env, bootstrap_server, profile, command_config)
    written = []
    try:
        for snapshot in _collect(env, configs, announce=True):
            written.append(write_snapshot(snapshot, directory))
    except WriteFailed as failed:
        kept = f"; the {len(written)} snapshot(s) before it are complete" if written else ""
        raise KcliError(
            failed.message,
            hint=f"the snapshot being written lacks its clusters row, so audits ignore it{kept}; "
            + (failed.hint or "free some space and collect again"),
        ) from None
    emit(env, output, written, text=summary.collect_text, json_value=summary.collect_json)


InputOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--input",
        "-i",
        metavar="DIR|URI",
        help="A snapshot directory written by `kcli spark collect`: a local path or any Hadoop URI "
        "(hdfs://, s3a://, file://) (repeatable).",
    ),
]
MetadataDirOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--metadata-dir",
        metavar="DIR|URI",
        help="A KRaft log dir, a __cluster_metadata-0 dir, or a tree of them; a local path or any "
        "Hadoop URI (repeatable).",
    ),
]
MasterOpt = Annotated[
    str | None,
    typer.Option(
        "--master",
        help="Spark master URL. Default: the one spark-submit, PYSPARK_SUBMIT_ARGS or spark.master in "
        "spark-defaults.conf sets, else local[*].",
    ),
]
ConfOpt = Annotated[
    list[str] | None, typer.Option("--conf", help="Spark configuration KEY=VALUE (repeatable).")
]
AuditOutOpt = Annotated[
    str | None,
    typer.Option(
        "--out",
        metavar="DIR|URI",
        help="Where to write findings.parquet/, findings.jsonl, warnings.parquet, warnings.jsonl "
        "(and collected snapshots, under snapshots/): a local path or any Hadoop URI.",
    ),
]
FailOnOpt = Annotated[
    str | None,
    typer.Option("--fail-on", help="Exit 1 when a finding is at least this severe: info|low|medium|high."),
]
StrictOpt = Annotated[
    bool,
    typer.Option(
        "--strict", help="Stop with exit 3 before any rule runs when the input is incomplete (a warning)."
    ),
]
WorstOpt = Annotated[int, typer.Option("--worst", help="How many of the worst findings to show.")]
AuditOutputOpt = Annotated[
    OutputFormat,
    typer.Option(
        "--output",
        "-o",
        help="Output format: text (rich tables on a terminal, plain lines otherwise), table or json.",
    ),
]


@app.command("audit")
@guarded
def audit_command(
    input: InputOpt = None,
    metadata_dir: MetadataDirOpt = None,
    rules: RulesOpt = None,
    no_builtin_rules: NoBuiltinOpt = False,
    master: MasterOpt = None,
    conf: ConfOpt = None,
    out: AuditOutOpt = None,
    fail_on: FailOnOpt = None,
    strict: StrictOpt = False,
    worst: WorstOpt = 10,
    bootstrap_server: BootstrapServersOpt = None,
    profile: ProfilesOpt = None,
    command_config: CommandConfigOpt = None,
    output: AuditOutputOpt = OutputFormat.text,
) -> None:
    """Audit snapshots and/or KRaft metadata logs with the rules, as a Spark job.

    Exit status: 0 clean; 1 findings at or above --fail-on; 2 usage error; 3 the audit could not run
    (Spark, an input) or its input was incomplete (a warning: a broker not collected, a corrupt
    file) and nothing reached --fail-on.
    """
    from kcli.audit import summary
    from kcli.audit.job import AuditFailed
    from kcli.audit.request import AuditOptions, plan_audit, verdict
    from kcli.audit.storage import to_uri

    env = env_of()
    require_extra("pyspark", "pyarrow", command="kcli spark audit", exit_code=ExitCode.INCOMPLETE)
    plan = plan_audit(
        AuditOptions(
            inputs=tuple(input or ()),
            metadata_dirs=tuple(metadata_dir or ()),
            rules=tuple(rules or ()),
            builtin_rules=not no_builtin_rules,
            conf=tuple(conf or ()),
            fail_on=fail_on,
            worst=worst,
            live=bool(bootstrap_server or profile),
        )
    )
    try:
        live = []
        if bootstrap_server or profile:
            configs = _cluster_configs(env, bootstrap_server, profile, command_config)
            live = list(_collect(env, configs, announce=False))
            found = sum(len(snapshot.warnings) for snapshot in live)
            if strict and found:
                raise AuditFailed(
                    f"the audit's input is incomplete ({found} warning{'s' if found != 1 else ''} above; --strict)"
                )
        left = "the audit stopped before it finished, and Spark with it" + (
            f"; {out} may hold part of its findings: run the audit again" if out is not None else ""
        )
        with what_is_left(left):
            result = _audit(
                env,
                inputs=list(plan.inputs),
                metadata_dirs=list(plan.metadata_dirs),
                live=live,
                rules=plan.rules,
                out=to_uri(out) if out is not None else None,
                master=master,
                conf=plan.conf,
                worst=worst,
                strict=strict,
            )
    except UsageError:
        raise
    except KcliError as error:
        if isinstance(error, AuditFailed):
            raise
        raise AuditFailed(error.message, hint=error.hint) from None
    # text is the rich summary on a terminal and plain lines elsewhere (pipes, files, CI logs).
    shown = OutputFormat.table if output is OutputFormat.text and env.stdout_isatty else output
    emit(
        env, shown, result, text=summary.audit_text, json_value=summary.audit_json, table=summary.audit_table
    )
    code, line = verdict(result, plan.threshold)
    if line is not None:
        env.err(line)
        raise typer.Exit(int(code))


def _audit(
    env: Env,
    *,
    inputs: list[str],
    metadata_dirs: list[str],
    live: list[ClusterSnapshot],
    rules: tuple[Rule, ...],
    out: str | None,
    master: str | None,
    conf: dict[str, str],
    worst: int,
    strict: bool,
) -> Any:
    from kcli.audit.job import AuditRequest, AuditWarning, run_audit
    from kcli.audit.session import spark_session

    request = AuditRequest(
        inputs=tuple(inputs),
        metadata_dirs=tuple(metadata_dirs),
        live=tuple(live),
        rules=rules,
        out=out,
        conf=conf,
        worst=worst,
        strict=strict,
    )

    def warn(warning: AuditWarning) -> None:
        env.err(f"Warning: {warning.message}")

    with spark_session(master, conf, debug=env.debug) as spark:
        if not _stderr_is_tty(env):
            return run_audit(spark, request, warn=warn)
        from kcli.audit.progress import LiveProgress
        from kcli.render import console

        with LiveProgress(spark, console(env, stderr=True)) as progress:
            return run_audit(spark, request, say=progress.phase, warn=warn)


def _cluster_configs(
    env: Env, servers: list[str] | None, profiles: list[str] | None, command_config: Path | None
) -> list[ClientConfig]:
    """One client config per cluster: each --bootstrap-server, then each --profile."""
    if not servers and not profiles:
        raise UsageError("give at least one --bootstrap-server or --profile to collect")
    configs = [
        client_config(ConnectionArgs(bootstrap_server=server, command_config=command_config), env)
        for server in servers or ()
    ]
    configs += [
        client_config(ConnectionArgs(profile=name, command_config=command_config), env)
        for name in profiles or ()
    ]
    return configs


def _collect(env: Env, configs: list[ClientConfig], *, announce: bool) -> list[ClusterSnapshot]:
    """Collect every cluster: a progress bar per cluster on a terminal, warnings on stderr.

    Off a terminal a "collected" line per cluster follows when `announce` (spark collect).
    """
    from kcli.workflows.audit_collect import STEPS, collect_each

    interactive = _stderr_is_tty(env)

    def report(index: int, snapshot: ClusterSnapshot) -> None:
        for warning in snapshot.warnings:
            env.err(f"Warning: {warning}")
        if announce and not interactive:
            env.err(f"collected {snapshot.cluster_id} ({index + 1}/{len(configs)})")

    async def gather(step: Any = None, done: Any = None) -> list[ClusterSnapshot]:
        snapshots = []
        async for index, snapshot in collect_each(configs, on_step=step):
            (done or report)(index, snapshot)
            snapshots.append(snapshot)
        return snapshots

    if not interactive:
        return list(run(gather()))
    from rich.progress import BarColumn, Progress, TextColumn

    from kcli.render import console

    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        TextColumn("{task.fields[step]}"),
        console=console(env, stderr=True),
        transient=False,
    ) as bar:
        tasks = [
            bar.add_task(f"cluster {i + 1}/{len(configs)} {c.bootstrap[0]}", total=len(STEPS), step="")
            for i, c in enumerate(configs)
        ]

        def step(index: int, name: str) -> None:
            bar.update(tasks[index], advance=0 if name == STEPS[0] else 1, step=name)

        def done(index: int, snapshot: ClusterSnapshot) -> None:
            bar.update(tasks[index], completed=len(STEPS), step=f"done: {snapshot.cluster_id}")
            report(index, snapshot)

        return list(run(gather(step, done)))


def _stderr_is_tty(env: Env) -> bool:
    try:
        return bool(env.stderr.isatty())
    except (AttributeError, ValueError):
        return False
