"""Output of `kcli streams-groups`: kafka-streams-groups.sh's text (StreamsGroupCommand, Kafka 4.4), JSON, tables.

Unlike the other group tools its blocks do not start with a blank line, each line ends with its own
`\\n`, and the notices (`Streams group 'g' has no active members.`) are `Error:` blocks on stdout in
Kafka; kcli prints those on stderr. The offsets view lists partitions in a Java HashMap's order.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from kcli.ops.groups.model import MISSING, GroupState
from kcli.render.group_text import Line, pad
from kcli.render.group_text import list_lines as list_lines

if TYPE_CHECKING:
    from kcli.client.api.streams_groups import StreamsGroup, StreamsMember, Tasks
    from kcli.workflows.groups.streams import StreamsDeleted, StreamsDescribed, StreamsOffset


def _notice(group: StreamsGroup) -> Line | None:
    if group.state is GroupState.DEAD:
        return True, f"Error: Streams group '{group.group_id}' does not exist."
    if group.state is GroupState.EMPTY:
        return True, f"Error: Streams group '{group.group_id}' has no active members."
    return None


def describe_lines(described: StreamsDescribed, *, view: str, verbose: bool) -> Iterator[Line]:
    for group, offsets in described.groups:
        if view == "state":
            notice = _notice(group)
            if notice is not None:
                yield notice
            yield from ((False, line) for line in state_lines(group, verbose=verbose))
            continue
        rows = len(group.members)
        if group.state is GroupState.DEAD or rows == 0:
            continue
        notice = _notice(group)
        if notice is not None:
            yield notice
        lines = (
            members_lines(group, verbose=verbose)
            if view == "members"
            else offsets_lines(group, offsets, verbose=verbose)
        )
        yield from ((False, line) for line in lines)


def state_lines(group: StreamsGroup, *, verbose: bool) -> list[str]:
    coordinator = f"{group.coordinator.host}:{group.coordinator.port} ({group.coordinator.node_id})"
    g, c, a = max(15, len(group.group_id)), max(25, len(coordinator)), 15  # v0 carries no assignor name
    head = ["GROUP", "COORDINATOR (ID)", "ASSIGNOR", "STATE"]
    body = [group.group_id, coordinator, "", str(group.state)]
    widths = [g, c, a, 25]
    if verbose:
        head += ["GROUP-EPOCH", "TARGET-ASSIGNMENT-EPOCH"]
        body += [str(group.group_epoch), str(group.target_assignment_epoch)]
        widths += [15, 25]
    return [
        " ".join([*(pad(v, w) for v, w in zip(cells, widths, strict=True)), last])
        for cells, last in ((head, "#MEMBERS"), (body, str(len(group.members))))
    ]


def _tasks(tasks: Tasks, kind: str) -> str:
    if not tasks:
        return ""
    return f"{kind}: " + "".join(f"{sub}:[{','.join(str(p) for p in parts)}]; " for sub, parts in tasks)


def _assignments(m: StreamsMember, *, target: bool) -> str:
    text = _tasks(m.active, "ACTIVE") + _tasks(m.standby, "STANDBY") + _tasks(m.warmup, "WARMUP")
    if target:
        text += _tasks(m.target_active, "TARGET-ACTIVE") + _tasks(m.target_standby, "TARGET-STANDBY")
        text += _tasks(m.target_warmup, "TARGET-WARMUP")
    return text


def members_lines(group: StreamsGroup, *, verbose: bool) -> list[str]:
    members = group.members
    g = max(15, len(group.group_id))
    mi = max([15, *(len(m.member_id) for m in members)])
    h = max([15, *(len(m.process_id) for m in members)])
    cl = max([15, *(len(m.client_id) for m in members)])
    if not verbose:
        out = [
            f"{pad('GROUP', g)} {pad('MEMBER', mi)} {pad('PROCESS', h)} {pad('CLIENT-ID', cl)} ASSIGNMENTS"
        ]
        out += [
            f"{pad(group.group_id, g)} {pad(m.member_id, mi)} {pad(m.process_id, h)} {pad(m.client_id, cl)} "
            + _assignments(m, target=False)
            for m in members
        ]
        return out

    def row(*v: object) -> str:
        return (
            f"{pad(v[0], g)} {pad(v[1], 25)} {pad(v[2], 15)}{pad(v[3], mi)} {pad(v[4], 15)} "
            f"{pad(v[5], 15)} {pad(v[6], h)} {pad(v[7], cl)} {v[8]}"
        )

    out = [
        row(
            "GROUP",
            "TARGET-ASSIGNMENT-EPOCH",
            "TOPOLOGY-EPOCH",
            "MEMBER",
            "MEMBER-PROTOCOL",
            "MEMBER-EPOCH",
            "PROCESS",
            "CLIENT-ID",
            "ASSIGNMENTS",
        )
    ]
    for m in members:
        out.append(
            row(
                group.group_id,
                group.target_assignment_epoch,
                group.topology_epoch,
                m.member_id,
                "classic" if m.is_classic else "streams",
                m.member_epoch,
                m.process_id,
                m.client_id,
                _assignments(m, target=True),
            )
        )
    return out


def offsets_lines(group: StreamsGroup, offsets: dict[Any, StreamsOffset], *, verbose: bool) -> list[str]:
    from kcli.ops.groups.java_order import partitions_in_hash_order

    g = max(15, len(group.group_id))
    t = max([15, *(len(tp.topic) for tp in offsets)])
    ordered = partitions_in_hash_order(sorted(offsets))
    if not verbose:
        out = [f"{pad('GROUP', g)} {pad('TOPIC', t)} {pad('PARTITION', 10)} OFFSET-LAG"]
        out += [
            f"{pad(group.group_id, g)} {pad(tp.topic, t)} {pad(tp.partition, 10)} {offsets[tp].lag}"
            for tp in ordered
        ]
        return out
    cells = [
        ("GROUP", "TOPIC", "PARTITION", "CURRENT-OFFSET", "LEADER-EPOCH", "LOG-END-OFFSET", "OFFSET-LAG")
    ]
    for tp in ordered:
        o = offsets[tp]
        current = MISSING if o.current is None else str(o.current)
        epoch = MISSING if o.leader_epoch is None else str(o.leader_epoch)
        cells.append(
            (group.group_id, tp.topic, str(tp.partition), current, epoch, str(o.log_end), str(o.lag))
        )
    return [
        f"{pad(a, g)} {pad(b, t)} {pad(c, 10)} {pad(d, 15)} {pad(e, 15)} {pad(f, 15)} {pad(h, 15)}"
        for a, b, c, d, e, f, h in cells
    ]


def describe_json(described: StreamsDescribed) -> dict[str, Any]:
    def one(group: StreamsGroup, offsets: dict[Any, StreamsOffset]) -> dict[str, Any]:
        return {
            "group": group.group_id,
            "state": str(group.state),
            "coordinator": {
                "id": group.coordinator.node_id,
                "host": group.coordinator.host,
                "port": group.coordinator.port,
            },
            "group_epoch": group.group_epoch,
            "target_assignment_epoch": group.target_assignment_epoch,
            "topology_epoch": group.topology_epoch,
            "members": [
                {
                    "member_id": m.member_id,
                    "process_id": m.process_id,
                    "client_id": m.client_id,
                    "host": m.host,
                    "member_epoch": m.member_epoch,
                    "protocol": "classic" if m.is_classic else "streams",
                    "active_tasks": [f"{s}:{list(p)}" for s, p in m.active],
                }
                for m in group.members
            ],
            "lag": sum(o.lag for o in offsets.values()),
            "partitions": [
                {
                    "topic": tp.topic,
                    "partition": tp.partition,
                    "current_offset": o.current,
                    "leader_epoch": o.leader_epoch,
                    "log_end_offset": o.log_end,
                    "lag": o.lag,
                }
                for tp, o in sorted(offsets.items())
            ],
        }

    return {
        "groups": [one(g, o) for g, o in described.groups],
        "errors": [{"group": g, "error": e.line()} for g, e in described.failed],
    }


def delete_lines(deleted: StreamsDeleted) -> list[str]:
    quoted = "'" + "', '".join(deleted.deleted) + "'"
    out = []
    if not deleted.failed:
        out.append(f"Deletion of requested streams groups ({quoted}) was successful.")
    elif deleted.deleted:
        out += ["", f"These streams groups were deleted successfully: {quoted}."]
    if deleted.internal_deleted and not deleted.internal_failed:
        out.append(
            "Deletion of associated internal topics of the streams groups ('"
            + "', '".join(deleted.internal_deleted)
            + "') was successful."
        )
    return out


def delete_json(deleted: StreamsDeleted) -> dict[str, Any]:
    return {
        "deleted": list(deleted.deleted),
        "errors": [{"group": g, "error": e.line()} for g, e in deleted.failed],
        "internal_topics_deleted_for": list(deleted.internal_deleted),
        "internal_topic_errors": [{"group": g, "error": e.line()} for g, e in deleted.internal_failed],
    }
