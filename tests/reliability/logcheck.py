"""Check a node's metadata log against KRaft's invariants with readers the sandbox does not use to write.

Batches are read with kio's record batch reader (CRC checked there), ConfigRecord values with the
small decoder below (written from ConfigRecord.json: resource type int8, resource name, name and
nullable value as compact strings, tagged fields), and again with kcli.metadata's reader; the two
must agree. `problems` lists every broken invariant: offsets not contiguous and strictly
increasing, an offset held twice, epochs going down, a leader-epoch-checkpoint that goes backwards
or disagrees with the batches, bytes that do not form whole batches.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

CONFIG_RECORD = 4
CONTROL_FLAG = 0x20


@dataclass(slots=True)
class NodeLog:
    """What one node's __cluster_metadata-0 holds."""

    node_id: int
    batches: list[tuple[int, int, int]] = field(default_factory=list)  # (base, last, epoch)
    offsets: list[int] = field(default_factory=list)  # every record's offset, in file order
    configs: list[tuple[int, str, str, str | None]] = field(
        default_factory=list
    )  # offset, resource, key, value
    checkpoint: list[tuple[int, int]] = field(default_factory=list)  # leader-epoch-checkpoint entries
    problems: list[str] = field(default_factory=list)

    def values_of(self, key: str) -> dict[str, list[str | None]]:
        """resource name -> every value `key` was set to in this log, in order."""
        out: dict[str, list[str | None]] = {}
        for _offset, resource, name, value in self.configs:
            if name == key:
                out.setdefault(resource, []).append(value)
        return out


def _uvarint(data: bytes, position: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        byte = data[position]
        position += 1
        value |= (byte & 0x7F) << shift
        if byte < 0x80:
            return value, position
        shift += 7


def _compact_string(data: bytes, position: int) -> tuple[str | None, int]:
    length, position = _uvarint(data, position)
    if length == 0:
        return None, position
    end = position + length - 1
    return data[position:end].decode("utf-8"), end


def decode_config_record(value: bytes) -> tuple[str, str, str | None] | None:
    """(resource name, config name, value) of a ConfigRecord value; None for other record types."""
    _frame, position = _uvarint(value, 0)
    api_key, position = _uvarint(value, position)
    _version, position = _uvarint(value, position)
    if api_key != CONFIG_RECORD:
        return None
    position += 1  # resource type
    resource, position = _compact_string(value, position)
    name, position = _compact_string(value, position)
    config_value, position = _compact_string(value, position)
    assert resource is not None and name is not None
    return resource, name, config_value


def read_node_log(log_dir: Path) -> NodeLog:
    """Read one node's log with kio's batch reader and check its invariants."""
    from kio.records.readers import read_batch

    node = NodeLog(node_id=int(log_dir.parent.name))
    expected: int | None = None
    last_epoch = -1
    for segment in sorted(log_dir.glob("*.log")):
        data = segment.read_bytes()
        position = 0
        while position < len(data):
            try:
                batch, size = read_batch(data, position)
            except Exception as error:
                node.problems.append(f"{segment.name}: no valid batch at byte {position}: {error}")
                break
            base = int(batch.base_offset)
            last = base + int(batch.last_offset_delta)
            epoch = int(batch.partition_leader_epoch)
            if expected is not None and base != expected:
                node.problems.append(f"{segment.name}: batch at offset {base} follows offset {expected - 1}")
            if epoch < last_epoch:
                node.problems.append(
                    f"{segment.name}: epoch {epoch} at offset {base} after epoch {last_epoch}"
                )
            node.batches.append((base, last, epoch))
            for record in batch.records:
                node.offsets.append(int(record.offset))
                if not batch.attributes & CONTROL_FLAG and record.value is not None:
                    config = decode_config_record(bytes(record.value))
                    if config is not None:
                        node.configs.append((int(record.offset), *config))
            expected, last_epoch = last + 1, max(last_epoch, epoch)
            position += size
    if len(set(node.offsets)) != len(node.offsets):
        node.problems.append(f"{len(node.offsets) - len(set(node.offsets))} offsets are held twice")
    if node.offsets != sorted(set(node.offsets)):
        node.problems.append("offsets do not strictly increase")
    node.checkpoint = _read_checkpoint(log_dir / "leader-epoch-checkpoint")
    starts: dict[int, int] = {}
    for base, _last, epoch in node.batches:
        starts.setdefault(epoch, base)
    if node.checkpoint != sorted(starts.items()):
        node.problems.append(
            f"leader-epoch-checkpoint {node.checkpoint} disagrees with the batches {sorted(starts.items())}"
        )
    for (e1, o1), (e2, o2) in zip(node.checkpoint, node.checkpoint[1:], strict=False):
        if not (e2 > e1 and o2 > o1):
            node.problems.append(
                f"leader-epoch-checkpoint goes backwards: epoch {e1} at {o1}, epoch {e2} at {o2}"
            )
    return node


def kcli_configs(log_dir: Path) -> list[tuple[int, str, str, str | None]]:
    """The same ConfigRecords through kcli.metadata's reader (offset, resource, key, value)."""
    from kcli.metadata.reader import read_file

    out = []
    for segment in sorted(log_dir.glob("*.log")):
        for entry in read_file(segment):
            if not entry.control and entry.key == CONFIG_RECORD:
                record = entry.record
                out.append((entry.offset, record.resource_name, record.name, record.value))
    return out


def _read_checkpoint(path: Path) -> list[tuple[int, int]]:
    if not path.exists():
        return []
    lines = path.read_text(encoding="utf-8").split("\n")
    count = int(lines[1])
    return [(int(a), int(b)) for a, b in (line.split() for line in lines[2 : 2 + count])]
