"""`kcli consumer-groups`, after parsing: Kafka's checks in its order, then one handler per action.

kcli.cli.consumer_groups declares the options; this module runs what they ask: it checks the line
(kcli.ops.groups.consumer_line), resolves the client settings, calls the workflow of the action
(kcli.workflows.groups) and hands its result to kcli.render.consumer_groups.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kcli.cli.argv import refuse_stray
from kcli.cli.common import env_of, exit_with, run_admin
from kcli.errors import ExitCode, KcliError, UsageError
from kcli.render import OutputFormat

if TYPE_CHECKING:
    import typer

    from kcli.client.config import ClientConfig
    from kcli.env import Env
    from kcli.ops.groups.consumer_line import ConsumerGroupsLine
    from kcli.ops.groups.model import GroupState, GroupType

@dataclass(frozen=True, slots=True, kw_only=True)
class Extras:
    """kcli's own options of consumer-groups."""

    time_lag: bool = False
    fail_on_lag: int | None = None
    fail_on_time_lag: str | None = None
    watch: bool = False
    interval: float = 5.0
    count: int | None = None
    rollback_file: Path | None = None
    connection_flags: tuple[str, ...] = ()  # how an undo command names the cluster (kcli.ops.groups.undo)

    @property
    def fails_on_lag(self) -> bool:
        return self.fail_on_lag is not None or self.fail_on_time_lag is not None


def run(
    ctx: typer.Context,
    line: ConsumerGroupsLine,
    extras: Extras,
    connection: tuple[str | None, Path | None, str | None],
    output: OutputFormat,
) -> None:
    from kcli.cli.connection_options import client_config, connection_args
    from kcli.ops.groups.consumer_line import MISSING_BOOTSTRAP, Action, check, check_available
    from kcli.ops.groups.undo import connection_flags

    env = env_of(ctx)
    check_available(line)
    config = None
    if line.validate_regex is None:
        bootstrap, command_config, profile = connection
        args = connection_args(bootstrap, None, command_config, profile)
        config = client_config(args, env, missing_bootstrap=MISSING_BOOTSTRAP)
        flags = connection_flags(bootstrap, config.bootstrap, command_config=command_config, profile=profile)
        extras = dataclasses.replace(extras, connection_flags=flags)
    warnings: list[str] = []
    try:
        check(line, warn=warnings)
    finally:
        for warning in warnings:
            env.err(warning)
    refuse_stray(ctx.args)
    _check_extras(line, extras, output)
    if line.action is Action.VALIDATE_REGEX:
        _validate_regex(env, str(line.validate_regex), output)
        return
    assert config is not None
    config = dataclasses.replace(config, default_api_timeout_ms=line.timeout_ms)
    handler = {
        Action.LIST: _list,
        Action.DESCRIBE: _describe,
        Action.DELETE: _delete,
        Action.RESET_OFFSETS: _reset,
        Action.DELETE_OFFSETS: _delete_offsets,
    }[line.action]
    handler(env, config, line, extras, output, config.default_api_timeout_ms)


def _check_extras(line: ConsumerGroupsLine, extras: Extras, output: OutputFormat) -> None:
    from kcli.ops.groups.consumer_line import Action, View, check_outputs

    describing = line.has(Action.DESCRIBE) and line.view is View.OFFSETS
    for name, given in (
        ("--time-lag", extras.time_lag),
        ("--fail-on-lag", extras.fail_on_lag is not None),
        ("--fail-on-time-lag", extras.fail_on_time_lag is not None),
        ("--watch", extras.watch),
    ):
        if given and not describing:
            raise UsageError(f"{name} goes with --describe (offsets), not with the options given")
    check_outputs(line, rollback_file=extras.rollback_file is not None, text=output is OutputFormat.text)
    if extras.watch and extras.fails_on_lag:
        raise UsageError("--watch runs until Ctrl-C; --fail-on-lag and --fail-on-time-lag check once")


def _validate_regex(env: Env, regex: str, output: OutputFormat) -> None:
    """--validate-regex: RE2 syntax (Python's re accepts a superset; the common errors are the same)."""
    import re

    from kcli.render import write_json

    try:
        re.compile(regex)
        problem = None
    except re.error as error:
        problem = str(error.msg)
    if output is OutputFormat.json:
        write_json(env, {"regex": regex, "valid": problem is None, "error": problem})
    elif problem is None:
        env.out(f"The regular expression `{regex}` is valid.")
    else:
        env.out(f"The regular expression `{regex}` is invalid: {problem}.")


def _states_and_types(line: ConsumerGroupsLine) -> tuple[list[GroupState], list[GroupType]]:
    from kcli.ops.groups.consumer_line import consumer_states, consumer_types

    states = consumer_states(line.state) if line.state else []
    types = consumer_types(line.type) if line.type else []
    return states, types


def _list(
    env: Env,
    config: ClientConfig,
    line: ConsumerGroupsLine,
    extras: Extras,
    output: OutputFormat,
    timeout_ms: int,
) -> None:
    from kcli.render import consumer_groups as view
    from kcli.render import emit
    from kcli.workflows.groups.consumer import list_consumer_groups

    states, types = _states_and_types(line)
    groups = run_admin(config, lambda admin: list_consumer_groups(admin, types=types, states=states))
    with_type, with_state = line.type is not None, line.state is not None
    emit(
        env,
        output,
        groups,
        text=lambda g: view.list_lines(g, with_type=with_type, with_state=with_state),
        json_value=view.list_json,
    )


def _describe(
    env: Env,
    config: ClientConfig,
    line: ConsumerGroupsLine,
    extras: Extras,
    output: OutputFormat,
    timeout_ms: int,
) -> None:
    from kcli.ops.groups.lag import over_line, over_thresholds, threshold_ms
    from kcli.render import consumer_groups as view
    from kcli.render import emit
    from kcli.workflows.groups.consumer import describe_groups

    time_ms = threshold_ms(extras.fail_on_time_lag) if extras.fail_on_time_lag is not None else None
    time_lag = extras.time_lag or time_ms is not None
    if extras.watch:
        from kcli.cli.consumer_groups_watch import watch

        watch(
            env,
            config,
            line.named_groups,
            verbose=line.verbose,
            time_lag=time_lag,
            interval=extras.interval,
            count=extras.count,
            output=output,
        )
        return
    described = run_admin(
        config,
        lambda admin: describe_groups(
            admin,
            line.named_groups,
            view=line.view,
            verbose=line.verbose,
            timeout_ms=timeout_ms,
            time_lag=time_lag,
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
    over = over_thresholds(described.groups, records=extras.fail_on_lag, time_ms=time_ms)
    if over:
        env.err(f"Error: {over_line(over, records=extras.fail_on_lag, time_ms=time_ms)}")
    if described.failed or over:
        exit_with(ExitCode.ERROR)


def _delete(
    env: Env,
    config: ClientConfig,
    line: ConsumerGroupsLine,
    extras: Extras,
    output: OutputFormat,
    timeout_ms: int,
) -> None:
    from kcli.render import consumer_groups as view
    from kcli.render import emit
    from kcli.workflows.groups.consumer import delete_groups

    deleted = run_admin(config, lambda admin: delete_groups(admin, line.named_groups, timeout_ms=timeout_ms))
    emit(env, output, deleted, text=view.delete_lines, json_value=view.delete_json)
    refuse_failed_deletions(env, "consumer", deleted.failed, len(deleted.deleted))


def refuse_failed_deletions(env: Env, kind: str, failed: Sequence[tuple[str, Any]], deleted: int) -> None:
    """Each group that could not be deleted on a line of its own, then the count (a non-zero exit)."""
    if failed:
        for group, error in failed:
            env.err(f"Error: group '{group}' could not be deleted: {error.line()}")
        raise KcliError(f"Deletion of some {kind} groups failed: {len(failed)} of {len(failed) + deleted}")


def _delete_offsets(
    env: Env,
    config: ClientConfig,
    line: ConsumerGroupsLine,
    extras: Extras,
    output: OutputFormat,
    timeout_ms: int,
) -> None:
    from kcli.render import consumer_groups as view
    from kcli.render import emit
    from kcli.workflows.groups.consumer import delete_offsets

    done = run_admin(
        config, lambda admin: delete_offsets(admin, line.groups[0], line.topics, timeout_ms=timeout_ms)
    )
    failure = view.delete_offsets_error(done)
    if failure is not None:
        env.err(f"Error: {failure}")
    emit(env, output, done, text=view.delete_offsets_lines, json_value=view.delete_offsets_json)
    failed = [tp for tp, error in done.partitions.items() if error is not None]
    if failure is not None or failed:
        raise KcliError(
            f"{len(failed) or len(done.partitions)} partition(s) of group {done.group_id} kept their offsets",
            hint="the STATUS column says why",
        )


def _reset(
    env: Env,
    config: ClientConfig,
    line: ConsumerGroupsLine,
    extras: Extras,
    output: OutputFormat,
    timeout_ms: int,
) -> None:
    from kcli.ops.groups.reset_plan import reset_spec
    from kcli.render import consumer_groups as view
    from kcli.workflows.groups.reset import reset_offsets, without_offsets

    spec = reset_spec(line)
    path = extras.rollback_file

    def rollback_path() -> Path:
        return path if path is not None else default_rollback_path(env)

    result = run_admin(
        config,
        lambda admin: reset_offsets(
            admin, line.named_groups, spec, topics=line.topics, all_topics=line.all_topics,
            execute=not line.dry, timeout_ms=timeout_ms, rollback_path=rollback_path,
        ),
    )  # fmt: skip
    show_reset(env, output, result, view, export=line.export, with_group=len(line.groups) != 1)
    if result.rollback is not None:
        from kcli.ops.groups.reset_specs import topic_args
        from kcli.ops.groups.undo import undo_lines, whole_fresh_topics

        groups = [
            g.group_id for g in result.groups if g.error is None and any(tp in g.before for tp in g.offsets)
        ]
        whole = whole_fresh_topics(
            topic_args(line.topics).whole_topics,
            {g.group_id: g.offsets.keys() for g in result.groups},
            {g.group_id: g.before.keys() for g in result.groups},
        )
        for undo in undo_lines(
            "consumer-groups",
            extras.connection_flags,
            result.rollback,
            groups,
            without_offsets(result.groups),
            whole=whole,
        ):
            env.err(undo)
    for failed in result.failed:
        assert failed.error is not None
        env.err(f"Error: {failed.error.line()}")
    if result.unconfirmed:
        env.err(
            f"Error: after the reset, {len(result.unconfirmed)} offset(s) did not read back as set: {', '.join(result.unconfirmed[:5])}"
        )
    if result.failed or result.unconfirmed:
        exit_with(ExitCode.ERROR)


def show_reset(env: Env, output: OutputFormat, result: Any, view: Any, *, export: bool, with_group: bool) -> None:
    """A reset's warnings on stderr, then its offsets: CSV with --export (a GROUP column `with_group`),
    Kafka's table, or -o json/table (`view`: the tool's kcli.render module)."""
    from kcli.render import emit

    for warning in result.warnings:
        env.err(warning)
    if export:
        env.stdout.write(view.reset_csv(result, with_group=with_group))
    elif output is OutputFormat.text:
        env.stdout.write(view.reset_text(result))
    else:
        emit(env, output, result, text=lambda r: [], json_value=view.reset_json, table=view.reset_table)
    env.stdout.flush()


def default_rollback_path(env: Env) -> Path:
    """$XDG_STATE_HOME/kcli/rollback/offsets-rollback-<time>-<pid>.csv (~/.local/state when unset)."""
    import os
    import time

    from kcli.writes import WriteFailed, make_directories

    base = env.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    folder = Path(base) / "kcli" / "rollback"
    try:
        make_directories(folder, what="the rollback directory")
    except WriteFailed as failed:
        raise KcliError(f"{failed.message}; nothing was changed", hint="give --rollback-file") from None
    return folder / time.strftime(f"offsets-rollback-%Y%m%d-%H%M%S-{os.getpid()}.csv")
