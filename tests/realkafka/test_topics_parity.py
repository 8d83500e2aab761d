"""`kcli topics` beside kafka-topics.sh on real Kafka 4.4.0: the same lines for the same cluster."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import invoke
from tests.fixtures_kafka import NEWEST, kafka_home
from tests.kafka_tools import kafka_tool

pytestmark = [pytest.mark.realkafka, pytest.mark.slow]


def test_describe_and_list_print_what_kafka_topics_prints(real_kafka: Any) -> None:
    home = kafka_home(NEWEST)
    common = (
        "--bootstrap-server",
        real_kafka.bootstrap_servers,
        "--command-config",
        str(real_kafka.command_config()),
    )
    kafka_tool(
        home, "kafka-topics.sh", *common, "--create", "--topic", "topics-parity",
        "--replica-assignment", "1:2,2:3,3:1", "--config", "retention.ms=120000",
    )  # fmt: skip
    theirs = kafka_tool(home, "kafka-topics.sh", *common, "--describe", "--topic", "topics-parity").stdout
    ours = invoke("topics", *common, "--describe", "--topic", "topics-parity")
    assert ours.code == 0, ours.stderr
    assert ours.stdout == theirs
    assert "retention.ms=120000" in ours.lines[0]

    listed = kafka_tool(home, "kafka-topics.sh", *common, "--list", "--exclude-internal").stdout
    mine = invoke("topics", *common, "--list", "--exclude-internal")
    assert mine.lines == listed.splitlines()
