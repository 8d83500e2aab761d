"""kcli's CLI stands on typer's public API only, so that a typer upgrade cannot break it.

typer (since 0.26) vendors click as the private `typer._click` rather than depending on click, so
click's context, parameter sources and shell-completion machinery are reached through typer's
public names: `typer.Context` and its methods, the documented `typer.main.get_command` and
`typer.core.TyperGroup`, `typer.testing.CliRunner` in tests. No signature splicing either: typer
reads each command's parameters from the function as written.
"""

from __future__ import annotations

import ast
import types
from pathlib import Path

import typer

ROOT = Path(__file__).resolve().parents[1]
# typer's documented names beyond its package namespace: module -> names
DOCUMENTED = {"typer.main": {"get_command"}, "typer.core": {"TyperGroup"}, "typer.testing": {"CliRunner"}}
PUBLIC = {name for name, value in vars(typer).items() if not name.startswith("_")} - {
    name for name, value in vars(typer).items() if isinstance(value, types.ModuleType)
}


def _sources() -> list[Path]:
    kcli = sorted((ROOT / "kcli").rglob("*.py"))
    tests = [p for p in sorted((ROOT / "tests").rglob("*.py")) if "fuzz" not in p.parts]
    return kcli + tests


def _dotted(node: ast.AST) -> str | None:
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        return ".".join([node.id, *reversed(parts)])
    return None


def private_uses(path: Path) -> list[str]:
    """Every use of typer or click in `path` that is not public API, as 'file:line what'."""
    found: list[str] = []
    text = path.read_text(encoding="utf-8")
    if not any(word in text for word in ("typer", "click", "__signature__", "_get_command")):
        return found
    modules = {f"typer.{module}" for module in PUBLIC} | set(DOCUMENTED)
    for node in ast.walk(ast.parse(text)):
        line = f"{path.name}:{getattr(node, 'lineno', 0)}"
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            module = node.module
            if module.split(".")[0] == "click":
                found.append(f"{line} {module}")
            elif module == "typer":
                found += [f"{line} typer.{a.name}" for a in node.names if a.name not in PUBLIC]
            elif module.startswith("typer."):
                allowed = DOCUMENTED.get(module, set())
                found += [f"{line} {module}.{a.name}" for a in node.names if a.name not in allowed]
        elif isinstance(node, ast.Import):
            found += [
                f"{line} {a.name}" for a in node.names if a.name.split(".")[0] == "click" or "._" in a.name
            ]
        elif isinstance(node, ast.Attribute):
            dotted = _dotted(node) or ""
            parts = dotted.split(".")
            in_typer = parts[0] == "typer"
            if node.attr in ("__signature__", "_get_command"):
                found.append(f"{line} {dotted or node.attr}")
            elif in_typer and len(parts) == 2 and dotted not in modules:
                found.append(f"{line} {dotted}")  # typer.X: a public name or a documented module
            elif in_typer and len(parts) == 3 and parts[2] not in DOCUMENTED.get(".".join(parts[:2]), ()):
                found.append(f"{line} {dotted}")  # typer.M.N: a documented name of that module
    return found


def test_kcli_and_its_tests_use_only_typer_s_public_api() -> None:
    assert [use for path in _sources() for use in private_uses(path)] == []


def test_the_check_sees_private_uses(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        "import typer\n"
        "import typer.testing\n"
        "from typer._click.globals import get_current_context\n"
        "from typer.models import DefaultPlaceholder\n"
        "from typer.main import get_command, get_command_name\n"
        "x = typer.core.HAS_RICH\n"
        "y = typer.main.get_command(typer.Typer()).commands\n"
        "def f(): pass\n"
        "f.__signature__ = None\n"
        "typer.testing._get_command = None\n",
        encoding="utf-8",
    )
    assert sorted(use.split(" ", 1)[1] for use in private_uses(sample)) == [
        "f.__signature__",
        "typer._click.globals.get_current_context",
        "typer.core.HAS_RICH",
        "typer.main.get_command_name",
        "typer.models.DefaultPlaceholder",
        "typer.testing._get_command",
    ]
