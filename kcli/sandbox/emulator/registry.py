"""The table of APIs the sandbox serves: one decorator registers a handler with its versions and listeners.

ApiVersions is built from this table, so what a node advertises is exactly what it answers.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from kcli.kafka import ApiKey
from kcli.sandbox.emulator.node import Listener

if TYPE_CHECKING:
    from kcli.sandbox.emulator.context import RequestContext

__all__ = ["NOT_SERVED", "SHORT_OF_KAFKA", "ApiSpec", "Handler", "Listener", "api", "load_all", "specs_for"]


Handler = Callable[["RequestContext", Any], Awaitable[Any]]


@dataclass(frozen=True, slots=True, kw_only=True)
class ApiSpec:
    """One served API: key, schema name, the versions it answers, listeners and handler."""

    key: int
    name: str
    min_version: int
    max_version: int
    listeners: Listener
    handler: Handler
    forward: bool = False  # a broker forwards it to the active controller in an Envelope (KIP-590)
    needs_auth: bool = True  # False for the APIs allowed before SASL authentication completes
    forwards_itself: bool = False  # forward: the handler forwards what the broker cannot answer itself
    advertised_min: int | None = None  # ApiVersions' low end when below min_version (None: min_version)

    @property
    def advertised(self) -> tuple[int, int]:
        """The range ApiVersions claims: Kafka advertises Produce from 0 but answers only 3+ (KAFKA-18659)."""
        return (self.min_version if self.advertised_min is None else self.advertised_min, self.max_version)


_REGISTRY: dict[int, ApiSpec] = {}
_loaded = False


def api(
    key: ApiKey,
    versions: tuple[int, int],
    *,
    listeners: Listener = Listener.BOTH,
    forward: bool = False,
    needs_auth: bool = True,
    forwards_itself: bool = False,
    advertised_min: int | None = None,
) -> Callable[[Handler], Handler]:
    """Register `handler` for API `key` over the inclusive `versions` range (kio names its schema);
    `advertised_min` widens only what ApiVersions claims, the versions below `versions` stay refused."""

    def register(handler: Handler) -> Handler:
        _REGISTRY[key] = ApiSpec(
            key=int(key),
            name=key.name.lower(),
            min_version=versions[0],
            max_version=versions[1],
            listeners=listeners,
            handler=handler,
            forward=forward,
            needs_auth=needs_auth,
            forwards_itself=forwards_itself,
            advertised_min=advertised_min,
        )
        return handler

    return register


def load_all() -> dict[int, ApiSpec]:
    """Import every module of kcli.sandbox.emulator.apis (each registers itself) and return the table."""
    global _loaded
    if not _loaded:
        from kcli.sandbox.emulator import apis

        for info in pkgutil.iter_modules(apis.__path__):
            importlib.import_module(f"{apis.__name__}.{info.name}")
        _loaded = True
    return _REGISTRY


def specs_for(kind: Listener) -> list[ApiSpec]:
    """The APIs a node of `kind` serves, by key."""
    return [spec for key, spec in sorted(load_all().items()) if spec.listeners & kind]


# The APIs a Kafka 4.4 node advertises that the sandbox does not serve, on purpose, with the reason
# (ApiVersions may only claim what a node answers). tests/fidelity compares this with a real node.
_NO_SCHEMA = "StreamsGroupTopologyDescriptionUpdate (Kafka 4.4): kio has no schema of it to decode"
_INTER_NODE = (
    "between Kafka's own nodes: the sandbox's nodes share one process and do not speak it on the wire"
)
NOT_SERVED: dict[Listener, dict[int, str]] = {
    Listener.BROKER: {
        93: _NO_SCHEMA,
    },
    Listener.CONTROLLER: {
        **dict.fromkeys((1, 52, 53, 54, 56, 59, 62, 63, 67, 70, 73, 82), _INTER_NODE),
    },
}

# The APIs served to a lower version than a Kafka 4.4 broker's: key -> (Kafka's highest version, why).
# Clients negotiate down to the sandbox's range; tests/fidelity compares this with a real node.
_NO_NEWER_SCHEMA = "kio 0.6.5 has no schema of Kafka 4.4's newest version"
SHORT_OF_KAFKA: dict[int, tuple[int, str]] = {
    28: (6, _NO_NEWER_SCHEMA),  # TxnOffsetCommit v6: topic ids (KIP-1319)
    42: (3, _NO_NEWER_SCHEMA),  # DeleteGroups v3: a per-group ErrorMessage
    88: (1, _NO_NEWER_SCHEMA),  # StreamsGroupHeartbeat v1 (KIP-1331)
    89: (1, _NO_NEWER_SCHEMA),  # StreamsGroupDescribe v1 (KIP-1331)
}
