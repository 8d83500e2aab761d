"""The emulator's OAUTHBEARER and AWS_MSK_IAM server side: Kafka's unsecured validator and an MSK IAM signature check.

Behavior:
- The client message is parsed as Kafka's OAuthBearerClientInitialResponse does (GS2 header, then
  0x01-separated kvpairs with auth=Bearer TOKEN and SASL extensions); extensions are kept on the
  session (Kafka's broker ignores those no validator accepts).
- An unsecured JWS (alg none, Kafka's OAuthBearerUnsecuredValidatorCallbackHandler): the principal
  claim sub is required, exp is required and must not have passed, iat may not be in the future
  (no clock skew allowed, the unsecured validator's default).
- An Amazon MSK IAM token (base64url of a presigned kafka.REGION.amazonaws.com URL) or an
  AWS_MSK_IAM JSON message: the action must be kafka-cluster:Connect, the signature (AWS SigV4,
  service kafka-cluster) must verify against the access key's secret in the sandbox's IAM table,
  and the signature must not have expired (X-Amz-Date + X-Amz-Expires). The check recomputes the
  signature with botocore (kcli-kafka[aws]); without it such logins fail with a line saying so.
- Signed JWTs (RS256 ...) are not checked: the emulator has no JWKS; it says so in the error.
"""

from __future__ import annotations

import datetime
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from urllib.parse import parse_qsl, urlsplit

_KVPAIRS = re.compile(
    r"n,(?:a=[^,]*)?,\x01(?P<kvpairs>(?:[A-Za-z]+=[\x21-\x7E \t\r\n]+\x01)*)\x01", re.DOTALL
)
IAM_ACTION = "kafka-cluster:Connect"
IAM_SERVICE = "kafka-cluster"


class BearerRejected(ValueError):
    """The token was refused; `status` is the RFC 7628 error status sent to the client."""

    def __init__(self, message: str, status: str = "invalid_token") -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True, slots=True)
class BearerLogin:
    principal: str
    lifetime_ms: int
    extensions: Mapping[str, str] = field(default_factory=dict)


def parse_client_message(message: bytes) -> tuple[str, dict[str, str]]:
    """(token, extensions) of an OAUTHBEARER client message."""
    text = message.decode("utf-8", errors="replace")
    match = _KVPAIRS.fullmatch(text)
    if match is None:
        raise BearerRejected("Invalid OAUTHBEARER client first message", status="invalid_request")
    pairs = dict(part.split("=", 1) for part in match.group("kvpairs").split("\x01") if part)
    auth = pairs.pop("auth", "")
    scheme, _, token = auth.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise BearerRejected(
            "Invalid OAUTHBEARER client first message: invalid 'auth' format", status="invalid_request"
        )
    return token.strip(), pairs


def check_bearer(message: bytes, iam_users: Mapping[str, str], now: float) -> BearerLogin:
    token, extensions = parse_client_message(message)
    parts = token.split(".")
    if len(parts) == 3:
        header = _json_part(parts[0])
        if header.get("alg") != "none":
            raise BearerRejected(
                f"the sandbox checks only unsecured (alg none) tokens and MSK IAM tokens, not {header.get('alg')}"
            )
        return _unsecured(_json_part(parts[1]), extensions, now)
    from jwt.utils import base64url_decode

    try:
        url = base64url_decode(token).decode("utf-8")
    except ValueError:
        raise BearerRejected("the token is neither a JWS nor an MSK IAM token") from None
    if not url.startswith("https://"):
        raise BearerRejected("the token is neither a JWS nor an MSK IAM token")
    parsed = urlsplit(url)
    params = dict(parse_qsl(parsed.query, keep_blank_values=True))
    params.pop("User-Agent", None)  # added after signing by AWS's signer library
    principal, lifetime = check_sigv4(parsed.hostname or "", params, iam_users, now)
    return BearerLogin(principal=principal, lifetime_ms=lifetime, extensions=extensions)


def check_iam_message(message: bytes, iam_users: Mapping[str, str], now: float) -> tuple[str, bytes]:
    """AWS_MSK_IAM: (principal, the server's JSON answer) for a valid signed payload."""
    try:
        document = json.loads(message.decode("utf-8"))
    except ValueError:
        raise BearerRejected("the AWS_MSK_IAM message is not JSON") from None
    if not isinstance(document, dict) or document.get("version") != "2020_10_22":
        raise BearerRejected("the AWS_MSK_IAM message has no supported version")
    if document.get("action") != IAM_ACTION:
        raise BearerRejected(f"the AWS_MSK_IAM message's action is not {IAM_ACTION}")
    names = {"x-amz-algorithm": "X-Amz-Algorithm", "x-amz-credential": "X-Amz-Credential", "x-amz-date": "X-Amz-Date",
             "x-amz-expires": "X-Amz-Expires", "x-amz-signedheaders": "X-Amz-SignedHeaders",
             "x-amz-signature": "X-Amz-Signature", "x-amz-security-token": "X-Amz-Security-Token"}  # fmt: skip
    params = {"Action": IAM_ACTION, **{names[k]: str(v) for k, v in document.items() if k in names}}
    principal, _ = check_sigv4(str(document.get("host", "")), params, iam_users, now)
    return principal, json.dumps({"version": "2020_10_22", "request-id": "kcli-sandbox"}).encode()


def check_sigv4(
    host: str, params: Mapping[str, str], iam_users: Mapping[str, str], now: float
) -> tuple[str, int]:
    """(principal, remaining lifetime ms) of a presigned kafka-cluster:Connect request, else BearerRejected."""
    if params.get("Action") != IAM_ACTION:
        raise BearerRejected(f"the IAM request's action is not {IAM_ACTION}")
    credential = params.get("X-Amz-Credential", "").split("/")
    if len(credential) != 5 or credential[3] != IAM_SERVICE or credential[4] != "aws4_request":
        raise BearerRejected("the IAM request has no valid X-Amz-Credential")
    access_key, region = credential[0], credential[2]
    secret = iam_users.get(access_key)
    if secret is None:
        raise BearerRejected(f"unknown IAM access key {access_key}")
    try:
        signed_at = datetime.datetime.strptime(params.get("X-Amz-Date", ""), "%Y%m%dT%H%M%SZ").replace(
            tzinfo=datetime.UTC
        )
        expires = int(params.get("X-Amz-Expires", ""))
    except ValueError:
        raise BearerRejected("the IAM request has no valid X-Amz-Date or X-Amz-Expires") from None
    remaining = signed_at.timestamp() + expires - now
    if remaining <= 0:
        raise BearerRejected("the IAM signature has expired")
    try:
        from botocore.auth import SigV4QueryAuth
        from botocore.awsrequest import AWSRequest
        from botocore.credentials import Credentials
    except ImportError:
        raise BearerRejected(
            "the sandbox checks MSK IAM signatures with botocore: pip install 'kcli-kafka[aws]'"
        ) from None
    unsigned = {k: v for k, v in params.items() if k != "X-Amz-Signature"}
    request = AWSRequest(method="GET", url=f"https://{host}/", params=unsigned)
    request.context["timestamp"] = params["X-Amz-Date"]
    request.url = request.prepare().url  # the query string, as the signer saw it
    request.params = {}
    auth = SigV4QueryAuth(
        Credentials(access_key, secret, params.get("X-Amz-Security-Token")), IAM_SERVICE, region, expires
    )
    expected = auth.signature(auth.string_to_sign(request, auth.canonical_request(request)), request)
    import hmac

    if not hmac.compare_digest(expected, params.get("X-Amz-Signature", "")):
        raise BearerRejected("the IAM signature does not match (wrong secret key?)")
    return f"User:{access_key}", int(remaining * 1000)


def _unsecured(claims: Mapping[str, object], extensions: Mapping[str, str], now: float) -> BearerLogin:
    subject, expires, issued = claims.get("sub"), claims.get("exp"), claims.get("iat")
    if not isinstance(subject, str) or not subject.strip():
        raise BearerRejected("the token has no sub claim")
    if not isinstance(expires, int | float):
        raise BearerRejected("the token has no exp claim")
    if expires <= now:
        raise BearerRejected("the token has expired")
    if isinstance(issued, int | float) and issued > now + 1:
        raise BearerRejected("the token was issued in the future")
    return BearerLogin(
        principal=f"User:{subject}", lifetime_ms=int((expires - now) * 1000), extensions=dict(extensions)
    )


def _json_part(part: str) -> dict[str, object]:
    from jwt.utils import base64url_decode

    try:
        document = json.loads(base64url_decode(part))
    except ValueError:
        raise BearerRejected("the token is not a JWS (its parts are not base64url JSON)") from None
    if not isinstance(document, dict):
        raise BearerRejected("the token is not a JWS")
    return document
