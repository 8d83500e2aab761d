"""Amazon MSK IAM logins (kcli-kafka[aws]): OAUTHBEARER tokens from AWS's signer library, and AWS_MSK_IAM payloads.

Behavior:
- Both sign the action kafka-cluster:Connect with AWS Signature V4 (service kafka-cluster) using the
  credentials botocore finds: the environment (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY,
  AWS_SESSION_TOKEN), the profile named by the JAAS option awsProfileName, or the role of
  awsRoleArn (awsRoleSessionName), as the Java library's JAAS options name them.
- The region comes from the broker's host name (b-1.NAME.xxxxxx.c2.kafka.REGION.amazonaws.com,
  or kafka-serverless), else AWS_REGION / AWS_DEFAULT_REGION or the profile's region.
- OAUTHBEARER with IAMOAuthBearerLoginCallbackHandler: the token is aws-msk-iam-sasl-signer-python's
  (a base64url presigned URL of kafka.REGION.amazonaws.com, valid 900 s).
- AWS_MSK_IAM with IAMLoginModule: one JSON message (version 2020_10_22) holding the presigned
  query parameters for the broker's host; the broker answers JSON holding its version and a
  request id.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from kcli.client.errors import AuthenticationFailed
from kcli.errors import UsageError

SERVICE = "kafka-cluster"
ACTION = "kafka-cluster:Connect"
VERSION = "2020_10_22"
EXPIRES_SECONDS = 900
_HOST_REGION = re.compile(r"\.kafka(?:-serverless)?\.([a-z0-9-]+)\.amazonaws\.com\.?$")
INSTALL_HINT = "install it with: pip install 'kcli-kafka[aws]'"


def region_for(host: str, options: Mapping[str, str]) -> str:
    match = _HOST_REGION.search(host.lower())
    if match:
        return match.group(1)
    for variable in ("AWS_REGION", "AWS_DEFAULT_REGION"):
        if os.environ.get(variable):
            return os.environ[variable]
    region = _session(options).get_config_variable("region")
    if region:
        return str(region)
    raise UsageError(
        f"AWS IAM: cannot tell the region of {host}",
        hint="set AWS_REGION, or use the broker's amazonaws.com host name",
    )


def iam_oauth_token(options: Mapping[str, str], host: str) -> tuple[str, float]:
    """An OAUTHBEARER token for Amazon MSK made by AWS's signer library: its value and when it expires
    (seconds since the epoch); kcli.client.oauth_token keeps it as its BearerToken."""
    try:
        from aws_msk_iam_sasl_signer import MSKAuthTokenProvider as provider
    except ImportError:
        raise UsageError("MSK IAM needs the Python package aws-msk-iam-sasl-signer-python", hint=INSTALL_HINT) from None
    region = region_for(host, options)
    try:
        if options.get("awsRoleArn"):
            token, expiry_ms = provider.generate_auth_token_from_role_arn(
                region, options["awsRoleArn"], options.get("awsRoleSessionName") or "MSKSASLDefaultSession"
            )
        elif options.get("awsProfileName"):
            token, expiry_ms = provider.generate_auth_token_from_profile(region, options["awsProfileName"])
        else:
            token, expiry_ms = provider.generate_auth_token(region)
    except Exception as error:  # botocore raises many kinds; the message names what is missing
        raise AuthenticationFailed(f"AWS IAM: cannot make an MSK token: {_reason(error)}", hint=_CREDENTIALS_HINT) from None
    return token, expiry_ms / 1000


def iam_payload(options: Mapping[str, str], host: str) -> bytes:
    """The AWS_MSK_IAM client message for the broker `host`: the signed request as JSON."""
    credentials = _credentials(options)
    region = region_for(host, options)
    from botocore.auth import SigV4QueryAuth
    from botocore.awsrequest import AWSRequest

    request = AWSRequest(method="GET", url=f"https://{host}/", params={"Action": ACTION})
    SigV4QueryAuth(credentials, SERVICE, region, expires=EXPIRES_SECONDS).add_auth(request)
    params = {key.lower(): value for key, value in parse_qsl(urlsplit(request.url).query)}
    message = {"version": VERSION, "host": host, "user-agent": "kcli", "action": ACTION}
    message.update({key: value for key, value in params.items() if key.startswith("x-amz-")})
    return json.dumps(message).encode("utf-8")


def check_iam_response(answer: bytes, where: str) -> None:
    try:
        document = json.loads(answer.decode("utf-8"))
    except ValueError:
        document = None
    if not isinstance(document, dict) or document.get("version") != VERSION:
        raise AuthenticationFailed(f"AWS_MSK_IAM: {where} sent an answer that is not an MSK IAM response")


def _session(options: Mapping[str, str]) -> Any:
    try:
        import botocore.session
    except ImportError:
        raise UsageError("MSK IAM needs the Python package aws-msk-iam-sasl-signer-python", hint=INSTALL_HINT) from None
    return botocore.session.Session(profile=options.get("awsProfileName") or None)


def _credentials(options: Mapping[str, str]) -> Any:
    session = _session(options)
    try:
        if options.get("awsRoleArn"):
            sts = session.create_client("sts")
            role = sts.assume_role(
                RoleArn=options["awsRoleArn"], RoleSessionName=options.get("awsRoleSessionName") or "kcli"
            )["Credentials"]
            from botocore.credentials import Credentials

            return Credentials(role["AccessKeyId"], role["SecretAccessKey"], role["SessionToken"])
        credentials = session.get_credentials()
    except Exception as error:
        raise AuthenticationFailed(f"AWS IAM: cannot load credentials: {_reason(error)}", hint=_CREDENTIALS_HINT) from None
    if credentials is None:
        raise AuthenticationFailed("AWS IAM: no AWS credentials found", hint=_CREDENTIALS_HINT)
    return credentials.get_frozen_credentials()


_CREDENTIALS_HINT = (
    "set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or awsProfileName / awsRoleArn in sasl.jaas.config"
)


def _reason(error: BaseException) -> str:
    text = " ".join(str(error).split()) or type(error).__name__
    return text[:300]
