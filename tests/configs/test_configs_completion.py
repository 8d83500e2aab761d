"""`kcli configs` completes entity types, config names and profile names (bash protocol, in a subprocess)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.conftest import invoke


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


def test_entity_type_completes_the_configs_entity_types() -> None:
    assert complete("kcli configs --entity-type broker") == ["brokers", "broker-loggers"]


def test_config_options_complete_the_config_names_of_the_entity_type() -> None:
    assert complete("kcli configs --topic orders --add-config retention.m") == ["retention.ms"]
    assert complete("kcli configs --topic orders --delete-config retention.ms,segment.b") == [
        "retention.ms,segment.bytes"
    ]
    assert complete("kcli configs --user alice --append-config produ") == ["producer_byte_rate"]
    assert complete("kcli configs --topic orders --subtract-config cleanup.p") == ["cleanup.policy"]


def test_diff_profile_completes_profile_names(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text(
        '[profiles.prod-eu]\nbootstrap.servers = "a:1"\n[profiles.stage]\nbootstrap.servers = "b:1"\n'
    )
    assert complete("kcli configs --diff-profile prod", {"KCLI_CONFIG": str(config)}) == ["prod-eu"]


def test_every_configs_option_has_help_text() -> None:
    result = invoke("configs", "--help")
    assert result.code == 0
    for flag in ("--client-defaults", "--user-defaults", "--broker-defaults", "--ip-defaults"):
        line = next(line for line in result.stdout.splitlines() if flag in line)
        assert line.split(flag, 1)[1].strip(" │"), f"{flag} has no help text"
