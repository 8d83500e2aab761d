"""The runbooks' tests, in the order they run on one engine's shared cluster.

Each leaves the cluster as the next expects:
- upgrade-features: every node restarted once; the features at the newest release kcli knows.
- add-brokers: one more broker, holding a share of `clicks`.
"""

from __future__ import annotations

from tests.runbooks.book import Book
from tests.runbooks.books import add_brokers, upgrade_features

BOOKS: list[Book] = [upgrade_features.book, add_brokers.book]
