"""`kcli reassign-partitions`: kafka-reassign-partitions.sh, with a minimal-movement planner,
a rollback file written before anything changes, and live progress (--execute --wait)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from kcli.cli import connection_options
from kcli.cli.argv import JOPT_CONTEXT
from kcli.cli.common import OutputOpt, env_of, exit_with, guarded, run_admin
from kcli.cli.version import VersionOpt
from kcli.errors import ExitCode, UsageError
from kcli.render import OutputFormat

if TYPE_CHECKING:
    from kcli.client.admin import Admin
    from kcli.client.config import ClientConfig
    from kcli.env import Env
    from kcli.ops.reassign.request import GenerateInput

CLIENT_ID = "reassign-partitions-tool"
DEFAULT_TIMEOUT_MS = 10000
DEFAULT_WAIT_MS = 300000
Panel = "Reassignment"
MISSING_BOOTSTRAP = "Please specify either --bootstrap-server or --bootstrap-controller"
BOTH_BOOTSTRAPS = "Please don't specify both --bootstrap-server and --bootstrap-controller"


def _read(path: Path, what: str) -> str:
    from kcli.files import DOCUMENT_LIMIT, read_text

    try:
        return read_text(path, what=what, limit=DOCUMENT_LIMIT)
    except OSError as error:
        raise UsageError(f"cannot read the {what} {path}: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise UsageError(f"the {what} {path} is not UTF-8 text") from None


def _config(args: connection_options.ConnectionArgs, env: Env) -> ClientConfig:
    import dataclasses

    config = connection_options.client_config(
        args, env, missing_bootstrap=MISSING_BOOTSTRAP, both_bootstraps=BOTH_BOOTSTRAPS
    )
    if "client.id" not in config.properties:
        config = dataclasses.replace(config, client_id=CLIENT_ID)
    return config


GenerateOpt = Annotated[
    bool,
    typer.Option(
        "--generate",
        help="Propose a reassignment of the topics in --topics-to-move-json-file onto --broker-list.",
        rich_help_panel="Actions",
    ),
]
ExecuteOpt = Annotated[
    bool,
    typer.Option(
        "--execute",
        help="Start the reassignment in --reassignment-json-file (writes a rollback file first).",
        rich_help_panel="Actions",
    ),
]
VerifyOpt = Annotated[
    bool,
    typer.Option(
        "--verify",
        help="Report each partition of --reassignment-json-file; remove throttles when all is done.",
        rich_help_panel="Actions",
    ),
]
CancelOpt = Annotated[
    bool,
    typer.Option(
        "--cancel",
        help="Cancel the running reassignments of --reassignment-json-file.",
        rich_help_panel="Actions",
    ),
]
ListOpt = Annotated[
    bool, typer.Option("--list", help="List the running reassignments.", rich_help_panel="Actions")
]
ReassignmentFileOpt = Annotated[
    Path | None,
    typer.Option(
        "--reassignment-json-file", help="Reassignment in Kafka's JSON format.", rich_help_panel=Panel
    ),
]
TopicsFileOpt = Annotated[
    Path | None,
    typer.Option(
        "--topics-to-move-json-file",
        help='Topics to move: {"version":1,"topics":[{"topic":"foo"}]}.',
        rich_help_panel=Panel,
    ),
]
BrokerListOpt = Annotated[
    str | None,
    typer.Option("--broker-list", help='Brokers to place replicas on: "0,1,2".', rich_help_panel=Panel),
]
DisableRackAwareOpt = Annotated[
    bool, typer.Option("--disable-rack-aware", help="Ignore racks when generating.", rich_help_panel=Panel)
]
StrategyOpt = Annotated[
    str,
    typer.Option(
        "--strategy",
        help="Planner for --generate: original (Kafka's) or minimal-movement.",
        rich_help_panel=Panel,
    ),
]
SeedOpt = Annotated[
    int | None,
    typer.Option(
        "--seed",
        help="Seed of the original planner's random start (repeatable plans).",
        rich_help_panel=Panel,
    ),
]
ReplicationFactorOpt = Annotated[
    int | None,
    typer.Option(
        "--replication-factor",
        min=1,
        help="With --generate --strategy minimal-movement: give every partition this many replicas "
        "(the current ones stay; --execute then needs --allow-replication-factor-change).",
        rich_help_panel=Panel,
    ),
]
LogDirOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--log-dir",
        help="With --generate: BROKER:DIR moves that broker's replicas of the topics to its log dir "
        "DIR (repeatable); the plan keeps every replica on its broker.",
        rich_help_panel=Panel,
    ),
]
ThrottleOpt = Annotated[
    int,
    typer.Option(
        "--throttle", help="Inter-broker replication throttle in B/s (-1: none).", rich_help_panel=Panel
    ),
]
LogDirThrottleOpt = Annotated[
    int,
    typer.Option(
        "--replica-alter-log-dirs-throttle",
        help="Throttle of moves between log dirs of one broker, B/s (-1: none).",
        rich_help_panel=Panel,
    ),
]
TimeoutOpt = Annotated[
    int | None,
    typer.Option(
        "--timeout",
        help="Milliseconds to wait for log-dir moves to start (default 10000); with --wait, for the whole reassignment (default 300000).",
        rich_help_panel=Panel,
    ),
]
AdditionalOpt = Annotated[
    bool,
    typer.Option(
        "--additional", help="Execute even though other reassignments are running.", rich_help_panel=Panel
    ),
]
PreserveThrottlesOpt = Annotated[
    bool,
    typer.Option(
        "--preserve-throttles",
        help="Leave the throttles in place (--verify, --cancel, --execute --wait).",
        rich_help_panel=Panel,
    ),
]
DisallowRfChangeOpt = Annotated[
    bool,
    typer.Option(
        "--disallow-replication-factor-change",
        help="Refuse replication factor changes (kcli's default; also tells the server, KIP-860).",
        rich_help_panel=Panel,
    ),
]
AllowRfChangeOpt = Annotated[
    bool,
    typer.Option(
        "--allow-replication-factor-change",
        help="Allow the file to change replication factors.",
        rich_help_panel=Panel,
    ),
]
WaitOpt = Annotated[
    bool,
    typer.Option(
        "--wait",
        help="After --execute, show progress per partition until done or --timeout, then remove "
        "the throttles as --verify does.",
        rich_help_panel=Panel,
    ),
]
NoElectOpt = Annotated[
    bool,
    typer.Option(
        "--no-elect",
        help="With --execute --wait: skip the preferred leader election that ends it.",
        rich_help_panel=Panel,
    ),
]
RollbackFileOpt = Annotated[
    Path | None,
    typer.Option(
        "--rollback-file",
        help="Where --execute saves the current assignment (default $XDG_STATE_HOME/kcli/rollback/reassignment-rollback-<time>.json).",
        rich_help_panel=Panel,
    ),
]


def register(app: typer.Typer) -> None:
    """Add this tool's commands to the root app."""

    @app.command("reassign-partitions", no_args_is_help=True, context_settings=JOPT_CONTEXT)
    @guarded
    def reassign_partitions(
        ctx: typer.Context,
        generate: GenerateOpt = False,
        execute: ExecuteOpt = False,
        verify: VerifyOpt = False,
        cancel: CancelOpt = False,
        list_: ListOpt = False,
        reassignment_json_file: ReassignmentFileOpt = None,
        topics_to_move_json_file: TopicsFileOpt = None,
        broker_list: BrokerListOpt = None,
        disable_rack_aware: DisableRackAwareOpt = False,
        strategy: StrategyOpt = "original",
        seed: SeedOpt = None,
        replication_factor: ReplicationFactorOpt = None,
        log_dir: LogDirOpt = None,
        throttle: ThrottleOpt = -1,
        replica_alter_log_dirs_throttle: LogDirThrottleOpt = -1,
        timeout: TimeoutOpt = None,
        additional: AdditionalOpt = False,
        preserve_throttles: PreserveThrottlesOpt = False,
        disallow_replication_factor_change: DisallowRfChangeOpt = False,
        allow_replication_factor_change: AllowRfChangeOpt = False,
        wait: WaitOpt = False,
        rollback_file: RollbackFileOpt = None,
        no_elect: NoElectOpt = False,
        bootstrap_server: connection_options.BootstrapServerOpt = None,
        bootstrap_controller: connection_options.BootstrapControllerOpt = None,
        command_config: connection_options.CommandConfigOpt = None,
        profile: connection_options.ProfileOpt = None,
        version: VersionOpt = False,
        output: OutputOpt = OutputFormat.text,
    ) -> None:
        """Move partition replicas between brokers (like kafka-reassign-partitions.sh)."""
        from kcli.cli.argv import parsed_line
        from kcli.ops.reassign.request import ReassignRequest, check_request

        connection = connection_options.connection_args(
            bootstrap_server, bootstrap_controller, command_config, profile
        )
        env = env_of(ctx)
        flags = {"generate": generate, "execute": execute, "verify": verify, "cancel": cancel, "list": list_}
        request = ReassignRequest(
            actions=tuple(action for action, on in flags.items() if on),
            reassignment_json_file=reassignment_json_file,
            topics_to_move_json_file=topics_to_move_json_file,
            broker_list=broker_list,
            disable_rack_aware=disable_rack_aware,
            strategy=strategy,
            seed=seed,
            replication_factor=replication_factor,
            log_dir=tuple(log_dir or ()),
            throttle=throttle,
            replica_alter_log_dirs_throttle=replica_alter_log_dirs_throttle,
            timeout=timeout,
            additional=additional,
            preserve_throttles=preserve_throttles,
            disallow_replication_factor_change=disallow_replication_factor_change,
            allow_replication_factor_change=allow_replication_factor_change,
            wait=wait,
            rollback_file=rollback_file,
            no_elect=no_elect,
            bootstrap_controller=connection.bootstrap_controller is not None,
            order=tuple(parsed_line(ctx).order),
            stray=tuple(ctx.args),
        )
        checked = check_request(request, resolve=lambda: _config(connection, env), read=_read)
        config = checked.config
        if checked.generate is not None:
            _generate(env, output, config, checked.generate, disable_rack_aware, seed, replication_factor)
        elif checked.action == "list":
            _list(env, output, config)
        elif checked.action == "execute":
            _execute(
                env,
                output,
                config,
                checked.file,
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
        elif checked.action == "verify":
            _verify(env, output, config, checked.file, preserve_throttles)
        else:
            _cancel(env, output, config, checked.file, preserve_throttles)


def _generate(
    env: Env,
    output: OutputFormat,
    config: ClientConfig,
    given: GenerateInput,
    disable_rack_aware: bool,
    seed: int | None,
    replication_factor: int | None,
) -> None:
    from kcli.ops.reassign.generate import Strategy
    from kcli.render import emit
    from kcli.render import reassign as view
    from kcli.workflows.reassign.generate import do_generate

    plan = run_admin(
        config,
        lambda admin: do_generate(
            admin,
            topics=given.topics,
            broker_list=given.brokers,
            strategy=given.strategy,
            disable_rack_aware=disable_rack_aware,
            seed=seed,
            replication_factor=replication_factor,
            log_dirs=given.placements,
        ),
    )
    emit(env, output, plan, text=view.generate_text, json_value=view.generate_json, table=view.generate_table)
    if output is OutputFormat.text and given.strategy is Strategy.ORIGINAL:
        env.err(view.stats_line(plan))


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
