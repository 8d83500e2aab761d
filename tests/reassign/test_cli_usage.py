"""`kcli reassign-partitions` input errors: one line, exit 2, checked before any connection.

The bootstrap address points at a closed port: had kcli tried to connect, the error would be a
connection failure (exit 1), not the usage error asserted here.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import invoke

NOWHERE = "127.0.0.1:1"


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_help() -> None:
    result = invoke("reassign-partitions", "--help")
    assert result.code == 0
    assert "--reassignment-json-file" in result.stdout and "--strategy" in result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((), "Command must include exactly one action: --generate, --execute, --verify, --cancel, --list"),
        (
            ("--list", "--verify"),
            "Command must include exactly one action: --generate, --execute, --verify, --cancel, --list",
        ),
        (
            ("--verify", "--throttle", "10", "--reassignment-json-file", "x"),
            'Option "[throttle]" can\'t be used with action "[verify]"',
        ),
        (("--list", "--broker-list", "1"), 'Option "[broker-list]" can\'t be used with action "[list]"'),
        (("--execute",), 'Missing required argument "[reassignment-json-file]"'),
        (("--generate", "--broker-list", "1"), 'Missing required argument "[topics-to-move-json-file]"'),
    ],
)
def test_action_rules(args: tuple[str, ...], message: str) -> None:
    result = invoke("reassign-partitions", "--bootstrap-server", NOWHERE, *args)
    assert result.code == 2
    assert result.stderr.strip() == f"Error: {message}"
    assert result.stdout == ""


def test_generate_needs_brokers_not_controllers(tmp_path: Path) -> None:
    topics = write(tmp_path, "t.json", '{"version":1,"topics":[{"topic":"a"}]}')
    result = invoke(
        "reassign-partitions", "--bootstrap-controller", NOWHERE, "--generate",
        "--topics-to-move-json-file", topics, "--broker-list", "1,2",
    )  # fmt: skip
    assert result.code == 2
    assert result.stderr == 'Error: Option "[bootstrap-controller]" can\'t be used with action "[generate]"\n'


def test_controllers_from_a_profile_are_refused_for_generate(tmp_path: Path) -> None:
    topics = write(tmp_path, "t.json", '{"version":1,"topics":[{"topic":"a"}]}')
    result = invoke(
        "reassign-partitions", "--generate", "--topics-to-move-json-file", topics, "--broker-list", "1,2",
        environ={"KCLI_BOOTSTRAP_CONTROLLER": NOWHERE},
    )  # fmt: skip
    assert result.code == 2
    assert "--generate needs broker metadata" in result.stderr
    assert "--bootstrap-controller works only with --list and --cancel" in result.stderr


def test_bad_json_reports_line_and_column(tmp_path: Path) -> None:
    plan = write(tmp_path, "plan.json", '{"version":1,\n"partitions":[{"topic":"a",}]}')
    result = invoke("reassign-partitions", "-b", NOWHERE, "--execute", "--reassignment-json-file", plan)
    assert result.code == 2
    assert result.stderr.count("\n") == 1
    assert f"not a valid JSON: {plan}: line 2, column 28" in result.stderr


@pytest.mark.parametrize(
    ("partitions", "message"),
    [
        (
            '{"topic":"a","partition":0,"replicas":[1,1]}',
            "may not contain duplicate entries: a-0 contains multiple entries for 1.",
        ),
        (
            '{"topic":"a","partition":0,"replicas":[1,2],"log_dirs":["any"]}',
            "is different from size of log dirs list",
        ),
        ("", "Partition reassignment list cannot be empty"),
    ],
)
def test_execute_file_errors_before_connecting(tmp_path: Path, partitions: str, message: str) -> None:
    plan = write(tmp_path, "plan.json", '{"version":1,"partitions":[' + partitions + "]}")
    rollback = tmp_path / "rollback.json"
    result = invoke(
        "reassign-partitions", "-b", NOWHERE, "--execute", "--reassignment-json-file", plan,
        "--rollback-file", str(rollback),
    )  # fmt: skip
    assert result.code == 2
    assert message in result.stderr
    assert not rollback.exists()


def test_duplicate_broker_list(tmp_path: Path) -> None:
    topics = write(tmp_path, "t.json", '{"version":1,"topics":[{"topic":"a"}]}')
    result = invoke(
        "reassign-partitions", "-b", NOWHERE, "--generate", "--topics-to-move-json-file", topics,
        "--broker-list", "1,2,1",
    )  # fmt: skip
    assert result.code == 2
    assert "Broker list contains duplicate entries: [1]" in result.stderr


def test_unknown_strategy(tmp_path: Path) -> None:
    topics = write(tmp_path, "t.json", '{"version":1,"topics":[{"topic":"a"}]}')
    result = invoke(
        "reassign-partitions", "-b", NOWHERE, "--generate", "--topics-to-move-json-file", topics,
        "--broker-list", "1", "--strategy", "fastest",
    )  # fmt: skip
    assert result.code == 2
    assert "--strategy must be one of: original, minimal-movement" in result.stderr


def test_replication_factor_is_a_minimal_movement_option(tmp_path: Path) -> None:
    topics = write(tmp_path, "topics.json", '{"version":1,"topics":[{"topic":"t"}]}')
    line = (
        "--generate",
        "--topics-to-move-json-file",
        topics,
        "--broker-list",
        "1,2,3",
        "--replication-factor",
        "3",
    )
    result = invoke("reassign-partitions", "--bootstrap-server", NOWHERE, *line)
    assert result.code == 2
    assert "--replication-factor needs --strategy minimal-movement" in result.stderr
    verify = invoke("reassign-partitions", "--bootstrap-server", NOWHERE, "--verify",
                    "--reassignment-json-file", topics, "--replication-factor", "3")  # fmt: skip
    assert verify.code == 2
    assert 'Option "[replication-factor]" can\'t be used with action "[verify]"' in verify.stderr


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("1=/data", "--log-dir takes BROKER:DIR with an absolute DIR"),
        ("1:data", "--log-dir takes BROKER:DIR with an absolute DIR"),
        ("9:/data", "--log-dir 9:/data: broker 9 is not in --broker-list"),
    ],
)
def test_log_dir_placements_are_checked_before_connecting(tmp_path: Path, value: str, message: str) -> None:
    topics = write(tmp_path, "topics.json", '{"version":1,"topics":[{"topic":"t"}]}')
    result = invoke("reassign-partitions", "--bootstrap-server", NOWHERE, "--generate",
                    "--topics-to-move-json-file", topics, "--broker-list", "1,2", "--log-dir", value)  # fmt: skip
    assert result.code == 2
    assert message in result.stderr
