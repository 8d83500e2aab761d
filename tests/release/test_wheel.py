"""The release as a user gets it: `python -m build` makes the sdist and, from it, the wheel; the wheel
is installed (not editable) with its declared dependencies from the package index into a fresh venv
outside the checkout, and the installed kcli is run there.

Checked: the files of both archives (the package with its data, the man pages and completion
scripts under share/, no tests, no benchmarks), the sdist rebuilding the wheel built from the tree
(the same files with the same contents), `twine check`, `kcli --version`, every tool's --help, man
finding the pages through PATH, the bash completion script answering from the installed kcli, a
detached sandbox up and down, and the metadata shell on a Kafka-written log (the package data found
where installed).
"""

from __future__ import annotations

import json
import os
import platform
import shutil
import subprocess
import sys
import tarfile
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from kcli import __version__
from kcli.cli.tools import TOOLS
from tests.conftest import KRAFT_FIXTURES, REPO, invoke

pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]

NAME = f"kcli_kafka-{__version__}"  # distribution kcli-kafka, normalized in file names
SHARED = {  # the wheel's shared data: its place under the environment's prefix <- its file in the repository
    **{f"share/man/man1/{page.name}": page for page in sorted((REPO / "man").glob("*.1"))},
    "share/bash-completion/completions/kcli": REPO / "completions" / "kcli.bash",
    "share/zsh/site-functions/_kcli": REPO / "completions" / "kcli.zsh",
    "share/fish/vendor_completions.d/kcli.fish": REPO / "completions" / "kcli.fish",
    **{f"share/doc/kcli/runbooks/{book.name}": book for book in sorted((REPO / "docs" / "runbooks").glob("*.md"))},
}
FIXTURE_LOG = KRAFT_FIXTURES / "hiage-kafka-raft/data/kafka1/__cluster_metadata-0"


def _run(argv: list[str | Path], *, env: dict[str, str] | None = None, cwd: Path | None = None) -> str:
    done = subprocess.run(
        [str(arg) for arg in argv], capture_output=True, text=True, env=env, cwd=cwd, timeout=600, check=False
    )
    assert done.returncode == 0, f"{' '.join(map(str, argv))}: exit {done.returncode}\n{done.stderr[-3000:]}"
    return done.stdout


def _package_files() -> list[str]:
    """The files of the kcli package in the checkout, as the archives name them."""
    return sorted(
        path.relative_to(REPO).as_posix()
        for path in (REPO / "kcli").rglob("*")
        if path.is_file() and "__pycache__" not in path.parts
    )


@dataclass(frozen=True)
class Dists:
    sdist: Path
    wheel: Path  # built from the sdist: the wheel a release ships
    tree_wheel: Path  # built from the checkout


@pytest.fixture(scope="module")
def dists(tmp_path_factory: pytest.TempPathFactory) -> Dists:
    out = tmp_path_factory.mktemp("dist")
    # no option: the sdist, then the wheel from the unpacked sdist, each in an isolated build env
    _run([sys.executable, "-m", "build", "--outdir", out / "release", REPO])
    _run([sys.executable, "-m", "build", "--wheel", "--outdir", out / "tree", REPO])
    wheel_name = f"{NAME}-py3-none-any.whl"
    return Dists(
        sdist=out / "release" / f"{NAME}.tar.gz",
        wheel=out / "release" / wheel_name,
        tree_wheel=out / "tree" / wheel_name,
    )


@dataclass(frozen=True)
class Installed:
    prefix: Path  # the venv
    home: Path  # HOME and working directory of every command, outside the checkout
    env: dict[str, str]

    def kcli(self, *args: str | Path) -> str:
        return _run([self.prefix / "bin" / "kcli", *args], env=self.env, cwd=self.home)

    def python(self, code: str) -> str:
        return _run([self.prefix / "bin" / "python", "-c", code], env=self.env, cwd=self.home).strip()


@pytest.fixture(scope="module")
def installed(dists: Dists, tmp_path_factory: pytest.TempPathFactory) -> Installed:
    prefix = tmp_path_factory.mktemp("venv")
    assert not prefix.is_relative_to(REPO)
    _run([sys.executable, "-m", "venv", "--clear", prefix])
    # the declared dependencies, from the index (pip's cache reused): nothing of the project's venv
    _run(
        [prefix / "bin" / "python", "-m", "pip", "install", "--disable-pip-version-check", "-q", dists.wheel]
    )
    home = tmp_path_factory.mktemp("home")
    env = {
        "PATH": f"{prefix / 'bin'}{os.pathsep}/usr/bin{os.pathsep}/bin",
        "HOME": str(home),
        "KCLI_CONFIG": str(home / "config.toml"),
        "LANG": "C.UTF-8",
        "NO_COLOR": "1",
        "COLUMNS": "200",
    }
    return Installed(prefix=prefix, home=home, env=env)


def test_the_wheel_holds_the_package_man_pages_and_completions_only(dists: Dists) -> None:
    names = zipfile.ZipFile(dists.wheel).namelist()
    assert not [name for name in names if name.startswith(("tests/", "benchmarks/", "scripts/"))]
    dist_info = f"{NAME}.dist-info"
    assert sorted(names) == sorted(
        [
            *_package_files(),
            *(f"{NAME}.data/data/{place}" for place in SHARED),
            *(f"{dist_info}/{name}" for name in ("METADATA", "WHEEL", "entry_points.txt", "RECORD")),
            f"{dist_info}/licenses/LICENSE",
        ]
    )
    archive = zipfile.ZipFile(dists.wheel)
    for place, source in SHARED.items():
        assert archive.read(f"{NAME}.data/data/{place}") == source.read_bytes(), place


def test_the_sdist_holds_what_rebuilds_the_wheel_and_the_documents(dists: Dists) -> None:
    with tarfile.open(dists.sdist) as archive:
        names = sorted(
            name.removeprefix(f"{NAME}/") for name in archive.getnames() if archive.getmember(name).isfile()
        )
    docs = sorted(path.relative_to(REPO).as_posix() for path in (REPO / "docs").rglob("*") if path.is_file())
    assert names == sorted(
        {  # the runbooks are documents and the wheel's shared data both
            *_package_files(),
            *(source.relative_to(REPO).as_posix() for source in SHARED.values()),
            *docs,
            "README.md",
            "CHANGELOG.md",
            "LICENSE",
            "pyproject.toml",
            "PKG-INFO",
            ".gitignore",  # hatchling keeps it: what a build from the sdist leaves out
        }
    )


def test_the_sdist_rebuilds_the_same_wheel(dists: Dists) -> None:
    def record(wheel: Path) -> list[str]:  # each file with its sha256 and size
        return zipfile.ZipFile(wheel).read(f"{NAME}.dist-info/RECORD").decode().splitlines()

    assert record(dists.wheel) == record(dists.tree_wheel)


def test_twine_check_passes_on_both_files(dists: Dists) -> None:
    out = _run([sys.executable, "-m", "twine", "check", "--strict", dists.sdist, dists.wheel])
    assert out.count("PASSED") == 2


def test_the_index_page_metadata(dists: Dists) -> None:
    metadata = zipfile.ZipFile(dists.wheel).read(f"{NAME}.dist-info/METADATA").decode()
    head, description = metadata.split("\n\n", 1)
    fields = [line.split(": ", 1) for line in head.splitlines()]
    assert ["Version", __version__] in fields
    assert ["License-Expression", "Apache-2.0"] in fields
    assert ["Description-Content-Type", "text/markdown"] in fields
    assert {value.split(",")[0] for key, value in fields if key == "Project-URL"} >= {
        "Documentation",
        "Changelog",
    }
    assert description.startswith("# kcli\n")
    assert f"/blob/v{__version__}/docs/parity.md)" in description  # relative links made absolute


def test_the_installed_kcli_is_the_wheels(installed: Installed) -> None:
    where = Path(installed.python("import kcli; print(kcli.__file__)"))
    site_packages = Path(installed.python("import sysconfig; print(sysconfig.get_paths()['purelib'])"))
    assert where == site_packages / "kcli" / "__init__.py"
    direct_url = json.loads(
        installed.python(
            "import importlib.metadata as m; print(m.distribution('kcli-kafka').read_text('direct_url.json'))"
        )
    )
    assert direct_url.get("dir_info", {}).get("editable") is not True and direct_url["url"].endswith(".whl")


def test_kcli_version_names_kcli_kio_and_python(installed: Installed) -> None:
    kio_version = installed.python("import importlib.metadata as m; print(m.version('kio'))")
    assert installed.kcli("--version") == (
        f"kcli {__version__} (kio {kio_version}, Python {platform.python_version()})\n"
    )


def test_each_tools_help(installed: Installed) -> None:
    root = installed.kcli("--help")
    for tool in TOOLS:
        assert f"  {tool.name} " in root
        shown = installed.kcli(tool.name, "--help")
        assert shown.startswith(f"Usage: kcli {tool.name} "), shown[:200]
        assert " ".join(tool.summary.split()[:6]) in " ".join(shown.split()), tool.name


def test_man_pages_and_completions_are_where_man_and_the_shells_look(installed: Installed) -> None:
    for place, source in SHARED.items():
        assert (installed.prefix / place).read_bytes() == source.read_bytes(), place
    # man-db searches the share/man beside each bin/ on PATH: no MANPATH needed for a venv on PATH
    env = {**installed.env, "MANPAGER": "cat", "PAGER": "cat"}
    found = _run(["man", "-w", "kcli-configs"], env=env, cwd=installed.home).strip()
    assert found == str(installed.prefix / "share/man/man1/kcli-configs.1")
    assert "SHELL COMPLETION AND MANUAL PAGES" in _run(["man", "kcli"], env=env, cwd=installed.home)
    bash_script = installed.prefix / "share/bash-completion/completions/kcli"
    assert installed.kcli("completion", "show", "bash") == bash_script.read_text(encoding="utf-8")
    ask = 'COMP_WORDS=(kcli metadata-); COMP_CWORD=1; _kcli_completion kcli; printf "%s\\n" "${COMPREPLY[@]}"'
    answer = _run(["bash", "-c", f"source {bash_script}; {ask}"], env=installed.env, cwd=installed.home)
    assert sorted(answer.split()) == ["metadata-quorum", "metadata-shell"]


@pytest.fixture
def sandbox_dir(installed: Installed) -> Iterator[Path]:
    directory = installed.home / "sandbox"
    yield directory
    if (directory / "sandbox.json").exists():  # a failed test left it running
        down = [installed.prefix / "bin" / "kcli", "sandbox", "down", "--dir", directory]
        subprocess.run(down, env=installed.env, capture_output=True, timeout=120, check=False)


@pytest.mark.sandbox
def test_sandbox_up_detached_and_down(installed: Installed, sandbox_dir: Path) -> None:
    shape = ("--base-port", "0", "--controllers", "1", "--brokers", "1", "--topics", "1")
    started = json.loads(
        installed.kcli("sandbox", "up", "--detach", "--dir", sandbox_dir, *shape, "-o", "json")
    )
    # the detached cluster runs in the venv's interpreter, on the installed package and its data
    daemon = Path(f"/proc/{started['pid']}/cmdline").read_bytes().split(b"\0")
    assert daemon[:3] == [str(installed.prefix / "bin" / "python").encode(), b"-m", b"kcli"]
    bootstrap = started["bootstrap_servers"]
    assert (
        installed.kcli("cluster-id", "--bootstrap-server", bootstrap)
        == f"Cluster ID: {started['cluster_id']}\n"
    )
    features = installed.kcli("features", "--bootstrap-server", bootstrap, "describe")
    assert "Feature: metadata.version" in features
    configs = installed.kcli(
        "configs", "--bootstrap-server", bootstrap, "--describe", "--topic", "sandbox-topic-00000"
    )
    assert configs.startswith("Dynamic configs for topic sandbox-topic-00000 are:")
    stopped = installed.kcli("sandbox", "down", "--dir", sandbox_dir)
    assert stopped.startswith(f"Sandbox {started['cluster_id']} in {sandbox_dir} stopped")
    assert not (sandbox_dir / "sandbox.json").exists()


def test_metadata_shell_reads_a_kafka_written_log(installed: Installed) -> None:
    args = ("metadata-shell", "--directory", str(FIXTURE_LOG), "ls", "/image/topics/byName")
    shown = installed.kcli(*args)
    assert shown and shown == invoke(*args).stdout  # as the checkout's kcli shows it
    dumped = installed.kcli(
        "metadata-shell", "--directory", FIXTURE_LOG, "--dump", "--type", "TopicRecord", "-o", "json"
    )
    records = [json.loads(line) for line in dumped.splitlines()]
    assert records and {record["type"] for record in records} == {"TopicRecord"}


def test_no_checkout_file_is_on_the_installed_path(installed: Installed) -> None:
    paths = json.loads(installed.python("import json, sys; print(json.dumps(sys.path))"))
    assert not [path for path in paths if path and Path(path).resolve().is_relative_to(REPO)]
    assert shutil.which("kcli", path=installed.env["PATH"]) == str(installed.prefix / "bin" / "kcli")
