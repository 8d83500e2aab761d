"""UpdateFeatures (57), versions 0-2: change finalized feature levels (FeatureLevelRecords).

Behavior:
- Auth: ALTER on the cluster, else CLUSTER_AUTHORIZATION_FAILED.
- Each update is checked against the supported range, the upgrade type and the dependencies
  between features in kcli/data/features.toml (e.g. eligible.leader.replicas.version 1 needs
  metadata.version 4.0-IV1), as FeatureControlManager does, with its messages: dependencies hold on
  the levels the whole request proposes (the finalized levels with every update applied), so one
  request may raise a feature and what it depends on together; a feature is not checked again when
  what it depends on goes down. The first failure fails the whole request (INVALID_UPDATE_VERSION),
  nothing is applied.
- A lower level needs SAFE_DOWNGRADE or UNSAFE_DOWNGRADE (v0: allow_downgrade). metadata.version
  may go down only when no level between the two changed the metadata format
  (MetadataVersion.checkIfMetadataChanged); kraft.version cannot go down.
- Level 0 removes a feature (not metadata.version: below its supported range). validate_only (v1+) changes nothing.
- kraft.version is written as a KRaftVersionRecord control record, the others as FeatureLevelRecords;
  enabling eligible.leader.replicas.version also writes the cluster-level min.insync.replicas and
  drops broker-level ones (kcli.sandbox.emulator.configalter.elr_safety_records), as Kafka's controller does.
- Brokers forward it to the active controller in an Envelope (KIP-590).
- A failure is the top-level error, its message prefixed as QuorumController does; per-feature
  results only for a success at v0-v1.

Version notes: v1 upgrade types and validate_only; v2 drops the per-feature results.
"""

from __future__ import annotations

from typing import Any

from kio.schema.errors import ErrorCode

from kcli.kafka import CLUSTER_NAME, AclOperation, ApiKey, FeatureUpgradeType, ResourceType
from kcli.metadata import records as _records
from kcli.ops.features import load_catalog
from kcli.sandbox.emulator.configalter import ELIGIBLE_LEADER_REPLICAS, elr_safety_records
from kcli.sandbox.emulator.context import RequestContext
from kcli.sandbox.emulator.features import dependency_problem, supported_feature
from kcli.sandbox.emulator.registry import api

R: Any = _records
FAILED_ALL = "The update failed for all features since the following feature had an error: "


def _problem(
    current_levels: dict[str, int],
    proposed: dict[str, int],
    feature: str,
    level: int,
    upgrade_type: int,
    node_id: int,
) -> str | None:
    """Why Kafka 4.4's controller refuses one update (FeatureControlManager.updateFeature), in its order."""
    prefix = f"Invalid update version {level} for feature {feature}."
    current = current_levels.get(feature, 0)
    if level < 0:
        return f"{prefix} A feature version cannot be less than 0."
    spec = supported_feature(feature)
    low, high = (spec.min_level, spec.max_level) if spec is not None else (0, 0)
    if not low <= level <= high:
        reason = "does not support this feature." if high == 0 else f"only supports versions {low}-{high}"
        return f"{prefix} Local controller {node_id} {reason}"
    if level < current and upgrade_type == FeatureUpgradeType.UPGRADE:
        return f"{prefix} Can't downgrade the version of this feature without setting the upgrade type to either safe or unsafe downgrade."
    if level > current and upgrade_type != FeatureUpgradeType.UPGRADE:
        return f"{prefix} Can't downgrade to a newer version."
    if feature == "metadata.version":
        if level < current and load_catalog().downgrade_changes_metadata(current, level):
            refused = f"Unsupported metadata.version downgrade from {current} to {level}."
            if upgrade_type == FeatureUpgradeType.UNSAFE_DOWNGRADE:
                return f"{refused} Unsafe metadata downgrade is not supported in this version."
            return f"{refused} Refusing to perform the requested downgrade because it might delete metadata information."
        return None
    if feature == "kraft.version":
        return f"{prefix} Can't downgrade the version of this feature." if level < current else None
    missing = dependency_problem(feature, level, proposed)
    if missing is not None:
        other, minimum = missing
        return f"{prefix} {feature} could not be set to {level} because it depends on {other} level {minimum}"
    return None


@api(ApiKey.UPDATE_FEATURES, (0, 2), forward=True)
async def handle_update_features(ctx: RequestContext, request: Any) -> Any:
    """Update finalized features."""
    code, message = 0, None
    names = [u.feature for u in request.feature_updates]
    if not ctx.authorize(AclOperation.ALTER, ResourceType.CLUSTER, CLUSTER_NAME):
        code, message = ErrorCode.cluster_authorization_failed, "Authorization failed."
    elif len(set(names)) != len(names):
        code, message = (
            ErrorCode.invalid_request,
            "The request contains multiple updates of the same feature.",
        )
    cluster = ctx.cluster
    levels = dict(cluster.image.features)
    levels["kraft.version"] = cluster.kraft_version
    proposed = levels | {u.feature: u.max_version_level for u in request.feature_updates}
    records: list[Any] = []
    kraft: int | None = None
    if not code:
        for update in request.feature_updates:
            if ctx.version == 0:
                upgrade_type = (
                    FeatureUpgradeType.SAFE_DOWNGRADE
                    if update.allow_downgrade
                    else FeatureUpgradeType.UPGRADE
                )
            else:
                upgrade_type = update.upgrade_type
            if upgrade_type not in (
                FeatureUpgradeType.UPGRADE,
                FeatureUpgradeType.SAFE_DOWNGRADE,
                FeatureUpgradeType.UNSAFE_DOWNGRADE,
            ):
                code = ErrorCode.invalid_update_version
                message = f"Invalid update version {update.max_version_level} for feature {update.feature}. The controller does not support the given upgrade type."
                break
            problem = _problem(
                levels, proposed, update.feature, update.max_version_level, upgrade_type, ctx.node.node_id
            )
            if problem:
                code, message = ErrorCode.invalid_update_version, problem
                break
            if update.feature == "kraft.version":
                kraft = update.max_version_level
            else:
                records.append(
                    R.FeatureLevelRecord(name=update.feature, feature_level=update.max_version_level)
                )
    if code == ErrorCode.invalid_update_version and message:
        message = FAILED_ALL + message
    if not code and not getattr(request, "validate_only", False):
        if any(
            u.feature == ELIGIBLE_LEADER_REPLICAS and u.max_version_level > 0 for u in request.feature_updates
        ):
            records = elr_safety_records(cluster) + records
        await cluster.commit(records)
        if kraft is not None and kraft != cluster.kraft_version:
            await cluster.set_kraft_version(kraft)
    results = (
        tuple(
            ctx.r("UpdatableFeatureResult", feature=name, error_code=0, error_message=None) for name in names
        )
        if ctx.version <= 1 and not code
        else ()
    )
    return ctx.answer("UpdateFeaturesResponse", code, message, results=results)
