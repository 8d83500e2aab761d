"""`kcli share-groups`, after parsing: Kafka's checks in its order, then one handler per action."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import TYPE_CHECKING

from kcli.cli.argv import refuse_stray
from kcli.cli.common import env_of, exit_with, run_admin
from kcli.cli.consumer_groups_run import default_rollback_path, refuse_failed_deletions, show_reset
from kcli.errors import ExitCode, KcliError
from kcli.render import OutputFormat

if TYPE_CHECKING:
    import typer

    from kcli.client.config import ClientConfig
    from kcli.env import Env
    from kcli.ops.groups.consumer_line import ConsumerGroupsLine


@dataclasses.dataclass(frozen=True, slots=True)
class Undo:
    """Where a reset saves the start offsets before it, and how its undo command names the cluster."""

    rollback_file: Path | None = None
    connection_flags: tuple[str, ...] = ()


def run(
    ctx: typer.Context,
    line: ConsumerGroupsLine,
    connection: tuple[str | None, Path | None, str | None],
    output: OutputFormat,
    rollback_file: Path | None,
) -> None:
    from kcli.cli.connection_options import client_config, connection_args
    from kcli.ops.groups.consumer_line import MISSING_BOOTSTRAP, Action, check_outputs
    from kcli.ops.groups.share_line import check, check_available
    from kcli.ops.groups.undo import connection_flags

    env = env_of(ctx)
    check_available(line)
    bootstrap, command_config, profile = connection
    config = client_config(
        connection_args(bootstrap, None, command_config, profile), env, missing_bootstrap=MISSING_BOOTSTRAP
    )
    check(line)
    refuse_stray(ctx.args)
    check_outputs(line, rollback_file=rollback_file is not None, text=output is OutputFormat.text)
    config = dataclasses.replace(config, default_api_timeout_ms=line.timeout_ms)
    handlers = {
        Action.LIST: _list,
        Action.DESCRIBE: _describe,
        Action.DELETE: _delete,
        Action.RESET_OFFSETS: _reset,
        Action.DELETE_OFFSETS: _delete_offsets,
    }
    flags = connection_flags(bootstrap, config.bootstrap, command_config=command_config, profile=profile)
    undo = Undo(rollback_file=rollback_file, connection_flags=flags)
    handlers[line.action](env, config, line, output, config.default_api_timeout_ms, undo)


def _list(
    env: Env,
    config: ClientConfig,
    line: ConsumerGroupsLine,
    output: OutputFormat,
    timeout_ms: int,
    _: Undo,
) -> None:
    from kcli.ops.groups.share_line import share_states
    from kcli.render import emit
    from kcli.render import share_groups as view
    from kcli.render.consumer_groups import list_json
    from kcli.workflows.groups.share import list_share_groups

    states = share_states(line.state) if line.state else []
    groups = run_admin(config, lambda admin: list_share_groups(admin, states=states))
    with_state = line.state is not None
    emit(env, output, groups, text=lambda g: view.list_lines(g, with_state=with_state), json_value=list_json)


def _describe(
    env: Env,
    config: ClientConfig,
    line: ConsumerGroupsLine,
    output: OutputFormat,
    timeout_ms: int,
    _: Undo,
) -> None:
    from kcli.render import emit
    from kcli.render import share_groups as view
    from kcli.workflows.groups.share import describe_share

    described = run_admin(
        config,
        lambda admin: describe_share(
            admin, line.named_groups, view=line.view, verbose=line.verbose, timeout_ms=timeout_ms
        ),
    )
    if output is OutputFormat.text:
        for to_stderr, text in view.describe_lines(described):
            env.stdout.flush()
            (env.err if to_stderr else env.out)(text)
        env.stdout.flush()
    else:
        emit(
            env,
            output,
            described,
            text=lambda d: [],
            json_value=view.describe_json,
            table=view.describe_table,
        )
    for _group, error in described.failed:
        env.err(f"Error: {error.line()}")
    if described.failed:
        exit_with(ExitCode.ERROR)


def _delete(
    env: Env,
    config: ClientConfig,
    line: ConsumerGroupsLine,
    output: OutputFormat,
    timeout_ms: int,
    _: Undo,
) -> None:
    from kcli.render import emit
    from kcli.render import share_groups as view
    from kcli.workflows.groups.share import delete_share

    deleted = run_admin(config, lambda admin: delete_share(admin, line.named_groups, timeout_ms=timeout_ms))
    emit(env, output, deleted, text=view.delete_lines, json_value=view.delete_json)
    refuse_failed_deletions(env, "share", deleted.failed, len(deleted.deleted))


def _delete_offsets(
    env: Env,
    config: ClientConfig,
    line: ConsumerGroupsLine,
    output: OutputFormat,
    timeout_ms: int,
    _: Undo,
) -> None:
    from kcli.render import emit
    from kcli.render import share_groups as view
    from kcli.workflows.groups.share import delete_share_offsets

    group = line.groups[0]
    error, per_topic = run_admin(
        config, lambda admin: delete_share_offsets(admin, group, line.topics, timeout_ms=timeout_ms)
    )
    if error is not None and not per_topic:
        raise error
    emit(
        env,
        output,
        per_topic,
        text=view.delete_offsets_lines,
        json_value=lambda p: {
            "group": group,
            "topics": [{"topic": t, "error": None if e is None else e.line()} for t, e in sorted(p.items())],
        },
    )
    failed = [t for t, e in per_topic.items() if e is not None]
    if error is not None or failed:
        raise error or KcliError(
            f"{len(failed)} topic(s) kept their offsets in share group {group}",
            hint="the STATUS column says why",
        )


def _reset(
    env: Env,
    config: ClientConfig,
    line: ConsumerGroupsLine,
    output: OutputFormat,
    timeout_ms: int,
    undo: Undo,
) -> None:
    from kcli.ops.groups.reset_plan import reset_spec
    from kcli.ops.groups.undo import undo_lines
    from kcli.render import consumer_groups as view
    from kcli.workflows.groups.share import reset_share

    spec = reset_spec(line, scope_checked=True)
    group = line.groups[0]
    result = run_admin(
        config,
        lambda admin: reset_share(
            admin,
            group,
            spec,
            topics=line.topics,
            execute=line.execute,
            timeout_ms=timeout_ms,
            rollback_path=lambda: undo.rollback_file or default_rollback_path(env),
        ),
    )
    show_reset(env, output, result, view, export=line.export, with_group=False)
    if result.rollback is not None:
        had = [
            g.group_id for g in result.groups if g.error is None and any(tp in g.before for tp in g.offsets)
        ]
        for text in undo_lines(
            "share-groups", undo.connection_flags, result.rollback, had, what="start offsets"
        ):
            env.err(text)
    failed = [g for g in result.groups if g.error is not None]
    for g in failed:
        env.err(f"Error: {g.error.line()}")  # type: ignore[union-attr]
    if result.unconfirmed:
        env.err(f"Error: after the reset, {len(result.unconfirmed)} offset(s) did not read back as set")
    if failed or result.unconfirmed:
        exit_with(ExitCode.ERROR)
