"""Client configuration: where to connect and how, merged from flags, files, profiles and env.

Sources, highest first (a bootstrap setting in a higher source replaces both kinds below it, as
Kafka's CommandLineUtils.initializeBootstrapProperties does for a flag):

1. command-line flags (--bootstrap-server / --bootstrap-controller),
2. --command-config: a Java .properties file (or $KCLI_COMMAND_CONFIG),
3. a profile from the TOML config file ($KCLI_CONFIG or ~/.config/kcli/config.toml), chosen by
   --profile, else $KCLI_PROFILE, else `default_profile` in the file, else the `default` profile,
4. the environment: KCLI_BOOTSTRAP_SERVER, KCLI_BOOTSTRAP_CONTROLLER, KCLI_SECURITY_PROTOCOL,
   KCLI_CLIENT_ID, KCLI_EXPECTED_CLUSTER_ID, KCLI_DEFAULT_API_TIMEOUT_MS.

Profile file format (nested tables are flattened to dotted Kafka keys)::

    default_profile = "prod"            # optional
    [profiles.prod]
    bootstrap.servers = "k1:9092,k2:9092"
    security.protocol = "SASL_SSL"
    sasl.mechanism = "SCRAM-SHA-512"

Secrets (passwords, keys, JAAS configs) are held but never printed: reprs hide them and
`ClientConfig.redacted_properties()` masks them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kcli.errors import UsageError
from kcli.kafka import EndpointType


@dataclass(frozen=True, slots=True, kw_only=True)
class Endpoint:
    """One bootstrap address; node_id is set for `ID@HOST:PORT` (controller.quorum.voters style)."""

    host: str
    port: int
    node_id: int | None = None

    def __str__(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{host}:{self.port}"


@dataclass(frozen=True, slots=True, kw_only=True)
class SslSettings:
    """TLS material: PEM files or inline PEM text. Passwords and private keys never appear in repr."""

    cafile: Path | None = None
    cadata: str | None = None
    certfile: Path | None = None  # PEM keystore: certificate chain and private key in one file
    cert_chain: str | None = None  # inline PEM (ssl.keystore.certificate.chain)
    key: str | None = field(default=None, repr=False)  # inline PEM (ssl.keystore.key)
    key_password: str | None = field(default=None, repr=False)
    check_hostname: bool = True
    minimum_tls: str = "TLSv1.2"


@dataclass(frozen=True, slots=True, kw_only=True)
class SaslSettings:
    """SASL mechanism and credentials. The password never appears in repr."""

    mechanism: str  # PLAIN | SCRAM-SHA-256 | SCRAM-SHA-512
    username: str
    password: str = field(repr=False)


@dataclass(frozen=True, slots=True, kw_only=True)
class ClientConfig:
    """Everything a connection needs, resolved and validated."""

    bootstrap: tuple[Endpoint, ...]
    endpoint_type: EndpointType
    security_protocol: str = "PLAINTEXT"
    ssl: SslSettings | None = None
    sasl: SaslSettings | None = None
    client_id: str = "kcli"
    request_timeout_ms: int = 30000
    default_api_timeout_ms: int = 60000
    retry_backoff_ms: int = 100
    retry_backoff_max_ms: int = 1000
    socket_connection_setup_timeout_ms: int = 10000
    recovery_strategy: str = "rebootstrap"
    rebootstrap_trigger_ms: int = 300000
    cluster_check_enable: bool = True
    expected_cluster_id: str | None = None
    properties: Mapping[str, str] = field(default_factory=dict, repr=False)

    @property
    def bootstrap_flag(self) -> str:
        """The command-line flag matching this config's bootstrap kind."""
        return (
            "--bootstrap-controller"
            if self.endpoint_type is EndpointType.CONTROLLERS
            else "--bootstrap-server"
        )

    @property
    def uses_tls(self) -> bool:
        return self.security_protocol in ("SSL", "SASL_SSL")

    @property
    def cluster_check(self) -> bool:
        """KIP-1242 ApiVersions v5 cluster/node checks are on."""
        return self.cluster_check_enable and self.recovery_strategy != "none"

    def redacted_properties(self) -> dict[str, str]:
        """The merged properties with every secret value replaced by [hidden]."""
        return {key: ("[hidden]" if is_secret_key(key) else value) for key, value in self.properties.items()}


# --- keys ------------------------------------------------------------------------------------------

_SECRET_KEY = re.compile(r"(password|secret|jaas|\.key$|credential|token)", re.IGNORECASE)


def is_secret_key(key: str) -> bool:
    """Whether the value of a config key is a secret that must never be shown."""
    return bool(_SECRET_KEY.search(key))


# Keys kcli acts on.
HONOURED_KEYS = frozenset(
    {
        "bootstrap.servers",
        "bootstrap.controllers",
        "security.protocol",
        "client.id",
        "request.timeout.ms",
        "default.api.timeout.ms",
        "retry.backoff.ms",
        "retry.backoff.max.ms",
        "socket.connection.setup.timeout.ms",
        "metadata.recovery.strategy",
        "metadata.recovery.rebootstrap.trigger.ms",
        "metadata.cluster.check.enable",
        "expected.cluster.id",
        "sasl.mechanism",
        "sasl.jaas.config",
        "sasl.username",
        "sasl.password",
        "ssl.truststore.location",
        "ssl.truststore.type",
        "ssl.truststore.password",
        "ssl.truststore.certificates",
        "ssl.keystore.location",
        "ssl.keystore.type",
        "ssl.keystore.password",
        "ssl.keystore.certificate.chain",
        "ssl.keystore.key",
        "ssl.key.password",
        "ssl.endpoint.identification.algorithm",
        "ssl.protocol",
        "ssl.enabled.protocols",
    }
)

# Kafka Admin client keys that kcli accepts without acting on them (no warning, as Kafka would
# accept them); anything else gets the "unknown key" warning.
KNOWN_KAFKA_KEYS = frozenset(
    {
        "client.dns.lookup",
        "connections.max.idle.ms",
        "metadata.max.age.ms",
        "metric.reporters",
        "metrics.num.samples",
        "metrics.recording.level",
        "metrics.sample.window.ms",
        "receive.buffer.bytes",
        "send.buffer.bytes",
        "reconnect.backoff.ms",
        "reconnect.backoff.max.ms",
        "retries",
        "socket.connection.setup.timeout.max.ms",
        "enable.metrics.push",
        "auto.include.jmx.reporter",
        "client.rack",
        "host.resolver.class",
        "security.providers",
        "ssl.cipher.suites",
        "ssl.engine.factory.class",
        "ssl.keymanager.algorithm",
        "ssl.trustmanager.algorithm",
        "ssl.secure.random.implementation",
        "ssl.provider",
        "sasl.kerberos.service.name",
        "sasl.kerberos.kinit.cmd",
        "sasl.kerberos.min.time.before.relogin",
        "sasl.kerberos.ticket.renew.jitter",
        "sasl.kerberos.ticket.renew.window.factor",
        "sasl.login.callback.handler.class",
        "sasl.login.class",
        "sasl.client.callback.handler.class",
        "sasl.login.refresh.buffer.seconds",
        "sasl.login.refresh.min.period.seconds",
        "sasl.login.refresh.window.factor",
        "sasl.login.refresh.window.jitter",
        "sasl.login.connect.timeout.ms",
        "sasl.login.read.timeout.ms",
        "sasl.login.retry.backoff.ms",
        "sasl.login.retry.backoff.max.ms",
    }
)

SECURITY_PROTOCOLS = ("PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL")
SASL_MECHANISMS = ("PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512")


# --- Java .properties ------------------------------------------------------------------------------

_ESCAPES = {"t": "\t", "n": "\n", "r": "\r", "f": "\f"}


def parse_properties(text: str) -> dict[str, str]:
    """Parse Java .properties text (java.util.Properties.load rules).

    Behavior:
    - `#` and `!` start comment lines; blank lines are skipped.
    - A key ends at the first unescaped `=`, `:` or whitespace; whitespace around the separator
      is dropped (so `a = b`, `a:b` and `a b` all mean a -> b).
    - A line ending in an odd number of backslashes continues on the next line, whose leading
      whitespace is dropped.
    - Escapes: \\t \\n \\r \\f, \\uXXXX, and a backslash before any other character means that
      character. Later duplicates win.
    """
    result: dict[str, str] = {}
    for logical in _logical_lines(text):
        key, value = _split_key_value(logical)
        result[key] = value
    return result


def _logical_lines(text: str) -> list[str]:
    lines = text.splitlines()
    out: list[str] = []
    index = 0
    while index < len(lines):
        line = lines[index].lstrip(" \t\f")
        index += 1
        if not line or line[0] in "#!":
            continue
        while _continues(line) and index < len(lines):
            line = line[:-1] + lines[index].lstrip(" \t\f")
            index += 1
        if _continues(line):  # a continuation on the last line: drop the backslash
            line = line[:-1]
        out.append(line)
    return out


def _continues(line: str) -> bool:
    trailing = len(line) - len(line.rstrip("\\"))
    return trailing % 2 == 1


def _split_key_value(line: str) -> tuple[str, str]:
    index = 0
    length = len(line)
    while index < length:
        char = line[index]
        if char == "\\":
            index += 2
            continue
        if char in "=: \t\f":
            break
        index += 1
    raw_key = line[:index]
    rest = line[index:]
    rest = rest.lstrip(" \t\f")
    if rest[:1] in ("=", ":"):
        rest = rest[1:].lstrip(" \t\f")
    return _unescape(raw_key), _unescape(rest)


def _unescape(text: str) -> str:
    if "\\" not in text:
        return text
    out: list[str] = []
    index = 0
    while index < len(text):
        char = text[index]
        if char != "\\" or index + 1 >= len(text):
            out.append(char)
            index += 1
            continue
        nxt = text[index + 1]
        if nxt == "u" and re.fullmatch(r"[0-9a-fA-F]{4}", text[index + 2 : index + 6]):
            out.append(chr(int(text[index + 2 : index + 6], 16)))
            index += 6
            continue
        out.append(_ESCAPES.get(nxt, nxt))
        index += 2
    return "".join(out)


def read_properties_file(path: Path) -> dict[str, str]:
    """Read a --command-config file; a missing or unreadable file is a usage error."""
    from kcli.files import read_bytes

    try:
        raw = read_bytes(path, what="properties file")
    except FileNotFoundError:
        raise UsageError(f"Properties file {path} does not exist") from None
    except OSError as error:
        raise UsageError(f"cannot read properties file {path}: {error.strerror}") from None
    # Java 9+ reads .properties as UTF-8 and falls back to ISO-8859-1.
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        text = raw.decode("latin-1")
    return parse_properties(text)


# --- TOML profiles ---------------------------------------------------------------------------------


def load_profiles(path: Path) -> dict[str, dict[str, str]]:
    """Read the profiles of a kcli TOML config file: {name: {kafka.key: value}}. Missing file: {}."""
    document = _load_toml(path)
    profiles = document.get("profiles", {})
    if not isinstance(profiles, dict):
        raise UsageError(f"{path}: `profiles` must be a table of tables ([profiles.NAME])")
    result: dict[str, dict[str, str]] = {}
    for name, table in profiles.items():
        if not isinstance(table, dict):
            raise UsageError(f"{path}: profile {name!r} must be a table ([profiles.{name}])")
        result[str(name)] = _flatten(table)
    return result


def default_profile_name(path: Path) -> str | None:
    """The `default_profile` named in the config file, if any."""
    value = _load_toml(path).get("default_profile")
    return str(value) if value else None


def _load_toml(path: Path) -> dict[str, Any]:
    from kcli.files import read_bytes

    try:
        raw = read_bytes(path, what="config file")
    except FileNotFoundError:
        return {}
    except OSError as error:
        raise UsageError(f"cannot read config file {path}: {error.strerror}") from None
    try:
        import tomllib
    except ModuleNotFoundError:  # Python < 3.11
        import tomli as tomllib  # type: ignore[no-redef]
    try:
        return tomllib.loads(raw.decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise UsageError(f"config file {path} is not valid TOML: {error}") from None
    except RecursionError:
        raise UsageError(f"config file {path} is not valid TOML: nested too deeply") from None


def _flatten(table: Mapping[str, Any], prefix: str = "") -> dict[str, str]:
    out: dict[str, str] = {}
    for key, value in table.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            out.update(_flatten(value, name + "."))
        elif isinstance(value, bool):
            out[name] = "true" if value else "false"
        elif isinstance(value, list):
            out[name] = ",".join(str(item) for item in value)
        else:
            out[name] = str(value)
    return out


# --- JAAS ------------------------------------------------------------------------------------------

_JAAS_HEAD = re.compile(r"\s*([\w.$]+)\s+(required|requisite|sufficient|optional)\s*", re.IGNORECASE)
_JAAS_OPTION = re.compile(r"\s*([\w.\-]+)\s*=\s*")


@dataclass(frozen=True, slots=True, kw_only=True)
class JaasConfig:
    """One sasl.jaas.config entry: login module, control flag and options (options may hold secrets)."""

    login_module: str
    flag: str
    options: Mapping[str, str] = field(repr=False)


def parse_jaas(text: str) -> JaasConfig:
    """Parse a sasl.jaas.config value: `module.Class required key="value" key2=value2;`.

    Errors never quote the text (it holds a password).
    """
    head = _JAAS_HEAD.match(text)
    if head is None:
        raise UsageError(
            'sasl.jaas.config must look like `<LoginModule class> required username="..." password="...";`'
        )
    options: dict[str, str] = {}
    index = head.end()
    while True:
        while index < len(text) and text[index].isspace():
            index += 1
        if index >= len(text):
            raise UsageError("sasl.jaas.config must end with `;`")
        if text[index] == ";":
            if text[index + 1 :].strip():
                raise UsageError("sasl.jaas.config holds more than one login module; kcli uses exactly one")
            break
        option = _JAAS_OPTION.match(text, index)
        if option is None:
            raise UsageError(f"sasl.jaas.config: expected `name=value` at character {index}")
        index = option.end()
        value, index = _jaas_value(text, index)
        options[option.group(1)] = value
    return JaasConfig(login_module=head.group(1), flag=head.group(2).lower(), options=options)


def _jaas_value(text: str, index: int) -> tuple[str, int]:
    # Java's StreamTokenizer, which Kafka's JaasConfig uses, quotes with either " or '.
    if index < len(text) and text[index] in "\"'":
        quote = text[index]
        out: list[str] = []
        index += 1
        while index < len(text):
            char = text[index]
            if char == "\\" and index + 1 < len(text):
                out.append(text[index + 1])
                index += 2
                continue
            if char == quote:
                return "".join(out), index + 1
            out.append(char)
            index += 1
        raise UsageError("sasl.jaas.config: a quoted value is not closed")
    start = index
    while index < len(text) and not text[index].isspace() and text[index] != ";":
        index += 1
    if index == start:
        raise UsageError(f"sasl.jaas.config: missing value at character {start}")
    return text[start:index], index


# --- bootstrap lists -------------------------------------------------------------------------------

_ENDPOINT = re.compile(r"^(?:(?P<id>-?\d+)@)?(?:\[(?P<v6>[^\]]+)\]|(?P<host>[^:\s\[\]@]+)):(?P<port>\d+)$")


def parse_endpoints(text: str, *, source: str) -> tuple[Endpoint, ...]:
    """Parse `HOST:PORT[,...]` (also `ID@HOST:PORT` and `[v6addr]:PORT`); `source` names the flag or key."""
    endpoints: list[Endpoint] = []
    for item in text.split(","):
        item = item.strip()
        if not item:
            continue
        match = _ENDPOINT.match(item)
        if match is None:
            raise UsageError(f"{source}: {item!r} is not HOST:PORT (or ID@HOST:PORT)")
        port = int(match.group("port"))
        if not 0 < port < 65536:
            raise UsageError(f"{source}: port {port} in {item!r} is out of range")
        node_id = match.group("id")
        endpoints.append(
            Endpoint(
                host=match.group("v6") or match.group("host"),
                port=port,
                node_id=int(node_id) if node_id is not None else None,
            )
        )
    if not endpoints:
        raise UsageError(f"{source}: no address given")
    return tuple(endpoints)


# --- resolution ------------------------------------------------------------------------------------

_ENV_KEYS = {
    "KCLI_BOOTSTRAP_SERVER": "bootstrap.servers",
    "KCLI_BOOTSTRAP_CONTROLLER": "bootstrap.controllers",
    "KCLI_SECURITY_PROTOCOL": "security.protocol",
    "KCLI_CLIENT_ID": "client.id",
    "KCLI_EXPECTED_CLUSTER_ID": "expected.cluster.id",
    "KCLI_DEFAULT_API_TIMEOUT_MS": "default.api.timeout.ms",
}
_BOOTSTRAP_KEYS = ("bootstrap.servers", "bootstrap.controllers")


class MissingBootstrap(UsageError):
    """No bootstrap address anywhere: each Kafka tool words this its own way (the CLI may reword it)."""


@dataclass(frozen=True, slots=True)
class _Source:
    name: str
    properties: Mapping[str, str]


def resolve_client_config(
    *,
    bootstrap_server: str | None,
    bootstrap_controller: str | None,
    command_config: Path | None,
    profile: str | None,
    environ: Mapping[str, str],
    config_file: Path,
    warn: Callable[[str], None],
) -> ClientConfig:
    """Merge flags > command-config > profile > environment into a validated ClientConfig.

    Raises UsageError (exit 2) for conflicting or missing bootstrap settings and bad values.
    """
    if bootstrap_server and bootstrap_controller:
        raise UsageError("You cannot specify both --bootstrap-controller and --bootstrap-server.")
    flags: dict[str, str] = {}
    if bootstrap_server:
        flags["bootstrap.servers"] = bootstrap_server
    if bootstrap_controller:
        flags["bootstrap.controllers"] = bootstrap_controller

    sources = [_Source("the command line", flags)]
    config_path = command_config or (
        Path(environ["KCLI_COMMAND_CONFIG"]) if environ.get("KCLI_COMMAND_CONFIG") else None
    )
    if config_path is not None:
        try:
            properties = read_properties_file(config_path)
        except UsageError as error:
            if command_config is not None:
                raise
            raise UsageError(f"{error.message} (from KCLI_COMMAND_CONFIG)", hint=error.hint) from None
        sources.append(_Source(f"--command-config {config_path}", properties))
    profile_source = _profile_source(profile, environ, config_file, warn)
    if profile_source is not None:
        sources.append(profile_source)
    env_props = {key: environ[var] for var, key in _ENV_KEYS.items() if environ.get(var)}
    sources.append(_Source("the environment (KCLI_*)", env_props))

    merged: dict[str, str] = {}
    for source in reversed(sources):
        merged.update(source.properties)
    # The highest source that names a bootstrap address decides both kinds.
    for key in _BOOTSTRAP_KEYS:
        merged.pop(key, None)
    chosen: _Source | None = None
    for source in sources:
        present = [key for key in _BOOTSTRAP_KEYS if source.properties.get(key, "").strip()]
        if not present:
            continue
        if len(present) == 2:
            raise UsageError(
                f"You cannot set both bootstrap.servers and bootstrap.controllers ({source.name})."
            )
        merged[present[0]] = source.properties[present[0]]
        chosen = source
        break
    if chosen is None:
        raise MissingBootstrap(NO_BOOTSTRAP)
    key = next(key for key in _BOOTSTRAP_KEYS if key in merged)
    if chosen is sources[0]:
        label = "--bootstrap-server" if key == "bootstrap.servers" else "--bootstrap-controller"
    else:
        label = f"{key} ({chosen.name})"
    try:
        return config_from_properties(merged, warn=warn, bootstrap_source=label)
    except UsageError as error:
        raise _naming_the_source(error, sources, environ) from None


# Kafka's sentence first (runbooks grep for it), then every other place a bootstrap address can come from.
BOOTSTRAP_SOURCES = (
    "Or set bootstrap.controllers or bootstrap.servers in --command-config FILE or a profile "
    "(kcli profile add NAME --bootstrap-server HOST:PORT --use), "
    "or KCLI_BOOTSTRAP_CONTROLLER or KCLI_BOOTSTRAP_SERVER in the environment."
)
NO_BOOTSTRAP = f"You must specify either --bootstrap-controller or --bootstrap-server. {BOOTSTRAP_SOURCES}"


def _naming_the_source(error: UsageError, sources: list[_Source], environ: Mapping[str, str]) -> UsageError:
    """The same error, saying which file, profile or environment variable the bad value came from.

    Validation messages start with the key they are about (`security.protocol 'X' is not ...`).
    """
    origin: dict[str, str] = {}
    for source in reversed(sources):
        origin.update(dict.fromkeys(source.properties, source.name))
    for variable, key in _ENV_KEYS.items():
        if environ.get(variable) and origin.get(key) == sources[-1].name:
            origin[key] = f"environment variable {variable}"
    culprit = next((k for k in sorted(origin, key=len, reverse=True) if error.message.startswith(k)), None)
    if culprit is None or origin[culprit] == sources[0].name:
        return error
    return UsageError(f"{error.message} (set by {origin[culprit]})", hint=error.hint)


def _profile_source(
    profile: str | None, environ: Mapping[str, str], config_file: Path, warn: Callable[[str], None]
) -> _Source | None:
    from kcli.client.secret_refs import resolve_references, warn_if_exposed

    name = profile or environ.get("KCLI_PROFILE") or None
    explicit = name is not None
    profiles = load_profiles(config_file)
    if name is None:
        name = default_profile_name(config_file) or "default"
    if name in profiles:
        where = f"profile {name!r} in {config_file}"
        warn_if_exposed(config_file, {name: profiles[name]}, is_secret=is_secret_key, warn=warn)
        return _Source(where, resolve_references(profiles[name], environ=environ, source=where))
    if explicit:
        known = ", ".join(sorted(profiles)) or "none"
        raise UsageError(f"profile {name!r} is not defined in {config_file} (profiles: {known})")
    return None


def config_from_properties(
    props: Mapping[str, str], *, warn: Callable[[str], None], bootstrap_source: str | None = None
) -> ClientConfig:
    """Validate merged Kafka client properties (exactly one bootstrap key) into a ClientConfig."""
    for key in sorted(props):
        if key not in HONOURED_KEYS and key not in KNOWN_KAFKA_KEYS:
            warn(
                f"Warning: the configuration '{key}' was supplied but is not a known client setting; ignored."
            )
    from kcli.client.config_defs import check_settings

    check_settings(props)  # every setting by Kafka's type and range, before any is used
    servers = props.get("bootstrap.servers", "").strip()
    controllers = props.get("bootstrap.controllers", "").strip()
    if servers and controllers:
        raise UsageError("You cannot set both bootstrap.servers and bootstrap.controllers")
    if not servers and not controllers:
        raise UsageError(NO_BOOTSTRAP)
    if servers:
        bootstrap = parse_endpoints(servers, source=bootstrap_source or "bootstrap.servers")
        endpoint_type = EndpointType.BROKERS
    else:
        bootstrap = parse_endpoints(controllers, source=bootstrap_source or "bootstrap.controllers")
        endpoint_type = EndpointType.CONTROLLERS

    protocol = props.get("security.protocol", "PLAINTEXT").strip().upper()
    if protocol not in SECURITY_PROTOCOLS:
        raise UsageError(f"security.protocol {protocol!r} is not one of {', '.join(SECURITY_PROTOCOLS)}")
    sasl = _sasl_settings(props, protocol, warn) if protocol.startswith("SASL_") else None
    ssl = _ssl_settings(props) if protocol in ("SSL", "SASL_SSL") else None

    strategy = props.get("metadata.recovery.strategy", "rebootstrap").strip().lower()
    if strategy not in ("none", "rebootstrap"):
        raise UsageError(f"metadata.recovery.strategy {strategy!r} must be none or rebootstrap")
    return ClientConfig(
        bootstrap=bootstrap,
        endpoint_type=endpoint_type,
        security_protocol=protocol,
        ssl=ssl,
        sasl=sasl,
        client_id=props.get("client.id", "").strip() or "kcli",
        request_timeout_ms=_int(props, "request.timeout.ms", 30000),
        default_api_timeout_ms=_int(props, "default.api.timeout.ms", 60000),
        retry_backoff_ms=_int(props, "retry.backoff.ms", 100),
        retry_backoff_max_ms=_int(props, "retry.backoff.max.ms", 1000),
        socket_connection_setup_timeout_ms=_int(props, "socket.connection.setup.timeout.ms", 10000),
        recovery_strategy=strategy,
        rebootstrap_trigger_ms=_int(props, "metadata.recovery.rebootstrap.trigger.ms", 300000),
        cluster_check_enable=_bool(props, "metadata.cluster.check.enable", True),
        expected_cluster_id=props.get("expected.cluster.id", "").strip() or None,
        properties=dict(props),
    )


def _int(props: Mapping[str, str], key: str, default: int) -> int:
    """An INT or LONG setting, checked by Kafka's type and range (kcli.client.config_defs)."""
    from kcli.client.config_defs import parse_setting

    raw = props.get(key)
    if raw is None or not raw.strip():
        return default
    value = parse_setting(key, raw)
    assert isinstance(value, int)
    return value


def _bool(props: Mapping[str, str], key: str, default: bool) -> bool:
    from kcli.client.config_defs import parse_setting

    raw = props.get(key)
    if raw is None or not raw.strip():
        return default
    return bool(parse_setting(key, raw))


_LOGIN_MODULES = {
    "PLAIN": "org.apache.kafka.common.security.plain.PlainLoginModule",
    "SCRAM-SHA-256": "org.apache.kafka.common.security.scram.ScramLoginModule",
    "SCRAM-SHA-512": "org.apache.kafka.common.security.scram.ScramLoginModule",
}


def _sasl_settings(props: Mapping[str, str], protocol: str, warn: Callable[[str], None]) -> SaslSettings:
    mechanism = props.get("sasl.mechanism", "GSSAPI").strip().upper()
    if mechanism not in SASL_MECHANISMS:
        raise UsageError(
            f"sasl.mechanism {mechanism} is not supported by kcli (use {', '.join(SASL_MECHANISMS)})"
        )
    username = props.get("sasl.username")
    password = props.get("sasl.password")
    jaas_text = props.get("sasl.jaas.config")
    if jaas_text and jaas_text.strip():
        jaas = parse_jaas(jaas_text)
        expected_module = _LOGIN_MODULES[mechanism]
        if jaas.login_module != expected_module:
            warn(
                f"Warning: sasl.jaas.config uses {jaas.login_module}, but sasl.mechanism {mechanism} "
                f"expects {expected_module}; using its username and password."
            )
        username = jaas.options.get("username", username)
        password = jaas.options.get("password", password)
    if not username or password is None:
        raise UsageError(
            f"{protocol} with {mechanism} needs credentials: set sasl.jaas.config "
            '(… required username="…" password="…";) or sasl.username and sasl.password'
        )
    if mechanism == "PLAIN" and protocol == "SASL_PLAINTEXT":
        warn("Warning: SASL PLAIN over SASL_PLAINTEXT sends the password unencrypted; use SASL_SSL.")
    return SaslSettings(mechanism=mechanism, username=username, password=password)


_CONVERT_HINT = (
    "kcli reads PEM only; convert the store, e.g. "
    "`keytool -importkeystore -srckeystore STORE.jks -destkeystore store.p12 -deststoretype PKCS12` then "
    "`openssl pkcs12 -in store.p12 -out store.pem` (add -nokeys for a truststore, -nodes to leave the key unencrypted), "
    "and set {key}.type=PEM"
)


def _ssl_settings(props: Mapping[str, str]) -> SslSettings:
    cafile = _pem_store(props, "ssl.truststore")
    certfile = _pem_store(props, "ssl.keystore")
    cadata = props.get("ssl.truststore.certificates") or None
    chain = props.get("ssl.keystore.certificate.chain") or None
    key = props.get("ssl.keystore.key") or None
    if (chain is None) != (key is None):
        raise UsageError("ssl.keystore.certificate.chain and ssl.keystore.key must be set together")
    if cafile is not None and cadata is not None:
        raise UsageError("set ssl.truststore.location or ssl.truststore.certificates, not both")
    algorithm = props.get("ssl.endpoint.identification.algorithm", "https").strip()
    return SslSettings(
        cafile=cafile,
        cadata=cadata,
        certfile=certfile,
        cert_chain=chain,
        key=key,
        key_password=props.get("ssl.key.password") or props.get("ssl.keystore.password") or None,
        check_hostname=bool(algorithm),
        minimum_tls="TLSv1.3" if props.get("ssl.enabled.protocols", "").strip() == "TLSv1.3" else "TLSv1.2",
    )


def _pem_store(props: Mapping[str, str], prefix: str) -> Path | None:
    location = props.get(f"{prefix}.location", "").strip()
    if not location:
        return None
    path = Path(location).expanduser()
    store_type = props.get(f"{prefix}.type", "").strip().upper()
    from kcli.files import PEM_LIMIT, read_bytes

    try:
        content = read_bytes(path, what=f"{prefix}.location", limit=PEM_LIMIT)
    except FileNotFoundError:
        raise UsageError(f"{prefix}.location {path} does not exist") from None
    except OSError as error:
        raise UsageError(f"cannot read {prefix}.location {path}: {error.strerror}") from None
    looks_pem = b"-----BEGIN" in content[:4096]
    if store_type in ("JKS", "PKCS12") or (store_type != "PEM" and not looks_pem):
        kind = store_type or "a binary (JKS or PKCS12)"
        raise UsageError(f"{prefix}.location {path} is {kind} store", hint=_CONVERT_HINT.format(key=prefix))
    if not looks_pem:
        raise UsageError(f"{prefix}.location {path} has {prefix}.type=PEM but holds no PEM block")
    if prefix == "ssl.keystore" and b"PRIVATE KEY" not in content:
        raise UsageError(
            f"ssl.keystore.location {path} holds no private key",
            hint="a PEM keystore holds the private key and the certificate chain in one file, as Kafka "
            "expects; e.g. `cat client.key client.pem > keystore.pem`",
        )
    return path
