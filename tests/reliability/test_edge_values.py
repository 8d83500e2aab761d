"""Bounds and edge values: each is one clear line and a usage error (or an authentication failure),
never minutes of work past every deadline nor "this is a bug in kcli".

Each case is the reproduction of a report: a SCRAM count no Kafka broker would ever store, a
client.id Kafka's protocol cannot carry, a broker id past Java's int, a host label past DNS's 63.
"""

from __future__ import annotations

import time

import pytest

from kcli.client.errors import AuthenticationFailed
from kcli.client.sasl import ScramClient
from tests.conftest import invoke

NOWHERE = ["-b", "127.0.0.1:1"]  # never dialled: every case fails before connecting
BUG = "this is a bug in kcli"


# ---- SCRAM iterations: Kafka's 4096..16384 ----------------------------------------------------------


@pytest.mark.timeout(20)
@pytest.mark.parametrize(
    ("count", "message"),
    [
        ("2000000000", "the server asks 2000000000 iterations, more than the 16384 any Kafka broker stores"),
        ("16385", "the server asks 16385 iterations, more than the 16384 any Kafka broker stores"),
        ("99999999999999999999", "malformed salt or iteration count (99999999999999999999)"),
        ("4095", "iteration count 4095 is below 4096"),
    ],
)
def test_scram_server_first_iterations_are_bounded_before_any_hashing(count: str, message: str) -> None:
    """A server-first message with i=2000000000 ran PBKDF2 for 20+ minutes on the event loop."""
    client = ScramClient("SCRAM-SHA-512", "alice", "pw", client_nonce="abc")
    client.first_message()
    started = time.monotonic()
    with pytest.raises(AuthenticationFailed) as raised:
        client.final_message(f"r=abcdef,s=c2FsdA==,i={count}".encode())
    assert str(raised.value) == f"SCRAM authentication failed: {message}"
    assert time.monotonic() - started < 1


def test_scram_server_first_at_the_maximum_is_computed() -> None:
    client = ScramClient("SCRAM-SHA-256", "alice", "pw", client_nonce="abc")
    client.first_message()
    assert client.final_message(b"r=abcdef,s=c2FsdA==,i=16384").startswith(b"c=biws,r=abcdef,p=")


@pytest.mark.timeout(20)
@pytest.mark.parametrize(
    ("iterations", "line"),
    [
        (
            "2000000000",
            "Iterations 2000000000 is more than the maximum 16384 Kafka's controllers accept for "
            "SCRAM-SHA-256 (they answer UNACCEPTABLE_CREDENTIAL 'Too many iterations')",
        ),
        (
            "99999999999999999999",
            "Invalid SCRAM iterations for SCRAM-SHA-256: 99999999999999999999 "
            "(give a whole number from 4096 to 16384)",
        ),
        (
            "4095",
            "Iterations 4095 is less than the minimum 4096 required for SCRAM-SHA-256",
        ),
    ],
)
def test_add_config_scram_iterations_are_bounded_before_any_hashing(iterations: str, line: str) -> None:
    """`--add-config SCRAM-SHA-256=[iterations=2000000000,...]` hashed for minutes before the
    broker refused it; a 20-digit count was "unexpected OverflowError"."""
    started = time.monotonic()
    result = invoke(
        "configs", *NOWHERE, "--alter", "--entity-type", "users", "--entity-name", "alice",
        "--add-config", f"SCRAM-SHA-256=[iterations={iterations},password=alice-secret]",
    )  # fmt: skip
    assert (result.code, result.stderr) == (2, f"Error: {line}\n")
    assert time.monotonic() - started < 5
