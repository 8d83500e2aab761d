"""The image as snapshot records: the current state, not deltas (what a .checkpoint holds)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from kcli.metadata import records as _records
from kcli.sandbox.emulator.image import Image

# Record constructors take kio's phantom int types; plain ints are what they hold at runtime.
R: Any = _records


def image_records(image: Image) -> Iterator[Any]:
    """Records that rebuild `image` from nothing, in Kafka's snapshot order."""
    for name, level in sorted(image.features.items()):
        yield R.FeatureLevelRecord(name=name, feature_level=level)
    for broker in sorted(image.brokers.values(), key=lambda b: b.broker_id):
        yield R.RegisterBrokerRecord(
            broker_id=broker.broker_id,
            incarnation_id=broker.incarnation_id,
            broker_epoch=broker.broker_epoch,
            end_points=tuple(
                R.BrokerEndpoint(name=e.name, host=e.host, port=e.port, security_protocol=e.security_protocol)
                for e in broker.endpoints
            ),
            features=tuple(
                R.BrokerFeature(name=n, min_supported_version=lo, max_supported_version=hi)
                for n, (lo, hi) in sorted(broker.features.items())
            ),
            rack=broker.rack,
            fenced=broker.fenced,
            in_controlled_shutdown=broker.in_controlled_shutdown,
            log_dirs=broker.log_dirs,
        )
    for controller in sorted(image.controllers.values(), key=lambda c: c.controller_id):
        yield R.RegisterControllerRecord(
            controller_id=controller.controller_id,
            incarnation_id=controller.incarnation_id,
            zk_migration_ready=False,
            end_points=tuple(
                R.ControllerEndpoint(
                    name=e.name, host=e.host, port=e.port, security_protocol=e.security_protocol
                )
                for e in controller.endpoints
            ),
            features=tuple(
                R.ControllerFeature(name=n, min_supported_version=lo, max_supported_version=hi)
                for n, (lo, hi) in sorted(controller.features.items())
            ),
        )
    for topic in image.topics.values():
        yield R.TopicRecord(name=topic.name, topic_id=topic.topic_id)
        for p in topic.partitions.values():
            yield R.PartitionRecord(
                partition_id=p.partition_id,
                topic_id=p.topic_id,
                replicas=tuple(p.replicas),
                isr=tuple(p.isr),
                removing_replicas=tuple(p.removing_replicas),
                adding_replicas=tuple(p.adding_replicas),
                leader=p.leader,
                leader_epoch=p.leader_epoch,
                partition_epoch=p.partition_epoch,
                directories=tuple(p.directories),
            )
    for (resource_type, resource_name), values in sorted(image.configs.items()):
        for key, value in sorted(values.items()):
            yield R.ConfigRecord(
                resource_type=resource_type, resource_name=resource_name, name=key, value=value
            )
    for entity, quota_values in image.quotas.items():
        for key, quota in sorted(quota_values.items()):
            yield R.ClientQuotaRecord(
                entity=tuple(R.EntityData(entity_type=t, entity_name=n) for t, n in entity),
                key=key,
                value=quota,
                remove=False,
            )
    for acl in image.acls.values():
        yield R.AccessControlEntryRecord(
            id=acl.acl_id,
            resource_type=acl.resource_type,
            resource_name=acl.resource_name,
            pattern_type=acl.pattern_type,
            principal=acl.principal,
            host=acl.host,
            operation=acl.operation,
            permission_type=acl.permission_type,
        )
    for credential in image.scram.values():
        yield R.UserScramCredentialRecord(
            name=credential.name,
            mechanism=credential.mechanism,
            salt=credential.salt,
            stored_key=credential.stored_key,
            server_key=credential.server_key,
            iterations=credential.iterations,
        )
    for token in image.tokens.values():
        yield R.DelegationTokenRecord(
            owner=token.owner,
            requester=token.requester,
            renewers=token.renewers,
            issue_timestamp=token.issue_timestamp,
            max_timestamp=token.max_timestamp,
            expiration_timestamp=token.expiration_timestamp,
            token_id=token.token_id,
        )
    if image.next_producer_id:
        yield R.ProducerIdsRecord(broker_id=1, broker_epoch=-1, next_producer_id=image.next_producer_id)
