"""SCRAM credential RPCs: DescribeUserScramCredentials (50) and AlterUserScramCredentials (51).

Behavior:
- The password never leaves this process: as Kafka's Admin client does, kcli makes the salt
  (the ASCII of a random 130-bit number in base 36, ScramFormatter.secureRandomBytes) and sends
  SaltedPassword = Hi(password, salt, iterations) = PBKDF2-HMAC-SHA-256/512 (RFC 5802), so the
  broker stores what SCRAM needs without seeing the password.
- Per-user errors (RESOURCE_NOT_FOUND for a user without credentials, UNACCEPTABLE_CREDENTIAL...)
  are returned as values; the caller prints them per user.
Version notes: both v0 only (flexible).
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from kcli.client.api.wire import CallStats, make, nested, request_cls, resource_error
from kcli.kafka import ApiKey, ScramMechanism
from kcli.ops.config_model import ScramInfo
from kcli.ops.quota_plan import ScramUpsert
from kcli.ops.resource_error import ResourceError

if TYPE_CHECKING:
    from kcli.client.admin import Admin

_BASE36 = "0123456789abcdefghijklmnopqrstuvwxyz"


def random_salt() -> bytes:
    """Kafka's ScramFormatter.secureRandomBytes: BigInteger(130, random).toString(36) as UTF-8."""
    number = secrets.randbits(130)
    digits = ""
    while number:
        number, rest = divmod(number, 36)
        digits = _BASE36[rest] + digits
    return (digits or "0").encode()


def salted_password(mechanism: ScramMechanism, password: str, salt: bytes, iterations: int) -> bytes:
    """Hi(password, salt, i) from RFC 5802: PBKDF2 with the mechanism's HMAC, one hash long."""
    return hashlib.pbkdf2_hmac(mechanism.hash_name, password.encode("utf-8"), salt, iterations)


async def describe_user_scram_credentials(
    admin: Admin, users: Sequence[str] | None, *, stats: CallStats | None = None
) -> list[ScramInfo]:
    """The SCRAM credentials of `users` (None: every user that has some)."""
    from kcli.client.admin import Target
    from kcli.client.errors import check

    def build(version: int) -> Any:
        cls = request_cls("describe_user_scram_credentials", version)
        user_cls = nested(cls, "UserName")
        return make(cls, users=None if users is None else tuple(user_cls(name=u) for u in users))

    if stats is not None:
        stats.count("DescribeUserScramCredentials")
    response = await admin.call(
        ApiKey.DESCRIBE_USER_SCRAM_CREDENTIALS, build, versions=(0, 0), target=Target.ANY
    )
    check(int(response.error_code), response.error_message, what="DescribeUserScramCredentials")
    out = []
    for result in response.results:
        error = resource_error(int(result.error_code), result.error_message)
        out.append(
            ScramInfo(
                user=result.user,
                error=error,
                credentials=tuple(
                    (ScramMechanism.from_code(int(c.mechanism)), int(c.iterations))
                    for c in result.credential_infos
                ),
            )
        )
    return sorted(out, key=lambda s: s.user)


async def alter_user_scram_credentials(
    admin: Admin,
    user: str,
    *,
    upserts: Sequence[ScramUpsert],
    deletes: Sequence[ScramMechanism],
    stats: CallStats | None = None,
) -> ResourceError | None:
    """Upsert/delete SCRAM credentials of one user; the user's error, or None."""
    from kio.static.primitive import i8, i32

    from kcli.client.admin import Target

    prepared = []
    for upsert in upserts:
        salt = random_salt()
        prepared.append(
            (upsert, salt, salted_password(upsert.mechanism, upsert.password, salt, upsert.iterations))
        )

    def build(version: int) -> Any:
        cls = request_cls("alter_user_scram_credentials", version)
        upsert_cls = nested(cls, "ScramCredentialUpsertion")
        delete_cls = nested(cls, "ScramCredentialDeletion")
        return cls(
            deletions=tuple(delete_cls(name=user, mechanism=i8(m.code)) for m in deletes),
            upsertions=tuple(
                upsert_cls(
                    name=user,
                    mechanism=i8(u.mechanism.code),
                    iterations=i32(u.iterations),
                    salt=salt,
                    salted_password=salted,
                )
                for u, salt, salted in prepared
            ),
        )

    if stats is not None:
        stats.count("AlterUserScramCredentials")
    response = await admin.call(
        ApiKey.ALTER_USER_SCRAM_CREDENTIALS, build, versions=(0, 0), target=Target.CONTROLLER, idempotent=True
    )
    if not response.results:
        return ResourceError(
            code=-1, name="MISSING_RESULT", message=f"the server did not report on user {user}"
        )
    for result in response.results:
        error = resource_error(int(result.error_code), result.error_message)
        if error is not None:
            return error
    return None
