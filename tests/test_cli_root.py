from tests.conftest import invoke

# `kcli --version`: tests/release/test_metadata.py


def test_no_arguments_prints_help() -> None:
    result = invoke()
    assert "Usage" in result.stdout + result.stderr
