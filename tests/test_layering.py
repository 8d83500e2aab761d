"""The layers of kcli import only downwards, stated by folder (see docs/architecture.md).

cli -> render, workflows, sandbox, shell, audit -> client/api -> ops (pure models) + client core
-> metadata -> kafka, errors and the other base modules. Imports inside functions count too:
lazy imports still make a dependency.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

KCLI = Path(__file__).resolve().parents[1] / "kcli"

# Modules of the package root that any layer may use (they import only the standard library and
# each other).
BASE = ("kafka", "errors", "env", "files", "writes", "integers", "text", "bounds", "data", "properties", "processes")

# Each layer (a folder of kcli, or a subfolder where it is its own layer) and the layers it may
# import besides itself and BASE. A folder not named here fails test_every_module_has_a_layer.
LAYERS: dict[str, tuple[str, ...]] = {
    "metadata": (),
    "client/protocol": (),
    "client": ("client/protocol",),
    "ops": ("metadata",),
    "client/api": ("client", "client/protocol", "ops"),
    "workflows": ("client/api", "client", "client/protocol", "ops", "metadata"),
    "sandbox": ("client/protocol", "ops", "metadata"),
    "sandbox/emulator": ("sandbox", "client/protocol", "ops", "metadata"),
    # real Kafka nodes: kcli's own client asks them what the engine needs (readiness, quorum, topics)
    "sandbox/kafka": ("sandbox", "client/api", "client", "client/protocol", "ops", "metadata"),
    "render": ("workflows", "client/api", "client", "ops", "metadata"),
    "shell": ("render", "client/api", "client", "ops", "metadata"),
    "audit": ("workflows", "client/api", "client", "client/protocol", "ops", "metadata"),
    "cli": (
        "audit",
        "shell",
        "render",
        "sandbox",
        "sandbox/emulator",
        "sandbox/kafka",
        "workflows",
        "client/api",
        "client",
        "client/protocol",
        "ops",
        "metadata",
    ),
    "__main__": ("cli",),
}


def layer_of_path(path: Path) -> str:
    parts = path.relative_to(KCLI).with_suffix("").parts
    if len(parts) > 1 and "/".join(parts[:2]) in LAYERS:
        return "/".join(parts[:2])
    return parts[0]


def layer_of_module(name: str) -> str:
    parts = name.split(".")[1:]
    if len(parts) > 1 and "/".join(parts[:2]) in LAYERS:
        return "/".join(parts[:2])
    return parts[0] if parts else "kcli"


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


def upward_imports(path: Path, layers: dict[str, tuple[str, ...]]) -> list[str]:
    mine = layer_of_path(path)
    allowed = {mine, "kcli", *BASE, *layers.get(mine, ())}
    return [
        f"{path.relative_to(KCLI.parent)} ({mine}) imports {name}"
        for name in sorted(imports_of(path))
        if name.startswith("kcli") and layer_of_module(name) not in allowed
    ]


def test_every_module_has_a_layer() -> None:
    known = {*LAYERS, *BASE, "__init__"}
    assert sorted({layer_of_path(p) for p in KCLI.rglob("*.py")} - known) == []


def test_each_layer_imports_only_the_layers_below_it() -> None:
    found = [hit for path in sorted(KCLI.rglob("*.py")) for hit in upward_imports(path, LAYERS)]
    assert found == []


def test_the_base_modules_import_only_each_other() -> None:
    for name in BASE:
        for path in [KCLI / f"{name}.py", *sorted((KCLI / name).rglob("*.py"))]:
            if path.exists():
                assert {layer_of_module(m) for m in imports_of(path)} <= {"kcli", *BASE}, path


def test_the_check_finds_an_ops_model_that_calls_the_client(tmp_path: Path) -> None:
    model = KCLI / "ops" / "example_model.py"  # a path is only named, never written
    source = tmp_path / "example_model.py"
    source.write_text("from kcli.client.api.configs import describe_configs\n", encoding="utf-8")
    offenders = [
        name
        for name in imports_of(source)
        if layer_of_module(name) not in {layer_of_path(model), "kcli", *BASE, *LAYERS["ops"]}
    ]
    assert offenders == ["kcli.client.api.configs"]


@pytest.mark.parametrize("folder", ["ops", "metadata"])
def test_pure_layers_never_touch_the_network(folder: str) -> None:
    offenders = [
        f"{path.relative_to(KCLI.parent)} imports {name}"
        for path in sorted((KCLI / folder).rglob("*.py"))
        for name in imports_of(path)
        if name.startswith(("kcli.client", "kcli.workflows", "kcli.sandbox", "asyncio", "socket"))
    ]
    assert offenders == []


def test_pyspark_and_prompt_toolkit_stay_in_their_corners() -> None:
    for path in KCLI.rglob("*.py"):
        for name in imports_of(path):
            if name.startswith("pyspark"):
                assert "audit" in path.parts, f"{path} imports {name}"
            if name.startswith("prompt_toolkit"):
                assert "shell" in path.parts, f"{path} imports {name}"


def test_docs_architecture_states_the_same_layers() -> None:
    """The who-imports-whom table of docs/architecture.md is this test's LAYERS, row for row."""
    import re

    text = (KCLI.parent / "docs" / "architecture.md").read_text(encoding="utf-8")
    documented: dict[str, set[str]] = {}
    for line in text.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) != 2 or not line.startswith("|") or cells[0] in ("layer", "---"):
            continue
        allowed = {re.sub(r"\s*\(.*\)", "", name).strip() for name in cells[1].split(",")} - {"—"}
        for layer in cells[0].split(","):
            documented[layer.strip()] = allowed
    code = {layer: set(allowed) for layer, allowed in LAYERS.items() if layer != "__main__"}
    code["cli"] = {"everything"}
    assert documented == code
