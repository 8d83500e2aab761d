"""`kcli reassign-partitions`: kafka-reassign-partitions.sh, with a minimal-movement planner,
a rollback file written before anything changes, and live progress (--execute --wait)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from kcli.cli.argv import JOPT_CONTEXT, refuse_stray
from kcli.cli.common import OutputOpt, env_of, exit_with, guarded, run_admin
from kcli.cli.connection_options import (
    BootstrapControllerOpt,
    BootstrapServerOpt,
    CommandConfigOpt,
    ConnectionArgs,
    ProfileOpt,
    client_config,
    connection_args,
)
from kcli.cli.version import VersionOpt
from kcli.errors import ExitCode, UsageError
from kcli.render import OutputFormat

if TYPE_CHECKING:
    from kcli.client.admin import Admin
    from kcli.client.config import ClientConfig
    from kcli.env import Env

ACTIONS = ("generate", "execute", "verify", "cancel", "list")
# Options each action accepts besides the connection ones (the original's rules, plus kcli's own).
ALLOWED: dict[str, set[str]] = {
    "generate": {
        "topics-to-move-json-file",
        "broker-list",
        "disable-rack-aware",
        "strategy",
        "seed",
        "replication-factor",
        "log-dir",
    },
    "execute": {
        "reassignment-json-file",
        "additional",
        "throttle",
        "replica-alter-log-dirs-throttle",
        "timeout",
        "disallow-replication-factor-change",
        "allow-replication-factor-change",
        "wait",
        "rollback-file",
        "preserve-throttles",
        "no-elect",
    },
    "verify": {"reassignment-json-file", "preserve-throttles"},
    "cancel": {"reassignment-json-file", "preserve-throttles", "timeout"},
    "list": set(),
}
REQUIRED = {
    "generate": ("topics-to-move-json-file", "broker-list"),
    "execute": ("reassignment-json-file",),
    "verify": ("reassignment-json-file",),
    "cancel": ("reassignment-json-file",),
    "list": (),
}
CLIENT_ID = "reassign-partitions-tool"
DEFAULT_TIMEOUT_MS = 10000
DEFAULT_WAIT_MS = 300000
Panel = "Reassignment"


def _read(path: Path, what: str) -> str:
    from kcli.files import DOCUMENT_LIMIT, read_text

    try:
        return read_text(path, what=what, limit=DOCUMENT_LIMIT)
    except OSError as error:
        raise UsageError(f"cannot read the {what} {path}: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise UsageError(f"the {what} {path} is not UTF-8 text") from None


def _config(args: ConnectionArgs, env: Env) -> ClientConfig:
    import dataclasses

    config = client_config(args, env, missing_bootstrap=MISSING_BOOTSTRAP, both_bootstraps=BOTH_BOOTSTRAPS)
    if "client.id" not in config.properties:
        config = dataclasses.replace(config, client_id=CLIENT_ID)
    return config


ALWAYS_ALLOWED = {"bootstrap-server", "command-config", "profile", "output"}
MISSING_BOOTSTRAP = "Please specify either --bootstrap-server or --bootstrap-controller"
BOTH_BOOTSTRAPS = "Please don't specify both --bootstrap-server and --bootstrap-controller"


def choose_action(flags: dict[str, bool]) -> str:
    """Exactly one action (the original's first check)."""
    chosen = [a for a in ACTIONS if flags[a]]
    if len(chosen) != 1:
        raise UsageError(
            "Command must include exactly one action: --generate, --execute, --verify, --cancel, --list"
        )
    return chosen[0]


def check_options(action: str, given: dict[str, bool], order: list[str]) -> None:
    """The original's checks after the connection one: required options, then options the action
    does not take, reported for the first such option on the command line (`order`)."""
    for option in REQUIRED[action]:
        if not given.get(option):
            raise UsageError(f'Missing required argument "[{option}]"')
    allowed = ALLOWED[action] | ALWAYS_ALLOWED
    if action in ("list", "cancel"):
        allowed = allowed | {"bootstrap-controller"}
    present = [name[2:] for name in order if name.startswith("--")] or [o for o, on in given.items() if on]
    for option in present:
        if option != action and option not in allowed:
            raise UsageError(f'Option "[{option}]" can\'t be used with action "[{action}]"')


def register(app: typer.Typer) -> None:
    """Add this tool's commands to the root app."""

    @app.command("reassign-partitions", no_args_is_help=True, context_settings=JOPT_CONTEXT)
    @guarded
    def reassign_partitions(
        ctx: typer.Context,
        generate: Annotated[
            bool,
            typer.Option(
                "--generate",
                help="Propose a reassignment of the topics in --topics-to-move-json-file onto --broker-list.",
                rich_help_panel="Actions",
            ),
        ] = False,
        execute: Annotated[
            bool,
            typer.Option(
                "--execute",
                help="Start the reassignment in --reassignment-json-file (writes a rollback file first).",
                rich_help_panel="Actions",
            ),
        ] = False,
        verify: Annotated[
            bool,
            typer.Option(
                "--verify",
                help="Report each partition of --reassignment-json-file; remove throttles when all is done.",
                rich_help_panel="Actions",
            ),
        ] = False,
        cancel: Annotated[
            bool,
            typer.Option(
                "--cancel",
                help="Cancel the running reassignments of --reassignment-json-file.",
                rich_help_panel="Actions",
            ),
        ] = False,
        list_: Annotated[
            bool, typer.Option("--list", help="List the running reassignments.", rich_help_panel="Actions")
        ] = False,
        reassignment_json_file: Annotated[
            Path | None,
            typer.Option(
                "--reassignment-json-file", help="Reassignment in Kafka's JSON format.", rich_help_panel=Panel
            ),
        ] = None,
        topics_to_move_json_file: Annotated[
            Path | None,
            typer.Option(
                "--topics-to-move-json-file",
                help='Topics to move: {"version":1,"topics":[{"topic":"foo"}]}.',
                rich_help_panel=Panel,
            ),
        ] = None,
        broker_list: Annotated[
            str | None,
            typer.Option(
                "--broker-list", help='Brokers to place replicas on: "0,1,2".', rich_help_panel=Panel
            ),
        ] = None,
        disable_rack_aware: Annotated[
            bool,
            typer.Option("--disable-rack-aware", help="Ignore racks when generating.", rich_help_panel=Panel),
        ] = False,
        strategy: Annotated[
            str,
            typer.Option(
                "--strategy",
                help="Planner for --generate: original (Kafka's) or minimal-movement.",
                rich_help_panel=Panel,
            ),
        ] = "original",
        seed: Annotated[
            int | None,
            typer.Option(
                "--seed",
                help="Seed of the original planner's random start (repeatable plans).",
                rich_help_panel=Panel,
            ),
        ] = None,
        replication_factor: Annotated[
            int | None,
            typer.Option(
                "--replication-factor",
                min=1,
                help="With --generate --strategy minimal-movement: give every partition this many replicas "
                "(the current ones stay; --execute then needs --allow-replication-factor-change).",
                rich_help_panel=Panel,
            ),
        ] = None,
        log_dir: Annotated[
            list[str] | None,
            typer.Option(
                "--log-dir",
                help="With --generate: BROKER:DIR moves that broker's replicas of the topics to its log dir "
                "DIR (repeatable); the plan keeps every replica on its broker.",
                rich_help_panel=Panel,
            ),
        ] = None,
        throttle: Annotated[
            int,
            typer.Option(
                "--throttle",
                help="Inter-broker replication throttle in B/s (-1: none).",
                rich_help_panel=Panel,
            ),
        ] = -1,
        replica_alter_log_dirs_throttle: Annotated[
            int,
            typer.Option(
                "--replica-alter-log-dirs-throttle",
                help="Throttle of moves between log dirs of one broker, B/s (-1: none).",
                rich_help_panel=Panel,
            ),
        ] = -1,
        timeout: Annotated[
            int | None,
            typer.Option(
                "--timeout",
                help="Milliseconds to wait for log-dir moves to start (default 10000); with --wait, for the whole reassignment (default 300000).",
                rich_help_panel=Panel,
            ),
        ] = None,
        additional: Annotated[
            bool,
            typer.Option(
                "--additional",
                help="Execute even though other reassignments are running.",
                rich_help_panel=Panel,
            ),
        ] = False,
        preserve_throttles: Annotated[
            bool,
            typer.Option(
                "--preserve-throttles",
                help="Leave the throttles in place (--verify, --cancel, --execute --wait).",
                rich_help_panel=Panel,
            ),
        ] = False,
        disallow_replication_factor_change: Annotated[
            bool,
            typer.Option(
                "--disallow-replication-factor-change",
                help="Refuse replication factor changes (kcli's default; also tells the server, KIP-860).",
                rich_help_panel=Panel,
            ),
        ] = False,
        allow_replication_factor_change: Annotated[
            bool,
            typer.Option(
                "--allow-replication-factor-change",
                help="Allow the file to change replication factors.",
                rich_help_panel=Panel,
            ),
        ] = False,
        wait: Annotated[
            bool,
            typer.Option(
                "--wait",
                help="After --execute, show progress per partition until done or --timeout, then remove "
                "the throttles as --verify does.",
                rich_help_panel=Panel,
            ),
        ] = False,
        no_elect: Annotated[
            bool,
            typer.Option(
                "--no-elect",
                help="With --execute --wait: skip the preferred leader election that ends it.",
                rich_help_panel=Panel,
            ),
        ] = False,
        rollback_file: Annotated[
            Path | None,
            typer.Option(
                "--rollback-file",
                help="Where --execute saves the current assignment (default $XDG_STATE_HOME/kcli/rollback/reassignment-rollback-<time>.json).",
                rich_help_panel=Panel,
            ),
        ] = None,
        bootstrap_server: BootstrapServerOpt = None,
        bootstrap_controller: BootstrapControllerOpt = None,
        command_config: CommandConfigOpt = None,
        profile: ProfileOpt = None,
        version: VersionOpt = False,
        output: OutputOpt = OutputFormat.text,
    ) -> None:
        """Move partition replicas between brokers (like kafka-reassign-partitions.sh)."""
        from kcli.cli.argv import parsed_line
        from kcli.kafka import EndpointType

        connection = connection_args(bootstrap_server, bootstrap_controller, command_config, profile)
        env = env_of(ctx)
        line = parsed_line(ctx)
        action = choose_action(
            {"generate": generate, "execute": execute, "verify": verify, "cancel": cancel, "list": list_}
        )
        config = _config(connection, env)
        check_options(
            action,
            {
                "reassignment-json-file": reassignment_json_file is not None,
                "topics-to-move-json-file": topics_to_move_json_file is not None,
                "broker-list": broker_list is not None,
                "disable-rack-aware": disable_rack_aware,
                "strategy": strategy != "original",
                "seed": seed is not None,
                "replication-factor": replication_factor is not None,
                "log-dir": bool(log_dir),
                "throttle": throttle != -1,
                "replica-alter-log-dirs-throttle": replica_alter_log_dirs_throttle != -1,
                "timeout": timeout is not None,
                "additional": additional,
                "preserve-throttles": preserve_throttles,
                "disallow-replication-factor-change": disallow_replication_factor_change,
                "allow-replication-factor-change": allow_replication_factor_change,
                "wait": wait,
                "rollback-file": rollback_file is not None,
                "no-elect": no_elect,
                "bootstrap-controller": connection.bootstrap_controller is not None,
            },
            line.order,
        )
        refuse_stray(ctx.args)
        if config.endpoint_type is EndpointType.CONTROLLERS and action not in ("list", "cancel"):
            raise UsageError(
                f"--{action} needs broker metadata (topics, log dirs): use --bootstrap-server; "
                "--bootstrap-controller works only with --list and --cancel"
            )
        if allow_replication_factor_change and disallow_replication_factor_change:
            raise UsageError(
                "--allow-replication-factor-change and --disallow-replication-factor-change contradict each other"
            )
        if throttle < -1 or replica_alter_log_dirs_throttle < -1:
            raise UsageError("throttles are rates in B/s (or -1 for none)")
        if timeout is not None and timeout < 0:
            raise UsageError("--timeout must be a number of milliseconds >= 0")
        if action == "execute" and preserve_throttles and not wait:
            raise UsageError(
                "--preserve-throttles with --execute needs --wait: without --wait nothing removes the "
                "throttles until --verify (which takes --preserve-throttles itself)"
            )
        if action == "generate":
            assert topics_to_move_json_file is not None and broker_list is not None
            _generate(
                env,
                output,
                config,
                topics_to_move_json_file,
                broker_list,
                strategy,
                disable_rack_aware,
                seed,
                replication_factor,
                log_dir or [],
            )
        elif action == "list":
            _list(env, output, config)
        else:
            from kcli.ops.reassign.json_format import parse_reassignment

            assert reassignment_json_file is not None
            file = parse_reassignment(
                _read(reassignment_json_file, "reassignment JSON file"), str(reassignment_json_file)
            )
            if action == "execute":
                _execute(
                    env,
                    output,
                    config,
                    file,
                    additional=additional,
                    throttle=throttle,
                    log_dir_throttle=replica_alter_log_dirs_throttle,
                    timeout_ms=timeout,
                    allow_rf_change=allow_replication_factor_change,
                    wait=wait,
                    preserve_throttles=preserve_throttles,
                    rollback_file=rollback_file,
                    elect=wait and not no_elect,
                    source=str(reassignment_json_file),
                )
            elif action == "verify":
                _verify(env, output, config, file, preserve_throttles)
            else:
                _cancel(env, output, config, file, preserve_throttles)


def _generate(
    env: Env,
    output: OutputFormat,
    config: ClientConfig,
    topics_file: Path,
    broker_list: str,
    strategy: str,
    disable_rack_aware: bool,
    seed: int | None,
    replication_factor: int | None,
    log_dir: list[str],
) -> None:
    from kcli.ops.reassign.generate import Strategy
    from kcli.ops.reassign.json_format import parse_broker_list, parse_topics_to_move
    from kcli.render import emit
    from kcli.render import reassign as view
    from kcli.workflows.reassign.generate import do_generate

    try:
        chosen = Strategy(strategy)
    except ValueError:
        raise UsageError(f"--strategy must be one of: {', '.join(s.value for s in Strategy)}") from None
    if log_dir and (chosen is not Strategy.ORIGINAL or replication_factor is not None):
        raise UsageError(
            "--log-dir plans a move between the log dirs of brokers only: it takes no --strategy or "
            "--replication-factor (plan those apart)"
        )
    if replication_factor is not None and chosen is not Strategy.MINIMAL_MOVEMENT:
        raise UsageError(
            "--replication-factor needs --strategy minimal-movement (the original planner keeps each "
            "partition's replication factor)"
        )
    topics = parse_topics_to_move(_read(topics_file, "topics-to-move JSON file"), str(topics_file))
    brokers = parse_broker_list(broker_list)
    placements = _log_dir_placements(log_dir, brokers)

    plan = run_admin(
        config,
        lambda admin: do_generate(
            admin,
            topics=topics,
            broker_list=brokers,
            strategy=chosen,
            disable_rack_aware=disable_rack_aware,
            seed=seed,
            replication_factor=replication_factor,
            log_dirs=placements,
        ),
    )
    emit(env, output, plan, text=view.generate_text, json_value=view.generate_json, table=view.generate_table)
    if output is OutputFormat.text and chosen is Strategy.ORIGINAL:
        env.err(view.stats_line(plan))


def _log_dir_placements(given: list[str], brokers: list[int]) -> dict[int, str]:
    """--log-dir BROKER:DIR values: broker -> absolute log dir (a broker of --broker-list, once)."""
    placements: dict[int, str] = {}
    for text in given:
        broker, sep, path = text.partition(":")
        if not sep or not broker.strip().isdigit() or not path.startswith("/"):
            raise UsageError(
                f"--log-dir takes BROKER:DIR with an absolute DIR (e.g. 1:/data/disk2), not {text!r}"
            )
        node = int(broker)
        if node not in brokers:
            raise UsageError(f"--log-dir {text}: broker {node} is not in --broker-list")
        if node in placements:
            raise UsageError(f"--log-dir names broker {node} twice")
        placements[node] = path
    return placements


def _list(env: Env, output: OutputFormat, config: ClientConfig) -> None:
    from kcli.render import emit
    from kcli.render import reassign as view
    from kcli.workflows.reassign.verify import do_list

    ongoing = run_admin(config, do_list)
    emit(env, output, ongoing, text=view.list_text, json_value=view.list_json, table=view.list_table)


def _execute(
    env: Env,
    output: OutputFormat,
    config: ClientConfig,
    file: Any,
    *,
    additional: bool,
    throttle: int,
    log_dir_throttle: int,
    timeout_ms: int | None,
    allow_rf_change: bool,
    wait: bool,
    preserve_throttles: bool,
    rollback_file: Path | None,
    source: str,
    elect: bool = False,
) -> None:
    from kcli.cli.common import what_is_left
    from kcli.ops.reassign.validate import check_file_shape
    from kcli.render import leader_election as election
    from kcli.render import reassign as view
    from kcli.render import write_json
    from kcli.workflows.reassign import execute as executing
    from kcli.workflows.reassign.progress import watch
    from kcli.workflows.reassign.verify import ThrottleCleanup, remove_throttles_when_done

    check_file_shape(file)
    path = (rollback_file or executing.default_rollback_path(env.environ)).absolute()
    text = output is not OutputFormat.json

    def checkpoint(prepared: executing.ExecutePrepared) -> str:
        executing.write_rollback(path, prepared.rollback_json)
        if text:
            for line in view.execute_current_text(prepared, str(path)):
                env.out(line)
            env.stdout.flush()
        else:
            env.err(f"Rollback file written to {path}")
        return str(path)

    async def go(admin: Admin) -> tuple[Any, Any, Any, Any]:
        result = await executing.do_execute(
            admin,
            file,
            additional=additional,
            interbroker_throttle=throttle,
            log_dir_throttle=log_dir_throttle,
            timeout_ms=DEFAULT_TIMEOUT_MS if timeout_ms is None else timeout_ms,
            allow_replication_factor_change=allow_rf_change,
            checkpoint=checkpoint,
        )
        if text:
            for line in view.execute_result_text(result):
                env.out(line)
            env.stdout.flush()
        waited = None
        cleanup = None
        if not (wait and result.started and not result.errors):
            return result, waited, cleanup, None
        targets = {tp: file.targets[tp] for tp in result.started}
        throttled = not result.prepared.throttle.empty
        # Ctrl-C, SIGTERM or SIGHUP from here on: the move goes on in the cluster; say what is left
        with what_is_left(view.interrupted_wait_note(len(targets), throttled, source, str(path))):
            progress_view = view.ProgressView(env, sorted(targets), throttle=throttle)
            try:
                waited = await watch(
                    admin,
                    targets,
                    timeout_ms=DEFAULT_WAIT_MS if timeout_ms is None else timeout_ms,
                    on_progress=progress_view.update,
                    log_dir_moves_of=file if result.log_dir_started else None,
                )
            finally:
                progress_view.close()
            if not waited.timed_out and throttled:
                # the reassignment is done: finish the job --verify would (Kafka's tool leaves it to --verify)
                if preserve_throttles:
                    cleanup = ThrottleCleanup(kept_because="--preserve-throttles")
                else:
                    cleanup = await remove_throttles_when_done(admin, file)
        from kcli.workflows.leader_election import elect_after_move

        return result, waited, cleanup, await elect_after_move(admin, waited) if elect else None

    result, waited, cleanup, elected = run_admin(config, go)
    if not text:
        write_json(env, {**view.execute_json(result, waited, cleanup), **election.after_move_json(elected)})
    elif waited is not None:
        for line in [*view.wait_text(waited, cleanup), *(elected.lines() if elected else ())]:
            env.out(line)
    if text and cleanup is not None and cleanup.errors:
        env.err(view.cleanup_error_line(cleanup))
    failed = bool(result.errors or result.log_dir_errors or result.log_dir_timed_out)
    if waited is not None and waited.timed_out:
        failed = True
    if cleanup is not None and cleanup.errors:
        failed = True
    if elected is not None and elected.failed:
        env.err(election.after_move_error(elected))
        failed = True
    exit_with(ExitCode.ERROR if failed else ExitCode.OK)


def _verify(env: Env, output: OutputFormat, config: ClientConfig, file: Any, preserve: bool) -> None:
    from kcli.render import emit
    from kcli.render import reassign as view
    from kcli.workflows.reassign.verify import do_verify

    report = run_admin(config, lambda admin: do_verify(admin, file, preserve_throttles=preserve))
    emit(env, output, report, text=view.verify_text, json_value=view.verify_json, table=view.verify_table)
    exit_with(ExitCode.ERROR if report.clear_errors else ExitCode.OK)


def _cancel(env: Env, output: OutputFormat, config: ClientConfig, file: Any, preserve: bool) -> None:
    from kcli.render import emit
    from kcli.render import reassign as view
    from kcli.workflows.reassign.verify import do_cancel

    report = run_admin(config, lambda admin: do_cancel(admin, file, preserve_throttles=preserve))
    emit(env, output, report, text=view.cancel_text, json_value=view.cancel_json)
    exit_with(ExitCode.ERROR if report.errors or report.clear_errors else ExitCode.OK)
