"""Secrets kept out of the profile file: `${env:NAME}` and `${file:PATH}` references.

The syntax is Kafka's config-provider form (KIP-297 FileConfigProvider, KIP-887 EnvVarConfigProvider),
so a value reads the same in a kcli profile as in a Kafka client .properties file:

    sasl.password = "${env:KAFKA_PASSWORD}"
    ssl.keystore.key = "${file:/etc/kafka/client.key}"

A `${file:PATH:KEY}` reference reads KEY from PATH as a .properties file; `${file:PATH}` reads the
whole file (trailing newline dropped).
"""

from __future__ import annotations

import re
import stat
from collections.abc import Callable, Mapping
from pathlib import Path

from kcli.errors import UsageError

_REFERENCE = re.compile(r"^\$\{(env|file):(.+)\}$")


def is_reference(value: str) -> bool:
    return bool(_REFERENCE.match(value.strip()))


def resolve_references(
    properties: Mapping[str, str], *, environ: Mapping[str, str], source: str
) -> dict[str, str]:
    """Replace every `${env:..}` / `${file:..}` value by what it points at; UsageError if missing."""
    resolved: dict[str, str] = {}
    for key, value in properties.items():
        match = _REFERENCE.match(value.strip())
        if match is None:
            resolved[key] = value
        elif match.group(1) == "env":
            resolved[key] = _from_env(match.group(2), key=key, environ=environ, source=source)
        else:
            resolved[key] = _from_file(match.group(2), key=key, source=source)
    return resolved


def warn_if_exposed(
    path: Path,
    profiles: Mapping[str, Mapping[str, str]],
    *,
    is_secret: Callable[[str], bool],
    warn: Callable[[str], None],
) -> None:
    """Warn when a file that others can read holds a secret written in clear (not a reference)."""
    literal = sorted(
        f"{name}.{key}"
        for name, props in profiles.items()
        for key, value in props.items()
        if is_secret(key) and value and not is_reference(value)
    )
    if not literal:
        return
    try:
        mode = path.stat().st_mode
    except OSError:
        return
    if mode & (stat.S_IRGRP | stat.S_IROTH):
        warn(
            f"Warning: {path} is readable by other users and holds secrets ({', '.join(literal)}); "
            f"run `chmod 600 {path}` or use ${{env:NAME}} / ${{file:PATH}} references."
        )


def _from_env(name: str, *, key: str, environ: Mapping[str, str], source: str) -> str:
    if name not in environ:
        raise UsageError(
            f"{key} in {source} refers to environment variable {name}, which is not set",
            hint=f"export {name}=... or change the reference",
        )
    return environ[name]


def _from_file(spec: str, *, key: str, source: str) -> str:
    # ${file:PATH:KEY} names a key in a .properties file; PATH alone is the whole file.
    path_text, _, prop = (
        spec.rpartition(":") if spec.count(":") >= 1 and not spec.endswith(":") else ("", "", "")
    )
    if not path_text or "/" in prop:
        path_text, prop = spec, ""
    path = Path(path_text).expanduser()
    from kcli.files import read_text

    try:
        text = read_text(path, what=f"{key} in {source}: file")
    except OSError as error:
        raise UsageError(
            f"{key} in {source} refers to {path}, which cannot be read ({error.strerror})"
        ) from None
    if not prop:
        return text.rstrip("\r\n")
    from kcli.properties import parse_properties

    values = parse_properties(text)
    if prop not in values:
        raise UsageError(f"{key} in {source} refers to key {prop!r}, which {path} does not define")
    return values[prop]
