"""Checks of a command line that every tool makes the same way."""

from __future__ import annotations

from collections.abc import Sequence


def refuse_stray(words: Sequence[str]) -> None:
    """After a jopt-simple tool's own checks: words that belong to no option are an error in kcli."""
    if words:
        from kcli.errors import UsageError  # kcli.cli.argv, which every command loads, imports this module

        text = " ".join(repr(word) for word in words)
        raise UsageError(f"Unexpected argument(s) {text}: every value follows its option (--option VALUE)")
