"""Every command's error paths, walked: no fault in a file, a directory or the output is ever a bug.

Each leaf command is run from its own help examples (kcli.cli.examples, the lines an operator copies),
its addresses pointed at a port nobody listens on, under each fault kind the reliability issue
found by hand, wherever the command takes a path:
- every file or directory option (and the config file, KCLI_CONFIG) given as a FIFO nobody writes
  to, a symlink loop, a dangling link, /dev/zero, a directory (or, for a directory option, a
  regular file), a path under a regular file, deeply nested JSON, deeply nested TOML, and binary;
- standard output on /dev/full (a real process: the interpreter's flush at exit is part of it);
- the working directory, home and config file on a full disk (tests/reliability/full_disk.py).

Any "this is a bug in kcli" line, any exception that escapes, any case slower than its deadline
(never a hang) and any file written outside the case's own directory fails the walk, naming each
case that did, so one run shows them all. What each fault should say is the business of the tests
beside this one; this one holds the class: a fault is always an answer, never a bug.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import KRAFT_FIXTURES, invoke
from tests.reliability.full_disk import run_on_full_disk

BUG = "this is a bug in kcli"
NOBODY = "127.0.0.1:1"  # refused at once: the walk is about files, not networks
CASE_DEADLINE_S = 15.0  # far above what any case takes; past it the case counts as a hang
# Options whose value is a local path but whose type is a plain string (a path or "-", a path
# Spark reads, a file handed to the node) are walked as the path options are.
PATH_STRINGS = frozenset(
    {"--export", "--import", "--from-file", "--metadata-dir", "--out", "--server-config"}
)
DIRECTORY_OPTIONS = frozenset({"--dir", "--kafka-home", "--directory", "--metadata-dir", "--out", "--input"})
# Bounded waits, so a case that must wait out a deadline (a FIFO nobody writes to, a refused
# address) waits a tenth of a second rather than the default 30 s.
QUICK = {"KCLI_DEFAULT_API_TIMEOUT_MS": "100", "KCLI_INPUT_TIMEOUT_MS": "100"}
DEEP = 100_000
KRAFT_LOG_DIR = KRAFT_FIXTURES / "galgrayzer-kafka-docker-compose" / "kafka_data" / "data"


@dataclass(frozen=True, slots=True)
class Leaf:
    path: str  # "consumer-groups", "sandbox up"
    lines: tuple[tuple[str, ...], ...]  # its example lines, as argv after "kcli"
    path_options: tuple[tuple[str, ...], ...]  # each path option's spellings ("-c", "--command-config")


def _command_tree() -> Any:
    from kcli.cli.docgen import root_command

    return root_command()


def _leaves() -> list[Leaf]:
    from kcli.cli.docgen import walk
    from kcli.cli.examples import EXAMPLES

    leaves = []
    for doc in walk(_command_tree()):
        command, words = doc.command, doc.path[1:]
        if getattr(command, "commands", None) is not None:
            continue  # a group: its leaves are walked
        path = " ".join(words)
        lines = tuple(
            _quick(path, shlex.split(line[len("$ kcli ") :]))
            for line in EXAMPLES.get(path, "").splitlines()
            if line.startswith(f"$ kcli {path} ") or line == f"$ kcli {path}"
        )
        options = tuple(
            tuple(parameter.opts)
            for parameter in command.params
            if parameter.param_type_name == "option"
            and not parameter.is_flag
            and (type(parameter.type).__name__ == "TyperPath" or PATH_STRINGS.intersection(parameter.opts))
        )
        leaves.append(Leaf(path, lines or (tuple(words),), options))
    return leaves


def _quick(path: str, argv: list[str]) -> tuple[str, ...]:
    """An example line made quick: no fixed port, short waits (addresses are set per target)."""
    argv = ["0" if before == "--base-port" else word for before, word in zip(["", *argv], argv, strict=False)]
    if path.endswith("-groups") and "--timeout" not in argv:
        argv += ["--timeout", "100"]  # the group tools wait --timeout (30 s) for a coordinator
    return tuple(argv)


LEAVES = _leaves()


@dataclass(frozen=True, slots=True)
class Target:
    """Where the example lines' addresses point: nowhere, or a running sandbox of the walk's own."""

    brokers: str
    controllers: str

    def addressed(self, argv: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(
            self.controllers if word.startswith("127.0.0.1:9095")
            else self.brokers if word.startswith("127.0.0.1:")
            else word
            for word in argv
        )  # fmt: skip


@pytest.fixture(scope="module", params=["no cluster", "a cluster"])
def target(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Target]:
    """Without a cluster the walk reaches what a command reads before it connects; with one (a
    sandbox of this module alone, which the examples may change as they like), what it reads after."""
    if request.param == "no cluster":
        yield Target(NOBODY, NOBODY)
        return
    from kcli.sandbox.emulator.handle import Sandbox

    with Sandbox(directory=tmp_path_factory.mktemp("walked"), controllers=1, brokers=3, topics=3) as sandbox:
        yield Target(sandbox.bootstrap_servers, sandbox.bootstrap_controllers)


def _stage(cwd: Path) -> None:
    """The files the example lines name, so that a line fails on the fault and not on them."""
    topic = '{"topic": "sandbox-topic-00000", "partition": 0'
    for name, text in {
        "client.properties": "client.id=fault-walk\n",
        "controller-104.properties": "node.id=104\nprocess.roles=controller\n",
        "topics.json": '{"version": 1, "topics": [{"topic": "sandbox-topic-00000"}]}',
        "plan.json": '{"version": 1, "partitions": [' + topic + ', "replicas": [3, 1, 2]}]}',
        "offsets.json": '{"version": 1, "partitions": [' + topic + ', "offset": 0}]}',
    }.items():
        (cwd / name).write_text(text)
    (cwd / ".kcli-sandbox").mkdir()
    (cwd / ".kcli-sandbox" / "101").symlink_to(KRAFT_LOG_DIR)


def _faults(base: Path, directory_option: bool) -> Iterator[tuple[str, Path]]:
    """(kind, path) for each fault, made under `base`."""
    base.mkdir(parents=True, exist_ok=True)
    regular = base / "regular.txt"
    regular.write_text("a=1\n")
    os.mkfifo(base / "fifo")
    yield "fifo", base / "fifo"
    (base / "loop").symlink_to(base / "loop")
    yield "symlink-loop", base / "loop"
    (base / "dangling").symlink_to(base / "missing" / "target")
    yield "dangling-link", base / "dangling"
    yield "dev-zero", Path("/dev/zero")
    if directory_option:
        yield "regular-file", regular
    else:
        (base / "a-directory").mkdir()
        yield "directory", base / "a-directory"
    yield "under-a-file", regular / "inside"
    (base / "deep.json").write_text("[" * DEEP + "]" * DEEP)
    yield "deep-json", base / "deep.json"
    (base / "deep.toml").write_text("a = " + "[" * DEEP + "]" * DEEP + "\n")
    yield "deep-toml", base / "deep.toml"
    (base / "binary").write_bytes(bytes(range(256)) * 64 + b"\xff\xfe\x00" * 1000)
    yield "binary", base / "binary"


def _with_value(argv: tuple[str, ...], spellings: tuple[str, ...], value: str) -> list[str]:
    """`argv` with the option's value replaced by `value`, or the option added when it is absent."""
    if F in argv:
        return [value if word == F else word for word in argv]
    out = list(argv)
    for index, word in enumerate(out):
        if word in spellings and index + 1 < len(out):
            out[index + 1] = value
            return out
        for spelling in spellings:
            if spelling.startswith("--") and word.startswith(spelling + "="):
                out[index] = f"{spelling}={value}"
                return out
    return [*out, spellings[-1], value]


B, F = "127.0.0.1:9092", "{fault}"  # the brokers' address (set per target), the fault's place
_RESET = ("--reset-offsets", "--group", "walk")
# Lines for the path options no example line holds in a form that reaches the file: the example
# gives another action, or the option only counts beside others.
OPTION_LINES: dict[tuple[str, str], tuple[str, ...]] = {
    ("acls", "--export"): ("acls", "-b", B, "--export", F),
    ("acls", "--import"): ("acls", "-b", B, "--import", F),
    ("configs", "--add-config-file"):
        ("configs", "-b", B, "--alter", "--topic", "sandbox-topic-00000", "--add-config-file", F),
    ("consumer-groups", "--from-file"):
        ("consumer-groups", "-b", B, *_RESET, "--from-file", F, "--dry-run"),
    ("consumer-groups", "--rollback-file"):
        ("consumer-groups", "-b", B, *_RESET, "--all-topics", "--to-earliest", "--execute", "--rollback-file", F),
    ("share-groups", "--from-file"):
        ("share-groups", "-b", B, *_RESET, "--from-file", F, "--dry-run"),
    ("share-groups", "--rollback-file"):
        ("share-groups", "-b", B, *_RESET, "--all-topics", "--to-earliest", "--execute", "--rollback-file", F),
    ("streams-groups", "--from-file"):
        ("streams-groups", "-b", B, *_RESET, "--from-file", F, "--dry-run"),
    ("streams-groups", "--rollback-file"):
        ("streams-groups", "-b", B, *_RESET, "--all-input-topics", "--to-earliest", "--execute",
         "--rollback-file", F),
    ("leader-election", "--path-to-json-file"):
        ("leader-election", "-b", B, "--election-type", "preferred", "--path-to-json-file", F),
    ("metadata-shell", "--snapshot"): ("metadata-shell", "--snapshot", F, "ls", "/"),
    ("reassign-partitions", "--rollback-file"):
        ("reassign-partitions", "-b", B, "--execute", "--reassignment-json-file", "plan.json", "--rollback-file", F),
}  # fmt: skip


def _line_for(leaf: Leaf, spellings: tuple[str, ...]) -> tuple[str, ...]:
    """The option's own line, else the first example line that gives it, else the first line."""
    for spelling in spellings:
        if (own := OPTION_LINES.get((leaf.path, spelling))) is not None:
            return _quick(leaf.path, list(own))
    return next((line for line in leaf.lines if set(line) & set(spellings)), leaf.lines[0])


def _environ(case: Path) -> dict[str, str | None]:
    home = case / "home"
    home.mkdir(parents=True, exist_ok=True)
    return {
        **QUICK,
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "XDG_DATA_HOME": str(home / ".local" / "share"),
        "KCLI_CONFIG": str(case / "kcli.toml"),
        "KCLI_DEBUG": None,
    }


class Walk:
    """Runs the cases of one test in-process and collects what went wrong in each."""

    def __init__(self) -> None:
        self.command = _command_tree()
        self.problems: list[str] = []

    def run(self, name: str, argv: list[str], environ: dict[str, str | None]) -> None:
        before = _outside_files()
        started = time.monotonic()
        try:
            result = invoke(*argv, environ=environ, command=self.command)
        except BaseException as error:  # every escape is a finding, whatever its kind
            self.problems.append(
                f"{name}: {type(error).__name__} escaped: {error}  [kcli {shlex.join(argv)}]"
            )
            return
        finally:
            self._stop_any_sandbox(argv)
        took = time.monotonic() - started
        if BUG in result.stderr or BUG in result.stdout:
            self.problems.append(f"{name}: {result.stderr.strip()}  [kcli {shlex.join(argv)}]")
        if took > CASE_DEADLINE_S:
            self.problems.append(f"{name}: took {took:.1f} s  [kcli {shlex.join(argv)}]")
        if written := _outside_files() - before:
            self.problems.append(f"{name}: wrote outside its directory: {sorted(written)}")

    def _stop_any_sandbox(self, argv: list[str]) -> None:
        """A fault that still named a usable directory may have started a sandbox: stop it."""
        if argv[:2] == ["sandbox", "up"] and "--dir" in argv:
            directory = Path(argv[argv.index("--dir") + 1])
            if (directory / "sandbox.json").is_file():
                invoke("sandbox", "down", "--dir", str(directory), command=self.command)

    def check(self) -> None:
        assert not self.problems, f"{len(self.problems)} case(s) failed:\n" + "\n".join(self.problems)


REAL_HOME = Path.home()


def _outside_files() -> frozenset[str]:
    """What the places a stray write would land hold: /, /dev and the real home (other tests share /tmp)."""
    watched = [Path("/"), Path("/dev"), REAL_HOME]
    return frozenset(str(entry) for folder in watched if folder.is_dir() for entry in folder.iterdir())


def _option_cases() -> Iterator[Any]:
    for leaf in LEAVES:
        for spellings in leaf.path_options:
            yield pytest.param(leaf, spellings, id=f"{leaf.path} {max(spellings, key=len)}")


@pytest.mark.parametrize(("leaf", "spellings"), list(_option_cases()))
def test_a_fault_in_a_path_option_is_never_a_bug(
    leaf: Leaf, spellings: tuple[str, ...], target: Target, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    _stage(tmp_path)
    walk = Walk()
    directory_option = bool(DIRECTORY_OPTIONS.intersection(spellings))
    line = target.addressed(_line_for(leaf, spellings))
    for kind, fault in _faults(tmp_path / "faults", directory_option):
        case = tmp_path / kind
        argv = _with_value(line, spellings, str(fault))
        walk.run(kind, argv, _environ(case))
    walk.check()


@pytest.mark.parametrize("leaf", LEAVES, ids=[leaf.path for leaf in LEAVES])
def test_a_fault_in_the_config_file_is_never_a_bug(
    leaf: Leaf, target: Target, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    _stage(tmp_path)
    walk = Walk()
    for kind, fault in _faults(tmp_path / "faults", directory_option=False):
        environ = _environ(tmp_path / kind) | {"KCLI_CONFIG": str(fault)}
        walk.run(kind, list(target.addressed(leaf.lines[0])), environ)
    walk.check()


def _process(argv: tuple[str, ...], case: Path, **streams: Any) -> subprocess.CompletedProcess[bytes]:
    environ = {**os.environ, "NO_COLOR": "1"}
    environ.pop("KCLI_DEBUG", None)
    environ |= {key: value for key, value in _environ(case).items() if value is not None}
    return subprocess.run(
        [sys.executable, "-m", "kcli", *argv], cwd=case, env=environ, timeout=60, check=False,
        stdin=subprocess.DEVNULL, stderr=subprocess.PIPE, **streams,
    )  # fmt: skip


@pytest.mark.parametrize("target", ["a cluster"], indirect=True)  # without one, little reaches stdout
def test_standard_output_on_dev_full_is_never_a_bug(target: Target, tmp_path: Path) -> None:
    problems = []
    for index, leaf in enumerate(LEAVES):
        case = tmp_path / str(index)
        case.mkdir()
        _stage(case)
        for argv in map(target.addressed, leaf.lines):
            with open("/dev/full", "wb") as full:
                done = _process(argv, case, stdout=full.fileno())
            stderr = done.stderr.decode(errors="replace")
            if BUG in stderr or "Traceback" in stderr:
                problems.append(f"{leaf.path}: {stderr.strip()}  [kcli {shlex.join(argv)}]")
            if argv[:2] == ("sandbox", "up"):
                _process(("sandbox", "down", "--dir", argv[argv.index("--dir") + 1]), case,
                         stdout=subprocess.DEVNULL)  # fmt: skip
    assert not problems, "\n".join(problems)


# The commands that write files of their own without a cluster: the config file, a shell's rc file.
# On a full disk each must say so in one line. (A sandbox on a full disk: tests/reliability/test_writes.py.)
WRITERS = (
    ("profile", "add", "sandbox", "-b", NOBODY, "--use"),
    ("profile", "use", "sandbox"),
    ("completion", "install", "bash"),
)


@pytest.mark.parametrize("argv", WRITERS, ids=[" ".join(argv[:2]) for argv in WRITERS])
def test_a_full_disk_is_never_a_bug(argv: tuple[str, ...], tmp_path: Path) -> None:
    config = '[profiles.sandbox]\n"bootstrap.servers" = "127.0.0.1:1"\n'
    run = run_on_full_disk(
        tmp_path, list(argv), stage={"kcli.toml": config, "home/.bashrc": "# rc\n"}, free_bytes=2048,
        environ={**QUICK, "KCLI_CONFIG": "kcli.toml", "HOME": "home"},
    )  # fmt: skip
    assert BUG not in run.stderr and "Traceback" not in run.stderr, run.stderr
    assert run.code != 0, f"kcli {shlex.join(argv)} claimed success on a full disk: {run.stdout}{run.stderr}"
    assert run.stderr.strip().count("\n") <= 1, run.stderr


def test_the_walk_covers_every_command_and_its_own_lines_name_real_options() -> None:
    """The walk is only as good as its reach: each leaf is walked, each line of its own is used."""
    from kcli.cli.docgen import walk

    leaves = {
        " ".join(doc.path[1:])
        for doc in walk(_command_tree())
        if getattr(doc.command, "commands", None) is None
    }
    assert {leaf.path for leaf in LEAVES} == leaves and len(leaves) > 50
    options = {
        (leaf.path, spelling) for leaf in LEAVES for spellings in leaf.path_options for spelling in spellings
    }
    assert set(OPTION_LINES) <= options, set(OPTION_LINES) - options
