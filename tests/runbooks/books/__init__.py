"""The runbooks' tests, in the order they run on one engine's shared cluster.

Each leaves the cluster as the next expects:
- upgrade-features: every node restarted once; the features at the newest release kcli knows.
- rotate-scram-credentials: users orders-app (no credential, no ACL left) and orders-app-2.
- add-brokers: one more broker, holding a share of `clicks`.
- rebalance-after-adding-brokers: one more broker again, holding a share of the bytes of
  `rebalance-big` and `rebalance-small`, every partition of theirs led by its preferred replica.
- raise-replication-factor: `audit-log` at three replicas.
- move-replicas-between-log-dirs: `metrics`' replicas on the first broker in one of its log dirs.
- decommission-broker: the first broker drained, stopped and unregistered.
- fix-advertised-listener: the second-to-last broker restarted once, advertising its own endpoint.
- audit-fleet: topics `scratch` (one replica) and `payments` (min.insync.replicas=2).
- replace-controller (last: the nodes' controller.quorum.bootstrap.servers then name a stopped
  controller): the active controller replaced by a new one.
"""

from __future__ import annotations

from tests.runbooks.book import Book
from tests.runbooks.books import (
    add_brokers,
    audit_fleet,
    decommission,
    fix_listener,
    move_log_dirs,
    raise_replication,
    rebalance,
    replace_controller,
    rotate_scram,
    upgrade_features,
)

BOOKS: list[Book] = [
    upgrade_features.book,
    rotate_scram.book,
    add_brokers.book,
    rebalance.book,
    raise_replication.book,
    move_log_dirs.book,
    decommission.book,
    fix_listener.book,
    audit_fleet.book,
    replace_controller.book,
]
