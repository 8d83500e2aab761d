"""The group coordinator's settings: Kafka's broker configs of the group coordinator, with their defaults.

The emulator builds them from its nodes' effective configs (kcli.sandbox's config view); a group's
own configs (ConfigResource GROUP: consumer.session.timeout.ms, consumer.heartbeat.interval.ms)
override the broker's for that group, as Kafka's GroupConfigManager does.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True, kw_only=True)
class GroupSettings:
    """GroupCoordinatorConfig's values this coordinator acts on (Kafka 4.4 defaults)."""

    offsets_topic_partitions: int = 50  # offsets.topic.num.partitions
    offsets_topic_replication: int = 3  # offsets.topic.replication.factor
    offset_metadata_max_bytes: int = 4096  # offset.metadata.max.bytes
    offsets_retention_ms: int = 7 * 24 * 3600 * 1000  # offsets.retention.minutes
    offsets_retention_check_ms: int = 600_000  # offsets.retention.check.interval.ms
    classic_min_session_timeout_ms: int = 6000  # group.min.session.timeout.ms
    classic_max_session_timeout_ms: int = 1_800_000  # group.max.session.timeout.ms
    classic_initial_rebalance_delay_ms: int = 3000  # group.initial.rebalance.delay.ms
    classic_max_size: int = 2**31 - 1  # group.max.size
    classic_new_member_join_timeout_ms: int = (
        300_000  # GroupCoordinatorConfig.CLASSIC_GROUP_NEW_MEMBER_JOIN_TIMEOUT_MS
    )
    consumer_session_timeout_ms: int = 45_000  # group.consumer.session.timeout.ms
    consumer_min_session_timeout_ms: int = 45_000
    consumer_max_session_timeout_ms: int = 60_000
    consumer_heartbeat_interval_ms: int = 5000  # group.consumer.heartbeat.interval.ms
    consumer_min_heartbeat_interval_ms: int = 5000
    consumer_max_heartbeat_interval_ms: int = 15_000
    consumer_max_size: int = 2**31 - 1  # group.consumer.max.size
    consumer_assignors: tuple[str, ...] = ("uniform", "range")  # group.consumer.assignors
    consumer_migration_policy: str = "bidirectional"  # group.consumer.migration.policy
    consumer_assignment_interval_ms: int = 1000  # group.consumer.min.assignment.interval.ms (4.4)
    rebalance_protocols: tuple[str, ...] = ("classic", "consumer", "streams")
    group_configs: Mapping[str, Mapping[str, str]] = field(default_factory=dict)

    @classmethod
    def from_configs(
        cls, broker: Mapping[str, str], groups: Mapping[str, Mapping[str, str]] | None = None
    ) -> GroupSettings:
        """Settings from a broker's effective config values (absent keys keep Kafka's defaults)."""

        def number(key: str, default: int, scale: int = 1) -> int:
            value = broker.get(key)
            try:
                return int(value) * scale if value is not None else default
            except ValueError:
                return default

        defaults = cls()
        assignors = broker.get("group.consumer.assignors")
        return cls(
            offsets_topic_partitions=number(
                "offsets.topic.num.partitions", defaults.offsets_topic_partitions
            ),
            offsets_topic_replication=number(
                "offsets.topic.replication.factor", defaults.offsets_topic_replication
            ),
            offset_metadata_max_bytes=number("offset.metadata.max.bytes", defaults.offset_metadata_max_bytes),
            offsets_retention_ms=number("offsets.retention.minutes", defaults.offsets_retention_ms, 60_000),
            classic_min_session_timeout_ms=number(
                "group.min.session.timeout.ms", defaults.classic_min_session_timeout_ms
            ),
            classic_max_session_timeout_ms=number(
                "group.max.session.timeout.ms", defaults.classic_max_session_timeout_ms
            ),
            classic_initial_rebalance_delay_ms=number(
                "group.initial.rebalance.delay.ms", defaults.classic_initial_rebalance_delay_ms
            ),
            classic_max_size=number("group.max.size", defaults.classic_max_size),
            consumer_session_timeout_ms=number(
                "group.consumer.session.timeout.ms", defaults.consumer_session_timeout_ms
            ),
            consumer_min_session_timeout_ms=number(
                "group.consumer.min.session.timeout.ms", defaults.consumer_min_session_timeout_ms
            ),
            consumer_max_session_timeout_ms=number(
                "group.consumer.max.session.timeout.ms", defaults.consumer_max_session_timeout_ms
            ),
            consumer_heartbeat_interval_ms=number(
                "group.consumer.heartbeat.interval.ms", defaults.consumer_heartbeat_interval_ms
            ),
            consumer_max_size=number("group.consumer.max.size", defaults.consumer_max_size),
            consumer_assignors=tuple(
                a.strip().rsplit(".", 1)[-1].removesuffix("Assignor").lower()
                for a in (assignors.split(",") if assignors else defaults.consumer_assignors)
                if a.strip()
            ),
            consumer_migration_policy=broker.get(
                "group.consumer.migration.policy", defaults.consumer_migration_policy
            ).lower(),
            group_configs=dict(groups or {}),
        )

    def group_int(self, group_id: str, key: str, default: int) -> int:
        """A group's own config value (ConfigResource GROUP), else `default` (the broker's)."""
        value = self.group_configs.get(group_id, {}).get(key)
        try:
            return int(value) if value is not None else default
        except ValueError:
            return default

    def session_timeout_ms(self, group_id: str) -> int:
        return self.group_int(group_id, "consumer.session.timeout.ms", self.consumer_session_timeout_ms)

    def heartbeat_interval_ms(self, group_id: str) -> int:
        return self.group_int(group_id, "consumer.heartbeat.interval.ms", self.consumer_heartbeat_interval_ms)
