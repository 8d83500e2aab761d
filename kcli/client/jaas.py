"""sasl.jaas.config values: one login module, its flag and its options (Kafka's JaasConfig)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from kcli.errors import UsageError

_JAAS_HEAD = re.compile(r"\s*([\w.$]+)\s+(required|requisite|sufficient|optional)\s*", re.IGNORECASE)
_JAAS_OPTION = re.compile(r"\s*([\w.\-]+)\s*=\s*")


@dataclass(frozen=True, slots=True, kw_only=True)
class JaasConfig:
    """One sasl.jaas.config entry: login module, control flag and options (options may hold secrets)."""

    login_module: str
    flag: str
    options: Mapping[str, str] = field(repr=False)


def parse_jaas(text: str) -> JaasConfig:
    """Parse a sasl.jaas.config value: `module.Class required key="value" key2=value2;`.

    Errors never quote the text (it holds a password).
    """
    head = _JAAS_HEAD.match(text)
    if head is None:
        raise UsageError(
            'sasl.jaas.config must look like `<LoginModule class> required username="..." password="...";`'
        )
    options: dict[str, str] = {}
    index = head.end()
    while True:
        while index < len(text) and text[index].isspace():
            index += 1
        if index >= len(text):
            raise UsageError("sasl.jaas.config must end with `;`")
        if text[index] == ";":
            if text[index + 1 :].strip():
                raise UsageError("sasl.jaas.config holds more than one login module; kcli uses exactly one")
            break
        option = _JAAS_OPTION.match(text, index)
        if option is None:
            raise UsageError(f"sasl.jaas.config: expected `name=value` at character {index}")
        index = option.end()
        value, index = _jaas_value(text, index)
        options[option.group(1)] = value
    return JaasConfig(login_module=head.group(1), flag=head.group(2).lower(), options=options)


def _jaas_value(text: str, index: int) -> tuple[str, int]:
    # Java's StreamTokenizer, which Kafka's JaasConfig uses, quotes with either " or '.
    if index < len(text) and text[index] in "\"'":
        quote = text[index]
        out: list[str] = []
        index += 1
        while index < len(text):
            char = text[index]
            if char == "\\" and index + 1 < len(text):
                out.append(text[index + 1])
                index += 2
                continue
            if char == quote:
                return "".join(out), index + 1
            out.append(char)
            index += 1
        raise UsageError("sasl.jaas.config: a quoted value is not closed")
    start = index
    while index < len(text) and not text[index].isspace() and text[index] != ";":
        index += 1
    if index == start:
        raise UsageError(f"sasl.jaas.config: missing value at character {start}")
    return text[start:index], index
