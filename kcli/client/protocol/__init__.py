"""Wire-level helpers over kio: message classes by name or key, API names, framing of one request.

kio supplies every message type; this package adds what kio lacks (ApiVersions v5, KIP-1242;
UnregisterController, KIP-1312) and the header rules. kio modules are imported on first use, never when this package is imported, so that
`kcli --help` does not pay for them.

Header rules (Kafka's ApiMessageType): a flexible request uses request header v2, others v1; a
flexible response uses response header v1, others v0 — except ApiVersions, whose response always
uses header v0 so that a client can read it whatever version it asked for.
"""

from __future__ import annotations

import contextlib
import functools
import gc
import io
import struct
from collections.abc import Iterator
from typing import Any, NamedTuple

from kcli.data import read_text

API_VERSIONS_KEY = 18
MAX_FRAME_BYTES = 100 * 1024 * 1024  # Kafka's socket.request.max.bytes is 100 MiB


class ApiFacts(NamedTuple):
    """One API as kio has it: schema name, request versions, and the first flexible one (-1: none)."""

    name: str
    lowest: int
    highest: int
    first_flexible: int


# The APIs kio lacks, whose messages this package writes in kio's style (kcli.client.protocol.<name>).
NOT_IN_KIO: dict[int, ApiFacts] = {
    94: ApiFacts("unregister_controller", 0, 0, 0),  # Kafka 4.4, KIP-1312
}


def _apis() -> dict[int, ApiFacts]:
    """kio's APIs as scripts/kio-data.py wrote them to kcli/data (kio's own index imports every schema),
    and the ones this package adds."""
    apis = {}
    for line in read_text("kafka_apis.tsv").splitlines():
        key, name, lowest, highest, first_flexible = line.split("\t")
        apis[int(key)] = ApiFacts(name, int(lowest), int(highest), int(first_flexible))
    return apis | NOT_IN_KIO


APIS = _apis()
# API key -> kio schema name (kio.schema.index.api_key_map).
API_SCHEMA_NAMES: dict[int, str] = {key: api.name for key, api in APIS.items()}
# APIs of Kafka 4.4 that kcli knows by name only (no schema, so it never sends them): ApiKeys' names.
NAMED_ONLY: dict[int, str] = {93: "StreamsGroupTopologyDescriptionUpdate"}

# API keys whose schema names the broker listener (Kafka 4.x ApiKeys.clientApis()): what a client
# may ask of a broker. kafka-cluster api-versions prints UNSUPPORTED for those a node does not offer.
BROKER_LISTENER_APIS = frozenset(
    {0, 1, 2, 3, *range(8, 52), 55, 57, 60, 61, 64, 65, 66, 68, 69, 71, 72, 74, 75, *range(76, 82)}
    | set(range(83, 95))
)


def _schema_name(api: str) -> str:
    """Accept "describe_cluster", "DescribeCluster" or "describe-cluster"; return kio's schema name."""
    if "_" in api or api.islower():
        return api.replace("-", "_")
    out: list[str] = []
    for index, char in enumerate(api):
        if char.isupper() and index and not api[index - 1].isupper():
            out.append("_")
        out.append(char.lower())
    return "".join(out)


@functools.cache
def request_class(api: str, version: int) -> type[Any]:
    """The kio request class of `api` (schema name like "describe_cluster" or "DescribeCluster") at `version`."""
    return _entity_class(_schema_name(api), version, response=False)


@functools.cache
def response_class(api: str, version: int) -> type[Any]:
    """The kio response class of `api` at `version`."""
    return _entity_class(_schema_name(api), version, response=True)


def _entity_class(name: str, version: int, *, response: bool) -> type[Any]:
    if name == "api_versions" and version == 5:
        from kcli.client.protocol import api_versions_v5

        return api_versions_v5.ApiVersionsResponse if response else api_versions_v5.ApiVersionsRequest
    if name == "unregister_controller" and version == 0:
        from kcli.client.protocol import unregister_controller

        if response:
            return unregister_controller.UnregisterControllerResponse
        return unregister_controller.UnregisterControllerRequest
    # kio lays out kio.schema.<name>.v<N>.<request|response>.<Name><Request|Response>; importing that
    # module directly skips kio.index, which costs more start-up time than the module itself.
    import importlib

    kind = "response" if response else "request"
    class_name = "".join(part.capitalize() for part in name.split("_")) + kind.capitalize()
    try:
        module = importlib.import_module(f"kio.schema.{name}.v{version}.{kind}")
        return getattr(module, class_name)  # type: ignore[no-any-return]
    except (ImportError, AttributeError):
        from kio.index import load_entity_schema
        from kio.static.constants import EntityType

        return load_entity_schema(name, version, EntityType.response if response else EntityType.request)


def schema_name(api_key: int) -> str:
    """kio's schema name of an API key, e.g. 60 -> "describe_cluster" (KeyError if unknown)."""
    return API_SCHEMA_NAMES[api_key]


@functools.cache
def api_name(api_key: int) -> str:
    """Kafka's name of an API key, e.g. 60 -> "DescribeCluster" (unknown keys: "Api(N)")."""
    if api_key in NAMED_ONLY:
        return NAMED_ONLY[api_key]
    try:
        name = schema_name(api_key)
    except KeyError:
        return f"Api({api_key})"
    special = {"k_raft_version_record": "KRaftVersionRecord"}
    return special.get(name) or "".join(part.capitalize() for part in name.split("_"))


def client_versions(api_key: int) -> tuple[int, int] | None:
    """The versions of an API kcli can encode (kio's, and ApiVersions up to v5); None if unknown."""
    if api_key == API_VERSIONS_KEY:
        return 0, 5
    api = APIS.get(api_key)
    return None if api is None else (api.lowest, api.highest)


def request_header_version(api_key: int, version: int) -> int:
    """The request header version of an API version: 2 when the version is flexible, else 1."""
    first = APIS[api_key].first_flexible
    return 2 if 0 <= first <= version else 1


def response_class_for(request: Any) -> type:
    """The class the client decodes the response to a kio request object with: kio's, except the few
    whose timestamps Kafka may send as -1 (kcli.client.protocol.signed_timestamps)."""
    name, version = schema_name(int(request.__api_key__)), int(request.__version__)
    if (name, version) in SIGNED_TIMESTAMPS:
        from kcli.client.protocol.signed_timestamps import CLIENT_RESPONSES

        return CLIENT_RESPONSES[(name, version)]
    return response_class(name, version)


# Responses kio cannot read (a -1 timestamp read as datetime): kcli.client.protocol.signed_timestamps.
SIGNED_TIMESTAMPS = frozenset(
    {
        ("describe_transactions", 0),
        ("create_delegation_token", 3),
        ("renew_delegation_token", 2),
        ("expire_delegation_token", 2),
    }
)


def encode_request(request: Any, *, correlation_id: int, client_id: str | None) -> bytes:
    """One size-prefixed request frame: header v1/v2 by flexibility, then the body (kio's writer)."""
    from kio.serial import entity_writer

    flexible = bool(request.__flexible__)
    header = request_header(
        int(request.__api_key__), int(request.__version__), correlation_id, client_id, flexible
    )
    buffer = io.BytesIO()
    entity_writer(type(request))(buffer, request)
    body = buffer.getvalue()
    return struct.pack(">i", len(header) + len(body)) + header + body


def request_header(
    api_key: int, version: int, correlation_id: int, client_id: str | None, flexible: bool
) -> bytes:
    """Request header v1 (v2 when `flexible`: plus an empty tagged-field section); client id is int16-sized."""
    head = struct.pack(">hhi", api_key, version, correlation_id)
    if client_id is None:
        head += b"\xff\xff"
    else:
        raw = client_id.encode("utf-8")
        head += struct.pack(">h", len(raw)) + raw
    return head + b"\x00" if flexible else head


def response_header_flexible(api_key: int, response_type: type) -> bool:
    """Whether the response header is v1 (tagged fields after the correlation id)."""
    return api_key != API_VERSIONS_KEY and bool(getattr(response_type, "__flexible__", False))


def decode_response(frame: bytes, response_type: type, *, header_flexible: bool) -> Any:
    """Decode a response frame (without its size prefix): skip the header, read the body.

    Raises kcli.errors' DecodeError family (the length walk refused a length) or kio's decode errors on
    malformed bytes; a trailing remainder is tolerated, as Kafka's clients tolerate it.
    """
    from kcli.bounds import checked_reader  # a forged length must not reach kio's native allocator

    offset = 4
    if header_flexible:
        from kio.schema.response_header.v1.header import ResponseHeader

        _, size = checked_reader(ResponseHeader)(frame, 0)
        offset = size
    value: Any
    read = checked_reader(response_type)
    with collector_paused():
        value, _ = read(frame, offset)
    return value


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while a response is decoded.

    A large response becomes hundreds of thousands of objects, none in a reference cycle; with the
    collector running, each allocation threshold crossed rescans the growing heap, which costs
    several times the decoding itself (100k partitions: ~0.3 s instead of ~0.07 s).
    """
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def make(cls: type, **values: Any) -> Any:
    """Build a kio message from `values`, dropping the fields this version of the message lacks.

    Lets one builder serve several versions: `make(request_class("metadata", v), topics=(), ...)`.
    """
    import dataclasses

    names = {f.name for f in dataclasses.fields(cls)}
    return cls(**{key: value for key, value in values.items() if key in names})
