"""The pre-decode length walk accepts every valid response, including nullable arrays of structs."""

from __future__ import annotations

import datetime
import io

from kcli.bounds import check


def _encoded(value: object) -> bytes:
    from kio.serial import entity_writer

    buffer = io.BytesIO()
    entity_writer(type(value))(buffer, value)
    return buffer.getvalue()


def test_describe_client_quotas_v1_with_entries_passes() -> None:
    from kio.schema.describe_client_quotas.v1.response import (
        DescribeClientQuotasResponse,
        EntityData,
        EntryData,
        ValueData,
    )
    from kio.schema.errors import ErrorCode
    from kio.static.primitive import f64, i32Timedelta

    response = DescribeClientQuotasResponse(
        throttle_time=i32Timedelta.parse(datetime.timedelta(0)),
        error_code=ErrorCode.none,
        error_message=None,
        entries=(
            EntryData(
                entity=(EntityData(entity_type="user", entity_name="alice"),),
                values=(ValueData(key="producer_byte_rate", value=f64(1024.0)),),
            ),
            EntryData(
                entity=(EntityData(entity_type="client-id", entity_name=None),),
                values=(ValueData(key="consumer_byte_rate", value=f64(2048.0)),),
            ),
        ),
    )
    data = _encoded(response)
    check(DescribeClientQuotasResponse, data, 0)  # raised LengthError before the fix

    from kio.serial import entity_reader

    decoded, size = entity_reader(DescribeClientQuotasResponse)(data, 0)
    assert size == len(data) and decoded == response
