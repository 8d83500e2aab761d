"""Kafka error codes as Kafka's Java tools print them: the exception class, and Throwable.toString().

The classes are kcli/data/kafka_exceptions.tsv (scripts/kafka-exceptions.py reads them from Kafka's
Errors enum). kafka-log-dirs prints a log dir's error as the class name; kafka-leader-election a
failed election as `class: message` (Throwable.toString), the message being the broker's when it
sent one, else the error's default.
"""

from __future__ import annotations

from functools import cache


@cache
def _classes() -> dict[int, str]:
    from kcli.data import read_text

    out = {}
    for line in read_text("kafka_exceptions.tsv").splitlines():
        if line.startswith("#") or not line.strip():
            continue
        code, _name, cls = line.split("\t")
        if cls:
            out[int(code)] = cls
    return out


def exception_class(code: int) -> str | None:
    """The Java exception class of an error code (None for NONE; UnknownServerException for a code
    Kafka does not know, as Errors.forCode does)."""
    if code == 0:
        return None
    return _classes().get(code, _classes()[-1])


@cache
def _messages() -> dict[int, str]:
    from kcli.data import read_text

    out = {}
    for line in read_text("kafka_errors.tsv").splitlines():
        code, _name, _retriable, message = line.split("\t")
        out[int(code)] = message
    return out


def exception_text(code: int, message: str | None) -> str:
    """Throwable.toString() of the exception Kafka's admin client raises for `code` and `message`
    (Errors.exception(message): the error's own description when the broker sent none)."""
    cls = exception_class(code) or ""
    text = message if message else _messages().get(code, "")
    return f"{cls}: {text}" if text else cls
