"""No shell, eval, exec or pickle in kcli (checked on kcli's AST), and no code built at run time.

The decoders that were once compiled at run time (length walks, metadata values readers, JSON
renderers) are generated at build time by scripts/decoders.py and checked in
(tests/test_generated_decoders.py); no module under kcli/ calls exec, eval or compile, or builds a
function from a code object. The last test feeds the metadata readers a record whose strings are
Python code: it is read back as data.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import kcli

ROOT = Path(kcli.__file__).parent
FORBIDDEN_CALLS = {"eval", "exec", "compile", "__import__", "input", "breakpoint", "FunctionType", "CodeType"}
FORBIDDEN_MODULES = {"pickle", "cPickle", "dill", "shelve", "marshal", "yaml", "jsonpickle"}
FORBIDDEN_ATTRIBUTES = {
    ("os", "system"),
    ("os", "popen"),
    ("pickle", "loads"),
    ("pickle", "load"),
    ("marshal", "loads"),
}
SUBPROCESS_CALLS = {"run", "Popen", "call", "check_call", "check_output", "getoutput", "getstatusoutput"}
def _functions(tree: ast.AST) -> dict[ast.AST, str]:
    owner: dict[ast.AST, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            for inner in ast.walk(node):
                owner.setdefault(inner, node.name)
    return owner


def test_no_shell_eval_exec_or_pickle_in_kcli() -> None:
    problems: list[str] = []
    checked = 0
    for path in sorted(ROOT.rglob("*.py")):
        relative = path.relative_to(ROOT).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=relative)
        owners = _functions(tree)
        checked += 1
        for node in ast.walk(tree):
            where = f"{relative}:{getattr(node, 'lineno', '?')}"
            if isinstance(node, ast.Import | ast.ImportFrom):
                names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
                for name in names:
                    if name.split(".")[0] in FORBIDDEN_MODULES:
                        problems.append(f"{where}: imports {name}")
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            if isinstance(func, ast.Name) and func.id in FORBIDDEN_CALLS:
                function = owners.get(node, "<module>")
                problems.append(f"{where}: calls {func.id}() in {function}")
            if isinstance(func, ast.Attribute) and func.attr in FORBIDDEN_CALLS - {"compile"}:
                problems.append(f"{where}: calls .{func.attr}()")  # builtins.exec, types.FunctionType, ...
            if (
                isinstance(func, ast.Attribute)
                and isinstance(func.value, ast.Name)
                and (func.value.id, func.attr) in FORBIDDEN_ATTRIBUTES
            ):
                problems.append(f"{where}: calls {func.value.id}.{func.attr}()")
            called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if called == "create_subprocess_shell":
                problems.append(f"{where}: create_subprocess_shell()")
            for keyword in node.keywords if called in SUBPROCESS_CALLS else ():
                if keyword.arg == "shell" and not (
                    isinstance(keyword.value, ast.Constant) and keyword.value.value is False
                ):
                    problems.append(f"{where}: subprocess with shell=")
    assert checked > 50
    assert problems == [], "\n".join(problems)


def test_the_check_finds_code_built_at_run_time(tmp_path: Path) -> None:
    """The scan above would see each way of running source text (a calibration of the check)."""
    sample = "exec(compile(source, 'x', 'exec'))\neval(text)\nbuiltins.exec(text)\ntypes.FunctionType(code, {})\n"
    calls = [
        node.func
        for node in ast.walk(ast.parse(sample))
        if isinstance(node, ast.Call)
    ]
    found = {getattr(func, "id", None) or getattr(func, "attr", None) for func in calls}
    assert {"exec", "compile", "eval", "FunctionType"} <= found & FORBIDDEN_CALLS


def test_generated_readers_do_not_run_data_from_a_log(tmp_path: Path) -> None:
    """A record whose strings are Python code is read back as data: the code never runs."""
    import builtins

    from kio.static.primitive import i16

    from kcli.metadata import records as r
    from kcli.metadata.dump import json_formatter
    from kcli.metadata.reader import read_file
    from kcli.metadata.writer import MetadataLogWriter

    payload = "__import__('builtins').KCLI_PWNED = 1"
    rec: Any = r
    with MetadataLogWriter(tmp_path, node_id=1, cluster_id="WnLkTHhkQaiJbwP8FClPhw") as log:
        log.append(
            [
                rec.FeatureLevelRecord(name="metadata.version", feature_level=i16(25)),
                rec.ConfigRecord(resource_type=2, resource_name=payload, name=payload, value=payload),
            ],
            epoch=1,
            timestamp_ms=1,
        )
    segment = next((tmp_path / "__cluster_metadata-0").glob("*.log"))
    entries = list(read_file(segment))
    config = entries[-1].record
    values = config if isinstance(config, tuple) else (config.resource_name, config.name, config.value)
    assert payload in values
    formatter = json_formatter(entries[-1].key, entries[-1].version)
    if formatter is not None and isinstance(config, tuple):
        assert payload.replace("'", "'") in formatter(config)
    assert not hasattr(builtins, "KCLI_PWNED")
