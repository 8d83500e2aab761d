"""The kcli config file's profiles: list, show, add, use — edited in place, comments kept.

Reading for connections is kcli.client.config's job; this module is the write side behind
`kcli profile`. tomlkit keeps every comment and the layout of the rest of the file on write.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kcli.client.config_keys import HONOURED_KEYS, KNOWN_KAFKA_KEYS, is_secret_key
from kcli.client.secret_refs import is_reference
from kcli.client.toml_profiles import default_profile_name, load_profiles
from kcli.errors import UsageError

HIDDEN = "[hidden]"


@dataclass(frozen=True, slots=True, kw_only=True)
class ProfileSummary:
    name: str
    is_default: bool
    bootstrap_servers: str | None
    bootstrap_controllers: str | None

    @property
    def bootstrap(self) -> str:
        """The bootstrap setting as KEY=VALUE, for people ("" when the profile has none)."""
        if self.bootstrap_servers:
            return f"bootstrap.servers={self.bootstrap_servers}"
        if self.bootstrap_controllers:
            return f"bootstrap.controllers={self.bootstrap_controllers}"
        return ""


@dataclass(frozen=True, slots=True, kw_only=True)
class ProfileView:
    name: str
    is_default: bool
    settings: Mapping[str, str]  # secrets shown as [hidden] unless they are references


def list_profiles(path: Path) -> list[ProfileSummary]:
    profiles = load_profiles(path)
    default = _effective_default(path, profiles)
    return [
        ProfileSummary(
            name=name,
            is_default=name == default,
            bootstrap_servers=props.get("bootstrap.servers") or None,
            bootstrap_controllers=props.get("bootstrap.controllers") or None,
        )
        for name, props in sorted(profiles.items())
    ]


def show_profile(path: Path, name: str | None) -> ProfileView:
    profiles = load_profiles(path)
    default = _effective_default(path, profiles)
    chosen = name or default
    if chosen is None or chosen not in profiles:
        raise UsageError(_unknown(path, chosen, profiles))
    settings = {key: _displayed(key, value) for key, value in sorted(profiles[chosen].items())}
    return ProfileView(name=chosen, is_default=chosen == default, settings=settings)


def add_profile(path: Path, name: str, settings: Mapping[str, str], *, replace: bool = False) -> bool:
    """Create (or with `replace`, overwrite) [profiles.NAME]; returns True when it created the file."""
    check_name(name)
    if not settings:
        raise UsageError("a profile needs at least one setting, e.g. --set bootstrap.servers=HOST:PORT")
    load_profiles(path)  # the file's shape first: `profiles = "nope"` is refused, not edited
    document, created = _load(path)
    profiles = document.setdefault("profiles", _table())
    if name in profiles and not replace:
        raise UsageError(f"profile {name!r} already exists in {path}", hint="use --replace to overwrite it")
    table = _table()
    for key, value in settings.items():
        table[key] = value
    profiles[name] = table
    _save(path, document, secret=any(is_secret_key(k) and not is_reference(v) for k, v in settings.items()))
    return created


def use_profile(path: Path, name: str) -> None:
    """Make NAME the default profile (default_profile = NAME)."""
    profiles = load_profiles(path)
    if name not in profiles:
        raise UsageError(_unknown(path, name, profiles))
    document, _ = _load(path)
    document["default_profile"] = name
    _save(path, document, secret=False)


def parse_settings(items: list[str]) -> dict[str, str]:
    """`key=value` pairs from --set options."""
    return parse_key_values(items, option="--set", example="bootstrap.servers=k1:9092")


def parse_key_values(pairs: Sequence[str], *, option: str, example: str) -> dict[str, str]:
    """The KEY=VALUE pairs given to a repeated `option` as a dict; a pair without '=' or without a key
    is a usage error that shows `example`."""
    values: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise UsageError(f"{option} {pair!r}: expected KEY=VALUE, e.g. {example}")
        values[key.strip()] = value.strip()
    return values


def unknown_setting_warnings(settings: Mapping[str, str]) -> list[str]:
    """One warning per key no client setting matches (a typo), with the closest known key if any."""
    from kcli.ops.config_model import suggest

    known = HONOURED_KEYS | KNOWN_KAFKA_KEYS
    warnings = []
    for key in sorted(settings):
        if key not in known:
            guess = suggest(key, known)
            hint = f" (did you mean '{guess}'?)" if guess else ""
            warnings.append(f"Warning: '{key}' is not a known client setting; kcli ignores it{hint}")
    return warnings


def _effective_default(path: Path, profiles: Mapping[str, Any]) -> str | None:
    named = default_profile_name(path)
    if named:
        return named
    return "default" if "default" in profiles else None


def _displayed(key: str, value: str) -> str:
    if is_secret_key(key) and not is_reference(value):
        return HIDDEN
    return value


def _unknown(path: Path, name: str | None, profiles: Mapping[str, Any]) -> str:
    known = ", ".join(sorted(profiles)) or "none"
    if name is None:
        return f"no default profile in {path} (profiles: {known}); name one or run `kcli profile use NAME`"
    return f"profile {name!r} is not defined in {path} (profiles: {known})"


def check_name(name: str) -> None:
    if not name or not all(ch.isalnum() or ch in "-_" for ch in name):
        raise UsageError(f"profile name {name!r}: use letters, digits, '-' and '_' only")


def _table() -> Any:
    import tomlkit

    return tomlkit.table()


def _load(path: Path) -> tuple[Any, bool]:
    import tomlkit

    from kcli.files import read_text

    try:
        text = read_text(path, what="config file")
    except FileNotFoundError:
        return tomlkit.document(), True
    except OSError as error:
        raise UsageError(f"cannot read config file {path}: {error.strerror}") from None
    try:
        return tomlkit.parse(text), False
    except (tomlkit.exceptions.ParseError, RecursionError) as error:
        # load_profiles read it, so it is TOML; the editor keeping its comments nests less deeply
        raise UsageError(f"cannot edit config file {path}: {error or 'nested too deeply'}") from None


def _save(path: Path, document: Any, *, secret: bool) -> None:
    """Write the config file beside and rename (kcli.writes): a crash or a full disk leaves the old
    file whole; it stays private when it holds a secret in clear (or is new, or was private)."""
    import tomlkit

    from kcli.writes import make_directories, write_file

    make_directories(path.parent, what="the config directory")
    try:
        text = tomlkit.dumps(document)
    except RecursionError:
        raise UsageError(f"cannot edit config file {path}: nested too deeply") from None
    write_file(path, text, what="config file", private=secret or not path.exists())
