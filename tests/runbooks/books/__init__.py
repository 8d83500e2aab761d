"""The runbooks' tests, in the order they run on one engine's shared cluster.

Each leaves the cluster as the next expects:
- upgrade-features: every node restarted once; the features at the newest release kcli knows.
- rotate-scram-credentials: users orders-app (no credential, no ACL left) and orders-app-2.
- add-brokers: one more broker, holding a share of `clicks`.
- raise-replication-factor: `audit-log` at three replicas.
- move-replicas-between-log-dirs: `metrics`' replicas on the first broker in one of its log dirs.
- decommission-broker: the first broker drained, stopped and unregistered.
"""

from __future__ import annotations

from tests.runbooks.book import Book
from tests.runbooks.books import (
    add_brokers,
    decommission,
    move_log_dirs,
    raise_replication,
    rotate_scram,
    upgrade_features,
)

BOOKS: list[Book] = [
    upgrade_features.book,
    rotate_scram.book,
    add_brokers.book,
    raise_replication.book,
    move_log_dirs.book,
    decommission.book,
]
