"""What a handler sees of one request: the cluster, the answering node, version, principal."""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from kcli.kafka import ResourceType
from kcli.sandbox.emulator.wire import make

if TYPE_CHECKING:
    from kcli.sandbox.emulator.node import Node
    from kcli.sandbox.emulator.view import ClusterView

ZERO = datetime.timedelta(0)


@dataclass(slots=True, kw_only=True)
class RequestContext:
    """One request being answered by one node."""

    cluster: ClusterView
    node: Node
    api_key: int
    version: int
    header: Any
    response_module: Any
    principal: str = "User:ANONYMOUS"
    client_host: str = "127.0.0.1"
    forwarded: bool = False  # unwrapped from an Envelope by the controller
    extra: dict[str, Any] = field(default_factory=dict)

    def r(self, struct: str, /, **values: Any) -> Any:
        """Build response struct `struct` of this version (fields the version lacks are dropped)."""
        return make(getattr(self.response_module, struct), **values)

    def answer(self, response: str, error_code: int, error_message: str | None, /, **values: Any) -> Any:
        """Build a whole-request response `response`: its error (0 for none), unthrottled."""
        return self.r(
            response, throttle_time=ZERO, error_code=error_code, error_message=error_message, **values
        )

    def refuse_cluster(self, response: str, /, **values: Any) -> Any:
        """The whole-request `response` refusing a principal not allowed the operation on the cluster."""
        from kio.schema.errors import ErrorCode

        return self.answer(
            response, ErrorCode.cluster_authorization_failed, "Authorization failed.", **values
        )

    @property
    def is_broker(self) -> bool:
        return self.node.is_broker

    def authorize(self, operation: int, resource_type: ResourceType, resource_name: str) -> bool:
        """Whether this principal may do `operation` on the resource (always true without --authorizer)."""
        if not self.cluster.settings.authorizer:
            return True
        from kcli.sandbox.emulator.authorizer import authorize

        return authorize(
            self.cluster, self.principal, self.client_host, operation, resource_type, resource_name
        )
