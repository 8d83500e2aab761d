"""The runbooks of docs/runbooks that use each command: named in its --help epilogue and man page.

Written by scripts/runbook-index.py from the runbooks' ```sh blocks; run it again after changing a
runbook instead of editing this by hand. Plain strings only: this module is imported by `kcli --help`.
"""

from __future__ import annotations

FOLDER = "docs/runbooks"
# command path below `kcli` -> ((runbook file, its title), ...), by file name
RUNBOOKS: dict[str, tuple[tuple[str, str], ...]] = {
    "acls": (
        ("rotate-scram-credentials.md", "Rotate a service account's SCRAM credential and ACLs without downtime"),
    ),
    "cluster": (
        ("add-brokers.md", "Add a broker and move a share of the partitions onto it"),
        ("decommission-broker.md", "Decommission a broker"),
        ("fix-advertised-listener.md", "Find and fix a broker that advertises the wrong listener"),
        ("upgrade-features.md", "Upgrade metadata.version and the other features to a new release"),
    ),
    "cluster doctor": (
        ("fix-advertised-listener.md", "Find and fix a broker that advertises the wrong listener"),
        ("upgrade-features.md", "Upgrade metadata.version and the other features to a new release"),
    ),
    "cluster list-endpoints": (
        ("add-brokers.md", "Add a broker and move a share of the partitions onto it"),
        ("decommission-broker.md", "Decommission a broker"),
        ("fix-advertised-listener.md", "Find and fix a broker that advertises the wrong listener"),
    ),
    "cluster unregister": (
        ("decommission-broker.md", "Decommission a broker"),
    ),
    "configs": (
        ("add-brokers.md", "Add a broker and move a share of the partitions onto it"),
        ("move-replicas-between-log-dirs.md", "Move replicas between the log dirs of one broker"),
        ("rotate-scram-credentials.md", "Rotate a service account's SCRAM credential and ACLs without downtime"),
    ),
    "features": (
        ("upgrade-features.md", "Upgrade metadata.version and the other features to a new release"),
    ),
    "features describe": (
        ("upgrade-features.md", "Upgrade metadata.version and the other features to a new release"),
    ),
    "features upgrade": (
        ("upgrade-features.md", "Upgrade metadata.version and the other features to a new release"),
    ),
    "leader-election": (
        ("rebalance-after-adding-brokers.md", "Rebalance bytes and leaders after adding a broker"),
    ),
    "log-dirs": (
        ("rebalance-after-adding-brokers.md", "Rebalance bytes and leaders after adding a broker"),
    ),
    "metadata-quorum": (
        ("replace-controller.md", "Replace a controller of a dynamic quorum"),
        ("upgrade-features.md", "Upgrade metadata.version and the other features to a new release"),
    ),
    "metadata-quorum add-controller": (
        ("replace-controller.md", "Replace a controller of a dynamic quorum"),
    ),
    "metadata-quorum describe": (
        ("replace-controller.md", "Replace a controller of a dynamic quorum"),
        ("upgrade-features.md", "Upgrade metadata.version and the other features to a new release"),
    ),
    "metadata-quorum remove-controller": (
        ("replace-controller.md", "Replace a controller of a dynamic quorum"),
    ),
    "reassign-partitions": (
        ("add-brokers.md", "Add a broker and move a share of the partitions onto it"),
        ("decommission-broker.md", "Decommission a broker"),
        ("move-replicas-between-log-dirs.md", "Move replicas between the log dirs of one broker"),
        ("raise-replication-factor.md", "Raise a topic's replication factor"),
        ("rebalance-after-adding-brokers.md", "Rebalance bytes and leaders after adding a broker"),
    ),
    "sandbox": (
        ("add-brokers.md", "Add a broker and move a share of the partitions onto it"),
        ("decommission-broker.md", "Decommission a broker"),
        ("fix-advertised-listener.md", "Find and fix a broker that advertises the wrong listener"),
        ("rebalance-after-adding-brokers.md", "Rebalance bytes and leaders after adding a broker"),
        ("replace-controller.md", "Replace a controller of a dynamic quorum"),
        ("upgrade-features.md", "Upgrade metadata.version and the other features to a new release"),
    ),
    "sandbox add-node": (
        ("add-brokers.md", "Add a broker and move a share of the partitions onto it"),
        ("rebalance-after-adding-brokers.md", "Rebalance bytes and leaders after adding a broker"),
        ("replace-controller.md", "Replace a controller of a dynamic quorum"),
    ),
    "sandbox start-node": (
        ("fix-advertised-listener.md", "Find and fix a broker that advertises the wrong listener"),
        ("upgrade-features.md", "Upgrade metadata.version and the other features to a new release"),
    ),
    "sandbox stop-node": (
        ("decommission-broker.md", "Decommission a broker"),
        ("fix-advertised-listener.md", "Find and fix a broker that advertises the wrong listener"),
        ("replace-controller.md", "Replace a controller of a dynamic quorum"),
        ("upgrade-features.md", "Upgrade metadata.version and the other features to a new release"),
    ),
    "spark": (
        ("audit-fleet.md", "Audit a fleet of clusters in CI and read the findings"),
    ),
    "spark audit": (
        ("audit-fleet.md", "Audit a fleet of clusters in CI and read the findings"),
    ),
    "spark collect": (
        ("audit-fleet.md", "Audit a fleet of clusters in CI and read the findings"),
    ),
    "spark rules": (
        ("audit-fleet.md", "Audit a fleet of clusters in CI and read the findings"),
    ),
    "topics": (
        ("decommission-broker.md", "Decommission a broker"),
        ("raise-replication-factor.md", "Raise a topic's replication factor"),
        ("rotate-scram-credentials.md", "Rotate a service account's SCRAM credential and ACLs without downtime"),
        ("upgrade-features.md", "Upgrade metadata.version and the other features to a new release"),
    ),
}
