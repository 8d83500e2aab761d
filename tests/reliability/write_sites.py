"""Where kcli's source writes to the file system: every call that creates, writes, renames or cuts
a file or directory, found in the syntax tree (imports inside functions included).

tests/reliability/test_writes.py holds that every one is inside kcli/writes.py, the one module
every file write goes through.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

_WRITE_MODE_LETTERS = set("wax+")
_OS_WRITES = {
    "replace", "rename", "renames", "link", "symlink", "truncate", "ftruncate", "mkfifo", "mknod",
    "makedirs", "mkdir", "write", "pwrite", "writev", "sendfile", "copy_file_range", "utime",
}  # fmt: skip
_WRITE_FLAGS = {"O_WRONLY", "O_RDWR", "O_CREAT", "O_TRUNC", "O_APPEND", "O_EXCL", "O_TMPFILE"}
_PATH_WRITES = {
    "write_text",
    "write_bytes",
    "touch",
    "mkdir",
    "symlink_to",
    "hardlink_to",
    "rename",
    "extract",
    "extractall",
}
_SHUTIL_WRITES = {"copy", "copy2", "copyfile", "copyfileobj", "copytree", "move", "copymode", "copystat"}
_TEMPFILE_WRITES = {
    "mkstemp",
    "mkdtemp",
    "NamedTemporaryFile",
    "TemporaryFile",
    "TemporaryDirectory",
    "SpooledTemporaryFile",
}


@dataclass(frozen=True, slots=True)
class WriteSite:
    path: str  # relative to the repository
    line: int
    call: str  # what is called, e.g. "open(..., 'w')", "os.replace"

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.call}"


def write_sites(source: str, path: str = "<source>") -> Iterator[WriteSite]:
    """Every file-system write call in `source`."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call):
            call = _write_call(node)
            if call is not None:
                yield WriteSite(path, node.lineno, call)


def _write_call(node: ast.Call) -> str | None:
    func = node.func
    if isinstance(func, ast.Name) and func.id == "open" and _mode_writes(node, 1):
        return "open(..., write mode)"
    if not isinstance(func, ast.Attribute):
        return None
    owner = func.value.id if isinstance(func.value, ast.Name) else None
    name = func.attr
    if owner == "os":
        if name == "open" and _flags_write(node):
            return "os.open(..., write flags)"
        if name == "fdopen" and _mode_writes(node, 1):
            return "os.fdopen(..., write mode)"
        if name in _OS_WRITES:
            return f"os.{name}"
        return None
    if owner == "shutil" and name in _SHUTIL_WRITES:
        return f"shutil.{name}"
    if owner == "tempfile" and name in _TEMPFILE_WRITES:
        return f"tempfile.{name}"
    if name == "open" and _mode_writes(node, 0, computed=False):
        return ".open(write mode)"  # Path.open("w"); other objects' open(x) (a connection) pass
    if name in _PATH_WRITES:
        return f".{name}()"
    if name == "replace" and len(node.args) == 1 and not node.keywords and not _is_text(func.value):
        return ".replace(target)"  # Path.replace; str.replace takes two arguments
    return None


def _mode_writes(node: ast.Call, position: int, *, computed: bool = True) -> bool:
    mode: ast.expr | None = node.args[position] if len(node.args) > position else None
    mode = next((k.value for k in node.keywords if k.arg == "mode"), mode)
    if mode is None:
        return False
    if isinstance(mode, ast.Constant) and isinstance(mode.value, str):
        return bool(_WRITE_MODE_LETTERS & set(mode.value))
    return computed  # a mode computed at run time may write


def _flags_write(node: ast.Call) -> bool:
    flags = (
        node.args[1]
        if len(node.args) > 1
        else next((k.value for k in node.keywords if k.arg == "flags"), None)
    )
    if flags is None:
        return False
    names = {n.attr for n in ast.walk(flags) if isinstance(n, ast.Attribute)}
    names |= {n.id for n in ast.walk(flags) if isinstance(n, ast.Name)}
    return bool(names & _WRITE_FLAGS) or not names <= {
        "O_RDONLY",
        "O_NONBLOCK",
        "O_NOCTTY",
        "O_CLOEXEC",
        "os",
        "getattr",
        "flags",
    }


def _is_text(node: ast.expr) -> bool:
    return (isinstance(node, ast.Constant) and isinstance(node.value, str)) or isinstance(node, ast.JoinedStr)


@functools.cache
def kcli_write_sites(repo: Path) -> list[WriteSite]:
    """Every write call in kcli/ (generated code included); walked once per test session."""
    sites: list[WriteSite] = []
    for file in sorted((repo / "kcli").rglob("*.py")):
        relative = file.relative_to(repo).as_posix()
        sites.extend(write_sites(file.read_text(encoding="utf-8"), relative))
    return sites
