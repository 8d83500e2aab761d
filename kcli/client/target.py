"""Where an admin request goes: any live node, the active controller, or one node by id.

With --bootstrap-controller, Target.CONTROLLER is the active controller; with brokers it is any
broker, which forwards the write to the controller (KIP-590). kcli.client.admin routes by it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar


@dataclass(frozen=True, slots=True)
class Target:
    """Where a request goes: Target.ANY, Target.CONTROLLER or Target.node(id)."""

    kind: str  # "any" | "controller" | "node"
    node_id: int | None = None

    ANY: ClassVar[Target]
    CONTROLLER: ClassVar[Target]

    @staticmethod
    def node(node_id: int) -> Target:
        return Target("node", int(node_id))

    def __str__(self) -> str:
        return f"node {self.node_id}" if self.kind == "node" else self.kind


Target.ANY = Target("any")
Target.CONTROLLER = Target("controller")
