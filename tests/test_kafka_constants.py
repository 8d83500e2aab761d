"""Kafka's codes have one home: kio's ErrorCode, and kcli/kafka.py for what kio has no enum of.

The scan fails on an integer literal assigned to a name that is a Kafka error or API name, compared
with an `error_code`, or given as the API key of a sandbox handler or an Admin call, anywhere in kcli
outside the homes. kcli/metadata is not scanned yet: its record codes move to the generated
schemas in a later step.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from kio.schema.errors import ErrorCode
from kio.schema.index import api_key_map

from kcli.client.errors import code_of, error_info
from kcli.kafka import ApiKey, read_uvarint, read_varint, write_uvarint, write_varint

KCLI = Path(__file__).resolve().parents[1] / "kcli"
HOMES = {"kafka.py", "client/errors.py"}
NOT_YET = ("metadata/", "client/protocol/", "bounds.py", "sandbox/fastcodec.py")
ERROR_NAMES = {code.name.upper() for code in ErrorCode}
API_NAMES = {name.upper() for name in api_key_map.values()}
KEY_TAKERS = {"api", "call", "version_for"}  # functions whose first argument is an API key


def _kafka_name(name: str) -> bool:
    bare = name.lstrip("_").removesuffix("_KEY")
    return bare in ERROR_NAMES or bare in API_NAMES


def _int_literal(node: ast.AST) -> bool:
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        node = node.operand
    return isinstance(node, ast.Constant) and type(node.value) is int


# Fields whose values are Kafka codes: compared with, or given as, a number they are hand-written codes.
CODE_FIELDS = {
    "error_code",
    "endpoint_type",
    "resource_type",
    "pattern_type",
    "permission_type",
    "match_type",
}


def _is_error_code(node: ast.AST) -> bool:
    return (isinstance(node, ast.Attribute) and node.attr in CODE_FIELDS) or (
        isinstance(node, ast.Name) and node.id in CODE_FIELDS
    )


def offences(source: str, where: str) -> list[str]:
    """Every hand-written Kafka error or API code in `source`."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                pairs: list[tuple[ast.AST, ast.AST]] = [(target, node.value)]
                if isinstance(target, ast.Tuple) and isinstance(node.value, ast.Tuple):
                    pairs = list(zip(target.elts, node.value.elts, strict=False))
                for name, value in pairs:
                    if isinstance(name, ast.Name) and _kafka_name(name.id) and _int_literal(value):
                        found.append(f"{where}:{node.lineno} {name.id} = {ast.unparse(value)}")
        elif isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            if any(_is_error_code(side) for side in sides):
                literals = [
                    item
                    for side in sides
                    for item in (side.elts if isinstance(side, ast.Tuple | ast.Set | ast.List) else [side])
                    if _int_literal(item) and ast.literal_eval(item) != 0
                ]
                if literals:
                    found.append(f"{where}:{node.lineno} {ast.unparse(node)}")
        elif isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if name in KEY_TAKERS and node.args and _int_literal(node.args[0]):
                found.append(f"{where}:{node.lineno} {ast.unparse(node)}")
            for keyword in node.keywords:
                if keyword.arg in CODE_FIELDS - {"error_code"} and _int_literal(keyword.value):
                    found.append(f"{where}:{node.lineno} {keyword.arg}={ast.unparse(keyword.value)}")
    return found


def scanned() -> list[Path]:
    paths = []
    for path in sorted(KCLI.rglob("*.py")):
        relative = path.relative_to(KCLI).as_posix()
        if relative not in HOMES and not relative.startswith(NOT_YET):
            paths.append(path)
    return paths


def test_no_kafka_code_is_written_as_a_number_outside_its_home() -> None:
    found = [
        hit
        for path in scanned()
        for hit in offences(path.read_text(encoding="utf-8"), path.relative_to(KCLI).as_posix())
    ]
    assert found == []


@pytest.mark.parametrize(
    "source",
    [
        "INVALID_REQUEST = 42",
        "CLUSTER_AUTHORIZATION_FAILED, INVALID_REQUEST = 31, 42",
        "_DESCRIBE_CLUSTER: int = 60",
        "API_VERSIONS_KEY = 18",
        "if response.error_code == 41: pass",
        "ok = error_code in (3, 100)",
        "@api(81, (0, 0))\ndef handle(): pass",
        "admin.call(32, build)",
        "make(cls, endpoint_type=1)",
        "label = 'controller' if admin.endpoint_type == 2 else 'broker'",
        "if acl.resource_type in (2, 3): pass",
    ],
)
def test_the_scan_finds_a_hand_written_code(source: str) -> None:
    assert offences(source, "example.py") != []


@pytest.mark.parametrize(
    "source",
    [
        "RECORD_BYTES = 1024",
        "if response.error_code != 0: pass",
        'INVALID_REQUEST = code_of("INVALID_REQUEST")',
        "@api(ApiKey.REMOVE_RAFT_VOTER, (0, 0))\ndef handle(): pass",
    ],
)
def test_the_scan_leaves_other_numbers_alone(source: str) -> None:
    assert offences(source, "example.py") == []


def test_api_keys_are_kios_keys_and_names() -> None:
    assert {int(key): key.name.lower() for key in ApiKey} == dict(api_key_map)


def test_code_of_names_every_error_kio_knows_and_refuses_a_typo() -> None:
    for code in ErrorCode:
        assert code_of(code.name.upper()) == int(code)
        assert error_info(int(code)).name == code.name.upper()
    with pytest.raises(ValueError, match="INVALID_REQUST"):
        code_of("INVALID_REQUST")


@pytest.mark.parametrize("value", [0, 1, 127, 128, 300, 2**31 - 1, 2**63 - 1])
def test_uvarints_round_trip(value: int) -> None:
    data = write_uvarint(value)
    assert read_uvarint(b"\xff" + data, 1) == (value, len(data))


@pytest.mark.parametrize("value", [0, -1, 1, -64, 64, -(2**31), 2**31 - 1, -(2**63), 2**63 - 1])
def test_varints_round_trip_zigzag(value: int) -> None:
    data = write_varint(value)
    assert read_varint(data, 0) == (value, len(data))
    assert write_varint(-1) == b"\x01" and write_varint(1) == b"\x02"


def test_a_truncated_or_overlong_varint_is_refused_with_its_offset() -> None:
    from kcli.kafka import VarintError

    with pytest.raises(VarintError, match="byte 2"):
        read_uvarint(b"\x00\x00\x80\x80", 2)
    with pytest.raises(VarintError, match="longer than 10 bytes"):
        read_uvarint(b"\xff" * 11, 0)
