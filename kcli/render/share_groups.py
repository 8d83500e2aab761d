"""Output of `kcli share-groups`: kafka-share-groups.sh's text (ShareGroupCommand, Kafka 4.4), JSON, tables.

Each block starts with a blank line, as Kafka's `%n`-led formats print; columns grow with the
longest value; `-` is a missing value. The notices Kafka prints on stderr between blocks come back
as stderr lines (True, line) in their place.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from kcli.ops.groups.model import MISSING, GroupState, partitions_by_topic
from kcli.render.group_text import Line, or_missing, pad
from kcli.render.group_text import list_lines as list_lines

if TYPE_CHECKING:
    from rich.console import RenderableType

    from kcli.workflows.groups.share import ShareGroup, SharesDeleted, SharesDescribed


def _notice(group: str, state: GroupState) -> Line | None:
    """maybePrintEmptyGroupState's line (Dead: Kafka prints it as an Error on stdout; kcli on stderr)."""
    if state is GroupState.DEAD:
        return True, f"Error: Share group '{group}' does not exist."
    if state is GroupState.EMPTY:
        return True, f"Share group '{group}' has no active members."
    return None


def describe_lines(described: SharesDescribed) -> Iterator[Line]:
    from kcli.ops.groups.consumer_line import View

    for group in described.groups:
        if described.view is View.OFFSETS:
            yield from ((False, line) for line in offsets_block(group, verbose=described.verbose))
            continue
        state = group.description.state
        notice = _notice(group.description.group_id, state)
        if notice is not None:
            yield True, ""
            yield notice
        if described.view is View.MEMBERS:
            if state is not GroupState.DEAD and group.description.members:
                yield from ((False, line) for line in members_block(group, verbose=described.verbose))
        else:
            yield from ((False, line) for line in state_block(group, verbose=described.verbose))


def offsets_block(group: ShareGroup, *, verbose: bool) -> list[str]:
    group_id = group.description.group_id
    rows = sorted(group.offsets.items())
    if not rows:
        return ["", f"Share group '{group_id}' has no offset information."]
    g = max(15, len(group_id))
    t = max([15, *(len(tp.topic) for tp, _ in rows)])
    middle = ["LEADER-EPOCH"] if verbose else []
    out = ["", _line(g, t, ["GROUP", "TOPIC", "PARTITION", *middle, "START-OFFSET", "LAG"])]
    for tp, offset in rows:
        epoch = [or_missing(offset.leader_epoch)] if verbose else []
        out.append(
            _line(
                g,
                t,
                [
                    group_id,
                    tp.topic,
                    tp.partition,
                    *epoch,
                    or_missing(offset.start_offset),
                    or_missing(offset.lag),
                ],
            )
        )
    return out


def _line(g: int, t: int, cells: Sequence[object]) -> str:
    group, topic, partition, *rest = cells
    text = f"{pad(group, g)} {pad(topic, t)} {pad(partition, 10)} "
    return text + " ".join(pad(v, 13) for v in rest[:-1]) + f" {rest[-1]}"


def members_block(group: ShareGroup, *, verbose: bool) -> list[str]:
    d = group.description
    members = sorted(d.members, key=lambda m: m.member_id)
    g = max(15, len(d.group_id))
    c = max([15, *(len(m.member_id) for m in members)])
    h = max([15, *(len(m.host) for m in members)])
    cl = max([15, *(len(m.client_id) for m in members)])

    def row(
        group_: object, member: object, host: object, client: object, count: object, *tail: object
    ) -> str:
        text = f"{pad(group_, g)} {pad(member, c)} {pad(host, h)} {pad(client, cl)} {pad(count, 12)}"
        if verbose:
            return text + f" {pad(tail[0], 13)} {tail[1]}"
        return text + f" {tail[-1]}"

    header = row("GROUP", "CONSUMER-ID", "HOST", "CLIENT-ID", "#PARTITIONS", "MEMBER-EPOCH", "ASSIGNMENT")
    out = ["", header]
    for m in members:
        out.append(
            row(
                d.group_id,
                m.member_id,
                m.host,
                m.client_id,
                len(m.assignment),
                m.member_epoch,
                partitions_by_topic(m.assignment),
            )
        )
    return out


def state_block(group: ShareGroup, *, verbose: bool) -> list[str]:
    d = group.description
    coordinator = d.coordinator.label
    g, c = max(15, len(d.group_id)), max(25, len(coordinator))
    if verbose:
        head = ["GROUP", "COORDINATOR (ID)", "STATE", "GROUP-EPOCH", "ASSIGNMENT-EPOCH", "#MEMBERS"]
        body = [d.group_id, coordinator, d.state, d.group_epoch, d.target_assignment_epoch, len(d.members)]
        widths = [g, c, 15, 12, 17]
    else:
        head = ["GROUP", "COORDINATOR (ID)", "STATE", "#MEMBERS"]
        body = [d.group_id, coordinator, d.state, len(d.members)]
        widths = [g, c, 15]
    lines = [
        " ".join([*(pad(v, w) for v, w in zip(cells, widths, strict=False)), str(cells[-1])])
        for cells in (head, body)
    ]
    return ["", *lines]


def describe_json(described: SharesDescribed) -> dict[str, Any]:
    from kcli.ops.groups.consumer_line import View

    def one(group: ShareGroup) -> dict[str, Any]:
        d = group.description
        value: dict[str, Any] = {
            "group": d.group_id,
            "state": str(d.state),
            "coordinator": {
                "id": d.coordinator.node_id,
                "host": d.coordinator.host,
                "port": d.coordinator.port,
            },
            "group_epoch": d.group_epoch,
            "assignment_epoch": d.target_assignment_epoch,
            "members": [
                {
                    "consumer_id": m.member_id,
                    "host": m.host,
                    "client_id": m.client_id,
                    "member_epoch": m.member_epoch,
                    "assignment": [f"{tp.topic}-{tp.partition}" for tp in sorted(m.assignment)],
                }
                for m in sorted(d.members, key=lambda m: m.member_id)
            ],
        }
        if described.view is View.OFFSETS:
            value["lag"] = sum(o.lag or 0 for o in group.offsets.values())
            value["partitions"] = [
                {
                    "topic": tp.topic,
                    "partition": tp.partition,
                    "start_offset": o.start_offset,
                    "leader_epoch": o.leader_epoch,
                    "lag": o.lag,
                }
                for tp, o in sorted(group.offsets.items())
            ]
        return value

    return {
        "view": described.view.value,
        "groups": [one(g) for g in described.groups],
        "errors": [{"group": g, "error": e.line()} for g, e in described.failed],
    }


def describe_table(described: SharesDescribed) -> RenderableType:
    from rich.table import Table

    table = Table()
    for column in ("Group", "State", "Members", "Topic", "Partition", "Start offset", "Lag"):
        table.add_column(column)
    for group in described.groups:
        d = group.description
        head = [d.group_id, str(d.state), str(len(d.members))]
        if not group.offsets:
            table.add_row(*head, MISSING, MISSING, MISSING, MISSING)
        for tp, offset in sorted(group.offsets.items()):
            table.add_row(
                *head, tp.topic, str(tp.partition), or_missing(offset.start_offset), or_missing(offset.lag)
            )
    return table


def delete_lines(deleted: SharesDeleted) -> list[str]:
    quoted = ", ".join(f"'{g}'" for g in deleted.deleted)
    if not deleted.failed:
        return [f"Deletion of requested share groups ({quoted}) was successful."]
    if deleted.deleted:
        return ["", f"These share groups were deleted successfully: {quoted}"]
    return []


def delete_json(deleted: SharesDeleted) -> dict[str, Any]:
    return {
        "deleted": list(deleted.deleted),
        "errors": [{"group": g, "error": e.line()} for g, e in deleted.failed],
    }


def delete_offsets_lines(per_topic: dict[str, Any]) -> list[str]:
    """TOPIC / STATUS of --delete-offsets (a failed topic: `Error: ` and the exception's message)."""
    if not per_topic:
        return [""]
    t = max([15, *(len(topic) for topic in per_topic)])
    out = ["", f"{pad('TOPIC', t)} STATUS"]
    for topic, error in sorted(per_topic.items()):
        status = "Successful" if error is None else f"Error: {_message(error)}"
        out.append(f"{pad(topic, t)} {status}")
    return out


def _message(error: Any) -> str:
    from kcli.client.errors import KafkaError, error_info

    if isinstance(error, KafkaError):
        return error.server_message or error_info(error.code).message
    return str(getattr(error, "message", error))
