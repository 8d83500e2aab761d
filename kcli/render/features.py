"""Output of `kcli features`: kafka-features.sh lines, rich tables and JSON."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kcli.ops.features import (
    METADATA_VERSION,
    FeatureCatalog,
    FeatureDependencies,
    FeatureDescription,
    Operation,
    UpdateOutcome,
    UpdateResult,
    VersionMapping,
    level_text,
)

if TYPE_CHECKING:
    from rich.console import RenderableType


# ---------------------------------------------------------------------------------------- describe


# FeatureCommand pads its describe columns from Kafka 4.3 on (tabs before): kcli answers in the form of
# the answering node's release, read from the highest metadata.version it supports (4.3-IV0 = level 30),
# so that a runbook written against that cluster's own kafka-features.sh keeps parsing (`cut -f` on tabs).
PADDED_FROM_LEVEL = 30


def padded(result: FeatureDescription) -> bool:
    """Whether the node that answered runs Kafka 4.3 or later (its metadata.version range says so)."""
    levels = [f.supported_max for f in result.features if f.name == METADATA_VERSION]
    return bool(levels) and levels[0] >= PADDED_FROM_LEVEL


def describe_lines(result: FeatureDescription, catalog: FeatureCatalog) -> list[str]:
    """One `Feature: <name> SupportedMinVersion: ...` line per supported feature, as FeatureCommand prints.

    Kafka 4.3+ pads the columns (`%-40s  SupportedMinVersion: %-15s  ...`); 4.0-4.2 separate them with
    tabs: the form follows the answering node's release (`padded`).
    """
    lines = []
    wide = padded(result)
    for feature in result.features:
        epoch = "-" if feature.epoch is None else str(feature.epoch)
        cells = (
            feature.name,
            level_text(feature.name, feature.supported_min, catalog),
            level_text(feature.name, feature.supported_max, catalog),
            level_text(feature.name, feature.finalized_level, catalog),
        )
        if wide:
            lines.append(
                f"Feature: {cells[0]:<40}  SupportedMinVersion: {cells[1]:<15}  "
                f"SupportedMaxVersion: {cells[2]:<15}  FinalizedVersionLevel: {cells[3]:<15}  Epoch: {epoch}"
            )
        else:
            lines.append(
                f"Feature: {cells[0]}\tSupportedMinVersion: {cells[1]}\tSupportedMaxVersion: {cells[2]}\t"
                f"FinalizedVersionLevel: {cells[3]}\tEpoch: {epoch}"
            )
    return lines


def describe_json(result: FeatureDescription, catalog: FeatureCatalog) -> dict[str, Any]:
    return {
        "node": result.node,
        "finalized_epoch": result.finalized_epoch,
        "features": [
            {
                "name": feature.name,
                "supported_min_version": feature.supported_min,
                "supported_max_version": feature.supported_max,
                "finalized_version_level": feature.finalized_level,
                "epoch": feature.epoch,
                **(
                    {
                        "supported_min_release": level_text(feature.name, feature.supported_min, catalog),
                        "supported_max_release": level_text(feature.name, feature.supported_max, catalog),
                        "finalized_release": level_text(feature.name, feature.finalized_level, catalog),
                    }
                    if feature.name == METADATA_VERSION
                    else {}
                ),
            }
            for feature in result.features
        ],
    }


def describe_table(result: FeatureDescription, catalog: FeatureCatalog) -> RenderableType:
    from rich.table import Table

    title = f"Features (node {result.node})" if result.node else "Features"
    table = Table(title=title)
    for column in ("Feature", "SupportedMin", "SupportedMax", "Finalized", "Epoch"):
        table.add_column(column)
    for feature in result.features:
        finalized = level_text(feature.name, feature.finalized_level, catalog)
        behind = 0 < feature.finalized_level < feature.supported_max
        table.add_row(
            feature.name,
            level_text(feature.name, feature.supported_min, catalog),
            level_text(feature.name, feature.supported_max, catalog),
            f"[yellow]{finalized}[/]" if behind else finalized,
            "-" if feature.epoch is None else str(feature.epoch),
        )
    return table


# ------------------------------------------------------------------------------------------ update


def _outcome_line(result: UpdateResult, outcome: UpdateOutcome) -> str:
    # Worded by the operation, as FeatureCommand does: `downgrade --feature f=0` says "downgraded to 0".
    verb = result.operation.value
    disable = result.operation is Operation.disable
    if outcome.error is None:
        will = "can be" if result.dry_run else "was"
        done = "disabled." if disable else f"{verb}d to {outcome.level}."
        return f"{outcome.feature} {will} {done}"
    could = "Can not" if result.dry_run else "Could not"
    what = f"disable {outcome.feature}" if disable else f"{verb} {outcome.feature} to {outcome.level}"
    return f"{could} {what}. {outcome.error}"


def update_lines(result: UpdateResult) -> list[str]:
    """One line per feature, sorted by name (`<f> was upgraded to <n>.`, `Could not ...`)."""
    return [_outcome_line(result, outcome) for outcome in sorted(result.outcomes, key=lambda o: o.feature)]


def update_failure_line(result: UpdateResult) -> str:
    """The stderr summary when any update failed."""
    return f"{result.failures} out of {len(result.outcomes)} operation(s) failed."


def update_json(result: UpdateResult) -> dict[str, Any]:
    return {
        "operation": result.operation.value,
        "dry_run": result.dry_run,
        "results": [
            {"feature": o.feature, "level": o.level, "ok": o.error is None, "error": o.error}
            for o in sorted(result.outcomes, key=lambda o: o.feature)
        ],
        "failed": result.failures,
    }


def update_table(result: UpdateResult) -> RenderableType:
    from rich.table import Table

    table = Table(title=f"{result.operation.value}{' (dry run)' if result.dry_run else ''}")
    for column in ("Feature", "Level", "Result"):
        table.add_column(column)
    for outcome in sorted(result.outcomes, key=lambda o: o.feature):
        status = "[green]ok[/]" if outcome.error is None else f"[red]{outcome.error}[/]"
        table.add_row(outcome.feature, str(outcome.level), status)
    return table


# ----------------------------------------------------------------- version-mapping and dependencies


def mapping_lines(result: VersionMapping) -> list[str]:
    lines = [f"metadata.version={result.metadata_level} ({result.release_version})"]
    lines.extend(f"{name}={level}" for name, level in result.features)
    return lines


def mapping_json(result: VersionMapping) -> dict[str, Any]:
    return {
        "release_version": result.release_version,
        "metadata_version": result.metadata_level,
        "features": dict(result.features),
    }


def mapping_table(result: VersionMapping) -> RenderableType:
    from rich.table import Table

    table = Table(title=f"Release {result.release_version}")
    table.add_column("Feature")
    table.add_column("Default level")
    table.add_row(METADATA_VERSION, str(result.metadata_level))
    for name, level in result.features:
        table.add_row(name, str(level))
    return table


def dependencies_lines(results: tuple[FeatureDependencies, ...]) -> list[str]:
    lines: list[str] = []
    for item in results:
        if item.feature == METADATA_VERSION:
            lines.append(f"{item.feature}={item.level} ({item.release}) has no dependencies.")
            continue
        if not item.requires:
            lines.append(f"{item.feature}={item.level} has no dependencies.")
            continue
        lines.append(f"{item.feature}={item.level} requires:")
        for dep in item.requires:
            suffix = f" ({dep.release})" if dep.feature == METADATA_VERSION else ""
            lines.append(f"    {dep.feature}={dep.level}{suffix}")
    return lines


def dependencies_json(results: tuple[FeatureDependencies, ...]) -> list[dict[str, Any]]:
    return [
        {
            "feature": item.feature,
            "level": item.level,
            "release": item.release,
            "requires": [
                {"feature": d.feature, "level": d.level, "release": d.release} for d in item.requires
            ],
        }
        for item in results
    ]


def dependencies_table(results: tuple[FeatureDependencies, ...]) -> RenderableType:
    from rich.table import Table

    table = Table(title="Feature dependencies")
    table.add_column("Feature")
    table.add_column("Requires")
    for item in results:
        needs = ", ".join(
            f"{d.feature}={d.level}" + (f" ({d.release})" if d.release else "") for d in item.requires
        )
        label = f"{item.feature}={item.level}" + (f" ({item.release})" if item.release else "")
        table.add_row(label, needs or "-")
    return table
