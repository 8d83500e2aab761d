"""Features on the wire: ApiVersions (supported and finalized features) and UpdateFeatures (57).

Behavior:
- describe asks one node: --node-id if given, else the active controller with
  --bootstrap-controller, else any broker (Kafka's LeastLoadedBrokerOrActiveKController).
- UpdateFeatures goes to the active controller with --bootstrap-controller; through any broker
  otherwise (the broker forwards it, KIP-590).
- A top-level error fails every feature with that error; v0/v1 responses carry per-feature results;
  v2 (Kafka 4.0) no longer lists them, so no top-level error means every feature succeeded.

Version notes: UpdateFeatures v0 has AllowDowngrade instead of UpgradeType and no ValidateOnly, so
--dry-run and --unsafe need v1+.
"""

from __future__ import annotations

import sys
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from kcli.errors import KcliError
from kcli.kafka import ApiKey, FeatureUpgradeType
from kcli.ops.features import FeatureDescription, UpdateOutcome, UpdatePlan, UpdateResult, describe_features

if TYPE_CHECKING:
    from kcli.client.admin import Admin

UPDATE_FEATURES_VERSIONS = (0, 2)


def description_from_api_versions(response: Any, *, node: int | None = None) -> FeatureDescription:
    """Supported and finalized features of a kio ApiVersionsResponse (v3+ carries them as tags)."""
    supported = [
        (str(f.name), int(f.min_version), int(f.max_version))
        for f in getattr(response, "supported_features", ())
    ]
    finalized = {str(f.name): int(f.max_version_level) for f in getattr(response, "finalized_features", ())}
    epoch = getattr(response, "finalized_features_epoch", None)
    return describe_features(
        supported=supported, finalized=finalized, epoch=None if epoch is None else int(epoch), node=node
    )


async def describe(admin: Admin, node_id: int | None = None) -> FeatureDescription:
    """The features of one node (see module doc for which)."""
    from kcli.kafka import EndpointType

    if node_id is None and admin.endpoint_type is EndpointType.CONTROLLERS and admin.controller_id >= 0:
        node_id = admin.controller_id
    if node_id is not None and node_id not in admin.nodes:
        raise KcliError(
            f"node {node_id} is not a known {'controller' if admin.endpoint_type is EndpointType.CONTROLLERS else 'broker'}",
            hint=f"known: {', '.join(str(n) for n in sorted(admin.nodes))}",
        )
    response = await admin.api_versions(node_id)
    return description_from_api_versions(response, node=node_id)


def _build_update(plan: UpdatePlan, timeout_ms: int) -> Any:
    from kio.static.primitive import i8, i16, i32Timedelta

    def build(version: int) -> Any:
        from kcli.client.protocol import request_class

        if version == 0 and (
            plan.dry_run or any(u.upgrade_type is FeatureUpgradeType.UNSAFE_DOWNGRADE for u in plan.updates)
        ):
            raise KcliError(
                "this cluster only offers UpdateFeatures v0, which has no --dry-run or --unsafe",
                hint="upgrade the cluster to Kafka 3.3 or later",
            )
        cls = request_class("update_features", version)
        key_cls = sys.modules[cls.__module__].FeatureUpdateKey
        if version == 0:
            keys = tuple(
                key_cls(
                    feature=u.feature,
                    max_version_level=i16(u.level),
                    allow_downgrade=u.upgrade_type is not FeatureUpgradeType.UPGRADE,
                )
                for u in plan.updates
            )
            return cls(timeout=i32Timedelta.parse(timedelta(milliseconds=timeout_ms)), feature_updates=keys)
        keys = tuple(
            key_cls(feature=u.feature, max_version_level=i16(u.level), upgrade_type=i8(int(u.upgrade_type)))
            for u in plan.updates
        )
        return cls(
            timeout=i32Timedelta.parse(timedelta(milliseconds=timeout_ms)),
            feature_updates=keys,
            validate_only=plan.dry_run,
        )

    return build


def result_from_response(plan: UpdatePlan, response: Any) -> UpdateResult:
    """Map an UpdateFeaturesResponse (any version) to one outcome per planned feature."""
    from kcli.client.errors import error_info

    def message(code: int, text: str | None) -> str:
        return text if text and text not in ("NONE", "No error.") else error_info(code).message

    top = int(response.error_code)
    per_feature = {str(r.feature): r for r in getattr(response, "results", ())}
    outcomes = []
    for update in plan.updates:
        error: str | None = None
        if top != 0:
            error = message(top, response.error_message)
        elif update.feature in per_feature and int(per_feature[update.feature].error_code) != 0:
            item = per_feature[update.feature]
            error = message(int(item.error_code), item.error_message)
        outcomes.append(UpdateOutcome(feature=update.feature, level=update.level, error=error))
    return UpdateResult(operation=plan.operation, dry_run=plan.dry_run, outcomes=tuple(outcomes))


async def update(admin: Admin, plan: UpdatePlan) -> UpdateResult:
    """Send the plan as one UpdateFeatures request to the controller (or a forwarding broker)."""
    from kcli.client.admin import Target

    timeout_ms = admin.config.default_api_timeout_ms
    response = await admin.call(
        ApiKey.UPDATE_FEATURES,
        _build_update(plan, timeout_ms),
        versions=UPDATE_FEATURES_VERSIONS,
        target=Target.CONTROLLER,
        idempotent=False,
    )
    return result_from_response(plan, response)
