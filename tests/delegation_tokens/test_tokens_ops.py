"""kafka-delegation-tokens.sh's rules and lines without a cluster (kcli.ops.delegation_tokens,
kcli.render.delegation_tokens). The lines are what Kafka 4.4.0's DelegationTokenCommand printed."""

from __future__ import annotations

import time

import pytest

from kcli.errors import UsageError
from kcli.ops.delegation_tokens import Action, Given, Principal, Token, decode_hmac, parse_principal, plan
from kcli.render import delegation_tokens as view

HMAC = "bsIcQ3uIJZYiadEN7ZD+1MFqDf8P3GXqh7LAAX5+MPWTcCl+mz5Ro0/Z4hFd10AgT3fx/ZmgNgvVg4iTRu9Z8A=="


def test_each_action_requires_and_refuses_its_options_in_kafkas_order() -> None:
    with pytest.raises(
        UsageError,
        match=r"^Command must include exactly one action: --create, --renew, --expire or --describe$",
    ):
        plan(Given(create=True, describe=True))
    with pytest.raises(UsageError, match=r'^Missing required argument "\[max-life-time-period\]"$'):
        plan(Given(create=True))
    with pytest.raises(UsageError, match=r'^Missing required argument "\[hmac\]"$'):
        plan(Given(renew=True, renew_time_period=-1))
    with pytest.raises(UsageError, match=r'^Missing required argument "\[renew-time-period\]"$'):
        plan(Given(renew=True, hmac="ABCD"))
    with pytest.raises(UsageError, match=r'^Missing required argument "\[expiry-time-period\]"$'):
        plan(Given(expire=True, hmac="ABCD"))
    with pytest.raises(UsageError) as refused:
        plan(Given(create=True, max_life_time_period=-1, hmac="ABCD"))
    assert refused.value.message == 'Option "[create]" can\'t be used with option "[hmac]"'
    with pytest.raises(UsageError, match=r'Option "\[describe\]" can\'t be used with option "\[hmac\]"'):
        plan(Given(describe=True, hmac="ABCD"))
    with pytest.raises(
        UsageError, match=r'Option "\[renew\]" can\'t be used with option "\[owner-principal\]"'
    ):
        plan(Given(renew=True, hmac="ABCD", renew_time_period=1, owner_principals=["User:a"]))


def test_principals_split_at_the_first_colon() -> None:
    assert parse_principal(" User:CN=a:b ") == Principal("User", "CN=a:b")
    assert str(parse_principal("User:")) == "User:"
    with pytest.raises(
        UsageError, match=r"^expected a string in format principalType:principalName but got user1$"
    ):
        parse_principal("user1")
    request = plan(Given(create=True, max_life_time_period=-1, renewer_principals=["User:a", "User:b"]))
    assert request.action is Action.CREATE and request.renewers == (
        Principal("User", "a"),
        Principal("User", "b"),
    )


def test_an_hmac_decodes_with_or_without_padding_and_errors_never_repeat_it() -> None:
    assert decode_hmac(HMAC) == decode_hmac(HMAC.rstrip("="))
    assert len(decode_hmac("ABCDEFGHIJK")) == 8  # the docs' example: Java's decoder takes it
    for bad in ("secret!!", "ABCDE", "AB===="):
        with pytest.raises(UsageError) as refused:
            decode_hmac(bad)
        assert bad not in refused.value.line()


def _token() -> Token:
    import base64

    issue = int(time.mktime((2026, 12, 1, 22, 9, 0, 0, 0, -1))) * 1000
    return Token(
        token_id="YL98C8O6SZWNnYbf_3t3lA",
        hmac=base64.b64decode(HMAC),
        owner=Principal("User", "admin"),
        requester=Principal("User", "admin"),
        renewers=(Principal("User", "user1"),),
        issue_ms=issue + 345,
        expiry_ms=issue + 86_400_000,
        max_ms=issue + 7 * 86_400_000,
    )


def test_the_token_table_is_kafkas_printf() -> None:
    token = _token()
    header = (
        "TOKENID         HMAC                           OWNER           REQUESTER       RENEWERS                  "
        "ISSUEDATE       EXPIRYDATE      MAXDATE        "
    )
    assert view.created_lines(token) == [
        "Created delegation token with tokenId : YL98C8O6SZWNnYbf_3t3lA",
        "",
        header,
        "",
        f"YL98C8O6SZWNnYbf_3t3lA {HMAC} User:admin      User:admin      [User:user1]              "
        "2026-12-01T22:09 2026-12-02T22:09 2026-12-08T22:09",
    ]
    assert view.described_lines([]) == ["Total number of tokens : 0", header]
    assert view.create_calling_line([Principal("User", "user1")], -1) == (
        "Calling create token operation with renewers :[User:user1] , max-life-time-period :-1"
    )
    assert view.describe_calling_line([]) == "Calling describe token operation for current user."
    assert view.describe_calling_line([Principal("User", "a"), Principal("User", "b")]) == (
        "Calling describe token operation for owners: [User:a, User:b]"
    )


def test_renew_and_expire_never_echo_the_hmac() -> None:
    request = plan(Given(renew=True, hmac=HMAC, renew_time_period=-1))
    line = view.calling_line(request)
    assert (
        HMAC not in line
        and line == "Calling renew token operation with hmac :<hidden> , renew-time-period :-1"
    )
    expire = plan(Given(expire=True, hmac=HMAC, expiry_time_period=-1))
    assert view.calling_line(expire).endswith("expire-time-period :-1")
