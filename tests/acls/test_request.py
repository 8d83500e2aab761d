"""kafka-acls' checks as values, without typer: kcli.ops.acl_request in AclCommand's order (the
connection first, then checkArgs, kcli's options, stray words, the bindings to add)."""

from __future__ import annotations

from kcli.errors import UsageError
from kcli.ops.acl_request import AclsRequest, check_request
from kcli.ops.acls import AclOptions


def _check(request: AclsRequest) -> tuple[object, list[str]]:
    log: list[str] = []

    def resolve() -> str:
        log.append("resolve")
        return "settings"

    try:
        return check_request(request, resolve=resolve), log
    except UsageError as error:
        return str(error), log


def test_the_connection_is_checked_first_as_kafka_acls_checks_it() -> None:
    message, log = _check(AclsRequest(options=AclOptions(add=True, list=True)))
    assert log == ["resolve"] and message.startswith("Command must include exactly one action")


def test_kcli_options_then_stray_words_then_the_bindings() -> None:
    message, _ = _check(AclsRequest(options=AclOptions(list=True), prune=True))
    assert message == 'Option "--prune" can only be used with "--import", not "--list"'
    message, _ = _check(AclsRequest(options=AclOptions(operations=("Read",)), export="-"))
    assert message == 'Option "--export" can\'t be used with option "--operation"'
    message, _ = _check(AclsRequest(options=AclOptions(list=True), stray=("x",)))
    assert message.startswith("Unexpected argument(s) 'x'")
    message, _ = _check(AclsRequest(options=AclOptions(add=True, topics=("t",), operations=("Read",))))
    assert "principal" in message.lower()  # --add without a principal: found before connecting
    checked, _ = _check(AclsRequest(options=AclOptions(topics=("t",)), import_="acls.json", prune=True))
    assert checked.action == "--import"  # type: ignore[attr-defined]
