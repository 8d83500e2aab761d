"""A minimal blocking Kafka client for tests: kio request objects in, kio response objects out."""

from __future__ import annotations

import io
import socket
import struct
from typing import Any


class RawConnection:
    """One TCP connection speaking length-prefixed Kafka frames."""

    def __init__(self, address: str, timeout: float = 10.0) -> None:
        host, port = address.rsplit(":", 1)
        self.sock = socket.create_connection((host, int(port)), timeout=timeout)
        self.correlation_id = 0

    def __enter__(self) -> RawConnection:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.sock.close()

    def send_bytes(self, payload: bytes) -> None:
        self.sock.sendall(payload)

    def read_frame(self) -> bytes:
        size = struct.unpack(">i", self._read(4))[0]
        return self._read(size)

    def _read(self, count: int) -> bytes:
        data = b""
        while len(data) < count:
            chunk = self.sock.recv(count - len(data))
            if not chunk:
                raise ConnectionError("closed by the server")
            data += chunk
        return data

    def call(self, request: Any, response_cls: type | None = None) -> Any:
        """Send `request` (a kio request object) and decode its response."""
        self.send(request)
        return self.receive(request, response_cls)

    def send(self, request: Any) -> None:
        """Send `request` (a kio request object) without waiting for its response."""
        from kio.serial import entity_writer

        self.correlation_id += 1
        cls = type(request)
        header_cls = cls.__header_schema__
        buffer = io.BytesIO()
        fields = {
            "request_api_key": cls.__api_key__,
            "request_api_version": cls.__version__,
            "correlation_id": self.correlation_id,
            "client_id": "raw-test",
        }
        entity_writer(header_cls)(buffer, header_cls(**fields))
        entity_writer(cls)(buffer, request)
        data = buffer.getvalue()
        self.send_bytes(struct.pack(">i", len(data)) + data)

    def receive(self, request: Any, response_cls: type | None = None) -> Any:
        """Read and decode the response to `request`, the last one sent."""
        from kio.index import load_response_schema
        from kio.serial import entity_reader

        cls = type(request)
        frame = self.read_frame()
        schema: Any = response_cls or load_response_schema(cls.__api_key__, cls.__version__)
        header, offset = entity_reader(schema.__header_schema__)(frame, 0)
        assert header.correlation_id == self.correlation_id
        body: Any
        body, _ = entity_reader(schema)(frame, offset)
        return body


def first(addresses: str) -> str:
    return addresses.split(",")[0]
