"""Path resolution and glob matching over the shell tree (pure, no Kafka knowledge).

Globs work per path component as in kafka-metadata-shell: `*`, `?`, `{a,b}` (no nesting), and `\\`
escapes; no character ranges. `.` and `..` resolve against the working directory.
"""

from __future__ import annotations

import re
from functools import lru_cache

from kcli.metadata.tree import Node

Path = tuple[str, ...]


def normalize(cwd: Path, path: str) -> Path:
    """Absolute components of `path` seen from `cwd` (`.` and `..` resolved, `..` stops at /)."""
    parts: list[str] = [] if path.startswith("/") else list(cwd)
    for part in path.split("/"):
        if part in ("", "."):
            continue
        if part == "..":
            if parts:
                parts.pop()
            continue
        parts.append(part)
    return tuple(parts)


def display(path: Path) -> str:
    return "/" + "/".join(path)


def is_glob(component: str) -> bool:
    return any(char in component for char in "*?{\\")


@lru_cache(maxsize=512)
def component_regex(component: str) -> re.Pattern[str] | None:
    """The regex for one glob component, or None when it is a literal (after unescaping)."""
    if not is_glob(component):
        return None
    out: list[str] = []
    index = 0
    in_braces = False
    while index < len(component):
        char = component[index]
        if char == "\\" and index + 1 < len(component):
            out.append(re.escape(component[index + 1]))
            index += 2
            continue
        if char == "*":
            out.append(".*")
        elif char == "?":
            out.append(".")
        elif char == "{" and not in_braces:
            in_braces = True
            out.append("(?:")
        elif char == "}" and in_braces:
            in_braces = False
            out.append(")")
        elif char == "," and in_braces:
            out.append("|")
        else:
            out.append(re.escape(char))
        index += 1
    if in_braces:
        return re.compile(re.escape(component))  # unbalanced brace: a literal, as the original
    return re.compile("".join(out), re.DOTALL)


def unescape(component: str) -> str:
    return re.sub(r"\\(.)", r"\1", component)


def lookup(root: Node, path: Path) -> Node | None:
    """The node at an absolute path, or None."""
    node: Node | None = root
    for part in path:
        if node is None or not node.is_directory():
            return None
        node = node.child(part)
    return node


def expand(root: Node, cwd: Path, pattern: str) -> list[tuple[Path, Node]]:
    """Every (path, node) a glob pattern names, in sorted order; empty when nothing matches."""
    raw_parts: list[str] = [] if pattern.startswith("/") else list(cwd)
    for part in pattern.split("/"):
        if part in ("", "."):
            continue
        if part == ".." and raw_parts:
            raw_parts.pop()
            continue
        if part != "..":
            raw_parts.append(part)
    matches: list[tuple[Path, Node]] = [((), root)]
    for component in raw_parts:
        regex = component_regex(component)
        following: list[tuple[Path, Node]] = []
        for path, node in matches:
            if not node.is_directory():
                continue
            if regex is None:
                child = node.child(unescape(component))
                if child is not None:
                    following.append(((*path, unescape(component)), child))
                continue
            for name in node.child_names():
                if regex.fullmatch(name):
                    child = node.child(name)
                    if child is not None:
                        following.append(((*path, name), child))
        matches = following
        if not matches:
            break
    return matches
