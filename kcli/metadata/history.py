"""`history PATH`: the metadata records that shaped one node of the tree, in log order.

Behavior:
- Topics (byName/<name> or byId/<id>, optionally one partition): TopicRecord, PartitionRecord,
  PartitionChangeRecord, RemoveTopicRecord, ClearElrRecord and the topic's ConfigRecords; a name
  follows every topic id it was ever bound to (a topic deleted and re-created shows both lives).
- Brokers, controllers, configs, features, ACLs, SCRAM users, delegation tokens, client quotas and
  producer ids match their own record types and keys.
- Snapshot records are labelled with their snapshot file (their batch offsets are not log offsets).
- A path that no record type shapes raises LookupError.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from typing import Any

from kcli.metadata.directory import LogDirectory, full_log_sources, read_sources
from kcli.metadata.dump import entry_text
from kcli.metadata.read_model import Entry, RawRecord, ReadStats
from kcli.metadata.tree import ALIASES, CONFIG_TYPES, SCRAM_MECHANISMS, quota_entity_name
from kcli.metadata.uuids import kafka_uuid, parse_kafka_uuid

Matcher = Callable[[Entry], bool]


def _uuid_of(text: str) -> uuid.UUID | None:
    try:
        return parse_kafka_uuid(text)
    except ValueError:
        return None


def _field(entry: Entry, name: str) -> Any:
    record = entry.record
    if record is None or type(record) is RawRecord:
        return None
    return getattr(record, name, None)


def matcher_for(path: tuple[str, ...]) -> Matcher:
    """A predicate selecting the records that shape the node at `path` (absolute components)."""
    if path and path[0] in ALIASES:
        path = ALIASES[path[0]] + path[1:]
    if len(path) < 2 or path[0] != "image":
        raise LookupError("no metadata records shape this node (try a path under /image)")
    area, rest = path[1], path[2:]
    if area == "topics" and len(rest) >= 2:
        return _topic_matcher(rest[0], rest[1], int(rest[2]) if len(rest) > 2 and rest[2].isdigit() else None)
    if area == "cluster" and len(rest) >= 1 and rest[0] in ("brokers", "controllers"):
        wanted = int(rest[1]) if len(rest) > 1 and rest[1].lstrip("-").isdigit() else None
        if rest[0] == "brokers":
            keys = {0, 1, 17}
            return lambda e: (
                not e.control
                and (
                    (e.key in keys and (wanted is None or _field(e, "broker_id") == wanted))
                    or (e.key in (7, 8) and (wanted is None or _field(e, "id") == wanted))
                )
            )
        return lambda e: (
            not e.control and e.key in (27, 29) and (wanted is None or _field(e, "controller_id") == wanted)
        )
    if area == "features":
        return lambda e: not e.control and e.key in (12, 16, 21)
    if area == "configs":
        label = rest[0] if rest else None
        key = rest[1] if len(rest) > 1 else None
        return lambda e: (
            not e.control
            and e.key == 4
            and (label is None or _config_label(e) == label)
            and (key is None or _field(e, "name") == key)
        )
    if area == "acls":
        acl_id = _uuid_of(rest[-1]) if rest and rest[-1] != "byId" else None
        return lambda e: not e.control and e.key in (18, 19) and (acl_id is None or _field(e, "id") == acl_id)
    if area == "producerIds":
        return lambda e: not e.control and e.key == 15
    if area == "scram":
        mechanism = rest[0] if rest else None
        user = rest[1] if len(rest) > 1 else None
        return lambda e: (
            not e.control
            and e.key in (11, 22)
            and (mechanism is None or SCRAM_MECHANISMS.get(_field(e, "mechanism")) == mechanism)
            and (user is None or _field(e, "name") == user)
        )
    if area == "delegationToken":
        token = rest[0] if rest else None
        return lambda e: (
            not e.control and e.key in (10, 26) and (token is None or _field(e, "token_id") == token)
        )
    if area == "clientQuotas":
        entity = rest[0] if rest else None
        return lambda e: not e.control and e.key == 14 and (entity is None or _quota_label(e) == entity)
    raise LookupError("no metadata records shape this node")


def _config_label(entry: Entry) -> str:
    type_name = CONFIG_TYPES.get(_field(entry, "resource_type"), "UNKNOWN")
    name = _field(entry, "resource_name")
    return f"{type_name}:{name}" if name else type_name


def _quota_label(entry: Entry) -> str:
    return quota_entity_name(
        tuple(sorted((p.entity_type, p.entity_name) for p in _field(entry, "entity") or ()))
    )


def _topic_matcher(index: str, key: str, partition: int | None) -> Matcher:
    by_name = index == "byName"
    ids: set[uuid.UUID] = set()
    names: set[str] = set()
    if by_name:
        names.add(key)
    else:
        topic_id = _uuid_of(key)
        if topic_id is None:
            raise LookupError("not a topic id")
        ids.add(topic_id)

    def match(entry: Entry) -> bool:
        if entry.control:
            return False
        kind = entry.key
        if kind == 2:
            name, topic_id = _field(entry, "name"), _field(entry, "topic_id")
            if name in names or topic_id in ids:
                names.add(name)
                ids.add(topic_id)
                return True
            return False
        if kind in (3, 5):
            return _field(entry, "topic_id") in ids and (
                partition is None or _field(entry, "partition_id") == partition
            )
        if partition is not None:
            return False
        if kind == 9:
            return _field(entry, "topic_id") in ids
        if kind == 4:
            return _field(entry, "resource_type") == 2 and _field(entry, "resource_name") in names
        if kind == 28:
            return _field(entry, "topic_name") in names or _field(entry, "topic_name") == ""
        return False

    return match


def record_history(
    directory: LogDirectory, path: tuple[str, ...], *, skip_corrupt: bool = True
) -> Iterator[str]:
    """Lines (dump text) of every record that shaped the node at `path` (the whole log when it starts at 0)."""
    match = matcher_for(path)
    stats = ReadStats()
    for source, reader in read_sources(
        full_log_sources(directory), stats=stats, skip_corrupt=skip_corrupt, skip_noop=True
    ):
        label = f"[snapshot {source.path.name}] " if source.kind != "segment" else ""
        for entry in reader.entries():
            if match(entry):
                yield label + entry_text(entry)


__all__ = ["kafka_uuid", "matcher_for", "record_history"]
