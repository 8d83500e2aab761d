"""kafka-python admin clients against a sandbox (an independent client implementation)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


@contextmanager
def admin(bootstrap: str, **options: Any) -> Iterator[Any]:
    """A kafka-python KafkaAdminClient with short timeouts, closed afterwards."""
    from kafka.admin import KafkaAdminClient

    client = KafkaAdminClient(
        bootstrap_servers=bootstrap, request_timeout_ms=10_000, client_id="kcli-sandbox-test", **options
    )
    try:
        yield client
    finally:
        client.close()
