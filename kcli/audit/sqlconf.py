"""Session SQL settings for the length of a block: the audit sizes its plans without leaving a trace."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import AbstractContextManager, contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

PARALLEL_LISTING = "spark.sql.sources.parallelPartitionDiscovery.threshold"


@contextmanager
def sql_conf(
    spark: SparkSession, settings: Mapping[str, str], *, keep: Mapping[str, str] | None = None
) -> Iterator[None]:
    """Set session SQL settings for the block (those the user set in `keep` stay), then restore them."""
    chosen = {key: value for key, value in settings.items() if key not in (keep or {})}
    saved: dict[str, str | None] = {key: spark.conf.get(key, None) for key in chosen}
    for key, value in chosen.items():
        spark.conf.set(key, value)
    try:
        yield
    finally:
        for key, old in saved.items():
            if old is None:
                spark.conf.unset(key)
            else:
                spark.conf.set(key, old)


def listed_here(spark: SparkSession, paths: int) -> AbstractContextManager[None]:
    """List `paths` paths on the driver while reading them, rather than in a Spark job of their own."""
    return sql_conf(spark, {PARALLEL_LISTING: str(max(32, paths + 1))})
