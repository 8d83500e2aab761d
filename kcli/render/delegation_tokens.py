"""Output of `kcli delegation-tokens`: kafka-delegation-tokens.sh's lines (DelegationTokenCommand, Kafka 4.4), JSON, a table.

Dates are `yyyy-MM-dd'T'HH:mm` in local time (Java's SimpleDateFormat with the default zone). The
token table is Kafka's printf: every column left-aligned to at least its width, a blank line before
the header (after --create) and before each token. kcli ends each line with a newline (Kafka's renew
and expire lines have none), and never echoes the HMAC it was given.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from kcli.ops.delegation_tokens import Action, Principal, Request, Token, principals_text

if TYPE_CHECKING:
    from rich.console import RenderableType

    from kcli.workflows.delegation_tokens import Outcome

HEADERS = ("TOKENID", "HMAC", "OWNER", "REQUESTER", "RENEWERS", "ISSUEDATE", "EXPIRYDATE", "MAXDATE")
WIDTHS = (15, 30, 15, 15, 25, 15, 15, 15)
HIDDEN = "<hidden>"


def date(ms: int) -> str:
    """SimpleDateFormat("yyyy-MM-dd'T'HH:mm") in the local time zone."""
    return time.strftime("%Y-%m-%dT%H:%M", time.localtime(ms // 1000))


def _row(cells: Sequence[str]) -> str:
    return " ".join(f"{cell:<{width}}" for cell, width in zip(cells, WIDTHS, strict=True))


def _cells(token: Token) -> tuple[str, ...]:
    return (
        token.token_id,
        token.hmac_base64,
        str(token.owner),
        str(token.requester),
        principals_text(token.renewers),
        date(token.issue_ms),
        date(token.expiry_ms),
        date(token.max_ms),
    )


def token_lines(tokens: Sequence[Token]) -> list[str]:
    """printToken: the header, then a blank line and a row per token."""
    lines = [_row(HEADERS)]
    for token in tokens:
        lines += ["", _row(_cells(token))]
    return lines


def create_calling_line(renewers: Sequence[Principal], max_lifetime_ms: int) -> str:
    return (
        f"Calling create token operation with renewers :{principals_text(renewers)} , "
        f"max-life-time-period :{max_lifetime_ms}"
    )


def created_lines(token: Token) -> list[str]:
    return [f"Created delegation token with tokenId : {token.token_id}", "", *token_lines([token])]


def describe_calling_line(owners: Sequence[Principal]) -> str:
    if not owners:
        return "Calling describe token operation for current user."
    return f"Calling describe token operation for owners: {principals_text(owners)}"


def described_lines(tokens: Sequence[Token]) -> list[str]:
    return [f"Total number of tokens : {len(tokens)}", *token_lines(tokens)]


def period_calling_line(operation: str, period_name: str, period_ms: int) -> str:
    """`Calling renew token operation with hmac :<hidden> , renew-time-period :-1` (expire likewise)."""
    return f"Calling {operation} token operation with hmac :{HIDDEN} , {period_name} :{period_ms}"


def completed_line(operation: str, expiry_ms: int) -> str:
    return f"Completed {operation} operation. New expiry date : {date(expiry_ms)}"


def token_json(token: Token) -> dict[str, Any]:
    return {
        "token_id": token.token_id,
        "hmac": token.hmac_base64,
        "owner": str(token.owner),
        "requester": str(token.requester),
        "renewers": [str(r) for r in token.renewers],
        "issue_timestamp_ms": token.issue_ms,
        "expiry_timestamp_ms": token.expiry_ms,
        "max_timestamp_ms": token.max_ms,
    }


def tokens_json(tokens: Sequence[Token]) -> dict[str, Any]:
    return {"tokens": [token_json(t) for t in tokens]}


def expiry_json(expiry_ms: int) -> dict[str, Any]:
    return {"expiry_timestamp_ms": expiry_ms, "expiry_date": date(expiry_ms)}


def tokens_table(tokens: Sequence[Token]) -> RenderableType:
    from rich.table import Table

    table = Table()
    for header in HEADERS:
        table.add_column(header)
    for token in tokens:
        table.add_row(*_cells(token))
    return table


def calling_line(request: Request) -> str:
    """What Kafka's tool prints before it sends the request."""
    if request.action is Action.CREATE:
        return create_calling_line(request.renewers, request.period_ms or 0)
    if request.action is Action.DESCRIBE:
        return describe_calling_line(request.owners)
    if request.action is Action.RENEW:
        return period_calling_line("renew", "renew-time-period", request.period_ms or 0)
    return period_calling_line("expire", "expire-time-period", request.period_ms or 0)


def outcome_lines(outcome: Outcome) -> list[str]:
    if outcome.action is Action.CREATE:
        return created_lines(outcome.tokens[0])
    if outcome.action is Action.DESCRIBE:
        return described_lines(outcome.tokens)
    assert outcome.expiry_ms is not None
    return [completed_line(outcome.action.value, outcome.expiry_ms)]


def outcome_json(outcome: Outcome) -> dict[str, Any]:
    if outcome.action is Action.CREATE:
        return {"token": token_json(outcome.tokens[0])}
    if outcome.action is Action.DESCRIBE:
        return tokens_json(outcome.tokens)
    assert outcome.expiry_ms is not None
    return expiry_json(outcome.expiry_ms)


def outcome_table(outcome: Outcome) -> RenderableType:
    if outcome.action in (Action.CREATE, Action.DESCRIBE):
        return tokens_table(outcome.tokens)
    from rich.table import Table

    table = Table()
    table.add_column("New expiry date")
    table.add_row(date(outcome.expiry_ms or 0))
    return table
