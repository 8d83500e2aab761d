"""Every command's --help ends in an example recorded from a real run, and --help stays light."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from kcli.cli.examples import EXAMPLES, attach_examples, epilog_of
from tests.conftest import invoke

REPO = Path(__file__).resolve().parents[2]
HEAVY = ("kio.schema", "pyspark", "prompt_toolkit", "rich.table")


def _command_paths() -> list[tuple[tuple[str, ...], bool]]:
    """(path below kcli, is_leaf) of every visible command and group."""
    import typer

    from kcli.cli.docgen import walk
    from kcli.cli.main import app

    docs = walk(typer.main.get_command(app))
    return [(doc.path[1:], not getattr(doc.command, "commands", None)) for doc in docs]


COMMANDS = _command_paths()
LEAVES = [path for path, leaf in COMMANDS if leaf]


def _flat(text: str) -> str:
    # rich wraps long lines (folding words with no spaces) and expands tabs: compare without whitespace
    return "".join(text.split())


def test_every_leaf_command_has_an_example() -> None:
    missing = [" ".join(path) for path in LEAVES if " ".join(path) not in EXAMPLES]
    assert missing == []


def test_every_example_names_a_real_command() -> None:
    known = {" ".join(path) for path, _ in COMMANDS}
    assert sorted(set(EXAMPLES) - known) == []


@pytest.mark.parametrize("path", [path for path, _ in COMMANDS], ids=lambda p: " ".join(p) or "kcli")
def test_help_shows_the_example(path: tuple[str, ...]) -> None:
    result = invoke(*path, "--help")
    assert result.code == 0, result.stderr
    assert result.stderr == ""
    block = EXAMPLES[" ".join(path)]
    shown = _flat(result.stdout)
    assert "Examples" in result.stdout
    for line in block.splitlines():
        assert _flat(line) in shown, f"{line!r} missing from `kcli {' '.join(path)} --help`"
    assert "\x1b[" not in result.stdout  # NO_COLOR and no terminal: plain help


@pytest.mark.parametrize("path", LEAVES, ids=" ".join)
def test_each_example_runs_the_command_it_documents(path: tuple[str, ...]) -> None:
    commands = [line for line in EXAMPLES[" ".join(path)].splitlines() if line.startswith("$ ")]
    assert commands, "an example shows at least one command"
    assert any(line.split()[2 : 2 + len(path)] == list(path) for line in commands)


def test_examples_keep_brackets_and_backslashes_literal() -> None:
    import typer

    app = typer.Typer()
    app.callback()(lambda: None)  # a group, so the demo command is a command of it

    @app.command("demo")
    def demo() -> None:
        """Demo."""

    block = '$ kcli demo\n{"replicas": [1, 2], "style": "[bold]x[/bold]", "path": "C:\\\\[dir]"}\n'
    group = typer.main.get_command(app)
    attach_examples(group, (), {"demo": block})
    assert group.commands["demo"].epilog == epilog_of(block, rich=True)  # type: ignore[attr-defined]
    out = invoke("demo", "--help", command=group).stdout
    assert '{"replicas": [1, 2], "style": "[bold]x[/bold]", "path": "C:\\\\[dir]"}' in out


PLAIN_PROBE = """
import contextlib, io, json, sys
sys.modules["hypothesis"] = None
import kcli.cli.main as main
helps = {}
for argv in json.loads(sys.argv[1]):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main.main([*argv, "--help"])
    helps[" ".join(argv)] = [code, out.getvalue()]
print(json.dumps(helps))
"""


def test_plain_help_off_a_terminal_shows_examples_verbatim() -> None:
    # kcli's entry point sets TYPER_USE_RICH=0 off a terminal: click's formatter, which would
    # rewrap the example unless each paragraph is marked as preformatted
    done = subprocess.run(
        [sys.executable, "-c", PLAIN_PROBE, json.dumps([list(path) for path, _ in COMMANDS])],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
        cwd=REPO,
        env={"PATH": "/usr/bin:/bin", "TYPER_USE_RICH": "0", "COLUMNS": "80", "PYTHONDONTWRITEBYTECODE": "1"},
    )
    helps = json.loads(done.stdout)
    for path, (code, text) in helps.items():
        assert code == 0, path
        shown = [" ".join(line.split()) for line in text.splitlines()]  # tabs come out expanded
        assert "Examples:" in shown, path
        assert "[bold]" not in text and "\\[" not in text and "\b" not in text, path
        for line in EXAMPLES[path].splitlines():
            assert " ".join(line.split()) in shown, f"{line!r} not shown as is in plain `kcli {path} --help`"


def test_recorded_commands_match_the_refresh_script() -> None:
    done = subprocess.run(
        [sys.executable, str(REPO / "scripts" / "refresh-examples.py"), "--check"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr


PROBE = """
import json, sys
sys.modules["hypothesis"] = None
import kcli.cli.main as main
after_import = sorted(sys.modules)
codes = {}
for argv in json.loads(sys.argv[1]):
    codes[" ".join(argv)] = main.main(argv)
print(json.dumps({"after_import": after_import, "codes": codes}))
"""


def _importtime_roots(stderr: str) -> dict[str, set[str]]:
    """Module -> the top-level imports it was loaded under (from -X importtime's tree)."""
    rows: list[tuple[int, str]] = []
    for line in stderr.splitlines():
        if not line.startswith("import time:") or line.rstrip().endswith("imported package"):
            continue
        name_part = line.rsplit("|", 1)[-1]
        stripped = name_part.lstrip(" ")
        depth = (len(name_part) - len(stripped) - 1) // 2
        rows.append((depth, stripped.strip()))
    roots: dict[str, set[str]] = {}
    # children are printed before their parent: the next depth-0 row is the top-level import
    for index, (depth, name) in enumerate(rows):
        root = name if depth == 0 else next((n for d, n in rows[index + 1 :] if d == 0), name)
        roots.setdefault(name, set()).add(root)
    return roots


@pytest.mark.parametrize("use_rich", ["1", "0"], ids=["rich-help", "plain-help"])
def test_help_of_every_command_imports_nothing_heavy(use_rich: str) -> None:
    argvs = [["--help"]] + [[*path, "--help"] for path, _ in COMMANDS if path]
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", PROBE, json.dumps(argvs)],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
        cwd=REPO,
        env={
            "PATH": "/usr/bin:/bin",
            "NO_COLOR": "1",
            "COLUMNS": "120",
            "PYTHONDONTWRITEBYTECODE": "1",
            "TYPER_USE_RICH": use_rich,  # kcli's entry point sets 0 off a terminal
        },
    )
    report: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    assert set(report["codes"].values()) == {0}, report["codes"]
    # building the app (every tool registered, examples attached) loads no rich at all
    assert [m for m in report["after_import"] if m.split(".")[0] in {"rich", "kio", "pyspark"}] == []
    roots = _importtime_roots(done.stderr)
    assert not [m for m in roots if m.startswith(("kio.schema", "pyspark", "prompt_toolkit"))]
    # rich.table is loaded only by typer's own rich help renderer, never by a kcli module
    for module in roots:
        if module == "rich.table" or module.startswith("rich.table."):
            assert roots[module] <= {"typer.rich_utils"}, roots[module]
    assert any(name.startswith("kcli.cli.") for name in roots)  # the probe did parse the tree
    if use_rich == "0":  # plain help: no rich at all
        assert not [m for m in roots if m.split(".")[0] == "rich"]
