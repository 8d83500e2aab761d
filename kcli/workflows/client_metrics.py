"""`kcli client-metrics`: client-metrics subscriptions (KIP-714) as config resources (type 16).

Behavior (ClientMetricsCommand of Kafka 4.4):
- --list: ListConfigResources of client-metrics resources (ListClientMetricsResources, its v0, on
  brokers before 4.1);
- --describe: every subscription listed (or the one named, when it is listed) with its configs
  (DescribeConfigs, in the order the broker returns them);
- --alter: one IncrementalAlterConfigs of the subscription: SET each key given a value, DELETE each
  given empty;
- --delete: DELETE every config the subscription has (DescribeConfigs, then one
  IncrementalAlterConfigs). kcli checks first that the name is listed: Kafka's tool says "Deleted"
  of a name that never existed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from kcli.errors import KcliError
from kcli.kafka import ConfigOp, ConfigResourceType
from kcli.ops.client_metrics import Request

if TYPE_CHECKING:
    from kcli.client.admin import Admin


@dataclass(frozen=True, slots=True, kw_only=True)
class Subscription:
    """One client-metrics resource and its configs (name, value), as the broker described them."""

    name: str
    configs: tuple[tuple[str, str | None], ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class Described:
    """--describe: the subscriptions, or the one named that does not exist (missing)."""

    subscriptions: tuple[Subscription, ...]
    missing: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Changed:
    """--alter / --delete: the subscription, the changes sent (key, value; None: deleted), and
    whether it existed (a --delete of a name that does not exist sends nothing)."""

    name: str
    changes: tuple[tuple[str, str | None], ...]
    existed: bool = True


async def names(admin: Admin) -> list[str]:
    from kcli.client.api.configs import list_config_resources

    return await list_config_resources(admin, ConfigResourceType.CLIENT_METRICS)


async def _configs(admin: Admin, names_: list[str]) -> list[Subscription]:
    from kcli.client.api.configs import describe_configs
    from kcli.ops.config_spec import Entity, EntityType

    described = await describe_configs(
        admin, [Entity(type=EntityType.CLIENT_METRICS, name=n) for n in names_], include_synonyms=False
    )
    out = []
    for result in described:
        if result.error is not None:
            raise KcliError(f"describing client metrics {result.entity.name}: {result.error.line()}")
        out.append(
            Subscription(
                name=result.entity.name or "", configs=tuple((e.name, e.value) for e in result.entries)
            )
        )
    return out


async def describe(admin: Admin, name: str | None) -> Described:
    listed = await names(admin)
    if name is not None and name not in listed:
        return Described(subscriptions=(), missing=name)
    return Described(subscriptions=tuple(await _configs(admin, [name] if name is not None else listed)))


async def alter(admin: Admin, request: Request) -> Changed:
    assert request.name is not None
    changes = tuple((key, value or None) for key, value in request.changes)
    await _send(admin, request.name, changes)
    return Changed(name=request.name, changes=changes)


async def delete(admin: Admin, name: str) -> Changed:
    if name not in await names(admin):
        return Changed(name=name, changes=(), existed=False)
    (subscription,) = await _configs(admin, [name])
    changes = tuple((key, None) for key, _ in subscription.configs)
    await _send(admin, name, changes)
    return Changed(name=name, changes=changes)


async def _send(admin: Admin, name: str, changes: tuple[tuple[str, str | None], ...]) -> None:
    from kcli.client.api.configs import incremental_alter_configs
    from kcli.ops.config_spec import ConfigChange, ConfigChanges, Entity, EntityType

    entity = Entity(type=EntityType.CLIENT_METRICS, name=name)
    ops = ConfigChanges(
        changes=tuple(
            ConfigChange(key=key, op=ConfigOp.SET if value is not None else ConfigOp.DELETE, value=value)
            for key, value in changes
        )
    )
    (error,) = await incremental_alter_configs(admin, [(entity, ops)], validate_only=False)
    if error is not None:
        raise KcliError(f"altering client metrics {name}: {error.line()}")
