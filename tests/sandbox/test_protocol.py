"""Protocol-level behaviour of the sandbox: endpoint types, ApiVersions, KIP-1242, bad input."""

from __future__ import annotations

import socket
import struct
from typing import Any

import pytest

from tests.sandbox.raw import RawConnection, first

pytestmark = pytest.mark.sandbox


def describe_cluster(address: str, endpoint_type: int, version: int = 1) -> Any:
    from kio.index import load_request_schema

    cls = load_request_schema(60, version)
    fields: dict[str, Any] = {"include_cluster_authorized_operations": False}
    if version >= 1:
        fields["endpoint_type"] = endpoint_type
    if version >= 2:
        fields["include_fenced_brokers"] = False
    with RawConnection(address) as conn:
        return conn.call(cls(**fields))


def test_controllers_answer_describe_cluster_with_controllers(sandbox: Any) -> None:
    response = describe_cluster(first(sandbox.bootstrap_controllers), endpoint_type=2, version=2)
    assert response.error_code.value == 0
    assert response.endpoint_type == 2
    assert response.cluster_id == sandbox.cluster_id
    assert response.controller_id == sandbox.active_controller_id
    assert sorted(b.broker_id for b in response.brokers) == [101, 102, 103]


@pytest.mark.parametrize(
    ("listener", "endpoint_type"), [("bootstrap_servers", 2), ("bootstrap_controllers", 1)]
)
def test_wrong_endpoint_type_is_mismatched(sandbox: Any, listener: str, endpoint_type: int) -> None:
    response = describe_cluster(first(getattr(sandbox, listener)), endpoint_type=endpoint_type)
    assert response.error_code.value == 114  # MISMATCHED_ENDPOINT_TYPE
    assert response.brokers == ()


def test_unknown_endpoint_type_is_unsupported(sandbox: Any) -> None:
    response = describe_cluster(first(sandbox.bootstrap_servers), endpoint_type=3)
    assert response.error_code.value == 115


def test_api_versions_advertises_listener_apis_and_features(sandbox: Any) -> None:
    from kio.schema.api_versions.v4.request import ApiVersionsRequest

    request = ApiVersionsRequest(client_software_name="t", client_software_version="1")
    with RawConnection(first(sandbox.bootstrap_servers)) as conn:
        broker = conn.call(request)
    with RawConnection(first(sandbox.bootstrap_controllers)) as conn:
        controller = conn.call(request)
    broker_keys = {k.api_key: (k.min_version, k.max_version) for k in broker.api_keys}
    controller_keys = {k.api_key for k in controller.api_keys}
    assert broker_keys[18] == (0, 5)
    assert broker_keys[0] == (0, 13)  # Produce from 0 as Kafka 4 advertises it (KAFKA-18659), answered from 3
    assert 3 in broker_keys and 3 not in controller_keys  # Metadata: brokers only
    assert 58 in controller_keys and 58 not in broker_keys  # Envelope: controllers only
    finalized = {f.name: f.max_version_level for f in broker.finalized_features}
    assert finalized["metadata.version"] >= 7
    assert finalized["kraft.version"] == 1
    assert "group.version" in {f.name for f in broker.supported_features}


def _api_versions_v5(cluster_id: str | None, node_id: int) -> bytes:
    import io

    from kio.serial.writers import write_compact_string, write_nullable_compact_string

    body = io.BytesIO()
    # header v2: key, version, correlation id, client id (int16 length), no tags
    body.write(struct.pack(">hhih", 18, 5, 7, 1) + b"t" + b"\x00")
    write_compact_string(body, "kcli-test")
    write_compact_string(body, "1.0")
    write_nullable_compact_string(body, cluster_id)
    body.write(struct.pack(">i", node_id))
    body.write(b"\x00")
    data = body.getvalue()
    return struct.pack(">i", len(data)) + data


def _api_versions_v5_answer(address: str, cluster_id: str | None, node_id: int) -> Any:
    from kio.schema.api_versions.v4.response import ApiVersionsResponse
    from kio.serial import entity_reader

    with RawConnection(address) as conn:
        conn.send_bytes(_api_versions_v5(cluster_id, node_id))
        frame = conn.read_frame()
    assert struct.unpack_from(">i", frame, 0)[0] == 7
    body, _ = entity_reader(ApiVersionsResponse)(frame, 4)
    return body


def test_api_versions_v5_checks_cluster_and_node(sandbox: Any) -> None:
    address = f"127.0.0.1:{sandbox.port_of(2)}"
    ok = _api_versions_v5_answer(address, sandbox.cluster_id, 2)
    assert ok.error_code.value == 0 and ok.api_keys
    assert _api_versions_v5_answer(address, "someone-else", 2).error_code.value == 129
    wrong_node = _api_versions_v5_answer(address, sandbox.cluster_id, 3)
    assert wrong_node.error_code.value == 129  # REBOOTSTRAP_REQUIRED
    no_cluster = _api_versions_v5_answer(address, None, 2)
    assert no_cluster.error_code.value == 42 and no_cluster.api_keys == ()  # INVALID_REQUEST
    no_node = _api_versions_v5_answer(address, sandbox.cluster_id, -1)
    assert no_node.error_code.value == 42 and no_node.api_keys == ()  # ApiVersionsRequest.isValid
    assert _api_versions_v5_answer(address, None, -1).error_code.value == 0


def test_controllers_check_only_that_both_ids_or_neither_are_given(sandbox: Any) -> None:
    """Kafka 4.4's controllers validate ApiVersions v5 but never compare its ids with their own."""
    address = f"127.0.0.1:{sandbox.port_of(101)}"
    assert _api_versions_v5_answer(address, "someone-else", 2).error_code.value == 0
    assert _api_versions_v5_answer(address, sandbox.cluster_id, 102).error_code.value == 0
    assert _api_versions_v5_answer(address, sandbox.cluster_id, -1).error_code.value == 42


def test_a_sasl_listener_answers_the_first_api_versions_unchecked(make_sandbox: Any) -> None:
    """Before the login a SASL listener's authenticator answers ApiVersions itself, without the ids'
    check of the request handler (kcli asks again after the login; tests/client covers that)."""
    sb = make_sandbox(controllers=1, brokers=2, security="sasl_plaintext")
    address = f"127.0.0.1:{sb.port_of(1)}"
    answered = _api_versions_v5_answer(address, "someone-else", 2)
    assert answered.error_code.value == 0 and answered.api_keys
    assert _api_versions_v5_answer(address, sb.cluster_id, -1).error_code.value == 42


def test_one_user_altered_twice_in_one_scram_request_is_refused(sandbox: Any) -> None:
    """Kafka 4.4's controller keys AlterUserScramCredentials by user: two mechanisms of one user in one
    request are DUPLICATE_RESOURCE (kafka-configs.sh's documented SCRAM-SHA-256=[..],SCRAM-SHA-512=[..]
    fails so; kcli sends one request per mechanism)."""
    from kio.schema.alter_user_scram_credentials.v0.request import (
        AlterUserScramCredentialsRequest,
        ScramCredentialUpsertion,
    )
    from kio.static.primitive import i8, i32

    def upsertion(mechanism: int) -> Any:
        return ScramCredentialUpsertion(
            name="twice",
            mechanism=i8(mechanism),
            iterations=i32(4096),
            salt=b"s" * 16,
            salted_password=b"p" * 32,
        )

    with RawConnection(first(sandbox.bootstrap_servers)) as conn:
        response = conn.call(
            AlterUserScramCredentialsRequest(deletions=(), upsertions=(upsertion(1), upsertion(2)))
        )
    ((result),) = response.results
    assert (result.user, result.error_code.value) == ("twice", 92)  # DUPLICATE_RESOURCE


def test_unsupported_api_versions_version_answers_v0(sandbox: Any) -> None:
    from kio.schema.api_versions.v0.response import ApiVersionsResponse
    from kio.serial import entity_reader

    header = struct.pack(">hhih", 18, 99, 5, 1) + b"t"
    with RawConnection(first(sandbox.bootstrap_servers)) as conn:
        conn.send_bytes(struct.pack(">i", len(header)) + header)
        frame = conn.read_frame()
    body, _ = entity_reader(ApiVersionsResponse)(frame, 4)
    assert body.error_code.value == 35
    assert 18 in {k.api_key for k in body.api_keys}


@pytest.mark.parametrize(
    "payload",
    [
        pytest.param(struct.pack(">i", 200_000_000), id="oversized-frame"),
        pytest.param(struct.pack(">ihhi", 8, 999, 0, 1), id="unknown-api-key"),
        pytest.param(struct.pack(">ihhi", 8, 3, 77, 1), id="unknown-version"),
        pytest.param(struct.pack(">ihhih", 10, 0, 0, 1, 0), id="produce-v0-advertised-only"),
        pytest.param(struct.pack(">ihhih", 12, 3, 12, 1, 50) + b"ab", id="malformed-body"),
        pytest.param(struct.pack(">i", 3) + b"abc", id="short-frame"),
    ],
)
def test_bad_input_closes_only_that_connection(sandbox: Any, payload: bytes) -> None:
    from kio.schema.api_versions.v3.request import ApiVersionsRequest

    address = first(sandbox.bootstrap_servers)
    with RawConnection(address) as healthy, RawConnection(address) as bad:
        bad.send_bytes(payload)
        with pytest.raises((ConnectionError, socket.timeout, OSError)):
            bad.read_frame()
        answer = healthy.call(ApiVersionsRequest(client_software_name="t", client_software_version="1"))
    assert answer.error_code.value == 0


def test_every_version_served_has_kio_classes() -> None:
    """What the registry answers (and the fuzzers walk) is only what kio can decode: the versions a
    node merely advertises (Produce 0-2) are not in the served range."""
    from kcli.client import protocol
    from kcli.sandbox.emulator.registry import load_all

    specs = load_all()
    for spec in specs.values():
        for version in range(spec.min_version, spec.max_version + 1):
            assert protocol.request_class(spec.name, version) and protocol.response_class(spec.name, version)
    assert (specs[0].min_version, specs[0].advertised) == (3, (0, 13))


def test_metadata_is_not_served_by_controllers(sandbox: Any) -> None:
    from kio.schema.metadata.v12.request import MetadataRequest

    with RawConnection(first(sandbox.bootstrap_controllers)) as conn, pytest.raises(ConnectionError):
        conn.call(
            MetadataRequest(
                topics=None, allow_auto_topic_creation=False, include_topic_authorized_operations=False
            )
        )
