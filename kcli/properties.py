"""Java .properties files (--command-config), parsed as java.util.Properties.load does."""

from __future__ import annotations

import re
from pathlib import Path

from kcli.errors import UsageError

_ESCAPES = {"t": "\t", "n": "\n", "r": "\r", "f": "\f"}


def parse_properties(text: str) -> dict[str, str]:
    """Parse Java .properties text (java.util.Properties.load rules).

    Behavior:
    - `#` and `!` start comment lines; blank lines are skipped.
    - A key ends at the first unescaped `=`, `:` or whitespace; whitespace around the separator
      is dropped (so `a = b`, `a:b` and `a b` all mean a -> b).
    - A line ending in an odd number of backslashes continues on the next line, whose leading
      whitespace is dropped.
    - Escapes: \\t \\n \\r \\f, \\uXXXX, and a backslash before any other character means that
      character. Later duplicates win.
    """
    result: dict[str, str] = {}
    for logical in _logical_lines(text):
        key, value = _split_key_value(logical)
        result[key] = value
    return result


def _logical_lines(text: str) -> list[str]:
    lines = text.splitlines()
    out: list[str] = []
    index = 0
    while index < len(lines):
        line = lines[index].lstrip(" \t\f")
        index += 1
        if not line or line[0] in "#!":
            continue
        while _continues(line) and index < len(lines):
            line = line[:-1] + lines[index].lstrip(" \t\f")
            index += 1
        if _continues(line):  # a continuation on the last line: drop the backslash
            line = line[:-1]
        out.append(line)
    return out


def _continues(line: str) -> bool:
    trailing = len(line) - len(line.rstrip("\\"))
    return trailing % 2 == 1


def _split_key_value(line: str) -> tuple[str, str]:
    index = 0
    length = len(line)
    while index < length:
        char = line[index]
        if char == "\\":
            index += 2
            continue
        if char in "=: \t\f":
            break
        index += 1
    raw_key = line[:index]
    rest = line[index:]
    rest = rest.lstrip(" \t\f")
    if rest[:1] in ("=", ":"):
        rest = rest[1:].lstrip(" \t\f")
    return _unescape(raw_key), _unescape(rest)


def _unescape(text: str) -> str:
    if "\\" not in text:
        return text
    out: list[str] = []
    index = 0
    while index < len(text):
        char = text[index]
        if char != "\\" or index + 1 >= len(text):
            out.append(char)
            index += 1
            continue
        nxt = text[index + 1]
        if nxt == "u" and re.fullmatch(r"[0-9a-fA-F]{4}", text[index + 2 : index + 6]):
            out.append(chr(int(text[index + 2 : index + 6], 16)))
            index += 6
            continue
        out.append(_ESCAPES.get(nxt, nxt))
        index += 2
    return "".join(out)


def read_properties_file(path: Path) -> dict[str, str]:
    """Read a --command-config file; a missing or unreadable file is a usage error."""
    from kcli.files import read_bytes

    try:
        raw = read_bytes(path, what="properties file")
    except FileNotFoundError:
        raise UsageError(f"Properties file {path} does not exist") from None
    except OSError as error:
        raise UsageError(f"cannot read properties file {path}: {error.strerror}") from None
    # Java 9+ reads .properties as UTF-8 and falls back to ISO-8859-1.
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        text = raw.decode("latin-1")
    return parse_properties(text)
