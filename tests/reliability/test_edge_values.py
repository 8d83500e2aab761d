"""Bounds and edge values: each is one clear line and a usage error (or an authentication failure),
never minutes of work past every deadline nor "this is a bug in kcli". Time bounds are on the
process's CPU time, which the load of other processes on the machine does not stretch.

Each case is the reproduction of a report: a SCRAM count no Kafka broker would ever store, a
client.id Kafka's protocol cannot carry, a broker id past Java's int, a host label past DNS's 63.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from kcli.client.errors import AuthenticationFailed
from kcli.client.sasl import ScramClient
from tests.conftest import invoke

NOWHERE = ["-b", "127.0.0.1:1"]  # never dialled: every case fails before connecting
BUG = "this is a bug in kcli"


# ---- SCRAM iterations: Kafka's 4096..16384 ----------------------------------------------------------


@pytest.mark.timeout(20)
@pytest.mark.parametrize(
    ("count", "message"),
    [
        ("2000000000", "the server asks 2000000000 iterations, more than the 16384 any Kafka broker stores"),
        ("16385", "the server asks 16385 iterations, more than the 16384 any Kafka broker stores"),
        ("99999999999999999999", "malformed salt or iteration count (99999999999999999999)"),
        ("4095", "iteration count 4095 is below 4096"),
    ],
)
def test_scram_server_first_iterations_are_bounded_before_any_hashing(count: str, message: str) -> None:
    """A server-first message with i=2000000000 ran PBKDF2 for 20+ minutes on the event loop."""
    client = ScramClient("SCRAM-SHA-512", "alice", "pw", client_nonce="abc")
    client.first_message()
    started = time.process_time()
    with pytest.raises(AuthenticationFailed) as raised:
        client.final_message(f"r=abcdef,s=c2FsdA==,i={count}".encode())
    assert str(raised.value) == f"SCRAM authentication failed: {message}"
    assert time.process_time() - started < 1


def test_scram_server_first_at_the_maximum_is_computed() -> None:
    client = ScramClient("SCRAM-SHA-256", "alice", "pw", client_nonce="abc")
    client.first_message()
    assert client.final_message(b"r=abcdef,s=c2FsdA==,i=16384").startswith(b"c=biws,r=abcdef,p=")


@pytest.mark.timeout(20)
@pytest.mark.parametrize(
    ("iterations", "line"),
    [
        (
            "2000000000",
            "Iterations 2000000000 is more than the maximum 16384 Kafka's controllers accept for "
            "SCRAM-SHA-256 (they answer UNACCEPTABLE_CREDENTIAL 'Too many iterations')",
        ),
        (
            "99999999999999999999",
            "Invalid SCRAM iterations for SCRAM-SHA-256: 99999999999999999999 "
            "(give a whole number from 4096 to 16384)",
        ),
        (
            "4095",
            "Iterations 4095 is less than the minimum 4096 required for SCRAM-SHA-256",
        ),
    ],
)
def test_add_config_scram_iterations_are_bounded_before_any_hashing(iterations: str, line: str) -> None:
    """`--add-config SCRAM-SHA-256=[iterations=2000000000,...]` hashed for minutes before the
    broker refused it; a 20-digit count was "unexpected OverflowError"."""
    started = time.process_time()
    result = invoke(
        "configs", *NOWHERE, "--alter", "--entity-type", "users", "--entity-name", "alice",
        "--add-config", f"SCRAM-SHA-256=[iterations={iterations},password=alice-secret]",
    )  # fmt: skip
    assert (result.code, result.stderr) == (2, f"Error: {line}\n")
    assert time.process_time() - started < 5


# ---- edge values: usage errors, not "this is a bug in kcli" -----------------------------------------


def _properties(tmp_path: Path, text: str) -> str:
    path = tmp_path / "client.properties"
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_a_client_id_over_32767_bytes_is_a_usage_error(tmp_path: Path) -> None:
    """Every request header carries client.id with an int16 length: 40,000 bytes was a struct.error."""
    config = _properties(tmp_path, "client.id=" + "x" * 40000 + "\n")
    result = invoke("cluster-id", *NOWHERE, "--command-config", config)
    assert (result.code, result.stderr) == (
        2,
        "Error: client.id is 40000 bytes long, over the 32767 bytes Kafka's protocol carries for it "
        f"(set by --command-config {config})\n",
    )


def test_a_client_id_of_32767_bytes_is_taken(tmp_path: Path) -> None:
    from kcli.client.config_defs import parse_setting

    assert parse_setting("client.id", "é" * 16383 + "x") == "é" * 16383 + "x"  # 32767 UTF-8 bytes


@pytest.mark.parametrize(
    ("source", "text"),
    [("--command-config", "client.id=ab\\uDCED\n"), ("environment variable KCLI_CLIENT_ID", None)],
)
def test_a_lone_surrogate_in_a_client_setting_is_a_usage_error(
    tmp_path: Path, source: str, text: str | None
) -> None:
    """`client.id=\\uD800` in a .properties file was "unexpected UnicodeEncodeError"."""
    if text is None:
        result = invoke("cluster-id", *NOWHERE, environ={"KCLI_CLIENT_ID": "ab\udced"})  # byte 0xED
    else:
        config = _properties(tmp_path, text)
        source = f"--command-config {config}"
        result = invoke("cluster-id", *NOWHERE, "--command-config", config)
    assert (result.code, result.stderr) == (
        2,
        "Error: client.id holds a lone surrogate (U+DCED at character 3), which is not Unicode text "
        f"(set by {source})\n",
    )


@pytest.mark.parametrize(
    ("document", "where"),
    [
        (
            '{"version":1,"partitions":[{"topic":"\\ud800","partition":0,"replicas":[1]}]}',
            "partitions[0].topic",
        ),
        (
            '{"version":1,"partitions":[{"topic":"t","partition":0,"replicas":[1],"log_dirs":["/d\\udfff"]}]}',
            "partitions[0].log_dirs[0]",
        ),
    ],
)
@pytest.mark.parametrize("action", ["--execute", "--verify"])
def test_a_lone_surrogate_in_reassignment_json_is_a_usage_error(
    tmp_path: Path, document: str, where: str, action: str
) -> None:
    path = tmp_path / "move.json"
    path.write_text(document)
    result = invoke("reassign-partitions", *NOWHERE, "--reassignment-json-file", str(path), action)
    assert (result.code, result.stderr) == (
        2,
        f"Error: Invalid JSON in {path}: {where} holds a lone surrogate "
        f"(U+{'D800' if 'ud800' in document else 'DFFF'} at character {1 if 'ud800' in document else 3}), "
        "which is not Unicode text\n",
    )


def test_an_escaped_surrogate_pair_is_one_character_and_taken() -> None:
    from kcli.ops.reassign.json_format import parse_reassignment

    parsed = parse_reassignment('{"partitions":[{"topic":"t\\ud83d\\ude00","partition":0,"replicas":[1]}]}')
    assert parsed.topics == ["t\U0001f600"]


def test_a_lone_surrogate_in_an_acl_import_is_a_usage_error(tmp_path: Path) -> None:
    path = tmp_path / "acls.json"
    path.write_text(
        '{"version":1,"acls":[{"resourceType":"TOPIC","name":"t","patternType":"LITERAL",'
        '"principal":"User:\\udc00","host":"*","operation":"READ","permissionType":"ALLOW"}]}'
    )
    result = invoke("acls", *NOWHERE, "--import", str(path))
    assert (result.code, result.stderr) == (
        2,
        f"Error: {path}: acls[0].principal holds a lone surrogate (U+DC00 at character 6), "
        "which is not Unicode text\n",
    )


@pytest.mark.parametrize(
    "argv",
    [
        ["cluster", "unregister", "--id", "99999999999"],
        ["cluster", "unregister-controller", "--id", "-99999999999"],
        [
            "metadata-quorum",
            "remove-controller",
            "--controller-id",
            "99999999999",
            "--controller-directory-id",
            "AAAAAAAAAAAAAAAAAAAAAA",
        ],
        ["features", "describe", "--node-id", "2147483648"],
    ],
    ids=["unregister", "unregister-controller", "remove-controller", "features"],
)
def test_a_node_id_past_java_int_is_a_usage_error_in_kafkas_words(argv: list[str]) -> None:
    """`cluster unregister --id 99999999999` was "unexpected error: 'i' format requires ..."."""
    flag, value = argv[2], argv[3]
    short = {"--id": "--id/-i", "--controller-id": "--controller-id/-i"}.get(flag, flag)
    where = ["metadata-quorum", *NOWHERE, *argv[1:]] if argv[0] == "metadata-quorum" else [*argv, *NOWHERE]
    result = invoke(*where)
    assert (result.code, result.stderr) == (
        2,
        f"Error: argument {short}: could not convert '{value}' to Integer (For input string: \"{value}\")\n",
    )


@pytest.mark.parametrize(
    ("host", "problem"),
    [
        ("a" * 300, "has a label of 300 characters; DNS allows 63"),
        ("a." * 130 + "b", "is 261 characters long; DNS allows 253"),
        ("a..b", "is not a host name DNS can look up (an empty label or characters IDNA refuses)"),
    ],
    ids=["300-character label", "261-character name", "empty label"],
)
def test_a_host_dns_cannot_look_up_is_a_usage_error(host: str, problem: str) -> None:
    """A 300-character host label was "unexpected UnicodeError: encoding with 'idna' codec failed"."""
    result = invoke("cluster-id", "-b", f"{host}:9092")
    shown = host if len(host) <= 40 else host[:40] + "..."
    item = f"{host}:9092" if len(host) + 5 <= 40 else f"{host}:9092"[:40] + "..."
    assert (result.code, result.stderr) == (
        2,
        f"Error: --bootstrap-server: host {shown!r} in {item!r} {problem}\n",
    )


def test_an_advertised_host_dns_cannot_look_up_is_a_connection_error() -> None:
    """A broker advertising such a host: that node cannot be reached, said in one line."""
    import asyncio

    from kcli.client.config import ClientConfig
    from kcli.client.connection import Connection
    from kcli.client.endpoints import Endpoint
    from kcli.client.errors import ConnectionFailed
    from kcli.kafka import EndpointType

    endpoint = Endpoint(host="b" * 70 + ".example", port=9092)
    config = ClientConfig(bootstrap=(endpoint,), endpoint_type=EndpointType.BROKERS)
    with pytest.raises(ConnectionFailed) as raised:
        asyncio.run(
            Connection._connect(
                endpoint, config=config, deadline=time.monotonic() + 5, node_id=1, ssl_context=None
            )
        )
    assert str(raised.value).endswith("the host has a label of 70 characters; DNS allows 63")


def test_a_request_no_kafka_field_can_carry_is_a_usage_error_before_sending() -> None:
    """The last line behind every input check: the request is never sent."""
    from kio.schema.delete_topics.v6.request import DeleteTopicsRequest, DeleteTopicState
    from kio.static.primitive import i32

    from kcli.client.connection import _encoded
    from kcli.errors import UsageError

    request = DeleteTopicsRequest(topics=(DeleteTopicState(name="\udc80", topic_id=None),), timeout=i32(1))
    with pytest.raises(UsageError) as raised:
        _encoded(request, 1, "kcli", "DeleteTopics v6")
    assert raised.value.line() == (
        "the DeleteTopics v6 request cannot be encoded: a value holds U+DC80, a lone surrogate, which is "
        "not Unicode text (nothing was sent; give a value Kafka's protocol can carry)"
    )


# ---- deep, odd and big inputs: linear time, one line ------------------------------------------------


def _config(tmp_path: Path, text: str) -> dict[str, str]:
    path = tmp_path / "kcli.toml"
    path.write_text(text)
    path.chmod(0o600)
    return {"KCLI_CONFIG": str(path)}


def test_a_deeply_nested_profile_table_is_read(tmp_path: Path) -> None:
    """`[profiles.p.a.a.a...]` 3,000 deep is valid TOML: every command was "unexpected RecursionError"."""
    deep = "[profiles.p." + ".".join(["a"] * 3000) + "]\nx = 1\n"
    environ = _config(tmp_path, '[profiles.p]\n"bootstrap.servers" = "127.0.0.1:1"\n' + deep)
    result = invoke("profile", "show", "p", environ=environ)
    assert result.code == 0, result.stderr
    assert "bootstrap.servers=127.0.0.1:1" in result.lines
    assert any(line.startswith("a.a.a.") and line.endswith(".x=1") for line in result.lines)
    edited = invoke("profile", "add", "q", "--set", "bootstrap.servers=127.0.0.1:2", environ=environ)
    assert edited.code == 2 and edited.stderr.startswith(
        f"Error: cannot edit config file {environ['KCLI_CONFIG']}: "
    )
    assert edited.stderr.count("\n") == 1


@pytest.mark.parametrize(
    "command", [["profile", "add", "x", "--set", "bootstrap.servers=h:1"], ["profile", "use", "x"]]
)
def test_profiles_that_is_not_a_table_is_one_usage_error(tmp_path: Path, command: list[str]) -> None:
    """`profiles = "nope"` made `profile add` "unexpected TypeError: 'String' object does not support
    item assignment"; the file is left as it was."""
    environ = _config(tmp_path, 'profiles = "nope"\n')
    result = invoke(*command, environ=environ)
    assert (result.code, result.stderr) == (
        2,
        f"Error: {environ['KCLI_CONFIG']}: `profiles` must be a table of tables ([profiles.NAME])\n",
    )
    assert Path(environ["KCLI_CONFIG"]).read_text() == 'profiles = "nope"\n'


@pytest.mark.timeout(60)
def test_a_2_mb_metadata_shell_script_line_is_split_in_linear_time(tmp_path: Path) -> None:
    """shlex built each word a character at a time: a 2 MB script line took minutes."""
    from tests.shell.conftest import write_small_log

    write_small_log(tmp_path / "node")
    started = time.process_time()
    script = "ls /image/topics/byName\nls " + "x" * 2_000_000 + "\nls '" + "y " * 500_000 + "'\n"
    result = invoke("metadata-shell", "--directory", str(tmp_path / "node"), input=script)
    assert time.process_time() - started < 20
    assert {"orders", "payments"} <= set(result.lines)
    assert result.stderr.count("no such file or directory") == 2


def test_split_line_is_shlex_word_for_word() -> None:
    """The linear splitter gives Python's shlex words (posix, whitespace_split, no escapes, no comments)."""
    import shlex

    from hypothesis import given, settings
    from hypothesis import strategies as st

    from kcli.shell.commands import split_line

    def reference(line: str) -> list[str] | str:
        lexer = shlex.shlex(line, posix=True, punctuation_chars=False)
        lexer.whitespace_split, lexer.escape, lexer.commenters = True, "", ""
        try:
            return list(lexer)
        except ValueError as error:
            return str(error)

    def ours(line: str) -> list[str] | str:
        try:
            return split_line(line)
        except ValueError as error:
            return str(error)

    @settings(max_examples=400, deadline=None)
    @given(st.text(alphabet=" \t\r\n'\"ab\\#*;é\x0b", max_size=30))
    def same(line: str) -> None:
        assert ours(line) == reference(line)

    same()


@pytest.mark.timeout(60)
def test_200k_repeated_topics_to_move_are_checked_in_linear_time(tmp_path: Path) -> None:
    """A topics-to-move file repeating a topic was checked with list.count per entry (200k > 60 s)."""
    import json

    path = tmp_path / "topics.json"
    path.write_text(
        json.dumps({"version": 1, "topics": [{"topic": f"t{i % 100_000}"} for i in range(200_000)]})
    )
    started = time.process_time()
    result = invoke(
        "reassign-partitions",
        *NOWHERE,
        "--topics-to-move-json-file",
        str(path),
        "--broker-list",
        "1",
        "--generate",
    )
    assert time.process_time() - started < 20
    assert result.code == 2
    assert result.stderr.startswith(
        "Error: List of topics to reassign contains duplicate entries: [t0, t1, t10, "
    )
