"""kafka-acls.sh's command line as a value, checked in the original's order.

`AclsRequest` holds what the command line gave (plain values: no typer); `check_request` runs every
check before anything is sent, in AclCommand's order, then kcli's own:

1. the connection settings (`resolve`: the client layer's checks; kafka-acls checks them first);
2. AclCommandOptions.checkArgs (kcli.ops.acls.check_options: one action, the exclusion rules, the
   principals, operations and pattern type);
3. kcli's options: --prune only with --import, --dry-run not with --list or --export, no ACL entry
   options with --export or --import;
4. words that belong to no option;
5. with --add, the bindings to add (every usage error before connecting).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from kcli.errors import UsageError
from kcli.ops.acls import AclOptions, bindings_to_add, check_options
from kcli.ops.arguments import refuse_stray

C = TypeVar("C")


@dataclass(frozen=True, slots=True, kw_only=True)
class AclsRequest:
    """The command line of `kcli acls`."""

    options: AclOptions = field(default_factory=AclOptions)
    export: str | None = None  # --export FILE (- = stdout)
    import_: str | None = None  # --import FILE (- = stdin)
    prune: bool = False
    dry_run: bool = False
    stray: tuple[str, ...] = ()  # words that belong to no option

    @property
    def action(self) -> str:
        """The one action (once checked): --list, --add, --remove, --export or --import."""
        opts = self.options
        if self.export is not None:
            return "--export"
        if self.import_ is not None:
            return "--import"
        return "--list" if opts.list else "--add" if opts.add else "--remove"


@dataclass(frozen=True, slots=True, kw_only=True)
class CheckedAcls(Generic[C]):
    """A request that passed every check."""

    action: str
    config: C


def check_request(request: AclsRequest, *, resolve: Callable[[], C]) -> CheckedAcls[C]:
    """Every check of the command line, in the order of the module docstring."""
    config = resolve()
    opts = request.options
    extra = [
        flag
        for flag, value in (("--export", request.export), ("--import", request.import_))
        if value is not None
    ]
    check_options(opts, actions_extra=extra)
    _check_beyond(request, extra)
    refuse_stray(request.stray)
    if opts.add:
        bindings_to_add(opts)
    return CheckedAcls(action=request.action, config=config)


def _check_beyond(request: AclsRequest, extra: list[str]) -> None:
    """Rules of the options kafka-acls.sh does not have."""
    opts, action = request.options, request.action
    if request.prune and action != "--import":
        raise UsageError(f'Option "--prune" can only be used with "--import", not "{action}"')
    if request.dry_run and action in ("--list", "--export"):
        raise UsageError(f'Option "{action}" can\'t be used with option "--dry-run"')
    if extra:
        given: dict[str, Any] = {
            "--producer": opts.producer,
            "--consumer": opts.consumer,
            "--operation": opts.operations,
            "--allow-principal": opts.allow_principals,
            "--deny-principal": opts.deny_principals,
            "--allow-host": opts.allow_hosts,
            "--deny-host": opts.deny_hosts,
        }
        for flag, value in given.items():
            if value:
                raise UsageError(f'Option "{action}" can\'t be used with option "{flag}"')
