"""docs/runbooks/rotate-scram-credentials.md: a service account replaced by a successor, no login gap.

Logins are tried for real: the Java AdminClient authenticates as the user (SCRAM-SHA-512) and
describes the service's topic, which takes the user's ACLs too.
"""

from __future__ import annotations

from tests.runbooks.book import Book, Context
from tests.runbooks.books.common import create_topic

book = Book("rotate-scram-credentials.md")
TOPIC = "orders"
OLD_USER, OLD_PASSWORD = "orders-app", "orders-secret-1"
NEW_USER, NEW_PASSWORD = "orders-app-2", "orders-secret-2"
SERVICE_ACLS = {
    ("TOPIC", TOPIC, "LITERAL", operation, "ALLOW") for operation in ("READ", "WRITE", "DESCRIBE", "CREATE")
} | {("GROUP", OLD_USER, "LITERAL", "READ", "ALLOW")}


@book.setup
def _(ctx: Context) -> dict[str, str]:
    reader = ctx.reader
    create_topic(ctx, TOPIC, [[b] for b in ctx.ids("BROKERS")])
    changed = reader.admin.call(
        "alterUserScramCredentials",
        upserts=[
            {"user": OLD_USER, "mechanism": "SCRAM-SHA-512", "iterations": 4096, "password": OLD_PASSWORD}
        ],
    )
    assert "error" not in changed[OLD_USER], changed
    created = reader.admin.call(
        "createAcls",
        bindings=[
            {"resourceType": kind, "name": name, "patternType": pattern, "principal": f"User:{OLD_USER}",
             "host": "*", "operation": operation, "permission": permission}
            for kind, name, pattern, operation, permission in sorted(SERVICE_ACLS)
        ],
    )  # fmt: skip
    assert all("error" not in outcome for outcome in created), created
    ctx.eventually(lambda: _logs_in(ctx, OLD_USER, OLD_PASSWORD), what=f"{OLD_USER} logs in")
    return {"OLD_USER": OLD_USER, "NEW_USER": NEW_USER, "NEW_PASSWORD": NEW_PASSWORD, "TOPIC": TOPIC}


def _logs_in(ctx: Context, user: str, password: str) -> None:
    outcome = ctx.reader.login(user, password, topic=TOPIC)
    assert outcome == "ok", f"{user} cannot log in and describe {TOPIC}: {outcome}"


def _locked_out(ctx: Context, user: str, password: str) -> None:
    outcome = ctx.reader.login(user, password)
    assert outcome.startswith("SaslAuthenticationException"), f"{user} still logs in ({outcome})"


@book.check("Create the new user's credential")
def _(ctx: Context) -> None:
    assert ctx.reader.scram_mechanisms(NEW_USER) == {"SCRAM-SHA-512": 8192}
    # the new user has no ACL yet: it logs in, and sees no topic
    ctx.eventually(lambda: _authenticates(ctx, NEW_USER, NEW_PASSWORD), what=f"{NEW_USER} logs in")
    _logs_in(ctx, OLD_USER, OLD_PASSWORD)


def _authenticates(ctx: Context, user: str, password: str) -> None:
    outcome = ctx.reader.login(user, password)
    assert outcome == "ok", f"{user} cannot log in: {outcome}"


@book.check("Give the new user the old one's ACLs")
def _(ctx: Context) -> None:
    assert ctx.reader.acls(f"User:{NEW_USER}") == SERVICE_ACLS
    assert ctx.reader.acls(f"User:{OLD_USER}") == SERVICE_ACLS


@book.check("Move the clients to the new user")
def _(ctx: Context) -> None:
    _logs_in(ctx, NEW_USER, NEW_PASSWORD)
    _logs_in(ctx, OLD_USER, OLD_PASSWORD)


@book.check("Remove the old user's ACLs")
def _(ctx: Context) -> None:
    assert ctx.reader.acls(f"User:{OLD_USER}") == set()
    assert ctx.reader.acls(f"User:{NEW_USER}") == SERVICE_ACLS
    _logs_in(ctx, NEW_USER, NEW_PASSWORD)


@book.check("Delete the old user's credential")
def _(ctx: Context) -> None:
    assert ctx.reader.scram_mechanisms(OLD_USER) == {}
    ctx.eventually(lambda: _locked_out(ctx, OLD_USER, OLD_PASSWORD), what="the old password refused")
    _logs_in(ctx, NEW_USER, NEW_PASSWORD)
