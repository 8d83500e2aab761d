"""What a package index shows of kcli, and the one version: pyproject.toml, the changelog, the
licence, the README as the index renders it. Fast checks of the sources; test_wheel.py builds."""

from __future__ import annotations

import re
import tomllib
from typing import Any

from kcli import __version__
from kcli.cli.docgen import MANUAL_DATE
from tests.conftest import REPO, invoke

PYPROJECT: dict[str, Any] = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
PROJECT: dict[str, Any] = PYPROJECT["project"]
CHANGELOG = (REPO / "CHANGELOG.md").read_text(encoding="utf-8")
RELEASE = re.compile(r"^## \[(\d+\.\d+\.\d+)\] - (\d{4}-\d{2}-\d{2})$", re.MULTILINE)
# A markdown link's target: relative ones are rewritten for the index (pyproject.toml's readme hook)
LINK = re.compile(r"\]\(([^)\s]+)\)")


def test_the_version_is_written_in_one_place() -> None:
    assert "version" not in PROJECT and "version" in PROJECT["dynamic"]
    assert PYPROJECT["tool"]["hatch"]["version"]["path"] == "kcli/__init__.py"
    assert re.findall(r"^__version__ = \"(.+)\"$", (REPO / "kcli/__init__.py").read_text(), re.MULTILINE) == [
        __version__
    ]


def test_kcli_version_names_kcli_kio_and_python() -> None:
    import platform

    from kio import __version__ as kio_version

    result = invoke("--version")
    assert result.stdout == f"kcli {__version__} (kio {kio_version}, Python {platform.python_version()})\n"


def test_the_changelog_keeps_a_changelog_and_its_first_release_is_this_version() -> None:
    lines = CHANGELOG.splitlines()
    assert lines[0] == "# Changelog"
    assert "[Keep a Changelog](https://keepachangelog.com/" in CHANGELOG
    assert "## [Unreleased]" in lines
    releases = RELEASE.findall(CHANGELOG)
    assert releases, "no release heading like '## [0.1.0] - 2026-11-27'"
    version, date = releases[0]
    assert version == __version__
    assert lines.index("## [Unreleased]") < lines.index(f"## [{version}] - {date}")
    # every version heading has its link at the bottom, as Keep a Changelog does
    for name in ["Unreleased", *(v for v, _ in releases)]:
        assert re.search(rf"^\[{re.escape(name)}\]: https://", CHANGELOG, re.MULTILINE), name
    first_entry = CHANGELOG.split(f"## [{version}] - {date}\n", 1)[1].split("\n## ", 1)[0]
    assert "### Added" in first_entry and first_entry.count("\n- ") >= 10


def test_the_man_pages_carry_the_release_date() -> None:
    _, date = RELEASE.findall(CHANGELOG)[0]
    assert MANUAL_DATE.isoformat() == date  # bump docgen.MANUAL_DATE and regenerate with each release


def test_the_licence_is_the_apache_license_2_0() -> None:
    text = (REPO / "LICENSE").read_text(encoding="utf-8")
    assert text.split()[:4] == ["Apache", "License", "Version", "2.0,"]
    assert "END OF TERMS AND CONDITIONS" in text
    assert PROJECT["license"] == "Apache-2.0" and PROJECT["license-files"] == ["LICENSE"]


def test_the_index_page_has_classifiers_keywords_and_urls_of_one_repository() -> None:
    classifiers = PROJECT["classifiers"]
    oldest_python = PROJECT["requires-python"].removeprefix(">=")
    assert any(c.startswith("Development Status ::") for c in classifiers)
    assert f"Programming Language :: Python :: {oldest_python}" in classifiers
    assert {"kafka", "kraft", "cli"} <= set(PROJECT["keywords"])
    urls: dict[str, str] = PROJECT["urls"]
    source = urls["Source"]
    assert {"Homepage", "Documentation", "Changelog", "Issues"} <= set(urls)
    assert all(url.startswith(source) for url in urls.values()), urls
    assert urls["Documentation"].endswith("/docs") and urls["Changelog"].endswith("/CHANGELOG.md")
    release_links = re.findall(r"^\[[^\]]+\]: (https://\S+)", CHANGELOG, re.MULTILINE)
    assert release_links and all(url.startswith(source) for url in release_links)


def test_readme_links_reach_files_of_the_release_on_the_index() -> None:
    """On an index a relative link has no file to reach: the readme hook points each at the release's
    tag in the repository, so each must name a file or folder that the repository has."""
    hook = PYPROJECT["tool"]["hatch"]["metadata"]["hooks"]["fancy-pypi-readme"]
    assert hook["fragments"] == [{"path": "README.md"}]
    [substitution] = hook["substitutions"]
    assert substitution["replacement"] == f"]({PROJECT['urls']['Source']}/blob/v$HFPR_VERSION/\\1)"
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    rendered = re.sub(substitution["pattern"], substitution["replacement"], readme)
    relative = [t for t in LINK.findall(readme) if not t.startswith(("https://", "http://", "#"))]
    assert relative, "the README links to its documents"
    for target in relative:
        assert (REPO / target).exists(), target
    assert [t for t in LINK.findall(rendered) if not t.startswith(("https://", "#"))] == []
    for anchor in (t for t in LINK.findall(readme) if t.startswith("#")):
        heading = anchor[1:].replace("-", " ")
        assert re.search(rf"^## {re.escape(heading)}$", readme, re.MULTILINE | re.IGNORECASE), anchor
