"""`kcli acls` flag handling through the CLI: usage errors exit 2 with one line, before any network."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import invoke

NOWHERE = ("-b", "127.0.0.1:9")


def test_help() -> None:
    result = invoke("acls", "--help")
    assert result.code == 0
    for flag in (
        "--add",
        "--remove",
        "--list",
        "--producer",
        "--consumer",
        "--idempotent",
        "--export",
        "--import",
        "--prune",
    ):
        assert flag in result.stdout


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (("--topic", "t"), "exactly one action: --list, --add, --remove"),
        (("--list", "--export", "f.json"), "exactly one action"),
        (
            ("--list", "--allow-principal", "User:a"),
            'Option "[list]" can\'t be used with option "[allow-principal]"',
        ),
        (
            ("--add", "--producer", "--topic", "t", "--operation", "Read"),
            'Option "[producer]" can\'t be used with option "[operation]"',
        ),
        (("--add", "--consumer", "--topic", "t"), "With --consumer you must specify a --topic and a --group"),
        (
            ("--add", "--idempotent", "--topic", "t"),
            "The --idempotent option is only available if --producer is set",
        ),
        (("--add", "--producer"), "With --producer you must specify a --topic"),
        (("--add", "--topic", "t"), "You must specify one of: --allow-principal, --deny-principal"),
        (("--add", "--allow-principal", "User:a"), "You must provide at least one resource"),
        (
            ("--add", "--allow-principal", "alice", "--topic", "t"),
            "principalType:principalName but got alice",
        ),
        (
            ("--add", "--allow-principal", "User:a", "--topic", "t", "--operation", "Fly"),
            "Invalid operation 'Fly'",
        ),
        (
            ("--add", "--allow-principal", "User:a", "--group", "g", "--operation", "Write"),
            "ResourceType GROUP only supports operations",
        ),
        (
            ("--add", "--allow-principal", "User:a", "--topic", "t", "--resource-pattern-type", "any"),
            "'ANY' is not valid when adding acls",
        ),
        (("--remove", "--topic", "t", "--principal", "User:a"), "only available if --list"),
        (("--list", "--prune"), '"--prune" can only be used with "--import"'),
        (("--list", "--dry-run"), 'can\'t be used with option "--dry-run"'),
        (
            ("--export", "-", "--allow-principal", "User:a"),
            'Option "--export" can\'t be used with option "--allow-principal"',
        ),
    ],
)
def test_usage_errors_exit_2_with_one_line(args: tuple[str, ...], fragment: str) -> None:
    result = invoke("acls", *NOWHERE, *args)
    assert result.code == 2, (result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert fragment in lines[0]


def test_import_file_errors_name_the_entry(tmp_path: Path) -> None:
    path = tmp_path / "acls.json"
    path.write_text('{"version": 1, "acls": [{"resourceType": "TOPIC"}]}')
    result = invoke("acls", *NOWHERE, "--import", str(path))
    assert result.code == 2
    assert f"{path}: acls[0]" in result.stderr
    missing = invoke("acls", *NOWHERE, "--import", str(tmp_path / "none.json"))
    assert missing.code == 2
