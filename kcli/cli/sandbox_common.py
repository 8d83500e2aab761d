"""What the sandbox commands of both engines share: showing a status, and saying how to reach the cluster."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kcli.cli.common import env_of
from kcli.render import OutputFormat, emit


def emit_status(status: dict[str, Any], output: OutputFormat) -> None:
    from kcli.sandbox.status import status_lines, status_panel

    emit(
        env_of(),
        output,
        status,
        text=lambda s: list(status_lines(s)),
        json_value=lambda s: s,
        table=status_panel,
    )


def quoted(path: Path) -> str:
    import shlex

    return shlex.quote(str(path))


def announce(path: Path, info: Any, profile: str | None, *, detached: bool) -> None:
    """Tell the operator (on stderr) how to stop the sandbox and how plain kcli commands reach it.

    `info` has the emulator's SandboxInfo fields it needs: cluster_id, pid (None for real nodes),
    bootstrap_servers, security and users.
    """
    env = env_of()
    if detached:
        env.err(f"Stop it with: kcli sandbox down --dir {quoted(path)}")
    else:
        process = f" (pid {info.pid})" if info.pid else ""
        env.err(
            f"Sandbox {info.cluster_id} is running in {path}{process}. "
            f"Stop it with Ctrl-C or: kcli sandbox down --dir {quoted(path)}"
        )
    settings = client_settings(path, info)
    env.err(f"export KCLI_BOOTSTRAP_SERVER={info.bootstrap_servers}")
    if settings:
        from kcli.sandbox.clientconfig import write_properties

        properties = write_properties(path / "client-admin.properties", settings)
        env.err(f"export KCLI_COMMAND_CONFIG={quoted(properties)}")
    if profile is not None:
        from kcli.workflows.profiles import add_profile, use_profile

        add_profile(
            env.config_file, profile, {"bootstrap.servers": info.bootstrap_servers, **settings}, replace=True
        )
        use_profile(env.config_file, profile)
        env.err(
            f"Profile {profile!r} in {env.config_file} now reaches this sandbox and is the default: "
            "plain `kcli cluster-id` works."
        )


def client_settings(path: Path, info: Any) -> dict[str, str]:
    from kcli.sandbox.clientconfig import client_settings
    from kcli.sandbox.settings import Security

    settings = client_settings(path, Security(info.security), info.users)
    if settings == {"security.protocol": "PLAINTEXT"}:
        return {}
    return settings
