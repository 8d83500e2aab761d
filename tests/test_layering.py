"""The layers of kcli import only downwards, stated by folder (see docs/architecture.md).

cli -> render, workflows, sandbox (the engine interface) + sandbox/opening, shell, audit -> client/api
-> ops (pure models) + client core -> metadata -> kafka, errors and the other base modules. The two
sandbox engines (sandbox/emulator, sandbox/kafka) are siblings under sandbox/opening, never imported by
the CLI. Imports inside functions and under TYPE_CHECKING count too: they still make a dependency, and
no module may import one that imports it back.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

KCLI = Path(__file__).resolve().parents[1] / "kcli"

# Modules of the package root that any layer may use (they import only the standard library and
# each other).
BASE = ("kafka", "errors", "env", "files", "writes", "integers", "text", "bounds", "data", "properties", "processes",
        "crc")  # fmt: skip

# Each layer (a folder of kcli, or a subfolder where it is its own layer) and the layers it may
# import besides itself and BASE. A folder not named here fails test_every_module_has_a_layer.
LAYERS: dict[str, tuple[str, ...]] = {
    "metadata": (),
    "client/protocol": (),
    "client": ("client/protocol",),
    "ops": ("metadata",),
    "client/api": ("client", "client/protocol", "ops"),
    "workflows": ("client/api", "client", "client/protocol", "ops", "metadata"),
    # the sandbox's engine interface and what both engines use; the engines are siblings beneath it
    "sandbox": ("ops", "metadata"),
    "sandbox/emulator": ("sandbox", "client/protocol", "ops", "metadata"),
    # real Kafka nodes: kcli's own client asks them what the engine needs (readiness, quorum, topics)
    "sandbox/kafka": ("sandbox", "client/api", "client", "client/protocol", "ops", "metadata"),
    # the one module that knows both engines: which one a directory holds, and opening it
    "sandbox/opening": ("sandbox", "sandbox/emulator", "sandbox/kafka"),
    "render": ("workflows", "client/api", "client", "ops", "metadata"),
    "shell": ("render", "client/api", "client", "ops", "metadata"),
    "audit": ("workflows", "client/api", "client", "client/protocol", "ops", "metadata"),
    "cli": (
        "audit",
        "shell",
        "render",
        "sandbox",  # the engine interface (kcli.sandbox.engine) and what both engines share
        "sandbox/opening",  # never an engine itself
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
    assert documented == code


# ------------------------------------------------------------------ no module imports one that imports it back


def module_name(path: Path, package: Path) -> str:
    parts = path.relative_to(package.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph(package: Path) -> dict[str, set[str]]:
    """module -> the modules of `package` it imports, wherever the import is (top level, in a function,
    under TYPE_CHECKING); `from package import name` counts as the submodule when `name` is one."""
    modules = {module_name(path, package): path for path in sorted(package.rglob("*.py"))}

    def known(name: str) -> str:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name

    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                for alias in node.names:
                    whole = f"{node.module}.{alias.name}"
                    found.add(whole if whole in modules else known(node.module))
            elif isinstance(node, ast.Import):
                found.update(known(alias.name) for alias in node.names)
        graph[name] = {target for target in found if target and target != name}
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, targets = work[-1]
            for target in targets:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(graph.get(target, ())))))
                    break
                if target in on_stack:
                    low[node] = min(low[node], index[target])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    group = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == node:
                            break
                    if len(group) > 1:
                        found.append(sorted(group))
    return found


def test_no_module_of_kcli_imports_one_that_imports_it_back() -> None:
    assert circles(import_graph(KCLI)) == []


def test_the_circle_check_finds_a_lazy_and_a_type_checking_circle(tmp_path: Path) -> None:
    package = tmp_path / "kcli"
    (package / "x").mkdir(parents=True)
    (package / "x" / "__init__.py").write_text("", encoding="utf-8")
    (package / "x" / "a.py").write_text("def f():\n    from kcli.x import b\n", encoding="utf-8")
    (package / "x" / "b.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from kcli.x.c import C\n", encoding="utf-8"
    )
    (package / "x" / "c.py").write_text("import kcli.x.a\n", encoding="utf-8")
    (package / "x" / "d.py").write_text("from kcli.x import a\n", encoding="utf-8")
    assert circles(import_graph(package)) == [["kcli.x.a", "kcli.x.b", "kcli.x.c"]]


def test_the_cli_opens_sandboxes_through_the_engine_interface_only() -> None:
    """A new engine or fault touches kcli/sandbox (the interface, the engine's package), not the CLI."""
    offenders = [
        f"{path.relative_to(KCLI.parent)} imports {name}"
        for path in sorted((KCLI / "cli").rglob("*.py"))
        for name in imports_of(path)
        if name.startswith(("kcli.sandbox.emulator", "kcli.sandbox.kafka"))
    ]
    assert offenders == []


def test_no_hand_written_module_is_over_600_lines() -> None:
    """Generated modules (their first line says by which script) are the only long ones."""
    long = {
        str(p.relative_to(KCLI.parent)): len(lines)
        for p in KCLI.rglob("*.py")
        if len(lines := p.read_text().splitlines()) > 600 and "generated by scripts/" not in lines[0]
    }
    assert long == {}


def test_no_command_function_is_over_100_lines() -> None:
    """A command parses its options, hands a request to a workflow and renders what comes back: its
    function (a typer command, signature and all) fits in 100 lines."""
    long = {
        f"{path.relative_to(KCLI.parent)}:{node.name}": node.end_lineno - node.lineno + 1
        for path in sorted((KCLI / "cli").glob("*.py"))
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and any(".command" in ast.unparse(decorator) for decorator in node.decorator_list)
        and node.end_lineno is not None
        and node.end_lineno - node.lineno + 1 > 100
    }
    commands = sum(
        1
        for path in (KCLI / "cli").glob("*.py")
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.FunctionDef)
        and any(".command" in ast.unparse(d) for d in node.decorator_list)
    )
    assert commands > 30  # the walk finds the commands
    assert long == {}
