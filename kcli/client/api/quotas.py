"""Client quota RPCs: DescribeClientQuotas (48) and AlterClientQuotas (49).

Behavior:
- Describe uses the "containsOnly" form kafka-configs.sh uses (strict=true): a named component
  matches exactly (match type 0), a default component the default entity (1), a component with
  neither any entity of that kind (2).
- Alter sends one entry (the compound entity, default components as null names) with one op per
  key: a value to set, or remove=true; validate_only for --dry-run.
- Describe is a broker API (a Kafka controller does not serve it, KIP-919): callers refuse it with
  --bootstrap-controller first. Alter goes to the active controller, which serves it, or through a
  broker, which forwards it.
Version notes: both v0-v1 (v1 is the flexible encoding).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from kcli.client.api.wire import CallStats, make, nested, request_cls, resource_error
from kcli.kafka import ApiKey, QuotaMatchType
from kcli.ops.config_model import QuotaEntity, QuotaEntry
from kcli.ops.config_spec import QUOTA_ENTITY_KEY, Entity
from kcli.ops.quota_plan import QuotaChange
from kcli.ops.resource_error import ResourceError

if TYPE_CHECKING:
    from kcli.client.admin import Admin

_ORDER = {"user": 0, "client-id": 1, "ip": 2}


async def describe_client_quotas(
    admin: Admin, components: Sequence[Entity], *, stats: CallStats | None = None
) -> list[QuotaEntry]:
    """Quota entries matching exactly these components (named, default, or any of the kind)."""
    from kio.static.primitive import i8

    from kcli.client.admin import Target
    from kcli.client.errors import check

    def build(version: int) -> Any:
        cls = request_cls("describe_client_quotas", version)
        component = nested(cls, "ComponentData")
        data = []
        for entity in components:
            if entity.default:
                match_type, match = QuotaMatchType.DEFAULT, None
            elif entity.name is not None:
                match_type, match = QuotaMatchType.EXACT, entity.name
            else:
                match_type, match = QuotaMatchType.SPECIFIED, None
            data.append(
                component(entity_type=QUOTA_ENTITY_KEY[entity.type], match_type=i8(match_type), match=match)
            )
        return make(cls, components=tuple(data), strict=True)

    if stats is not None:
        stats.count("DescribeClientQuotas")
    response = await admin.call(ApiKey.DESCRIBE_CLIENT_QUOTAS, build, versions=(0, 1), target=Target.ANY)
    check(int(response.error_code), response.error_message, what="DescribeClientQuotas")
    out = []
    for entry in response.entries or ():
        parts = sorted(
            ((e.entity_type, e.entity_name) for e in entry.entity), key=lambda p: _ORDER.get(p[0], 9)
        )
        out.append(
            QuotaEntry(
                entity=QuotaEntity(components=tuple(parts)),
                values={v.key: float(v.value) for v in entry.values},
            )
        )
    return sorted(out, key=lambda q: [(k, n or "") for k, n in q.entity.components])


async def alter_client_quotas(
    admin: Admin,
    components: Sequence[Entity],
    changes: Sequence[QuotaChange],
    *,
    validate_only: bool,
    stats: CallStats | None = None,
) -> ResourceError | None:
    """Set or remove quota keys on one compound entity; its error, or None."""
    from kio.static.primitive import f64

    from kcli.client.admin import Target

    def build(version: int) -> Any:
        cls = request_cls("alter_client_quotas", version)
        entry_cls = nested(cls, "EntryData")
        entity_cls = nested(cls, "EntityData")
        op_cls = nested(cls, "OpData")
        entity = tuple(
            entity_cls(entity_type=QUOTA_ENTITY_KEY[e.type], entity_name=None if e.default else e.name)
            for e in components
        )
        ops = tuple(
            op_cls(key=c.key, value=f64(c.value if c.value is not None else 0.0), remove=c.value is None)
            for c in changes
        )
        return cls(entries=(entry_cls(entity=entity, ops=ops),), validate_only=validate_only)

    if stats is not None:
        stats.count("AlterClientQuotas")
    response = await admin.call(ApiKey.ALTER_CLIENT_QUOTAS, build, versions=(0, 1), target=Target.CONTROLLER)
    if not response.entries:
        return ResourceError(
            code=-1, name="MISSING_RESULT", message="the server did not report on the entity"
        )
    for entry in response.entries:
        error = resource_error(int(entry.error_code), entry.error_message)
        if error is not None:
            return error
    return None
