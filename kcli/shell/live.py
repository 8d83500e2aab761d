"""`metadata-shell --bootstrap-controller`: the tree filled from the quorum's admin APIs (KIP-919).

Behavior:
- Reads DescribeCluster (controllers), DescribeQuorum (leader, epoch, high watermark, voters),
  ApiVersions of the active controller (finalized and supported features) and DescribeAcls (every
  binding), each under the client's deadlines, through kcli.client.
- The image is PARTIAL: the admin APIs do not expose topics/partitions as the controller holds
  them, broker registrations, client quotas, SCRAM credentials, delegation tokens or producer
  ids, and ACL ids are not sent over the wire (ids here are derived from the binding). /local/partial
  says so, and a note goes to stderr once.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from kcli.env import Env

if TYPE_CHECKING:
    from kcli.client.config import ClientConfig
    from kcli.metadata.image_model import MetadataImage

PARTIAL = (
    "live read through the admin APIs: features, controllers, quorum and ACLs only; topics, brokers, "
    "configs, quotas, SCRAM, tokens and producer ids are not visible this way (ACL ids are derived)"
)


# What the controllers' admin APIs cannot show, as the shell says it (an empty listing would be wrong).
_FROM_A_LOG = "read a copy of a controller's metadata log with --directory"
UNAVAILABLE: dict[tuple[str, ...], str] = {
    ("topics",): f"topics are not available from controllers ({_FROM_A_LOG})",
    ("cluster", "brokers"): f"broker registrations are not available from controllers ({_FROM_A_LOG})",
    ("configs",): f"configs are not available from controllers ({_FROM_A_LOG})",
    ("clientQuotas",): f"client quotas are not available from controllers ({_FROM_A_LOG})",
    ("producerIds",): f"producer ids are not available from controllers ({_FROM_A_LOG})",
    ("scram",): f"SCRAM credentials are not available from controllers ({_FROM_A_LOG})",
    ("delegationToken",): f"delegation tokens are not available from controllers ({_FROM_A_LOG})",
}


async def read_live_image(config: ClientConfig) -> MetadataImage:
    """Fill a MetadataImage from what the controllers answer."""
    from kcli.client.admin import Admin
    from kcli.client.api import acls as acl_api
    from kcli.client.api import features as feature_api
    from kcli.client.api import quorum as quorum_api
    from kcli.client.errors import KafkaError
    from kcli.metadata.image_model import MetadataImage
    from kcli.ops.acls import ANY_FILTER

    image = MetadataImage(partial=PARTIAL, unavailable=dict(UNAVAILABLE))
    async with Admin(config) as admin:
        quorum = await quorum_api.describe(admin)
        features = await feature_api.describe(admin)
        try:
            bindings: Sequence[Any] = await acl_api.describe_acls(admin, [ANY_FILTER])
        except KafkaError as error:
            if error.name != "SECURITY_DISABLED":
                raise
            bindings = ()  # no authorizer: there are no ACLs to show
        nodes = dict(admin.nodes)
    image.quorum.leader_id = quorum.leader_id
    image.quorum.leader_epoch = quorum.leader_epoch
    image.quorum.voters = tuple(voter.replica_id for voter in quorum.voters)
    image.provenance.offset = quorum.high_watermark - 1
    image.provenance.epoch = quorum.leader_epoch
    for state in features.features:
        if state.finalized_level > 0 and state.name != "kraft.version":
            image.features[state.name] = state.finalized_level
    for node_id, info in nodes.items():
        image.controllers[node_id] = _controller(
            node_id, info, quorum.nodes.get(node_id, ()), features.features
        )
    for binding in bindings:
        record = _acl(binding)
        image.acls[record.id] = record
    return image


def _controller(node_id: int, info: Any, endpoints: Sequence[Any], features: Sequence[Any]) -> Any:
    from kio.static.primitive import i16, i32, u16

    from kcli.metadata import records as r

    listeners = tuple(
        r.ControllerEndpoint(name=e.listener, host=e.host, port=u16(e.port), security_protocol=i16(0))
        for e in endpoints
    ) or (
        r.ControllerEndpoint(
            name="CONTROLLER", host=info.host, port=u16(info.port), security_protocol=i16(0)
        ),
    )
    return r.RegisterControllerRecord(
        controller_id=i32(node_id),
        incarnation_id=uuid.UUID(int=0),
        zk_migration_ready=False,
        end_points=listeners,
        features=tuple(
            r.ControllerFeature(
                name=f.name,
                min_supported_version=i16(f.supported_min),
                max_supported_version=i16(f.supported_max),
            )
            for f in features
        ),
    )


def _acl(binding: Any) -> Any:
    from kio.static.primitive import i8

    from kcli.metadata import records as r

    pattern, entry = binding.pattern, binding.entry
    return r.AccessControlEntryRecord(
        id=uuid.uuid5(uuid.NAMESPACE_URL, f"kcli-acl:{binding}"),
        resource_type=i8(int(pattern.resource_type)),
        resource_name=pattern.name,
        pattern_type=i8(int(pattern.pattern_type)),
        principal=entry.principal,
        host=entry.host,
        operation=i8(int(entry.operation)),
        permission_type=i8(int(entry.permission_type)),
    )


def run_live(config: ClientConfig, words: Sequence[str], env: Env) -> int:
    """Read the live image, then run the shell over it (one command, script or interactive)."""
    import asyncio

    from kcli.shell.session import run_image

    image = asyncio.run(read_live_image(config))
    env.err(f"Note: partial metadata ({PARTIAL}).")
    return run_image(image, words, env)
