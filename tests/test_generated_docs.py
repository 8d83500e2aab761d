"""man/ and completions/ are generated from the typer app: they must match the code and render cleanly.

After changing a command, regenerate with `python -m kcli.cli.docgen` from the repository root.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from kcli.cli.docgen import completion_scripts, man_pages

ROOT = Path(__file__).resolve().parents[1]
REGENERATE = "regenerate with `python -m kcli.cli.docgen` from the repository root"


@pytest.mark.parametrize(
    ("folder", "pattern", "generate"),
    [("man", "*.1", man_pages), ("completions", "kcli.*", completion_scripts)],
)
def test_committed_files_match_the_code(folder: str, pattern: str, generate: object) -> None:
    expected = generate()  # type: ignore[operator]
    committed = {path.name: path.read_text(encoding="utf-8") for path in (ROOT / folder).glob(pattern)}
    assert sorted(committed) == sorted(expected), f"{folder}/ files differ from the commands; {REGENERATE}"
    stale = [name for name, text in expected.items() if committed[name] != text]
    assert not stale, f"stale {folder}/ files {stale}; {REGENERATE}"


def test_every_command_has_a_man_page() -> None:
    pages = man_pages()
    for name in ("kcli.1", "kcli-configs.1", "kcli-metadata-quorum-describe.1", "kcli-sandbox-up.1"):
        assert name in pages


def test_man_pages_render_without_warnings() -> None:
    for page in sorted((ROOT / "man").glob("*.1")):
        done = subprocess.run(
            ["groff", "-man", "-Tutf8", "-ww", "-z", str(page)],
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
        assert done.returncode == 0 and not done.stderr, f"{page.name}: {done.stderr}"


def test_man_renders_the_configs_page() -> None:
    done = subprocess.run(
        ["man", "-l", str(ROOT / "man" / "kcli-configs.1")],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
        env={"MANPAGER": "cat", "PAGER": "cat", "COLUMNS": "100"},
    )
    assert done.returncode == 0, done.stderr
    assert "kcli-configs" in done.stdout and "--bootstrap-server" in done.stdout and "EXAMPLES" in done.stdout


def test_bash_completion_script_calls_back_into_kcli() -> None:
    script = completion_scripts()["kcli.bash"]
    assert "_KCLI_COMPLETE" in script and "complete " in script


def test_every_page_sees_also_kcli_and_every_tool() -> None:
    from kcli.cli.tools import TOOLS

    top = {"kcli(1)", *(f"kcli-{tool.name}(1)" for tool in TOOLS)}
    for name, text in man_pages().items():
        see_also = text.rstrip("\n").rsplit("\n.SH SEE ALSO\n", 1)[1].replace("\\-", "-").split(", ")
        assert set(see_also) == top - {name.replace(".1", "(1)")}, name
