"""UnregisterController (94) v0 (KIP-1312, Kafka 4.4), written in kio's style: kio 0.6.5 has no schema for it.

Mirrors ``clients/src/main/resources/common/message/UnregisterControllerRequest.json`` /
``UnregisterControllerResponse.json`` of Kafka 4.4: listeners broker and controller (a broker forwards
it to the active controller), version 0 only, flexible from 0.

Version notes:
- The response's error code is read as a plain int16: its errors include CONTROLLER_ID_NOT_REGISTERED
  (136), which kio's ErrorCode enum (up to 133) cannot hold. kcli.client.errors names it.
"""

from dataclasses import dataclass, field
from typing import ClassVar, Final

from kio.schema.request_header.v2.header import RequestHeader
from kio.schema.response_header.v1.header import ResponseHeader
from kio.static.constants import EntityType
from kio.static.primitive import i16, i32, i32Timedelta

__all__ = ("CONTROLLER_ID_NOT_REGISTERED", "UnregisterControllerRequest", "UnregisterControllerResponse")

# Errors.CONTROLLER_ID_NOT_REGISTERED of Kafka 4.4, the error of an id with no registration; for the
# sandbox, which answers with it (kcli.client.errors names it for the client; a test keeps them equal).
CONTROLLER_ID_NOT_REGISTERED: Final = 136


class _Version0:
    """What kio reads of both v0 entities: the API key, the version, and that it is flexible."""

    __slots__ = ()
    __version__: ClassVar[i16] = i16(0)
    __flexible__: ClassVar[bool] = True
    __api_key__: ClassVar[i16] = i16(94)


@dataclass(frozen=True, slots=True, kw_only=True)
class UnregisterControllerRequest(_Version0):
    __type__: ClassVar = EntityType.request
    __header_schema__: ClassVar[type[RequestHeader]] = RequestHeader
    controller_id: i32 = field(metadata={"kafka_type": "int32"})
    """The controller ID to unregister."""


@dataclass(frozen=True, slots=True, kw_only=True)
class UnregisterControllerResponse(_Version0):
    __type__: ClassVar = EntityType.response
    __header_schema__: ClassVar[type[ResponseHeader]] = ResponseHeader
    throttle_time: i32Timedelta = field(metadata={"kafka_type": "timedelta_i32"})
    """Duration in milliseconds for which the request was throttled due to a quota violation, or zero if the request did not violate any quota."""
    error_code: i16 = field(metadata={"kafka_type": "int16"})
    """The error code, or 0 if there was no error."""
    error_message: str | None = field(metadata={"kafka_type": "string"})
    """The top-level error message, or `null` if there was no top-level error."""
