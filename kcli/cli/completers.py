"""Shell completion of option values that depend on data: profiles, entity types, config names, paths.

Each completer is a typer `autocompletion=` callback. They run only when the shell asks for
completions (_KCLI_COMPLETE set), so they import what they need inside the function; a completer
never raises (a broken config file or log directory just completes nothing).

Which option each one belongs to:
- profile_names:        --profile (every networked command; kcli/cli/common.py ProfileOpt),
                        the NAME argument of `kcli profile show|use`
- entity_types:         configs --entity-type
- config_names:         configs --add-config, --delete-config, --append-config, --subtract-config
- metadata_shell_words: metadata-shell COMMAND... (shell command, then paths in the metadata tree)
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

BROKER_LOGGER_NAMES = ("kafka", "kafka.controller", "kafka.log.LogCleaner", "kafka.request.logger", "root")


def profile_names(ctx: Any, incomplete: str) -> list[str]:
    """Profile names from the kcli config file ($KCLI_CONFIG or ~/.config/kcli/config.toml)."""
    try:
        from kcli.cli.argv import env_of
        from kcli.client.toml_profiles import load_profiles

        names = load_profiles(env_of(ctx).config_file)
    except Exception:  # completion must never fail the shell
        return []
    return sorted(name for name in names if name.startswith(incomplete))


def entity_types(incomplete: str) -> list[str]:
    """The --entity-type values of `kcli configs`."""
    from kcli.ops.config_spec import EntityType

    return [kind.value for kind in EntityType if kind.value.startswith(incomplete)]


def config_keys(entity_type: str | None) -> tuple[str, ...]:
    """Config names an entity type takes (every kind's names when the type is not known yet)."""
    from kcli.kafka import ScramMechanism
    from kcli.ops.config_catalogue import configs_of
    from kcli.ops.config_spec import EntityType
    from kcli.ops.quota_plan import CLIENT_QUOTA_KEYS, IP_QUOTA_KEYS

    def names(kind: EntityType) -> Iterable[str]:
        if kind is EntityType.BROKER_LOGGERS:
            return BROKER_LOGGER_NAMES
        if kind is EntityType.IPS:
            return IP_QUOTA_KEYS
        if kind is EntityType.USERS:
            return (*CLIENT_QUOTA_KEYS, *(m.mechanism_name for m in ScramMechanism))
        if kind.is_quota:
            return CLIENT_QUOTA_KEYS
        return configs_of(kind)

    if entity_type in set(EntityType):
        return tuple(sorted(names(EntityType(entity_type))))
    return tuple(sorted({name for kind in EntityType for name in names(kind)}))


def config_names(ctx: Any, incomplete: str) -> list[str]:
    """Config names for --add-config/--delete-config, after the last comma of a k=v,k2=v2 list.

    The entity type comes from --entity-type (its last value) or the shorthand flags given so far
    (--topic, --broker, --user, ...); a config already named in the value is not offered again.
    """
    try:
        keys = config_keys(_entity_type_of(ctx))
    except Exception:
        return []
    head, comma, last = incomplete.rpartition(",")
    prefix = head + comma
    if "=" in last:  # completing a value: nothing to offer
        return []
    taken = {item.split("=", 1)[0] for item in head.split(",") if item} if head else set()
    return [prefix + key for key in keys if key.startswith(last) and key not in taken]


def metadata_shell_words(ctx: Any, args: list[str], incomplete: str) -> list[str]:
    """metadata-shell COMMAND...: a shell command first, then paths of the --directory/--snapshot tree."""
    try:
        words = _command_words(ctx, args)
        if not words:
            from kcli.shell.commands import COMMANDS

            return sorted(
                name for name, spec in COMMANDS.items() if name.startswith(incomplete) and not spec.shell_only
            )
        params = ctx.params if ctx is not None else {}
        source = params.get("directory") or params.get("snapshot")
        if source is None:
            return []
        return list(_tree_paths(Path(source), incomplete))
    except Exception:
        return []


def _tree_paths(source: Path, incomplete: str) -> Iterable[str]:
    from kcli.metadata.image import build_image
    from kcli.metadata.tree import build_tree
    from kcli.shell.completion import suggest

    root = build_tree(build_image(source, skip_corrupt=True))
    word = incomplete if incomplete.startswith("/") else "/" + incomplete
    start, candidates = suggest(f"ls {word}", root, ())
    base = word[: len(word) + start]
    return [base + candidate for candidate in candidates]


def _command_words(ctx: Any, args: list[str]) -> list[str]:
    """The words of COMMAND typed so far (typer passes them in ctx.params or, raw, in args)."""
    if ctx is not None:
        given = ctx.params.get("command")
        if given:
            return list(given)
    # args holds everything typed after the program name; the shell command is the first word
    # after the metadata-shell options, i.e. the first one not starting with "-" that is not an
    # option value.
    words: list[str] = []
    takes_value = {"--directory", "-d", "--snapshot", "-s", "--type", "--bootstrap-controller", "-C",
                   "--command-config", "--config", "-c", "--profile", "--output", "-o"}  # fmt: skip
    tokens = args[args.index("metadata-shell") + 1 :] if "metadata-shell" in args else []
    skip = False
    for token in tokens:
        if skip:
            skip = False
        elif token in takes_value:
            skip = True
        elif not token.startswith("-") or words:
            words.append(token)
    return words


def _entity_type_of(ctx: Any) -> str | None:
    params: dict[str, Any] = ctx.params if ctx is not None else {}
    given = params.get("entity_type") or []
    if isinstance(given, str):
        given = [given]
    if given:
        return str(given[-1])
    from kcli.ops.config_spec import DEFAULT_FLAGS, SHORTCUT_FLAGS

    for name, kind in (*SHORTCUT_FLAGS, *DEFAULT_FLAGS):
        if params.get(name):
            return kind.value
    return None
