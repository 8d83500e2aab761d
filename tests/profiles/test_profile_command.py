"""`kcli profile` against real config files: edits keep comments, secrets stay hidden and private."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from tests.conftest import invoke

EXISTING = """\
# fleet profiles, reviewed by ops
default_profile = "prod"  # the one runbooks use

[profiles.prod]
# primary region
bootstrap.servers = "k1:9092,k2:9092"
security.protocol = "SASL_SSL"
"""


def run(path: Path, *args: str, **environ: str):
    return invoke(*args, environ={"KCLI_CONFIG": str(path), **environ})


def test_add_keeps_comments_and_layout_of_the_rest(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text(EXISTING)
    result = run(path, "profile", "add", "staging", "-b", "s1:9092", "--set", "client.id=ops")
    assert result.code == 0, result.stderr
    text = path.read_text()
    assert text.startswith(EXISTING)
    assert "[profiles.staging]" in text and '"s1:9092"' in text


def test_list_marks_default_and_use_switches_it(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text(EXISTING)
    assert run(path, "profile", "add", "dr", "-C", "c1:9093").code == 0
    assert run(path, "profile", "list").lines == [
        "  dr  bootstrap.controllers=c1:9093",
        "* prod  bootstrap.servers=k1:9092,k2:9092",
    ]
    assert run(path, "profile", "use", "dr").code == 0
    listed = run(path, "profile", "list", "-o", "json").json
    assert [(p["name"], p["default"]) for p in listed] == [("dr", True), ("prod", False)]
    assert listed[0]["bootstrap_controllers"] == "c1:9093" and listed[0]["bootstrap_servers"] is None
    assert listed[1]["bootstrap_servers"] == "k1:9092,k2:9092"
    assert "# fleet profiles, reviewed by ops" in path.read_text()


def test_show_hides_secrets_but_not_references(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    result = run(
        path,
        "profile",
        "add",
        "sec",
        "-b",
        "k:9092",
        "--set",
        "sasl.password=hunter2-secret",
        "--set",
        "ssl.keystore.key=${file:/etc/kafka/key.pem}",
    )
    assert result.code == 0, result.stderr
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    shown = run(path, "profile", "show", "sec")
    assert "hunter2-secret" not in shown.stdout + shown.stderr
    assert "sasl.password=[hidden]" in shown.lines
    assert "ssl.keystore.key=${file:/etc/kafka/key.pem}" in shown.lines


def test_world_readable_file_with_a_clear_secret_warns(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('[profiles.default]\nbootstrap.servers = "k:9092"\nsasl.password = "hunter2"\n')
    os.chmod(path, 0o644)
    shown = run(path, "profile", "show")
    assert shown.code == 0
    assert "readable by other users" in shown.stderr and "chmod 600" in shown.stderr
    assert "hunter2" not in shown.stdout + shown.stderr


def test_env_reference_resolves_when_connecting_and_missing_variable_is_a_usage_error(tmp_path: Path) -> None:
    from kcli.client.config import resolve_client_config

    path = tmp_path / "config.toml"
    path.write_text(
        '[profiles.default]\nbootstrap.servers = "k:9092"\nsecurity.protocol = "SASL_SSL"\n'
        'sasl.mechanism = "SCRAM-SHA-512"\nsasl.username = "ops"\nsasl.password = "${env:KAFKA_PW}"\n'
    )
    os.chmod(path, 0o600)
    warnings: list[str] = []
    config = resolve_client_config(
        bootstrap_server=None,
        bootstrap_controller=None,
        command_config=None,
        profile=None,
        environ={"KAFKA_PW": "from-env"},
        config_file=path,
        warn=warnings.append,
    )
    assert config.sasl is not None and config.sasl.password == "from-env"
    assert warnings == []
    import pytest

    from kcli.errors import UsageError

    with pytest.raises(UsageError, match="KAFKA_PW, which is not set"):
        resolve_client_config(
            bootstrap_server=None,
            bootstrap_controller=None,
            command_config=None,
            profile=None,
            environ={},
            config_file=path,
            warn=warnings.append,
        )


def test_file_reference_reads_whole_file_or_one_key(tmp_path: Path) -> None:
    from kcli.client.secret_refs import resolve_references

    (tmp_path / "pw").write_text("s3cret\n")
    (tmp_path / "creds.properties").write_text("password = other\n")
    resolved = resolve_references(
        {
            "a": f"${{file:{tmp_path}/pw}}",
            "b": f"${{file:{tmp_path}/creds.properties:password}}",
            "c": "plain",
        },
        environ={},
        source="test",
    )
    assert resolved == {"a": "s3cret", "b": "other", "c": "plain"}


def test_bad_input_is_one_line_and_exit_2(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text(EXISTING)
    for args in (
        ("profile", "add", "prod", "-b", "x:1"),  # exists
        ("profile", "add", "bad name", "-b", "x:1"),
        ("profile", "add", "p2", "--set", "novalue"),
        ("profile", "use", "nope"),
    ):
        result = run(path, *args)
        assert result.code == 2, args
        assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    path.write_text("[profiles\n")
    broken = run(path, "profile", "list")
    assert broken.code == 2 and "not valid TOML" in broken.stderr


def test_add_warns_at_once_about_a_setting_kcli_does_not_know(tmp_path: Path) -> None:
    """A typo in --set would otherwise be saved quietly and only warned about on every later run."""
    path = tmp_path / "config.toml"
    result = run(path, "profile", "add", "p", "-b", "k1:9092", "--set", "request.timout.ms=5000")
    assert result.code == 0, result.stderr
    assert result.stderr.splitlines() == [
        "Warning: 'request.timout.ms' is not a known client setting; kcli ignores it "
        "(did you mean 'request.timeout.ms'?)"
    ]
    known = run(path, "profile", "add", "q", "-b", "k1:9092", "--set", "client.dns.lookup=use_all_dns_ips")
    assert known.code == 0 and known.stderr == ""
