"""Dynamic completions reach the real program's options (bash protocol, in a subprocess)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.conftest import KRAFT_FIXTURES

ROOT = Path(__file__).resolve().parents[1]
FIXTURE_LOG = KRAFT_FIXTURES / "hiage-kafka-raft/data/kafka1/__cluster_metadata-0"


def complete(words: str, environ: dict[str, str] | None = None) -> list[str]:
    env = {**os.environ, **(environ or {}), "_KCLI_COMPLETE": "complete_bash", "COMP_WORDS": words}
    env["COMP_CWORD"] = str(len(words.split()) - (0 if words.endswith(" ") else 1))
    done = subprocess.run(
        [sys.executable, "-c", "from kcli.cli.entry import console; console()"],
        env=env,
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    return done.stdout.split()


def test_metadata_shell_completes_tree_paths_of_the_directory() -> None:
    assert complete(f"kcli metadata-shell --directory {FIXTURE_LOG} ls /image/t") == ["/image/topics/"]


def test_spark_profile_and_profile_use_complete_profile_names(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text(
        '[profiles.prod-eu]\nbootstrap.servers = "a:1"\n[profiles.prod-us]\nbootstrap.servers = "b:1"\n'
    )
    environ = {"KCLI_CONFIG": str(config)}
    assert complete("kcli spark collect --profile prod", environ) == ["prod-eu", "prod-us"]
    assert complete("kcli profile use prod-e", environ) == ["prod-eu"]
