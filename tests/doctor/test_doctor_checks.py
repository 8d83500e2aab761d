"""Unit tests of the doctor's checks over collected facts, its verdict and its output."""

from __future__ import annotations

import pytest

from kcli.errors import UsageError
from kcli.kafka import Severity
from kcli.ops.doctor import (
    AdvertisedNode,
    ClusterFacts,
    DoctorReport,
    EndpointProbe,
    Identity,
    diagnose,
)
from kcli.ops.quorum import QuorumInfo, ReplicaState
from kcli.render.doctor import json_value, table, text_lines

NOW = 1_700_000_000_000
CID = "c1"


def probe(role: str, node_id: int | None, port: int, **kw: object) -> EndpointProbe:
    values: dict[str, object] = dict(
        role=role,
        address=f"127.0.0.1:{port}",
        node_id=node_id,
        ok=True,
        cluster_id=CID,
        controller_id=101,
        identity=Identity(method="api_versions_v5", verified=True, actual_node_id=node_id)
        if node_id
        else None,
        finalized_metadata_version=21,
        supported_metadata_version=(7, 21),
    )
    values.update(kw)
    return EndpointProbe(**values)  # type: ignore[arg-type]


def voter(
    node_id: int, leo: int, *, fetched: int | None = NOW - 100, caught_up: int | None = NOW - 100
) -> ReplicaState:
    return ReplicaState(
        replica_id=node_id,
        log_end_offset=leo,
        last_fetch_timestamp=fetched,
        last_caught_up_timestamp=caught_up,
    )


def healthy(**overrides: object) -> ClusterFacts:
    values: dict[str, object] = dict(
        cluster_id=CID,
        bootstrap_kind="brokers",
        bootstrap=(probe("bootstrap", None, 9092),),
        nodes=tuple(
            AdvertisedNode(role="broker", node_id=i, host="127.0.0.1", port=9091 + i) for i in (1, 2, 3)
        ),
        probes=(
            *(probe("broker", i, 9091 + i) for i in (1, 2, 3)),
            *(probe("controller", i, 9000 + i) for i in (101, 102, 103)),
        ),
        quorum=QuorumInfo(
            cluster_id=CID,
            leader_id=101,
            leader_epoch=3,
            high_watermark=50,
            voters=(voter(101, 50), voter(102, 50), voter(103, 49)),
        ),
        now_ms=NOW,
        metadata_version_names={21: "3.9-IV0", 20: "3.8-IV0"},
    )
    values.update(overrides)
    return ClusterFacts(**values)  # type: ignore[arg-type]


def checks_of(facts: ClusterFacts) -> list[tuple[str, Severity, str]]:
    return [(f.check, f.severity, f.subject) for f in diagnose(facts).findings]


def test_healthy_cluster_has_no_findings_and_passes() -> None:
    report = diagnose(healthy())
    assert report.findings == ()
    assert not report.failed
    assert text_lines(report)[-1].startswith("HEALTHY: cluster c1, 7/7 endpoints answered, 0 finding(s)")


def drawn(report: DoctorReport) -> str:
    """The `-o table` output as a plain terminal would show it."""
    from io import StringIO

    from rich.console import Console

    sink = StringIO()
    Console(file=sink, width=160, color_system=None).print(table(report))
    return sink.getvalue()


def test_the_table_has_no_empty_findings_table() -> None:
    healthy_table = drawn(diagnose(healthy()))
    assert "Findings" not in healthy_table and "Severity" not in healthy_table
    assert "Endpoints" in healthy_table and "0 finding(s)" in healthy_table
    with_findings = drawn(diagnose(healthy(cluster_id="other")))
    assert "Findings" in with_findings and "Severity" in with_findings


def test_misrouted_endpoint_is_critical_and_fails() -> None:
    facts = healthy(
        probes=(
            probe("broker", 1, 9092),
            probe(
                "broker",
                2,
                9093,
                identity=Identity(method="api_versions_v5", verified=False, detail="refused"),
            ),
        )
    )
    report = diagnose(facts)
    assert [(f.check, f.severity) for f in report.findings] == [("node-id-mismatch", Severity.critical)]
    assert report.failed
    assert "endpoint advertised for node 2 is served by another node" in report.findings[0].message
    line = text_lines(report)[0]
    hint = line[line.rindex(" (") + 2 : -1]
    assert line.endswith(")") and "(" not in hint and ")" not in hint, line  # one pair of parentheses


def test_identity_by_configs_names_the_actual_node() -> None:
    facts = healthy(
        probes=(
            probe(
                "broker",
                2,
                9093,
                identity=Identity(method="describe_configs", verified=False, actual_node_id=3),
            ),
        )
    )
    assert "served by node 3" in diagnose(facts).findings[0].message


def test_unreachable_endpoint_and_bootstrap() -> None:
    facts = healthy(
        bootstrap=(probe("bootstrap", None, 9092), probe("bootstrap", None, 9999, ok=False, error="refused")),
        probes=(probe("broker", 1, 9092), probe("broker", 2, 9093, ok=False, error="connection refused")),
    )
    assert checks_of(facts) == [
        ("endpoint-unreachable", Severity.high, "broker 2 at 127.0.0.1:9093"),
        ("bootstrap-unreachable", Severity.medium, "bootstrap at 127.0.0.1:9999"),
    ]


def test_cluster_id_mismatch() -> None:
    facts = healthy(probes=(probe("broker", 1, 9092, cluster_id="other"),))
    assert checks_of(facts) == [("cluster-id-mismatch", Severity.critical, "broker 1 at 127.0.0.1:9092")]


def test_controllers_disagree_on_active_controller() -> None:
    facts = healthy(
        probes=(
            probe("controller", 101, 9001),
            probe("controller", 102, 9002),
            probe("controller", 103, 9003, controller_id=102),
        )
    )
    found = diagnose(facts).findings
    assert [(f.check, f.severity) for f in found] == [("controller-disagreement", Severity.medium)]
    assert "controller 103 at 127.0.0.1:9003 says 102" in found[0].message


def test_stopped_voter_is_high_and_majority_spare_is_medium() -> None:
    quorum = QuorumInfo(
        cluster_id=CID,
        leader_id=101,
        leader_epoch=3,
        high_watermark=5000,
        voters=(voter(101, 5000), voter(102, 5000), voter(103, 10, caught_up=NOW - 60_000)),
    )
    assert checks_of(healthy(quorum=quorum)) == [
        ("quorum-voter-lagging", Severity.high, "controller 103"),
        ("quorum-no-spare", Severity.medium, "metadata quorum"),
    ]


def test_no_leader_and_lost_majority_are_critical() -> None:
    no_leader = QuorumInfo(
        cluster_id=CID, leader_id=-1, leader_epoch=4, high_watermark=5, voters=(voter(101, 5),)
    )
    assert checks_of(healthy(quorum=no_leader))[0][:2] == ("quorum-no-leader", Severity.critical)
    lost = QuorumInfo(
        cluster_id=CID,
        leader_id=101,
        leader_epoch=3,
        high_watermark=5,
        voters=(voter(101, 5), voter(102, 5, fetched=None), voter(103, 5, fetched=None)),
    )
    assert ("quorum-majority-lost", Severity.critical, "metadata quorum") in checks_of(healthy(quorum=lost))


def test_fenced_broker_and_metadata_version_findings() -> None:
    nodes = (AdvertisedNode(role="broker", node_id=1, host="h", port=1, fenced=True),)
    assert checks_of(healthy(nodes=nodes)) == [("broker-fenced", Severity.high, "broker 1 at h:1")]
    behind = healthy(
        probes=(probe("broker", 1, 9092, finalized_metadata_version=20),),
        bootstrap=(probe("bootstrap", None, 9092, finalized_metadata_version=20),),
    )
    assert checks_of(behind) == [("metadata-version-behind", Severity.info, "cluster")]
    assert "20 (3.8-IV0)" in diagnose(behind).findings[0].message


def test_fail_on_threshold_and_parse() -> None:
    facts = healthy(nodes=(AdvertisedNode(role="broker", node_id=1, host="h", port=1, fenced=True),))
    assert diagnose(facts, fail_on=Severity.high).failed
    assert not diagnose(facts, fail_on=Severity.critical).failed
    assert Severity.parse("Medium") is Severity.medium
    with pytest.raises(UsageError, match="unknown severity"):
        Severity.parse("loud")


def test_not_checked_items_become_info_and_json_shape() -> None:
    facts = healthy(
        not_checked=("metadata quorum: DescribeQuorum is not supported",),
        quorum=None,
        probes=(probe("broker", 1, 9092, identity=Identity(method="none", verified=None)),),
    )
    report = diagnose(facts)
    assert [f.check for f in report.findings] == ["not-checked", "not-checked"]
    value = json_value(report)
    assert value["healthy"] is True and value["worst"] == "info"
    assert value["not_checked"] == ["metadata quorum: DescribeQuorum is not supported"]
    assert value["endpoints"][1]["identity"]["verified"] is None


def test_unreachable_voter_counts_against_the_majority() -> None:
    probes = (
        probe("controller", 101, 9001),
        probe("controller", 102, 9002),
        probe("controller", 103, 9003, ok=False, error="connection refused"),
    )
    assert checks_of(healthy(probes=probes)) == [
        ("endpoint-unreachable", Severity.high, "controller 103 at 127.0.0.1:9003"),
        ("quorum-no-spare", Severity.medium, "metadata quorum"),
    ]


def test_a_probe_error_keeps_its_own_hint_once() -> None:
    """The connection error's specific hint replaces the generic one instead of being printed twice."""
    facts = healthy(
        probes=(
            probe(
                "broker",
                2,
                9093,
                ok=False,
                error="ApiVersions v5 request to node 2 timed out after 997 ms",
                error_hint="the node accepted the connection but did not answer",
            ),
        ),
    )
    (finding,) = diagnose(facts).findings
    assert finding.message == (
        "advertised endpoint does not answer: ApiVersions v5 request to node 2 timed out after 997 ms"
    )
    assert finding.hint == "the node accepted the connection but did not answer"
    assert text_lines(diagnose(facts))[0].count("(") == 1
    generic = healthy(probes=(probe("broker", 2, 9093, ok=False, error="connection refused"),))
    assert diagnose(generic).findings[0].hint == (
        "check the node is running and that its advertised listener is reachable from here"
    )


def test_a_slow_endpoint_is_a_low_finding() -> None:
    facts = healthy(
        bootstrap=(probe("bootstrap", None, 9092, latency_ms=5.0),),
        probes=(probe("broker", 1, 9092, latency_ms=999.0), probe("broker", 3, 9094, latency_ms=1505.7)),
    )
    report = diagnose(facts)
    assert [(f.check, f.severity, f.subject) for f in report.findings] == [
        ("endpoint-slow", Severity.low, "broker 3 at 127.0.0.1:9094")
    ]
    assert report.findings[0].message == "answered in 1506 ms (slower than 1000 ms)"
    assert not report.failed
    assert diagnose(facts, fail_on=Severity.low).failed


def test_two_brokers_advertising_one_endpoint_is_high_even_when_both_say_they_are_fine() -> None:
    """A SASL listener takes ApiVersions v5 unchecked: both probes 'verify', the shared address still shows."""
    nodes = (
        AdvertisedNode(role="broker", node_id=1, host="127.0.0.1", port=9092),
        AdvertisedNode(role="broker", node_id=2, host="127.0.0.1", port=9094),  # broker 3's
        AdvertisedNode(role="broker", node_id=3, host="127.0.0.1", port=9094),
        AdvertisedNode(role="controller", node_id=101, host="127.0.0.1", port=9094),  # another role: fine
    )
    report = diagnose(healthy(nodes=nodes))
    shared = [f for f in report.findings if f.check == "endpoint-shared"]
    assert [(f.severity, f.subject, f.message) for f in shared] == [
        (
            Severity.high,
            "brokers 2, 3",
            "all advertise 127.0.0.1:9094: clients asking for one of them reach another",
        )
    ]
    assert report.failed
