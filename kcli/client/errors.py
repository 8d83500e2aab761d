"""Kafka error codes and the exceptions the client layer raises.

Every Kafka error code from -1 to 136 is known by its name, whether Kafka's clients retry it, the
message Kafka attaches to it and, where one helps, what the operator can do next. Names, flags and
messages are kio's ErrorCode (Kafka's Errors.java), read from kcli/data/kafka_errors.tsv, which
scripts/kio-data.py writes from kio: importing kio itself would cost the start-up path far too much.
Only what kio lacks is written here.
"""

from __future__ import annotations

from typing import NamedTuple

from kcli.data import read_text
from kcli.errors import KcliError, UsageError


class ErrorInfo(NamedTuple):  # a NamedTuple: every networked command loads it, a dataclass costs ~0.8 ms
    """What kcli knows about one Kafka error code."""

    code: int
    name: str
    retriable: bool
    message: str
    hint: str | None = None


# What kio's ErrorCode lacks: a message for NONE, and Kafka 4.4's codes. code: (NAME, retriable, message)
_NOT_IN_KIO: dict[int, tuple[str, bool, str]] = {
    0: ("NONE", False, "No error."),
    134: ("GROUP_DELETION_FAILED", False, "The deletion of the group failed."),
    135: (
        "STREAMS_TOPOLOGY_DESCRIPTION_UPDATE_FAILED",
        False,
        "The streams topology description could not be updated.",
    ),
    136: ("CONTROLLER_ID_NOT_REGISTERED", False, "The given controller ID is not registered."),
}


def _codes() -> dict[int, tuple[str, bool, str]]:
    """kio's ErrorCode as scripts/kio-data.py wrote it to kcli/data, completed by _NOT_IN_KIO."""
    fields = [line.split("\t") for line in read_text("kafka_errors.tsv").splitlines()]
    codes = {int(code): (name, retriable == "1", message) for code, name, retriable, message in fields}
    codes.update(_NOT_IN_KIO)
    return codes


# What to do next, for the codes an operator of the admin tools meets.
_HINTS: dict[int, str] = {
    -1: "see the server log of that node for the cause",
    3: "check the topic name; kcli configs --bootstrap-server HOST:PORT --describe --entity-type topics lists the topics",
    7: "the server did not finish in time; retry, or raise request.timeout.ms",
    8: "the node is not available; check that it is running",
    13: "the connection was lost; check the node and the network",
    29: "the principal lacks a topic ACL; grant it with `kcli acls --add`",
    31: "the principal lacks a CLUSTER ACL (e.g. ALTER or DESCRIBE on kafka-cluster); check --command-config credentials",
    33: "set sasl.mechanism to one the server lists",
    34: "the SASL exchange got out of step; check sasl.mechanism and security.protocol",
    35: "the server does not support this request version; upgrade the cluster or use an older kcli feature",
    40: "check the config name and value (kcli configs --describe --all shows valid keys)",
    41: "the controller moved; retry (kcli does this within default.api.timeout.ms)",
    42: "the server rejected the request as malformed for this endpoint or version",
    44: "a server-side policy rejected the change; see the error message",
    54: "no authorizer is configured on this cluster, so ACLs cannot be used: set authorizer.class.name="
    "org.apache.kafka.metadata.authorizer.StandardAuthorizer on every broker and controller; "
    "for a sandbox, start it with kcli sandbox up --authorizer",
    58: "check the username and password (sasl.jaas.config) and sasl.mechanism",
    60: "a reassignment is already running; wait for it or cancel it",
    85: "there is no reassignment in progress for that partition",
    89: "the controller mutation quota was exceeded; retry later",
    91: "the resource does not exist",
    92: "the resource already exists",
    95: "the feature level is not valid for this cluster (kcli features describe shows the ranges)",
    96: "the feature update failed; see the error message",
    102: "kcli cluster list-endpoints --include-fenced-brokers lists the registered broker ids",
    104: "the node belongs to a different cluster; check the bootstrap addresses",
    114: "use --bootstrap-server for brokers and --bootstrap-controller for controllers",
    115: "bootstrapping from controllers needs metadata.version 3.7-IV0 or later; use --bootstrap-server",
    116: "the controller id is unknown to this cluster",
    126: "that node is already a voter",
    127: "kcli metadata-quorum describe --status lists the voters and their directory ids",
    129: "the server asked the client to rebootstrap; retry",
    136: "that controller id is not registered",
}

_BY_CODE: dict[int, ErrorInfo] = {
    code: ErrorInfo(code=code, name=name, retriable=retriable, message=message, hint=_HINTS.get(code))
    for code, (name, retriable, message) in sorted(_codes().items())
}


def error_info(code: int) -> ErrorInfo:
    """The name, retriable flag, message and hint of a Kafka error code (unknown codes too)."""
    info = _BY_CODE.get(code)
    if info is not None:
        return info
    return ErrorInfo(
        code=code,
        name=f"UNKNOWN_ERROR_{code}",
        retriable=False,
        message=f"Error code {code} is not known to this kcli (the server is newer).",
        hint=None,
    )


_BY_NAME: dict[str, int] = {info.name: code for code, info in _BY_CODE.items()}


def code_of(name: str) -> int:
    """The code of a Kafka error named as Kafka names it (NOT_CONTROLLER -> 41); a typo fails at import."""
    try:
        return _BY_NAME[name]
    except KeyError:
        raise ValueError(f"no Kafka error is named {name}") from None


def error_name(code: int) -> str:
    """Kafka's name for an error code, e.g. NOT_CONTROLLER for 41."""
    return error_info(code).name


class KafkaError(KcliError):
    """A Kafka error code from the server, as one operator-facing line.

    line(): "<what>: <NAME> on <node>: <message> (<hint>)".
    """

    def __init__(self, code: int, message: str | None = None, *, what: str, node: str | None = None) -> None:
        info = error_info(code)
        self.code = code
        self.name = info.name
        self.retriable = info.retriable
        self.node = node
        self.what = what
        self.server_message = message
        text = message if message and message not in ("NONE", "No error.") else info.message
        where = f" on {node}" if node else ""
        super().__init__(f"{what}: {info.name}{where}: {text}", hint=info.hint)


def check(code: int, message: str | None = None, *, what: str, node: str | None = None) -> None:
    """Raise KafkaError unless `code` is 0 (NONE)."""
    if int(code) != 0:
        raise KafkaError(int(code), message, what=what, node=node)


class ConnectionFailed(KcliError):
    """A node could not be reached, or the connection broke (TCP, TLS, SASL, or not a Kafka server)."""


class ConnectionRefused(ConnectionFailed):
    """Nothing accepted the connection (yet): worth retrying with backoff until the deadline."""


class AuthenticationFailed(ConnectionFailed):
    """SASL or TLS authentication was refused, or the server could not prove its identity."""


class RequestTimedOut(KcliError):
    """A request or the whole operation ran out of time (request.timeout.ms / default.api.timeout.ms)."""


class UnsupportedByServer(KcliError):
    """The server does not offer the API or any version of it that kcli can use."""


class ClusterIdMismatch(KcliError):
    """The cluster answering is not the one expected (expected.cluster.id, or it changed on rebootstrap)."""


class EndpointTypeMismatch(UsageError):
    """A broker was given as a controller or the reverse (KIP-919); says which flag to use."""


class ProtocolError(ConnectionFailed):
    """The peer sent bytes that are not a valid Kafka response (wrong correlation id, bad frame)."""
