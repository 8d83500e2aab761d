"""AlterUserScramCredentials (51), version 0: upsert or delete SCRAM credentials (KIP-554).

Behavior:
- Auth: ALTER on the cluster, else CLUSTER_AUTHORIZATION_FAILED per user.
- Upsertions carry the client-salted password; the sandbox derives StoredKey and ServerKey
  (RFC 5802) and writes UserScramCredentialRecords; SASL/SCRAM logins use them at once.
- Unknown mechanism -> UNSUPPORTED_SASL_MECHANISM; iterations outside 4096..16384 or an empty user
  name -> UNACCEPTABLE_CREDENTIAL; deleting a missing credential -> RESOURCE_NOT_FOUND; one user
  altered again after its first alteration was accepted (any mechanisms) -> DUPLICATE_RESOURCE, in
  the order Kafka 4.4's controller checks (deletions, then upsertions; a user's first error stands). An empty salt is accepted, as Kafka 4.4 does.
- Brokers forward it to the active controller in an Envelope (KIP-590).
"""

from __future__ import annotations

import hashlib
import hmac
from typing import Any

from kio.schema.errors import ErrorCode

from kcli.kafka import CLUSTER_NAME, AclOperation, ApiKey, ResourceType
from kcli.metadata import records as _records
from kcli.sandbox.emulator.context import ZERO, RequestContext
from kcli.sandbox.emulator.registry import api
from kcli.sandbox.emulator.security import HASHES

R: Any = _records


@api(ApiKey.ALTER_USER_SCRAM_CREDENTIALS, (0, 0), forward=True)
async def handle_alter_user_scram_credentials(ctx: RequestContext, request: Any) -> Any:
    """Alter SCRAM credentials."""
    allowed = ctx.authorize(AclOperation.ALTER, ResourceType.CLUSTER, CLUSTER_NAME)
    image = ctx.cluster.image
    users = list(dict.fromkeys([*(d.name for d in request.deletions), *(u.name for u in request.upsertions)]))
    # In the order of Kafka's ScramControlManager.alterCredentials: deletions, then upsertions, each
    # keyed by user; a user's first failure stands, and a second alteration of a user whose first
    # was accepted (whatever the mechanisms) is DUPLICATE_RESOURCE
    errors: dict[str, tuple[int, str | None]] = {}
    deleted: dict[str, Any] = {}
    upserted: dict[str, Any] = {}
    twice = (ErrorCode.duplicate_resource, "A user credential cannot be altered twice in the same request")
    for d in request.deletions:
        if d.name in errors:
            continue
        if deleted.pop(d.name, None) is not None:
            errors[d.name] = twice
        elif (problem := _invalid(d.name, d.mechanism)) is not None:
            errors[d.name] = problem
        elif (d.name, d.mechanism) not in image.scram:
            errors[d.name] = (
                ErrorCode.resource_not_found,
                "Attempt to delete a user credential that does not exist",
            )
        else:
            deleted[d.name] = d
    for u in request.upsertions:
        if u.name in errors:
            continue
        if deleted.pop(u.name, None) is not None or upserted.pop(u.name, None) is not None:
            errors[u.name] = twice
        elif (problem := _invalid(u.name, u.mechanism)) is not None:
            errors[u.name] = problem
        elif not 4096 <= u.iterations <= 16384:
            errors[u.name] = (
                ErrorCode.unacceptable_credential,
                f"Too {'few' if u.iterations < 4096 else 'many'} iterations",
            )
        else:
            upserted[u.name] = u
    records: dict[str, list[Any]] = {}
    for d in deleted.values():
        records[d.name] = [R.RemoveUserScramCredentialRecord(name=d.name, mechanism=d.mechanism)]
    for u in upserted.values():
        digest = HASHES[u.mechanism]
        client_key = hmac.new(u.salted_password, b"Client Key", digest).digest()
        records[u.name] = [
            R.UserScramCredentialRecord(
                name=u.name,
                mechanism=u.mechanism,
                salt=u.salt,
                stored_key=hashlib.new(digest, client_key).digest(),
                server_key=hmac.new(u.salted_password, b"Server Key", digest).digest(),
                iterations=u.iterations,
            )
        ]
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


def _invalid(name: str, mechanism: int) -> tuple[int, str] | None:
    """Kafka's validateScramUsernameAndMechanism."""
    if not name:
        return ErrorCode.unacceptable_credential, "Username must not be empty"
    if mechanism not in HASHES:
        return ErrorCode.unsupported_sasl_mechanism, "Unknown SCRAM mechanism"
    return None
