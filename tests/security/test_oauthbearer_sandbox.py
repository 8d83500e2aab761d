"""OAUTHBEARER and Amazon MSK IAM against the sandbox emulator: Kafka's unsecured JWS login with SASL
extensions, MSK IAM tokens made by AWS's signer library from test credentials (checked by the
emulator's SigV4 verification), and AWS_MSK_IAM; each refusal is one line without a secret."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from kcli.sandbox.settings import DEFAULT_IAM_USERS
from tests.conftest import CliResult, invoke

pytestmark = pytest.mark.sandbox

SASL_AUTHENTICATE = 36
OAUTH_MODULE = "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule"
IAM_HANDLER = "software.amazon.msk.auth.iam.IAMOAuthBearerLoginCallbackHandler"
ACCESS_KEY, SECRET_KEY = next(iter(DEFAULT_IAM_USERS.items()))


def run(sb: Any, tmp_path: Path, props: dict[str, str], environ: dict[str, str | None] | None = None) -> CliResult:
    path = tmp_path / "client.properties"
    path.write_text("".join(f"{k}={v}\n" for k, v in {"security.protocol": "SASL_PLAINTEXT", **props}.items()))
    return invoke("cluster-id", "-b", sb.bootstrap_servers, "-c", str(path), environ=environ)


def one_line(result: CliResult, code: int) -> str:
    assert result.code == code, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr
    return lines[0]


def unsecured(options: str) -> dict[str, str]:
    return {"sasl.mechanism": "OAUTHBEARER", "sasl.jaas.config": f"{OAUTH_MODULE} required {options};"}


def test_unsecured_login_carries_its_extensions(sasl_sandbox: Any, tmp_path: Path) -> None:
    from kcli.sandbox.emulator.registry import load_all

    sb = sasl_sandbox
    handler = load_all()[SASL_AUTHENTICATE].handler
    seen: list[tuple[str, dict[str, str]]] = []

    async def capture(ctx: Any, request: Any) -> Any:
        response = await handler(ctx, request)
        session = ctx.extra["session"]
        if session.authenticated:
            seen.append((session.principal, dict(session.sasl_extensions)))
        return response

    sb.control(SASL_AUTHENTICATE, capture)
    try:
        result = run(sb, tmp_path, unsecured(
            'unsecuredLoginStringClaim_sub="admin" unsecuredLoginListClaim_scope=",ops,read" '
            'unsecuredLoginExtension_traceId="abc123" unsecuredLoginExtension_team="data ops"'
        ))  # fmt: skip
    finally:
        sb.control(SASL_AUTHENTICATE, None)
    assert result.code == 0, result.stderr
    assert result.stdout.strip() == f"Cluster ID: {sb.cluster_id}"
    assert seen and all(s == ("User:admin", {"traceId": "abc123", "team": "data ops"}) for s in seen)


def test_expired_unsecured_token_is_refused_with_the_rfc7628_status(sasl_sandbox: Any, tmp_path: Path) -> None:
    line = one_line(run(sasl_sandbox, tmp_path, unsecured(
        'unsecuredLoginStringClaim_sub="admin" unsecuredLoginLifetimeSeconds="-60"'
    )), 1)  # fmt: skip
    assert "SASL_AUTHENTICATION_FAILED" in line and "expired" in line and "invalid_token" in line


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        ('unsecuredLoginStringClaim_scope="x"', "has no sub claim"),
        ('unsecuredLoginExtension_x="y"', "needs claims"),
        ('unsecuredLoginStringClaim_sub="a" unsecuredLoginStringClaim_exp="1"', "exp claim cannot be set"),
        ('unsecuredLoginStringClaim_sub="a" unsecuredLoginExtension_auth="x"', "extension name 'auth' is invalid"),
        ('unsecuredLoginStringClaim_sub="a" unsecuredLoginExtension_b2="x"', "extension name 'b2' is invalid"),
    ],
)
def test_bad_unsecured_logins_are_usage_errors(sasl_sandbox: Any, tmp_path: Path, options: str, expected: str) -> None:
    assert expected in one_line(run(sasl_sandbox, tmp_path, unsecured(options)), 2)


def aws_env(secret: str | None = SECRET_KEY) -> dict[str, str | None]:
    """Fake test credentials in the environment, and no other AWS configuration (None unsets)."""
    return {"AWS_ACCESS_KEY_ID": ACCESS_KEY if secret else None, "AWS_SECRET_ACCESS_KEY": secret,
            "AWS_REGION": "eu-west-1", "AWS_SESSION_TOKEN": None, "AWS_PROFILE": None,
            "AWS_CONFIG_FILE": "/nonexistent", "AWS_SHARED_CREDENTIALS_FILE": "/nonexistent",
            "AWS_EC2_METADATA_DISABLED": "true", "AWS_CONTAINER_CREDENTIALS_FULL_URI": None,
            "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI": None}  # fmt: skip


IAM_OAUTH = {
    "sasl.mechanism": "OAUTHBEARER",
    "sasl.login.callback.handler.class": IAM_HANDLER,
    "sasl.jaas.config": f"{OAUTH_MODULE} required;",
}
IAM_NATIVE = {
    "sasl.mechanism": "AWS_MSK_IAM",
    "sasl.jaas.config": "software.amazon.msk.auth.iam.IAMLoginModule required;",
    "sasl.client.callback.handler.class": "software.amazon.msk.auth.iam.IAMClientCallbackHandler",
}


@pytest.mark.parametrize("props", [IAM_OAUTH, IAM_NATIVE], ids=["oauthbearer", "aws_msk_iam"])
def test_msk_iam_signed_with_test_credentials(sasl_sandbox: Any, tmp_path: Path, props: dict[str, str]) -> None:
    pytest.importorskip("aws_msk_iam_sasl_signer", reason="kcli-kafka[aws] is not installed")
    result = run(sasl_sandbox, tmp_path, props, aws_env())
    assert result.code == 0, result.stderr
    assert result.stdout.strip() == f"Cluster ID: {sasl_sandbox.cluster_id}"
    wrong = run(sasl_sandbox, tmp_path, props, aws_env(secret="not-the-secret-key-42"))
    line = one_line(wrong, 1)
    assert "IAM signature does not match" in line and "not-the-secret-key-42" not in wrong.stderr


def test_msk_iam_without_credentials_is_one_line(sasl_sandbox: Any, tmp_path: Path) -> None:
    pytest.importorskip("aws_msk_iam_sasl_signer", reason="kcli-kafka[aws] is not installed")
    line = one_line(run(sasl_sandbox, tmp_path, IAM_NATIVE, aws_env(secret=None)), 1)
    assert "AWS IAM" in line and "credentials" in line


def test_gssapi_is_not_offered_by_the_emulator(sasl_sandbox: Any, tmp_path: Path) -> None:
    props = {
        "sasl.mechanism": "GSSAPI",
        "sasl.kerberos.service.name": "kafka",
        "sasl.jaas.config": "com.sun.security.auth.module.Krb5LoginModule required useTicketCache=true;",
    }
    line = one_line(run(sasl_sandbox, tmp_path, props), 1)
    assert "SASL mechanism GSSAPI is not enabled" in line and "OAUTHBEARER" in line
