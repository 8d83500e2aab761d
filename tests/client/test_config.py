"""Client configuration: .properties parsing, precedence, bootstrap exclusivity, JAAS, TLS stores, secrets."""

from __future__ import annotations

from pathlib import Path

import pytest

from kcli.client.config import ClientConfig, resolve_client_config
from kcli.client.endpoints import Endpoint, parse_endpoints
from kcli.client.jaas import parse_jaas
from kcli.client.toml_profiles import load_profiles
from kcli.errors import UsageError
from kcli.kafka import EndpointType
from kcli.properties import parse_properties
from tests.conftest import invoke

# ---- .properties ----------------------------------------------------------------------------------


def test_properties_separators_comments_and_whitespace() -> None:
    text = "\n".join(
        [
            "# a comment",
            "! another comment",
            "   ",
            "a=1",
            "b = 2",
            "c:3",
            "d : 4",
            "e 5",
            "f\t\t6",
            "g=",
            "h",
            "  indented.key = value with spaces  ",
            "url=http://host:8080/x=y",
        ]
    )
    assert parse_properties(text) == {
        "a": "1",
        "b": "2",
        "c": "3",
        "d": "4",
        "e": "5",
        "f": "6",
        "g": "",
        "h": "",
        "indented.key": "value with spaces  ",
        "url": "http://host:8080/x=y",
    }


def test_properties_continuations_and_escapes() -> None:
    text = (
        "sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required \\\n"
        '    username="u" \\\n'
        '    password="p";\n'
        "key\\ with\\ spaces=v\n"
        "colon\\:key=v2\n"
        "tabs=a\\tb\\nc\n"
        "unicode=caf\\u00e9\n"
        "backslash=C:\\\\dir\n"
        "even=ends with two \\\\\\\\\n"
        "next=line\n"
    )
    props = parse_properties(text)
    assert props["sasl.jaas.config"] == (
        'org.apache.kafka.common.security.plain.PlainLoginModule required username="u" password="p";'
    )
    assert props["key with spaces"] == "v"
    assert props["colon:key"] == "v2"
    assert props["tabs"] == "a\tb\nc"
    assert props["unicode"] == "café"
    assert props["backslash"] == "C:\\dir"
    assert props["even"] == "ends with two \\\\"
    assert props["next"] == "line"


def test_properties_later_duplicate_wins_and_trailing_continuation() -> None:
    assert parse_properties("a=1\na=2\nb=x\\") == {"a": "2", "b": "x"}


# ---- endpoints ------------------------------------------------------------------------------------


def test_endpoints_forms() -> None:
    assert parse_endpoints("h1:9092, h2:9093", source="x") == (
        Endpoint(host="h1", port=9092),
        Endpoint(host="h2", port=9093),
    )
    assert parse_endpoints("3000@c1:9093", source="x") == (Endpoint(host="c1", port=9093, node_id=3000),)
    (v6,) = parse_endpoints("[::1]:9092", source="x")
    assert v6.host == "::1" and str(v6) == "[::1]:9092"
    with pytest.raises(UsageError, match="is not HOST:PORT"):
        parse_endpoints("nohost", source="--bootstrap-server")
    with pytest.raises(UsageError, match="out of range"):
        parse_endpoints("h:70000", source="--bootstrap-server")


# ---- precedence and exclusivity -------------------------------------------------------------------


def _resolve(
    tmp_path: Path,
    *,
    flags: dict[str, str] | None = None,
    props: str | None = None,
    profile_toml: str | None = None,
    environ: dict[str, str] | None = None,
    profile: str | None = None,
) -> tuple[ClientConfig, list[str]]:
    warnings: list[str] = []
    command_config = None
    if props is not None:
        command_config = tmp_path / "client.properties"
        command_config.write_text(props)
    config_file = tmp_path / "config.toml"
    if profile_toml is not None:
        config_file.write_text(profile_toml)
    flags = flags or {}
    config = resolve_client_config(
        bootstrap_server=flags.get("server"),
        bootstrap_controller=flags.get("controller"),
        command_config=command_config,
        profile=profile,
        environ=environ or {},
        config_file=config_file,
        warn=warnings.append,
    )
    return config, warnings


PROFILES = """
default_profile = "staging"
[profiles.default]
bootstrap.servers = "default:9092"
[profiles.staging]
bootstrap.servers = "staging:9092"
request.timeout.ms = 1111
client.id = "from-profile"
[profiles.ctl]
"bootstrap.controllers" = "ctl:9093"
"""


def test_precedence_flags_over_file_over_profile_over_env(tmp_path: Path) -> None:
    env = {"KCLI_BOOTSTRAP_SERVER": "env:9092", "KCLI_CLIENT_ID": "from-env"}
    config, _ = _resolve(tmp_path, environ=env)
    assert config.bootstrap == (Endpoint(host="env", port=9092),) and config.client_id == "from-env"

    config, _ = _resolve(tmp_path, environ=env, profile_toml=PROFILES)
    assert str(config.bootstrap[0]) == "staging:9092"  # default_profile names staging
    assert config.request_timeout_ms == 1111 and config.client_id == "from-profile"

    config, _ = _resolve(
        tmp_path,
        environ=env,
        profile_toml=PROFILES,
        props="bootstrap.servers=file:9092\nrequest.timeout.ms=2222\n",
    )
    assert str(config.bootstrap[0]) == "file:9092" and config.request_timeout_ms == 2222
    assert config.client_id == "from-profile"

    config, _ = _resolve(
        tmp_path,
        environ=env,
        profile_toml=PROFILES,
        props="bootstrap.servers=file:9092\n",
        flags={"server": "flag:9092"},
    )
    assert str(config.bootstrap[0]) == "flag:9092" and config.endpoint_type is EndpointType.BROKERS


def test_profile_selection_by_flag_and_env(tmp_path: Path) -> None:
    config, _ = _resolve(tmp_path, profile_toml=PROFILES, profile="default")
    assert str(config.bootstrap[0]) == "default:9092"
    config, _ = _resolve(tmp_path, profile_toml=PROFILES, environ={"KCLI_PROFILE": "ctl"})
    assert config.endpoint_type is EndpointType.CONTROLLERS and str(config.bootstrap[0]) == "ctl:9093"
    with pytest.raises(UsageError, match=r"profile 'nope' is not defined .*profiles: ctl, default, staging"):
        _resolve(tmp_path, profile_toml=PROFILES, profile="nope")


def test_a_bootstrap_flag_clears_the_other_kind_from_lower_sources(tmp_path: Path) -> None:
    config, _ = _resolve(tmp_path, props="bootstrap.controllers=c:9093\n", flags={"server": "b:9092"})
    assert config.endpoint_type is EndpointType.BROKERS
    assert "bootstrap.controllers" not in config.properties
    config, _ = _resolve(
        tmp_path, environ={"KCLI_BOOTSTRAP_SERVER": "env:9092"}, flags={"controller": "c:9093"}
    )
    assert config.endpoint_type is EndpointType.CONTROLLERS and str(config.bootstrap[0]) == "c:9093"


def test_both_flags_is_a_usage_error_naming_both(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="both --bootstrap-controller and --bootstrap-server"):
        _resolve(tmp_path, flags={"server": "b:9092", "controller": "c:9093"})


def test_no_bootstrap_anywhere_is_a_usage_error(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="either --bootstrap-controller or --bootstrap-server"):
        _resolve(tmp_path)


def test_both_kinds_in_one_file_is_a_usage_error(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match=r"both bootstrap\.servers and bootstrap\.controllers"):
        _resolve(tmp_path, props="bootstrap.servers=b:1\nbootstrap.controllers=c:2\n")


def test_cli_exit_codes_for_bootstrap_usage_errors() -> None:
    both = invoke("cluster-id", "--bootstrap-server", "b:9092", "--bootstrap-controller", "c:9093")
    assert both.code == 2
    assert "--bootstrap-controller" in both.stderr and "--bootstrap-server" in both.stderr
    assert "Traceback" not in both.stderr
    none = invoke("cluster-id")
    assert none.code == 2 and "either --bootstrap-controller or --bootstrap-server" in none.stderr


def test_unknown_keys_warn_and_values_are_validated(tmp_path: Path) -> None:
    _, warnings = _resolve(tmp_path, props="bootstrap.servers=b:1\nbogus.key=1\nmetadata.max.age.ms=5\n")
    assert len(warnings) == 1 and "'bogus.key'" in warnings[0]
    with pytest.raises(UsageError, match=r"request\.timeout\.ms must be an integer"):
        _resolve(tmp_path, props="bootstrap.servers=b:1\nrequest.timeout.ms=soon\n")
    with pytest.raises(UsageError, match=r"security\.protocol"):
        _resolve(tmp_path, props="bootstrap.servers=b:1\nsecurity.protocol=QUIC\n")
    with pytest.raises(UsageError, match=r"metadata\.recovery\.strategy"):
        _resolve(tmp_path, props="bootstrap.servers=b:1\nmetadata.recovery.strategy=sometimes\n")


def test_recovery_and_cluster_check_settings(tmp_path: Path) -> None:
    config, _ = _resolve(tmp_path, flags={"server": "b:1"})
    assert config.recovery_strategy == "rebootstrap" and config.cluster_check
    config, _ = _resolve(
        tmp_path, props="metadata.recovery.strategy=none\nexpected.cluster.id=abc\n", flags={"server": "b:1"}
    )
    assert not config.cluster_check and config.expected_cluster_id == "abc"
    config, _ = _resolve(tmp_path, props="metadata.cluster.check.enable=false\n", flags={"server": "b:1"})
    assert config.recovery_strategy == "rebootstrap" and not config.cluster_check


def test_missing_command_config_file_is_a_usage_error(tmp_path: Path) -> None:
    result = invoke("cluster-id", "-b", "b:1", "--command-config", str(tmp_path / "missing.properties"))
    assert result.code == 2 and "does not exist" in result.stderr


def test_profiles_flatten_nested_tables(tmp_path: Path) -> None:
    path = tmp_path / "c.toml"
    path.write_text(
        '[profiles.p]\nsasl.mechanism = "PLAIN"\nmetadata.cluster.check.enable = false\nport = 1\n'
    )
    assert load_profiles(path) == {
        "p": {"sasl.mechanism": "PLAIN", "metadata.cluster.check.enable": "false", "port": "1"}
    }
    assert load_profiles(tmp_path / "absent.toml") == {}
    path.write_text("[profiles.p\n")
    with pytest.raises(UsageError, match="not valid TOML"):
        load_profiles(path)


# ---- JAAS and SASL --------------------------------------------------------------------------------


def test_jaas_parsing() -> None:
    jaas = parse_jaas(
        'org.apache.kafka.common.security.scram.ScramLoginModule required username="alice" '
        'password="p\\"w;d" tokenauth=true;'
    )
    assert jaas.login_module == "org.apache.kafka.common.security.scram.ScramLoginModule"
    assert jaas.flag == "required"
    assert dict(jaas.options) == {"username": "alice", "password": 'p"w;d', "tokenauth": "true"}
    assert 'p\\"w' not in repr(jaas) and "w;d" not in repr(jaas)


def test_jaas_single_quoted_values_as_java_reads_them() -> None:
    """Kafka's JaasConfig tokenizer (java.io.StreamTokenizer) takes ' as a quote character too."""
    jaas = parse_jaas(
        "org.apache.kafka.common.security.plain.PlainLoginModule required username='admin' "
        "password='a \\'b\\' \"c\" ;d';"
    )
    assert dict(jaas.options) == {"username": "admin", "password": "a 'b' \"c\" ;d"}


@pytest.mark.parametrize(
    "text",
    [
        "username=alice;",
        "org.x.Login required username='alice' password='open",
        'org.x.Login required username="alice" password="open',
        'org.x.Login required username="alice"',
        'org.x.Login required username="a"; org.y.Other required;',
    ],
)
def test_jaas_errors_never_quote_the_secret(text: str) -> None:
    with pytest.raises(UsageError) as raised:
        parse_jaas(text)
    assert "open" not in str(raised.value) and "alice" not in str(raised.value)


def test_sasl_credentials_from_jaas_or_username_password(tmp_path: Path) -> None:
    props = (
        "security.protocol=SASL_SSL\nsasl.mechanism=SCRAM-SHA-512\n"
        "sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required "
        'username="admin" password="s3cret-pw";\n'
    )
    config, warnings = _resolve(tmp_path, props=props, flags={"server": "b:1"})
    assert config.sasl is not None and config.sasl.username == "admin" and config.sasl.password == "s3cret-pw"
    assert config.sasl.mechanism == "SCRAM-SHA-512" and not warnings
    for shown in (repr(config), repr(config.sasl), str(config.redacted_properties())):
        assert "s3cret-pw" not in shown

    config, warnings = _resolve(
        tmp_path,
        props="security.protocol=SASL_PLAINTEXT\nsasl.mechanism=PLAIN\nsasl.username=u\nsasl.password=pw-123\n",
        flags={"server": "b:1"},
    )
    assert config.sasl is not None and config.sasl.password == "pw-123"
    assert any("PLAIN over SASL_PLAINTEXT" in warning for warning in warnings)
    assert not any("pw-123" in warning for warning in warnings)

    with pytest.raises(UsageError, match="needs credentials"):
        _resolve(
            tmp_path, props="security.protocol=SASL_SSL\nsasl.mechanism=PLAIN\n", flags={"server": "b:1"}
        )
    # GSSAPI is Kafka's default mechanism: it needs a Krb5LoginModule login
    with pytest.raises(UsageError, match=r"sasl\.mechanism GSSAPI needs sasl\.jaas\.config"):
        _resolve(tmp_path, props="security.protocol=SASL_SSL\n", flags={"server": "b:1"})


# ---- TLS stores -----------------------------------------------------------------------------------


def test_stores_are_jks_unless_typed_and_other_store_kinds_are_refused(tmp_path: Path) -> None:
    from kcli.client.tls import build_ssl_context

    store = tmp_path / "truststore.jceks"
    store.write_bytes(b"\xce\xce\xce\xce\x00\x00\x00\x02binary")
    config, _ = _resolve(
        tmp_path, props=f"security.protocol=SSL\nssl.truststore.location={store}\n", flags={"server": "b:1"}
    )
    assert config.ssl is not None and config.ssl.truststore is not None
    assert config.ssl.truststore.type == "JKS"  # Kafka's default type
    with pytest.raises(UsageError, match="is a JCEKS store; kcli reads JKS, PKCS12 and PEM stores"):
        build_ssl_context(config.ssl)
    with pytest.raises(UsageError, match=r"ssl\.keystore\.type 'BCFKS' is not a store type kcli reads"):
        _resolve(tmp_path, props="security.protocol=SSL\nssl.keystore.type=BCFKS\n", flags={"server": "b:1"})


def test_pem_settings_and_hostname_switch(tmp_path: Path) -> None:
    pem = tmp_path / "ca.pem"
    pem.write_text("-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n")
    config, _ = _resolve(
        tmp_path,
        props=f"security.protocol=SSL\nssl.truststore.location={pem}\nssl.truststore.type=PEM\n"
        "ssl.endpoint.identification.algorithm=\nssl.key.password=keypw\n",
        flags={"server": "b:1"},
    )
    assert config.ssl is not None and config.ssl.truststore is not None
    assert config.ssl.truststore.path == pem and config.ssl.truststore.type == "PEM"
    assert not config.ssl.check_hostname
    assert "keypw" not in repr(config.ssl)
    config, _ = _resolve(tmp_path, props="security.protocol=SSL\n", flags={"server": "b:1"})
    assert config.ssl is not None and config.ssl.check_hostname and config.ssl.truststore is None
    with pytest.raises(UsageError, match="must be set together"):
        _resolve(tmp_path, props="security.protocol=SSL\nssl.keystore.key=x\n", flags={"server": "b:1"})


def test_bad_address_names_where_it_came_from(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match=r"^--bootstrap-server: 'bad' is not HOST:PORT"):
        _resolve(tmp_path, flags={"server": "bad"})
    with pytest.raises(
        UsageError, match=r"^bootstrap\.controllers \(--command-config .*\): 'c' is not HOST:PORT"
    ):
        _resolve(tmp_path, props="bootstrap.controllers=c\n")


def test_pem_keystore_without_a_private_key_says_how_to_fix_it(tmp_path: Path) -> None:
    cert_only = tmp_path / "client.pem"
    cert_only.write_text("-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n")
    from kcli.client.tls import build_ssl_context

    config, _ = _resolve(
        tmp_path,
        props=f"security.protocol=SSL\nssl.keystore.location={cert_only}\nssl.keystore.type=PEM\n",
        flags={"server": "b:1"},
    )
    assert config.ssl is not None
    with pytest.raises(UsageError, match="holds no private key") as raised:
        build_ssl_context(config.ssl)
    assert "cat client.key client.pem > keystore.pem" in raised.value.line()
