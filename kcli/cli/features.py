"""`kcli features`: kafka-features.sh (describe, upgrade, downgrade, disable, version-mapping, feature-dependencies).

Connection options go before the subcommand, as kafka-features.sh takes them; they are accepted
after it too.
"""

from __future__ import annotations

from typing import Annotated

import typer

from kcli.cli import connection_options
from kcli.cli.common import OutputOpt, env_of, guarded, java_int, run_admin, tool_group
from kcli.errors import PartialFailure
from kcli.render import OutputFormat, emit

app = tool_group(
    "features", "Describe and change cluster feature levels (kafka-features.sh).", connection=True
)


FeatureOpt = Annotated[
    list[str] | None,
    typer.Option("--feature", help="A feature level to set: NAME=LEVEL (repeatable)."),
]
DisableFeatureOpt = Annotated[
    list[str] | None,
    typer.Option("--feature", help="A feature to disable: NAME (repeatable)."),
]
MetadataOpt = Annotated[
    str | None,
    typer.Option(
        "--metadata", help="The metadata.version to set, e.g. 3.9-IV0 (deprecated: use --release-version)."
    ),
]
ReleaseVersionOpt = Annotated[
    str | None,
    typer.Option(
        "--release-version", help="Set metadata.version and every feature to this release's defaults."
    ),
]
DryRunOpt = Annotated[bool, typer.Option("--dry-run", help="Validate only (ValidateOnly); change nothing.")]
UnsafeOpt = Annotated[bool, typer.Option("--unsafe", help="Allow a downgrade that may lose metadata.")]


@app.command()
@guarded
def describe(
    ctx: typer.Context,
    node_id: Annotated[
        int | None, typer.Option("--node-id", help="Describe the features of this node.")
    ] = None,
    output: OutputOpt = OutputFormat.text,
    bootstrap_server: connection_options.BootstrapServerOpt = None,
    bootstrap_controller: connection_options.BootstrapControllerOpt = None,
    command_config: connection_options.CommandConfigOpt = None,
    profile: connection_options.ProfileOpt = None,
) -> None:
    """Describe supported and finalized features (ApiVersions)."""
    from kcli.client.api import features as wire
    from kcli.errors import UsageError
    from kcli.ops.features import load_catalog
    from kcli.render import features as render

    if node_id is not None:
        java_int(node_id, "--node-id")
    if node_id is not None and node_id < 0:
        raise UsageError(f"Invalid node id {node_id}: must be non-negative.")  # FeatureCommand's words
    connection = connection_options.connection_args(
        bootstrap_server, bootstrap_controller, command_config, profile
    )
    env = env_of(ctx)
    result = run_admin(
        connection_options.client_config(connection, env), lambda admin: wire.describe(admin, node_id)
    )
    catalog = load_catalog()
    emit(
        env,
        output,
        result,
        text=lambda r: render.describe_lines(r, catalog),
        json_value=lambda r: render.describe_json(r, catalog),
        table=lambda r: render.describe_table(r, catalog),
    )


def _update(
    ctx: typer.Context,
    operation: str,
    *,
    features: list[str] | None,
    metadata: str | None,
    release_version: str | None,
    unsafe: bool,
    dry_run: bool,
    output: OutputFormat,
    connection: connection_options.ConnectionArgs,
) -> None:
    from kcli.client.api import features as wire
    from kcli.errors import KcliError
    from kcli.ops.features import Operation, UpdateRefused, load_catalog, plan_update
    from kcli.render import features as render

    env = env_of(ctx)
    try:
        plan = plan_update(
            Operation(operation),
            features=features or (),
            metadata=metadata,
            release_version=release_version,
            unsafe=unsafe,
            dry_run=dry_run,
            catalog=load_catalog(),
        )
    except KcliError as error:
        # FeatureCommand prints --metadata's deprecation before it reads the version: even when it fails
        for notice in error.notices if isinstance(error, UpdateRefused) else ():
            env.out(notice)
        raise
    for notice in plan.notices:
        env.out(notice)
    result = run_admin(
        connection_options.client_config(connection, env), lambda admin: wire.update(admin, plan)
    )
    emit(
        env,
        output,
        result,
        text=render.update_lines,
        json_value=render.update_json,
        table=render.update_table,
    )
    if result.failures:
        raise PartialFailure(render.update_failure_line(result))


@app.command()
@guarded
def upgrade(
    ctx: typer.Context,
    feature: FeatureOpt = None,
    metadata: MetadataOpt = None,
    release_version: ReleaseVersionOpt = None,
    dry_run: DryRunOpt = False,
    output: OutputOpt = OutputFormat.text,
    bootstrap_server: connection_options.BootstrapServerOpt = None,
    bootstrap_controller: connection_options.BootstrapControllerOpt = None,
    command_config: connection_options.CommandConfigOpt = None,
    profile: connection_options.ProfileOpt = None,
) -> None:
    """Upgrade features (UpdateFeatures)."""
    connection = connection_options.connection_args(
        bootstrap_server, bootstrap_controller, command_config, profile
    )
    _update(
        ctx,
        "upgrade",
        features=feature,
        metadata=metadata,
        release_version=release_version,
        unsafe=False,
        dry_run=dry_run,
        output=output,
        connection=connection,
    )


@app.command()
@guarded
def downgrade(
    ctx: typer.Context,
    feature: FeatureOpt = None,
    metadata: MetadataOpt = None,
    release_version: ReleaseVersionOpt = None,
    unsafe: UnsafeOpt = False,
    dry_run: DryRunOpt = False,
    output: OutputOpt = OutputFormat.text,
    bootstrap_server: connection_options.BootstrapServerOpt = None,
    bootstrap_controller: connection_options.BootstrapControllerOpt = None,
    command_config: connection_options.CommandConfigOpt = None,
    profile: connection_options.ProfileOpt = None,
) -> None:
    """Downgrade features (UpdateFeatures, SAFE_DOWNGRADE or with --unsafe UNSAFE_DOWNGRADE)."""
    connection = connection_options.connection_args(
        bootstrap_server, bootstrap_controller, command_config, profile
    )
    _update(
        ctx,
        "downgrade",
        features=feature,
        metadata=metadata,
        release_version=release_version,
        unsafe=unsafe,
        dry_run=dry_run,
        output=output,
        connection=connection,
    )


@app.command()
@guarded
def disable(
    ctx: typer.Context,
    feature: DisableFeatureOpt = None,
    unsafe: UnsafeOpt = False,
    dry_run: DryRunOpt = False,
    output: OutputOpt = OutputFormat.text,
    bootstrap_server: connection_options.BootstrapServerOpt = None,
    bootstrap_controller: connection_options.BootstrapControllerOpt = None,
    command_config: connection_options.CommandConfigOpt = None,
    profile: connection_options.ProfileOpt = None,
) -> None:
    """Disable features (set their level to 0)."""
    connection = connection_options.connection_args(
        bootstrap_server, bootstrap_controller, command_config, profile
    )
    _update(
        ctx,
        "disable",
        features=feature,
        metadata=None,
        release_version=None,
        unsafe=unsafe,
        dry_run=dry_run,
        output=output,
        connection=connection,
    )


@app.command("version-mapping")
@guarded
def version_mapping(
    ctx: typer.Context,
    release_version: Annotated[
        str | None,
        typer.Option(
            "--release-version", help="Release to map (default: the latest production metadata.version)."
        ),
    ] = None,
    output: OutputOpt = OutputFormat.text,
) -> None:
    """Show the feature levels a release version maps to (no cluster needed)."""
    from kcli.ops.features import load_catalog
    from kcli.ops.features import version_mapping as mapping
    from kcli.render import features as render

    result = mapping(release_version, load_catalog())
    emit(
        env_of(ctx),
        output,
        result,
        text=render.mapping_lines,
        json_value=render.mapping_json,
        table=render.mapping_table,
    )


@app.command("feature-dependencies")
@guarded
def feature_dependencies(
    ctx: typer.Context,
    feature: Annotated[
        list[str] | None,
        typer.Option("--feature", help="NAME=LEVEL whose dependencies to show (repeatable)."),
    ] = None,
    output: OutputOpt = OutputFormat.text,
) -> None:
    """Show what feature levels each given feature level requires (no cluster needed)."""
    from kcli.ops.features import feature_dependencies as dependencies
    from kcli.ops.features import load_catalog
    from kcli.render import features as render

    result = dependencies(feature or [], load_catalog())
    emit(
        env_of(ctx),
        output,
        result,
        text=render.dependencies_lines,
        json_value=render.dependencies_json,
        table=render.dependencies_table,
    )


def register(root: typer.Typer) -> None:
    """Add this tool's commands to the root app."""
    root.add_typer(app)
