"""`kcli streams-groups`, after parsing: Kafka's checks in its order, then one handler per action."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import TYPE_CHECKING

from kcli.cli.argv import refuse_stray
from kcli.cli.common import env_of, exit_with, run_admin
from kcli.cli.consumer_groups_run import default_rollback_path, show_reset
from kcli.errors import ExitCode, KcliError
from kcli.render import OutputFormat

if TYPE_CHECKING:
    import typer

    from kcli.client.config import ClientConfig
    from kcli.env import Env
    from kcli.ops.groups.consumer_line import ConsumerGroupsLine
    from kcli.ops.groups.streams_line import StreamsOptions

NO_TOPOLOGY = (
    "kcli cannot ask for a streams group's topology description: it needs StreamsGroupDescribe v1 "
    "(Kafka 4.4, KIP-1331), newer than the protocol library kcli is built on"
)


def run(
    ctx: typer.Context,
    line: ConsumerGroupsLine,
    extra: StreamsOptions,
    connection: tuple[str | None, Path | None, str | None],
    output: OutputFormat,
    rollback_file: Path | None,
) -> None:
    from kcli.cli.connection_options import client_config, connection_args
    from kcli.ops.groups.consumer_line import MISSING_BOOTSTRAP, Action, check_outputs
    from kcli.ops.groups.streams_line import check, check_available

    env = env_of(ctx)
    check_available(line, extra)
    bootstrap, command_config, profile = connection
    config = client_config(
        connection_args(bootstrap, None, command_config, profile), env, missing_bootstrap=MISSING_BOOTSTRAP
    )
    check(line, extra)
    refuse_stray(ctx.args)
    check_outputs(line, rollback_file=rollback_file is not None, text=output is OutputFormat.text)
    if extra.topology:
        raise KcliError(
            NO_TOPOLOGY, hint="Kafka's own kafka-streams-groups.sh --describe --topology shows it"
        )
    config = dataclasses.replace(config, default_api_timeout_ms=line.timeout_ms)
    timeout_ms = config.default_api_timeout_ms
    groups = line.named_groups
    if line.has(Action.LIST):
        _list(env, config, line, output)
    elif line.has(Action.DESCRIBE):
        _describe(env, config, line, groups, output, timeout_ms)
    elif line.has(Action.DELETE):
        _delete(env, config, groups, extra, output, timeout_ms)
    elif line.has(Action.DELETE_OFFSETS):
        _delete_offsets(env, config, line, output, timeout_ms)
    else:
        _reset(env, config, line, extra, groups, output, timeout_ms, rollback_file)


def _list(env: Env, config: ClientConfig, line: ConsumerGroupsLine, output: OutputFormat) -> None:
    from kcli.ops.groups.streams_line import streams_states
    from kcli.render import emit
    from kcli.render import streams_groups as view
    from kcli.render.consumer_groups import list_json
    from kcli.workflows.groups.streams import list_streams_groups

    states = streams_states(line.state) if line.state else []
    groups = run_admin(config, lambda admin: list_streams_groups(admin, states=states))
    with_state = line.state is not None
    emit(env, output, groups, text=lambda g: view.list_lines(g, with_state=with_state), json_value=list_json)


def _describe(
    env: Env,
    config: ClientConfig,
    line: ConsumerGroupsLine,
    groups: list[str] | None,
    output: OutputFormat,
    timeout_ms: int,
) -> None:
    from kcli.render import emit
    from kcli.render import streams_groups as view
    from kcli.workflows.groups.streams import describe_streams

    kind = line.view.value
    described = run_admin(
        config,
        lambda admin: describe_streams(admin, groups, offsets=kind == "offsets", timeout_ms=timeout_ms),
    )
    if output is OutputFormat.text:
        for to_stderr, text in view.describe_lines(described, view=kind, verbose=line.verbose):
            env.stdout.flush()
            (env.err if to_stderr else env.out)(text)
        env.stdout.flush()
    else:
        emit(env, output, described, text=lambda d: [], json_value=view.describe_json)
    for _group, error in described.failed:
        env.err(f"Error: {error.line()}")
    if described.failed:
        exit_with(ExitCode.ERROR)


def _delete(
    env: Env,
    config: ClientConfig,
    groups: list[str] | None,
    extra: StreamsOptions,
    output: OutputFormat,
    timeout_ms: int,
) -> None:
    from kcli.render import emit
    from kcli.render import streams_groups as view
    from kcli.workflows.groups.streams import delete_streams

    deleted = run_admin(
        config,
        lambda admin: delete_streams(
            admin, groups, delete_internal=extra.delete_all_internal_topics, timeout_ms=timeout_ms
        ),
    )
    emit(env, output, deleted, text=view.delete_lines, json_value=view.delete_json)
    for group, error in (*deleted.failed, *deleted.internal_failed):
        env.err(f"Error: group '{group}': {error.line()}")
    if deleted.failed or deleted.internal_failed:
        raise KcliError(
            f"Deletion of some streams groups failed: {len(deleted.failed)} of {len(deleted.failed) + len(deleted.deleted)}"
        )


def _delete_offsets(
    env: Env, config: ClientConfig, line: ConsumerGroupsLine, output: OutputFormat, timeout_ms: int
) -> None:
    from kcli.ops.groups.model import ToolRelease
    from kcli.render import consumer_groups as view
    from kcli.render import emit
    from kcli.workflows.groups.consumer import delete_offsets
    from kcli.workflows.groups.streams import input_partitions

    group = line.groups[0]

    async def go(admin: object) -> object:
        import time

        topics = list(line.topics)
        if line.all_topics:
            found = await input_partitions(admin, group, time.monotonic() + timeout_ms / 1000)  # type: ignore[arg-type]
            topics = [f"{tp.topic}:{tp.partition}" for tp in sorted(found)]
        done = await delete_offsets(admin, group, topics, timeout_ms=timeout_ms)  # type: ignore[arg-type]
        return dataclasses.replace(done, release=ToolRelease.CURRENT)

    done = run_admin(config, go)
    failure = view.delete_offsets_error(done)  # type: ignore[arg-type]
    if failure is not None:
        env.err(f"Error: {failure}")
    emit(env, output, done, text=view.delete_offsets_lines, json_value=view.delete_offsets_json)  # type: ignore[arg-type]
    if failure is not None or any(e is not None for e in done.partitions.values()):  # type: ignore[attr-defined]
        raise KcliError(f"some offsets of streams group {group} were kept", hint="the STATUS column says why")


def _reset(
    env: Env,
    config: ClientConfig,
    line: ConsumerGroupsLine,
    extra: StreamsOptions,
    groups: list[str] | None,
    output: OutputFormat,
    timeout_ms: int,
    rollback_file: Path | None,
) -> None:
    from kcli.ops.groups.reset_plan import reset_spec
    from kcli.render import consumer_groups as view
    from kcli.workflows.groups.streams import reset_streams

    spec = reset_spec(line, scope_checked=True)
    internal: tuple[str, ...] | bool = extra.delete_internal_topics or extra.delete_all_internal_topics
    result = run_admin(
        config,
        lambda admin: reset_streams(
            admin,
            groups,
            spec,
            topics=line.topics,
            all_topics=line.all_topics,
            execute=line.execute,
            delete_internal=internal,
            timeout_ms=timeout_ms,
            rollback_path=lambda: rollback_file or default_rollback_path(env),
        ),
    )
    show_reset(env, output, result, view, export=line.export, with_group=len(line.groups) != 1)
    if result.rollback is not None:
        env.err(
            f"Saved the offsets before the reset to {result.rollback} (kcli consumer-groups --from-file reads it)"
        )
    failed = [g for g in result.groups if g.error is not None]
    for g in failed:
        env.err(f"Error: {g.error.line()}")  # type: ignore[union-attr]
    if failed:
        exit_with(ExitCode.ERROR)
