"""What may differ between a sandbox node and a real Kafka node of the same shape, written down once.

The comparison of tests/fidelity replaces, on both sides alike and nothing else:
1. The values that name a node (kcli.sandbox.emulator.registration.NODE_VALUES: ids, addresses, directories)
   in an entry of that name and in its synonyms of the same name: every node's host:port by
   `<broker N>` / `<controller N>` (N its id), a directory by `<dir>`.
2. The order of entries: compared by name (a real node lists them in a Java hash map's order).
3. Nothing else: names, sources, types, sensitivity, read-only flags, documentation, every synonym,
   error codes and messages must be equal. The few differences kept on purpose are named where
   the tests list their cases, each with its reason (see docs/peers.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kcli.sandbox.emulator.registration import NODE_VALUES

DIRECTORY_KEYS = ("log.dirs", "metadata.log.dir", "ssl.keystore.location", "ssl.truststore.location")


def addresses(brokers: Mapping[int, str], controllers: Mapping[int, str]) -> dict[str, str]:
    """host:port -> its placeholder, for every node of one side."""
    out = {address: f"<broker {node}>" for node, address in brokers.items()}
    out.update({address: f"<controller {node}>" for node, address in controllers.items()})
    return out


def _value(name: str, value: str | None, places: Mapping[str, str]) -> str | None:
    if value is None or name not in NODE_VALUES:
        return value
    if name in DIRECTORY_KEYS:
        return "<dir>"
    for address in sorted(places, key=len, reverse=True):
        value = value.replace(address, places[address])
    return value


def entries(
    described: Mapping[str, Mapping[str, Any]], places: Mapping[str, str]
) -> dict[str, dict[str, Any]]:
    """Entries with their node values replaced (rule 1)."""
    out = {}
    for name, entry in described.items():
        fields = dict(entry)
        fields["value"] = _value(name, entry["value"], places)
        fields["synonyms"] = [(s, _value(s, v, places), source) for s, v, source in entry["synonyms"]]
        out[name] = fields
    return out


def differences(real: Mapping[str, Mapping[str, Any]], sandbox: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """Every field in which two normalized entry sets differ, one line each (empty: equal)."""
    out = [f"only on the real node: {name}" for name in sorted(set(real) - set(sandbox))]
    out += [f"only in the sandbox: {name}" for name in sorted(set(sandbox) - set(real))]
    for name in sorted(set(real) & set(sandbox)):
        for key in real[name]:
            if real[name][key] != sandbox[name][key]:
                out.append(f"{name}.{key}: real {real[name][key]!r} != sandbox {sandbox[name][key]!r}")
    return out
