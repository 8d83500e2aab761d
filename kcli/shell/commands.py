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

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import ClassVar, Protocol

from kcli.integers import java_long
from kcli.metadata.tree import Node, Unavailable
from kcli.shell.glob import Path, display, expand, normalize
from kcli.shell.listing import LONG_HEADING, effective_paths, long_lines, long_lines_of, print_targets

HistorySource = Callable[[Path], Iterable[str]]
# What a command shows: (path glob, levels below it; None for all), for kcli.metadata.projection.
Reads = tuple[tuple[str, int | None], ...]


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

    def reads(self) -> Reads: ...


class ReadsNothing:
    """A command that needs no record of the image (`reads` is empty)."""

    __slots__ = ()

    def reads(self) -> Reads:
        return ()


@dataclass(frozen=True, slots=True, kw_only=True)
class ErroneousCommand(ReadsNothing):
    """A line that did not parse; running it prints why."""

    name: ClassVar[str] = "<error>"
    message: str

    def run(self, shell: Shell) -> bool:
        shell.err(self.message)
        return False


@dataclass(frozen=True, slots=True, kw_only=True)
class NoOpCommand(ReadsNothing):
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

    def reads(self) -> Reads:
        return tuple((target, 2 if self.long else 1) for target in self.targets or (".",))

    def run(self, shell: Shell) -> bool:
        ok = True
        files: list[tuple[str, Node]] = []
        directories: list[tuple[str, list[str], Node]] = []
        for target in effective_paths(self.targets):
            try:
                matches = expand(shell.root, shell.cwd, target)
                if not matches:
                    shell.err(f"ls: {target}: no such file or directory.")
                    ok = False
                for path, node in matches:
                    # Each block is headed by the last path component, as kafka-metadata-shell's ls does.
                    name = path[-1] if path else "/"
                    if node.is_directory():
                        directories.append((name, node.child_names(), node))
                    else:
                        files.append((name, node))
            except Unavailable as reason:
                shell.err(f"ls: {target}: {reason}")
                ok = False
        width = shell.width if shell.interactive else None
        if self.long:
            blocks = [(name, long_lines(node, children)) for name, children, node in directories]
            lines = print_targets(None, long_lines_of(files), blocks, heading=LONG_HEADING)
        else:
            names = [name for name, _node in files]
            lines = print_targets(width, names, [(name, children) for name, children, _node in directories])
        for line in lines:
            shell.out(line)
        return ok


@dataclass(frozen=True, slots=True, kw_only=True)
class CdCommand:
    """cd [dir]: change the working directory (default /)."""

    name: ClassVar[str] = "cd"
    target: str = "/"

    def reads(self) -> Reads:
        return ((self.target, 0),)

    def run(self, shell: Shell) -> bool:
        try:
            matches = expand(shell.root, shell.cwd, self.target)
        except Unavailable as reason:
            shell.err(f"cd: {self.target}: {reason}")
            return False
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
class PwdCommand(ReadsNothing):
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

    def reads(self) -> Reads:
        return tuple((target, 0) for target in self.targets)

    def run(self, shell: Shell) -> bool:
        ok = True
        for target in self.targets:
            try:
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
            except Unavailable as reason:
                shell.err(f"cat: {target}: {reason}")
                ok = False
        return ok


@dataclass(frozen=True, slots=True, kw_only=True)
class TreeCommand:
    """tree <glob>...: print a subtree, names and contents, recursively."""

    name: ClassVar[str] = "tree"
    targets: tuple[str, ...]

    def reads(self) -> Reads:
        return tuple((target, None) for target in self.targets)

    def run(self, shell: Shell) -> bool:
        ok = True
        for target in self.targets:
            try:
                matches = expand(shell.root, shell.cwd, target)
            except Unavailable as reason:
                shell.err(f"tree: {target}: {reason}")
                ok = False
                continue
            if not matches:
                shell.err(f"tree: {target}: No such file or directory.")
                ok = False
            for path, node in matches:
                ok &= _print_tree(node, "", shell, display(path))
        return ok


def _print_tree(node: Node, indent: str, shell: Shell, path: str) -> bool:
    """Print a subtree as Kafka's MetadataNode.print does: a file's text, a directory's children
    (each `name:` and its own subtree indented below it), not the node's own name. False when part
    of it could not be shown (it says why on stderr)."""
    try:
        if not node.is_directory():
            for line in node.text().splitlines() or [""]:
                shell.out(f"{indent}{line}")
            return True
        names = node.child_names()
    except Unavailable as reason:
        shell.err(f"tree: {path}: {reason}")
        return False
    ok = True
    for child_name in names:
        child = node.child(child_name)
        if child is not None:
            shell.out(f"{indent}{child_name}:")
            ok &= _print_tree(child, indent + "  ", shell, f"{path.rstrip('/')}/{child_name}")
    return ok


@dataclass(frozen=True, slots=True, kw_only=True)
class FindCommand:
    """find [path...]: print the given paths and everything below them."""

    name: ClassVar[str] = "find"
    targets: tuple[str, ...] = ()

    def reads(self) -> Reads:
        return tuple((target, None) for target in effective_paths(self.targets))

    def run(self, shell: Shell) -> bool:
        ok = True
        for target in effective_paths(self.targets):
            try:
                matches = expand(shell.root, shell.cwd, target)
            except Unavailable as reason:
                shell.err(f"find: {target}: {reason}")
                ok = False
                continue
            if not matches:
                shell.err(f"find: {target}: no such file or directory.")
                ok = False
            for path, node in matches:
                ok &= _find(
                    display(path) if target.startswith("/") or len(matches) > 1 else target, node, shell
                )
        return ok


def _find(shown: str, node: Node, shell: Shell) -> bool:
    """Print a path and every path below it; False when part of it could not be shown."""
    shell.out(shown)
    try:
        names = node.child_names() if node.is_directory() else []
    except Unavailable as reason:
        shell.err(f"find: {shown}: {reason}")
        return False
    ok = True
    prefix = "" if shown == "/" else shown
    for name in names:
        child = node.child(name)
        if child is not None:
            ok &= _find(f"{prefix}/{name}", child, shell)
    return ok


@dataclass(frozen=True, slots=True, kw_only=True)
class HistoryCommand:
    """history [n | path]: the last n command lines, or the records that shaped a node."""

    name: ClassVar[str] = "history"
    count: int | None = None
    path: str | None = None

    def reads(self) -> Reads:
        return ()  # command lines, or records read from the log itself

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
class HelpCommand(ReadsNothing):
    """help: list the commands."""

    name: ClassVar[str] = "help"

    def run(self, shell: Shell) -> bool:
        shell.out("Welcome to the kcli metadata shell.")
        shell.out("")
        for spec in COMMANDS.values():
            shell.out(f"  {spec.usage:<28}{spec.description}")
        return True


@dataclass(frozen=True, slots=True, kw_only=True)
class ManCommand(ReadsNothing):
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
class ExitCommand(ReadsNothing):
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
    count = java_long(args[0]) if args[0].isdigit() else None
    if count is not None:
        return HistoryCommand(count=count)
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


_WORD = re.compile(r"""(?:[^ \t\r\n'"]++|'[^']*+'|"[^"]*+")++""")  # possessive: no backtracking
_BLANKS = re.compile(r"[ \t\r\n]+")
_QUOTED = re.compile("'([^']*)'|\"([^\"]*)\"")


def _unquoted(quoted: re.Match[str]) -> str:
    return quoted.group(1) if quoted.group(1) is not None else quoted.group(2)


def split_line(line: str) -> list[str]:
    """Words of a command line: quotes group, backslashes stay (they are glob escapes).

    The words of Python's shlex (posix, whitespace_split, no escape character, no comments), found
    in linear time: shlex builds each word a character at a time, minutes for a 2 MB line.
    """
    if "'" not in line and '"' not in line:
        return [word for word in _BLANKS.split(line) if word]
    unquoted = _QUOTED.sub("", line)  # quotes pair left to right, as the lexer reads them
    if "'" in unquoted or '"' in unquoted:
        raise ValueError("No closing quotation")
    return [_word(piece) for piece in _WORD.findall(line)]


def _word(piece: str) -> str:
    quote = piece[0]
    if quote in "'\"" and piece.count(quote) == 2 and piece[-1] == quote:  # one quoted string
        return piece[1:-1]
    return _QUOTED.sub(_unquoted, piece) if "'" in piece or '"' in piece else piece


def parse_words(words: Sequence[str], *, interactive: bool = True) -> Command | ErroneousCommand:
    """A command value from already split words (Commands.parseCommand): trailing empty words
    dropped; a unique prefix of a command name is refused with a did-you-mean, as argparse4j
    resolves it; an unknown name lists the choices. One-shot use (`interactive` False) offers the
    commands that work there (history included: with a path it reads the log)."""
    words = list(words)
    while words and not words[-1]:
        words.pop()
    if not words:
        return NoOpCommand()
    name, args = words[0], words[1:]
    choices = [known for known, spec in COMMANDS.items() if interactive or not spec.shell_only]
    spec = COMMANDS.get(name) if name in choices else None
    if spec is None:
        candidates = [known for known in choices if name and known.startswith(name)]
        if len(candidates) == 1:
            return ErroneousCommand(message=f"invalid choice: '{name}': did you mean '{candidates[0]}'?")
        if len(candidates) > 1:
            return ErroneousCommand(message=f"ambiguous command: {name} could match {', '.join(candidates)}")
        listed = ", ".join(f"'{known}'" for known in choices)
        message = f"invalid choice: '{name}' (choose from {listed})"
        if name in COMMANDS:
            message += f": {name} is only available in the interactive shell"
        return ErroneousCommand(message=message)
    return spec.parse(args)


def parse_line(line: str, *, interactive: bool = True) -> Command | ErroneousCommand:
    """Parse one shell line; never raises."""
    try:
        words = split_line(line)
    except ValueError as problem:
        return ErroneousCommand(message=f"cannot parse line: {problem}")
    return parse_words(words, interactive=interactive)
