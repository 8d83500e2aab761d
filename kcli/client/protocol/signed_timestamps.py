"""Responses whose timestamps Kafka may send as -1, in kio's style with those fields as plain int64.

kio 0.6.5 reads these fields as `datetime_i64`, which refuses a negative value, and Kafka sends -1:
- DescribeTransactions (65) v0 `TransactionStartTimeMs` of a transactional id with no transaction
  started yet (state Empty, e.g. right after InitProducerId);
- CreateDelegationToken (38) v3 `IssueTimestampMs`, `ExpiryTimestampMs`, `MaxTimestampMs`, and
  Renew/ExpireDelegationToken (39/40) v2 `ExpiryTimestampMs`, in every error answer
  (DELEGATION_TOKEN_AUTH_DISABLED, DELEGATION_TOKEN_NOT_FOUND, ...).

The client decodes these versions with the classes below (kcli.client.protocol.response_class_for);
everything else, the requests and the emulator's encoding included, uses kio's. Field order, types
and tags mirror Kafka 4.4's DescribeTransactionsResponse.json, CreateDelegationTokenResponse.json,
RenewDelegationTokenResponse.json and ExpireDelegationTokenResponse.json.
"""

from dataclasses import dataclass, field
from typing import ClassVar

from kio.schema.response_header.v1.header import ResponseHeader
from kio.static.constants import EntityType
from kio.static.primitive import i16, i32, i32Timedelta, i64

__all__ = (
    "CreateDelegationTokenResponse",
    "DescribeTransactionsResponse",
    "ExpireDelegationTokenResponse",
    "RenewDelegationTokenResponse",
)


class _DescribeTransactionsV0:
    __slots__ = ()
    __version__: ClassVar[i16] = i16(0)
    __flexible__: ClassVar[bool] = True
    __api_key__: ClassVar[i16] = i16(65)
    __header_schema__: ClassVar[type[ResponseHeader]] = ResponseHeader


@dataclass(frozen=True, slots=True, kw_only=True)
class TopicData(_DescribeTransactionsV0):
    __type__: ClassVar = EntityType.nested
    topic: str = field(metadata={"kafka_type": "string"})
    partitions: tuple[i32, ...] = field(metadata={"kafka_type": "int32"}, default=())


@dataclass(frozen=True, slots=True, kw_only=True)
class TransactionState(_DescribeTransactionsV0):
    __type__: ClassVar = EntityType.nested
    error_code: i16 = field(metadata={"kafka_type": "int16"})
    transactional_id: str = field(metadata={"kafka_type": "string"})
    transaction_state: str = field(metadata={"kafka_type": "string"})
    transaction_timeout_ms: i32 = field(metadata={"kafka_type": "int32"})
    transaction_start_time_ms: i64 = field(metadata={"kafka_type": "int64"})
    """-1 when no transaction was started."""
    producer_id: i64 = field(metadata={"kafka_type": "int64"})
    producer_epoch: i16 = field(metadata={"kafka_type": "int16"})
    topics: tuple[TopicData, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class DescribeTransactionsResponse(_DescribeTransactionsV0):
    __type__: ClassVar = EntityType.response
    throttle_time: i32Timedelta = field(metadata={"kafka_type": "timedelta_i32"})
    transaction_states: tuple[TransactionState, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class CreateDelegationTokenResponse:
    __type__: ClassVar = EntityType.response
    __version__: ClassVar[i16] = i16(3)
    __flexible__: ClassVar[bool] = True
    __api_key__: ClassVar[i16] = i16(38)
    __header_schema__: ClassVar[type[ResponseHeader]] = ResponseHeader
    error_code: i16 = field(metadata={"kafka_type": "int16"})
    principal_type: str = field(metadata={"kafka_type": "string"})
    principal_name: str = field(metadata={"kafka_type": "string"})
    token_requester_principal_type: str = field(metadata={"kafka_type": "string"})
    token_requester_principal_name: str = field(metadata={"kafka_type": "string"})
    issue_timestamp_ms: i64 = field(metadata={"kafka_type": "int64"})
    expiry_timestamp_ms: i64 = field(metadata={"kafka_type": "int64"})
    max_timestamp_ms: i64 = field(metadata={"kafka_type": "int64"})
    token_id: str = field(metadata={"kafka_type": "string"})
    hmac: bytes = field(metadata={"kafka_type": "bytes"})
    throttle_time: i32Timedelta = field(metadata={"kafka_type": "timedelta_i32"})


@dataclass(frozen=True, slots=True, kw_only=True)
class RenewDelegationTokenResponse:
    __type__: ClassVar = EntityType.response
    __version__: ClassVar[i16] = i16(2)
    __flexible__: ClassVar[bool] = True
    __api_key__: ClassVar[i16] = i16(39)
    __header_schema__: ClassVar[type[ResponseHeader]] = ResponseHeader
    error_code: i16 = field(metadata={"kafka_type": "int16"})
    expiry_timestamp_ms: i64 = field(metadata={"kafka_type": "int64"})
    throttle_time: i32Timedelta = field(metadata={"kafka_type": "timedelta_i32"})


@dataclass(frozen=True, slots=True, kw_only=True)
class ExpireDelegationTokenResponse:
    __type__: ClassVar = EntityType.response
    __version__: ClassVar[i16] = i16(2)
    __flexible__: ClassVar[bool] = True
    __api_key__: ClassVar[i16] = i16(40)
    __header_schema__: ClassVar[type[ResponseHeader]] = ResponseHeader
    error_code: i16 = field(metadata={"kafka_type": "int16"})
    expiry_timestamp_ms: i64 = field(metadata={"kafka_type": "int64"})
    throttle_time: i32Timedelta = field(metadata={"kafka_type": "timedelta_i32"})


# (schema name, version) -> the class the client decodes that response with.
CLIENT_RESPONSES: dict[tuple[str, int], type] = {
    ("describe_transactions", 0): DescribeTransactionsResponse,
    ("create_delegation_token", 3): CreateDelegationTokenResponse,
    ("renew_delegation_token", 2): RenewDelegationTokenResponse,
    ("expire_delegation_token", 2): ExpireDelegationTokenResponse,
}
