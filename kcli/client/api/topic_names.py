"""Every topic of the cluster from one Metadata request with a null topic list.

Apart from kcli.client.api.configs, whose config model costs a command's start-up several
milliseconds: `topics --list`, `transactions find-hanging` and the partition readers need only this.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kcli.kafka import ApiKey

if TYPE_CHECKING:
    from kcli.client.admin import Admin
    from kcli.client.api.wire import CallStats


async def metadata_of_every_topic(admin: Admin, stats: CallStats | None = None) -> Any:
    """The Metadata response for a null topic list: every topic, internal topics included."""
    from kcli.client.admin import Target
    from kcli.client.protocol import make, request_class

    def build(version: int) -> Any:
        return make(
            request_class("metadata", version),
            topics=None,
            allow_auto_topic_creation=False,
            include_cluster_authorized_operations=False,
            include_topic_authorized_operations=False,
        )

    if stats is not None:
        stats.count("Metadata")
    return await admin.call(ApiKey.METADATA, build, versions=(1, 12), target=Target.ANY)


async def list_topic_names(admin: Admin, stats: CallStats | None = None) -> list[str]:
    """Every topic name, internal topics included (Metadata with a null topic list)."""
    from kcli.client.errors import check

    response = await metadata_of_every_topic(admin, stats)
    names = []
    for topic in response.topics:
        if int(topic.error_code) not in (0, 3) and topic.name is None:
            check(int(topic.error_code), None, what="Metadata")
        if topic.name:
            names.append(str(topic.name))
    return sorted(names)
