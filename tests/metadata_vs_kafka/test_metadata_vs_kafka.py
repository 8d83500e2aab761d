"""kcli's metadata reader against Kafka's own decoders, on the logs and snapshots a real cluster wrote.

One cluster per Kafka version (module-scoped: 1 controller, 2 brokers, SASL, the StandardAuthorizer)
is filled by tests/metadata_vs_kafka/populate.py with every kind of metadata record (thousands of
topics and partitions, configs, SCRAM, quotas, ACLs, features, a reassignment, producer ids,
delegation tokens, a broker restart); a low metadata.log.max.record.bytes.between.snapshots makes
its controller write several snapshots. Both tools then read one copy of the controller's
__cluster_metadata-0, taken once the cluster has stopped (a running node holds a lock on its log
dir, which both tools refuse, and may be half-way through writing a batch).

- `kcli metadata-shell --snapshot FILE --dump -o json` against `kafka-dump-log.sh
  --cluster-metadata-decoder --files ...` (DumpLogSegments: kafka.tools on 4.0,
  org.apache.kafka.tools from 4.3), every segment and snapshot, on 4.4.0 and 4.0.2: the same
  records, types, versions, fields and values. Normalizations (kafka_dump.NORMALIZATIONS):
  1. record type names: Kafka prints MetadataRecordType's constant (TOPIC_RECORD) and its control
     labels (SnapshotHeader, KRaftVoters, LeaderChange), kcli the schema names; both map to one name;
  2. the epoch: Kafka prints a batch's partitionLeaderEpoch on the batch line, kcli on each record;
  3. SCRAM salts and keys: kcli's dump prints [redacted] (a deliberate difference, docs/parity.md);
     their bytes are compared through kcli's reader instead;
  4. control records Kafka's tool prints as `controlType: NAME(ID)` (not decoded) compare by type.
- `ls`, `cat`, `find`, `tree` of every path against Kafka's MetadataShell (MetadataShellDriver.java
  runs Kafka's own shell commands on one loaded snapshot) on the newest snapshot of the 4.0.2
  cluster: kafka-shell 4.4.0 is not on Maven Central, and 4.0.2's shell cannot read what 4.4 writes.
  kcli runs the same commands as one script on stdin (each output headed by `# COMMAND`).
  Normalizations and the paths left out (SHELL_NORMALIZATIONS), each a difference of Kafka 4.0.2's
  shell listed in docs/parity.md:
  1. /local describes the tool itself (Kafka: its version and commit; kcli: what it read): not compared;
  2. SCRAM salts and keys: kcli shows [redacted] in ScramCredentialData(...);
  3. /image/features/zkMigrationState: 4.0 lists it and then cannot find it (4.4 dropped it): left out;
  4. /image/clientQuotas: Kafka names a default entity "" (its `find` stops there with an exception),
     kcli `user()`, `clientId()`, `ip()`: compared under /image/clientQuotas with "" for those names;
  5. /image/provenance: Kafka's shell reads a snapshot file as a log (SnapshotFileReader), so its
     offset is the last record's place in the file and its time the last batch's; kcli shows the
     snapshot's own end offset and time: the line's form and epoch are compared, not those two values.
"""

from __future__ import annotations

import base64
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.fixtures_kafka import NEWEST, OLDEST, kafka_home
from tests.metadata_vs_kafka import kafka_dump, populate

# two clusters started and filled under a loaded CI machine: more than the suite's 300 s per test
pytestmark = [pytest.mark.realkafka, pytest.mark.slow, pytest.mark.timeout(900)]

HERE = Path(__file__).resolve().parent
TOPICS = 1500  # two partitions, two replicas each: thousands of partition records per snapshot
SERVER_CONFIG = {
    "metadata.log.max.record.bytes.between.snapshots": "65536",
    "delegation.token.secret.key": "metadata-vs-kafka-secret",
}
END = "\u001e"  # MetadataShellDriver's end-of-output line
SHELL_NORMALIZATIONS = (
    "/local describes the tool (Kafka: version and commit; kcli: what it read): not compared",
    "SCRAM salts and keys: kcli shows [redacted] in ScramCredentialData(...)",
    "/image/features/zkMigrationState: Kafka 4.0 lists it, then cannot find it (4.4 dropped it): left out",
    'default client-quota entities: Kafka names them "" (its find stops there), kcli user(), clientId(), ip()',
    "/image/provenance: Kafka's offset and time are the snapshot file's last record's; kcli's the snapshot's "
    "end: the form and the epoch are compared",
)
# What populate.py must leave in the log for the comparison to mean something.
EXPECTED_TYPES = {
    "TOPIC_RECORD", "PARTITION_RECORD", "PARTITION_CHANGE_RECORD", "REMOVE_TOPIC_RECORD", "CONFIG_RECORD",
    "USER_SCRAM_CREDENTIAL_RECORD", "REMOVE_USER_SCRAM_CREDENTIAL_RECORD", "CLIENT_QUOTA_RECORD",
    "ACCESS_CONTROL_ENTRY_RECORD", "REMOVE_ACCESS_CONTROL_ENTRY_RECORD", "FEATURE_LEVEL_RECORD",
    "PRODUCER_IDS_RECORD", "DELEGATION_TOKEN_RECORD", "REMOVE_DELEGATION_TOKEN_RECORD", "REGISTER_BROKER_RECORD",
    "BROKER_REGISTRATION_CHANGE_RECORD", "REGISTER_CONTROLLER_RECORD", "NO_OP_RECORD", "SNAPSHOT_HEADER_RECORD",
    "SNAPSHOT_FOOTER_RECORD", "VOTERS_RECORD", "KRAFT_VERSION_RECORD",
}  # fmt: skip


class Populated:
    """A populated cluster's distribution and a copy of its controller's metadata log."""

    def __init__(self, home: Path, log: Path) -> None:
        self.home = home
        self.log = log

    def files(self) -> list[Path]:
        return sorted([*self.log.glob("*.log"), *self.log.glob("*.checkpoint")])

    def snapshots(self) -> list[Path]:
        return sorted(p for p in self.log.glob("*.checkpoint") if not p.name.startswith("00000000000000000000-"))


def _populated(version: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Populated]:
    from kcli.sandbox.kafka.handle import KafkaSandbox

    home = kafka_home(version)
    directory = tmp_path_factory.mktemp(f"metadata-vs-kafka-{version}")
    with KafkaSandbox(
        home, directory / "cluster", controllers=1, brokers=2, security="sasl_plaintext", authorizer=True,
        server_config=SERVER_CONFIG,
    ) as kafka:  # fmt: skip
        populate.populate(kafka, directory / "work", topics=TOPICS)
        log = kafka.metadata_log_dir(kafka.controller_ids[0])
    # copied once the nodes have stopped: a running controller may be half-way through a batch
    copy = directory / "copy" / log.name
    shutil.copytree(log, copy, ignore=shutil.ignore_patterns("*.index", "*.timeindex", "*-checkpoint", "*.snapshot"))
    populated = Populated(home, copy)
    assert len(populated.snapshots()) >= 2, "the controller wrote fewer snapshots than the test needs"
    yield populated


@pytest.fixture(scope="module")
def newest(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Populated]:
    yield from _populated(NEWEST, tmp_path_factory)


@pytest.fixture(scope="module")
def oldest(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Populated]:
    yield from _populated(OLDEST, tmp_path_factory)


def _kafka_dump(populated: Populated) -> dict[str, kafka_dump.DumpedFile]:
    done = subprocess.run(
        [str(populated.home / "bin" / "kafka-dump-log.sh"), "--cluster-metadata-decoder", "--files",
         ",".join(map(str, populated.files()))],
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    return kafka_dump.parse_kafka_dump(done.stdout)


def _kcli(*argv: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "kcli", *argv], input=stdin, capture_output=True, text=True, timeout=600
    )


@pytest.mark.parametrize("cluster", ["newest", "oldest"])
def test_dump_is_kafka_dump_log_record_for_record(cluster: str, request: pytest.FixtureRequest) -> None:
    populated: Populated = request.getfixturevalue(cluster)
    theirs = _kafka_dump(populated)
    assert sorted(theirs) == sorted(map(str, populated.files()))
    seen: set[str] = set()
    for path in populated.files():
        dumped = theirs[str(path)]
        assert not dumped.trailing, dumped.trailing
        done = _kcli("metadata-shell", "--snapshot", str(path), "--dump", "-o", "json")
        assert done.returncode == 0, done.stderr
        ours = kafka_dump.kcli_records(done.stdout)
        assert len(ours) == len(dumped.records), path.name
        for kafka, kcli in zip(dumped.records, ours, strict=True):
            assert "error" not in kafka and "error" not in kcli, (path.name, kafka, kcli)
            assert kafka_dump.comparable(kafka, kcli) == kafka, path.name
            seen.add(kafka["type"])
        _assert_same_scram_secrets(path, dumped)
    assert seen >= EXPECTED_TYPES, EXPECTED_TYPES - seen


def _assert_same_scram_secrets(path: Path, dumped: kafka_dump.DumpedFile) -> None:
    """Normalization 3: the salts and keys kcli's reader decodes are the bytes Kafka prints (base64)."""
    from kcli.metadata.reader import read_file

    kafkas = {r["offset"]: r["data"] for r in dumped.records if r.get("type") == "USER_SCRAM_CREDENTIAL_RECORD"}
    ours = {
        e.offset: {key: base64.b64encode(getattr(e.record, attribute)).decode()
                   for key, attribute in (("salt", "salt"), ("storedKey", "stored_key"), ("serverKey", "server_key"))}
        for e in read_file(path) if not e.control and e.key == 11
    }  # fmt: skip
    assert sorted(ours) == sorted(kafkas), path.name
    for offset, secrets in ours.items():
        assert secrets == {key: kafkas[offset][key] for key in kafka_dump.SCRAM_SECRETS}, (path.name, offset)


# ---- the shell ------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def shell_driver(tmp_path_factory: pytest.TempPathFactory, oldest: Populated) -> Path:
    javac = shutil.which("javac")
    if javac is None:
        pytest.skip("javac is not on PATH (a JDK 17 compiles the shell driver)")
    classes = tmp_path_factory.mktemp("shell-driver")
    done = subprocess.run(
        [javac, "-nowarn", "-encoding", "UTF-8", "-cp", str(oldest.home / "libs" / "*"), "-d", str(classes),
         str(HERE / "MetadataShellDriver.java")],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return classes


def _kafka_shell(home: Path, classes: Path, snapshot: Path, commands: list[list[str]], out: Path) -> list[str]:
    """Each command's output from Kafka's shell commands on one loaded snapshot."""
    done = subprocess.run(
        ["java", "-cp", f"{classes}:{home / 'libs' / '*'}",
         f"-Dlog4j2.configurationFile={home / 'config' / 'tools-log4j2.properties'}",
         "MetadataShellDriver", str(snapshot), str(out)],
        input="".join("\t".join(words) + "\n" for words in commands), capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    outputs = out.read_text(encoding="utf-8").split(END + "\n")
    assert len(outputs) == len(commands) + 1 and outputs[-1] == "", "the driver's output is not one per command"
    return outputs[:-1]


def _kcli_shell(snapshot: Path, commands: list[list[str]]) -> list[str]:
    """Each command's output from one `kcli metadata-shell --snapshot FILE` reading them on stdin."""
    done = _kcli("metadata-shell", "--snapshot", str(snapshot), stdin="".join(" ".join(w) + "\n" for w in commands))
    assert done.returncode == 0, done.stderr[-2000:]
    outputs: list[list[str]] = []
    for line in done.stdout.splitlines():
        if line.startswith("# "):
            assert line[2:] == " ".join(commands[len(outputs)]), line
            outputs.append([])
        else:
            outputs[-1].append(line)
    assert len(outputs) == len(commands)
    return ["".join(f"{line}\n" for line in lines) for lines in outputs]


_SCRAM_SECRETS = re.compile(r"salt=[0-9a-f]*, storedKey=[0-9a-f]*, serverKey=[0-9a-f]*")
_PROVENANCE = re.compile(r"^offset \d+, (epoch \d+), time \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,3})?Z\[UTC\]$", re.MULTILINE)
_DEFAULT_ENTITY = re.compile(r"^(clientId|ip|user)\(\)$", re.MULTILINE)


def _without_zk_migration_state(find: str) -> str:
    """Kafka 4.0's `find /image/features` without zkMigrationState: its path, then the exception its
    lookup raises (the driver prints it as EXCEPTION ...)."""
    lines = find.splitlines(keepends=True)
    return "".join(
        line for line in lines
        if line != "/image/features/zkMigrationState\n" and not line.startswith("EXCEPTION java.lang.RuntimeException: Expected zkMigrationState")
    )  # fmt: skip


def _normal_kafka(text: str) -> str:
    return _SCRAM_SECRETS.sub("salt=[redacted], storedKey=[redacted], serverKey=[redacted]", text)


def test_ls_cat_find_tree_are_kafka_metadata_shell(oldest: Populated, shell_driver: Path, tmp_path: Path) -> None:
    snapshot = oldest.snapshots()[-1]
    home = oldest.home
    top = _kafka_shell(home, shell_driver, snapshot, [["ls", "/image"]], tmp_path / "top.txt")[0].split()
    assert {"topics", "configs", "acls", "scram", "clientQuotas", "delegationToken"} <= set(top)
    whole = [name for name in top if name != "clientQuotas"]  # Kafka's find stops at a default entity
    finds = _kafka_shell(home, shell_driver, snapshot, [["find", f"/image/{name}"] for name in whole], tmp_path / "f.txt")
    finds = [_without_zk_migration_state(text) for text in finds]  # normalization 3
    paths = ["/", "/image", *(p for text in finds for p in text.splitlines())]
    quotas = _kafka_shell(home, shell_driver, snapshot, [["ls", "/image/clientQuotas"]], tmp_path / "q.txt")[0]
    entities = [["find", f"/image/clientQuotas/{name}"] for name in quotas.splitlines() if name]
    found = _kafka_shell(home, shell_driver, snapshot, entities, tmp_path / "e.txt")
    paths += [p for text in found for p in text.splitlines()]
    assert len(paths) > 3 * TOPICS, len(paths)
    directories = {p.rsplit("/", 1)[0] or "/" for p in paths}
    commands = [["find", f"/image/{name}"] for name in whole] + entities
    commands += [["ls", p] for p in paths] + [["cat", p] for p in paths if p not in directories]
    commands += [["tree", p] for p in paths if p.startswith("/image/") and p.count("/") <= 3
                 and not p.startswith("/image/topics")]  # fmt: skip
    commands += [["tree", "/image/topics/byName/md-00007"], ["ls", "/image/clientQuotas"]]
    kafkas = _kafka_shell(home, shell_driver, snapshot, commands, tmp_path / "all.txt")
    ours = _kcli_shell(snapshot, commands)
    differences = []
    for words, kafka, kcli in zip(commands, kafkas, ours, strict=True):
        kafka = _normal_kafka(kafka)
        if words in (["ls", "/image/features"], ["tree", "/image/features"]):  # normalization 3
            kafka = kafka.replace("zkMigrationState\n", "").replace("zkMigrationState:\n", "")
        if words[1] == "/image/provenance":  # normalization 5
            kafka, kcli = _PROVENANCE.sub(r"offset N, \1, time T", kafka), _PROVENANCE.sub(r"offset N, \1, time T", kcli)
        if words == ["find", "/image/features"]:
            kafka = _without_zk_migration_state(kafka)
        if words == ["ls", "/image/clientQuotas"]:  # normalization 4
            kafka = "".join(sorted(kafka.splitlines(keepends=True)))
            kcli = "".join(sorted(_DEFAULT_ENTITY.sub("", kcli).splitlines(keepends=True)))
        if kafka != kcli:
            differences.append(f"{' '.join(words)}\n  Kafka: {kafka[:300]!r}\n  kcli:  {kcli[:300]!r}")
    assert not differences, f"{len(differences)} of {len(commands)} commands differ:\n" + "\n".join(differences[:20])
