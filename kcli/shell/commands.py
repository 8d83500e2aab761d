"""Shell commands: a line parses to a command value (or an error value); running it prints.

Commands as kafka-metadata-shell has them: ls [-l], cd, pwd, cat, find, tree, history, help, man,
exit. `cd`, `pwd`, `help`, `man` and `exit` are shell-only (refused in one-shot use, as the
original); `history` lists the command history with no argument or a number, and with a path
shows the metadata records that shaped that node (this works one-shot too).

Behavior:
- Parsing never raises: a bad line is an `ErroneousCommand` carrying the message.
- Running writes data through `Shell.out` and problems through `Shell.err`, and returns False when
  the command failed (one-shot use turns that into the exit code).
"""

from __future__ import annotations

import shlex
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import ClassVar, Protocol

from kcli.metadata.tree import Node
from kcli.shell.glob import Path, display, expand, normalize

HistorySource = Callable[[Path], Iterable[str]]


@dataclass(slots=True, kw_only=True)
class Shell:
    """The state commands run against: tree, working directory, history, where output goes."""

    root: Node
    out: Callable[[str], None]
    err: Callable[[str], None]
    cwd: Path = ()
    interactive: bool = False
    width: int = 80
    history: list[str] = field(default_factory=list)
    record_history: HistorySource | None = None
    exit_requested: bool = False


class Command(Protocol):
    name: ClassVar[str]

    def run(self, shell: Shell) -> bool: ...


@dataclass(frozen=True, slots=True, kw_only=True)
class ErroneousCommand:
    """A line that did not parse; running it prints why."""

    name: ClassVar[str] = "<error>"
    message: str

    def run(self, shell: Shell) -> bool:
        shell.err(self.message)
        return False


@dataclass(frozen=True, slots=True, kw_only=True)
class NoOpCommand:
    """A blank line."""

    name: ClassVar[str] = ""

    def run(self, shell: Shell) -> bool:
        return True


@dataclass(frozen=True, slots=True, kw_only=True)
class LsCommand:
    """ls [-l] [path-glob ...]: list directories and name files."""

    name: ClassVar[str] = "ls"
    targets: tuple[str, ...] = ()
    long: bool = False

    def run(self, shell: Shell) -> bool:
        targets = self.targets or (".",)
        ok = True
        files: list[tuple[str, Node]] = []
        directories: list[tuple[str, Node]] = []
        for target in targets:
            matches = expand(shell.root, shell.cwd, target)
            if not matches:
                shell.err(f"ls: {target}: no such file or directory.")
                ok = False
            for path, node in matches:
                # Named by the last path component, as kafka-metadata-shell does.
                (directories if node.is_directory() else files).append((path[-1] if path else "/", node))
        if files:
            self._print([name for name, _ in files], [node for _, node in files], shell)
        introduce = len(directories) > 1 or bool(files)
        first = not files
        for name, node in directories:
            names = node.child_names()
            if not names:
                continue  # an empty directory prints nothing, not even its introduction
            if introduce:
                if not first:
                    shell.out("")
                shell.out(f"{name}:")
                first = False
            self._print(names, [node.child(child) for child in names] if self.long else [], shell)
        return ok

    def _print(self, names: Sequence[str], nodes: Sequence[Node | None], shell: Shell) -> None:
        if self.long:
            for name, node in zip(names, nodes, strict=True):
                if node is not None and node.is_directory():
                    shell.out(f"d {len(node.child_names()):>9}  {name}")
                else:
                    shell.out(f"- {len(node.text()) if node is not None else 0:>9}  {name}")
            return
        if not shell.interactive:
            for name in names:
                shell.out(name)
            return
        for line in columns(names, shell.width):
            shell.out(line)


def columns(names: Sequence[str], width: int) -> list[str]:
    """Column-major layout to the terminal width, as kafka-metadata-shell lays out `ls`.

    Each column is as wide as its own longest name + 2; the most columns that fit (at most
    width // 4, the last one non-empty) win.
    """
    if not names:
        return []

    def widths_of(per_column: int) -> list[int]:
        return [
            max(len(name) + 2 for name in names[start : start + per_column])
            for start in range(0, len(names), per_column)
        ]

    per_column = len(names)  # one column: every name on its own line
    for count in range(width // 4, 1, -1):
        candidate = -(-len(names) // count)
        widths = widths_of(candidate)
        if len(widths) == count and sum(widths) <= width:
            per_column = candidate
            break
    starts = range(0, len(names), per_column)
    widths = widths_of(per_column)
    lines = []
    for row in range(per_column):
        cells = [
            names[start + row].ljust(widths[column])
            for column, start in enumerate(starts)
            if start + row < len(names)
        ]
        lines.append("".join(cells).rstrip())
    return lines


@dataclass(frozen=True, slots=True, kw_only=True)
class CdCommand:
    """cd [dir]: change the working directory (default /)."""

    name: ClassVar[str] = "cd"
    target: str = "/"

    def run(self, shell: Shell) -> bool:
        matches = expand(shell.root, shell.cwd, self.target)
        if not matches:
            shell.err(f"cd: {self.target}: no such directory.")
            return False
        if len(matches) > 1:
            shell.err(f"cd: {self.target}: more than one directory matches.")
            return False
        path, node = matches[0]
        if not node.is_directory():
            shell.err(f"cd: {self.target}: not a directory.")
            return False
        shell.cwd = path
        return True


@dataclass(frozen=True, slots=True, kw_only=True)
class PwdCommand:
    """pwd: print the working directory."""

    name: ClassVar[str] = "pwd"

    def run(self, shell: Shell) -> bool:
        shell.out(display(shell.cwd))
        return True


@dataclass(frozen=True, slots=True, kw_only=True)
class CatCommand:
    """cat <glob>...: print the contents of files."""

    name: ClassVar[str] = "cat"
    targets: tuple[str, ...]

    def run(self, shell: Shell) -> bool:
        ok = True
        for target in self.targets:
            matches = expand(shell.root, shell.cwd, target)
            if not matches:
                shell.err(f"cat: {target}: No such file or directory.")
                ok = False
            for path, node in matches:
                if node.is_directory():
                    shell.err(f"cat: {target if len(matches) == 1 else display(path)}: Is a directory")
                    ok = False
                else:
                    shell.out(node.text())
        return ok


@dataclass(frozen=True, slots=True, kw_only=True)
class TreeCommand:
    """tree <glob>...: print a subtree, names and contents, recursively."""

    name: ClassVar[str] = "tree"
    targets: tuple[str, ...]

    def run(self, shell: Shell) -> bool:
        ok = True
        for target in self.targets:
            matches = expand(shell.root, shell.cwd, target)
            if not matches:
                shell.err(f"tree: {target}: No such file or directory.")
                ok = False
            for path, node in matches:
                _print_tree(path[-1] if path else "/", node, "", shell)
        return ok


def _print_tree(name: str, node: Node, indent: str, shell: Shell) -> None:
    shell.out(f"{indent}{name}:")
    if node.is_directory():
        for child_name in node.child_names():
            child = node.child(child_name)
            if child is not None:
                _print_tree(child_name, child, indent + "  ", shell)
    else:
        for line in node.text().splitlines() or [""]:
            shell.out(f"{indent}  {line}")


@dataclass(frozen=True, slots=True, kw_only=True)
class FindCommand:
    """find [path...]: print the given paths and everything below them."""

    name: ClassVar[str] = "find"
    targets: tuple[str, ...] = ()

    def run(self, shell: Shell) -> bool:
        ok = True
        for target in self.targets or (".",):
            matches = expand(shell.root, shell.cwd, target)
            if not matches:
                shell.err(f"find: {target}: no such file or directory.")
                ok = False
            for path, node in matches:
                _find(display(path) if target.startswith("/") or len(matches) > 1 else target, node, shell)
        return ok


def _find(shown: str, node: Node, shell: Shell) -> None:
    shell.out(shown)
    if node.is_directory():
        prefix = "" if shown == "/" else shown
        for name in node.child_names():
            child = node.child(name)
            if child is not None:
                _find(f"{prefix}/{name}", child, shell)


@dataclass(frozen=True, slots=True, kw_only=True)
class HistoryCommand:
    """history [n | path]: the last n command lines, or the records that shaped a node."""

    name: ClassVar[str] = "history"
    count: int | None = None
    path: str | None = None

    def run(self, shell: Shell) -> bool:
        if self.path is not None:
            if shell.record_history is None:
                shell.err("history: record history needs a metadata log (--directory or --snapshot)")
                return False
            target = normalize(shell.cwd, self.path)
            try:
                lines = list(shell.record_history(target))
            except LookupError as problem:
                shell.err(f"history: {self.path}: {problem.args[0]}")
                return False
            for line in lines:
                shell.out(line)
            return True
        entries = list(enumerate(shell.history, start=1))
        if self.count is not None:
            entries = entries[-self.count :] if self.count > 0 else []
        for number, line in entries:
            shell.out(f"{number:5d}  {line}")
        return True


@dataclass(frozen=True, slots=True, kw_only=True)
class HelpCommand:
    """help: list the commands."""

    name: ClassVar[str] = "help"

    def run(self, shell: Shell) -> bool:
        shell.out("Welcome to the kcli metadata shell.")
        shell.out("")
        for spec in COMMANDS.values():
            shell.out(f"  {spec.usage:<28}{spec.description}")
        return True


@dataclass(frozen=True, slots=True, kw_only=True)
class ManCommand:
    """man <command>: describe one command."""

    name: ClassVar[str] = "man"
    command: str

    def run(self, shell: Shell) -> bool:
        spec = COMMANDS.get(self.command)
        if spec is None:
            shell.err(f"man: unknown command {self.command}. Type help to get a list of commands.")
            return False
        shell.out(f"{spec.name}: {spec.description}")
        shell.out("")
        shell.out(f"usage: {spec.usage}")
        return True


@dataclass(frozen=True, slots=True, kw_only=True)
class ExitCommand:
    """exit: leave the shell."""

    name: ClassVar[str] = "exit"

    def run(self, shell: Shell) -> bool:
        shell.exit_requested = True
        return True


# -- registry and parsing ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class CommandSpec:
    """One command's name, help, whether it is shell-only, and how its arguments parse."""

    name: str
    usage: str
    description: str
    shell_only: bool
    parse: Callable[[list[str]], Command | ErroneousCommand]


def _ls(args: list[str]) -> Command | ErroneousCommand:
    long = False
    targets = []
    for arg in args:
        if arg == "-l":
            long = True
        elif arg.startswith("-") and len(arg) > 1:
            return ErroneousCommand(message=f"ls: unknown option {arg}")
        else:
            targets.append(arg)
    return LsCommand(targets=tuple(targets), long=long)


def _cd(args: list[str]) -> Command | ErroneousCommand:
    if len(args) > 1:
        return ErroneousCommand(message="cd: too many arguments")
    return CdCommand(target=args[0] if args else "/")


def _needs_targets(
    name: str, make: Callable[[tuple[str, ...]], Command]
) -> Callable[[list[str]], Command | ErroneousCommand]:
    def parse(args: list[str]) -> Command | ErroneousCommand:
        if not args:
            return ErroneousCommand(message=f"{name}: at least one path is required")
        return make(tuple(args))

    return parse


def _no_args(name: str, make: Callable[[], Command]) -> Callable[[list[str]], Command | ErroneousCommand]:
    def parse(args: list[str]) -> Command | ErroneousCommand:
        if args:
            return ErroneousCommand(message=f"{name}: takes no arguments")
        return make()

    return parse


def _history(args: list[str]) -> Command | ErroneousCommand:
    if not args:
        return HistoryCommand()
    if len(args) > 1:
        return ErroneousCommand(message="history: too many arguments")
    if args[0].isdigit():
        return HistoryCommand(count=int(args[0]))
    return HistoryCommand(path=args[0])


def _man(args: list[str]) -> Command | ErroneousCommand:
    if len(args) != 1:
        return ErroneousCommand(message="man: usage: man <command>")
    return ManCommand(command=args[0])


COMMANDS: dict[str, CommandSpec] = {
    spec.name: spec
    for spec in (
        CommandSpec(name="cat", usage="cat <path>...", description="Show the contents of files.", shell_only=False,
                    parse=_needs_targets("cat", lambda t: CatCommand(targets=t))),
        CommandSpec(name="cd", usage="cd [path]", description="Set the current working directory.", shell_only=True,
                    parse=_cd),
        CommandSpec(name="exit", usage="exit", description="Exit the metadata shell.", shell_only=True,
                    parse=_no_args("exit", ExitCommand)),
        CommandSpec(name="find", usage="find [path]...", description="Search for nodes in the directory hierarchy.",
                    shell_only=False, parse=lambda a: FindCommand(targets=tuple(a))),
        CommandSpec(name="help", usage="help", description="Display this help message.", shell_only=True,
                    parse=_no_args("help", HelpCommand)),
        CommandSpec(name="history", usage="history [n | path]",
                    description="Show command history, or the metadata records that shaped a node.",
                    shell_only=False, parse=_history),
        CommandSpec(name="ls", usage="ls [-l] [path]...", description="List metadata nodes.", shell_only=False,
                    parse=_ls),
        CommandSpec(name="man", usage="man <command>", description="Show the help text for a specific command.",
                    shell_only=True, parse=_man),
        CommandSpec(name="pwd", usage="pwd", description="Print the current working directory.", shell_only=True,
                    parse=_no_args("pwd", PwdCommand)),
        CommandSpec(name="tree", usage="tree <path>...", description="Show the contents of metadata nodes in a tree.",
                    shell_only=False, parse=_needs_targets("tree", lambda t: TreeCommand(targets=t))),
    )
}  # fmt: skip


def split_line(line: str) -> list[str]:
    """Words of a command line: quotes group, backslashes stay (they are glob escapes)."""
    lexer = shlex.shlex(line, posix=True, punctuation_chars=False)
    lexer.whitespace_split = True
    lexer.escape = ""
    lexer.commenters = ""
    return list(lexer)


def parse_words(words: Sequence[str], *, interactive: bool = True) -> Command | ErroneousCommand:
    """A command value from already split words."""
    if not words:
        return NoOpCommand()
    name, args = words[0], list(words[1:])
    spec = COMMANDS.get(name)
    if spec is None:
        candidates = [known for known in COMMANDS if known.startswith(name)]
        hint = f": did you mean '{candidates[0]}'?" if len(candidates) == 1 else ""
        return ErroneousCommand(
            message=f"invalid choice: '{name}'{hint} (type help for the list of commands)"
        )
    if spec.shell_only and not interactive:
        return ErroneousCommand(message=f"{name}: only available in the interactive shell")
    return spec.parse(args)


def parse_line(line: str, *, interactive: bool = True) -> Command | ErroneousCommand:
    """Parse one shell line; never raises."""
    try:
        words = split_line(line)
    except ValueError as problem:
        return ErroneousCommand(message=f"cannot parse line: {problem}")
    return parse_words(words, interactive=interactive)
