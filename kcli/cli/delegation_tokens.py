"""`kcli delegation-tokens`: kafka-delegation-tokens.sh (--create, --renew, --expire, --describe; KIP-48).

kcli delegation-tokens -b HOST:9092 -c client.properties --create --max-life-time-period -1 --renewer-principal User:user1
kcli delegation-tokens -b HOST:9092 -c client.properties --describe --owner-principal User:user1

Tokens are managed over an authenticated connection (SASL or TLS client certificates) that a token did
not authenticate; the brokers and controllers need delegation.token.secret.key. The HMAC (the token's
secret) is printed only in the token tables of --create and --describe and in -o json: kcli does
not echo the one it is given, and no error carries it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from kcli.cli.argv import JOPT_CONTEXT, refuse_stray
from kcli.cli.common import OutputOpt, env_of, guarded, run_admin
from kcli.cli.connection_options import (
    BootstrapControllerOpt,
    BootstrapServerOpt,
    CommandConfigOpt,
    ProfileOpt,
    client_config,
    connection_args,
)
from kcli.cli.version import VersionOpt
from kcli.errors import UsageError
from kcli.render import OutputFormat

if TYPE_CHECKING:
    from kcli.cli.connection_options import ConnectionArgs
    from kcli.client.config import ClientConfig
    from kcli.ops.delegation_tokens import Given, Request

_A = "Actions"
ONLY_BROKERS = (
    "kafka-delegation-tokens works through brokers: use --bootstrap-server, not --bootstrap-controller"
)
NEEDS_SECURITY = (
    'Missing required argument "[command-config]": delegation tokens are managed over an authenticated '
    "connection (SASL or TLS); give its client settings with --command-config (or a profile)"
)


def register(app: typer.Typer) -> None:
    """Add this tool's commands to the root app."""

    @app.command("delegation-tokens", no_args_is_help=True, context_settings=JOPT_CONTEXT)
    @guarded
    def delegation_tokens(
        ctx: typer.Context,
        create: Annotated[
            bool,
            typer.Option(
                "--create", help="Create a token (renewers: --renewer-principal).", rich_help_panel=_A
            ),
        ] = False,
        renew: Annotated[
            bool,
            typer.Option("--renew", help="Renew a token (--hmac, --renew-time-period).", rich_help_panel=_A),
        ] = False,
        expire: Annotated[
            bool,
            typer.Option(
                "--expire", help="Expire a token (--hmac, --expiry-time-period).", rich_help_panel=_A
            ),
        ] = False,
        describe: Annotated[
            bool,
            typer.Option(
                "--describe",
                help="Describe the tokens of --owner-principal (owned or renewable), else your own and those you "
                "may describe.",
                rich_help_panel=_A,
            ),
        ] = False,
        owner_principal: Annotated[
            list[str] | None,
            typer.Option(
                "--owner-principal", help="A token owner, Type:name (repeatable; --create takes one)."
            ),
        ] = None,
        renewer_principal: Annotated[
            list[str] | None,
            typer.Option(
                "--renewer-principal", help="A principal that may renew the token, Type:name (repeatable)."
            ),
        ] = None,
        max_life_time_period: Annotated[
            int | None,
            typer.Option(
                "--max-life-time-period",
                help="Max life of the token in ms (-1: the server's delegation.token.max.lifetime.ms).",
            ),
        ] = None,
        renew_time_period: Annotated[
            int | None,
            typer.Option(
                "--renew-time-period",
                help="Renew period in ms (-1: the server's delegation.token.expiry.time.ms).",
            ),
        ] = None,
        expiry_time_period: Annotated[
            int | None,
            typer.Option("--expiry-time-period", help="Expire in this many ms (-1: at once)."),
        ] = None,
        hmac: Annotated[
            str | None,
            typer.Option("--hmac", help="HMAC of the token (as --create or --describe printed it)."),
        ] = None,
        bootstrap_server: BootstrapServerOpt = None,
        bootstrap_controller: BootstrapControllerOpt = None,
        command_config: CommandConfigOpt = None,
        profile: ProfileOpt = None,
        version: VersionOpt = False,
        output: OutputOpt = OutputFormat.text,
    ) -> None:
        """Create, renew, expire or describe delegation tokens (kafka-delegation-tokens.sh)."""
        from kcli.ops.delegation_tokens import Given
        from kcli.render import delegation_tokens as view
        from kcli.render import emit
        from kcli.workflows.delegation_tokens import run_request

        connection = connection_args(bootstrap_server, bootstrap_controller, command_config, profile)
        env = env_of(ctx)
        given = Given(
            create=create,
            renew=renew,
            expire=expire,
            describe=describe,
            owner_principals=owner_principal,
            renewer_principals=renewer_principal,
            max_life_time_period=max_life_time_period,
            renew_time_period=renew_time_period,
            expiry_time_period=expiry_time_period,
            hmac=hmac,
        )
        config, request = _checked(ctx, given, connection)
        if output is OutputFormat.text:
            env.out(view.calling_line(request))  # Kafka's tool says it before it asks, also when that fails
            env.stdout.flush()
        outcome = run_admin(config, lambda admin: run_request(admin, request))
        lines, json_value, table = view.outcome_lines, view.outcome_json, view.outcome_table
        emit(env, output, outcome, text=lines, json_value=json_value, table=table)


def _checked(ctx: typer.Context, given: Given, connection: ConnectionArgs) -> tuple[ClientConfig, Request]:
    """The client config and the request, checked in kafka-delegation-tokens' order: the action, the
    connection, the rest."""
    from kcli.ops.delegation_tokens import action_of, plan

    action_of(given)
    if connection.bootstrap_controller:
        raise UsageError(ONLY_BROKERS)
    config = client_config(
        connection, env_of(ctx), missing_bootstrap='Missing required argument "[bootstrap-server]"'
    )
    if config.security_protocol == "PLAINTEXT" and connection.command_config is None:
        raise UsageError(NEEDS_SECURITY)
    request = plan(given)
    refuse_stray(ctx.args)
    return config, request
