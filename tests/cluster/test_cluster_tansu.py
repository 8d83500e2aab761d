"""kcli cluster and doctor against a real tansu broker (what tansu offers, and what it does not)."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.tansu


def test_list_endpoints_against_tansu(kcli: Any, tansu: Any) -> None:
    result = kcli("cluster", "list-endpoints", "--bootstrap-server", tansu.bootstrap)
    assert result.code == 0, result.stderr
    assert result.lines[0].split() == ["ID", "HOST", "PORT", "RACK", "STATE", "ENDPOINT_TYPE"]
    assert result.lines[1].split() == [
        str(tansu.node_id),
        tansu.host,
        str(tansu.port),
        "null",
        "unfenced",
        "broker",
    ]
    as_json = kcli("cluster", "list-endpoints", "-b", tansu.bootstrap, "-o", "json").json
    assert as_json["cluster_id"] == tansu.cluster_id and as_json["nodes"][0]["id"] == tansu.node_id


def test_include_fenced_needs_describe_cluster_v2(kcli: Any, tansu: Any) -> None:
    # tansu offers DescribeCluster v0-v1 only: like kafka-cluster.sh, the message goes to stdout, exit 0.
    result = kcli("cluster", "list-endpoints", "-b", tansu.bootstrap, "--include-fenced-brokers")
    assert result.code == 0
    assert "DescribeCluster is not supported by this server" in result.stdout


def test_unregister_unsupported_is_reported_like_kafka(kcli: Any, tansu: Any) -> None:
    result = kcli("cluster", "unregister", "--id", "5", "-b", tansu.bootstrap)
    assert (result.code, result.lines) == (
        0,
        ["The target cluster does not support the broker unregistration API."],
    )


def test_doctor_on_tansu_reports_what_it_cannot_check(kcli: Any, tansu: Any) -> None:
    result = kcli("cluster", "doctor", "-b", tansu.bootstrap, "-o", "json")
    assert result.code == 0, result.stdout + result.stderr
    report = result.json
    assert report["healthy"] is True and report["cluster_id"] == tansu.cluster_id
    roles = sorted((e["role"], e["node_id"], e["ok"]) for e in report["endpoints"])
    assert roles == [("bootstrap", None, True), ("broker", tansu.node_id, True)]
    not_checked = " | ".join(f["message"] for f in report["findings"] if f["check"] == "not-checked")
    assert "DescribeQuorum is not supported" in not_checked
    assert "node identity not verifiable" in not_checked
    assert kcli("cluster", "doctor", "-b", tansu.bootstrap, "--fail-on", "info").code == 1


def test_doctor_unreachable_bootstrap_is_critical(kcli: Any) -> None:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    result = kcli("cluster", "doctor", "-b", f"127.0.0.1:{port}", "--timeout-ms", "2000")
    assert result.code == 1
    assert result.lines[0].startswith("CRITICAL bootstrap-unreachable")
    assert result.lines[-1].startswith("UNHEALTHY")


def test_doctor_bad_fail_on_is_usage(kcli: Any, tansu: Any) -> None:
    assert kcli("cluster", "doctor", "-b", tansu.bootstrap, "--fail-on", "loud").code == 2
