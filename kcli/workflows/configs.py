"""`kcli configs` operations over an Admin: describe, alter (with --dry-run) and diff.

Each takes a connected Admin (passed in, never created here) and the validated values from
kcli.ops.config_spec, runs the RPCs of kcli.client.api, and returns result values for render/.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import TYPE_CHECKING

from kcli.client.errors import code_of
from kcli.errors import KcliError, UsageError
from kcli.kafka import ConfigOp, ConfigResourceType, EndpointType
from kcli.ops.config_model import (
    AlterOutcome,
    DescribeResult,
    KeyPreview,
    ResourceConfigs,
    ResourceError,
    check_deletes,
    java_double,
    preview,
    unknown_keys,
)
from kcli.ops.config_spec import ConfigChanges, Entity, EntityType, Selection
from kcli.ops.quota_plan import plan_quota_alter

INVALID_CONFIG = code_of("INVALID_CONFIG")
UNKNOWN_TOPIC_OR_PARTITION = code_of("UNKNOWN_TOPIC_OR_PARTITION")

if TYPE_CHECKING:
    from kcli.client.admin import Admin
    from kcli.client.api.wire import CallStats
    from kcli.client.config import ClientConfig
    from kcli.kafka import ScramMechanism
    from kcli.ops.quota_plan import ScramUpsert


def check_endpoint(config: ClientConfig, selection: Selection, *, altering: bool = False) -> None:
    """What a controller cannot do for configs (KIP-919), refused before connecting.

    A Kafka 4.x controller serves AlterClientQuotas and AlterUserScramCredentials, so quotas and SCRAM
    credentials can be changed through it; it cannot read them back (DescribeClientQuotas is a broker
    API, and DescribeUserScramCredentials, though its schema names the controller, has no handler there).
    """
    if config.endpoint_type is not EndpointType.CONTROLLERS:
        return
    if selection.is_quota and not altering:
        raise UsageError(
            f"configs of {'/'.join(t.value for t in selection.types)} (client quotas and SCRAM credentials) "
            "cannot be read through --bootstrap-controller: the controllers can change them but do not "
            "describe them (KIP-919); use --bootstrap-server"
        )
    for entity in selection.entities:
        if entity.name is None and not entity.default and entity.type is not EntityType.BROKERS:
            raise UsageError(
                f"listing every entity of {entity.type.value} needs a broker (it is not a controller API, KIP-919): "
                "name the entity with --entity-name, or use --bootstrap-server"
            )


async def _expand(admin: Admin, entity: Entity, stats: CallStats | None) -> list[Entity]:
    """A nameless entity (describe every one) as the named entities of the cluster."""
    from kcli.client.api import configs as api
    from kcli.client.api.topic_names import list_topic_names

    if entity.name is not None or entity.default:
        return [entity]
    kind = entity.type
    if kind is EntityType.TOPICS:
        names = await list_topic_names(admin, stats)
    elif kind is EntityType.BROKERS:
        names = [str(n) for n in sorted(admin.nodes)]
        return [Entity(type=kind, name=n) for n in names] + [Entity(type=kind, default=True)]
    elif kind is EntityType.GROUPS:
        names = await api.list_group_names(admin)
    elif kind is EntityType.CLIENT_METRICS:
        names = await api.list_config_resources(admin, ConfigResourceType.CLIENT_METRICS)
    else:
        raise UsageError(f"an entity name must be specified for {kind.value}")
    return [Entity(type=kind, name=n) for n in names]


async def describe(
    admin: Admin, selection: Selection, *, describe_all: bool, stats: CallStats | None = None
) -> DescribeResult:
    """kafka-configs.sh --describe for a validated selection."""
    if selection.is_quota:
        return await _describe_quotas(admin, selection, describe_all=describe_all, stats=stats)
    from kcli.client.api.configs import describe_configs

    missing = [] if describe_all else await _not_existing(admin, selection.entities)
    entities: list[Entity] = []
    for entity in selection.entities:
        if entity not in missing:
            entities += await _expand(admin, entity, stats)
    resources = await describe_configs(admin, entities, stats=stats) if entities else []
    kept = []
    named = {e.name for e in selection.entities if e.name is not None}  # a set: 10,000 names are common
    for resource in resources:
        named_topic = resource.entity.type is EntityType.TOPICS and resource.entity.name in named
        if (
            named_topic
            and not describe_all
            and resource.error is not None
            and resource.error.code == UNKNOWN_TOPIC_OR_PARTITION
        ):
            missing.append(resource.entity)  # Kafka ≥4.1 prints "doesn't exist" and exits 0
        else:
            kept.append(resource)
    return DescribeResult(resources=tuple(kept), describe_all=describe_all, missing=tuple(missing))


async def _not_existing(admin: Admin, entities: Sequence[Entity]) -> list[Entity]:
    """Named brokers, broker-loggers, client-metrics and groups that do not exist (Kafka >= 4.1 says
    so instead of describing them). Through brokers only: controllers know none of these lists."""
    import contextlib

    from kcli.client.api import configs as api
    from kcli.client.errors import UnsupportedByServer

    named = [e for e in entities if e.name is not None and not e.default]
    if not named or admin.endpoint_type is EndpointType.CONTROLLERS:
        return []
    kinds = {e.type for e in named}
    known: dict[EntityType, set[str] | None] = {}
    if kinds & {EntityType.BROKERS, EntityType.BROKER_LOGGERS}:
        known[EntityType.BROKERS] = known[EntityType.BROKER_LOGGERS] = {str(n) for n in admin.nodes}
    if EntityType.CLIENT_METRICS in kinds:
        known[EntityType.CLIENT_METRICS] = set(
            await api.list_config_resources(admin, ConfigResourceType.CLIENT_METRICS)
        )
    if EntityType.GROUPS in kinds:
        groups: set[str] | None = None  # unknown: a broker without ListConfigResources v1 (before 4.1)
        with contextlib.suppress(UnsupportedByServer):
            groups = set(await api.list_config_resources(admin, ConfigResourceType.GROUP))
        known[EntityType.GROUPS] = None if groups is None else groups | set(await api.list_group_ids(admin))
    out = []
    for entity in named:
        names = known.get(entity.type)
        if names is not None and entity.name not in names:
            out.append(entity)
    return out


async def _describe_quotas(
    admin: Admin, selection: Selection, *, describe_all: bool, stats: CallStats | None
) -> DescribeResult:
    from kcli.client.api.quotas import describe_client_quotas
    from kcli.client.api.scram import describe_user_scram_credentials

    quotas = await describe_client_quotas(admin, selection.entities, stats=stats)
    scram = []
    if selection.types == (EntityType.USERS,) and not selection.entities[0].default:
        name = selection.entities[0].name
        scram = await describe_user_scram_credentials(admin, None if name is None else [name], stats=stats)
    return DescribeResult(
        quotas=tuple(quotas), scram=tuple(scram), describe_all=describe_all, quota_kind=True
    )


async def alter(
    admin: Admin,
    selection: Selection,
    changes: ConfigChanges,
    *,
    dry_run: bool,
    stats: CallStats | None = None,
) -> AlterOutcome:
    """kafka-configs.sh --alter of one entity (or one users/clients pair); --dry-run validates only."""
    if selection.is_quota:
        return await _alter_quota(admin, selection, changes, dry_run=dry_run, stats=stats)
    from kcli.client.api.configs import describe_configs, incremental_alter_configs

    entity = selection.entities[0]
    if _unseen_broker(admin, entity):
        return await _alter_unseen(admin, entity, changes, dry_run=dry_run, stats=stats)
    (current,) = await describe_configs(admin, [entity], stats=stats)
    if current.error is not None:
        return AlterOutcome(entity=entity, error=current.error, dry_run=dry_run)
    check_deletes(current, changes)
    guesses = unknown_keys(current, changes)
    if not guesses and entity.type is EntityType.BROKERS and entity.default and admin.nodes:
        # The default broker lists only the defaults that are set; any broker lists every key.
        (one,) = await describe_configs(
            admin, [Entity(type=entity.type, name=str(min(admin.nodes)))], stats=stats
        )
        if one.error is None:
            guesses = unknown_keys(one, changes)
    if guesses:
        key, guess = guesses[0]
        raise UsageError(f"Unknown config '{key}' for {entity.label}", hint=f"did you mean '{guess}'?")
    (error,) = await incremental_alter_configs(admin, [(entity, changes)], validate_only=dry_run, stats=stats)
    if error is not None:
        return AlterOutcome(entity=entity, error=_with_suggestion(error, current, changes), dry_run=dry_run)
    previews = preview(current, changes)
    if dry_run:
        (after,) = await describe_configs(admin, [entity], stats=stats)
        ignored = _applied_anyway(current, after, changes)
        if ignored is not None:
            return AlterOutcome(entity=entity, error=ignored, previews=previews, dry_run=True)
    return AlterOutcome(entity=entity, previews=previews, dry_run=dry_run)


def _unseen_broker(admin: Admin, entity: Entity) -> bool:
    """A broker's own config changed through --bootstrap-controller: the active controller takes the
    change (as with kafka-configs.sh), but only that broker could describe its configs first."""
    return (
        admin.endpoint_type is EndpointType.CONTROLLERS
        and entity.type is EntityType.BROKERS
        and not entity.default
        and entity.name is not None
        and int(entity.name) not in admin.nodes
    )


async def _alter_unseen(
    admin: Admin, entity: Entity, changes: ConfigChanges, *, dry_run: bool, stats: CallStats | None
) -> AlterOutcome:
    """Alter without reading the current values first: the cluster checks the keys and values."""
    from kcli.client.api.configs import incremental_alter_configs

    (error,) = await incremental_alter_configs(admin, [(entity, changes)], validate_only=dry_run, stats=stats)
    previews = tuple(
        KeyPreview(key=c.key, op=c.op, before=None, after=c.value, before_read=False) for c in changes.changes
    )
    return AlterOutcome(entity=entity, error=error, previews=previews, dry_run=dry_run)


def _with_suggestion(error: ResourceError, current: ResourceConfigs, changes: ConfigChanges) -> ResourceError:
    """INVALID_CONFIG for a mistyped key gains a did-you-mean from the resource's own config list."""
    if error.code != INVALID_CONFIG:
        return error
    from kcli.ops.config_model import suggest

    known = [e.name for e in current.entries]
    for change in changes.changes:
        if change.key not in known:
            guess = suggest(change.key, known)
            if guess:
                return ResourceError(
                    code=error.code, name=error.name, message=error.message, hint=f"did you mean '{guess}'?"
                )
    return error


def _applied_anyway(
    before: ResourceConfigs, after: ResourceConfigs, changes: ConfigChanges
) -> ResourceError | None:
    """A server that applies a validate-only request (tansu 0.6.0 does) is reported, not trusted."""
    if after.error is not None:
        return None
    old, new = before.by_name(), after.by_name()
    for key in changes.keys:
        was, now = old.get(key), new.get(key)
        if (was.value if was else None) != (now.value if now else None):
            shown = "(sensitive)" if now is not None and now.sensitive else (now.value if now else "(unset)")
            return ResourceError(
                code=-1,
                name="VALIDATE_ONLY_IGNORED",
                message=f"the server applied the change although it was sent as validate-only: {key} is now {shown}",
                hint="this server does not honour validateOnly; check the config and restore it if needed",
            )
    return None


async def _alter_quota(
    admin: Admin, selection: Selection, changes: ConfigChanges, *, dry_run: bool, stats: CallStats | None
) -> AlterOutcome:
    from kcli.client.api.quotas import alter_client_quotas, describe_client_quotas
    from kcli.client.api.scram import alter_user_scram_credentials

    plan = plan_quota_alter(selection, changes)
    # The entity the success line names: Kafka's head entity type (entities are sorted user first).
    entity = next(e for e in selection.entities if e.type is selection.primary)
    if plan.is_scram:
        previews = tuple(
            KeyPreview(
                key=u.mechanism.mechanism_name, op=ConfigOp.SET, before=None, after=None, sensitive=True
            )
            for u in plan.scram_upserts
        ) + tuple(
            KeyPreview(key=m.mechanism_name, op=ConfigOp.DELETE, before=None, after=None, sensitive=True)
            for m in plan.scram_deletes
        )
        if dry_run:
            return AlterOutcome(entity=entity, previews=previews, dry_run=True, validated=False)
        assert entity.name is not None
        # Kafka's controller refuses two changes to one user's credentials in one request
        # (DUPLICATE_RESOURCE), so kafka-configs.sh fails on its own documented
        # `SCRAM-SHA-256=[...],SCRAM-SHA-512=[...]`: kcli sends one request per mechanism, in order.
        steps: list[tuple[tuple[ScramUpsert, ...], tuple[ScramMechanism, ...], str]] = [
            ((u,), (), u.mechanism.mechanism_name) for u in plan.scram_upserts
        ]
        steps += [((), (m,), m.mechanism_name) for m in plan.scram_deletes]
        done: list[str] = []
        for upserts, deletes, mechanism in steps:
            error = await alter_user_scram_credentials(
                admin, entity.name, upserts=upserts, deletes=deletes, stats=stats
            )
            if error is not None:
                if done:
                    error = dataclasses.replace(
                        error, message=f"{error.message} ({mechanism}; {', '.join(done)} already changed)"
                    )
                return AlterOutcome(entity=entity, error=error, previews=previews)
            done.append(mechanism)
        return AlterOutcome(entity=entity, previews=previews)
    values: dict[str, float] = {}
    if admin.endpoint_type is not EndpointType.CONTROLLERS:  # controllers cannot describe quotas
        exact = [Entity(type=e.type, name=e.name, default=e.default) for e in selection.entities]
        current = await describe_client_quotas(admin, exact, stats=stats)
        values = dict(current[0].values) if current else {}
    missing = [c.key for c in plan.quota if c.value is None and c.key not in values]
    if missing and admin.endpoint_type is not EndpointType.CONTROLLERS:
        raise KcliError(
            f"Invalid config(s): {','.join(missing)}", hint=f"no such quota set on {_quota_label(selection)}"
        )
    error = await alter_client_quotas(
        admin, selection.entities, plan.quota, validate_only=dry_run, stats=stats
    )
    previews = tuple(
        KeyPreview(
            key=c.key,
            op=ConfigOp.SET if c.value is not None else ConfigOp.DELETE,
            before=_number(values.get(c.key)),
            after=_number(c.value),
            after_is_default=c.value is None,
            before_read=admin.endpoint_type is not EndpointType.CONTROLLERS,
        )
        for c in plan.quota
    )
    return AlterOutcome(entity=entity, error=error, previews=previews, dry_run=dry_run)


def _number(value: float | None) -> str | None:
    if value is None:
        return None
    return java_double(value)


def _quota_label(selection: Selection) -> str:
    return ", ".join(e.label for e in selection.entities)


async def describe_for_diff(
    admin: Admin, entities: Sequence[Entity], *, stats: CallStats | None = None
) -> list[ResourceConfigs]:
    """The configs of named resources, for --diff (errors fail the diff: a partial diff misleads)."""
    from kcli.client.api.configs import describe_configs

    resources = await describe_configs(admin, entities, stats=stats)
    for resource in resources:
        if resource.error is not None:
            raise KcliError(f"describing configs for {resource.entity.label}: {resource.error.line()}")
    return resources
