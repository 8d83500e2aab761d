"""The consumer groups every differential target has, made the way operators make them.

Once per target (tests/kafka_diff/conftest.py calls `make_groups`), on the corpus topic `topic1`
(corpus_groups.GROUP_TOPIC, 3 partitions):
- 300 keyed records, written by Kafka's own ConsoleProducer (`--property parse.key=true`);
- the groups of corpus_groups.CONSOLE_GROUPS, each made by Kafka's own ConsoleConsumer
  (`--group G --from-beginning --max-messages N`, the classic or the KIP-848 protocol), which
  commits on close and leaves the group Empty with committed offsets;
- the groups of corpus_groups.ACTIVE_GROUPS, kept Stable by a librdkafka (confluent-kafka)
  consumer in a thread of this process for the whole session, each of both protocols, having read
  every record (their offsets do not move while the cases run);
- on Kafka 4.4, the share group of corpus_groups.SHARE_GROUP, made by Kafka's ConsoleShareConsumer.
Every wait polls with a deadline. The groups are made in a thread of their own, with a tool JVM of
their own (GroupSetup), while the cases of the other tools run; a group tool's case waits for them.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

from tests.kafka_diff import corpus_groups as spec
from tests.kafka_diff.corpus import OLDEST
from tests.kafka_diff.librdkafka import librdkafka_settings as librdkafka_settings

READY_DEADLINE_S = 90.0


class ActiveMembers:
    """librdkafka consumers, one per active group, polling in threads until `stop()`."""

    def __init__(self, settings: dict[str, str], bootstrap: str) -> None:
        self._settings = settings
        self._bootstrap = bootstrap
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        self._assigned: dict[str, threading.Event] = {}

    def start(self, group: str, protocol: str) -> None:
        ready = threading.Event()
        self._assigned[group] = ready
        thread = threading.Thread(
            target=self._run, args=(group, protocol, ready), daemon=True, name=f"member-{group}"
        )
        thread.start()
        self._threads.append(thread)

    def _run(self, group: str, protocol: str, ready: threading.Event) -> None:
        import confluent_kafka

        conf = {
            **librdkafka_settings(self._settings),
            "bootstrap.servers": self._bootstrap,
            "group.id": group,
            "client.id": f"{group}-client",
            "auto.offset.reset": "earliest",
            "enable.auto.commit": True,
            "auto.commit.interval.ms": 500,
            "log_level": 0,
        }
        if protocol == "consumer":
            conf["group.protocol"] = "consumer"
        consumer = confluent_kafka.Consumer(conf)
        consumer.subscribe([spec.GROUP_TOPIC])
        seen = 0
        try:
            while not self._stop.is_set():
                message = consumer.poll(0.2)
                if message is not None and not message.error():
                    seen += 1
                if seen >= spec.RECORDS:
                    consumer.commit(asynchronous=False) if not ready.is_set() else None
                    ready.set()
        finally:
            consumer.close()

    def wait_ready(self, deadline_s: float = READY_DEADLINE_S) -> None:
        end = time.monotonic() + deadline_s
        for group, ready in self._assigned.items():
            if not ready.wait(max(0.0, end - time.monotonic())):
                raise AssertionError(f"the librdkafka member of {group} did not read every record in time")

    def stop(self) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join(timeout=15)


class GroupSetup:
    """make_groups in a thread, with its own Kafka tool JVM; `wait()` before a case that needs the groups."""

    def __init__(self, target: Any, files: Path, settings: dict[str, str], log: Path) -> None:
        from tests.kafka_diff.tools import KafkaTools

        self._tools = KafkaTools(target.tools.kafka_home, target.tools.classes, log)
        self._members: ActiveMembers | None = None
        self._error: BaseException | None = None
        self._thread = threading.Thread(
            target=self._make, args=(target, files, settings), daemon=True, name="groups"
        )
        self._thread.start()

    def _make(self, target: Any, files: Path, settings: dict[str, str]) -> None:
        try:
            self._members = make_groups(target, files, settings, self._tools)
        except BaseException as error:  # reported to the cases that wait for the groups
            self._error = error
        finally:
            self._tools.close()

    def wait(self, deadline_s: float = 600.0) -> None:
        self._thread.join(timeout=deadline_s)
        if self._thread.is_alive():
            raise AssertionError(f"the corpus's groups were not made within {deadline_s:.0f} s")
        if self._error is not None:
            raise AssertionError(f"the corpus's groups could not be made: {self._error}") from self._error

    def stop(self) -> None:
        self._thread.join(timeout=120)
        if self._members is not None:
            self._members.stop()


def make_groups(target: Any, files: Path, settings: dict[str, str], tools: Any) -> ActiveMembers:
    """Records and the corpus's groups on `target` (see the module doc); the active members run on."""

    def run_line(line: str) -> Any:
        from tests.kafka_diff.corpus import Case

        return tools.run(Case("", line, "").tool, target.substitute(line, files))

    config = str(target.config)
    bootstrap = target.kafka.bootstrap_servers
    lines = "".join(f"k{i}:record {i}\n" for i in range(spec.RECORDS))
    produced = tools.run(
        "console-producer",
        [
            "--bootstrap-server",
            bootstrap,
            "--topic",
            spec.GROUP_TOPIC,
            "--producer.config",
            config,
            "--property",
            "parse.key=true",
            "--property",
            "key.separator=:",
        ],
        stdin=lines,
    )
    assert produced.code == 0, f"ConsoleProducer failed: {produced.stdout}{produced.stderr}"
    members = ActiveMembers(settings, bootstrap)
    for group, protocol in spec.ACTIVE_GROUPS.items():
        members.start(group, protocol)
    for group, (protocol, count, _offsets) in spec.CONSOLE_GROUPS.items():
        args = [
            "--bootstrap-server",
            bootstrap,
            "--topic",
            spec.GROUP_TOPIC,
            "--group",
            group,
            "--from-beginning",
            "--max-messages",
            str(count),
            "--consumer.config",
            config,
            "--timeout-ms",
            "30000",
        ]
        if protocol == "consumer":
            args += ["--consumer-property", "group.protocol=consumer"]
        consumed = tools.run("console-consumer", args, deadline_s=180)
        assert consumed.code == 0, f"ConsoleConsumer of {group} failed: {consumed.stderr[-2000:]}"
        for line in spec.restore(group):  # the same offsets in every run, whatever the fetches read
            done = run_line(line)
            assert done.code == 0, f"{line}: {done.stdout}{done.stderr}"
    if target.version != OLDEST:
        _share_group(run_line, tools, config, bootstrap)
    members.wait_ready()
    return members


def _share_group(run_line: Any, tools: Any, config: str, bootstrap: str) -> None:
    """A share group with a start offset: Kafka's ConsoleShareConsumer reads a few records and leaves
    (from the earliest record: share.auto.offset.reset set on the group first)."""
    line = (
        "bin/kafka-configs.sh --bootstrap-server localhost:9092 --alter --entity-type groups "
        f"--entity-name {spec.SHARE_GROUP} --add-config share.auto.offset.reset=earliest"
    )
    done = run_line(line)
    assert done.code == 0, f"{line}: {done.stdout}{done.stderr}"
    args = [
        "--bootstrap-server",
        bootstrap,
        "--topic",
        spec.GROUP_TOPIC,
        "--group",
        spec.SHARE_GROUP,
        "--max-messages",
        "10",
        "--consumer-config",
        config,
        "--timeout-ms",
        "30000",
    ]
    consumed = tools.run("console-share-consumer", args, deadline_s=180)
    assert consumed.code == 0, f"ConsoleShareConsumer failed: {consumed.stderr[-2000:]}"
