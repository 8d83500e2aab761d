"""Fixtures that run real Apache Kafka: its jars from Maven Central (scripts/kafka-dist.sh), one JVM per node.

- `kafka_home(version)`: the distribution of a release (assembled once, cached per version).
- `real_kafka`: Kafka NEWEST, 3 controllers + 3 brokers (two log dirs each), SASL_SSL with SCRAM users
  and the StandardAuthorizer, delegation tokens enabled, for the whole session (tests use names of
  their own). Its nodes write
  a metadata snapshot every SNAPSHOT_EVERY_BYTES of new records, so its logs have snapshots to read.
- `real_kafka_oldest`: Kafka OLDEST as one combined node (plaintext), for the whole session.
- `make_real_kafka`: real clusters of other shapes, stopped after the test.
Without java or mvn these tests are skipped with what to install; with KCLI_REQUIRE_REAL_KAFKA=1 (CI)
they fail instead, so a machine that lost Java cannot pass CI by skipping.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

NEWEST = "4.4.0"
OLDEST = "4.0.2"
REPO = Path(__file__).resolve().parents[1]
REQUIRED_ENV = "KCLI_REQUIRE_REAL_KAFKA"
SNAPSHOT_EVERY_BYTES = 4096
DELEGATION_TOKEN_SECRET = "kcli-test-token-secret"  # real_kafka serves delegation tokens (KIP-48)
_homes: dict[str, Path] = {}


def _unavailable(reason: str) -> None:
    if os.environ.get(REQUIRED_ENV) == "1":
        pytest.fail(f"real Kafka is required ({REQUIRED_ENV}=1) but {reason}", pytrace=False)
    pytest.skip(reason)


def kafka_home(version: str) -> Path:
    """The Kafka `version` distribution, made by scripts/kafka-dist.sh (skips or fails when it cannot be)."""
    if version in _homes:
        return _homes[version]
    missing = [tool for tool in ("java", "mvn") if shutil.which(tool) is None]
    if missing:
        _unavailable(
            f"{' and '.join(missing)} not on PATH (install a Java 17 JDK and Maven to run real Kafka)"
        )
    result = subprocess.run(
        ["bash", str(REPO / "scripts" / "kafka-dist.sh"), version],
        capture_output=True,
        text=True,
        timeout=900,
    )
    if result.returncode != 0:
        _unavailable(f"scripts/kafka-dist.sh {version} failed: {result.stderr.strip().splitlines()[-1:]}")
    _homes[version] = Path(result.stdout.strip().splitlines()[-1])
    return _homes[version]


@pytest.fixture(scope="session")
def real_kafka(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """Kafka NEWEST: 3 controllers + 3 brokers, SASL_SSL, SCRAM users, StandardAuthorizer, 2 log dirs."""
    from kcli.sandbox.kafka.handle import KafkaSandbox

    home = kafka_home(NEWEST)
    with KafkaSandbox(
        home,
        tmp_path_factory.mktemp("real-kafka"),
        controllers=3,
        brokers=3,
        security="sasl_ssl",
        authorizer=True,
        log_dirs=2,
        server_config={
            "metadata.log.max.record.bytes.between.snapshots": str(SNAPSHOT_EVERY_BYTES),
            "delegation.token.secret.key": DELEGATION_TOKEN_SECRET,
        },
    ) as kafka:
        yield kafka


@pytest.fixture(scope="session")
def real_kafka_oldest(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """Kafka OLDEST as one combined broker+controller node, plaintext."""
    from kcli.sandbox.kafka.handle import KafkaSandbox

    home = kafka_home(OLDEST)
    with KafkaSandbox(
        home, tmp_path_factory.mktemp("real-kafka-oldest"), controllers=1, brokers=1, combined=True
    ) as kafka:
        yield kafka


@pytest.fixture
def make_real_kafka(tmp_path: Path) -> Iterator[Callable[..., Any]]:
    """`make_real_kafka(version=NEWEST, controllers=1, brokers=1, ...)` -> a started KafkaSandbox."""
    from kcli.sandbox.kafka.handle import KafkaSandbox

    started: list[Any] = []

    def make(version: str = NEWEST, **options: Any) -> Any:
        kafka = KafkaSandbox(kafka_home(version), tmp_path / f"kafka-{len(started)}", **options)
        kafka.start()
        started.append(kafka)
        return kafka

    yield make
    for kafka in reversed(started):
        kafka.stop()
