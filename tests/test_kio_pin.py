"""pyproject.toml pins kio to the release kcli/bounds/walks were generated from (scripts/decoders.py
writes it as KIO_VERSION): a fresh install then gets that kio or is refused by pip, and never a newer
kio whose classes the walks would refuse at run time (SchemaError). docs/contributing.md says how to
move the pin: regenerate the walks with the new kio, then change both together."""

from __future__ import annotations

import tomllib
from importlib.metadata import version
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.version import Version

from kcli.bounds.walks import KIO_VERSION

ROOT = Path(__file__).resolve().parents[1]


def pin_problems(requirement: str, generated_from: str) -> list[str]:
    """What is wrong with `requirement` (kio's, from pyproject.toml) for walks generated from kio
    `generated_from`: it must allow that release and no later one."""
    specifier = Requirement(requirement).specifier
    generated = Version(generated_from)
    problems = []
    if generated not in specifier:
        problems.append(
            f"{requirement} does not allow kio {generated_from}, which the walks are generated from"
        )
    major, minor, micro = generated.release[:3]
    for later in (f"{major}.{minor}.{micro + 1}", f"{major}.{minor + 1}.0", f"{major + 1}.0.0"):
        if Version(later) in specifier:
            problems.append(
                f"{requirement} allows kio {later}, newer than the walks know (kio {generated_from})"
            )
    return problems


def _kio_requirement() -> str:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    found = [d for d in project["dependencies"] if Requirement(d).name == "kio"]
    assert len(found) == 1, project["dependencies"]
    return found[0]


def test_pyproject_pins_kio_to_the_release_the_walks_are_generated_from() -> None:
    assert pin_problems(_kio_requirement(), KIO_VERSION) == []


def test_the_installed_kio_is_the_one_the_walks_know() -> None:
    assert version("kio") == KIO_VERSION, "run python scripts/decoders.py generate (docs/contributing.md)"


@pytest.mark.parametrize(
    ("requirement", "wrong"),
    [
        ("kio>=0.6.5", "allows kio 0.6.6"),  # the old open range: any later kio
        ("kio~=0.6.5", "allows kio 0.6.6"),
        ("kio>=0.6.5,<0.8", "allows kio 0.7.0"),
        ("kio==0.6.4", "does not allow kio 0.6.5"),
        ("kio>=0.6.5,<0.6.6", None),
        ("kio==0.6.5", None),
    ],
)
def test_the_check_refuses_a_pin_the_walks_do_not_match(requirement: str, wrong: str | None) -> None:
    problems = pin_problems(requirement, "0.6.5")
    assert (wrong is None) == (not problems), problems
    assert wrong is None or any(wrong in problem for problem in problems)
