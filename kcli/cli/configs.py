"""`kcli configs`: kafka-configs.sh with the same flags (--describe / --alter), plus --dry-run and --diff.

kcli configs -b HOST:9092 --describe --entity-type topics --entity-name orders
kcli configs -b HOST:9092 --alter --topic orders --add-config retention.ms=86400000 --dry-run
kcli configs -b HOST:9092 --diff --entity-type topics --entity-name a --entity-name b
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from kcli.cli import connection_options
from kcli.cli.argv import JOPT_CONTEXT
from kcli.cli.common import OutputOpt, env_of, exit_with, guarded, run, run_admin
from kcli.cli.completers import config_names, entity_types, profile_names
from kcli.cli.version import VersionOpt
from kcli.errors import ExitCode, UsageError
from kcli.render import OutputFormat

if TYPE_CHECKING:
    from collections.abc import Iterable

    from kcli.client.config import ClientConfig
    from kcli.env import Env
    from kcli.ops.config_model import AlterOutcome, ConfigDiff, DescribeResult
    from kcli.ops.config_request import CheckedConfigs
    from kcli.ops.config_spec import Selection

_E = "Entity"
_C = "Changes"
ListOpt = list[str] | None


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


DescribeOpt = Annotated[bool, typer.Option("--describe", help="List configs for the given entity.")]
AlterOpt = Annotated[bool, typer.Option("--alter", help="Alter the configuration of the entity.")]
DiffOpt = Annotated[
    bool, typer.Option("--diff", help="Show the configs that differ between two or more entities.")
]
AllOpt = Annotated[
    bool, typer.Option("--all", help="With --describe/--diff: every config, not only the dynamic ones.")
]
EntityTypeOpt = Annotated[
    ListOpt,
    typer.Option(
        "--entity-type",
        help="topics, clients, users, brokers, broker-loggers, ips, client-metrics or groups.",
        rich_help_panel=_E,
        autocompletion=entity_types,
    ),
]
EntityNameOpt = Annotated[
    ListOpt,
    typer.Option(
        "--entity-name", help="Name of the entity (paired in order with --entity-type).", rich_help_panel=_E
    ),
]
EntityDefaultOpt = Annotated[
    bool,
    typer.Option(
        "--entity-default", help="The default entity (users, clients, brokers, ips).", rich_help_panel=_E
    ),
]
TopicOpt = Annotated[
    str | None, typer.Option("--topic", help="= --entity-type topics --entity-name T.", rich_help_panel=_E)
]
ClientOpt = Annotated[str | None, typer.Option("--client", help="A client id.", rich_help_panel=_E)]
UserOpt = Annotated[str | None, typer.Option("--user", help="A user principal.", rich_help_panel=_E)]
BrokerOpt = Annotated[str | None, typer.Option("--broker", help="A broker id.", rich_help_panel=_E)]
BrokerLoggerOpt = Annotated[
    str | None, typer.Option("--broker-logger", help="A broker id, for its loggers.", rich_help_panel=_E)
]
IpOpt = Annotated[str | None, typer.Option("--ip", help="An IP address or host.", rich_help_panel=_E)]
GroupOpt = Annotated[str | None, typer.Option("--group", help="A group id.", rich_help_panel=_E)]
ClientMetricsOpt = Annotated[
    str | None, typer.Option("--client-metrics", help="A client-metrics resource.", rich_help_panel=_E)
]
ClientDefaultsOpt = Annotated[
    bool,
    typer.Option("--client-defaults", help="The default quotas for all client ids.", rich_help_panel=_E),
]
UserDefaultsOpt = Annotated[
    bool, typer.Option("--user-defaults", help="The default quotas for all users.", rich_help_panel=_E)
]
BrokerDefaultsOpt = Annotated[
    bool,
    typer.Option(
        "--broker-defaults", help="The cluster-wide default config of all brokers.", rich_help_panel=_E
    ),
]
IpDefaultsOpt = Annotated[
    bool, typer.Option("--ip-defaults", help="The default quotas for all IPs.", rich_help_panel=_E)
]
AddConfigOpt = Annotated[
    str | None,
    typer.Option(
        "--add-config",
        help="k1=v1,k2=[v1,v2,v2],k3=v3 to set.",
        rich_help_panel=_C,
        autocompletion=config_names,
    ),
]
AddConfigFileOpt = Annotated[
    Path | None,
    typer.Option("--add-config-file", help="A .properties file of configs to set.", rich_help_panel=_C),
]
DeleteConfigOpt = Annotated[
    ListOpt,
    typer.Option(
        "--delete-config",
        help="k1,k2 to remove (repeatable).",
        rich_help_panel=_C,
        autocompletion=config_names,
    ),
]
AppendConfigOpt = Annotated[
    ListOpt,
    typer.Option(
        "--append-config",
        help="k=[v1,v2]: add items to a list config (APPEND).",
        rich_help_panel=_C,
        autocompletion=config_names,
    ),
]
SubtractConfigOpt = Annotated[
    ListOpt,
    typer.Option(
        "--subtract-config",
        help="k=[v1]: remove items from a list config (SUBTRACT).",
        rich_help_panel=_C,
        autocompletion=config_names,
    ),
]
DryRunOpt = Annotated[
    bool,
    typer.Option("--dry-run", help="With --alter: validate only (validateOnly) and show before -> after."),
]
DiffProfileOpt = Annotated[
    str | None,
    typer.Option(
        "--diff-profile",
        help="With --diff: compare with the same entities on this profile's cluster.",
        autocompletion=profile_names,
    ),
]
ForceOpt = Annotated[
    bool, typer.Option("--force", hidden=True, help="Accepted for compatibility; no effect.")
]


def register(app: typer.Typer) -> None:
    """Add this tool's commands to the root app."""

    @app.command("configs", no_args_is_help=True, context_settings=JOPT_CONTEXT)
    @guarded
    def configs(
        ctx: typer.Context,
        describe: DescribeOpt = False,
        alter: AlterOpt = False,
        diff: DiffOpt = False,
        describe_all: AllOpt = False,
        entity_type: EntityTypeOpt = None,
        entity_name: EntityNameOpt = None,
        entity_default: EntityDefaultOpt = False,
        topic: TopicOpt = None,
        client: ClientOpt = None,
        user: UserOpt = None,
        broker: BrokerOpt = None,
        broker_logger: BrokerLoggerOpt = None,
        ip: IpOpt = None,
        group: GroupOpt = None,
        client_metrics: ClientMetricsOpt = None,
        client_defaults: ClientDefaultsOpt = False,
        user_defaults: UserDefaultsOpt = False,
        broker_defaults: BrokerDefaultsOpt = False,
        ip_defaults: IpDefaultsOpt = False,
        add_config: AddConfigOpt = None,
        add_config_file: AddConfigFileOpt = None,
        delete_config: DeleteConfigOpt = None,
        append_config: AppendConfigOpt = None,
        subtract_config: SubtractConfigOpt = None,
        dry_run: DryRunOpt = False,
        diff_profile: DiffProfileOpt = None,
        force: ForceOpt = False,
        bootstrap_server: connection_options.BootstrapServerOpt = None,
        bootstrap_controller: connection_options.BootstrapControllerOpt = None,
        command_config: connection_options.CommandConfigOpt = None,
        profile: connection_options.ProfileOpt = None,
        version: VersionOpt = False,
        output: OutputOpt = OutputFormat.text,
    ) -> None:
        """Describe, alter or compare configs of topics, brokers, loggers, users, clients, ips, groups (kafka-configs.sh)."""
        from kcli.ops.config_request import ConfigsRequest, check_request
        from kcli.ops.config_spec import EntityFlags

        connection = connection_options.connection_args(
            bootstrap_server, bootstrap_controller, command_config, profile
        )
        env = env_of(ctx)
        entities = EntityFlags(
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
        request = ConfigsRequest(
            describe=describe,
            alter=alter,
            diff=diff,
            entities=entities,
            add_config=add_config,
            add_config_file=add_config_file,
            delete_config=tuple(delete_config or ()),
            append_config=tuple(append_config or ()),
            subtract_config=tuple(subtract_config or ()),
            dry_run=dry_run,
            diff_profile=diff_profile,
            both_bootstraps=bool(connection.bootstrap_server and connection.bootstrap_controller),
            stray=tuple(ctx.args),
        )
        checked = check_request(
            request,
            resolve=lambda: connection_options.client_config(
                connection, env, missing_bootstrap=MISSING_BOOTSTRAP
            ),
            read_properties=_read_config_file,
            resolvable=resolvable,
        )
        _run(
            env,
            output,
            connection,
            checked,
            describe_all=describe_all,
            dry_run=dry_run,
            diff_profile=diff_profile,
        )


def _run(
    env: Env,
    output: OutputFormat,
    connection: connection_options.ConnectionArgs,
    checked: CheckedConfigs[ClientConfig],
    *,
    describe_all: bool,
    dry_run: bool,
    diff_profile: str | None,
) -> None:
    """The checked request's action, its result rendered and its exit status."""
    from kcli.workflows import configs as config_run

    config, selection, changes = checked.config, checked.selection, checked.changes
    config_run.check_endpoint(config, selection, altering=checked.action == "--alter")
    if checked.action == "--describe":
        result = run_admin(
            config, lambda admin: config_run.describe(admin, selection, describe_all=describe_all)
        )
        _emit_describe(env, output, result)
        exit_with(ExitCode.ERROR if result.failed else ExitCode.OK)
    elif checked.action == "--alter":
        assert changes is not None
        outcome = run_admin(
            config, lambda admin: config_run.alter(admin, selection, changes, dry_run=dry_run)
        )
        _emit_alter(env, output, outcome)
        exit_with(ExitCode.ERROR if outcome.error is not None else ExitCode.OK)
    else:
        _run_diff(env, output, connection, config, selection, describe_all, diff_profile)


def _cluster_label(args: connection_options.ConnectionArgs, env: Env) -> str:
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
    args: connection_options.ConnectionArgs,
    config: ClientConfig,
    selection: Selection,
    describe_all: bool,
    diff_profile: str | None,
) -> None:
    from kcli.render import configs as view
    from kcli.render import emit

    configs: list[tuple[str | None, ClientConfig]] = [(_cluster_label(args, env), config)]
    if diff_profile is not None:
        other = connection_options.ConnectionArgs(profile=diff_profile)
        configs.append((diff_profile, connection_options.client_config(other, env)))
    result = run(_diff(configs, selection, describe_all))
    emit(env, output, result, text=view.diff_text, json_value=view.diff_json, table=view.diff_table)
