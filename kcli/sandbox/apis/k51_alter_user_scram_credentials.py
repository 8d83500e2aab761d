"""AlterUserScramCredentials (51), version 0: upsert or delete SCRAM credentials (KIP-554).

Behavior:
- Auth: ALTER on the cluster, else CLUSTER_AUTHORIZATION_FAILED per user.
- Upsertions carry the client-salted password; the sandbox derives StoredKey and ServerKey
  (RFC 5802) and writes UserScramCredentialRecords; SASL/SCRAM logins use them at once.
- Unknown mechanism -> UNSUPPORTED_SASL_MECHANISM; iterations outside 4096..16384 or an empty user
  name -> UNACCEPTABLE_CREDENTIAL; deleting a missing credential -> RESOURCE_NOT_FOUND; one user
  altered twice in a request (any mechanisms) -> DUPLICATE_RESOURCE, as Kafka 4.4's controller. An empty salt is accepted, as Kafka 4.4 does.
- Brokers forward it to the active controller in an Envelope (KIP-590).
"""

from __future__ import annotations

import hashlib
import hmac
from typing import Any

from kio.schema.errors import ErrorCode

from kcli.kafka import CLUSTER_NAME, AclOperation, ApiKey, ResourceType
from kcli.metadata import records as _records
from kcli.sandbox.context import ZERO, RequestContext
from kcli.sandbox.registry import api
from kcli.sandbox.security import HASHES

R: Any = _records


@api(ApiKey.ALTER_USER_SCRAM_CREDENTIALS, (0, 0), forward=True)
async def handle_alter_user_scram_credentials(ctx: RequestContext, request: Any) -> Any:
    """Alter SCRAM credentials."""
    allowed = ctx.authorize(AclOperation.ALTER, ResourceType.CLUSTER, CLUSTER_NAME)
    image = ctx.cluster.image
    keys = [(d.name, d.mechanism) for d in request.deletions] + [
        (u.name, u.mechanism) for u in request.upsertions
    ]
    errors: dict[str, tuple[int, str | None]] = {}
    records: dict[str, list[Any]] = {}
    users = list(dict.fromkeys(name for name, _ in keys))
    if "" in users:
        errors[""] = (ErrorCode.unacceptable_credential, "Username must not be empty")
    names = [name for name, _ in keys]
    for name in users:
        # Kafka's controller (ScramControlManager) keys the request by user: a second alteration of
        # one user, whatever its mechanism, is refused
        if names.count(name) > 1:
            errors.setdefault(
                name,
                (
                    ErrorCode.duplicate_resource,
                    "A user credential cannot be altered twice in the same request",
                ),
            )
    for d in request.deletions:
        if d.name in errors:
            continue
        if d.mechanism not in HASHES:
            errors[d.name] = (ErrorCode.unsupported_sasl_mechanism, "Unknown SCRAM mechanism")
        elif (d.name, d.mechanism) not in image.scram:
            errors[d.name] = (
                ErrorCode.resource_not_found,
                "Attempt to delete a user credential that does not exist",
            )
        else:
            records.setdefault(d.name, []).append(
                R.RemoveUserScramCredentialRecord(name=d.name, mechanism=d.mechanism)
            )
    for u in request.upsertions:
        if u.name in errors:
            continue
        if u.mechanism not in HASHES:
            errors[u.name] = (ErrorCode.unsupported_sasl_mechanism, "Unknown SCRAM mechanism")
        elif not 4096 <= u.iterations <= 16384:
            errors[u.name] = (
                ErrorCode.unacceptable_credential,
                f"Too {'few' if u.iterations < 4096 else 'many'} iterations",
            )
        else:
            digest = HASHES[u.mechanism]
            client_key = hmac.new(u.salted_password, b"Client Key", digest).digest()
            records.setdefault(u.name, []).append(
                R.UserScramCredentialRecord(
                    name=u.name,
                    mechanism=u.mechanism,
                    salt=u.salt,
                    stored_key=hashlib.new(digest, client_key).digest(),
                    server_key=hmac.new(u.salted_password, b"Server Key", digest).digest(),
                    iterations=u.iterations,
                )
            )
    results = []
    commit: list[Any] = []
    for name in users:
        code: int
        message: str | None
        if not allowed:
            code, message = ErrorCode.cluster_authorization_failed, "Authorization failed."
        else:
            code, message = errors.get(name, (0, None))
            if not code:
                commit.extend(records.get(name, []))
        results.append(
            ctx.r("AlterUserScramCredentialsResult", user=name, error_code=code, error_message=message)
        )
    await ctx.cluster.commit(commit)
    return ctx.r("AlterUserScramCredentialsResponse", throttle_time=ZERO, results=tuple(results))
