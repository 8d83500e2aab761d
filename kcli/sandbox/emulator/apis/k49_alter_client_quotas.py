"""AlterClientQuotas (49), versions 0-1: set or remove quota values (ClientQuotaRecords).

Behavior:
- Auth: ALTER_CONFIGS on the cluster, else CLUSTER_AUTHORIZATION_FAILED per entry.
- Checked as Kafka 4.4's ClientQuotaControlManager does, with its messages (INVALID_REQUEST): a key
  given twice, an empty entity, types other than user, client-id and ip, an empty name, ip with
  another type, an ip that is neither an address nor a resolvable host, keys not of the entity's
  kind (kcli.ops.quota_plan), rates not above 0, fractions or values too large for integral keys.
  A type named twice keeps its last name. Records are written only for values that change;
  validate_only changes nothing.
- Brokers forward it to the active controller in an Envelope (KIP-590).
"""

from __future__ import annotations

from typing import Any

from kio.schema.errors import ErrorCode

from kcli.kafka import CLUSTER_NAME, AclOperation, ApiKey, ResourceType
from kcli.metadata import records as _records
from kcli.ops.quota_plan import CLIENT_QUOTA_KEYS, IP_QUOTA_KEYS, QUOTA_KEY_TYPES
from kcli.sandbox.emulator.context import ZERO, RequestContext
from kcli.sandbox.emulator.registry import api

R: Any = _records
_LIMITS = {"INT": (2**31 - 1, "an INT"), "LONG": (2**63 - 1, "a LONG")}


def _entity_text(entity: list[tuple[str, str | None]]) -> str:
    """ClientQuotaEntity's toString, as Kafka's messages show an entity."""
    return "ClientQuotaEntity(entries={" + ", ".join(f"{t}={n}" for t, n in entity) + "})"


async def _problem(entity: list[tuple[str, str | None]], ops: list[Any]) -> str | None:
    """Why Kafka 4.4's controller refuses one entry (ClientQuotaControlManager), in its order."""
    keys = [op.key for op in ops]
    if len(set(keys)) != len(keys):
        return f"Ignoring duplicate entity {_entity_text(entity)}"
    if not entity:
        return "Invalid empty client quota entity"
    for kind, name in entity:
        if kind not in ("user", "client-id", "ip"):
            return f"Unhandled client quota entity type: {kind}"
        if name == "":
            return f"Empty {kind} not supported"
    types = {kind for kind, _ in entity}
    if "ip" in types:
        if types != {"ip"}:
            return "Invalid quota entity combination, IP entity shouldnot be combined with User or ClientId"
        ip = dict(entity)["ip"]
        if ip is not None and not await _resolvable(ip):
            return f"{ip} is not a valid IP or resolvable host."
    allowed = IP_QUOTA_KEYS if "ip" in types else CLIENT_QUOTA_KEYS
    for op in ops:
        if op.remove:
            continue
        if op.key not in allowed:
            return f"Invalid configuration key {op.key}"
        if op.value <= 0:
            return f"Quota {op.key} must be greater than 0"
        kind = QUOTA_KEY_TYPES[op.key]
        if kind in _LIMITS:
            limit, name = _LIMITS[kind]
            if op.value > limit:
                return f"Proposed value for {op.key} is too large for {name}."
            if abs(op.value % 1.0) > 1e-6:
                return f"{op.key} cannot be a fractional value."
    return None


async def _resolvable(host: str) -> bool:
    """An IP address, or a name the resolver knows (Kafka's InetAddress.getByName)."""
    import asyncio
    import ipaddress
    import socket

    try:
        ipaddress.ip_address(host)
        return True
    except ValueError:
        pass
    try:
        await asyncio.wait_for(asyncio.get_running_loop().getaddrinfo(host, None, type=socket.SOCK_STREAM), 5)
    except (OSError, TimeoutError):
        return False
    return True


@api(ApiKey.ALTER_CLIENT_QUOTAS, (0, 1), forward=True)
async def handle_alter_client_quotas(ctx: RequestContext, request: Any) -> Any:
    """Alter client quotas."""
    allowed = ctx.authorize(AclOperation.ALTER_CONFIGS, ResourceType.CLUSTER, CLUSTER_NAME)
    records: list[Any] = []
    results = []
    for entry in request.entries:
        # the entity is a map: a type named twice keeps its last name
        entity = list({e.entity_type: e.entity_name for e in entry.entity}.items())
        code, message = 0, None
        if not allowed:
            code, message = ErrorCode.cluster_authorization_failed, "Authorization failed."
        else:
            problem = await _problem(entity, list(entry.ops))
            if problem:
                code, message = ErrorCode.invalid_request, problem
            else:
                current = ctx.cluster.image.quotas.get(tuple(sorted(entity)), {})
                data = tuple(R.EntityData(entity_type=t, entity_name=n) for t, n in entity)
                records.extend(
                    R.ClientQuotaRecord(
                        entity=data, key=op.key, value=0.0 if op.remove else op.value, remove=op.remove
                    )
                    for op in entry.ops
                    # only what changes, as Kafka's controller writes it
                    if (op.key in current if op.remove else current.get(op.key) != op.value)
                )
        results.append(
            ctx.r(
                "EntryData",
                error_code=code,
                error_message=message,
                entity=tuple(ctx.r("EntityData", entity_type=t, entity_name=n) for t, n in entity),
            )
        )
    if not request.validate_only:
        await ctx.cluster.commit(records)
    return ctx.r("AlterClientQuotasResponse", throttle_time=ZERO, entries=tuple(results))
