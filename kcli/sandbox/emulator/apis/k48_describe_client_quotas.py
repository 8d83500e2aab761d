"""DescribeClientQuotas (48), versions 0-1 (brokers only): quota values of user / client-id / ip entities.

Behavior:
- Brokers only, as the schema's listeners say: a controller does not advertise it (KIP-919 left it out).
- Auth: DESCRIBE_CONFIGS on the cluster, else CLUSTER_AUTHORIZATION_FAILED.
- Each component filters one entity type: EXACT (a name; null = the default entity), DEFAULT, or
  ANY (any name of that type). strict: the entity has no other types. Unknown entity types or a
  type filtered twice -> INVALID_REQUEST.
"""

from __future__ import annotations

from typing import Any

from kio.schema.errors import ErrorCode

from kcli.kafka import CLUSTER_NAME, AclOperation, ApiKey, QuotaMatchType, ResourceType
from kcli.sandbox.emulator.context import RequestContext
from kcli.sandbox.emulator.registry import Listener, api

ENTITY_TYPES = ("user", "client-id", "ip")


@api(ApiKey.DESCRIBE_CLIENT_QUOTAS, (0, 1), listeners=Listener.BROKER)
async def handle_describe_client_quotas(ctx: RequestContext, request: Any) -> Any:
    """Describe client quotas."""

    def fail(code: int, message: str) -> Any:
        return ctx.answer("DescribeClientQuotasResponse", code, message, entries=None)

    if not ctx.authorize(AclOperation.DESCRIBE_CONFIGS, ResourceType.CLUSTER, CLUSTER_NAME):
        return fail(ErrorCode.cluster_authorization_failed, "Authorization failed.")
    types = [c.entity_type for c in request.components]
    if len(set(types)) != len(types):
        return fail(ErrorCode.invalid_request, "Duplicate entity type in the filter.")
    for component in request.components:
        if component.entity_type not in ENTITY_TYPES:
            return fail(
                ErrorCode.invalid_request, f"Custom entity type {component.entity_type!r} not supported"
            )
        if component.match_type not in (
            QuotaMatchType.EXACT,
            QuotaMatchType.DEFAULT,
            QuotaMatchType.SPECIFIED,
        ):
            return fail(ErrorCode.invalid_request, f"Unknown match type {component.match_type}")
    entries = []
    for entity, values in sorted(ctx.cluster.image.quotas.items(), key=lambda kv: repr(kv[0])):
        names = dict(entity)
        if request.strict and set(names) != set(types):
            continue
        if not all(_matches(c, names) for c in request.components):
            continue
        entries.append(
            ctx.r(
                "EntryData",
                entity=tuple(ctx.r("EntityData", entity_type=t, entity_name=n) for t, n in entity),
                values=tuple(ctx.r("ValueData", key=k, value=v) for k, v in sorted(values.items())),
            )
        )
    return ctx.answer("DescribeClientQuotasResponse", 0, None, entries=tuple(entries))


def _matches(component: Any, names: dict[str, str | None]) -> bool:
    if component.entity_type not in names:
        return False
    name = names[component.entity_type]
    if component.match_type == QuotaMatchType.EXACT:
        return name == component.match
    if component.match_type == QuotaMatchType.DEFAULT:
        return name is None
    return True
