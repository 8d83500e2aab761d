"""Dynamic completion: the completer functions, and the same answers through typer's protocol."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import typer

from kcli.cli import completers
from tests.conftest import KRAFT_FIXTURES

REPO = Path(__file__).resolve().parents[2]
FIXTURE_LOG_DIR = KRAFT_FIXTURES / "induswargods-local-test-rig" / "kafka-data"
PROFILES = (
    '[profiles.alpha]\n"bootstrap.servers" = "a:9092"\n\n[profiles.beta]\n"bootstrap.servers" = "b:9092"\n'
)


def _context(**params: object) -> typer.Context:
    """A real click context of `kcli configs` carrying the values parsed so far."""
    from kcli.cli.main import app

    group = typer.main.get_command(app)
    ctx = typer.Context(group.commands["configs"])  # type: ignore[attr-defined]
    ctx.params = dict(params)
    return ctx


def complete(words: str, *, probe: bool = False, environ: dict[str, str] | None = None) -> list[str]:
    """Ask kcli (or the probe app) for bash completions of `words`, the way the bash script does."""
    program = [sys.executable, str(REPO / "tests" / "polish" / "completion_probe.py")] if probe else [
        sys.executable, "-m", "kcli",
    ]  # fmt: skip
    cword = len(words.split()) - (0 if words.endswith(" ") else 1)
    done = subprocess.run(
        program,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        cwd=REPO,
        env={
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "PYTHONPATH": str(REPO),
            "_KCLI_COMPLETE": "complete_bash",
            "COMP_WORDS": words,
            "COMP_CWORD": str(cword),
            **(environ or {}),
        },
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


# ------------------------------------------------------------------ the functions


def test_profile_names_come_from_the_config_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = tmp_path / "config.toml"
    config.write_text(PROFILES, encoding="utf-8")
    monkeypatch.setenv("KCLI_CONFIG", str(config))
    assert completers.profile_names(None, "") == ["alpha", "beta"]
    assert completers.profile_names(None, "b") == ["beta"]
    config.write_text("[profiles\nbroken", encoding="utf-8")
    assert completers.profile_names(None, "") == []
    monkeypatch.setenv("KCLI_CONFIG", str(tmp_path / "missing.toml"))
    assert completers.profile_names(None, "") == []


def test_entity_types() -> None:
    assert completers.entity_types("") == [
        "topics", "clients", "users", "brokers", "ips", "client-metrics", "groups", "broker-loggers",
    ]  # fmt: skip
    assert sorted(completers.entity_types("b")) == ["broker-loggers", "brokers"]
    assert completers.entity_types("x") == []


def test_config_names_follow_the_entity_type() -> None:
    topics = completers.config_keys("topics")
    assert {"retention.ms", "cleanup.policy", "min.insync.replicas"} <= set(topics)
    assert "producer_byte_rate" not in topics
    assert "log.retention.hours" in completers.config_keys("brokers")
    assert set(completers.config_keys("users")) >= {"producer_byte_rate", "SCRAM-SHA-512"}
    assert set(completers.config_keys(None)) >= set(topics) | {"producer_byte_rate"}

    assert completers.config_names(_context(entity_type=["topics"]), "retention.b") == ["retention.bytes"]
    assert completers.config_names(_context(topic="orders"), "min.insync") == ["min.insync.replicas"]
    assert completers.config_names(_context(user="alice"), "producer") == ["producer_byte_rate"]
    # after a comma: the next key, keeping what was typed, not offering a key twice
    after = completers.config_names(_context(entity_type=["topics"]), "retention.ms=1,retention.")
    assert "retention.ms=1,retention.bytes" in after
    assert "retention.ms=1,retention.ms" not in after
    assert completers.config_names(_context(entity_type=["topics"]), "retention.ms=") == []


def test_metadata_shell_words_complete_commands_then_tree_paths() -> None:
    from kcli.cli.main import app

    command = typer.main.get_command(app).commands["metadata-shell"]  # type: ignore[attr-defined]
    ctx = typer.Context(command)
    ctx.params = {"directory": FIXTURE_LOG_DIR, "command": None}
    assert completers.metadata_shell_words(ctx, [], "") == ["cat", "find", "history", "ls", "tree"]
    ctx.params["command"] = ["ls"]
    assert completers.metadata_shell_words(ctx, [], "/") == ["/image/", "/local/"]
    assert completers.metadata_shell_words(ctx, [], "/image/top") == ["/image/topics/"]
    assert completers.metadata_shell_words(ctx, [], "/image/topics/byName/") == [
        "/image/topics/byName/test-topic/"
    ]
    ctx.params["directory"] = Path("/nonexistent")
    assert completers.metadata_shell_words(ctx, [], "/") == []


# ------------------------------------------------------------------ through typer's protocol


def test_profile_completion_through_kcli(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text(PROFILES, encoding="utf-8")
    environ = {"KCLI_CONFIG": str(config)}
    assert complete("kcli cluster-id --profile ", environ=environ) == ["alpha", "beta"]
    assert complete("kcli configs --describe --profile a", environ=environ) == ["alpha"]
    assert complete("kcli metadata-quorum describe --profile b", environ=environ) == ["beta"]


def test_config_and_entity_completion_through_the_protocol() -> None:
    assert complete("kcli configs --entity-type b", probe=True) == ["brokers", "broker-loggers"]
    assert complete("kcli configs --entity-type topics --add-config retention.ms=1,cleanup", probe=True) == [
        "retention.ms=1,cleanup.policy"
    ]
    assert complete("kcli configs --user alice --add-config consumer", probe=True) == ["consumer_byte_rate"]


def test_metadata_shell_completion_through_the_protocol() -> None:
    directory = os.path.relpath(FIXTURE_LOG_DIR, REPO)
    assert complete(f"kcli metadata-shell -d {directory} ", probe=True) == [
        "cat",
        "find",
        "history",
        "ls",
        "tree",
    ]
    assert complete(f"kcli metadata-shell -d {directory} cat /image/features/m", probe=True) == [
        "/image/features/metadataVersion"
    ]
