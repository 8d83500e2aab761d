"""Tab completion: a pure suggestion function and a thin prompt_toolkit Completer over it."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from kcli.metadata.tree import Node
from kcli.shell.commands import COMMANDS
from kcli.shell.glob import Path, lookup, normalize


def suggest(text_before_cursor: str, root: Node, cwd: Path) -> tuple[int, list[str]]:
    """(start position relative to the cursor, candidates) for the word under the cursor.

    The first word completes to command names; later words complete to child paths (directories
    get a trailing "/").
    """
    words = text_before_cursor.split(" ")
    word = words[-1]
    if len(words) == 1:
        return -len(word), sorted(name for name in COMMANDS if name.startswith(word))
    head, _, partial = word.rpartition("/")
    parent = normalize(cwd, head + "/" if head else "/") if "/" in word else cwd
    node = lookup(root, parent)
    if node is None or not node.is_directory():
        return -len(partial), []
    out = []
    for name in node.child_names():
        if name.startswith(partial):
            child = node.child(name)
            out.append(name + "/" if child is not None and child.is_directory() else name)
    return -len(partial), out


def make_completer(root: Callable[[], Node], cwd: Callable[[], Path]) -> Any:
    """A prompt_toolkit Completer that asks `suggest` (imported lazily: prompt_toolkit is heavy)."""
    from prompt_toolkit.completion import Completer, Completion

    class PathCompleter(Completer):
        def get_completions(self, document: Any, complete_event: Any) -> Iterable[Completion]:
            start, candidates = suggest(document.text_before_cursor, root(), cwd())
            for candidate in candidates:
                yield Completion(candidate, start_position=start)

    return PathCompleter()
