"""The fault commands of `kcli sandbox`, one per entry of kcli.sandbox.engine.FAULTS.

Written by scripts/sandbox-faults.py from that table; run it again after changing a fault instead of
editing this by hand. Each command opens the engine of DIR and calls the method its fault names
(kcli.cli.sandbox_common.run_fault).
"""

from __future__ import annotations

from typing import Annotated

import typer

from kcli.cli.common import OutputOpt, guarded
from kcli.cli.sandbox_common import DirOpt, run_fault
from kcli.render import OutputFormat


@guarded
def stop_node(
    node_id: Annotated[int, typer.Argument(help="Node id (brokers 1..B, controllers 101..).")],
    directory: DirOpt = None,
    output: OutputOpt = OutputFormat.text,
) -> None:
    """Stop one node: its listener closes; a broker is fenced and loses leadership."""
    run_fault("stop_node", directory, output, node_id=node_id)


@guarded
def kill_node(
    node_id: Annotated[int, typer.Argument(help="Node id (brokers 1..B, controllers 101..).")],
    directory: DirOpt = None,
    output: OutputOpt = OutputFormat.text,
) -> None:
    """Kill one real Kafka node with SIGKILL (kill -9: no orderly shutdown); real nodes only."""
    run_fault("kill_node", directory, output, node_id=node_id)


@guarded
def start_node(
    node_id: Annotated[int, typer.Argument(help="Node id (brokers 1..B, controllers 101..).")],
    directory: DirOpt = None,
    output: OutputOpt = OutputFormat.text,
) -> None:
    """Start a stopped node again on its port."""
    run_fault("start_node", directory, output, node_id=node_id)


@guarded
def add_node(
    controller: Annotated[
        bool,
        typer.Option(
            "--controller",
            help="A controller that is not a voter yet (metadata-quorum add-controller makes it one); default: a broker.",
        ),
    ] = False,
    node_id: Annotated[
        int | None, typer.Option("--id", min=0, help="Its node id (default: the next free one).")
    ] = None,
    directory: DirOpt = None,
    output: OutputOpt = OutputFormat.text,
) -> None:
    """Start a new node: a broker that holds no replicas yet, or a controller that is not a voter yet."""
    run_fault("add_node", directory, output, controller=controller, node_id=node_id)


@guarded
def replace_brokers(
    directory: DirOpt = None,
    output: OutputOpt = OutputFormat.text,
) -> None:
    """Replace every broker by one with a new id on another port (the KIP-899 rebootstrap case)."""
    run_fault("replace_brokers", directory, output)


@guarded
def failover(
    directory: DirOpt = None,
    output: OutputOpt = OutputFormat.text,
) -> None:
    """Make another controller the active one (a new leader epoch)."""
    run_fault("failover", directory, output)


@guarded
def misroute(
    node_id: Annotated[int, typer.Argument(help="Node id (brokers 1..B, controllers 101..).")],
    target: Annotated[
        int | None,
        typer.Option(
            "--as",
            help="Advertise this node's endpoint (default: a peer; the node's own id ends the misroute).",
        ),
    ] = None,
    directory: DirOpt = None,
    output: OutputOpt = OutputFormat.text,
) -> None:
    """Make a node advertise another node's endpoint (the KIP-1242 misrouting case), until it restarts."""
    run_fault("misroute", directory, output, node_id=node_id, target=target)


@guarded
def delay(
    node_id: Annotated[int, typer.Argument(help="Node id (brokers 1..B, controllers 101..).")],
    ms: Annotated[int, typer.Argument(min=0, help="Delay in milliseconds (0 removes it).")],
    directory: DirOpt = None,
    output: OutputOpt = OutputFormat.text,
) -> None:
    """Delay every response of one node by MS milliseconds."""
    run_fault("delay", directory, output, node_id=node_id, ms=ms)


# (command name, function), in the order of FAULTS
COMMANDS = (
    ("stop-node", stop_node),
    ("kill-node", kill_node),
    ("start-node", start_node),
    ("add-node", add_node),
    ("replace-brokers", replace_brokers),
    ("failover", failover),
    ("misroute", misroute),
    ("delay", delay),
)
