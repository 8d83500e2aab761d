"""Whole numbers from the text kcli is given: flags, .properties and TOML files, JSON documents.

Python's int() refuses a decimal string of more than 4300 digits (sys.get_int_max_str_digits) with
a ValueError that names neither the setting nor the file it came from, and that passes straight
through checks made first with a regular expression or str.isdigit. So every conversion of user
text to an int goes through here, and int() is never handed more digits than the largest number
kcli accepts has; a longer number is an error of the document or setting it is in.
"""

from __future__ import annotations

import re
from typing import Any

LONG_DIGITS = 19  # Java's Long.MAX_VALUE, 9223372036854775807
LONG_RANGE = (-(2**63), 2**63 - 1)
_JAVA_INTEGER = re.compile(r"([+-]?)([0-9]+)")
_DIGIT_RUN = re.compile(r"[0-9][0-9_]*")


def java_long(text: str) -> int | None:
    """`text` as Java's Long.parseLong reads it (an optional sign, ASCII digits, leading zeros
    allowed), or None when it is not such a number or does not fit a long."""
    match = _JAVA_INTEGER.fullmatch(text)
    if match is None:
        return None
    sign, digits = match.groups()
    digits = digits.lstrip("0") or "0"
    if len(digits) > LONG_DIGITS:
        return None
    value = int(sign + digits)
    return value if LONG_RANGE[0] <= value <= LONG_RANGE[1] else None


def clipped(text: str, limit: int = 40) -> str:
    """`text` for an error line: whole when short, else its first `limit` characters and "..."."""
    return text if len(text) <= limit else text[:limit] + "..."


JSON_INT_DIGITS = LONG_DIGITS + 1  # longer than any Java long: kept as a LongNumber


class LongNumber:
    """A JSON integer longer than any Java long: no number kcli sends, kept for the error message."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return f"{self.text[:12]}... ({len(self.text.lstrip('-'))} digits)"

    __str__ = __repr__


def json_int(text: str) -> int | LongNumber:
    """`parse_int` for json.loads: an int, or a LongNumber when longer than any Java long.

    Kept apart, the number reaches the document's own checks, which name the field it is in.
    """
    return int(text) if len(text.lstrip("-")) <= JSON_INT_DIGITS else LongNumber(text)


class TomlLimit(ValueError):
    """A TOML document past what Python's parser takes: an integer of more than 4300 digits, or
    arrays nested deeper than the recursion limit (tomllib lets both out as other errors)."""


def load_toml(text: str) -> dict[str, Any]:
    """tomllib.loads; what it cannot parse is a TOMLDecodeError or a TomlLimit saying where."""
    import sys
    import tomllib

    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        raise
    except ValueError as error:  # int() refusing a long integer; the line is found here
        limit = sys.get_int_max_str_digits()
        runs = (run for run in _DIGIT_RUN.finditer(text) if len(run.group().replace("_", "")) > limit)
        run = next(runs, None)
        if run is None:
            raise TomlLimit(str(error)) from None
        line = text.count("\n", 0, run.start()) + 1
        raise TomlLimit(f"an integer of more than {limit} digits (at line {line})") from None
    except RecursionError:
        raise TomlLimit("nested too deeply") from None
