"""Every option of each mirrored kafka-*.sh tool is accepted by kcli, with the same arity.

The table (kcli.cli.kafka_options) is transcribed from the option lists of the Kafka tools: a
runbook line that works with the original must parse with kcli after replacing the program name.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest

from kcli.cli.kafka_options import ORIGINAL_OPTIONS


@cache
def _root() -> Any:
    import typer

    from kcli.cli.main import app

    return typer.main.get_command(app)


def _command(path: tuple[str, ...]) -> Any:
    command = _root()
    for name in path:
        command = command.commands[name]  # type: ignore[attr-defined]
    return command


@pytest.mark.parametrize(
    ("path", "option", "takes_value"),
    ORIGINAL_OPTIONS,
    ids=lambda v: " ".join(v) if isinstance(v, tuple) else str(v),
)
def test_original_option_is_accepted_with_the_same_arity(
    path: tuple[str, ...], option: str, takes_value: bool
) -> None:
    params = [p for p in _command(path).params if option in (*p.opts, *p.secondary_opts)]
    assert params, f"kcli {' '.join(path)} does not accept {option}"
    (param,) = params
    assert (not param.is_flag) is takes_value, (
        f"{option} should {'take a value' if takes_value else 'be a flag'}"
    )
