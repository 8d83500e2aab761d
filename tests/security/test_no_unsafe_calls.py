"""No shell, eval, exec or pickle on anything read from a file or the network (checked on kcli's AST).

Three sites generate Python source with exec: metadata readers and JSON formatters compiled per
record class, and the bounds walk compiled per response class. Their source is built from kcli's own
record schema classes (looked up by the integer api key and version) or kio's response classes, never
from bytes read from a file or the network; the last test checks that for the metadata readers by
feeding them a record whose strings are Python code.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import kcli

ROOT = Path(kcli.__file__).parent
FORBIDDEN_CALLS = {"eval", "exec", "compile", "__import__", "input", "breakpoint"}
FORBIDDEN_MODULES = {"pickle", "cPickle", "dill", "shelve", "marshal", "yaml", "jsonpickle"}
FORBIDDEN_ATTRIBUTES = {
    ("os", "system"),
    ("os", "popen"),
    ("pickle", "loads"),
    ("pickle", "load"),
    ("marshal", "loads"),
}
SUBPROCESS_CALLS = {"run", "Popen", "call", "check_call", "check_output", "getoutput", "getstatusoutput"}
# (file, function) -> why it is safe
ALLOWED_EXEC = {
    ("metadata/fastdecode.py", "_compile"): "reader source built from a kcli record schema class",
    ("metadata/dump.py", "json_formatter"): "formatter source built from a kcli record schema class",
    ("bounds.py", "compile"): "walk source built from a kio response schema class",
    ("metadata/layouts.py", "_define"): "layout function source built from a kcli record schema class",
}


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
                if func.id in ("exec", "compile") and (relative, function) in ALLOWED_EXEC:
                    continue
                problems.append(f"{where}: calls {func.id}() in {function}")
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


def test_allowed_exec_sites_still_exist() -> None:
    """If a site moves, the allowlist must be reviewed rather than silently widened."""
    for relative, function in ALLOWED_EXEC:
        text = (ROOT / relative).read_text(encoding="utf-8")
        assert f"def {function}(" in text and "exec(compile(" in text, relative


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
