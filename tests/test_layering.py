"""The layers of kcli import only downwards (see the layout in README.md).

cli -> render / ops runners -> client/api -> ops models + client core -> metadata, errors.
Imports inside functions count too: lazy imports still make a dependency.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

KCLI = Path(__file__).resolve().parents[1] / "kcli"

# Modules of kcli/ops that run workflows against a cluster; every other ops module is a pure model.
OPS_RUNNERS = ("kcli.ops.acl_run", "kcli.ops.config_run", "kcli.ops.reassign.actions", "kcli.ops.profiles")


def imports_of(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
    return {
        name for name in names if name == "kcli" or name.startswith(("kcli.", "pyspark", "prompt_toolkit"))
    }


def modules(folder: str) -> list[Path]:
    return sorted((KCLI / folder).rglob("*.py"))


def violations(folder: str, allowed: tuple[str, ...], *, exclude: tuple[str, ...] = ()) -> list[str]:
    allowed = (*allowed, "kcli")  # the package root holds only __version__
    found = []
    for path in modules(folder):
        if any(part in str(path) for part in exclude):
            continue
        for name in imports_of(path):
            if not any(
                name == prefix or (prefix != "kcli" and name.startswith(prefix + ".")) for prefix in allowed
            ):
                found.append(f"{path.relative_to(KCLI.parent)} imports {name}")
    return found


def test_metadata_depends_on_nothing_above_it() -> None:
    assert violations("metadata", ("kcli.metadata", "kcli.errors", "kcli.bounds")) == []


def test_client_core_does_not_reach_into_tools() -> None:
    allowed = ("kcli.client", "kcli.kafka", "kcli.errors", "kcli.bounds", "kcli.env", "kcli.files")
    assert violations("client", allowed, exclude=("client/api/",)) == []


@pytest.mark.parametrize("runner", OPS_RUNNERS)
def test_client_api_uses_ops_models_but_never_ops_runners(runner: str) -> None:
    users = [str(p) for p in modules("client/api") if runner in imports_of(p)]
    assert users == []


def test_pure_ops_models_do_not_touch_the_network() -> None:
    runner_files = {name.removeprefix("kcli.").replace(".", "/") + ".py" for name in OPS_RUNNERS}
    offenders = [
        f"{path.relative_to(KCLI.parent)} imports {name}"
        for path in modules("ops")
        if str(path.relative_to(KCLI)) not in runner_files
        for name in imports_of(path)
        if name.startswith(("kcli.client", "kcli.cli", "kcli.sandbox"))
    ]
    assert offenders == []


@pytest.mark.parametrize("folder", ["render", "ops", "client", "metadata", "shell", "sandbox", "audit"])
def test_only_the_cli_imports_the_cli(folder: str) -> None:
    offenders = [
        f"{path.relative_to(KCLI.parent)} imports {name}"
        for path in modules(folder)
        for name in imports_of(path)
        if name == "kcli.cli" or name.startswith("kcli.cli.")
    ]
    assert offenders == []


def test_pyspark_and_prompt_toolkit_stay_in_their_corners() -> None:
    for path in KCLI.rglob("*.py"):
        for name in imports_of(path):
            if name.startswith("pyspark"):
                assert "audit" in path.parts, f"{path} imports {name}"
            if name.startswith("prompt_toolkit"):
                assert "shell" in path.parts, f"{path} imports {name}"
