"""Formatting nodes with Kafka's own StorageTool (`kafka-storage.sh format`).

Controllers of a dynamic quorum (KIP-853) are formatted with --initial-controllers (the first voter set,
each with the directory id of its metadata log dir) or --no-initial-controllers (a controller that joins
later with `metadata-quorum add-controller`); brokers and static-quorum nodes with neither. SASL users get
their SCRAM credentials at format (--add-scram), as an operator bootstraps a SCRAM cluster.
"""

from __future__ import annotations

import subprocess
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from kcli.errors import KcliError
from kcli.sandbox.kafka.distribution import STORAGE_TOOL, KafkaDistribution
from kcli.sandbox.kafka.layout import ClusterLayout, NodeSpec

FORMAT_TIMEOUT_S = 120.0
SCRAM_MECHANISMS = ("SCRAM-SHA-256", "SCRAM-SHA-512")
# The first metadata.version with kraft.version 1 (a dynamic quorum): 3.9-IV0.
DYNAMIC_QUORUM_LEVEL = 21


class FormatError(KcliError):
    """Kafka's StorageTool refused to format a node."""


def supports_dynamic_quorum(release_version: str | None) -> bool:
    """Whether a cluster formatted at `release_version` may use a dynamic quorum (kraft.version 1)."""
    if release_version is None:
        return True  # Kafka 4.x formats its latest production metadata.version
    from kcli.ops.features import load_catalog

    level = load_catalog().metadata_level(release_version)
    return level is None or level >= DYNAMIC_QUORUM_LEVEL  # a level kcli does not know is newer


def format_arguments(
    layout: ClusterLayout,
    spec: NodeSpec,
    properties: Path,
    *,
    release_version: str | None,
    scram_users: dict[str, str],
    joining: bool = False,
) -> list[str]:
    """StorageTool's arguments for one node (`joining`: a controller that is not an initial voter)."""
    # --opt=value: an id given by the operator may start with '-', which would read as an option
    arguments = ["format", f"--cluster-id={layout.cluster_id}", f"--config={properties}"]
    if layout.dynamic_quorum and spec.is_controller:
        if joining:
            arguments.append("--no-initial-controllers")
        else:
            arguments += ["--initial-controllers", layout.voters_text()]
    if release_version is not None:
        arguments += ["--release-version", release_version]
    for name, password in sorted(scram_users.items()):
        for mechanism in SCRAM_MECHANISMS:
            arguments += ["--add-scram", f"{mechanism}=[name={name},password={password}]"]
    return arguments


def format_nodes(
    distribution: KafkaDistribution,
    jobs: Sequence[tuple[NodeSpec, list[str]]],
    *,
    log4j: Path | None,
) -> None:
    """Run StorageTool for every (node, arguments) at once; FormatError names the first node that failed."""

    def one(job: tuple[NodeSpec, list[str]]) -> tuple[NodeSpec, subprocess.CompletedProcess[str] | str]:
        spec, arguments = job
        command = distribution.java_command(STORAGE_TOOL, *arguments, heap=("-Xmx256M",), log4j=log4j)
        try:
            return spec, subprocess.run(
                command, capture_output=True, text=True, timeout=FORMAT_TIMEOUT_S, stdin=subprocess.DEVNULL
            )
        except subprocess.TimeoutExpired:
            return spec, f"did not finish within {FORMAT_TIMEOUT_S:.0f} s"

    with ThreadPoolExecutor(max_workers=max(1, len(jobs))) as pool:
        results = list(pool.map(one, jobs))
    for spec, result in results:
        if isinstance(result, str):
            raise FormatError(f"formatting node {spec.node_id} with Kafka's StorageTool {result}")
        if result.returncode != 0:
            said = [line for line in (result.stderr + result.stdout).splitlines() if line.strip()]
            reason = said[-1] if said else f"exit status {result.returncode}"
            raise FormatError(f"Kafka's StorageTool could not format node {spec.node_id}: {reason}")
