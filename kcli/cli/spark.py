"""`kcli spark`: fleet audits as PySpark jobs (collect snapshots, audit them with rules, list rules).

pyspark is imported only inside `kcli spark audit` (by kcli.audit.job), never by this module's top
level, so `kcli --help` and every other command start without it.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from kcli.cli.common import CommandConfigOpt, ConnectionArgs, client_config, env_of, guarded, run
from kcli.cli.completers import profile_names
from kcli.errors import ExitCode, KcliError, UsageError
from kcli.render import OutputFormat, emit

if TYPE_CHECKING:
    from kcli.audit.rules import Rule
    from kcli.audit.snapshot import WrittenSnapshot
    from kcli.client.config import ClientConfig
    from kcli.env import Env

app = typer.Typer(
    name="spark",
    help="Fleet audits as PySpark jobs: collect cluster snapshots, audit them against rules.",
    no_args_is_help=True,
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
NoBuiltinOpt = Annotated[
    bool, typer.Option("--no-builtin-rules", help="Run only the rules of --rules files.")
]


def register(root: typer.Typer) -> None:
    """Add this tool's commands to the root app."""
    root.add_typer(app)


@app.command("rules")
@guarded
def rules_command(
    rules: RulesOpt = None,
    no_builtin_rules: NoBuiltinOpt = False,
    output: Annotated[
        OutputFormat, typer.Option("--output", "-o", help="Output format: text, table or json.")
    ] = OutputFormat.table,
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
    out: Annotated[Path, typer.Option("--out", help="Directory to write the snapshots to (Parquet).")],
    bootstrap_server: BootstrapServersOpt = None,
    profile: ProfilesOpt = None,
    command_config: CommandConfigOpt = None,
    output: Annotated[
        OutputFormat, typer.Option("--output", "-o", help="Output format: text or json.")
    ] = OutputFormat.text,
) -> None:
    """Collect a snapshot of each cluster (no Spark needed) as Parquet partitioned by cluster and time."""
    from kcli.audit import summary

    env = env_of()
    configs = _cluster_configs(env, bootstrap_server, profile, command_config)
    written = _collect(env, configs, out)
    emit(env, output, written, text=summary.collect_text, json_value=summary.collect_json)


@app.command("audit")
@guarded
def audit_command(
    input: Annotated[
        list[Path] | None,
        typer.Option(
            "--input", "-i", help="A snapshot directory written by `kcli spark collect` (repeatable)."
        ),
    ] = None,
    metadata_dir: Annotated[
        list[Path] | None,
        typer.Option(
            "--metadata-dir",
            help="A KRaft log dir, a __cluster_metadata-0 dir, or a tree of them (repeatable).",
        ),
    ] = None,
    rules: RulesOpt = None,
    no_builtin_rules: NoBuiltinOpt = False,
    master: Annotated[str, typer.Option("--master", help="Spark master URL.")] = "local[*]",
    conf: Annotated[
        list[str] | None, typer.Option("--conf", help="Spark configuration KEY=VALUE (repeatable).")
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out", help="Directory for findings.parquet/ and findings.jsonl (and collected snapshots)."
        ),
    ] = None,
    fail_on: Annotated[
        str | None,
        typer.Option(
            "--fail-on", help="Exit 1 when a finding is at least this severe: info|low|medium|high."
        ),
    ] = None,
    worst: Annotated[int, typer.Option("--worst", help="How many of the worst findings to show.")] = 10,
    bootstrap_server: BootstrapServersOpt = None,
    profile: ProfilesOpt = None,
    command_config: CommandConfigOpt = None,
    output: Annotated[
        OutputFormat,
        typer.Option(
            "--output",
            "-o",
            help="Output format: text (rich tables on a terminal, plain lines otherwise), table or json.",
        ),
    ] = OutputFormat.text,
) -> None:
    """Audit snapshots and/or KRaft metadata logs with the rules, as a Spark job."""
    from kcli.audit import summary
    from kcli.audit.rules import Severity, rule_set

    env = env_of()
    threshold = None
    if fail_on is not None:
        try:
            threshold = Severity.parse(fail_on)
        except ValueError as error:
            raise UsageError(f"--fail-on: {error}") from None
    if worst < 0:
        raise UsageError("--worst must be 0 or more")
    chosen = rule_set(list(rules or ()), builtin=not no_builtin_rules)
    inputs = list(input or ())
    metadata_dirs = list(metadata_dir or ())
    for directory in (*inputs, *metadata_dirs):
        if not directory.is_dir():
            raise UsageError(f"{directory}: no such directory")
    with tempfile.TemporaryDirectory(prefix="kcli-spark-") as scratch:
        if bootstrap_server or profile:
            configs = _cluster_configs(env, bootstrap_server, profile, command_config)
            collected = (out / "snapshots") if out is not None else Path(scratch) / "snapshots"
            _collect(env, configs, collected)
            inputs.append(collected)
        if not inputs and not metadata_dirs:
            raise UsageError("nothing to audit: give --input DIR, --metadata-dir DIR or --bootstrap-server")
        result = _audit(env, inputs, metadata_dirs, chosen, out, master, list(conf or ()), worst)
    # text is the rich summary on a terminal and plain lines elsewhere (pipes, files, CI logs).
    shown = OutputFormat.table if output is OutputFormat.text and env.stdout_isatty else output
    emit(
        env, shown, result, text=summary.audit_text, json_value=summary.audit_json, table=summary.audit_table
    )
    worst_found = result.max_severity()
    if threshold is not None and worst_found is not None and worst_found >= threshold:
        failing = sum(count.findings for count in result.counts if count.severity >= threshold)
        env.err(f"Error: {failing} findings at or above {threshold.name} (--fail-on {threshold.name})")
        raise typer.Exit(int(ExitCode.ERROR))


def _audit(
    env: Env,
    inputs: list[Path],
    metadata_dirs: list[Path],
    rules: tuple[Rule, ...],
    out: Path | None,
    master: str,
    conf: list[str],
    worst: int,
) -> Any:
    from kcli.audit.job import AuditRequest, parse_conf, run_audit, spark_session

    request = AuditRequest(
        inputs=tuple(inputs),
        metadata_dirs=tuple(metadata_dirs),
        rules=rules,
        out=out,
        master=master,
        conf=parse_conf(conf),
        worst=worst,
    )
    progress = env.err if _stderr_is_tty(env) else None
    with spark_session(request.master, request.conf) as spark:
        return run_audit(spark, request, progress=progress)


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


def _collect(env: Env, configs: list[ClientConfig], out: Path) -> list[WrittenSnapshot]:
    """Collect every cluster with a progress bar per cluster on stderr (plain lines off a terminal)."""
    from kcli.audit.collect import STEPS, collect_fleet

    def report(index: int, written: WrittenSnapshot, warnings: list[str]) -> None:
        for warning in warnings:
            env.err(f"Warning: {warning}")
        if not interactive:
            env.err(f"collected {written.cluster_id} ({index + 1}/{len(configs)})")

    interactive = _stderr_is_tty(env)
    try:
        if not interactive:
            return run(collect_fleet(configs, out, on_done=report))
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

            def done(index: int, written: WrittenSnapshot, warnings: list[str]) -> None:
                bar.update(tasks[index], completed=len(STEPS), step=f"done: {written.cluster_id}")
                report(index, written, warnings)

            return run(collect_fleet(configs, out, on_step=step, on_done=done))
    except OSError as error:
        raise KcliError(f"cannot write snapshots to {out}: {error.strerror or error}") from None


def _stderr_is_tty(env: Env) -> bool:
    try:
        return bool(env.stderr.isatty())
    except (AttributeError, ValueError):
        return False
