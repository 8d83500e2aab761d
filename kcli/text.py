"""Text kcli is given that Kafka's protocol cannot carry: lone surrogates and over-long strings.

Python reads `\\ud800` in JSON, a .properties escape or a TOML string as a lone surrogate, a str
that has no UTF-8 form, so it fails only when a request is encoded. Every place that takes text
from outside checks it here first and names where it came from.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

_SURROGATE = re.compile("[\ud800-\udfff]")
INT16_STRING_BYTES = 2**15 - 1  # a protocol STRING's int16 length (request header client id, ...)


def lone_surrogate_at(text: str) -> int | None:
    """The index of the first lone surrogate in `text`, or None when it is all Unicode text.

    (A pair written as two escapes, as JSON writes an emoji, is one character in Python already.)
    """
    match = _SURROGATE.search(text)
    return None if match is None else match.start()


def surrogate_problem(text: str) -> str | None:
    """`holds a lone surrogate (U+D800 at character 3), which is not Unicode text`, or None."""
    at = lone_surrogate_at(text)
    if at is None:
        return None
    return f"holds a lone surrogate (U+{ord(text[at]):04X} at character {at + 1}), which is not Unicode text"


def shown(text: str) -> str:
    """`text` safe to print: a lone surrogate as its escape (printing it raises UnicodeEncodeError)."""
    return text if lone_surrogate_at(text) is None else text.encode("utf-8", "backslashreplace").decode()


def may_hold_surrogates(json_text: str) -> bool:
    """Whether parsed JSON text can hold a lone surrogate: only through a \\u escape, or a surrogate
    in the text itself (stdin decoded with surrogateescape). A quick test before walking it."""
    return "\\u" in json_text or lone_surrogate_at(json_text) is not None


def first_surrogate_path(document: Any, path: str = "") -> tuple[str, str] | None:
    """The path (`partitions[3].topic`) and problem of the first string of a parsed JSON document
    holding a lone surrogate, keys included; None when there is none. Iterative: documents are deep."""
    for where, text in _strings(document, path):
        problem = surrogate_problem(text)
        if problem is not None:
            return where, problem
    return None


def _strings(document: Any, path: str) -> Iterator[tuple[str, str]]:
    stack: list[tuple[str, Any]] = [(path, document)]
    while stack:
        where, value = stack.pop()
        if isinstance(value, str):
            yield where or "the document", value
        elif isinstance(value, dict):
            for key, item in reversed(value.items()):
                yield f"{where} key {shown(key)!r}" if where else f"key {shown(key)!r}", key
                stack.append((f"{where}.{shown(key)}" if where else shown(key), item))
        elif isinstance(value, list):
            stack.extend((f"{where}[{index}]", item) for index, item in reversed(list(enumerate(value))))
