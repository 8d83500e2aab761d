"""The checkout works wherever it is cloned: no tracked file names this machine's checkout or shared folder."""

from __future__ import annotations

import subprocess
from pathlib import Path

from tests.conftest import KRAFT_FIXTURES, REPO, SHARED


def _tracked_files() -> list[Path]:
    listed = subprocess.run(
        ["git", "ls-files", "-z"], cwd=REPO, capture_output=True, check=True, timeout=60
    ).stdout.split(b"\0")
    return [REPO / name.decode() for name in listed if name]


def _machine_paths() -> set[bytes]:
    """The absolute paths a hard-coded reference would contain, as given and with links resolved."""
    paths = {REPO, REPO.resolve(), SHARED.absolute(), SHARED.resolve()}
    return {f"{path}/".encode() for path in paths}


def test_fixtures_resolve_beside_the_checkout() -> None:
    assert (KRAFT_FIXTURES / "SOURCES.md").is_file(), f"no shared fixtures at {KRAFT_FIXTURES}"


def test_no_tracked_file_names_an_absolute_path_of_this_machine() -> None:
    needles = _machine_paths()
    offenders = [
        str(path.relative_to(REPO))
        for path in _tracked_files()
        if path.is_file() and any(needle in path.read_bytes() for needle in needles)
    ]
    assert offenders == [], f"tracked files hard-code {sorted(n.decode() for n in needles)}: {offenders}"


def test_the_check_catches_a_hard_coded_path(tmp_path: Path) -> None:
    planted = tmp_path / "planted.py"
    planted.write_text(f'FIXTURES = "{SHARED.resolve()}/fixtures/kraft"\n')
    assert any(needle in planted.read_bytes() for needle in _machine_paths())
