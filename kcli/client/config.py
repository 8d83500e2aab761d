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

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from kcli.client.config_keys import (
    HONOURED_KEYS,
    KNOWN_KAFKA_KEYS,
    SECURITY_PROTOCOLS,
    is_secret_key,
)
from kcli.client.endpoints import Endpoint, parse_endpoints
from kcli.client.toml_profiles import default_profile_name, load_profiles
from kcli.errors import UsageError
from kcli.kafka import EndpointType

if TYPE_CHECKING:
    from kcli.client.sasl_settings import SaslSettings
    from kcli.client.tls_settings import SslSettings


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
    # --debug: one line per connection event, request and response (never bodies) goes here.
    trace: Callable[[str], None] | None = field(default=None, repr=False, compare=False)

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


class _Source(NamedTuple):  # not a dataclass: every command makes this module (~0.5 ms a dataclass)
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
        from kcli.properties import read_properties_file

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
    name = profile or environ.get("KCLI_PROFILE") or None
    explicit = name is not None
    profiles = load_profiles(config_file)
    if name is None:
        name = default_profile_name(config_file) or "default"
    if name in profiles:
        from kcli.client.secret_refs import resolve_references, warn_if_exposed

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
    unknown = [key for key in sorted(props) if key not in HONOURED_KEYS and key not in KNOWN_KAFKA_KEYS]
    if unknown:
        # A server's own settings are no typo: add-controller reads the controller's server.properties
        # as its client config, and Kafka's tools pass such keys over in silence too.
        server = server_keys()
        for key in unknown:
            if key not in server:
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
    sasl = None
    if protocol.startswith("SASL_"):
        from kcli.client.sasl_settings import sasl_settings

        sasl = sasl_settings(props, protocol, warn)
    ssl = None
    if protocol in ("SSL", "SASL_SSL"):
        from kcli.client.tls_settings import ssl_settings

        ssl = ssl_settings(props)

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


def server_keys() -> frozenset[str]:
    """The broker and controller settings Kafka defines (kcli/data/config_catalogue.json)."""
    import json

    from kcli.data import read_text

    return frozenset(json.loads(read_text("config_catalogue.json"))["brokers"])


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
