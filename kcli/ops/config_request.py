"""kafka-configs.sh's command line as a value, checked in the original's order.

`ConfigsRequest` holds what the command line gave (plain values: no typer); `check_request` runs
every check before anything is sent, in ConfigCommand's order, then kcli's own:

1. exactly one action (--describe, --alter or kcli's --diff); changes and --dry-run only with
   --alter; --diff-profile only with --diff;
2. duplicate entity types;
3. the connection settings (`resolve`: the client layer's checks; not when both bootstraps are
   given, which the entity checks report);
4. the entities (kcli.ops.config_spec.resolve_selection: types, names, defaults, resolvable ips);
5. with --alter: the changes (--add-config or --add-config-file, not both; the file's keys) and,
   for quotas and SCRAM credentials, their plan; with --diff: what it can compare;
6. words that belong to no option.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Generic, TypeVar

from kcli.errors import UsageError
from kcli.ops.arguments import refuse_stray
from kcli.ops.config_spec import (
    ConfigChanges,
    EntityFlags,
    Selection,
    build_changes,
    check_duplicate_types,
    resolve_selection,
)

C = TypeVar("C")


@dataclass(frozen=True, slots=True, kw_only=True)
class ConfigsRequest:
    """The command line of `kcli configs`."""

    describe: bool = False
    alter: bool = False
    diff: bool = False
    entities: EntityFlags = field(default_factory=EntityFlags)
    add_config: str | None = None
    add_config_file: Path | None = None
    delete_config: tuple[str, ...] = ()
    append_config: tuple[str, ...] = ()
    subtract_config: tuple[str, ...] = ()
    dry_run: bool = False
    diff_profile: str | None = None
    both_bootstraps: bool = False  # --bootstrap-server and --bootstrap-controller both given
    stray: tuple[str, ...] = ()  # words that belong to no option

    def change_flags(self) -> list[str]:
        given = [
            ("--add-config", self.add_config is not None),
            ("--add-config-file", self.add_config_file is not None),
            ("--delete-config", bool(self.delete_config)),
            ("--append-config", bool(self.append_config)),
            ("--subtract-config", bool(self.subtract_config)),
        ]
        return [flag for flag, on in given if on]


@dataclass(frozen=True, slots=True, kw_only=True)
class CheckedConfigs(Generic[C]):
    """A request that passed every check."""

    action: str  # "--describe", "--alter" or "--diff"
    config: C
    selection: Selection
    changes: ConfigChanges | None = None  # with --alter


def check_request(
    request: ConfigsRequest,
    *,
    resolve: Callable[[], C],
    read_properties: Callable[[Path], Mapping[str, str]],
    resolvable: Callable[[str], bool],
) -> CheckedConfigs[C]:
    """Every check of the command line, in the order of the module docstring. `resolve` gives the
    connection settings, `read_properties` an --add-config-file's keys, `resolvable` whether an ip
    entity's host resolves."""
    action = choose_action(request)
    if request.diff_profile is not None and action != "--diff":
        raise UsageError('Option "--diff-profile" needs "--diff"')
    check_duplicate_types(request.entities)
    config = None if request.both_bootstraps else resolve()
    selection = resolve_selection(
        request.entities,
        alter=action == "--alter",
        both_bootstraps=request.both_bootstraps,
        resolvable=resolvable,
    )
    assert config is not None  # resolve_selection refuses both bootstraps
    changes = None
    if action == "--alter":
        changes = _changes(request, selection, read_properties)
    if action == "--diff":
        check_diff(selection, request.diff_profile)
    refuse_stray(request.stray)
    return CheckedConfigs(action=action, config=config, selection=selection, changes=changes)


def choose_action(request: ConfigsRequest) -> str:
    """kafka-configs' first checks: exactly one action, and no changes with --describe."""
    flags = (("--describe", request.describe), ("--alter", request.alter), ("--diff", request.diff))
    actions = [name for name, on in flags if on]
    if len(actions) != 1:
        if request.diff:
            raise UsageError(
                f"Command must include exactly one action: --describe, --alter, --diff (given: {', '.join(actions)})"
            )
        raise UsageError(
            "Command must include exactly one action: --describe, --alter", hint="or kcli's --diff"
        )
    action = actions[0]
    if action != "--alter":
        for flag in [*request.change_flags(), *(["--dry-run"] if request.dry_run else [])]:
            raise UsageError(f'Option "[{action[2:]}]" can\'t be used with option "[{flag[2:]}]"')
    return action


def _changes(
    request: ConfigsRequest, selection: Selection, read_properties: Callable[[Path], Mapping[str, str]]
) -> ConfigChanges:
    if request.add_config is not None and request.add_config_file is not None:
        raise UsageError("Only one of --add-config or --add-config-file must be specified")
    file_values = read_properties(request.add_config_file) if request.add_config_file is not None else None
    changes = build_changes(
        add_config=request.add_config,
        add_config_file=file_values,
        delete_config=request.delete_config,
        append_config=request.append_config,
        subtract_config=request.subtract_config,
    )
    if selection.is_quota:
        from kcli.ops.quota_plan import plan_quota_alter

        plan_quota_alter(selection, changes)  # quota/SCRAM usage errors before connecting
    return changes


def check_diff(selection: Selection, diff_profile: str | None) -> None:
    """What --diff can compare: named entities of a resource type, two or more (or one and a profile)."""
    if selection.is_quota:
        raise UsageError(
            "--diff compares topics, brokers, broker-loggers, groups or client-metrics, not quotas"
        )
    if any(e.name is None and not e.default for e in selection.entities):
        raise UsageError("--diff needs named entities: give --entity-name for each")
    if len(selection.entities) < 2 and diff_profile is None:
        raise UsageError("--diff needs at least two entities (or one entity and --diff-profile)")
