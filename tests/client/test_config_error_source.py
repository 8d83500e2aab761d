"""A bad client setting is reported with where it came from: environment variable, file or profile."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import invoke


def test_bad_environment_value_names_the_variable() -> None:
    result = invoke("cluster-id", "-b", "127.0.0.1:9", environ={"KCLI_SECURITY_PROTOCOL": "plain"})
    assert result.code == 2
    assert result.stderr.strip().endswith("(set by environment variable KCLI_SECURITY_PROTOCOL)")


def test_bad_command_config_value_names_the_file(tmp_path: Path) -> None:
    config = tmp_path / "client.properties"
    config.write_text("request.timeout.ms=soon\n")
    result = invoke("cluster-id", "-b", "127.0.0.1:9", "--command-config", str(config))
    assert result.code == 2
    assert f"(set by --command-config {config})" in result.stderr


def test_bad_profile_value_names_the_profile(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text(
        '[profiles.default]\nbootstrap.servers = "k:9092"\nmetadata.recovery.strategy = "sometimes"\n'
    )
    result = invoke("cluster-id", environ={"KCLI_CONFIG": str(path)})
    assert result.code == 2
    assert "(set by profile 'default' in" in result.stderr


def test_missing_command_config_from_the_environment_names_the_variable() -> None:
    result = invoke(
        "cluster-id", "-b", "127.0.0.1:9", environ={"KCLI_COMMAND_CONFIG": "/nonexistent.properties"}
    )
    assert result.code == 2
    assert result.stderr.strip().endswith("(from KCLI_COMMAND_CONFIG)")


def test_a_bad_flag_value_is_not_blamed_on_another_source() -> None:
    result = invoke("cluster-id", "-b", "not-an-address")
    assert result.code == 2
    assert "set by" not in result.stderr
