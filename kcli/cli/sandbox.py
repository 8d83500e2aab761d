"""`kcli sandbox`: a local KRaft cluster on loopback to rehearse on, and faults to inject into it.

Two engines behind the same commands: the emulator (the default; not Kafka, no Java needed: controllers
and brokers in one Python process, speaking the Kafka protocol, with a real metadata log under --dir) and
real Apache Kafka nodes from a Kafka distribution (`up --kafka-home DIR`: one JVM per node, formatted by
Kafka's StorageTool). `up --detach` leaves the cluster running; the other commands find it in --dir.

This module knows neither engine: it opens the engine of a directory (kcli.sandbox.opening), calls
one method of kcli.sandbox.engine's interface and renders the typed result. The fault commands are
written from that interface's table (kcli.sandbox.engine.FAULTS) into kcli/cli/sandbox_faults.py.
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from kcli.cli.common import OutputOpt, env_of, guarded, tool_group, what_is_left
from kcli.cli.sandbox_common import (
    DirOpt,
    ForegroundView,
    announce,
    directory_of,
    emit_status,
    quoted,
    resolved_directory,
)
from kcli.errors import UsageError
from kcli.render import OutputFormat

if TYPE_CHECKING:
    from kcli.sandbox.engine import Launcher
    from kcli.sandbox.settings import SandboxSettings

app = tool_group(
    "sandbox",
    "A KRaft cluster on loopback for rehearsing runbooks and tests: the emulator (not Kafka; real wire "
    "protocol, real metadata log, fault injection) or real Kafka nodes (--kafka-home).",
)

SECURITY_CHOICES = ("plaintext", "sasl_plaintext", "ssl", "sasl_ssl")
COMPRESSION_CHOICES = ("none", "gzip", "snappy", "lz4", "zstd")
ControllersOpt = Annotated[int, typer.Option("--controllers", min=1, max=9, help="Controller count.")]
BrokersOpt = Annotated[int, typer.Option("--brokers", min=1, max=99, help="Broker count.")]
BasePortOpt = Annotated[
    int,
    typer.Option(
        "--base-port", min=0, max=65000, help="First listener port (brokers, then controllers); 0 = free ports."
    ),
]
ClusterIdOpt = Annotated[str | None, typer.Option("--cluster-id", help="Cluster id (default: random).")]
SecurityOpt = Annotated[
    str, typer.Option("--security", help="Listener security: plaintext, sasl_plaintext, ssl or sasl_ssl.")
]
AuthorizerOpt = Annotated[
    bool, typer.Option("--authorizer/--no-authorizer", help="Enforce ACLs (StandardAuthorizer).")
]
TopicsOpt = Annotated[int, typer.Option("--topics", min=0, help="Create N topics at the first start.")]
PartitionsOpt = Annotated[int, typer.Option("--partitions", min=1, help="Partitions per --topics topic.")]
RacksOpt = Annotated[
    str | None,
    typer.Option("--racks", help="Broker racks, assigned round-robin (e.g. a,b,c); default: no racks."),
]
LogDirsOpt = Annotated[
    int, typer.Option("--log-dirs", min=1, max=8, help="Simulated log directories per broker.")
]
ReleaseOpt = Annotated[
    str | None,
    typer.Option(
        "--release-version",
        help="metadata.version of a new sandbox, e.g. 3.9 or 4.0-IV3 (default: latest production).",
    ),
]
ProfileOpt = Annotated[
    str | None,
    typer.Option(
        "--profile",
        help="Write (or update) kcli profile NAME for this sandbox and make it the default, "
        "so plain `kcli cluster-id` reaches it.",
    ),
]
KafkaHomeOpt = Annotated[
    Path | None,
    typer.Option(
        "--kafka-home",
        help="Run real Apache Kafka nodes (one JVM each; Java 17) from this Kafka distribution: the "
        "tarball unpacked, or what scripts/kafka-dist.sh VERSION assembles. Default: the emulator.",
    ),
]
CombinedOpt = Annotated[
    bool,
    typer.Option(
        "--combined",
        help="With --kafka-home: the controllers are brokers too (process.roles=broker,controller).",
    ),
]
ServerConfigOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--server-config",
        help="With --kafka-home: a server.properties setting KEY=VALUE of every node (repeatable); "
        "a node's own go in DIR/<id>/overrides.properties.",
    ),
]
RecordsOpt = Annotated[
    int,
    typer.Option(
        "--records-per-partition",
        min=0,
        help="Emulator: fill each --topics partition with M records at the first start (batches as a "
        "producer writes them).",
    ),
]
CompressionOpt = Annotated[
    str, typer.Option("--compression", help="The codec of those batches: none, gzip, snappy, lz4 or zstd.")
]
DetachOpt = Annotated[bool, typer.Option("--detach", help="Return once every listener accepts; keep running.")]
DaemonOpt = Annotated[bool, typer.Option("--daemon", hidden=True)]


def register(root: typer.Typer) -> None:
    """Add this tool's commands to the root app."""
    root.add_typer(app)


@app.command("up")
@guarded
def up(
    ctx: typer.Context,
    directory: DirOpt = None,
    controllers: ControllersOpt = 3,
    brokers: BrokersOpt = 3,
    base_port: BasePortOpt = 19092,
    cluster_id: ClusterIdOpt = None,
    security: SecurityOpt = "plaintext",
    authorizer: AuthorizerOpt = False,
    topics: TopicsOpt = 0,
    partitions: PartitionsOpt = 1,
    records_per_partition: RecordsOpt = 0,
    compression: CompressionOpt = "none",
    racks: RacksOpt = None,
    log_dirs: LogDirsOpt = 1,
    release_version: ReleaseOpt = None,
    profile: ProfileOpt = None,
    kafka_home: KafkaHomeOpt = None,
    combined: CombinedOpt = False,
    server_config: ServerConfigOpt = None,
    detach: DetachOpt = False,
    daemon: DaemonOpt = False,
    output: OutputOpt = OutputFormat.text,
) -> None:
    """Start a sandbox cluster: the emulator (not Kafka), or real Kafka nodes with --kafka-home; reopening
    a DIR starts the cluster it holds with the settings it was created with (a flag given again overrides
    them)."""
    from kcli.sandbox.opening import holds_real_kafka, launcher

    if security.lower() not in SECURITY_CHOICES:
        raise UsageError(f"--security must be one of {', '.join(SECURITY_CHOICES)}, not {security!r}")
    if compression not in COMPRESSION_CHOICES:
        raise UsageError(
            f"--compression must be one of {', '.join(COMPRESSION_CHOICES)}, not {compression!r}"
        )
    rack_names = _racks(racks)
    path = resolved_directory(directory)
    env = env_of()
    engine = launcher(real=kafka_home is not None or holds_real_kafka(path), keep_failed=env.debug)
    engine.check_flags(
        combined=combined,
        server_config=bool(server_config),
        release_version=release_version,
        records=bool(records_per_partition),
    )
    if cluster_id is not None:
        _check_cluster_id(cluster_id)
    if profile is not None:
        from kcli.workflows.profiles import check_name

        check_name(profile)
    if not daemon:  # its parent checked the directory, holds its lock and wrote sandbox.log into it
        from kcli.sandbox.directory_check import check_directory

        check_directory(path)
    created = not path.exists()
    running_hint = f"stop it with: kcli sandbox down --dir {quoted(path)}"
    engine.refuse_running(path, hint=running_hint)  # the sandbox that runs there, named with its pid
    with contextlib.ExitStack() as held:
        if not daemon:  # before anything is written into DIR; the emulator's process inherits it
            from kcli.sandbox.dirlock import holding

            held.enter_context(holding(path))
            engine.refuse_running(path, hint=running_hint)  # one that finished starting meanwhile
        options: dict[str, Any] = {
            "controllers": controllers,
            "brokers": brokers,
            "base_port": base_port,
            "cluster_id": cluster_id,
            "security": security.lower(),
            "authorizer": authorizer,
            "topics": topics,
            "partitions": partitions,
            "records_per_partition": records_per_partition,
            "compression": compression,
            "racks": ",".join(rack_names) if rack_names else None,
            "log_dirs": log_dirs,
            "release_version": release_version,
            "kafka_home": (
                str(resolved_directory(kafka_home, what="Kafka home", option="--kafka-home"))
                if kafka_home is not None
                else None
            ),
            "combined": combined,
            "server_config": _server_config(server_config),
        }
        if not daemon:  # the daemon gets the options its parent resolved
            options = _reopened(ctx, path, options)
        settings = _settings(path, options)
        if daemon:
            engine.up_foreground(settings, created=created, log_stream=env.stderr, on_ready=None)
        elif detach:
            _up_detached(engine, settings, created=created, profile=profile, output=output)
        else:
            _up_foreground(engine, settings, created=created, profile=profile, output=output)


def _up_detached(
    engine: Launcher, settings: SandboxSettings, *, created: bool, profile: str | None, output: OutputFormat
) -> None:
    """Start the sandbox, leave it running, show its status and how to reach it."""
    env, path = env_of(), settings.directory
    removed = f"{quoted(path)} removed" if created else f"{quoted(path)} kept as it was"
    with what_is_left(f"the sandbox was still starting: what it had started is stopped, {removed}"):
        running = engine.up_detached(settings, created=created, progress=env.err)
    for note in running.notes:  # the emulator's process logged them; the operator must see them
        env.err(f"Warning: {note}")
    emit_status(running.status, output)
    announce(path, running, profile, detached=True)


def _up_foreground(
    engine: Launcher, settings: SandboxSettings, *, created: bool, profile: str | None, output: OutputFormat
) -> None:
    """Run the sandbox here with its live view until Ctrl-C, SIGTERM or `sandbox down`."""
    env, path = env_of(), settings.directory
    view = ForegroundView(path, profile, output, live=engine.ticks)
    try:
        by = engine.up_foreground(
            settings,
            created=created,
            log_stream=env.stderr,
            on_ready=view.ready,
            on_tick=view.tick,
            progress=env.err,
        )
    finally:
        view.close()
    if view.running is not None:
        said = f" by {by}" if by else ""
        env.err(f"Sandbox {view.running.cluster_id} in {path} stopped{said}.")


def _reopened(ctx: typer.Context, path: Path, options: dict[str, Any]) -> dict[str, Any]:
    """The saved settings of an existing sandbox DIR, overridden by the flags given (said on stderr)."""
    from kcli.sandbox.settings import SAVED_SETTINGS, load_settings, reopen

    try:
        saved = load_settings(path)
    except (ValueError, OSError) as error:
        raise UsageError(
            f"cannot read {path / SAVED_SETTINGS}: {error}",
            hint="fix or remove it; without it the flags given decide",
        ) from None
    if saved is None:
        return options
    given = {"COMMANDLINE", "ENVIRONMENT"}  # names of the ParameterSource get_parameter_source gives
    explicit = {name for name in options if getattr(ctx.get_parameter_source(name), "name", None) in given}
    if options.get("kafka_home") and not saved.get("kafka_home"):
        raise UsageError(
            f"{path} holds an emulated sandbox: real Kafka nodes cannot open its metadata log",
            hint="give another --dir for a sandbox of real Kafka nodes",
        )
    merged, notes = reopen(saved, options, explicit)
    for note in notes:
        env_of().err(f"Reopening the sandbox in {path}: {note}")
    return merged


def _check_cluster_id(text: str) -> None:
    """A cluster id is a Kafka Uuid (22 characters of URL-safe base64), as kafka-storage.sh format requires."""
    from kcli.metadata.uuids import parse_kafka_uuid

    try:
        parse_kafka_uuid(text)
    except ValueError as error:
        raise UsageError(
            f"--cluster-id: Cluster ID string {text} does not appear to be a valid UUID: {error}",
            hint="use 22 characters of URL-safe base64, e.g. one from `kafka-storage.sh random-uuid`",
        ) from None


def _racks(text: str | None) -> tuple[str, ...]:
    """`a,b,c` -> ("a", "b", "c"); empty names are a usage error."""
    if text is None:
        return ()
    names = tuple(name.strip() for name in text.split(","))
    if not all(names):
        raise UsageError(f"--racks needs comma-separated rack names, not {text!r}")
    return names


def _server_config(pairs: list[str] | None) -> dict[str, str] | None:
    if not pairs:
        return None
    from kcli.workflows.profiles import parse_key_values

    return parse_key_values(pairs, option="--server-config", example="log.retention.ms=60000")


def _settings(path: Path, options: dict[str, Any]) -> Any:
    from kcli.sandbox.settings import SandboxSettings, Security

    home = options.get("kafka_home")
    return SandboxSettings(
        directory=path,
        **{
            **options,
            "security": Security(options["security"]),
            "racks": _racks(options.get("racks")),
            "kafka_home": Path(home) if home else None,
            "server_config": tuple((options.get("server_config") or {}).items()),
        },
    )


@app.command("status")
@guarded
def status(directory: DirOpt = None, output: OutputOpt = OutputFormat.text) -> None:
    """Show the nodes, ports and state of the sandbox in DIR."""
    from kcli.sandbox.opening import open_engine

    emit_status(open_engine(directory_of(directory)).status(), output)


@app.command("down")
@guarded
def down(directory: DirOpt = None) -> None:
    """Stop the sandbox in DIR (the emulator's process, or every real node); a stale sandbox.json is removed."""
    from kcli.sandbox.opening import open_engine

    env_of().out(open_engine(directory_of(directory)).down().line())


def _register_faults() -> None:
    from kcli.cli.sandbox_faults import COMMANDS

    for name, command in COMMANDS:
        app.command(name)(command)


_register_faults()
