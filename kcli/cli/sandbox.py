"""`kcli sandbox`: run an emulated KRaft cluster on loopback and inject faults into it.

The sandbox is an emulator (not Kafka): controllers and brokers speak the Kafka protocol and keep
their state in a real metadata log under --dir. `up --detach` leaves it running in the background;
the other commands find it through DIR/sandbox.json.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer

from kcli.cli.common import OutputOpt, env_of, guarded, tool_group
from kcli.errors import UsageError
from kcli.render import OutputFormat, emit

app = tool_group(
    "sandbox",
    "An emulated KRaft cluster on loopback (an emulator, not Kafka) for rehearsing runbooks and tests: "
    "real wire protocol, real metadata log, fault injection.",
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


def _emit_status(status: dict[str, Any], output: OutputFormat) -> None:
    from kcli.sandbox.status import status_lines, status_panel

    emit(
        env_of(),
        output,
        status,
        text=lambda s: list(status_lines(s)),
        json_value=lambda s: s,
        table=status_panel,
    )


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
    detach: Annotated[
        bool, typer.Option("--detach", help="Return once every listener accepts; keep running.")
    ] = False,
    daemon: Annotated[bool, typer.Option("--daemon", hidden=True)] = False,
    output: OutputOpt = OutputFormat.text,
) -> None:
    """Start an emulated KRaft cluster (an emulator, not Kafka); reopening a DIR replays its metadata
    log with the settings the sandbox was created with (a flag given again overrides them)."""
    if security.lower() not in SECURITY_CHOICES:
        raise UsageError(f"--security must be one of {', '.join(SECURITY_CHOICES)}, not {security!r}")
    rack_names = _racks(racks)
    from kcli.sandbox.features import release_level

    try:
        release_level(release_version)
    except ValueError as error:
        raise UsageError(f"--release-version: {error}") from None
    if cluster_id is not None:
        _check_cluster_id(cluster_id)
    if profile is not None:
        from kcli.workflows.profiles import check_name

        check_name(profile)
    path = _directory(directory).resolve()
    from kcli.sandbox.control import SandboxControlError, read_info, state_file

    if state_file(path).exists():
        try:
            info = read_info(path)
        except SandboxControlError:
            state_file(path).unlink()  # stale: its process is gone
        else:
            raise SandboxControlError(
                f"a sandbox is already running in {path} (pid {info.pid})",
                hint=f"stop it with: kcli sandbox down --dir {_quoted(path)}",
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
    }
    if not daemon:  # the daemon gets the options its parent resolved
        options = _reopened(ctx, path, options)
    created = not path.exists()
    if detach:
        info = _spawn(path, options, created=created)
        _emit_status({**_status_of(info)}, output)
        _announce(path, info, profile, detached=True)
        return
    _foreground(path, options, daemon=daemon, output=output, profile=profile, created=created)


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
    merged, notes = reopen(saved, options, explicit)
    for note in notes:
        env_of().err(f"Reopening the sandbox in {path}: {note}")
    return merged


def _quoted(path: Path) -> str:
    import shlex

    return shlex.quote(str(path))


def _announce(path: Path, info: Any, profile: str | None, *, detached: bool) -> None:
    """Tell the operator (on stderr) how to stop the sandbox and how plain kcli commands reach it."""
    env = env_of()
    if detached:
        env.err(f"Stop it with: kcli sandbox down --dir {_quoted(path)}")
    else:
        env.err(
            f"Sandbox {info.cluster_id} is running in {path} (pid {info.pid}). "
            f"Stop it with Ctrl-C or: kcli sandbox down --dir {_quoted(path)}"
        )
    settings = _client_settings(path, info)
    env.err(f"export KCLI_BOOTSTRAP_SERVER={info.bootstrap_servers}")
    if settings:
        from kcli.sandbox.clientconfig import write_properties

        properties = write_properties(path / "client-admin.properties", settings)
        env.err(f"export KCLI_COMMAND_CONFIG={_quoted(properties)}")
    if profile is not None:
        from kcli.workflows.profiles import add_profile, use_profile

        add_profile(
            env.config_file, profile, {"bootstrap.servers": info.bootstrap_servers, **settings}, replace=True
        )
        use_profile(env.config_file, profile)
        env.err(
            f"Profile {profile!r} in {env.config_file} now reaches this sandbox and is the default: "
            "plain `kcli cluster-id` works."
        )


def _client_settings(path: Path, info: Any) -> dict[str, str]:
    from kcli.sandbox.clientconfig import client_settings
    from kcli.sandbox.settings import Security

    settings = client_settings(path, Security(info.security), info.users)
    if settings == {"security.protocol": "PLAINTEXT"}:
        return {}
    return settings


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


def _settings(path: Path, options: dict[str, Any]) -> Any:
    from kcli.sandbox.settings import SandboxSettings, Security

    return SandboxSettings(
        directory=path,
        **{**options, "security": Security(options["security"]), "racks": _racks(options.get("racks"))},
    )


def _spawn(path: Path, options: dict[str, Any], *, created: bool) -> Any:
    import subprocess
    import sys

    from kcli.sandbox.control import SandboxControlError, wait_for_info

    path.mkdir(parents=True, exist_ok=True)
    argv = [sys.executable, "-m", "kcli", "sandbox", "up", "--dir", str(path), "--daemon"]
    for key, value in options.items():
        flag = "--" + key.replace("_", "-")
        if isinstance(value, bool):
            argv.append(flag if value else "--no-" + key.replace("_", "-"))
        elif value is not None:
            argv += [flag, str(value)]
    with open(path / "sandbox.log", "ab") as log:
        process = subprocess.Popen(
            argv, stdin=subprocess.DEVNULL, stdout=log, stderr=log, start_new_session=True, close_fds=True
        )
    try:
        return wait_for_info(path, process.pid, timeout=60.0, alive=lambda: process.poll() is None)
    except SandboxControlError:
        if created and process.poll() is not None:
            _remove_new(path)  # the failed start leaves nothing behind
        raise


def _remove_new(path: Path) -> None:
    import shutil

    shutil.rmtree(path, ignore_errors=True)


def _status_of(info: Any) -> dict[str, Any]:
    from kcli.sandbox.control import send

    status: dict[str, Any] = send(info, "status")
    return {**status, "pid": info.pid, "directory": str(info.directory)}


def _foreground(
    path: Path,
    options: dict[str, Any],
    *,
    daemon: bool,
    output: OutputFormat,
    profile: str | None = None,
    created: bool = False,
) -> None:
    import asyncio
    import logging
    import signal

    from kcli.render import console
    from kcli.sandbox.control import run_cluster

    env = env_of()
    settings = _settings(path, options)
    path.mkdir(parents=True, exist_ok=True)
    logging.basicConfig(
        level=logging.INFO,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        stream=env.stderr,
    )
    started: list[Any] = []  # the cluster, once it is ready

    async def main() -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for signum, name in ((signal.SIGTERM, "SIGTERM"), (signal.SIGINT, "Ctrl-C")):
            loop.add_signal_handler(signum, _stopper(stop, started, name))

        async def ready(cluster: Any, info: Any) -> None:
            started.append(cluster)
            if daemon:
                logging.getLogger("kcli.sandbox").info(
                    "sandbox %s ready (pid %d)", cluster.cluster_id, info.pid
                )
                return
            _announce(path, info, profile, detached=False)
            # The live panel redraws in place, which needs a terminal console: with NO_COLOR (a plain
            # console) rich would hold every frame back until exit, so print the status lines instead.
            if output is not OutputFormat.json and console(env).is_terminal:
                asyncio.get_running_loop().create_task(_live_panel(cluster, stop))
            else:
                _emit_status({**cluster.status(), "pid": info.pid, "directory": str(path)}, output)

        await run_cluster(settings, stop=stop, on_ready=ready)

    try:
        asyncio.run(main())
    except BaseException:
        if created and not started:
            _remove_new(path)  # a start that failed (a port in use, ...) leaves no new directory behind
        raise
    if started and not daemon:
        cluster = started[0]
        by = f" by {cluster.stopped_by}" if cluster.stopped_by else ""
        env.err(f"Sandbox {cluster.cluster_id} in {path} stopped{by}.")


def _stopper(stop: Any, started: list[Any], name: str) -> Any:
    def handler() -> None:
        if started and started[0].stopped_by is None:
            started[0].stopped_by = name
        stop.set()

    return handler


async def _live_panel(cluster: Any, stop: Any) -> None:
    import asyncio

    from rich.live import Live

    from kcli.render import console
    from kcli.sandbox.status import status_panel

    with Live(status_panel(cluster.status()), console=console(env_of()), refresh_per_second=2) as live:
        while not stop.is_set():
            await asyncio.sleep(0.5)
            live.update(status_panel(cluster.status()))


@app.command("status")
@guarded
def status(directory: DirOpt = None, output: OutputOpt = OutputFormat.text) -> None:
    """Show the nodes, ports and state of the sandbox in DIR."""
    from kcli.sandbox.control import read_info

    _emit_status(_status_of(read_info(_directory(directory))), output)


@app.command("down")
@guarded
def down(directory: DirOpt = None) -> None:
    """Stop the sandbox process started in DIR (by its pid); a stale sandbox.json is removed."""
    import os
    import signal
    import time

    from kcli.sandbox.control import SandboxControlError, process_alive, read_info, send, state_file

    path = _directory(directory)
    info = read_info(path, check_alive=False)
    if not process_alive(info.pid):
        state_file(path).unlink(missing_ok=True)
        raise SandboxControlError(
            f"stale {state_file(path)}: sandbox process {info.pid} was not running (removed the file)"
        )
    try:
        send(info, "down")  # the sandbox learns who stopped it (a foreground `up` says so)
    except SandboxControlError:
        os.kill(info.pid, signal.SIGTERM)
    deadline = time.monotonic() + 20
    while process_alive(info.pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    if process_alive(info.pid):
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
    from kcli.sandbox.control import read_info, send

    result = send(read_info(_directory(directory)), command, **args)
    line = message(result) if callable(message) else message.format(result=result)
    emit(env_of(), output, result, text=lambda _r: [line], json_value=lambda r: r)


@app.command("stop-node")
@guarded
def stop_node(node_id: NodeArg, directory: DirOpt = None, output: OutputOpt = OutputFormat.text) -> None:
    """Stop one node: its listener closes; a broker is fenced and loses leadership."""
    _fault(directory, "stop-node", output, f"Node {node_id} stopped.", node_id=node_id)


@app.command("start-node")
@guarded
def start_node(node_id: NodeArg, directory: DirOpt = None, output: OutputOpt = OutputFormat.text) -> None:
    """Start a stopped node again on its port."""
    _fault(directory, "start-node", output, f"Node {node_id} started.", node_id=node_id)


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
    """Make a node advertise another node's endpoint (the KIP-1242 misrouting case)."""
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
