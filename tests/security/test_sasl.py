"""SASL end to end on the sandbox: PLAIN only with a warning outside TLS, SCRAM with the server's proof checked."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import invoke

pytestmark = [pytest.mark.sandbox, pytest.mark.timeout(120)]  # no case hangs

SASL_AUTHENTICATE = 36
PLAIN_WARNING = "Warning: SASL PLAIN over SASL_PLAINTEXT sends the password unencrypted; use SASL_SSL."


def test_plain_over_plaintext_warns_and_names_the_risk(sasl_sandbox: Any) -> None:
    sb = sasl_sandbox
    result = invoke("cluster-id", "-b", sb.bootstrap_servers, "-c", str(sb.command_config("admin")))
    assert result.code == 0, result.stderr
    assert PLAIN_WARNING in result.stderr
    assert "admin-secret" not in result.stderr + result.stdout


@pytest.mark.parametrize("mechanism", ["SCRAM-SHA-256", "SCRAM-SHA-512"])
def test_scram_over_plaintext_works_without_a_warning(sasl_sandbox: Any, mechanism: str) -> None:
    sb = sasl_sandbox
    config = sb.command_config("alice", mechanism=mechanism)
    result = invoke("cluster-id", "-b", sb.bootstrap_servers, "-c", str(config))
    assert result.code == 0, result.stderr
    assert "Warning" not in result.stderr


def test_wrong_password_is_one_line_without_the_password(sasl_sandbox: Any, tmp_path: Path) -> None:
    sb = sasl_sandbox
    text = (
        sb.command_config("alice", mechanism="SCRAM-SHA-256")
        .read_text()
        .replace("alice-secret", "wrong-pw-4711")
    )
    config = tmp_path / "wrong.properties"
    config.write_text(text)
    result = invoke("cluster-id", "-b", sb.bootstrap_servers, "-c", str(config))
    assert result.code == 1
    assert "wrong-pw-4711" not in result.stdout + result.stderr
    errors = [line for line in result.stderr.splitlines() if line.startswith("Error: ")]
    assert len(errors) == 1 and "authentication" in errors[0].lower(), result.stderr


def test_scram_server_that_cannot_prove_the_password_is_rejected(sasl_sandbox: Any) -> None:
    """The server-final message's signature is replaced: the client refuses the server, sends nothing else."""
    from kcli.sandbox.emulator.registry import load_all

    sb = sasl_sandbox
    handler = load_all()[SASL_AUTHENTICATE].handler
    after_auth: list[int] = []

    async def forge_signature(ctx: Any, request: Any) -> Any:
        response = await handler(ctx, request)
        if bytes(response.auth_bytes).startswith(b"v="):
            return dataclasses.replace(response, auth_bytes=b"v=" + b"A" * 44)
        return response

    async def count(ctx: Any, request: Any) -> None:
        after_auth.append(ctx.api_key)
        return None

    sb.control(SASL_AUTHENTICATE, forge_signature)
    sb.control(60, count)
    sb.control(3, count)
    try:
        config = sb.command_config("alice", mechanism="SCRAM-SHA-512")
        result = invoke("cluster-id", "-b", sb.bootstrap_servers, "-c", str(config))
    finally:
        for key in (SASL_AUTHENTICATE, 60, 3):
            sb.control(key, None)
    assert result.code == 1, (result.stdout, result.stderr)
    errors = [line for line in result.stderr.splitlines() if line.startswith("Error: ")]
    assert len(errors) == 1, result.stderr
    assert "signature is wrong" in errors[0]
    assert after_auth == []  # no request followed the failed proof
