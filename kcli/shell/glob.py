"""Path resolution and glob matching over the shell tree (pure, no Kafka knowledge).

Globs work per path component as in kafka-metadata-shell: `*`, `?`, `{a,b}` (no nesting), and `\\`
escapes; no character ranges. A component with none of them (or a malformed one) is a literal
name, taken as written. `.` and `..` resolve against the working directory.
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


_REGEX_SPECIAL = frozenset("$()+.[]^{|")
_GLOB_SPECIAL = frozenset("*?\\{}")


class GlobError(ValueError):
    """A malformed glob component (a nested or unterminated group): it is then a literal."""


def to_regular_expression(glob: str) -> str | None:
    """The regex of one glob component, None when it can match only itself (GlobComponent.
    toRegularExpression): `?`, `*`, `{a,b}` (not nested) make a glob; `\\` escapes the next
    character, but an escape alone does not. GlobError for a malformed group."""
    output = ["^"]
    literal = True
    in_group = False
    index = 0
    while index < len(glob):
        char = glob[index]
        index += 1
        if char == "?":
            literal = False
            output.append(".")
        elif char == "*":
            literal = False
            output.append(".*")
        elif char == "\\":
            if index == len(glob):
                output.append(char)
            else:
                following = glob[index]
                index += 1
                if following in _GLOB_SPECIAL or following in _REGEX_SPECIAL:
                    output.append("\\")
                output.append(following)
        elif char == "{":
            if in_group:
                raise GlobError("Can't nest glob groups.")
            literal = False
            output.append("(?:(?:")
            in_group = True
        elif char == "," and in_group:
            output.append(")|(?:")
        elif char == "}" and in_group:
            output.append("))")
            in_group = False
        else:
            if char in _REGEX_SPECIAL:
                output.append("\\")
            output.append(char)
    if in_group:
        raise GlobError("Unterminated glob group.")
    return None if literal else "".join(output) + "$"


def is_glob(component: str) -> bool:
    return component_regex(component) is not None


@lru_cache(maxsize=512)
def component_regex(component: str) -> re.Pattern[str] | None:
    """The compiled regex of one glob component, or None when it is a literal: matched as written,
    backslashes included, as kafka-metadata-shell's GlobComponent does (a malformed glob too)."""
    try:
        expression = to_regular_expression(component)
        return None if expression is None else re.compile(expression)
    except (GlobError, re.error):
        return None


def component_matches(component: str, name: str) -> bool:
    """Whether a child named `name` matches one glob component (GlobComponent.matches)."""
    regex = component_regex(component)
    return component == name if regex is None else regex.fullmatch(name) is not None


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
                child = node.child(component)
                if child is not None:
                    following.append(((*path, component), child))
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
