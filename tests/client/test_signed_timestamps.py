"""Responses whose timestamps Kafka sends as -1 decode (kcli.client.protocol.signed_timestamps).

kio reads these fields as datetimes and refuses a negative one; Kafka sends -1 for a transactional id
with no transaction started (DescribeTransactions) and in every delegation-token error answer.
"""

from __future__ import annotations

import io
import struct

import pytest

from kcli.client import protocol
from kcli.client.protocol import signed_timestamps


def _frame(response: object, correlation_id: int = 7) -> bytes:
    """A response frame as a broker writes it: correlation id, header tags, body (kio's writer)."""
    from kio.serial import entity_writer

    body = io.BytesIO()
    entity_writer(type(response))(body, response)  # type: ignore[arg-type]
    return struct.pack(">i", correlation_id) + b"\x00" + body.getvalue()


def test_the_client_decodes_these_versions_with_int64_timestamps() -> None:
    assert set(signed_timestamps.CLIENT_RESPONSES) == protocol.SIGNED_TIMESTAMPS
    for (name, version), cls in signed_timestamps.CLIENT_RESPONSES.items():
        request = protocol.request_class(name, version)
        assert protocol.response_class_for(request.__new__(request)) is cls
        assert int(cls.__api_key__) == int(request.__api_key__) and int(cls.__version__) == version


def test_kio_refuses_the_minus_one_the_client_reads() -> None:
    from kio.static.primitive import i16, i32, i32Timedelta, i64

    state = signed_timestamps.TransactionState(
        error_code=i16(0),
        transactional_id="fresh",
        transaction_state="Empty",
        transaction_timeout_ms=i32(30000),
        transaction_start_time_ms=i64(-1),
        producer_id=i64(3),
        producer_epoch=i16(0),
        topics=(),
    )
    response = signed_timestamps.DescribeTransactionsResponse(
        throttle_time=i32Timedelta.parse(__import__("datetime").timedelta(0)), transaction_states=(state,)
    )
    frame = _frame(response)
    decoded = protocol.decode_response(
        frame, signed_timestamps.DescribeTransactionsResponse, header_flexible=True
    )
    assert decoded.transaction_states[0].transaction_start_time_ms == -1
    kio_class = protocol.response_class("describe_transactions", 0)
    with pytest.raises(Exception, match="negative"):
        protocol.decode_response(frame, kio_class, header_flexible=True)


def test_a_delegation_token_error_answer_decodes() -> None:
    import datetime

    from kio.static.primitive import i16, i32Timedelta, i64

    response = signed_timestamps.CreateDelegationTokenResponse(
        error_code=i16(61),  # DELEGATION_TOKEN_AUTH_DISABLED
        principal_type="",
        principal_name="",
        token_requester_principal_type="",
        token_requester_principal_name="",
        issue_timestamp_ms=i64(-1),
        expiry_timestamp_ms=i64(-1),
        max_timestamp_ms=i64(-1),
        token_id="",
        hmac=b"",
        throttle_time=i32Timedelta.parse(datetime.timedelta(0)),
    )
    decoded = protocol.decode_response(
        _frame(response), signed_timestamps.CreateDelegationTokenResponse, header_flexible=True
    )
    assert (decoded.error_code, decoded.max_timestamp_ms) == (61, -1)
