"""Config RPCs: DescribeConfigs (32, batched), IncrementalAlterConfigs (44), and entity listing.

Behavior:
- DescribeConfigs sends many resources in one request: node-bound resources (broker N,
  broker-logger N) go to node N, everything else to one node in one request (KIP-590 routing:
  the active controller with --bootstrap-controller, any broker otherwise). Very large batches are
  spread over the live nodes, one request per node, concurrently.
- `configuration_keys` is always null (every key): an empty list would mean "no keys" to Kafka, and
  tansu closes the connection on any non-null list.
- Per-resource error codes become ResourceError values, never exceptions; a node that cannot be
  reached fails only the resources sent to it.
- IncrementalAlterConfigs: one request per target node with every resource bound for it, or
  (to_controller) one request to the active controller with them all; validate_only for --dry-run.
Version notes: DescribeConfigs v1-v4 (v0 is not used: tansu's v0 reply is malformed; v3 adds types
and documentation), IncrementalAlterConfigs v0-v1, Metadata v1-v12, ListGroups v0-v5,
ListConfigResources v0-v1 (4.1, KIP-1142).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from kcli.client.api.wire import CallStats, failure, make, nested, request_cls, resource_error
from kcli.errors import KcliError
from kcli.kafka import ApiKey, ConfigResourceType, ConfigSource, EndpointType
from kcli.ops.config_model import ConfigEntry, ConfigSynonym, ResourceConfigs
from kcli.ops.config_spec import ConfigChanges, Entity, EntityType
from kcli.ops.resource_error import ResourceError

if TYPE_CHECKING:
    from kcli.client.admin import Admin, Target

# Above this many resources for "any node", a describe is spread over the live nodes.
SPREAD_THRESHOLD = 2000


def _node_of(entity: Entity) -> int | None:
    if entity.type in (EntityType.BROKERS, EntityType.BROKER_LOGGERS) and not entity.default and entity.name:
        return int(entity.name)
    return None


def _route(
    admin: Admin, entities: Sequence[Entity], *, altering: bool = False
) -> list[tuple[Target, list[Entity]]]:
    """Group entities by the node each must go to; spread a large any-node batch over the nodes.

    As Kafka's admin client routes them: a broker's or broker logger's resource goes to that node,
    except that through --bootstrap-controller a change to a broker's config goes to the active
    controller (it keeps every broker's dynamic config, and the brokers are not nodes the client
    knows there); changes through controllers are never spread (only the active one takes writes).
    """
    from kcli.client.admin import Target

    to_controller = altering and admin.endpoint_type is EndpointType.CONTROLLERS
    bound: dict[int, list[Entity]] = {}
    free: list[Entity] = []
    for entity in entities:
        node = _node_of(entity)
        if node is None or (to_controller and entity.type is EntityType.BROKERS):
            free.append(entity)
        else:
            bound.setdefault(node, []).append(entity)
    routes: list[tuple[Target, list[Entity]]] = [(Target.node(n), es) for n, es in bound.items()]
    nodes = sorted(admin.nodes)
    if len(free) > SPREAD_THRESHOLD and len(nodes) > 1 and not to_controller:
        share = -(-len(free) // len(nodes))
        for index, node_id in enumerate(nodes):
            chunk = free[index * share : (index + 1) * share]
            if chunk:
                routes.append((Target.node(node_id), chunk))
    elif free:
        routes.append((Target.CONTROLLER, free))
    return routes


def _entry(raw: Any) -> ConfigEntry:
    of = ConfigSource.of
    synonyms = tuple(ConfigSynonym(name=s.name, value=s.value, source=of(s.source)) for s in raw.synonyms)
    return ConfigEntry(
        name=raw.name,
        value=raw.value,
        source=of(raw.config_source),
        sensitive=bool(raw.is_sensitive),
        read_only=bool(raw.read_only),
        config_type=int(getattr(raw, "config_type", 0)),
        synonyms=synonyms,
        documentation=getattr(raw, "documentation", None),
    )


def _entries(configs: Sequence[Any], converted: dict[Any, ConfigEntry]) -> tuple[ConfigEntry, ...]:
    """The ConfigEntry of each wire entry, converted once per distinct entry (keyed by value).

    Describing many topics, most entries are the same from one topic to the next (every config at
    its default), so this converts a few dozen entries instead of hundreds of thousands.
    """
    out = []
    for raw in configs:
        entry = converted.get(raw)
        if entry is None:
            entry = converted[raw] = _entry(raw)
        out.append(entry)
    return tuple(out)


async def describe_configs(
    admin: Admin,
    entities: Sequence[Entity],
    *,
    include_synonyms: bool = True,
    include_documentation: bool = False,
    stats: CallStats | None = None,
) -> list[ResourceConfigs]:
    """DescribeConfigs for `entities` (resource types only), batched per target node, in input order."""
    from kio.static.primitive import i8

    async def one(target: Target, group: list[Entity]) -> list[ResourceConfigs]:
        def build(version: int) -> Any:
            cls = request_cls("describe_configs", version)
            resource = nested(cls, "DescribeConfigsResource")
            return make(
                cls,
                resources=tuple(
                    resource(
                        resource_type=i8(e.type.resource_type),
                        resource_name=e.resource_name,
                        configuration_keys=None,
                    )
                    for e in group
                ),
                include_synonyms=include_synonyms,
                include_documentation=include_documentation,
            )

        if stats is not None:
            stats.count("DescribeConfigs")
        try:
            response = await admin.call(ApiKey.DESCRIBE_CONFIGS, build, versions=(1, 4), target=target)
        except KcliError as error:
            return [ResourceConfigs(entity=e, error=failure(error)) for e in group]
        by_key = {(int(r.resource_type), r.resource_name): r for r in response.results}
        converted: dict[Any, ConfigEntry] = {}
        out = []
        for index, entity in enumerate(group):
            raw = by_key.get((int(entity.type.resource_type), entity.resource_name))
            if raw is None and len(response.results) == len(group):
                raw = response.results[index]
            if raw is None:
                out.append(
                    ResourceConfigs(
                        entity=entity,
                        error=ResourceError(
                            code=-1, name="MISSING_RESULT", message="the server did not describe it"
                        ),
                    )
                )
                continue
            problem = resource_error(int(raw.error_code), raw.error_message)
            if problem is not None:
                out.append(ResourceConfigs(entity=entity, error=problem))
            else:
                out.append(ResourceConfigs(entity=entity, entries=_entries(raw.configs, converted)))
        return out

    routes = _route(admin, entities)
    groups = await asyncio.gather(*(one(target, group) for target, group in routes))
    found = {(r.entity.type, r.entity.resource_name, r.entity.default): r for g in groups for r in g}
    return [found[(e.type, e.resource_name, e.default)] for e in entities]


async def incremental_alter_configs(
    admin: Admin,
    items: Sequence[tuple[Entity, ConfigChanges]],
    *,
    validate_only: bool,
    to_controller: bool = False,
    stats: CallStats | None = None,
) -> list[ResourceError | None]:
    """IncrementalAlterConfigs for each (entity, changes); the per-resource errors, in input order.

    Broker resources go to their broker (kafka-configs' routing) unless `to_controller`: then every
    resource goes to the active controller in one request, which reassign's throttles need with
    --bootstrap-controller, where the controller quorum does not list the brokers as nodes.
    """
    from kio.static.primitive import i8

    from kcli.client.admin import Target

    changes_of = {(e.type, e.resource_name): c for e, c in items}
    entities = [e for e, _ in items]
    routes = [(Target.CONTROLLER, entities)] if to_controller else _route(admin, entities, altering=True)

    async def one(target: Target, group: list[Entity]) -> dict[tuple[EntityType, str], ResourceError | None]:
        def build(version: int) -> Any:
            cls = request_cls("incremental_alter_configs", version)
            resource = nested(cls, "AlterConfigsResource")
            alterable = nested(cls, "AlterableConfig")
            return cls(
                resources=tuple(
                    resource(
                        resource_type=i8(e.type.resource_type),
                        resource_name=e.resource_name,
                        configs=tuple(
                            alterable(name=c.key, config_operation=i8(int(c.op)), value=c.value)
                            for c in changes_of[(e.type, e.resource_name)].changes
                        ),
                    )
                    for e in group
                ),
                validate_only=validate_only,
            )

        if stats is not None:
            stats.count("IncrementalAlterConfigs")
        try:
            response = await admin.call(
                ApiKey.INCREMENTAL_ALTER_CONFIGS, build, versions=(0, 1), target=target
            )
            for _retry in range(3):
                # Every resource NOT_CONTROLLER: the controller moved before applying anything (the
                # error is per resource here, not top-level), so find the new one and send it again.
                if not response.responses or any(int(r.error_code) != 41 for r in response.responses):
                    break
                await asyncio.sleep(admin.config.retry_backoff_ms / 1000)
                await admin.describe_cluster()
                response = await admin.call(
                    ApiKey.INCREMENTAL_ALTER_CONFIGS, build, versions=(0, 1), target=target
                )
        except KcliError as error:
            return {(e.type, e.resource_name): failure(error) for e in group}
        by_key = {(int(r.resource_type), r.resource_name): r for r in response.responses}
        out: dict[tuple[EntityType, str], ResourceError | None] = {}
        for index, entity in enumerate(group):
            raw = by_key.get((int(entity.type.resource_type), entity.resource_name))
            if raw is None and len(response.responses) == len(group):
                raw = response.responses[index]
            out[(entity.type, entity.resource_name)] = (
                ResourceError(code=-1, name="MISSING_RESULT", message="the server did not report on it")
                if raw is None
                else resource_error(int(raw.error_code), raw.error_message)
            )
        return out

    results: dict[tuple[EntityType, str], ResourceError | None] = {}
    for part in await asyncio.gather(*(one(t, g) for t, g in routes)):
        results.update(part)
    return [results[(e.type, e.resource_name)] for e, _ in items]


# --- enumeration (describe without a name) -----------------------------------------------------------


async def list_config_resources(admin: Admin, resource_type: ConfigResourceType) -> list[str]:
    """Names of resources of one type with configs (ListConfigResources, KIP-1142).

    v0 (ListClientMetricsResources) takes no types and its answers carry none: they list
    client-metrics subscriptions only. Any other type needs v1; a server without it raises
    UnsupportedByServer.
    """
    from kio.static.primitive import i8

    from kcli.client.admin import Target
    from kcli.client.errors import check

    def build(version: int) -> Any:
        cls = request_cls("list_config_resources", version)
        return make(cls, resource_types=(i8(int(resource_type)),))

    versions = (0, 1) if resource_type is ConfigResourceType.CLIENT_METRICS else (1, 1)
    response = await admin.call(ApiKey.LIST_CONFIG_RESOURCES, build, versions=versions, target=Target.ANY)
    check(int(response.error_code), None, what="ListConfigResources")
    return sorted(
        r.resource_name
        for r in response.config_resources
        if int(getattr(r, "resource_type", ConfigResourceType.CLIENT_METRICS)) == int(resource_type)
    )


async def list_group_names(admin: Admin) -> list[str]:
    """Every group to describe: ListGroups' ids and the groups that have configs, as kafka-configs
    does since Kafka 4.1 (a group with configs but no members is known to ListConfigResources only)."""
    import contextlib

    from kcli.client.errors import UnsupportedByServer
    from kcli.ops.java_order import hash_set_order, string_hash

    # Kafka's Admin joins the brokers' ListGroups answers in a HashMap by group id: kafka-configs
    # describes them in its order (of one bucket's ids, the order the answers came in: here sorted),
    # then the groups only ListConfigResources knows.
    names = hash_set_order(await list_group_ids(admin), string_hash)
    # Before 4.1 (no ListConfigResources v1) the groups ListGroups knows are all there is.
    with contextlib.suppress(UnsupportedByServer):
        known = set(names)
        names += [n for n in await list_config_resources(admin, ConfigResourceType.GROUP) if n not in known]
    return names


async def list_group_ids(admin: Admin) -> list[str]:
    """Group ids from every broker (ListGroups fan-out)."""
    from kcli.client.errors import check

    def build(node_id: int, version: int) -> Any:
        return make(request_cls("list_groups", version))

    replies = await admin.call_each(sorted(admin.nodes), ApiKey.LIST_GROUPS, build, versions=(0, 5))
    ids: set[str] = set()
    for reply in replies.values():
        if isinstance(reply, KcliError):
            raise reply
        check(int(reply.error_code), None, what="ListGroups")
        ids.update(g.group_id for g in reply.groups)
    return sorted(ids)
