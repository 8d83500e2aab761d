"""CreateTopics, CreatePartitions, DeleteTopics and ElectLeaders of the emulator beside a real Kafka 4.4.0
cluster, answer by answer (issue 35's partition APIs), collected by test_sandbox_vs_kafka.py so that they
run on its real cluster. As in tests/fidelity/data_plane.py, topic ids and node addresses are replaced
on both sides; every other field, error messages included, must be equal.
"""

from __future__ import annotations

import datetime
import time
import uuid
from collections.abc import Callable
from typing import Any

import pytest

from tests.fidelity.calls import delete_topic
from tests.fidelity.data_calls import build_of, request
from tests.fidelity.data_plane import Client

CREATE_TOPICS, DELETE_TOPICS, CREATE_PARTITIONS, ELECT_LEADERS, METADATA = 19, 20, 37, 43, 3
Topic = dict[str, Any]  # name, partitions, rf, assignment, configs


def _create(client: Client, topics: list[Topic], *, validate: bool = False, version: int = 7) -> Any:
    def build(cls: type) -> Any:
        made = tuple(
            build_of(
                cls,
                "CreatableTopic",
                name=t["name"],
                num_partitions=t.get("partitions", -1),
                replication_factor=t.get("rf", -1),
                assignments=tuple(
                    build_of(cls, "CreatableReplicaAssignment", partition_index=i, broker_ids=tuple(a))
                    for i, a in t.get("assignment", ())
                ),
                configs=tuple(
                    build_of(cls, "CreatableTopicConfig", name=k, value=v) for k, v in t.get("configs", ())
                ),
            )
            for t in topics
        )
        return cls(topics=made, timeout=datetime.timedelta(seconds=30), validate_only=validate)

    answer = request(client.endpoint, "create_topics", CREATE_TOPICS, version, build)
    client.created += [
        t["name"]
        for t, r in zip(topics, answer["topics"], strict=False)
        if r["error_code"] == 0 and not validate
    ]
    return answer


def _partitions(
    client: Client,
    name: str,
    count: int,
    assignments: list[list[int]] | None = None,
    *,
    validate: bool = False,
) -> Any:
    def build(cls: type) -> Any:
        wanted = build_of(
            cls,
            "CreatePartitionsTopic",
            name=name,
            count=count,
            assignments=None
            if assignments is None
            else tuple(build_of(cls, "CreatePartitionsAssignment", broker_ids=tuple(a)) for a in assignments),
        )
        return cls(topics=(wanted,), timeout=datetime.timedelta(seconds=30), validate_only=validate)

    return request(client.endpoint, "create_partitions", CREATE_PARTITIONS, 3, build)


def _delete(client: Client, names: list[str | None], ids: list[uuid.UUID | None] | None = None) -> Any:
    def build(cls: type) -> Any:
        states = tuple(
            build_of(cls, "DeleteTopicState", name=n, topic_id=i)
            for n, i in zip(names, ids or [None] * len(names), strict=True)
        )
        return build_of(cls, "DeleteTopicsRequest", topics=states, timeout=datetime.timedelta(seconds=30))

    return request(client.endpoint, "delete_topics", DELETE_TOPICS, 6, build)


def _elect(client: Client, election: int, partitions: dict[str, list[int]] | None) -> Any:
    def build(cls: type) -> Any:
        wanted = (
            None
            if partitions is None
            else tuple(
                build_of(cls, "TopicPartitions", topic=t, partitions=tuple(p)) for t, p in partitions.items()
            )
        )
        return build_of(
            cls,
            "ElectLeadersRequest",
            election_type=election,
            topic_partitions=wanted,
            timeout=datetime.timedelta(seconds=30),
        )

    return request(client.endpoint, "elect_leaders", ELECT_LEADERS, 2, build)


def _placement(client: Client, name: str, partitions: int = 0) -> Any:
    """Each partition's replicas, ISR, leader and epoch, once the brokers know the topic (and, with
    `partitions`, that many of its partitions: a broker learns of added ones a moment later)."""

    def build(cls: type) -> Any:
        return build_of(
            cls,
            "MetadataRequest",
            topics=(build_of(cls, "MetadataRequestTopic", name=name, topic_id=None),),
            allow_auto_topic_creation=False,
            include_topic_authorized_operations=False,
        )

    deadline = time.monotonic() + 30
    while True:
        (topic,) = request(client.endpoint, "metadata", METADATA, 12, build)["topics"]
        known = len(topic["partitions"]) >= partitions
        if topic["error_code"] == 0 and known and all(p["leader_id"] >= 0 for p in topic["partitions"]):
            return [
                (
                    p["partition_index"],
                    p["replica_nodes"],
                    sorted(p["isr_nodes"]),
                    p["leader_id"],
                    p["leader_epoch"],
                )
                for p in topic["partitions"]
            ]
        if time.monotonic() > deadline:
            return topic["error_code"]
        time.sleep(0.2)


def _topic_id(client: Client, name: str) -> uuid.UUID:
    def build(cls: type) -> Any:
        return build_of(
            cls,
            "MetadataRequest",
            topics=(build_of(cls, "MetadataRequestTopic", name=name, topic_id=None),),
            allow_auto_topic_creation=False,
            include_topic_authorized_operations=False,
        )

    (topic,) = request(client.endpoint, "metadata", METADATA, 12, build)["topics"]
    return uuid.UUID(str(topic["topic_id"]))


def _creating(client: Client, base: str) -> list[tuple[str, Any]]:
    steps: list[tuple[str, Any]] = []
    assigned = [(0, [1, 2]), (1, [2, 3]), (2, [3, 1])]
    cases: list[tuple[str, list[Topic], bool]] = [
        ("partitions and factor", [{"name": f"{base}-a", "partitions": 3, "rf": 2}], False),
        ("defaults (-1, -1)", [{"name": f"{base}-b"}], False),
        ("an assignment", [{"name": f"{base}-c", "assignment": assigned}], False),
        (
            "configs",
            [
                {
                    "name": f"{base}-d",
                    "partitions": 1,
                    "rf": 1,
                    "configs": [("retention.ms", "1000"), ("cleanup.policy", "compact")],
                }
            ],
            False,
        ),
        ("validate only", [{"name": f"{base}-e", "partitions": 2, "rf": 3}], True),
        ("exists", [{"name": f"{base}-a", "partitions": 1, "rf": 1}], False),
        ("exists, validate only", [{"name": f"{base}-a", "partitions": 1, "rf": 1}], True),
        ("twice in one request", [{"name": f"{base}-f", "partitions": 1, "rf": 1}] * 2, False),
        ("illegal name", [{"name": f"{base}/x", "partitions": 1, "rf": 1}], False),
        ("dot", [{"name": ".", "partitions": 1, "rf": 1}], False),
        ("zero partitions", [{"name": f"{base}-g", "partitions": 0, "rf": 1}], False),
        ("zero replicas", [{"name": f"{base}-g", "partitions": 1, "rf": 0}], False),
        ("more replicas than brokers", [{"name": f"{base}-g", "partitions": 1, "rf": 4}], False),
        (
            "an assignment and a count",
            [{"name": f"{base}-g", "partitions": 1, "rf": -1, "assignment": [(0, [1])]}],
            False,
        ),
        ("an unknown broker", [{"name": f"{base}-g", "assignment": [(0, [1, 9])]}], False),
        ("a broker twice", [{"name": f"{base}-g", "assignment": [(0, [1, 1])]}], False),
        ("partitions not from 0", [{"name": f"{base}-g", "assignment": [(1, [1])]}], False),
        ("an empty replica list", [{"name": f"{base}-g", "assignment": [(0, [])]}], False),
        (
            "an unknown config",
            [{"name": f"{base}-g", "partitions": 1, "rf": 1, "configs": [("no.such.config", "1")]}],
            False,
        ),
        (
            "a bad config value",
            [{"name": f"{base}-g", "partitions": 1, "rf": 1, "configs": [("retention.ms", "abc")]}],
            False,
        ),
        (
            "a config twice",
            [
                {
                    "name": f"{base}-g",
                    "partitions": 1,
                    "rf": 1,
                    "configs": [("retention.ms", "1"), ("retention.ms", "2")],
                }
            ],
            False,
        ),
    ]
    for label, topics, validate in cases:
        answer = _create(client, topics, validate=validate)
        for topic in answer["topics"]:
            topic.pop("configs", None)  # compared by tests/fidelity/test_sandbox_vs_kafka.py's config cases
        steps.append((label, answer))
    steps.append(("v4 answer", _create(client, [{"name": f"{base}-h", "partitions": 2, "rf": 1}], version=4)))
    steps.append(("placement by the controller", _shape(_placement(client, f"{base}-a"))))
    steps.append(("an assignment's placement", _placement(client, f"{base}-c")))
    return steps


def _shape(placement: Any) -> Any:
    """What a placement by the controller must be: Kafka's placer starts at a random broker."""
    if not isinstance(placement, list):
        return placement
    return [
        (index, len(replicas), leader in replicas, isr == sorted(replicas), epoch)
        for index, replicas, isr, leader, epoch in placement
    ]


def _growing(client: Client, base: str) -> list[tuple[str, Any]]:
    name = f"{base}-grow"
    _create(client, [{"name": name, "assignment": [(0, [1, 2]), (1, [2, 3])]}])
    _placement(client, name)
    return [
        ("fewer", _partitions(client, name, 1)),
        ("as many", _partitions(client, name, 2)),
        ("unknown topic", _partitions(client, f"{base}-none", 3)),
        ("validate only", _partitions(client, name, 4, validate=True)),
        ("assignments of the wrong count", _partitions(client, name, 4, [[1, 2]])),
        ("an unknown broker", _partitions(client, name, 3, [[1, 9]])),
        ("a broker twice", _partitions(client, name, 3, [[1, 1]])),
        ("a replica count unlike the topic's", _partitions(client, name, 3, [[1, 2, 3]])),
        ("with assignments", _partitions(client, name, 4, [[3, 1], [2, 3]])),
        ("the assignments' placement", _placement(client, name, partitions=4)[2:]),
        ("more", _partitions(client, name, 5)),
        ("placement by the controller", _shape(_placement(client, name, partitions=5))),
    ]


def _deleting(client: Client, base: str) -> list[tuple[str, Any]]:
    names = [f"{base}-del1", f"{base}-del2"]
    _create(client, [{"name": n, "partitions": 1, "rf": 1} for n in names])
    for name in names:
        _placement(client, name)
    by_id = _topic_id(client, names[1])
    return [
        ("by name", _delete(client, [names[0]])),
        ("again", _delete(client, [names[0]])),
        ("an unknown id", _delete(client, [None], [uuid.uuid4()])),
        ("by id", _without_ids(_delete(client, [None], [by_id]))),
        ("by id again", _without_ids(_delete(client, [None], [by_id]))),
    ]


def _without_ids(answer: Any) -> Any:
    for result in answer["responses"]:
        result["topic_id"] = "<topic id>" if result["topic_id"] else None
    return answer


def _electing(client: Client, base: str) -> list[tuple[str, Any]]:
    name = f"{base}-elect"
    _create(client, [{"name": name, "assignment": [(0, [1, 2]), (1, [2, 3])]}])
    _placement(client, name)
    return [
        ("preferred, led by it", _elect(client, 0, {name: [0, 1]})),
        ("preferred, unknown partition", _elect(client, 0, {name: [7]})),
        ("preferred, unknown topic", _elect(client, 0, {f"{base}-none": [0]})),
        ("unclean, a leader is there", _elect(client, 1, {name: [0]})),
        ("an unknown type", _elect(client, 5, {name: [0]})),
    ]


SCENARIOS: dict[str, Callable[[Client, str], list[tuple[str, Any]]]] = {
    "CreateTopics": _creating,
    "CreatePartitions": _growing,
    "DeleteTopics by name and id": _deleting,
    "ElectLeaders": _electing,
}


@pytest.mark.parametrize("scenario", list(SCENARIOS), ids=list(SCENARIOS))
def test_topic_admin_answers_as_kafka(clients: tuple[Client, Client], scenario: str) -> None:
    base = f"kcli-fidelity-admin-{uuid.uuid4().hex[:8]}"
    answers = []
    for client in clients:
        try:
            answers.append([(step, client.normalized(a)) for step, a in SCENARIOS[scenario](client, base)])
        finally:
            for name in client.created:
                delete_topic(client.endpoint, name)
            client.created.clear()
    real, emulated = answers
    assert [(s, e) for (s, r), (_, e) in zip(real, emulated, strict=True) if r != e] == [], "\n".join(
        f"{step}:\n  real    {r}\n  sandbox {e}"
        for (step, r), (_, e) in zip(real, emulated, strict=True)
        if r != e
    )
