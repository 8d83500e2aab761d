"""Every built-in rule fires on the crafted dirty clusters and stays quiet on the clean ones.

One audit run (real local Spark, the shared session) over the crafted snapshots and metadata logs;
each rule is then checked on its own.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from kcli.audit.rules import load_builtin_rules
from kcli.audit.storage import to_uri

pytestmark = pytest.mark.spark

BUILTIN_IDS = [rule.id for rule in load_builtin_rules()]

# What each rule must report on the dirty clusters (a resource it must name).
EXPECTED: dict[str, tuple[str, str]] = {
    "replication-factor-below-floor": ("dirty-a", "topic:rf1"),
    "min-isr-unwritable": ("dirty-a", "topic:unwritable"),
    "min-isr-below-2": ("dirty-a", "topic:lowisr"),
    "unclean-leader-election": ("dirty-a", "topic:unclean"),
    "replicas-same-rack": ("dirty-a", "partition:samerack-0"),
    "under-replicated-partitions": ("dirty-a", "partition:urp-0"),
    "offline-partitions": ("dirty-a", "partition:fencedleader-0"),
    "leader-skew": ("dirty-a", "broker:1"),
    "replica-skew": ("dirty-a", "broker:1"),
    "disk-skew": ("dirty-a", "broker:1"),
    "broker-config-drift": ("dirty-a", "config:broker/num.io.threads"),
    "topic-config-drift": ("dirty-b", "topic:shared"),
    "acl-wildcard-principal-all": ("dirty-a", "acl:TOPIC:LITERAL:*"),
    "acl-unknown-topic": ("dirty-a", "acl:TOPIC:LITERAL:gone"),
    "topic-without-retention": ("dirty-a", "topic:forever"),
    "broker-fence-churn": ("dirty-a", "broker:2"),
    "partition-leader-changes": ("dirty-a", "partition:flappy-0"),
    "endpoint-identity": ("dirty-a", "endpoint:b1:9092"),
    "consumer-group-lag": ("dirty-a", "group:laggy"),
    "group-offset-before-log-start": ("dirty-a", "group:behind"),
}


@pytest.fixture(scope="module")
def audited(spark: Any, crafted_fleet: tuple[Path, Path], tmp_path_factory: pytest.TempPathFactory) -> Any:
    from kcli.audit.job import AuditRequest, run_audit

    snapshots, logs = crafted_fleet
    out = tmp_path_factory.mktemp("findings")
    request = AuditRequest(
        inputs=(to_uri(str(snapshots)),),
        metadata_dirs=(to_uri(str(logs)),),
        rules=load_builtin_rules(),
        out=to_uri(str(out)),
        worst=5,
    )
    result = run_audit(spark, request)
    lines = (out / "findings.jsonl").read_text().splitlines()
    return result, [json.loads(line) for line in lines], out


def test_every_rule_named_in_the_issue_is_built_in() -> None:
    assert sorted(BUILTIN_IDS) == sorted(EXPECTED)


@pytest.mark.parametrize("rule_id", BUILTIN_IDS)
def test_rule_fires_on_dirty_and_is_quiet_on_clean(audited: Any, rule_id: str) -> None:
    _result, findings, _out = audited
    mine = [f for f in findings if f["rule_id"] == rule_id]
    cluster, resource = EXPECTED[rule_id]
    assert any(f["cluster_id"] == cluster and f["resource"] == resource for f in mine), mine
    assert [f for f in mine if f["cluster_id"].startswith("clean-")] == []


def test_offline_rule_names_both_leaderless_and_fenced_leader(audited: Any) -> None:
    _result, findings, _out = audited
    offline = {f["resource"]: f["message"] for f in findings if f["rule_id"] == "offline-partitions"}
    assert offline["partition:offline-0"].startswith("no leader")
    assert offline["partition:fencedleader-0"] == "leader 5 is fenced or not registered"


def test_summary_counts_match_the_written_findings(audited: Any) -> None:
    result, findings, out = audited
    assert result.total == len(findings)
    for count in result.counts:
        assert count.findings == sum(1 for f in findings if f["rule_id"] == count.rule_id)
    assert result.clusters == 4
    assert result.worst[0].severity.name == "high"
    parquet = out / "findings.parquet"
    import pyarrow.parquet as pq

    assert pq.read_table(parquet).num_rows == len(findings)


def test_history_rows_come_from_the_written_logs(audited: Any) -> None:
    result, _findings, _out = audited
    # dirty-a: 8 fence/unfence + 1 create + 12 elections; clean-a: 3 unfence + 1 create + 2 elections.
    assert result.history_rows == 8 + 13 + 3 + 3


def test_a_single_replica_with_min_isr_1_is_not_unwritable(audited: Any) -> None:
    _result, findings, _out = audited
    on_rf1 = {f["rule_id"] for f in findings if f["cluster_id"] == "dirty-a" and f["resource"] == "topic:rf1"}
    # RF 1 is reported once, as below the floor (and min.insync.replicas=1 as below 2); one replica
    # cannot lag, so acks=all writes do not fail on it.
    assert on_rf1 == {"replication-factor-below-floor", "min-isr-below-2"}
    unwritable = {f["resource"]: f["message"] for f in findings if f["rule_id"] == "min-isr-unwritable"}
    assert unwritable == {
        "topic:unwritable": "min.insync.replicas=3 exceeds replication factor 2: acks=all writes always fail"
    }


def test_endpoint_identity_names_shared_misrouted_and_foreign_endpoints(audited: Any) -> None:
    _result, findings, _out = audited
    found = {
        (f["cluster_id"], f["resource"]): f["message"]
        for f in findings
        if f["rule_id"] == "endpoint-identity"
    }
    assert found == {
        (
            "dirty-a",
            "endpoint:b1:9092",
        ): "advertised by broker 1 and broker 2: clients reach only the node listening there",
        ("dirty-a", "broker:2"): "endpoint b1:9092 is served by node 1",
        ("dirty-b", "broker:3"): "endpoint b3:9092 answers for cluster elsewhere",
    }


def test_a_complete_input_has_no_warnings_and_empty_warning_files(audited: Any) -> None:
    result, _findings, out = audited
    assert result.warnings == ()
    assert (out / "warnings.jsonl").read_text() == ""
    import pyarrow.parquet as pq

    assert pq.read_table(out / "warnings.parquet").num_rows == 0


def test_group_rules_name_the_topic_and_how_far_behind(audited: Any) -> None:
    _result, findings, _out = audited
    found = {
        (f["rule_id"], f["resource"]): f["message"]
        for f in findings
        if f["rule_id"].startswith(("consumer-group", "group-"))
    }
    assert found == {
        ("consumer-group-lag", "group:laggy"): (
            "3 partition(s) of topic busy lag more than 10000 records: 60000 in all, the most 20000 "
            "(the group is Empty)"
        ),
        ("group-offset-before-log-start", "group:behind"): (
            "1 partition(s) of topic forever committed below the log start offset: "
            "490 record(s) deleted unread"
        ),
    }
