"""Output of `kcli consumer-groups`: kafka-consumer-groups.sh's text (ConsumerGroupCommand, Kafka 4.4 and
4.0), JSON, and tables.

The text is Kafka's printf layout, column for column: each block starts with a blank line (Kafka's
formats begin with `%n`), widths grow with the longest value, `-` stands for a missing value. The
notices Kafka prints on stderr between the blocks (`Consumer group 'g' has no active members.`)
come back as stderr lines in their place, so a terminal shows them where Kafka shows them.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from kcli.ops.groups.model import MISSING, GroupListing, GroupState, ToolRelease, partitions_by_topic
from kcli.render.group_text import Line, or_missing, pad

if TYPE_CHECKING:
    from rich.console import RenderableType

    from kcli.ops.groups.describe import GroupOffsets, OffsetRow
    from kcli.ops.groups.lag import Trend
    from kcli.workflows.groups.consumer import Deleted, Described, OffsetsDeleted
    from kcli.workflows.groups.reset import ResetResult

# ---- --list --------------------------------------------------------------------------------------


def list_lines(groups: Sequence[GroupListing], *, with_type: bool, with_state: bool) -> list[str]:
    """Group ids, or (--type/--state) the GROUP [TYPE] [STATE] table (printGroupInfo)."""
    if not with_type and not with_state:
        return [g.group_id for g in groups]
    width = max([15, *(len(g.group_id) for g in groups)]) + 10
    rows = [("GROUP", "TYPE", "STATE")] + [
        (g.group_id, str(g.type or "Unknown"), str(g.state or GroupState.UNKNOWN)) for g in groups
    ]
    out = []
    for group, kind, state in rows:
        line = pad(group, width)
        if with_type:
            line += " " + pad(kind, 20)
        if with_state:
            line += " " + pad(state, 20)
        out.append(line)
    return out


def list_json(groups: Sequence[GroupListing]) -> dict[str, Any]:
    return {
        "groups": [
            {
                "group": g.group_id,
                "type": None if g.type is None else str(g.type),
                "state": None if g.state is None else str(g.state),
                "protocol_type": g.protocol_type,
            }
            for g in groups
        ]
    }


# ---- --describe ----------------------------------------------------------------------------------


def state_notice(group: str, state: GroupState) -> str | None:
    """What shouldPrintMemberState prints on stderr before a group's block (None: nothing)."""
    if state is GroupState.EMPTY:
        return f"Consumer group '{group}' has no active members."
    if state.rebalancing:
        return f"Warning: Consumer group '{group}' is rebalancing."
    return None


def describe_lines(described: Described) -> Iterator[Line]:
    from kcli.ops.groups.consumer_line import View

    for group in described.groups:
        notice = state_notice(group.group_id, group.state)
        if notice is not None:
            yield True, ""
            yield True, notice
        if described.view is View.OFFSETS:
            lines = offsets_block(group, verbose=described.verbose, time_lag=described.time_lag)
            yield from ((False, line) for line in lines)
        elif described.view is View.MEMBERS:
            yield from ((False, line) for line in members_block(group, verbose=described.verbose))
        else:
            yield from ((False, line) for line in state_block(group, verbose=described.verbose))


def _time_lag_text(ms: int | None) -> str:
    from kcli.ops.groups.lag import duration_text

    return MISSING if ms is None else duration_text(ms)


def offsets_block(group: GroupOffsets, *, verbose: bool, time_lag: bool = False) -> list[str]:
    """printOffsets for one group: nothing when it has no rows."""
    rows = group.rows
    if not rows:
        return []
    g = max([15, *(len(r.group) for r in rows)])
    t = max([15, *(len(r.topic or MISSING) for r in rows)])
    c = max([15, *(len(r.consumer_id or MISSING) for r in rows)])
    h = max([15, *(len(r.host or MISSING) for r in rows)])

    def line(cells: Sequence[object], tail: Sequence[object]) -> str:
        group_, topic, partition, *middle = cells
        text = f"{pad(group_, g)} {pad(topic, t)} {pad(partition, 10)} "
        text += "".join(f"{pad(v, 15)} " for v in middle)
        consumer, host, client = tail
        return text + f"{pad(consumer, c)} {pad(host, h)} {client}"

    epoch = ["LEADER-EPOCH"] if verbose else []
    age = ["TIME-LAG"] if time_lag else []  # kcli's column, only with --time-lag
    header = ["GROUP", "TOPIC", "PARTITION", *epoch, "CURRENT-OFFSET", "LOG-END-OFFSET", "LAG", *age]
    out = ["", line(header, ["CONSUMER-ID", "HOST", "CLIENT-ID"])]
    for r in rows:
        cells: list[object] = [r.group, or_missing(r.topic), or_missing(r.partition)]
        if verbose:
            cells.append(or_missing(r.leader_epoch))
        cells += [or_missing(r.offset), or_missing(r.log_end_offset), or_missing(r.lag)]
        if time_lag:
            cells.append(_time_lag_text(r.time_lag_ms))
        out.append(line(cells, [or_missing(r.consumer_id), or_missing(r.host), or_missing(r.client_id)]))
    return out


def members_block(group: GroupOffsets, *, verbose: bool) -> list[str]:
    """printMembers for one group: the header always, a row per member."""
    d = group.description
    members = d.members
    g = max([15, *(len(d.group_id) for _ in members[:1])])  # Kafka widens the column only for members
    c = max([15, *(len(m.member_id) for m in members)])
    i = max([17, *(len(m.instance_id or "") for m in members)])
    h = max([15, *(len(m.host) for m in members)])
    cl = max([15, *(len(m.client_id) for m in members)])
    with_instance = any(m.instance_id for m in members)

    def assignment(parts: Sequence[Any] | None) -> str:
        return partitions_by_topic(list(parts)) if parts else MISSING

    ca = max([20, *(len(assignment(m.assignment)) for m in members)])
    ta = max([20, *(len(assignment(m.target_assignment)) for m in members)])
    migrating = any(m.upgraded is False for m in members) and any(m.upgraded is True for m in members)

    def head(group_: str, member: str, instance: str, host: str, client: str, count: object) -> str:
        middle = f"{pad(instance, i)} " if with_instance else ""
        return f"{pad(group_, g)} {pad(member, c)} {middle}{pad(host, h)} {pad(client, cl)} {pad(count, 15)} "

    def tail(current: str, cur_a: str, target: str, tgt_a: str, upgraded: str) -> str:
        text = f"{pad(current, 15)} {pad(cur_a, ca)} {pad(target, 15)} {pad(tgt_a, ta)}"
        return text + f" {upgraded}" if migrating else text

    header = head("GROUP", "CONSUMER-ID", "GROUP-INSTANCE-ID", "HOST", "CLIENT-ID", "#PARTITIONS")
    if verbose:
        header += tail("CURRENT-EPOCH", "CURRENT-ASSIGNMENT", "TARGET-EPOCH", "TARGET-ASSIGNMENT", "UPGRADED")
    out = ["", header]
    for m in members:
        row = head(d.group_id, m.member_id, m.instance_id or "", m.host, m.client_id, len(set(m.assignment)))
        if verbose:
            row += tail(
                or_missing(m.member_epoch),
                assignment(m.assignment),
                or_missing(d.target_assignment_epoch),
                assignment(m.target_assignment),
                or_missing(None if m.upgraded is None else str(m.upgraded).lower()),
            )
        out.append(row)
    return out


def state_block(group: GroupOffsets, *, verbose: bool) -> list[str]:
    """printStates for one group."""
    d = group.description
    coordinator = d.coordinator.label
    g, c = max(15, len(d.group_id)), max(25, len(coordinator))
    strategy = d.assignor or MISSING
    if verbose:

        def line(*v: object) -> str:
            return f"{pad(v[0], g)} {pad(v[1], c)} {pad(v[2], 20)} {pad(v[3], 20)} {pad(v[4], 15)} {pad(v[5], 25)} {v[6]}"

        return ["", line("GROUP", "COORDINATOR (ID)", "ASSIGNMENT-STRATEGY", "STATE", "GROUP-EPOCH",
                         "TARGET-ASSIGNMENT-EPOCH", "#MEMBERS"),
                line(d.group_id, coordinator, strategy, d.state, or_missing(d.group_epoch),
                     or_missing(d.target_assignment_epoch), len(d.members))]  # fmt: skip
    head = ("GROUP", "COORDINATOR (ID)", "ASSIGNMENT-STRATEGY", "STATE", "#MEMBERS")
    body = (d.group_id, coordinator, strategy, d.state, len(d.members))
    return [
        "",
        *(f"{pad(a, g)} {pad(b, c)} {pad(s, 20)} {pad(st, 20)} {n}" for a, b, s, st, n in (head, body)),
    ]


def _row_json(r: OffsetRow) -> dict[str, Any]:
    return {
        "topic": r.topic,
        "partition": r.partition,
        "current_offset": r.offset,
        "log_end_offset": r.log_end_offset,
        "lag": r.lag,
        "time_lag_ms": r.time_lag_ms,
        "leader_epoch": r.leader_epoch,
        "consumer_id": r.consumer_id,
        "host": r.host,
        "client_id": r.client_id,
    }


def _member_json(m: Any) -> dict[str, Any]:
    return {
        "consumer_id": m.member_id,
        "group_instance_id": m.instance_id,
        "host": m.host,
        "client_id": m.client_id,
        "partitions": len(set(m.assignment)),
        "assignment": [f"{tp.topic}-{tp.partition}" for tp in sorted(set(m.assignment))],
        "target_assignment": None
        if m.target_assignment is None
        else [f"{tp.topic}-{tp.partition}" for tp in sorted(set(m.target_assignment))],
        "member_epoch": m.member_epoch,
        "upgraded": m.upgraded,
    }


def group_json(group: GroupOffsets, *, with_rows: bool) -> dict[str, Any]:
    d = group.description
    value: dict[str, Any] = {
        "group": d.group_id,
        "type": str(d.type),
        "state": str(d.state),
        "coordinator": {"id": d.coordinator.node_id, "host": d.coordinator.host, "port": d.coordinator.port},
        "assignment_strategy": d.assignor or None,
        "group_epoch": d.group_epoch,
        "target_assignment_epoch": d.target_assignment_epoch,
        "members": [_member_json(m) for m in d.members],
    }
    if with_rows:
        value["lag"] = group.total_lag
        value["lag_by_topic"] = group.lag_by_topic()
        value["max_time_lag_ms"] = group.max_time_lag_ms
        value["partitions"] = [_row_json(r) for r in group.rows]
    return value


def describe_json(described: Described) -> dict[str, Any]:
    from kcli.ops.groups.consumer_line import View

    with_rows = described.view is View.OFFSETS
    return {
        "view": described.view.value,
        "groups": [group_json(g, with_rows=with_rows) for g in described.groups],
        "errors": [{"group": g, "error": e.line()} for g, e in described.failed],
    }


def describe_table(described: Described) -> RenderableType:
    from rich.table import Table

    from kcli.ops.groups.consumer_line import View

    table = Table()
    if described.view is not View.OFFSETS:
        for column in ("Group", "Type", "State", "Coordinator", "Strategy", "Members"):
            table.add_column(column)
        for g in described.groups:
            d = g.description
            table.add_row(
                d.group_id,
                str(d.type),
                str(d.state),
                d.coordinator.label,
                d.assignor or MISSING,
                str(len(d.members)),
            )
        return table
    columns = ["Group", "Topic", "Partition", "Committed", "Log end", "Lag"]
    columns += ["Time lag"] if described.time_lag else []
    columns += ["Consumer"]
    for column in columns:
        table.add_column(
            column, justify="right" if column in ("Partition", "Committed", "Log end", "Lag") else "left"
        )
    for g in described.groups:
        for r in g.rows:
            cells = [r.group, or_missing(r.topic), or_missing(r.partition), or_missing(r.offset)]
            cells += [or_missing(r.log_end_offset), or_missing(r.lag)]
            cells += [_time_lag_text(r.time_lag_ms)] if described.time_lag else []
            cells += [r.consumer_id or MISSING]
            table.add_row(*cells)
        if g.rows:
            total = [g.group_id, "(all)", "", "", "", str(g.total_lag)]
            total += [_time_lag_text(g.max_time_lag_ms)] if described.time_lag else []
            table.add_row(*total, "", end_section=True)
    return table


# ---- --reset-offsets ------------------------------------------------------------------------------


def reset_text(result: ResetResult) -> str:
    """GroupOffsetsResetter.printOffsetsToReset (Kafka 4.2+), or Kafka 4.0's fixed-width table.

    The header comes whenever a group was asked about, even one refused (Kafka's map holds it, empty)."""
    rows = result.planned_rows()
    legacy = result.release is ToolRelease.LEGACY
    g = 30 if legacy else max([15, *(len(x.group_id) for x in result.groups)])
    t = 30 if legacy else max([15, *(len(r.partition.topic) for r in rows)])
    text = ""
    if result.groups:
        last = pad("NEW-OFFSET", 15) if legacy else "NEW-OFFSET"
        text += f"\n{pad('GROUP', g)} {pad('TOPIC', t)} {pad('PARTITION', 10)} {last}"
        for r in rows:
            offset = pad(r.offset, 15) if legacy else str(r.offset)
            text += f"\n{pad(r.group, g)} {pad(r.partition.topic, t)} {pad(r.partition.partition, 10)} {offset}"
    return text + "\n"


def reset_csv(result: ResetResult, *, with_group: bool) -> str:
    """--export: the CSV of the new offsets, then the blank line println adds."""
    from kcli.ops.groups.reset_specs import plan_csv

    return plan_csv(result.planned_rows(), with_group=with_group) + "\n"


def reset_json(result: ResetResult) -> dict[str, Any]:
    return {
        "executed": result.executed,
        "rollback_file": None if result.rollback is None else str(result.rollback),
        "groups": [
            {
                "group": g.group_id,
                "error": None if g.error is None else g.error.line(),
                "partitions": [
                    {
                        "topic": tp.topic,
                        "partition": tp.partition,
                        "previous_offset": g.before[tp].offset if tp in g.before else None,
                        "new_offset": offset,
                    }
                    for tp, offset in sorted(g.offsets.items())
                ],
            }
            for g in result.groups
        ],
        "warnings": list(result.warnings),
        "unconfirmed": list(result.unconfirmed),
    }


def reset_table(result: ResetResult) -> RenderableType:
    from rich.table import Table

    table = Table(title="executed" if result.executed else "dry run (add --execute to apply)")
    for column in ("Group", "Topic", "Partition", "Previous", "New offset"):
        table.add_column(column)
    for g in result.groups:
        for tp, offset in sorted(g.offsets.items()):
            previous = str(g.before[tp].offset) if tp in g.before else MISSING
            table.add_row(g.group_id, tp.topic, str(tp.partition), previous, str(offset))
    return table


# ---- --delete and --delete-offsets ------------------------------------------------------------------


def _quoted(groups: Sequence[str], release: ToolRelease) -> str:
    if release is ToolRelease.LEGACY:
        return "'" + ", ".join(groups) + "'"
    return ", ".join(f"'{g}'" for g in groups)


def delete_lines(deleted: Deleted) -> list[str]:
    """What --delete prints on stdout: the groups deleted (the failures are kcli's error lines)."""
    if not deleted.failed:
        return [
            f"Deletion of requested consumer groups ({_quoted(deleted.deleted, deleted.release)}) was successful."
        ]
    if deleted.deleted:
        return [
            "",
            f"These consumer groups were deleted successfully: {_quoted(deleted.deleted, deleted.release)}",
        ]
    return []


def delete_json(deleted: Deleted) -> dict[str, Any]:
    return {
        "deleted": list(deleted.deleted),
        "errors": [{"group": g, "error": e.line()} for g, e in deleted.failed],
    }


def delete_offsets_lines(result: OffsetsDeleted) -> list[str]:
    """The success line (when nothing failed) and the TOPIC / PARTITION / STATUS table of --delete-offsets."""
    legacy = result.release is ToolRelease.LEGACY
    out = []
    if delete_offsets_error(result) is None:
        if legacy:
            out.append(f"Request succeed for deleting offsets with topic {', '.join(result.topics)} group {result.group_id}")
        else:
            out.append(f"Request succeeded for deleting offsets from group {result.group_id}.")
    t = 30 if legacy else max([15, *(len(tp.topic) for tp in result.partitions)])
    p = 15 if legacy else 10
    missing = "Not Provided" if legacy else MISSING

    def status(error: Any) -> str:
        return "Successful" if error is None else f"Error: {_exception_text(error)}"

    out.append("")
    out.append(f"{pad('TOPIC', t)} {pad('PARTITION', p)} {pad('STATUS', 15)}")
    for tp, error in sorted(result.partitions.items(), key=lambda item: item[0].topic + str(item[0].partition)):
        number = tp.partition if tp.partition >= 0 else missing
        out.append(f"{pad(tp.topic, t)} {pad(number, p)} {pad(status(error), 15)}")
    return out


_PARTITION_LEVEL = frozenset({"GROUP_SUBSCRIBED_TO_TOPIC", "TOPIC_AUTHORIZATION_FAILED", "UNKNOWN_TOPIC_OR_PARTITION"})
_GROUP_LEVEL_4_0 = {
    "INVALID_GROUP_ID": "'{}' is not valid.",
    "GROUP_ID_NOT_FOUND": "'{}' does not exist.",
    "GROUP_AUTHORIZATION_FAILED": "Access to '{}' is not authorized.",
    "NON_EMPTY_GROUP": "Deleting offsets of a consumer group '{}' is forbidden if the group is not empty.",
}


def delete_offsets_error(result: OffsetsDeleted) -> str | None:
    """The sentence kafka-consumer-groups prints when the deletion failed (the group's error, or the
    first partition's: the whole request fails with it), or None when every partition's offset went."""
    from kcli.client.errors import KafkaError, error_info

    error = result.error or next((e for _, e in sorted(result.deleted_partitions_errors())), None)
    if error is None:
        return None
    name = getattr(error, "name", "")
    legacy = result.release is ToolRelease.LEGACY
    if name in _PARTITION_LEVEL:
        if legacy:
            return "Encounter some partition level error, see the follow-up details:"
        return "Encountered some partition-level error, see the follow-up details."
    if isinstance(error, KafkaError) and name in _GROUP_LEVEL_4_0:
        return _GROUP_LEVEL_4_0[name].format(result.group_id) if legacy else error_info(error.code).message
    if isinstance(error, KafkaError):
        return f"Encounter{'' if legacy else 'ed'} some unknown error: {name}"
    return str(getattr(error, "message", error))


def _exception_text(error: Any) -> str:
    """A partition's error as Kafka's tool prints the exception: `org.apache...Exception: message`."""
    return exception_line(error)


def exception_line(error: Any) -> str:
    """`class: message` of a KafkaError, as Java's Throwable.toString (another KcliError: its message)."""
    from kcli.client.errors import KafkaError, error_info
    from kcli.ops.groups.java_errors import exception_class

    if not isinstance(error, KafkaError):
        return str(getattr(error, "message", error))
    message = error.server_message or error_info(error.code).message
    return f"{exception_class(error.name)}: {message}"


def delete_offsets_json(result: OffsetsDeleted) -> dict[str, Any]:
    return {
        "group": result.group_id,
        "error": None if result.error is None else result.error.line(),
        "partitions": [
            {
                "topic": tp.topic,
                "partition": tp.partition if tp.partition >= 0 else None,
                "error": None if e is None else e.line(),
            }
            for tp, e in sorted(result.partitions.items())
        ],
    }


# ---- --describe --watch ------------------------------------------------------------------------------


def _trend_cells(t: Trend) -> list[str]:
    from kcli.ops.groups.lag import duration_text

    change = MISSING if t.change is None else f"{t.change:+d}"
    rate = MISSING if t.per_second is None else f"{t.per_second:+.1f}/s"
    age = MISSING if t.max_time_lag_ms is None else duration_text(t.max_time_lag_ms)
    return [t.group, str(t.lag), change, rate, age, t.direction or MISSING]


WATCH_COLUMNS = ("GROUP", "LAG", "CHANGE", "RATE", "TIME-LAG", "TREND")


def watch_lines(trends: Sequence[Trend], stamp: str) -> list[str]:
    """One --watch refresh as text: the time, then a row per group."""
    rows = [list(WATCH_COLUMNS), *(_trend_cells(t) for t in trends)]
    widths = [max(15, *(len(r[i]) for r in rows)) for i in range(len(WATCH_COLUMNS))]
    lines = [stamp]
    lines += [" ".join(pad(cell, widths[i]) for i, cell in enumerate(r)).rstrip() for r in rows]
    return lines


def watch_json(trends: Sequence[Trend], stamp: str) -> dict[str, Any]:
    return {
        "time": stamp,
        "groups": [
            {
                "group": t.group,
                "lag": t.lag,
                "change": t.change,
                "per_second": t.per_second,
                "max_time_lag_ms": t.max_time_lag_ms,
                "trend": t.direction or None,
            }
            for t in trends
        ],
    }


def watch_table(item: Sequence[Trend] | Any, stamp: str, interval: float) -> RenderableType:
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    from kcli.errors import KcliError

    if isinstance(item, KcliError):
        return Group(Text(f"{stamp}  refresh failed: {item.line()}", style="red"))
    table = Table()
    for column in WATCH_COLUMNS:
        table.add_column(column, justify="right" if column in ("LAG", "CHANGE", "RATE") else "left")
    for t in item:
        style = "red" if t.direction == "growing" else "green" if t.direction == "shrinking" else None
        table.add_row(*_trend_cells(t), style=style)
    return Group(Text(f"{stamp}  (every {interval:g}s, Ctrl-C to stop)", style="dim"), table)
