"""Operator input fuzzing: .properties, TOML profiles, --add-config, ACL options, reassignment and ACL JSON.

Every input ends in a value or a KcliError (UsageError: one line, exit 2); never another exception.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kcli.client.config import resolve_client_config
from kcli.client.toml_profiles import load_profiles
from kcli.errors import KcliError
from kcli.ops import acls
from kcli.ops.config_spec import parse_add_config
from kcli.ops.reassign.json_format import parse_broker_list, parse_reassignment, parse_topics_to_move
from kcli.properties import parse_properties

FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
PUNCTUATION = st.sampled_from([*list("=:,[]{}\\\"'#!. \t\n\r-_;@*/"), "\\u00e9", "\\u", "é", "\x00"])
TEXTISH = st.lists(st.one_of(PUNCTUATION, st.text(max_size=6)), max_size=30).map("".join)

CLIENT_KEYS = (
    "bootstrap.servers",
    "bootstrap.controllers",
    "security.protocol",
    "sasl.mechanism",
    "sasl.jaas.config",
    "sasl.username",
    "sasl.password",
    "ssl.truststore.location",
    "ssl.truststore.type",
    "ssl.truststore.certificates",
    "ssl.keystore.location",
    "ssl.keystore.type",
    "ssl.key.password",
    "ssl.endpoint.identification.algorithm",
    "request.timeout.ms",
    "default.api.timeout.ms",
    "retry.backoff.ms",
    "retry.backoff.max.ms",
    "socket.connection.setup.timeout.ms",
    "metadata.recovery.strategy",
    "metadata.recovery.rebootstrap.trigger.ms",
    "metadata.cluster.check.enable",
    "client.id",
)


def _resolve(command_config: Path | None, config_file: Path) -> Any:
    return resolve_client_config(
        bootstrap_server=None,
        bootstrap_controller=None,
        command_config=command_config,
        profile=None,
        environ={},
        config_file=config_file,
        warn=lambda message: None,
    )


@FUZZ
@given(st.one_of(st.text(), TEXTISH))
def test_properties_text_always_parses(text: str) -> None:
    parsed = parse_properties(text)
    assert all(isinstance(k, str) and isinstance(v, str) for k, v in parsed.items())


@FUZZ
@given(st.dictionaries(st.sampled_from(CLIENT_KEYS), st.one_of(TEXTISH, st.integers().map(str)), max_size=8))
def test_client_settings_resolve_or_raise_usage_error(
    tmp_path_factory: pytest.TempPathFactory, values: dict[str, str]
) -> None:
    path = tmp_path_factory.mktemp("props") / "client.properties"
    lines = [f"{key}={value}".replace("\n", "\\n").replace("\r", "") for key, value in values.items()]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    try:
        config = _resolve(path, Path("/nonexistent/kcli.toml"))
    except KcliError as error:
        assert error.line().strip() and "\n" not in error.line().strip(), error.line()
        return
    assert config.bootstrap


TOML_VALUES = st.one_of(
    st.integers(),
    st.booleans(),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=10).map(json.dumps),
    st.just("[1, 2]"),
    st.just("{ a = 1 }"),
    st.just("1979-05-27T07:32:00Z"),
)


@st.composite
def toml_documents(draw: st.DrawFn) -> str:
    if draw(st.booleans()):
        return draw(st.one_of(st.text(), TEXTISH))
    lines = []
    for _ in range(draw(st.integers(0, 4))):
        header = draw(
            st.sampled_from(["[profiles.{}]", "[{}]", "[profiles]", "[[profiles.{}]]", "profiles = {}"])
        )
        lines.append(header.format(draw(st.from_regex(r"[a-z][a-z0-9_-]{0,8}", fullmatch=True))))
        for _ in range(draw(st.integers(0, 4))):
            key = draw(st.sampled_from([*CLIENT_KEYS, "default", "x.y.z", '"quoted.key"']))
            lines.append(f"{key} = {draw(TOML_VALUES)}")
    return "\n".join(lines)


@FUZZ
@given(toml_documents())
def test_toml_profiles_load_or_raise_usage_error(tmp_path_factory: pytest.TempPathFactory, text: str) -> None:
    path = tmp_path_factory.mktemp("toml") / "kcli.toml"
    path.write_text(text, encoding="utf-8")
    try:
        profiles = load_profiles(path)
    except KcliError:
        return
    assert all(isinstance(v, dict) for v in profiles.values())


ADD_CONFIG = st.lists(
    st.one_of(st.sampled_from(list("=,[] ")), st.text(alphabet="abc.-_01=,[]", max_size=5)), max_size=20
).map("".join)


@FUZZ
@given(st.one_of(ADD_CONFIG, st.text()))
def test_add_config_specs_parse_or_raise_usage_error(text: str) -> None:
    try:
        parsed = parse_add_config(text)
    except KcliError as error:
        assert error.line()
        return
    assert all(key and key == key.strip() for key in parsed)


NAMES = st.lists(st.one_of(st.text(max_size=8), st.sampled_from(["*", "", "a*", "User:*", ":"])), max_size=2)
PRINCIPALS = st.lists(
    st.one_of(st.text(max_size=10), st.sampled_from(["User:alice", "User:*", "Group:x", "alice", "User:"])),
    max_size=2,
)
OPERATIONS = st.lists(
    st.one_of(
        st.sampled_from(["Read", "Write", "All", "Describe", "alter", "IdempotentWrite", "Bogus"]),
        st.text(max_size=6),
    ),
    max_size=3,
)


@st.composite
def acl_options(draw: st.DrawFn) -> acls.AclOptions:
    action = draw(st.sampled_from(["add", "remove", "list", "none", "two"]))
    return acls.AclOptions(
        add=action in ("add", "two"),
        remove=action in ("remove", "two"),
        list=action == "list",
        topics=draw(NAMES),
        groups=draw(NAMES),
        cluster=draw(st.booleans()),
        transactional_ids=draw(NAMES),
        delegation_tokens=draw(NAMES),
        user_principals=draw(PRINCIPALS),
        pattern_type=draw(
            st.one_of(
                st.none(), st.sampled_from(["literal", "PREFIXED", "match", "any", "x"]), st.text(max_size=5)
            )
        ),
        operations=draw(OPERATIONS),
        allow_principals=draw(PRINCIPALS),
        deny_principals=draw(PRINCIPALS),
        allow_hosts=draw(
            st.lists(st.one_of(st.sampled_from(["*", "10.0.0.1", "::1"]), st.text(max_size=6)), max_size=2)
        ),
        deny_hosts=draw(st.lists(st.text(max_size=6), max_size=1)),
        principals=draw(PRINCIPALS),
        producer=draw(st.booleans()),
        consumer=draw(st.booleans()),
        idempotent=draw(st.booleans()),
    )


@FUZZ
@given(acl_options())
def test_acl_options_build_bindings_or_raise_usage_error(opts: acls.AclOptions) -> None:
    try:
        acls.check_options(opts)
        if opts.add:
            built: Any = acls.bindings_to_add(opts)
        elif opts.remove:
            built = acls.deletion_filters(opts)
        else:
            built = acls.list_filters(opts)
    except KcliError as error:
        assert error.line()
        return
    assert built is not None


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=6),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=20,
)


@st.composite
def reassignment_documents(draw: st.DrawFn) -> str:
    choice = draw(st.integers(0, 3))
    if choice == 0:
        return draw(st.one_of(st.text(), TEXTISH))
    if choice == 1:
        return json.dumps(draw(JSON_VALUES))
    partition = st.fixed_dictionaries(
        {},
        optional={
            "topic": st.one_of(st.text(max_size=8), JSON_VALUES),
            "partition": st.one_of(st.integers(-2, 2**40), JSON_VALUES),
            "replicas": st.one_of(st.lists(st.integers(-2, 2**33), max_size=4), JSON_VALUES),
            "log_dirs": st.one_of(st.lists(st.sampled_from(["any", "/d", ""]), max_size=4), JSON_VALUES),
        },
    )
    doc = draw(
        st.fixed_dictionaries(
            {},
            optional={
                "version": st.one_of(st.just(1), JSON_VALUES),
                "partitions": st.lists(partition, max_size=4),
            },
        )
    )
    return json.dumps(doc)


@FUZZ
@given(reassignment_documents())
def test_reassignment_json_parses_or_raises_usage_error(text: str) -> None:
    for parse in (parse_reassignment, parse_topics_to_move):
        try:
            parse(text)
        except KcliError as error:
            assert "\n" not in error.line()


@FUZZ
@given(st.one_of(st.text(), st.lists(st.integers(-(2**40), 2**40).map(str), max_size=4).map(",".join)))
def test_broker_lists_parse_or_raise_usage_error(text: str) -> None:
    try:
        brokers = parse_broker_list(text)
    except KcliError:
        return
    assert all(isinstance(b, int) for b in brokers)


@FUZZ
@given(st.one_of(reassignment_documents(), st.builds(lambda v: json.dumps({"acls": v}), JSON_VALUES)))
def test_acl_import_documents_parse_or_raise_usage_error(text: str) -> None:
    try:
        acls.parse_document(text, source="acls.json")
    except KcliError as error:
        assert error.line()


@pytest.mark.parametrize("depth", [10_000, 200_000])
def test_deeply_nested_json_is_a_usage_error(depth: int) -> None:
    text = "[" * depth + "]" * depth
    for parse in (parse_reassignment, parse_topics_to_move):
        with pytest.raises(KcliError):
            parse(text)
    with pytest.raises(KcliError):
        acls.parse_document(text, source="acls.json")


@pytest.mark.parametrize(
    "text", ["a = " + "[" * 100_000 + "]" * 100_000, "a = " + "{b=" * 5000 + "1" + "}" * 5000]
)
def test_deeply_nested_toml_is_a_usage_error(tmp_path: Path, text: str) -> None:
    path = tmp_path / "kcli.toml"
    path.write_text(text)
    with pytest.raises(KcliError, match="not valid TOML"):
        load_profiles(path)


def test_deeply_nested_quorum_state_is_ignored_not_a_crash(tmp_path: Path) -> None:
    from kcli.metadata.directory import _json

    path = tmp_path / "quorum-state"
    path.write_text("[" * 100_000 + "]" * 100_000)
    notes: list[str] = []
    assert _json(path, notes) is None
