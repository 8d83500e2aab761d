"""Replication throttles of a reassignment: set on execute, cleared on verify and cancel."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from kcli.errors import KcliError
from kcli.ops.reassign.throttle import BROKER_THROTTLE_KEYS, TOPIC_THROTTLE_KEYS, ThrottlePlan

if TYPE_CHECKING:
    from kcli.client.admin import Admin


async def set_throttles(admin: Admin, plan: ThrottlePlan) -> None:
    """SET the plan's topic and broker configs; any failure stops --execute before it starts moving."""
    from kcli.kafka import ConfigOp
    from kcli.ops.config_spec import ConfigChange, ConfigChanges

    topic = {
        t: ConfigChanges(changes=tuple(ConfigChange(key=k, op=ConfigOp.SET, value=v) for k, v in c.items()))
        for t, c in plan.topic_configs.items()
    }
    broker = {
        b: ConfigChanges(changes=tuple(ConfigChange(key=k, op=ConfigOp.SET, value=v) for k, v in c.items()))
        for b, c in plan.broker_configs.items()
    }
    failures = await alter_configs(admin, topic, broker)
    if failures:
        raise KcliError(
            "could not set the replication throttles: "
            + "; ".join(failures)
            + "; no reassignment was started"
        )


async def clear_throttles(admin: Admin, brokers: Sequence[int], topics: Sequence[str]) -> list[str]:
    """DELETE the throttle configs on `brokers` and `topics`; the failures, one line each."""
    from kcli.kafka import ConfigOp
    from kcli.ops.config_spec import ConfigChange, ConfigChanges

    topic_changes = ConfigChanges(
        changes=tuple(ConfigChange(key=k, op=ConfigOp.DELETE) for k in TOPIC_THROTTLE_KEYS)
    )
    broker_changes = ConfigChanges(
        changes=tuple(ConfigChange(key=k, op=ConfigOp.DELETE) for k in BROKER_THROTTLE_KEYS)
    )
    return await alter_configs(
        admin, dict.fromkeys(topics, topic_changes), dict.fromkeys(brokers, broker_changes)
    )


async def alter_configs(
    admin: Admin, topics: Mapping[str, object], brokers: Mapping[int, object]
) -> list[str]:
    """IncrementalAlterConfigs for topic and broker resources; returns failure lines.

    With brokers, kcli.client.api.configs routes each broker resource to its broker. With
    --bootstrap-controller every resource goes to the active controller in one request, since the
    controller quorum does not list the brokers as nodes.
    """
    from kcli.client.api.configs import incremental_alter_configs
    from kcli.kafka import EndpointType
    from kcli.ops.config_spec import ConfigChanges, Entity, EntityType

    items: list[tuple[Entity, ConfigChanges]] = []
    for t, c in topics.items():
        assert isinstance(c, ConfigChanges)
        items.append((Entity(type=EntityType.TOPICS, name=t), c))
    for b, c in brokers.items():
        assert isinstance(c, ConfigChanges)
        items.append((Entity(type=EntityType.BROKERS, name=str(b)), c))
    if not items:
        return []
    if admin.endpoint_type is EndpointType.CONTROLLERS:
        from kcli.client.api.reassign import alter_configs_on_controller

        results = await alter_configs_on_controller(admin, items)
    else:
        results = await incremental_alter_configs(admin, items, validate_only=False)
    return [
        f"{entity.label}: {err.line()}"
        for (entity, _), err in zip(items, results, strict=True)
        if err is not None
    ]
