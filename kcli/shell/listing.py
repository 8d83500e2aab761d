"""How `ls` lays out what it lists, as kafka-metadata-shell's LsCommandHandler: the long form
(`ls -l`) and the column layout sized to the terminal width."""

from __future__ import annotations

from collections.abc import Sequence

from kcli.metadata.tree import Node, Unavailable

# `ls -l`: kind (dir or file), size (a directory's entries, a file's characters), name.
LONG_HEADING = f"{'type':<4} {'size':>9}  name"


def _long_line(name: str, node: Node | None) -> str:
    try:
        if node is not None and node.is_directory():
            return f"{'dir':<4} {len(node.child_names()):>9}  {name}"
        return f"{'file':<4} {len(node.text()) if node is not None else 0:>9}  {name}"
    except Unavailable:
        return f"{'dir':<4} {'?':>9}  {name}"


def long_lines(directory: Node, children: Sequence[str]) -> list[str]:
    return [_long_line(name, directory.child(name)) for name in children]


def long_lines_of(files: Sequence[tuple[str, Node]]) -> list[str]:
    return [_long_line(name, node) for name, node in files]


def effective_paths(paths: Sequence[str]) -> list[str]:
    """The paths a command acts on: empty ones dropped, the working directory when none is left
    (CommandUtils.getEffectivePaths)."""
    return [path for path in paths if path] or ["."]


def print_targets(
    width: int | None,
    files: Sequence[str],
    directories: Sequence[tuple[str, Sequence[str]]],
    *,
    heading: str | None = None,
) -> list[str]:
    """The lines of `ls`: the files named first, then each directory's entries, introduced by its
    name when there is more than one block (LsCommandHandler.printTargets). `width` None (no
    terminal) puts every entry on its own line. `heading` (for `ls -l`, whose entries are already
    lines) goes above each block's entries."""
    lines = print_entries("", width, files, heading=heading)
    need_intro = bool(files) or len(directories) > 1
    first_intro = not files
    for name, children in directories:
        intro = ""
        if need_intro:
            if not first_intro:
                intro += "\n"
            intro += f"{name}:"
            first_intro = False  # even when the directory turns out empty, as Kafka's ls
        lines += print_entries(intro, width, children, heading=heading)
    return lines


def print_entries(
    intro: str, width: int | None, entries: Sequence[str], *, heading: str | None = None
) -> list[str]:
    """One block of `ls` (LsCommandHandler.printEntries): nothing for no entries; else the intro,
    then the entries in the columns `column_schema` chooses, every column but the last padded."""
    if not entries:
        return []
    lines = intro.split("\n") if intro else []
    if heading is not None:
        return [*lines, heading, *entries]
    columns, per_column, widths = column_schema(width, entries)
    rows = -(-len(entries) // columns)
    for row in range(rows):
        out = []
        for column in range(columns):
            index = row + column * per_column
            if index < len(entries):
                entry = entries[index]
                out.append(entry if column == columns - 1 else entry.ljust(widths[column]))
        lines.append("".join(out))
    return lines


def column_schema(width: int | None, entries: Sequence[str]) -> tuple[int, int, list[int]]:
    """(columns, entries per column, each column's width) for `ls` on a screen `width` wide
    (LsCommandHandler.calculateColumnSchema): a column is as wide as its longest entry + 2; the
    most columns (at most width // 4) whose last column is not empty and whose widths fit win."""
    if width is None or width // 4 <= 1:
        return 1, len(entries), [0]
    schemas = []
    for columns in range(1, width // 4 + 1):
        per_column = -(-len(entries) // columns)
        widths = [0] * columns
        for index, entry in enumerate(entries):
            column = index // per_column
            widths[column] = max(widths[column], len(entry) + 2)
        schemas.append((columns, per_column, widths))
    for columns, per_column, widths in reversed(schemas[1:]):
        if widths[-1] != 0 and sum(widths) <= width:
            return columns, per_column, widths
    return schemas[0]
