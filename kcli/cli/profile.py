"""`kcli profile`: manage connection profiles in the kcli config file."""

from __future__ import annotations

from typing import Annotated

import typer

from kcli.cli.common import OutputOpt, env_of, guarded, tool_group
from kcli.cli.completers import profile_names
from kcli.render import OutputFormat

profile_app = tool_group(
    "profile", "Manage connection profiles in ~/.config/kcli/config.toml (or $KCLI_CONFIG)."
)

NameArg = Annotated[str, typer.Argument(help="Profile name.", autocompletion=profile_names)]


@profile_app.command("list")
@guarded
def list_command(output: OutputOpt = OutputFormat.text) -> None:
    """List the profiles; the default one is marked with *."""
    from kcli.render.profiles import render_list
    from kcli.workflows.profiles import list_profiles

    env = env_of()
    render_list(env, output, list_profiles(env.config_file))


@profile_app.command("show")
@guarded
def show_command(
    name: Annotated[
        str | None,
        typer.Argument(help="Profile name (default: the default profile).", autocompletion=profile_names),
    ] = None,
    output: OutputOpt = OutputFormat.text,
) -> None:
    """Show a profile's settings (secrets are hidden)."""
    from kcli.client.config_keys import is_secret_key
    from kcli.client.secret_refs import warn_if_exposed
    from kcli.client.toml_profiles import load_profiles
    from kcli.render.profiles import render_show
    from kcli.workflows.profiles import show_profile

    env = env_of()
    view = show_profile(env.config_file, name)
    warn_if_exposed(env.config_file, load_profiles(env.config_file), is_secret=is_secret_key, warn=env.err)
    render_show(env, output, view)


@profile_app.command("add")
@guarded
def add_command(
    name: NameArg,
    settings: Annotated[
        list[str] | None,
        typer.Option(
            "--set",
            help="A client setting KEY=VALUE (repeatable), e.g. bootstrap.servers=k1:9092. "
            "Secrets may be ${env:NAME} or ${file:PATH} references.",
        ),
    ] = None,
    bootstrap_server: Annotated[
        str | None, typer.Option("--bootstrap-server", "-b", help="Shorthand for --set bootstrap.servers=...")
    ] = None,
    bootstrap_controller: Annotated[
        str | None,
        typer.Option("--bootstrap-controller", "-C", help="Shorthand for --set bootstrap.controllers=..."),
    ] = None,
    replace: Annotated[bool, typer.Option("--replace", help="Overwrite an existing profile.")] = False,
    use: Annotated[bool, typer.Option("--use", help="Also make it the default profile.")] = False,
) -> None:
    """Add a profile (the rest of the file, comments included, is left as it was)."""
    from kcli.errors import UsageError
    from kcli.workflows.profiles import add_profile, parse_settings, unknown_setting_warnings, use_profile

    env = env_of()
    values = parse_settings(settings or [])
    if bootstrap_server and bootstrap_controller:
        raise UsageError("You cannot specify both --bootstrap-controller and --bootstrap-server.")
    if bootstrap_server:
        values["bootstrap.servers"] = bootstrap_server
    if bootstrap_controller:
        values["bootstrap.controllers"] = bootstrap_controller
    created = add_profile(env.config_file, name, values, replace=replace)
    for warning in unknown_setting_warnings(values):
        env.err(warning)
    if use:
        use_profile(env.config_file, name)
    where = f"new file {env.config_file}" if created else str(env.config_file)
    env.out(f"Profile {name} saved in {where}." + (" It is now the default." if use else ""))


@profile_app.command("use")
@guarded
def use_command(name: NameArg) -> None:
    """Make a profile the default one."""
    from kcli.workflows.profiles import use_profile

    env = env_of()
    use_profile(env.config_file, name)
    env.out(f"Default profile is now {name}.")


def register(app: typer.Typer) -> None:
    """Add this tool's commands to the root app."""
    app.add_typer(profile_app)
