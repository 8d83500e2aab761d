"""The clusters and tool JVMs of the differential suite: one real cluster and one Kafka tool JVM per release.

Kafka 4.4.0 is the session's `real_kafka` (3 controllers + 3 brokers, SASL_SSL, SCRAM users, the
StandardAuthorizer), Kafka 4.0.2 its `real_kafka_oldest` (one combined node, plaintext). Both tools
use the same client settings: the cluster's command_config() (SCRAM-SHA-256 as admin on 4.4.0), plus
short Admin timeouts so a line Kafka's Admin client retries until its deadline fails in seconds.
"""

from __future__ import annotations

import shlex
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.fixtures_kafka import kafka_home
from tests.kafka_diff import corpus
from tests.kafka_diff.tools import DriverError, KafkaTools, ToolRun, compile_driver

NOWHERE = "127.0.0.1:1"  # where the parity suite's placeholder addresses point: nothing listens there
# Both tools read these from the --command-config file (the Admin client's own keys).
TIMEOUTS = {"request.timeout.ms": "8000", "default.api.timeout.ms": "8000", "retry.backoff.ms": "100"}
SCRAM = "SCRAM-SHA-256"


@dataclass
class Target:
    """One real cluster, the Kafka release it runs, and that release's tools in one JVM."""

    version: str
    kafka: Any  # KafkaSandbox
    tools: KafkaTools
    config: Path
    controller_config: Path  # the controllers' listener may offer other SASL mechanisms than the brokers'
    placeholders: dict[str, str] = field(default_factory=dict)  # more corpus words this cluster fills in
    groups: Any = None  # the corpus's groups being made (tests/kafka_diff/group_state.py), if any

    def prepare(self, case: corpus.Case) -> None:
        """Wait for what the case needs of the cluster: the corpus's groups for the group tools."""
        if self.groups is not None and case.tool in corpus.corpus_groups.TOOLS:
            self.groups.wait()

    def substitute(self, line: str, files: Path, corpus_case: corpus.Case | None = None) -> list[str]:
        """A corpus line made concrete for this cluster (see tests/kafka_diff/corpus.py)."""
        values = {
            "{files}": str(files),
            "{controller}": str(self.kafka.controller_ids[0]),
            "{active_controller}": str(self.kafka.active_controller_id)
            if "{active_controller}" in line
            else "",
        }
        for placeholder, value in {**values, **self.placeholders}.items():
            line = line.replace(placeholder, value)
        argv = shlex.split(line)[1:]
        to_controllers = "localhost:9093" in argv and "localhost:9092" not in argv
        config = self.controller_config if to_controllers else self.config
        servers, controllers = self.kafka.bootstrap_servers, self.kafka.bootstrap_controllers
        if corpus_case is not None and corpus_case.placeholder_addresses:
            servers = controllers = NOWHERE
        argv = [
            servers
            if arg == "localhost:9092"
            else controllers
            if arg == "localhost:9093"
            else str(config)
            if arg == "client.properties"
            else arg
            for arg in argv
        ]
        return with_command_config(shlex.split(line)[0], argv, config)

    def kafka_tool(self, line: str, files: Path) -> ToolRun:
        """Run a corpus line with Kafka's tool of this release."""
        tool = corpus.Case("", line, "").tool
        return self.tools.run(tool, self.substitute(line, files))


def with_command_config(program: str, argv: list[str], config: Path) -> list[str]:
    """argv with the client settings after the first bootstrap option, unless it names a config file."""
    if any(arg in ("--command-config", "--config", "-c") for arg in argv):
        return argv
    for index, arg in enumerate(argv):
        if arg in ("--bootstrap-server", "--bootstrap-controller") and index + 1 < len(argv):
            flag = "-c" if program.endswith("kafka-cluster.sh") else "--command-config"
            return [*argv[: index + 2], flag, str(config), *argv[index + 2 :]]
    return argv


@pytest.fixture(scope="session")
def tool_driver(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """ToolDriver.java compiled once per session."""
    try:
        return compile_driver(tmp_path_factory.mktemp("tool-driver"))
    except DriverError as error:
        pytest.fail(f"Kafka's tools cannot run here: {error}", pytrace=False)


def make_target(version: str, kafka: Any, tool_driver: Path, directory: Path) -> Target:
    """A Target for a started KafkaSandbox: client settings for both tools, and Kafka's tools in a JVM."""
    from kcli.sandbox.clientconfig import write_properties

    secure = kafka.settings.security.value != "plaintext"
    settings = {**(kafka.client_settings("admin", SCRAM) if secure else {}), **TIMEOUTS}
    config = write_properties(directory / "client.properties", settings)
    # The sandbox's controller listener takes SASL/PLAIN only (its inter-controller mechanism).
    plain = {**(kafka.client_settings("admin", "PLAIN") if secure else {}), **TIMEOUTS}
    controller_config = write_properties(directory / "controller-client.properties", plain)
    tools = KafkaTools(kafka_home(version), tool_driver, directory / "tools-jvm.log")
    return Target(
        version=version, kafka=kafka, tools=tools, config=config, controller_config=controller_config
    )


def _target(
    version: str, kafka: Any, tool_driver: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Target]:
    from tests.kafka_diff.group_state import GroupSetup

    directory = tmp_path_factory.mktemp(f"kafka-diff-{version}")
    target = make_target(version, kafka, tool_driver, directory)
    try:
        create_topics(target, directory)
        secure = kafka.settings.security.value != "plaintext"
        settings = kafka.client_settings("admin", SCRAM) if secure else {}
        target.groups = GroupSetup(target, directory, settings, directory / "groups-jvm.log")
        yield target
    finally:
        if target.groups is not None:
            target.groups.stop()
        target.tools.close()


def create_topics(target: Target, files: Path) -> None:
    """The corpus's topics (corpus.TOPICS), made afresh with Kafka's kafka-topics (one broker: replicas on 1)."""
    import time

    one_broker = len(target.kafka.broker_ids) == 1
    listed = target.kafka_tool("bin/kafka-topics.sh --bootstrap-server localhost:9092 --list", files)
    existing = set(listed.stdout.split()) & set(corpus.TOPICS)
    for name in existing:
        target.kafka_tool(
            f"bin/kafka-topics.sh --bootstrap-server localhost:9092 --delete --topic {name}", files
        )
    deadline = time.monotonic() + 60
    while existing and time.monotonic() < deadline:
        listed = target.kafka_tool("bin/kafka-topics.sh --bootstrap-server localhost:9092 --list", files)
        existing &= set(listed.stdout.split())
        time.sleep(0.5)
    for name, assignment in corpus.TOPICS.items():
        replicas = [[1] for _ in assignment] if one_broker else assignment
        layout = ",".join(":".join(map(str, r)) for r in replicas)
        done = target.kafka_tool(
            f"bin/kafka-topics.sh --bootstrap-server localhost:9092 --create --topic {name} "
            f"--replica-assignment {layout}",
            files,
        )
        if done.code != 0:
            raise AssertionError(f"cannot create topic {name}: {done.stdout}{done.stderr}")


@pytest.fixture(scope="session")
def diff_newest(
    real_kafka: Any, tool_driver: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Target]:
    yield from _target(corpus.NEWEST, real_kafka, tool_driver, tmp_path_factory)


@pytest.fixture(scope="session")
def diff_oldest(
    real_kafka_oldest: Any, tool_driver: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Target]:
    yield from _target(corpus.OLDEST, real_kafka_oldest, tool_driver, tmp_path_factory)
