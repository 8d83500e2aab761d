from tests.conftest import invoke


def test_version_names_kcli_kio_and_python() -> None:
    result = invoke("--version")
    assert result.code == 0
    assert result.stdout.startswith("kcli 0.1.0 (kio ")
    assert "Python 3." in result.stdout


def test_no_arguments_prints_help() -> None:
    result = invoke()
    assert "Usage" in result.stdout + result.stderr
