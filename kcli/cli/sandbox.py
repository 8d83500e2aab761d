"""`kcli sandbox`: a local KRaft cluster on loopback to rehearse on, and faults to inject into it.

Two engines behind the same commands: the emulator (the default; not Kafka, no Java needed: controllers
and brokers in one Python process, speaking the Kafka protocol, with a real metadata log under --dir) and
real Apache Kafka nodes from a Kafka distribution (`up --kafka-home DIR`: one JVM per node, formatted by
Kafka's StorageTool). `up --detach` leaves the cluster running; the other commands find it in --dir.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer

from kcli.cli.common import OutputOpt, env_of, guarded, tool_group
from kcli.cli.sandbox_common import announce, emit_status, quoted
from kcli.errors import UsageError
from kcli.render import OutputFormat, emit

app = tool_group(
    "sandbox",
    "A KRaft cluster on loopback for rehearsing runbooks and tests: the emulator (not Kafka; real wire "
    "protocol, real metadata log, fault injection) or real Kafka nodes (--kafka-home).",
)

SECURITY_CHOICES = ("plaintext", "sasl_plaintext", "ssl", "sasl_ssl")
DirOpt = Annotated[
    Path | None,
    typer.Option("--dir", help="Sandbox directory (default: $KCLI_SANDBOX_DIR or ./.kcli-sandbox)."),
]
NodeArg = Annotated[int, typer.Argument(help="Node id (brokers 1..B, controllers 101..).")]


def register(root: typer.Typer) -> None:
    """Add this tool's commands to the root app."""
    root.add_typer(app)


def _directory(given: Path | None) -> Path:
    if given is not None:
        return given
    return Path(env_of().environ.get("KCLI_SANDBOX_DIR", ".kcli-sandbox"))


@app.command("up")
@guarded
def up(
    ctx: typer.Context,
    directory: DirOpt = None,
    controllers: Annotated[int, typer.Option("--controllers", min=1, max=9, help="Controller count.")] = 3,
    brokers: Annotated[int, typer.Option("--brokers", min=1, max=99, help="Broker count.")] = 3,
    base_port: Annotated[
        int,
        typer.Option(
            "--base-port",
            min=0,
            max=65000,
            help="First listener port (brokers, then controllers); 0 = free ports.",
        ),
    ] = 19092,
    cluster_id: Annotated[
        str | None, typer.Option("--cluster-id", help="Cluster id (default: random).")
    ] = None,
    security: Annotated[
        str, typer.Option("--security", help="Listener security: plaintext, sasl_plaintext, ssl or sasl_ssl.")
    ] = "plaintext",
    authorizer: Annotated[
        bool, typer.Option("--authorizer/--no-authorizer", help="Enforce ACLs (StandardAuthorizer).")
    ] = False,
    topics: Annotated[int, typer.Option("--topics", min=0, help="Create N topics at the first start.")] = 0,
    partitions: Annotated[
        int, typer.Option("--partitions", min=1, help="Partitions per --topics topic.")
    ] = 1,
    racks: Annotated[
        str | None,
        typer.Option("--racks", help="Broker racks, assigned round-robin (e.g. a,b,c); default: no racks."),
    ] = None,
    log_dirs: Annotated[
        int, typer.Option("--log-dirs", min=1, max=8, help="Simulated log directories per broker.")
    ] = 1,
    release_version: Annotated[
        str | None,
        typer.Option(
            "--release-version",
            help="metadata.version of a new sandbox, e.g. 3.9 or 4.0-IV3 (default: latest production).",
        ),
    ] = None,
    profile: Annotated[
        str | None,
        typer.Option(
            "--profile",
            help="Write (or update) kcli profile NAME for this sandbox and make it the default, "
            "so plain `kcli cluster-id` reaches it.",
        ),
    ] = None,
    kafka_home: Annotated[
        Path | None,
        typer.Option(
            "--kafka-home",
            help="Run real Apache Kafka nodes (one JVM each; Java 17) from this Kafka distribution: the "
            "tarball unpacked, or what scripts/kafka-dist.sh VERSION assembles. Default: the emulator.",
        ),
    ] = None,
    combined: Annotated[
        bool,
        typer.Option(
            "--combined",
            help="With --kafka-home: the controllers are brokers too (process.roles=broker,controller).",
        ),
    ] = False,
    server_config: Annotated[
        list[str] | None,
        typer.Option(
            "--server-config",
            help="With --kafka-home: a server.properties setting KEY=VALUE of every node (repeatable); "
            "a node's own go in DIR/<id>/overrides.properties.",
        ),
    ] = None,
    detach: Annotated[
        bool, typer.Option("--detach", help="Return once every listener accepts; keep running.")
    ] = False,
    daemon: Annotated[bool, typer.Option("--daemon", hidden=True)] = False,
    output: OutputOpt = OutputFormat.text,
) -> None:
    """Start a sandbox cluster: the emulator (not Kafka), or real Kafka nodes with --kafka-home; reopening
    a DIR starts the cluster it holds with the settings it was created with (a flag given again overrides
    them)."""
    if security.lower() not in SECURITY_CHOICES:
        raise UsageError(f"--security must be one of {', '.join(SECURITY_CHOICES)}, not {security!r}")
    rack_names = _racks(racks)
    path = _directory(directory).resolve()
    from kcli.sandbox.kafka.control import any_running, is_kafka_sandbox

    real = kafka_home is not None or is_kafka_sandbox(path)
    if not real:
        if combined:
            raise UsageError(
                "--combined needs --kafka-home: the emulator runs its controllers and brokers apart"
            )
        if server_config:
            raise UsageError("--server-config needs --kafka-home: the emulator has no server.properties")
        from kcli.sandbox.emulator.features import release_level

        try:
            release_level(release_version)  # real Kafka's StorageTool judges its own release versions
        except ValueError as error:
            raise UsageError(f"--release-version: {error}") from None
    if cluster_id is not None:
        _check_cluster_id(cluster_id)
    if profile is not None:
        from kcli.workflows.profiles import check_name

        check_name(profile)
    from kcli.sandbox.emulator.control import SandboxControlError, read_info, state_file

    if real and state_file(path).exists():
        if any_running(path):
            raise SandboxControlError(
                f"a sandbox of real Kafka nodes is already running in {path}",
                hint=f"stop it with: kcli sandbox down --dir {quoted(path)}",
            )
        state_file(path).unlink()  # stale: its nodes are gone
    elif state_file(path).exists():
        try:
            info = read_info(path)
        except SandboxControlError:
            state_file(path).unlink()  # stale: its process is gone
        else:
            raise SandboxControlError(
                f"a sandbox is already running in {path} (pid {info.pid})",
                hint=f"stop it with: kcli sandbox down --dir {quoted(path)}",
            )
    options: dict[str, Any] = {
        "controllers": controllers,
        "brokers": brokers,
        "base_port": base_port,
        "cluster_id": cluster_id,
        "security": security.lower(),
        "authorizer": authorizer,
        "topics": topics,
        "partitions": partitions,
        "racks": ",".join(rack_names) if rack_names else None,
        "log_dirs": log_dirs,
        "release_version": release_version,
        "kafka_home": str(kafka_home.resolve()) if kafka_home is not None else None,
        "combined": combined,
        "server_config": _server_config(server_config),
    }
    if not daemon:  # the daemon gets the options its parent resolved
        options = _reopened(ctx, path, options)
    created = not path.exists()
    if options.get("kafka_home"):
        _real_up(path, options, detach=detach, output=output, profile=profile, created=created)
        return
    from kcli.cli import sandbox_emulator

    if detach:
        info = sandbox_emulator.spawn(path, options, created=created)
        for note in info.notes:  # the daemon logged them to sandbox.log; the operator must see them
            env_of().err(f"Warning: {note}")
        emit_status(sandbox_emulator.status_of(info), output)
        announce(path, info, profile, detached=True)
        return
    sandbox_emulator.foreground(
        path, _settings(path, options), daemon=daemon, output=output, profile=profile, created=created
    )


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


def _real_up(
    path: Path,
    options: dict[str, Any],
    *,
    detach: bool,
    output: OutputFormat,
    profile: str | None,
    created: bool,
) -> None:
    """`up` with real Kafka nodes: start them, show the status, and in the foreground wait for Ctrl-C."""
    from types import SimpleNamespace

    from kcli.cli import sandbox_real

    cluster, status = sandbox_real.up(path, _settings(path, options), detach=detach, created=created)
    emit_status(status, output)
    state = cluster.state()
    info = SimpleNamespace(
        cluster_id=state["cluster_id"],
        pid=None,
        bootstrap_servers=state["bootstrap_servers"],
        security=state["security"],
        users=state["users"],
    )
    announce(path, info, profile, detached=detach)
    if not detach:
        by = sandbox_real.wait_in_foreground(cluster)
        env_of().err(f"Sandbox {cluster.cluster_id} in {path} stopped by {by}.")


@app.command("status")
@guarded
def status(directory: DirOpt = None, output: OutputOpt = OutputFormat.text) -> None:
    """Show the nodes, ports and state of the sandbox in DIR."""
    from kcli.sandbox.emulator.control import read_info
    from kcli.sandbox.kafka.control import is_kafka_sandbox

    path = _directory(directory)
    if is_kafka_sandbox(path):
        from kcli.cli import sandbox_real

        emit_status(sandbox_real.status(path), output)
        return
    from kcli.cli import sandbox_emulator

    emit_status(sandbox_emulator.status_of(read_info(path)), output)


@app.command("down")
@guarded
def down(directory: DirOpt = None) -> None:
    """Stop the sandbox in DIR (the emulator's process, or every real node); a stale sandbox.json is removed."""
    import signal
    import time

    from kcli.processes import is_running
    from kcli.processes import send as send_signal
    from kcli.sandbox.emulator.control import SandboxControlError, read_info, send, state_file
    from kcli.sandbox.kafka.control import is_kafka_sandbox

    path = _directory(directory)
    if is_kafka_sandbox(path):
        from kcli.cli import sandbox_real

        env_of().out(sandbox_real.down(path))
        return
    try:
        info = read_info(path, check_alive=False)
    except SandboxControlError as error:
        if state_file(path).exists():  # unreadable, or naming no single process (pid 0, -1)
            state_file(path).unlink(missing_ok=True)
            raise SandboxControlError(f"{error} (removed the file; no process was signalled)") from None
        raise
    process = info.process
    if not is_running(process):
        state_file(path).unlink(missing_ok=True)
        raise SandboxControlError(
            f"stale {state_file(path)}: sandbox process {info.pid} was not running "
            "(removed the file; no process was signalled)"
        )
    try:
        send(info, "down")  # the sandbox learns who stopped it (a foreground `up` says so)
    except SandboxControlError:
        send_signal(process, signal.SIGTERM)  # only while it is still the sandbox's process
    deadline = time.monotonic() + 20
    while is_running(process) and time.monotonic() < deadline:
        time.sleep(0.05)
    if is_running(process):
        raise SandboxControlError(f"sandbox process {info.pid} did not stop within 20 s")
    state_file(path).unlink(missing_ok=True)
    env_of().out(f"Sandbox {info.cluster_id} in {path} stopped (pid {info.pid}).")


def _fault(
    directory: Path | None,
    command: str,
    output: OutputFormat,
    message: str | Callable[[dict[str, Any]], str],
    **args: Any,
) -> None:
    from kcli.sandbox.emulator.control import read_info, send
    from kcli.sandbox.kafka.control import is_kafka_sandbox

    path = _directory(directory)
    if is_kafka_sandbox(path):
        from kcli.cli import sandbox_real

        result = sandbox_real.fault(path, command, **args)
    elif command == "kill-node":
        raise UsageError(
            "kill-node needs real Kafka nodes (up --kafka-home): the emulator's nodes share one process",
            hint=f"stop the node with: kcli sandbox stop-node {args['node_id']} --dir {quoted(path)}",
        )
    else:
        result = send(read_info(path), command, **args)
    line = message(result) if callable(message) else message.format(result=result)
    emit(env_of(), output, result, text=lambda _r: [line], json_value=lambda r: r)


@app.command("stop-node")
@guarded
def stop_node(node_id: NodeArg, directory: DirOpt = None, output: OutputOpt = OutputFormat.text) -> None:
    """Stop one node: its listener closes; a broker is fenced and loses leadership."""
    _fault(directory, "stop-node", output, f"Node {node_id} stopped.", node_id=node_id)


@app.command("kill-node")
@guarded
def kill_node(node_id: NodeArg, directory: DirOpt = None, output: OutputOpt = OutputFormat.text) -> None:
    """Kill one real Kafka node with SIGKILL (kill -9: no orderly shutdown); real nodes only."""
    _fault(directory, "kill-node", output, f"Node {node_id} killed.", node_id=node_id)


@app.command("start-node")
@guarded
def start_node(node_id: NodeArg, directory: DirOpt = None, output: OutputOpt = OutputFormat.text) -> None:
    """Start a stopped node again on its port."""
    _fault(directory, "start-node", output, f"Node {node_id} started.", node_id=node_id)


@app.command("add-node")
@guarded
def add_node(
    controller: Annotated[
        bool,
        typer.Option(
            "--controller",
            help="A controller that is not a voter yet (metadata-quorum add-controller makes it one); "
            "default: a broker.",
        ),
    ] = False,
    node_id: Annotated[
        int | None, typer.Option("--id", min=0, help="Its node id (default: the next free one).")
    ] = None,
    directory: DirOpt = None,
    output: OutputOpt = OutputFormat.text,
) -> None:
    """Start a new node: a broker that holds no replicas yet, or a controller that is not a voter yet."""
    _fault(directory, "add-node", output, _added_line, node_id=node_id, controller=controller)


def _added_line(result: dict[str, Any]) -> str:
    where = f"{result['host']}:{result['port']}"
    if result["role"] == "broker":
        return f"Broker {result['node_id']} started on {where} (no replicas yet)."
    controllers = result["status"]["bootstrap_controllers"]
    return (
        f"Controller {result['node_id']} started on {where}, not a voter yet; add it with: kcli metadata-quorum "
        f"--bootstrap-controller {controllers} add-controller --command-config {result['config']}"
    )


@app.command("replace-brokers")
@guarded
def replace_brokers(directory: DirOpt = None, output: OutputOpt = OutputFormat.text) -> None:
    """Replace every broker by one with a new id on another port (the KIP-899 rebootstrap case)."""
    _fault(directory, "replace-brokers", output, "Brokers replaced (old id -> new id): {result[replaced]}.")


@app.command("failover")
@guarded
def failover(directory: DirOpt = None, output: OutputOpt = OutputFormat.text) -> None:
    """Make another controller the active one (a new leader epoch)."""
    _fault(directory, "failover", output, "Controller {result[active_controller_id]} is now active.")


@app.command("misroute")
@guarded
def misroute(
    node_id: NodeArg,
    target: Annotated[
        int | None,
        typer.Option(
            "--as",
            help="Advertise this node's endpoint (default: a peer; the node's own id ends the misroute).",
        ),
    ] = None,
    directory: DirOpt = None,
    output: OutputOpt = OutputFormat.text,
) -> None:
    """Make a node advertise another node's endpoint (the KIP-1242 misrouting case), until it restarts."""
    _fault(
        directory,
        "misroute",
        output,
        lambda result: _misroute_line(node_id, result["advertises"]),
        node_id=node_id,
        target=target,
    )


def _misroute_line(node_id: int, advertises: int) -> str:
    if advertises == node_id:
        return f"Node {node_id} advertises its own endpoint again (no longer misrouted)."
    return f"Node {node_id} now advertises the endpoint of node {advertises}."


@app.command("delay")
@guarded
def delay(
    node_id: NodeArg,
    ms: Annotated[int, typer.Argument(min=0, help="Delay in milliseconds (0 removes it).")],
    directory: DirOpt = None,
    output: OutputOpt = OutputFormat.text,
) -> None:
    """Delay every response of one node by MS milliseconds."""
    _fault(
        directory, "delay", output, f"Node {node_id} responses delayed by {ms} ms.", node_id=node_id, ms=ms
    )
