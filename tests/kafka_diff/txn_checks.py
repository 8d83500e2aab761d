"""kcli's transactions, client-metrics, delegation-tokens and broker-api-versions on the differential suite's
real clusters, where the corpus (tests/kafka_diff/corpus_txn.py) cannot look (collected as part of
tests/kafka_diff/test_kafka_diff.py, so they run on its worker with its clusters): their -o json against the
documented schemas, cluster doctor on a real hanging transaction (its abort command run as printed),
and what kcli refuses that Kafka's tools would do (state read back by Kafka's tools).

Kafka 4.0.2's one plaintext node holds the transactions (cheap to reach); Kafka 4.4.0's SASL_SSL cluster
the tokens.
"""

from __future__ import annotations

import shlex
import time
from pathlib import Path
from typing import Any

from tests.conftest import CliResult, invoke
from tests.kafka_diff import txn_state
from tests.kafka_diff.conftest import Target
from tests.polish.schema_check import errors

REPO = Path(__file__).resolve().parents[2]


def kcli(target: Target, tool: str, *args: str) -> CliResult:
    """`kcli TOOL -b BROKERS -c CONFIG ARGS` on the target."""
    return invoke(tool, "-b", target.kafka.bootstrap_servers, "-c", str(target.config), *args)


def valid(command: str, result: CliResult) -> Any:
    import json

    assert result.code == 0, result.stderr
    schema = json.loads(
        (REPO / "docs" / "json" / "schemas" / f"{command.replace(' ', '-')}.json").read_text()
    )
    assert errors(result.json, schema) == []
    return result.json


def test_transactions_json_and_the_doctor_on_a_hanging_transaction(
    diff_oldest: Target, tmp_path: Path
) -> None:
    target = diff_oldest
    txn_state.prepare(target, tmp_path)
    listed = valid("transactions list", kcli(target, "transactions", "list", "-o", "json"))
    assert {"tx-committed", "tx-aborted", "tx-open"} <= {
        t["transactional_id"] for t in listed["transactions"]
    }
    described = valid(
        "transactions describe",
        kcli(target, "transactions", "describe", "--transactional-id", "tx-open", "-o", "json"),
    )
    assert described["state"] in ("Ongoing", "CompleteAbort") and described["producer_id"] >= 0
    producers = kcli(
        target, "transactions", "describe-producers", "--topic", "txn-topic", "--partition", "1", "-o", "json"
    )
    assert len(valid("transactions describe-producers", producers)["producers"]) >= 3

    topic = "txn-doctor"
    txn_state.fresh_hang(target, tmp_path, topic)
    try:
        doctor = kcli(target, "cluster", "doctor", "--max-transaction-timeout", "0")
        assert doctor.code == 1, doctor.stdout  # a hanging transaction is high: the default --fail-on
        (line,) = [
            line for line in doctor.lines if line.startswith("HIGH") and f"partition {topic}-0" in line
        ]
        assert "hanging transaction" in line and "no coordinator knows the producer" in line
        command = shlex.split(line.rsplit("(abort it: ", 1)[1].removesuffix(")"))
        assert command[:2] == ["kcli", "transactions"] and command[-2:] == ["--start-offset", "0"]
        hanging = kcli(
            target,
            "transactions",
            "find-hanging",
            "--topic",
            topic,
            "--max-transaction-timeout",
            "0",
            "-o",
            "json",
        )
        (found,) = valid("transactions find-hanging", hanging)["hanging"]
        assert shlex.split(found["abort_command"]) == command
        aborted = invoke(*command[1:], "-o", "json")  # the command as printed (kcli's own argv after `kcli`)
        assert valid("transactions abort", aborted)["aborted"] is True
        after = target.kafka_tool(
            f"bin/kafka-transactions.sh --bootstrap-server localhost:9092 find-hanging --topic {topic} "
            "--max-transaction-timeout 0",
            tmp_path,
        )
        assert after.code == 0 and len(after.stdout.strip().splitlines()) == 1  # Kafka's tool: header only
        healthy = kcli(target, "cluster", "doctor", "--max-transaction-timeout", "0")
        assert not [line for line in healthy.lines if f"partition {topic}-" in line], healthy.stdout
    finally:
        txn_state.drop_topic(target, tmp_path, topic)


def test_what_kcli_refuses_leaves_the_cluster_as_it_was(diff_oldest: Target, tmp_path: Path) -> None:
    target = diff_oldest
    unknown = "kcli-never-seen"
    refused = kcli(target, "transactions", "forceTerminateTransaction", "--transactionalId", unknown)
    assert refused.code == 1 and "could not be found" in refused.stderr
    described = target.kafka_tool(
        f"bin/kafka-transactions.sh --bootstrap-server localhost:9092 describe --transactional-id {unknown}",
        tmp_path,
    )
    assert described.code == 1 and "could not be found" in described.stderr  # Kafka's tool would have made it
    started = time.monotonic()
    missing = kcli(
        target, "transactions", "describe-producers", "--topic", "no-such-topic", "--partition", "0"
    )
    assert missing.code == 1 and "does not host this topic-partition" in missing.stderr
    assert time.monotonic() - started < 5  # at once: Kafka's Admin waits default.api.timeout.ms
    gone = kcli(target, "client-metrics", "--delete", "--name", "cm-never")
    assert gone.code == 0 and "doesn't exist" in gone.stdout
    listed = target.kafka_tool(
        "bin/kafka-client-metrics.sh --bootstrap-server localhost:9092 --list", tmp_path
    )
    assert "cm-never" not in listed.stdout


def test_client_metrics_and_api_versions_json(diff_oldest: Target) -> None:
    target = diff_oldest
    altered = kcli(
        target,
        "client-metrics",
        "--alter",
        "--name",
        "cm-json",
        "--metrics",
        "a.,b.",
        "--interval",
        "2000",
        "-o",
        "json",
    )
    assert valid("client-metrics", altered)["changes"] == {"interval.ms": "2000", "metrics": "a.,b."}
    try:
        described = valid(
            "client-metrics", kcli(target, "client-metrics", "--describe", "--name", "cm-json", "-o", "json")
        )
        assert described["client_metrics"][0]["configs"]["metrics"] == "a.,b."
        assert (
            "cm-json"
            in valid("client-metrics", kcli(target, "client-metrics", "--list", "-o", "json"))[
                "client_metrics"
            ]
        )
    finally:
        assert kcli(target, "client-metrics", "--delete", "--name", "cm-json").code == 0
    versions = valid("broker-api-versions", kcli(target, "broker-api-versions", "-o", "json"))
    assert [node["id"] for node in versions["nodes"]] == sorted(target.kafka.broker_ids)


def test_tokens_json_and_the_hmac_stays_out_of_stderr(diff_newest: Target, tmp_path: Path) -> None:
    target = diff_newest
    created = kcli(
        target,
        "delegation-tokens",
        "--create",
        "--max-life-time-period",
        "-1",
        "--renewer-principal",
        "User:alice",
        "-o",
        "json",
    )
    token = valid("delegation-tokens", created)["token"]
    try:
        # the caller's own tokens; the broker learns of a new token from the metadata log a moment later
        deadline = time.monotonic() + 15
        while True:
            described = valid(
                "delegation-tokens", kcli(target, "delegation-tokens", "--describe", "-o", "json")
            )
            if token["token_id"] in {t["token_id"] for t in described["tokens"]}:
                break
            assert time.monotonic() < deadline, described
            time.sleep(0.2)
        renewed = kcli(
            target, "delegation-tokens", "--renew", "--renew-time-period", "-1", "--hmac", token["hmac"]
        )
        assert renewed.code == 0 and token["hmac"] not in renewed.stdout + renewed.stderr
        assert renewed.lines[-1].startswith("Completed renew operation. New expiry date : ")
    finally:
        expired = kcli(
            target, "delegation-tokens", "--expire", "--expiry-time-period", "-1", "--hmac", token["hmac"]
        )
        assert expired.code == 0, expired.stderr
    again = kcli(target, "delegation-tokens", "--renew", "--renew-time-period", "-1", "--hmac", token["hmac"])
    assert again.code == 1 and "DELEGATION_TOKEN_NOT_FOUND" in again.stderr
    assert token["hmac"] not in again.stdout + again.stderr
