"""The runner's independent reader: Apache Kafka's Java AdminClient (tests/peers/java), never kcli.

After each step the checks read the cluster's state through it: assignments, leaders and ISRs, log
dirs, the quorum's voters, feature levels, configs, ACLs and SCRAM credentials, and whether a user's
password still logs in.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tests.peers.java.peer import JavaAdmin, JavaError, JavaPeer

TIMEOUTS = {
    "request.timeout.ms": "15000",
    "default.api.timeout.ms": "30000",
    "retry.backoff.ms": "200",
    "client.id": "runbook-reader",
}
SCRAM_MODULE = "org.apache.kafka.common.security.scram.ScramLoginModule"


class Reader:
    """One Java Admin client on the cluster as its admin, opened for the brokers the cluster has now."""

    def __init__(self, peer: JavaPeer, bootstrap: str, client: Mapping[str, str]) -> None:
        self.peer = peer
        self.bootstrap = bootstrap
        self.client = dict(client)
        self.admin: JavaAdmin = peer.client({**TIMEOUTS, **self.client, "bootstrap.servers": bootstrap})

    def close(self) -> None:
        self.admin.close()

    # ------------------------------------------------------------------ partitions

    def partitions(self, *topics: str) -> dict[str, list[dict[str, Any]]]:
        """topic -> its partitions: {"partition", "leader", "replicas", "isr", ...} (Java's TopicDescription)."""
        described = self.admin.call("describeTopics", names=list(topics))
        out: dict[str, list[dict[str, Any]]] = {}
        for name in topics:
            answer = described[name]
            if "error" in answer:
                raise AssertionError(
                    f"the Java AdminClient could not describe topic {name}: {answer['error']}"
                )
            out[name] = sorted(answer["ok"]["partitions"], key=lambda p: p["partition"])
        return out

    def replicas(self, topic: str) -> dict[int, list[int]]:
        return {p["partition"]: p["replicas"] for p in self.partitions(topic)[topic]}

    def topics(self) -> list[str]:
        """Every topic, the internal ones too."""
        names: list[str] = self.admin.call("listTopics", internal=True)
        return names

    def all_partitions(self) -> dict[str, list[dict[str, Any]]]:
        return self.partitions(*self.topics())

    def log_dirs(self, topic: str, broker: int, partitions: int) -> dict[int, str | None]:
        """partition -> the log dir its replica on `broker` is in now (DescribeReplicaLogDirs)."""
        wanted = [{"topic": topic, "partition": p, "broker": broker} for p in range(partitions)]
        answer = self.admin.call("describeReplicaLogDirs", replicas=wanted)
        out: dict[int, str | None] = {}
        for p in range(partitions):
            info = answer[f"{topic}-{p}-{broker}"]  # TopicPartitionReplica.toString
            if "error" in info:
                raise AssertionError(f"describeReplicaLogDirs {topic}-{p} on {broker}: {info['error']}")
            out[p] = info["ok"]["currentDir"]
        return out

    def reassignments(self) -> dict[str, Any]:
        found: dict[str, Any] = self.admin.call("listPartitionReassignments")
        return found

    # ------------------------------------------------------------------ cluster, quorum, features

    def cluster(self) -> dict[str, Any]:
        described: dict[str, Any] = self.admin.call("describeCluster")
        return described

    def quorum(self) -> dict[str, Any]:
        described: dict[str, Any] = self.admin.call("describeMetadataQuorum")
        return described

    def finalized_features(self) -> dict[str, int]:
        described = self.admin.call("describeFeatures")
        return {name: levels["max"] for name, levels in described["finalized"].items()}

    # ------------------------------------------------------------------ configs, ACLs, credentials

    def configs(self, kind: str, name: str) -> dict[str, dict[str, Any]]:
        """Config name -> entry ({"value", "source", ...}) of one resource (kind: TOPIC, BROKER)."""
        answer = self.admin.call("describeConfigs", resources=[{"type": kind, "name": name}])
        result = answer[f"{kind}:{name}"]
        if "error" in result:
            raise AssertionError(f"describeConfigs {kind} {name}: {result['error']}")
        return {entry["name"]: entry for entry in result["ok"]}

    def dynamic_configs(self, kind: str, name: str) -> dict[str, str]:
        return {
            key: entry["value"]
            for key, entry in self.configs(kind, name).items()
            if str(entry["source"]).startswith("DYNAMIC_")
            and entry["source"] != "DYNAMIC_DEFAULT_BROKER_CONFIG"
        }

    def acls(self, principal: str | None = None) -> set[tuple[str, str, str, str, str]]:
        """(resource type, name, pattern type, operation, permission) of `principal`'s ACLs (all: every one)."""
        bindings = self.admin.call("describeAcls", filter={"principal": principal} if principal else None)
        return {
            (b["resourceType"], b["name"], b["patternType"], b["operation"], b["permission"])
            for b in bindings
            if principal is None or b["principal"] == principal
        }

    def scram_mechanisms(self, user: str) -> dict[str, int]:
        """mechanism -> iterations of `user`'s SCRAM credentials ({} when it has none)."""
        answer = self.admin.call("describeUserScramCredentials", users=[user])
        result = answer.get(user, {"ok": []})
        if "error" in result:
            if result["error"]["code"] == "RESOURCE_NOT_FOUND":
                return {}
            raise AssertionError(f"describeUserScramCredentials {user}: {result['error']}")
        return {c["mechanism"]: c["iterations"] for c in result["ok"]}

    def login(
        self, user: str, password: str, *, mechanism: str = "SCRAM-SHA-512", topic: str | None = None
    ) -> str:
        """Log in as `user` and list topics (and describe `topic`): "ok", or the Java error's type and code."""
        props = {
            **TIMEOUTS,
            **{k: v for k, v in self.client.items() if not k.startswith("sasl.")},
            "bootstrap.servers": self.bootstrap,
            "sasl.mechanism": mechanism,
            "sasl.jaas.config": f'{SCRAM_MODULE} required username="{user}" password="{password}";',
            "default.api.timeout.ms": "15000",
        }
        admin = self.peer.client(props)
        try:
            admin.call("listTopics")
            if topic is not None:
                answer = admin.call("describeTopics", names=[topic])[topic]
                if "error" in answer:
                    return f"{answer['error']['type']} ({answer['error']['code']})"
            return "ok"
        except JavaError as error:
            return f"{error.type} ({error.code})"
        finally:
            admin.close()
