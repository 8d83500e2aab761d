"""AlterClientQuotas (49), versions 0-1: set or remove quota values (ClientQuotaRecords).

Behavior:
- Auth: ALTER_CONFIGS on the cluster, else CLUSTER_AUTHORIZATION_FAILED per entry.
- Entity types are user, client-id and ip, each at most once; ip stands alone. Keys are Kafka's
  quota keys (producer_byte_rate, consumer_byte_rate, request_percentage, controller_mutation_rate
  for users/clients; connection_creation_rate for ips); others -> INVALID_REQUEST; negative or
  zero rates -> INVALID_REQUEST. validate_only changes nothing.
- Brokers forward it to the active controller in an Envelope (KIP-590).
"""

from __future__ import annotations

from typing import Any

from kio.schema.errors import ErrorCode

from kcli.kafka import CLUSTER_NAME, AclOperation, ApiKey, ResourceType
from kcli.metadata import records as _records
from kcli.sandbox.context import ZERO, RequestContext
from kcli.sandbox.registry import api

R: Any = _records
CLIENT_KEYS = frozenset(
    {"producer_byte_rate", "consumer_byte_rate", "request_percentage", "controller_mutation_rate"}
)
IP_KEYS = frozenset({"connection_creation_rate"})


def _problem(entity: list[tuple[str, str | None]], ops: list[Any]) -> str | None:
    types = [t for t, _ in entity]
    if not types or len(set(types)) != len(types):
        return "Invalid quota entity: each entity type may appear once."
    if any(t not in ("user", "client-id", "ip") for t in types):
        return f"Custom entity type {types} not supported"
    if "ip" in types and len(types) > 1:
        return "Invalid quota entity combination, IP entity should not be combined with User or ClientId entities."
    keys = IP_KEYS if "ip" in types else CLIENT_KEYS
    for op in ops:
        if op.key not in keys:
            return f"Invalid configuration key {op.key}"
        if not op.remove and op.value <= 0:
            return f"Invalid value {op.value} for {op.key}: it must be positive"
    return None


@api(ApiKey.ALTER_CLIENT_QUOTAS, (0, 1), forward=True)
async def handle_alter_client_quotas(ctx: RequestContext, request: Any) -> Any:
    """Alter client quotas."""
    allowed = ctx.authorize(AclOperation.ALTER_CONFIGS, ResourceType.CLUSTER, CLUSTER_NAME)
    records: list[Any] = []
    results = []
    for entry in request.entries:
        entity = [(e.entity_type, e.entity_name) for e in entry.entity]
        code, message = 0, None
        if not allowed:
            code, message = ErrorCode.cluster_authorization_failed, "Authorization failed."
        else:
            problem = _problem(entity, list(entry.ops))
            if problem:
                code, message = ErrorCode.invalid_request, problem
            else:
                data = tuple(R.EntityData(entity_type=t, entity_name=n) for t, n in entity)
                records.extend(
                    R.ClientQuotaRecord(
                        entity=data, key=op.key, value=0.0 if op.remove else op.value, remove=op.remove
                    )
                    for op in entry.ops
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
