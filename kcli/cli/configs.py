"""`kcli configs`: kafka-configs.sh with the same flags (--describe / --alter), plus --dry-run and --diff.

kcli configs -b HOST:9092 --describe --entity-type topics --entity-name orders
kcli configs -b HOST:9092 --alter --topic orders --add-config retention.ms=86400000 --dry-run
kcli configs -b HOST:9092 --diff --entity-type topics --entity-name a --entity-name b
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from kcli.cli.argv import JOPT_CONTEXT, refuse_stray
from kcli.cli.common import OutputOpt, env_of, exit_with, guarded, run, run_admin
from kcli.cli.completers import config_names, entity_types, profile_names
from kcli.cli.connection_options import (
    BootstrapControllerOpt,
    BootstrapServerOpt,
    CommandConfigOpt,
    ConnectionArgs,
    ProfileOpt,
    client_config,
    connection_args,
)
from kcli.errors import ExitCode, UsageError
from kcli.render import OutputFormat

if TYPE_CHECKING:
    from collections.abc import Iterable

    from kcli.client.config import ClientConfig
    from kcli.env import Env
    from kcli.ops.config_model import AlterOutcome, ConfigDiff, DescribeResult
    from kcli.ops.config_spec import Selection

_E = "Entity"
_C = "Changes"
ListOpt = list[str] | None


def _changes_given(
    add_config: str | None,
    add_config_file: Path | None,
    delete_config: ListOpt,
    append_config: ListOpt,
    subtract_config: ListOpt,
) -> list[str]:
    given = [
        ("--add-config", add_config is not None),
        ("--add-config-file", add_config_file is not None),
        ("--delete-config", bool(delete_config)),
        ("--append-config", bool(append_config)),
        ("--subtract-config", bool(subtract_config)),
    ]
    return [flag for flag, on in given if on]


def _action(describe: bool, alter: bool, diff: bool, change_flags: list[str], dry_run: bool) -> str:
    """kafka-configs' first checks: exactly one action, and no changes with --describe."""
    actions = [name for name, on in (("--describe", describe), ("--alter", alter), ("--diff", diff)) if on]
    if len(actions) != 1:
        if diff:
            raise UsageError(
                f"Command must include exactly one action: --describe, --alter, --diff (given: {', '.join(actions)})"
            )
        raise UsageError(
            "Command must include exactly one action: --describe, --alter", hint="or kcli's --diff"
        )
    action = actions[0]
    if action != "--alter":
        for flag in [*change_flags, *(["--dry-run"] if dry_run else [])]:
            raise UsageError(f'Option "[{action[2:]}]" can\'t be used with option "[{flag[2:]}]"')
    return action


MISSING_BOOTSTRAP = "Either --bootstrap-server or --bootstrap-controller must be specified."
DNS_DEADLINE_S = 5.0


def resolvable(host: str) -> bool:
    """Whether `host` is an IP or resolves (kafka-configs' check of ips names), within a deadline."""
    import ipaddress
    import socket
    from concurrent.futures import ThreadPoolExecutor
    from concurrent.futures import TimeoutError as Timeout

    try:
        ipaddress.ip_address(host)
        return True
    except ValueError:
        pass
    pool = ThreadPoolExecutor(max_workers=1)
    try:
        pool.submit(socket.getaddrinfo, host, None).result(timeout=DNS_DEADLINE_S)
        return True
    except (OSError, UnicodeError, Timeout):
        return False
    finally:
        pool.shutdown(wait=False)


def _entity_names_in_order(ctx: typer.Context, names: ListOpt) -> list[str]:
    """--entity-name values and --entity-default occurrences ("") in command-line order."""
    from kcli.cli.argv import parsed_line

    given = list(names or ())
    out: list[str] = []
    for option in parsed_line(ctx).order:
        if option == "--entity-name" and given:
            out.append(given.pop(0))
        elif option == "--entity-default":
            out.append("")
    return out + given


def _read_config_file(path: Path) -> dict[str, str]:
    from kcli.files import read_text
    from kcli.properties import parse_properties

    try:
        text = read_text(path, what="--add-config-file")
    except OSError as error:
        raise UsageError(f"--add-config-file {path}: {error.strerror or error}") from None
    return parse_properties(text)


async def _diff(
    configs: list[tuple[str | None, ClientConfig]], selection: Selection, describe_all: bool
) -> ConfigDiff:
    from kcli.client.admin import Admin
    from kcli.ops.config_model import diff_configs
    from kcli.workflows import configs as config_run

    resources = []
    labels = []
    for profile, config in configs:
        async with Admin(config) as admin:
            found = await config_run.describe_for_diff(admin, selection.entities)
        resources += found
        suffix = f" @{profile}" if len(configs) > 1 else ""
        labels += [f"{r.entity.label}{suffix}" for r in found]
    return diff_configs(resources, describe_all=describe_all, labels=labels)


def _emit_describe(env: Env, output: OutputFormat, result: DescribeResult) -> None:
    from kcli.render import configs as view
    from kcli.render import emit

    if output is OutputFormat.json:
        _write_chunks(env, view.describe_json_chunks(result))
    elif output is OutputFormat.text:
        _write_chunks(env, (line + "\n" for line in view.describe_text(result)))
        for note in view.describe_notes(result):
            env.err(note)
    else:
        emit(
            env,
            output,
            result,
            text=view.describe_text,
            json_value=view.describe_json,
            table=view.describe_table,
        )
    for resource in result.resources:
        if resource.error is not None:
            env.err(view.resource_error_line(resource))


def _write_chunks(env: Env, pieces: Iterable[str], batch: int = 4096) -> None:
    """Write many small strings to stdout in joined batches (one write per batch, not per line)."""
    buffer: list[str] = []
    for piece in pieces:
        buffer.append(piece)
        if len(buffer) >= batch:
            env.stdout.write("".join(buffer))
            buffer.clear()
    env.stdout.write("".join(buffer))
    env.stdout.flush()


def _emit_alter(env: Env, output: OutputFormat, outcome: AlterOutcome) -> None:
    from kcli.render import configs as view
    from kcli.render import emit

    emit(env, output, (outcome,), text=view.alter_text, json_value=view.alter_json)
    if outcome.error is not None:
        env.err(view.alter_error_line(outcome))


def register(app: typer.Typer) -> None:
    """Add this tool's commands to the root app."""

    @app.command("configs", no_args_is_help=True, context_settings=JOPT_CONTEXT)
    @guarded
    def configs(
        ctx: typer.Context,
        describe: Annotated[
            bool, typer.Option("--describe", help="List configs for the given entity.")
        ] = False,
        alter: Annotated[
            bool, typer.Option("--alter", help="Alter the configuration of the entity.")
        ] = False,
        diff: Annotated[
            bool, typer.Option("--diff", help="Show the configs that differ between two or more entities.")
        ] = False,
        describe_all: Annotated[
            bool,
            typer.Option("--all", help="With --describe/--diff: every config, not only the dynamic ones."),
        ] = False,
        entity_type: Annotated[
            ListOpt,
            typer.Option(
                "--entity-type",
                help="topics, clients, users, brokers, broker-loggers, ips, client-metrics or groups.",
                rich_help_panel=_E,
                autocompletion=entity_types,
            ),
        ] = None,
        entity_name: Annotated[
            ListOpt,
            typer.Option(
                "--entity-name",
                help="Name of the entity (paired in order with --entity-type).",
                rich_help_panel=_E,
            ),
        ] = None,
        entity_default: Annotated[
            bool,
            typer.Option(
                "--entity-default",
                help="The default entity (users, clients, brokers, ips).",
                rich_help_panel=_E,
            ),
        ] = False,
        topic: Annotated[
            str | None,
            typer.Option("--topic", help="= --entity-type topics --entity-name T.", rich_help_panel=_E),
        ] = None,
        client: Annotated[
            str | None, typer.Option("--client", help="A client id.", rich_help_panel=_E)
        ] = None,
        user: Annotated[
            str | None, typer.Option("--user", help="A user principal.", rich_help_panel=_E)
        ] = None,
        broker: Annotated[
            str | None, typer.Option("--broker", help="A broker id.", rich_help_panel=_E)
        ] = None,
        broker_logger: Annotated[
            str | None,
            typer.Option("--broker-logger", help="A broker id, for its loggers.", rich_help_panel=_E),
        ] = None,
        ip: Annotated[
            str | None, typer.Option("--ip", help="An IP address or host.", rich_help_panel=_E)
        ] = None,
        group: Annotated[str | None, typer.Option("--group", help="A group id.", rich_help_panel=_E)] = None,
        client_metrics: Annotated[
            str | None,
            typer.Option("--client-metrics", help="A client-metrics resource.", rich_help_panel=_E),
        ] = None,
        client_defaults: Annotated[
            bool,
            typer.Option(
                "--client-defaults", help="The default quotas for all client ids.", rich_help_panel=_E
            ),
        ] = False,
        user_defaults: Annotated[
            bool,
            typer.Option("--user-defaults", help="The default quotas for all users.", rich_help_panel=_E),
        ] = False,
        broker_defaults: Annotated[
            bool,
            typer.Option(
                "--broker-defaults",
                help="The cluster-wide default config of all brokers.",
                rich_help_panel=_E,
            ),
        ] = False,
        ip_defaults: Annotated[
            bool,
            typer.Option("--ip-defaults", help="The default quotas for all IPs.", rich_help_panel=_E),
        ] = False,
        add_config: Annotated[
            str | None,
            typer.Option(
                "--add-config",
                help="k1=v1,k2=[v1,v2,v2],k3=v3 to set.",
                rich_help_panel=_C,
                autocompletion=config_names,
            ),
        ] = None,
        add_config_file: Annotated[
            Path | None,
            typer.Option(
                "--add-config-file", help="A .properties file of configs to set.", rich_help_panel=_C
            ),
        ] = None,
        delete_config: Annotated[
            ListOpt,
            typer.Option(
                "--delete-config",
                help="k1,k2 to remove (repeatable).",
                rich_help_panel=_C,
                autocompletion=config_names,
            ),
        ] = None,
        append_config: Annotated[
            ListOpt,
            typer.Option(
                "--append-config",
                help="k=[v1,v2]: add items to a list config (APPEND).",
                rich_help_panel=_C,
                autocompletion=config_names,
            ),
        ] = None,
        subtract_config: Annotated[
            ListOpt,
            typer.Option(
                "--subtract-config",
                help="k=[v1]: remove items from a list config (SUBTRACT).",
                rich_help_panel=_C,
                autocompletion=config_names,
            ),
        ] = None,
        dry_run: Annotated[
            bool,
            typer.Option(
                "--dry-run", help="With --alter: validate only (validateOnly) and show before -> after."
            ),
        ] = False,
        diff_profile: Annotated[
            str | None,
            typer.Option(
                "--diff-profile",
                help="With --diff: compare with the same entities on this profile's cluster.",
                autocompletion=profile_names,
            ),
        ] = None,
        force: Annotated[
            bool, typer.Option("--force", hidden=True, help="Accepted for compatibility; no effect.")
        ] = False,
        bootstrap_server: BootstrapServerOpt = None,
        bootstrap_controller: BootstrapControllerOpt = None,
        command_config: CommandConfigOpt = None,
        profile: ProfileOpt = None,
        output: OutputOpt = OutputFormat.text,
    ) -> None:
        """Describe, alter or compare configs of topics, brokers, loggers, users, clients, ips, groups (kafka-configs.sh)."""
        from kcli.ops.config_spec import EntityFlags, build_changes, check_duplicate_types, resolve_selection

        connection = connection_args(bootstrap_server, bootstrap_controller, command_config, profile)
        env = env_of(ctx)
        change_flags = _changes_given(
            add_config, add_config_file, delete_config, append_config, subtract_config
        )
        action = _action(describe, alter, diff, change_flags, dry_run)
        if diff_profile is not None and action != "--diff":
            raise UsageError('Option "--diff-profile" needs "--diff"')
        flags = EntityFlags(
            entity_types=entity_type or (),
            entity_names=_entity_names_in_order(ctx, entity_name),
            entity_default=entity_default,
            topic=topic,
            client=client,
            group=group,
            user=user,
            broker=broker,
            broker_logger=broker_logger,
            ip=ip,
            client_metrics=client_metrics,
            client_defaults=client_defaults,
            user_defaults=user_defaults,
            broker_defaults=broker_defaults,
            ip_defaults=ip_defaults,
        )
        # kafka-configs' order: duplicate types, the missing bootstrap, then the entity checks.
        check_duplicate_types(flags)
        both = bool(connection.bootstrap_server and connection.bootstrap_controller)
        config = None if both else client_config(connection, env, missing_bootstrap=MISSING_BOOTSTRAP)
        selection = resolve_selection(
            flags, alter=action == "--alter", both_bootstraps=both, resolvable=resolvable
        )
        assert config is not None
        changes = None
        if action == "--alter":
            if add_config is not None and add_config_file is not None:
                raise UsageError("Only one of --add-config or --add-config-file must be specified")
            file_values = _read_config_file(add_config_file) if add_config_file is not None else None
            changes = build_changes(
                add_config=add_config,
                add_config_file=file_values,
                delete_config=delete_config or (),
                append_config=append_config or (),
                subtract_config=subtract_config or (),
            )
            if selection.is_quota:
                from kcli.ops.quota_plan import plan_quota_alter

                plan_quota_alter(selection, changes)  # quota/SCRAM usage errors before connecting
        if action == "--diff":
            _check_diff(selection, diff_profile)
        refuse_stray(ctx.args)
        from kcli.workflows import configs as config_run

        config_run.check_endpoint(config, selection)
        if action == "--describe":
            result = run_admin(
                config, lambda admin: config_run.describe(admin, selection, describe_all=describe_all)
            )
            _emit_describe(env, output, result)
            exit_with(ExitCode.ERROR if result.failed else ExitCode.OK)
        elif action == "--alter":
            assert changes is not None
            outcome = run_admin(
                config, lambda admin: config_run.alter(admin, selection, changes, dry_run=dry_run)
            )
            _emit_alter(env, output, outcome)
            exit_with(ExitCode.ERROR if outcome.error is not None else ExitCode.OK)
        else:
            _run_diff(env, output, connection, config, selection, describe_all, diff_profile)


def _check_diff(selection: Selection, diff_profile: str | None) -> None:
    if selection.is_quota:
        raise UsageError(
            "--diff compares topics, brokers, broker-loggers, groups or client-metrics, not quotas"
        )
    if any(e.name is None and not e.default for e in selection.entities):
        raise UsageError("--diff needs named entities: give --entity-name for each")
    if len(selection.entities) < 2 and diff_profile is None:
        raise UsageError("--diff needs at least two entities (or one entity and --diff-profile)")


def _cluster_label(args: ConnectionArgs, env: Env) -> str:
    """How --diff names the command line's cluster: the address given, else the profile in use."""
    from kcli.client.toml_profiles import default_profile_name

    address = args.bootstrap_server or args.bootstrap_controller
    if address:
        return address
    chosen = args.profile or env.environ.get("KCLI_PROFILE") or default_profile_name(env.config_file)
    return chosen or "default"


def _run_diff(
    env: Env,
    output: OutputFormat,
    args: ConnectionArgs,
    config: ClientConfig,
    selection: Selection,
    describe_all: bool,
    diff_profile: str | None,
) -> None:
    from kcli.render import configs as view
    from kcli.render import emit

    configs: list[tuple[str | None, ClientConfig]] = [(_cluster_label(args, env), config)]
    if diff_profile is not None:
        other = ConnectionArgs(profile=diff_profile)
        configs.append((diff_profile, client_config(other, env)))
    result = run(_diff(configs, selection, describe_all))
    emit(env, output, result, text=view.diff_text, json_value=view.diff_json, table=view.diff_table)
