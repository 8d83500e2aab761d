"""Raw group, transaction and delegation-token requests to both sides of tests/fidelity/groups.py: kio
requests at fixed versions, answers as plain values (Kafka's -1 in a field kio types as a non-negative
timestamp read back as -1)."""

from __future__ import annotations

import datetime
import struct
import time
import uuid
from typing import Any

from tests.fidelity.data_calls import plain
from tests.sandbox.raw import RawConnection

GROUP_KEY, TXN_KEY = 0, 1
LOAD_IN_PROGRESS, NOT_COORDINATOR = 14, 16


class Side:
    """One cluster's brokers, reached one raw connection per node."""

    def __init__(self, side: Any) -> None:
        self.side = side
        self.address = {int(p.split()[1].rstrip(">")): a for a, p in side.places.items() if "broker" in p}
        self.connections: dict[int, RawConnection] = {}
        self.topic_names: dict[uuid.UUID, str] = {}
        self.topic_ids: dict[str, uuid.UUID] = {}

    def call(self, request: Any, node: int | None = None) -> Any:
        """Send `request` to `node` (the first broker when None); its answer as plain values."""
        from kio.serial.errors import OutOfBoundValue

        node = node if node is not None else min(self.address)
        connection = self.connections.get(node)
        if connection is None:
            connection = self.connections[node] = RawConnection(self.address[node], timeout=45)
        connection.send(request)
        frame = connection.read_frame()
        try:
            return plain(_decode(request, frame, connection.correlation_id))
        except OutOfBoundValue:
            # Kafka's -1 in a field kio reads as a non-negative timestamp: read with a stand-in, then -1 again
            patched = frame.replace(_MINUS_ONE, _STAND_IN)
            return _restored(plain(_decode(request, patched, connection.correlation_id)))

    def coordinator(self, key: str, key_type: int = GROUP_KEY) -> int:
        """The node coordinating `key` once it serves it: FindCoordinator until it answers NONE, then a
        describe of `key` there until it is neither NOT_COORDINATOR nor COORDINATOR_LOAD_IN_PROGRESS (a
        real broker names itself from its metadata before its coordinator has loaded the partition)."""
        deadline = time.monotonic() + 30
        while True:
            answer = self.call(find(4, [key], key_type))
            (found,) = answer["coordinators"]
            if found["error_code"] == 0:
                node = int(found["node_id"])
                if self._serves(node, key, key_type):
                    return node
            assert time.monotonic() < deadline, f"{self.side.name}: no coordinator for {key}: {found}"
            time.sleep(0.2)

    def _serves(self, node: int, key: str, key_type: int) -> bool:
        if key_type == GROUP_KEY:
            (state,) = self.call(describe([key]), node)["groups"]
        else:
            (state,) = self.call(describe_transactions([key]), node)["transaction_states"]
        return state["error_code"] not in (NOT_COORDINATOR, LOAD_IN_PROGRESS)

    def create_topic(self, name: str, partitions: int) -> None:
        from kcli.client.api.wire import make, nested, request_cls

        cls = request_cls("create_topics", 7)
        topic = make(
            nested(cls, "CreatableTopic"),
            name=name,
            num_partitions=partitions,
            replication_factor=-1,
            assignments=(),
            configs=(),
        )
        answer = self.call(cls(topics=(topic,), timeout=datetime.timedelta(seconds=30), validate_only=False))
        (created,) = answer["topics"]
        assert created["error_code"] == 0, created
        self.topic_names[created["topic_id"]] = name
        self.topic_ids[name] = created["topic_id"]
        deadline = time.monotonic() + 30
        while not self._known(name, partitions):
            assert time.monotonic() < deadline, f"{self.side.name}: {name} has no leaders after 30 s"
            time.sleep(0.2)

    def _metadata(self, name: str, node: int | None = None) -> Any:
        from kcli.client.api.wire import make, nested, request_cls

        cls = request_cls("metadata", 12)
        wanted = make(nested(cls, "MetadataRequestTopic"), name=name, topic_id=uuid.UUID(int=0))
        request = make(
            cls,
            topics=(wanted,),
            allow_auto_topic_creation=False,
            include_cluster_authorized_operations=False,
            include_topic_authorized_operations=False,
        )
        (topic,) = self.call(request, node)["topics"]
        return topic

    def _known(self, name: str, partitions: int) -> bool:
        return all(
            (
                t["error_code"] == 0
                and len(t["partitions"]) == partitions
                and all(p["leader_id"] >= 0 for p in t["partitions"])
            )
            for t in (self._metadata(name, node) for node in self.address)
        )

    def leader(self, name: str, partition: int) -> int:
        """The broker leading a partition."""
        found = self._metadata(name)
        return int(next(p["leader_id"] for p in found["partitions"] if p["partition_index"] == partition))

    def delete_topics(self, names: list[str]) -> None:
        from kcli.client.api.wire import make, nested, request_cls

        cls = request_cls("delete_topics", 6)
        topics = tuple(
            make(nested(cls, "DeleteTopicState"), name=n, topic_id=uuid.UUID(int=0)) for n in names
        )
        self.call(make(cls, topics=topics, timeout=datetime.timedelta(seconds=30)))

    def close(self) -> None:
        for connection in self.connections.values():
            connection.close()
        self.connections.clear()


_STAND_IN_MS = 0xDEAD_BEEF_CAFE
_STAND_IN, _MINUS_ONE = struct.pack(">q", _STAND_IN_MS), struct.pack(">q", -1)


def _restored(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _restored(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_restored(v) for v in value]
    return -1 if value == _STAND_IN_MS else value


def _decode(request: Any, frame: bytes, correlation_id: int) -> Any:
    from kio.index import load_response_schema
    from kio.serial import entity_reader

    cls = type(request)
    schema: Any = load_response_schema(cls.__api_key__, cls.__version__)
    header, offset = entity_reader(schema.__header_schema__)(frame, 0)
    assert header.correlation_id == correlation_id
    body, _ = entity_reader(schema)(frame, offset)
    return body


# ---- requests -------------------------------------------------------------------------------------------

MS = datetime.timedelta(milliseconds=1)


def find(version: int, keys: list[str], key_type: int = GROUP_KEY) -> Any:
    from kcli.client.api.wire import make, request_cls

    cls = request_cls("find_coordinator", version)
    if version >= 4:
        return make(cls, key_type=key_type, coordinator_keys=tuple(keys))
    return make(cls, key=keys[0], key_type=key_type)


def join(group: str, member: str = "", *, session_ms: int = 30_000, metadata: bytes = b"sub") -> Any:
    from kcli.client.api.wire import make, nested, request_cls

    cls = request_cls("join_group", 9)
    protocol = make(nested(cls, "JoinGroupRequestProtocol"), name="range", metadata=metadata)
    return make(
        cls,
        group_id=group,
        session_timeout=session_ms * MS,
        rebalance_timeout=60_000 * MS,
        member_id=member,
        group_instance_id=None,
        protocol_type="consumer",
        protocols=(protocol,),
        reason=None,
    )


def sync(group: str, member: str, generation: int, assignments: dict[str, bytes]) -> Any:
    from kcli.client.api.wire import make, nested, request_cls

    cls = request_cls("sync_group", 5)
    return make(
        cls,
        group_id=group,
        generation_id=generation,
        member_id=member,
        group_instance_id=None,
        protocol_type="consumer",
        protocol_name="range",
        assignments=tuple(
            make(nested(cls, "SyncGroupRequestAssignment"), member_id=m, assignment=a)
            for m, a in assignments.items()
        ),
    )


def heartbeat(group: str, member: str, generation: int) -> Any:
    from kcli.client.api.wire import make, request_cls

    return make(
        request_cls("heartbeat", 4),
        group_id=group,
        generation_id=generation,
        member_id=member,
        group_instance_id=None,
    )


def leave(group: str, members: list[str]) -> Any:
    from kcli.client.api.wire import make, nested, request_cls

    cls = request_cls("leave_group", 5)
    return make(
        cls,
        group_id=group,
        members=tuple(
            make(nested(cls, "MemberIdentity"), member_id=m, group_instance_id=None, reason=None)
            for m in members
        ),
    )


def commit(group: str, member: str, generation: int, offsets: dict[str, dict[int, int]]) -> Any:
    from kcli.client.api.wire import make, nested, request_cls

    cls = request_cls("offset_commit", 9)
    topics = tuple(
        make(
            nested(cls, "OffsetCommitRequestTopic"),
            name=topic,
            partitions=tuple(
                make(
                    nested(cls, "OffsetCommitRequestPartition"),
                    partition_index=p,
                    committed_offset=o,
                    committed_leader_epoch=-1,
                    committed_metadata=f"m{o}",
                )
                for p, o in partitions.items()
            ),
        )
        for topic, partitions in offsets.items()
    )
    return make(
        cls,
        group_id=group,
        generation_id_or_member_epoch=generation,
        member_id=member,
        group_instance_id=None,
        topics=topics,
    )


def fetch(
    groups: dict[str, dict[str, list[int]] | None],
    *,
    stable: bool = False,
    member: tuple[str, int] = ("", -1),
) -> Any:
    from kcli.client.api.wire import make, nested, request_cls

    cls = request_cls("offset_fetch", 9)
    return make(
        cls,
        groups=tuple(
            make(
                nested(cls, "OffsetFetchRequestGroup"),
                group_id=group,
                member_id=member[0] or None,
                member_epoch=member[1],
                topics=None
                if topics is None
                else tuple(
                    make(nested(cls, "OffsetFetchRequestTopics"), name=t, partition_indexes=tuple(ps))
                    for t, ps in topics.items()
                ),
            )
            for group, topics in groups.items()
        ),
        require_stable=stable,
    )


def describe(groups: list[str]) -> Any:
    from kcli.client.api.wire import make, request_cls

    return make(request_cls("describe_groups", 5), groups=tuple(groups), include_authorized_operations=True)


def list_groups(states: list[str], types: list[str]) -> Any:
    from kcli.client.api.wire import make, request_cls

    return make(request_cls("list_groups", 5), states_filter=tuple(states), types_filter=tuple(types))


def delete_groups(groups: list[str]) -> Any:
    from kcli.client.api.wire import make, request_cls

    return make(request_cls("delete_groups", 2), groups_names=tuple(groups))


def delete_offsets(group: str, topics: dict[str, list[int]]) -> Any:
    from kcli.client.api.wire import make, nested, request_cls

    cls = request_cls("offset_delete", 0)
    return make(
        cls,
        group_id=group,
        topics=tuple(
            make(
                nested(cls, "OffsetDeleteRequestTopic"),
                name=t,
                partitions=tuple(
                    make(nested(cls, "OffsetDeleteRequestPartition"), partition_index=p) for p in ps
                ),
            )
            for t, ps in topics.items()
        ),
    )


def consumer_heartbeat(
    group: str,
    member: str,
    epoch: int,
    *,
    topics: list[str] | None = None,
    regex: str | None = None,
    owned: list[tuple[uuid.UUID, list[int]]] | None = None,
    assignor: str | None = None,
) -> Any:
    from kcli.client.api.wire import make, nested, request_cls

    cls = request_cls("consumer_group_heartbeat", 1)
    return make(
        cls,
        group_id=group,
        member_id=member,
        member_epoch=epoch,
        instance_id=None,
        rack_id=None,
        rebalance_timeout=60_000 * MS if epoch == 0 else -1 * MS,
        subscribed_topic_names=tuple(topics) if topics is not None else None,
        subscribed_topic_regex=regex,
        server_assignor=assignor,
        topic_partitions=None
        if owned is None
        else tuple(make(nested(cls, "TopicPartitions"), topic_id=t, partitions=tuple(ps)) for t, ps in owned),
    )


def describe_consumer_groups(groups: list[str]) -> Any:
    from kcli.client.api.wire import make, request_cls

    return make(
        request_cls("consumer_group_describe", 1), group_ids=tuple(groups), include_authorized_operations=True
    )


def init_producer_id(transactional_id: str | None, timeout_ms: int = 60_000) -> Any:
    from kcli.client.api.wire import make, request_cls

    return make(
        request_cls("init_producer_id", 5),
        transactional_id=transactional_id,
        transaction_timeout=timeout_ms * MS,
        producer_id=-1,
        producer_epoch=-1,
    )


def add_partitions(transactional_id: str, producer: tuple[int, int], topics: dict[str, list[int]]) -> Any:
    from kcli.client.api.wire import make, nested, request_cls

    cls = request_cls("add_partitions_to_txn", 3)
    return make(
        cls,
        v3_and_below_transactional_id=transactional_id,
        v3_and_below_producer_id=producer[0],
        v3_and_below_producer_epoch=producer[1],
        v3_and_below_topics=tuple(
            make(nested(cls, "AddPartitionsToTxnTopic"), name=t, partitions=tuple(ps))
            for t, ps in topics.items()
        ),
    )


def add_offsets(transactional_id: str, producer: tuple[int, int], group: str) -> Any:
    from kcli.client.api.wire import make, request_cls

    return make(
        request_cls("add_offsets_to_txn", 4),
        transactional_id=transactional_id,
        producer_id=producer[0],
        producer_epoch=producer[1],
        group_id=group,
    )


def txn_commit(
    transactional_id: str, producer: tuple[int, int], group: str, offsets: dict[str, dict[int, int]]
) -> Any:
    from kcli.client.api.wire import make, nested, request_cls

    cls = request_cls("txn_offset_commit", 3)
    topics = tuple(
        make(
            nested(cls, "TxnOffsetCommitRequestTopic"),
            name=topic,
            partitions=tuple(
                make(
                    nested(cls, "TxnOffsetCommitRequestPartition"),
                    partition_index=p,
                    committed_offset=o,
                    committed_leader_epoch=-1,
                    committed_metadata="",
                )
                for p, o in partitions.items()
            ),
        )
        for topic, partitions in offsets.items()
    )
    return make(
        cls,
        transactional_id=transactional_id,
        group_id=group,
        producer_id=producer[0],
        producer_epoch=producer[1],
        generation_id=-1,
        member_id="",
        group_instance_id=None,
        topics=topics,
    )


def end_txn(transactional_id: str, producer: tuple[int, int], committed: bool) -> Any:
    from kcli.client.api.wire import make, request_cls

    return make(
        request_cls("end_txn", 4),
        transactional_id=transactional_id,
        producer_id=producer[0],
        producer_epoch=producer[1],
        committed=committed,
    )


def describe_transactions(ids: list[str]) -> Any:
    from kcli.client.api.wire import make, request_cls

    return make(request_cls("describe_transactions", 0), transactional_ids=tuple(ids))


def list_transactions(states: list[str], producer_ids: list[int]) -> Any:
    from kcli.client.api.wire import make, request_cls

    return make(
        request_cls("list_transactions", 1),
        state_filters=tuple(states),
        producer_id_filters=tuple(producer_ids),
        duration_filter=-1,
    )


def describe_producers(topic: str, partitions: list[int]) -> Any:
    from kcli.client.api.wire import make, nested, request_cls

    cls = request_cls("describe_producers", 0)
    return make(
        cls, topics=(make(nested(cls, "TopicRequest"), name=topic, partition_indexes=tuple(partitions)),)
    )


def create_token() -> Any:
    from kcli.client.api.wire import make, request_cls

    return make(
        request_cls("create_delegation_token", 3),
        owner_principal_type=None,
        owner_principal_name=None,
        renewers=(),
        max_lifetime=3_600_000 * MS,
    )


def describe_tokens() -> Any:
    from kcli.client.api.wire import make, request_cls

    return make(request_cls("describe_delegation_token", 3), owners=None)


def renew_token(hmac: bytes) -> Any:
    from kcli.client.api.wire import make, request_cls

    return make(request_cls("renew_delegation_token", 2), hmac=hmac, renew_period=60_000 * MS)


def expire_token(hmac: bytes) -> Any:
    from kcli.client.api.wire import make, request_cls

    return make(request_cls("expire_delegation_token", 2), hmac=hmac, expiry_time_period=60_000 * MS)
