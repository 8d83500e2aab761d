"""Kafka's DumpLogSegments (`kafka-dump-log.sh --cluster-metadata-decoder`) read back as records, and
kcli's `metadata-shell --dump -o json` lines brought to the same shape, so the two compare as values.

Kafka prints, per file, `Dumping PATH`, a line naming the file's kind, then per batch a `baseOffset:`
line and per record a `| offset: ...` line whose tail is the record:
- a data record: `payload: {"type":"TOPIC_RECORD","version":0,"data":{...}}` (MetadataJsonConverters),
  or `payload: Error at OFFSET, skipping. MESSAGE` when it cannot decode it;
- a control record: `SnapshotHeader {...}`, `SnapshotFooter {...}`, `LeaderChange: {...}`,
  `KRaftVersion {...}`, `KRaftVoters {...}` (the record's JsonConverter), or `controlType: NAME(ID)`
  for a type the tool does not decode (4.0 decodes no LeaderChange).

The normalizations, each because the two tools spell one fact two ways (NORMALIZATIONS says the same
for docs/parity.md):
1. Record type names: Kafka prints MetadataRecordType's constant (TOPIC_RECORD), kcli the schema
   name (TopicRecord); control records: Kafka's label (SnapshotHeader, KRaftVoters, LeaderChange),
   kcli the schema name (SnapshotHeaderRecord, VotersRecord, LeaderChangeMessage). Both map to one
   name by CONTROL_LABELS and `constant_name`.
2. The epoch: Kafka prints a batch's partitionLeaderEpoch on the batch line, kcli on each record.
3. SCRAM salts and keys: kcli's dump prints "[redacted]" where Kafka prints the base64 bytes (a
   deliberate difference); the bytes themselves are compared through kcli's reader
   (`scram_secrets`).
4. Control records Kafka does not decode (`controlType: NAME(ID)`) are compared by type only.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

CONTROL_LABELS = {
    "SnapshotHeader": "SnapshotHeaderRecord",
    "SnapshotFooter": "SnapshotFooterRecord",
    "LeaderChange:": "LeaderChangeMessage",
    "KRaftVersion": "KRaftVersionRecord",
    "KRaftVoters": "VotersRecord",
}
CONTROL_TYPES = {  # ControlRecordType's names, for `controlType: NAME(ID)`
    "LEADER_CHANGE": "LeaderChangeMessage",
    "SNAPSHOT_HEADER": "SnapshotHeaderRecord",
    "SNAPSHOT_FOOTER": "SnapshotFooterRecord",
    "KRAFT_VERSION": "KRaftVersionRecord",
    "KRAFT_VOTERS": "VotersRecord",
}
REDACTED = "[redacted]"
SCRAM_SECRETS = ("salt", "storedKey", "serverKey")
NORMALIZATIONS = (
    "record type names: Kafka's MetadataRecordType constant (TOPIC_RECORD) and control labels "
    "(SnapshotHeader, KRaftVoters, LeaderChange) against kcli's schema names (TopicRecord, "
    "SnapshotHeaderRecord, VotersRecord, LeaderChangeMessage)",
    "the epoch: Kafka prints the batch's partitionLeaderEpoch once per batch, kcli on every record",
    "SCRAM salts and keys: kcli's dump shows [redacted] (it does not spread secrets); their bytes are "
    "compared through kcli's reader instead",
    "control records Kafka's tool does not decode (4.0: LeaderChange, printed as controlType) are "
    "compared by type",
)

_RECORD = re.compile(r"^\| offset: (\d+) CreateTime: (-?\d+) keySize: (-?\d+) valueSize: (-?\d+) "
                     r"sequence: -?\d+ headerKeys: \[[^\]]*\] (.*)$")  # fmt: skip
_BATCH = re.compile(r"^baseOffset: (\d+) lastOffset: (\d+) count: (\d+) .* partitionLeaderEpoch: (-?\d+) "
                    r"isTransactional: (\w+) isControl: (\w+) .* CreateTime: (-?\d+) size: (\d+) magic: (\d+) "
                    r"compresscodec: (\w+) crc: (\d+) isvalid: (\w+)$")  # fmt: skip
_UNDECODED = re.compile(r"^controlType: (\w+)\((-?\d+)\)$")


@dataclass
class DumpedFile:
    """One file of Kafka's dump: its kind line and its records (as comparable dicts)."""

    path: str
    kind: str = ""
    records: list[dict[str, Any]] = field(default_factory=list)
    batches: int = 0
    trailing: str = ""


def constant_name(schema_name: str) -> str:
    """TopicRecord -> TOPIC_RECORD (MetadataRecordType's constants are the names in upper snake case)."""
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", schema_name).upper()


def parse_kafka_dump(text: str) -> dict[str, DumpedFile]:
    """Kafka's dump output, by file path."""
    files: dict[str, DumpedFile] = {}
    current: DumpedFile | None = None
    epoch = control = None
    for line in text.splitlines():
        if line.startswith("Dumping "):
            current = files[line.removeprefix("Dumping ")] = DumpedFile(line.removeprefix("Dumping "))
            continue
        if current is None:
            raise ValueError(f"Kafka's dump: a line before any file: {line!r}")
        if line.startswith(("Snapshot end offset: ", "Log starting offset: ", "KRaft bootstrap snapshot")):
            current.kind = line
        elif line.startswith("baseOffset: "):
            batch = _BATCH.match(line)
            if batch is None:
                raise ValueError(f"Kafka's dump: an unexpected batch line: {line!r}")
            epoch, control = int(batch.group(4)), batch.group(6) == "true"
            current.batches += 1
        elif line.startswith("| offset: "):
            record = _RECORD.match(line)
            if record is None:
                raise ValueError(f"Kafka's dump: an unexpected record line: {line!r}")
            offset, timestamp, tail = int(record.group(1)), int(record.group(2)), record.group(5)
            current.records.append(_record(offset, timestamp, epoch, bool(control), tail))
        elif line.startswith("Found ") and "invalid bytes at the end" in line:
            current.trailing = line
        elif line.strip():
            raise ValueError(f"Kafka's dump: an unexpected line: {line!r}")
    return files


def _record(offset: int, timestamp: int, epoch: int | None, control: bool, tail: str) -> dict[str, Any]:
    out: dict[str, Any] = {"offset": offset, "epoch": epoch, "timestamp": timestamp}
    if not control:
        payload = tail.removeprefix("payload: ")
        if payload.startswith("Error at "):
            out["error"] = payload
            return out
        value = json.loads(payload)
        out.update(type=value["type"], version=value["version"], data=value["data"])
        return out
    out["control"] = True
    undecoded = _UNDECODED.match(tail)
    if undecoded is not None:
        out["type"] = constant_name(CONTROL_TYPES.get(undecoded.group(1), undecoded.group(1)))
        out["undecoded"] = True
        return out
    label, _, body = tail.partition(" ")
    if label not in CONTROL_LABELS:
        raise ValueError(f"Kafka's dump: an unknown control record: {tail!r}")
    data = json.loads(body)
    out.update(type=constant_name(CONTROL_LABELS[label]), data=data)
    return out


def kcli_records(json_lines: str) -> list[dict[str, Any]]:
    """kcli's `--dump -o json` lines in the shape of `parse_kafka_dump`'s records."""
    out = []
    for line in json_lines.splitlines():
        if not line.strip():
            continue
        value = json.loads(line)
        record: dict[str, Any] = {
            "offset": value["offset"],
            "epoch": value["epoch"],
            "timestamp": value["timestamp"],
        }
        if value.get("control"):
            record["control"] = True
        if "raw" in value:
            record["error"] = value.get("reason", "")
            out.append(record)
            continue
        record["type"] = constant_name(value["type"])
        if not value.get("control"):
            record["version"] = value["version"]
        record["data"] = value.get("data")
        out.append(record)
    return out


def comparable(kafka: dict[str, Any], kcli: dict[str, Any]) -> dict[str, Any]:
    """kcli's record as Kafka's dump shows it: redacted secrets and undecoded control records are
    taken from Kafka's side once checked for what can be checked (NORMALIZATIONS 3 and 4)."""
    kcli = dict(kcli)
    if kafka.get("undecoded"):
        kcli.pop("data", None)
        kcli["undecoded"] = True
    data = kcli.get("data")
    if kcli.get("type") == "USER_SCRAM_CREDENTIAL_RECORD" and isinstance(data, dict):
        data = dict(data)
        for key in SCRAM_SECRETS:
            if data.get(key) == REDACTED and key in (kafka.get("data") or {}):
                data[key] = kafka["data"][key]
        kcli["data"] = data
    return kcli
