"""What a --reset-offsets line names: its partitions (`topic:0,1`), datetime, duration and CSV plan.

Pure parsing, each as Kafka's tools read it:
- `--topic t:0,1,2` (GroupOffsetsResetter.parseTopicsWithPartitions; a topic without `:` means all
  of its partitions, looked up on the cluster);
- `--to-datetime` (Utils.getDateTime: `yyyy-MM-dd'T'HH:mm:ss.SSS`, then an optional zone `Z`, `+hh`,
  `+hhmm` or `+hh:mm`; UTC when none is given; SimpleDateFormat's strict calendar, and what follows
  a complete date is ignored, as SimpleDateFormat ignores it);
- `--by-duration` (java.time.Duration.parse, `PnDTnHnMn.nS`, signs allowed);
- the --from-file / --export CSV (CsvUtils: `topic,partition,offset`, or `group,topic,partition,offset`
  for several groups); kcli names the file and line of a bad row.
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from kcli.errors import KcliError, UsageError
from kcli.integers import clipped, java_long
from kcli.ops.reassign.model import TopicPartition

_INT_MAX = 2**31 - 1


def java_int(text: str) -> int | None:
    value = java_long(text)
    return value if value is not None and -(2**31) <= value <= _INT_MAX else None


@dataclass(frozen=True, slots=True)
class TopicArgs:
    """--topic values split as Kafka splits them: named partitions, and topics meaning all partitions."""

    partitions: tuple[TopicPartition, ...]
    whole_topics: tuple[str, ...]


def topic_args(values: Sequence[str]) -> TopicArgs:
    """`t:0,1` names partitions 0 and 1 of t; `t` all of t's (found later). Bad ones: UsageError."""
    partitions: list[TopicPartition] = []
    whole: list[str] = []
    for value in values:
        if ":" in value:
            partitions.extend(partitions_of(value))
        else:
            whole.append(value)
    return TopicArgs(tuple(partitions), tuple(whole))


def partitions_of(value: str) -> list[TopicPartition]:
    """parseTopicsWithPartitions: `topic:p,p,...` (Java's split: trailing empty parts dropped)."""
    parts = re.split(":", value)
    while parts and parts[-1] == "":
        parts.pop()
    if len(parts) != 2:
        raise UsageError(f"Invalid topic arg '{value}', expected topic name and partitions")
    topic, listed = parts
    out = []
    for text in listed.split(","):
        number = java_int(text)
        if number is None:
            raise UsageError(f"Invalid partition '{clipped(text)}' specified in topic arg '{value}''")
        out.append(TopicPartition(topic, number))
    return out


# ---- --to-datetime ------------------------------------------------------------------------------

_DATETIME = re.compile(
    r"([0-9]+)-([0-9]+)-([0-9]+)T([0-9]+):([0-9]+):([0-9]+)\.([0-9]{1,3})"
    r"(Z|[+-][0-9]{2}(?::?[0-9]{2})?)(?![0-9])"
)
NO_T = "Error parsing timestamp. It does not contain a 'T' according to ISO8601 format"


def datetime_millis(text: str) -> int:
    """Utils.getDateTime: epoch milliseconds of `text`, or a UsageError with Kafka's words."""
    parts = text.split("T")
    while parts and parts[-1] == "":
        parts.pop()
    if len(parts) < 2:
        raise UsageError(f"--to-datetime {clipped(text)!r}: {NO_T}")
    if not any(sign in parts[1] for sign in "+-Z"):
        text = text + "Z"
    found = _DATETIME.match(text)
    if found is None or not _valid_date(found):
        raise UsageError(
            f'--to-datetime: Unparseable date: "{clipped(text)}"',
            hint="the format is YYYY-MM-DDThh:mm:ss.sss, optionally with a zone (Z, +hh, +hhmm, +hh:mm)",
        )
    year, month, day, hour, minute, second, millis = (int(g) for g in found.groups()[:7])
    offset_minutes = _zone_minutes(found.group(8))
    days = _days_from_civil(year, month, day)
    seconds = days * 86400 + hour * 3600 + minute * 60 + second - offset_minutes * 60
    return seconds * 1000 + millis


def _valid_date(found: re.Match[str]) -> bool:
    if any(len(g) > 9 for g in found.groups()[:7]):
        return False
    year, month, day, hour, minute, second = (int(g) for g in found.groups()[:6])
    if not 1 <= month <= 12 or year < 1:
        return False
    days_in_month = calendar.monthrange(year, month)[1] if year <= 9999 else _month_days(year, month)
    return 1 <= day <= days_in_month and hour < 24 and minute < 60 and second < 60


def _month_days(year: int, month: int) -> int:
    leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    return [31, 29 if leap else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]


def _zone_minutes(zone: str) -> int:
    if zone == "Z":
        return 0
    sign = -1 if zone[0] == "-" else 1
    digits = zone[1:].replace(":", "")
    return sign * (int(digits[:2]) * 60 + (int(digits[2:]) if len(digits) > 2 else 0))


def _days_from_civil(year: int, month: int, day: int) -> int:
    """Days since 1970-01-01 of a proleptic Gregorian date (any year, unlike datetime)."""
    year -= month <= 2
    era = year // 400
    yoe = year - era * 400
    doy = (153 * (month + (-3 if month > 2 else 9)) + 2) // 5 + day - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468


# ---- --by-duration ------------------------------------------------------------------------------

_DURATION = re.compile(
    r"([-+]?)P(?:([-+]?[0-9]+)D)?"
    r"(T(?:([-+]?[0-9]+)H)?(?:([-+]?[0-9]+)M)?(?:([-+]?[0-9]+)(?:[.,]([0-9]{0,9}))?S)?)?",
    re.IGNORECASE,
)
_LONG_MAX = 2**63 - 1


def duration_millis(text: str) -> int:
    """java.time.Duration.parse(text).toMillis(), or a UsageError with Kafka's words."""
    found = _DURATION.fullmatch(text)
    unparsable = UsageError(
        f"--by-duration {clipped(text)!r}: Text cannot be parsed to a Duration",
        hint="the format is PnDTnHnMnS, e.g. PT1H30M or P1D",
    )
    if found is None or found.group(3) in ("T", "t"):
        raise unparsable
    negate, days, _, hours, minutes, seconds, fraction = found.groups()
    if days is None and hours is None and minutes is None and seconds is None:
        raise unparsable
    if any(g is not None and len(g.lstrip("+-").lstrip("0")) > 19 for g in (days, hours, minutes, seconds)):
        raise UsageError(f"--by-duration {clipped(text)!r}: long overflow")
    total_nanos = 0
    for value, unit in ((days, 86400), (hours, 3600), (minutes, 60), (seconds, 1)):
        if value is not None:
            total_nanos += int(value) * unit * 10**9
    if fraction:
        nanos = int(fraction.ljust(9, "0"))
        total_nanos += -nanos if (seconds or "").startswith("-") else nanos
    if negate == "-":
        total_nanos = -total_nanos
    millis = total_nanos // 10**6
    if not -_LONG_MAX - 1 <= millis <= _LONG_MAX:
        raise UsageError(f"--by-duration {clipped(text)!r}: long overflow")
    return millis


# ---- the CSV plan -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PlannedOffset:
    group: str
    partition: TopicPartition
    offset: int


def parse_plan(text: str, *, source: str, single_group: str | None) -> dict[str, dict[TopicPartition, int]]:
    """A --from-file plan: group -> partition -> offset.

    As GroupOffsetsResetter.parseResetPlan: with one --group and a first line of three columns the
    file is `topic,partition,offset` for that group; otherwise every line is
    `group,topic,partition,offset`. Blank lines are skipped; a bad line is a UsageError naming it.
    """
    lines = [(number, line.rstrip("\r")) for number, line in enumerate(text.split("\n"), start=1)]
    rows = [(number, _csv_row(line, source, number)) for number, line in lines if line.strip()]
    three = bool(rows) and len(rows[0][1]) == 3 and _is_row(rows[0][1])
    with_group = not (single_group is not None and three)
    plan: dict[str, dict[TopicPartition, int]] = {}
    for number, fields in rows:
        expected = 4 if with_group else 3
        if len(fields) != expected:
            columns = "group,topic,partition,offset" if with_group else "topic,partition,offset"
            raise UsageError(
                f"{source} line {number}: {len(fields)} columns where {columns} has {expected}",
                hint="each line is topic,partition,offset (one --group) or group,topic,partition,offset",
            )
        group = fields[0] if with_group else str(single_group)
        topic, partition_text, offset_text = fields[-3:]
        partition, offset = java_int(partition_text.strip()), java_long(offset_text.strip())
        if partition is None or offset is None:
            bad, what = (partition_text, "partition") if partition is None else (offset_text, "offset")
            raise UsageError(f"{source} line {number}: the {what} {clipped(bad)!r} is not a whole number")
        plan.setdefault(group, {})[TopicPartition(topic, partition)] = offset
    return plan


def _csv_row(line: str, source: str, number: int) -> list[str]:
    import csv  # here, not at the top: only --from-file reads CSV

    try:
        return next(csv.reader([line]))
    except csv.Error as error:  # a field past the csv module's limit (131072 characters)
        raise UsageError(
            f"{source} line {number}: cannot be read as CSV ({error})",
            hint="each line is topic,partition,offset (one --group) or group,topic,partition,offset",
        ) from None


def _is_row(fields: list[str]) -> bool:
    return java_int(fields[1].strip()) is not None and java_long(fields[2].strip()) is not None


def _csv_field(value: str) -> str:
    """Jackson's CSV quoting: a value with a separator, quote, line break or edge space is quoted."""
    if any(c in value for c in ',"\n\r') or value != value.strip() or value == "":
        return '"' + value.replace('"', '""') + '"'
    return value


def plan_csv(rows: Iterable[PlannedOffset], *, with_group: bool) -> str:
    """The --export CSV (CsvUtils' writer): one `[group,]topic,partition,offset` line per partition."""
    out = []
    for row in rows:
        fields = [row.partition.topic, str(row.partition.partition), str(row.offset)]
        if with_group:
            fields.insert(0, row.group)
        out.append(",".join(_csv_field(f) for f in fields) + "\n")
    return "".join(out)


def read_plan_file(path: str) -> str:
    """The text of a --from-file plan (bounded: a plan is one line per partition)."""
    from kcli.files import DOCUMENT_LIMIT, read_text

    try:
        return read_text(path, what="--from-file", limit=DOCUMENT_LIMIT)
    except FileNotFoundError:
        raise UsageError(f"--from-file {path}: no such file") from None
    except OSError as error:
        raise KcliError(f"--from-file {path}: {error.strerror or error}") from None
