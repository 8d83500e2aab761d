"""Text and rich renderings of a sandbox's status (pure functions of kcli.sandbox.engine.SandboxStatus)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from kcli.sandbox.engine import NodeStatus, SandboxStatus

# How each view words a node's notes: a delay, a misrouted endpoint (the node it advertises), its rack.
_LINE_NOTES = (", delay {} ms", ", misrouted (advertises node {})", ", rack {}")
_PANEL_NOTES = (" delay {} ms", " misrouted → {}", " rack {}")


def _notes(node: NodeStatus, wording: tuple[str, str, str]) -> str:
    """The notes that apply to `node` (a zero delay, no misrouting or no rack is not noted), in order."""
    values = (node.delay_ms or None, node.advertises, node.rack or None)
    return "".join(text.format(value) for text, value in zip(wording, values, strict=True) if value is not None)


def engine_text(status: SandboxStatus) -> str:
    """What the sandbox runs: the emulator, or real Kafka nodes of a release."""
    if status.engine == "kafka":
        return f"Apache Kafka {status.kafka_version}, real nodes"
    return "an emulated KRaft cluster, not Kafka"


def _known(value: Any) -> str:
    return "unknown" if value is None else str(value)


def status_lines(status: SandboxStatus) -> Iterator[str]:
    """The status as plain lines (stable for grep)."""
    yield f"Sandbox cluster {status.cluster_id} ({engine_text(status)}), security {status.security}"
    if status.active_controller_id is None:
        yield f"Active controller: unknown (the quorum did not answer), topics {_known(status.topics)}"
    else:
        yield (
            f"Active controller: {status.active_controller_id} (epoch {status.leader_epoch}), "
            f"metadata log end offset {status.log_end_offset}, topics {_known(status.topics)}"
        )
    yield f"{'ID':<6}{'ROLE':<12}{'ADDRESS':<22}STATE"
    for node in status.nodes:
        state = ("running" if node.running else "stopped") + _notes(node, _LINE_NOTES)
        yield f"{node.node_id:<6}{node.role:<12}{node.host + ':' + str(node.port):<22}{state}"
    yield f"bootstrap.servers={status.bootstrap_servers}"
    yield f"bootstrap.controllers={status.bootstrap_controllers}"


def status_panel(status: SandboxStatus) -> Any:
    """The status as a rich panel (the live view of `kcli sandbox up`)."""
    from rich.console import Group
    from rich.panel import Panel
    from rich.table import Table
    from rich.text import Text

    table = Table(box=None, expand=False)
    for column in ("ID", "ROLE", "ADDRESS", "STATE"):
        table.add_column(column)
    for node in status.nodes:
        state = ("[green]running[/]" if node.running else "[red]stopped[/]") + _notes(node, _PANEL_NOTES)
        role = node.role + (" (active)" if node.node_id == status.active_controller_id else "")
        table.add_row(str(node.node_id), role, f"{node.host}:{node.port}", state)
    title = f"kcli sandbox {status.cluster_id} — {engine_text(status)}"
    subtitle = (
        f"epoch {_known(status.leader_epoch)} · log end {_known(status.log_end_offset)} · "
        f"topics {_known(status.topics)} · security {status.security} · Ctrl-C stops"
    )
    bootstrap = Text(
        f"bootstrap.servers={status.bootstrap_servers}\nbootstrap.controllers={status.bootstrap_controllers}"
    )
    return Panel(Group(table, bootstrap), title=title, subtitle=subtitle)
