"""Every option of each mirrored kafka-*.sh tool is accepted by kcli, with the same arity.

The table is transcribed from the option lists of the Kafka tools (3.7 - 4.2): a runbook line that
works with the original must parse with kcli after replacing the program name. Removed ZooKeeper-era
options (--zookeeper, --authorizer-properties, ...) are deliberately not carried over.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest

VALUE, FLAG = True, False

# (command path below `kcli`, option as the original spells it, takes a value)
ORIGINAL_OPTIONS: list[tuple[tuple[str, ...], str, bool]] = [
    # kafka-cluster.sh: connection options after the subcommand
    *[
        (path, option, VALUE)
        for path in (("cluster-id",), ("cluster", "unregister"), ("cluster", "list-endpoints"))
        for option in (
            "--bootstrap-server",
            "-b",
            "--bootstrap-controller",
            "-C",
            "--command-config",
            "-c",
            "--config",
        )
    ],
    (("cluster", "unregister"), "--id", VALUE),
    (("cluster", "unregister"), "-i", VALUE),
    (("cluster", "list-endpoints"), "--include-fenced-brokers", FLAG),
    # kafka-configs.sh
    *[
        (("configs",), option, arity)
        for option, arity in [
            ("--bootstrap-server", VALUE),
            ("--bootstrap-controller", VALUE),
            ("--command-config", VALUE),
            ("--describe", FLAG),
            ("--alter", FLAG),
            ("--all", FLAG),
            ("--entity-type", VALUE),
            ("--entity-name", VALUE),
            ("--entity-default", FLAG),
            ("--add-config", VALUE),
            ("--add-config-file", VALUE),
            ("--delete-config", VALUE),
            ("--force", FLAG),
            ("--topic", VALUE),
            ("--client", VALUE),
            ("--user", VALUE),
            ("--broker", VALUE),
            ("--broker-logger", VALUE),
            ("--ip", VALUE),
            ("--group", VALUE),
            ("--client-metrics", VALUE),
            ("--client-defaults", FLAG),
            ("--user-defaults", FLAG),
            ("--broker-defaults", FLAG),
            ("--ip-defaults", FLAG),
        ]
    ],
    # kafka-acls.sh
    *[
        (("acls",), option, arity)
        for option, arity in [
            ("--bootstrap-server", VALUE),
            ("--bootstrap-controller", VALUE),
            ("--command-config", VALUE),
            ("--add", FLAG),
            ("--remove", FLAG),
            ("--list", FLAG),
            ("--topic", VALUE),
            ("--cluster", FLAG),
            ("--group", VALUE),
            ("--transactional-id", VALUE),
            ("--delegation-token", VALUE),
            ("--user-principal", VALUE),
            ("--resource-pattern-type", VALUE),
            ("--operation", VALUE),
            ("--allow-principal", VALUE),
            ("--deny-principal", VALUE),
            ("--allow-host", VALUE),
            ("--deny-host", VALUE),
            ("--principal", VALUE),
            ("--producer", FLAG),
            ("--consumer", FLAG),
            ("--idempotent", FLAG),
            ("--force", FLAG),
        ]
    ],
    # kafka-features.sh: connection options before the subcommand (kcli accepts them after too)
    *[
        (("features",), option, VALUE)
        for option in ("--bootstrap-server", "--bootstrap-controller", "--command-config")
    ],
    (("features", "describe"), "--node-id", VALUE),
    *[
        (("features", sub), option, arity)
        for sub in ("upgrade", "downgrade")
        for option, arity in [
            ("--feature", VALUE),
            ("--metadata", VALUE),
            ("--release-version", VALUE),
            ("--dry-run", FLAG),
        ]
    ],
    (("features", "downgrade"), "--unsafe", FLAG),
    (("features", "disable"), "--feature", VALUE),
    (("features", "disable"), "--unsafe", FLAG),
    (("features", "disable"), "--dry-run", FLAG),
    (("features", "version-mapping"), "--release-version", VALUE),
    (("features", "feature-dependencies"), "--feature", VALUE),
    # kafka-metadata-quorum.sh
    *[
        (("metadata-quorum",), option, VALUE)
        for option in ("--bootstrap-server", "--bootstrap-controller", "--command-config")
    ],
    (("metadata-quorum", "describe"), "--status", FLAG),
    (("metadata-quorum", "describe"), "--replication", FLAG),
    (("metadata-quorum", "describe"), "--human-readable", FLAG),
    (("metadata-quorum", "add-controller"), "--dry-run", FLAG),
    (("metadata-quorum", "remove-controller"), "--controller-id", VALUE),
    (("metadata-quorum", "remove-controller"), "-i", VALUE),
    (("metadata-quorum", "remove-controller"), "--controller-directory-id", VALUE),
    (("metadata-quorum", "remove-controller"), "-d", VALUE),
    (("metadata-quorum", "remove-controller"), "--dry-run", FLAG),
    # kafka-metadata-shell.sh
    (("metadata-shell",), "--snapshot", VALUE),
    (("metadata-shell",), "-s", VALUE),
    # kafka-reassign-partitions.sh
    *[
        (("reassign-partitions",), option, arity)
        for option, arity in [
            ("--generate", FLAG),
            ("--execute", FLAG),
            ("--verify", FLAG),
            ("--cancel", FLAG),
            ("--list", FLAG),
            ("--bootstrap-server", VALUE),
            ("--bootstrap-controller", VALUE),
            ("--command-config", VALUE),
            ("--reassignment-json-file", VALUE),
            ("--topics-to-move-json-file", VALUE),
            ("--broker-list", VALUE),
            ("--disable-rack-aware", FLAG),
            ("--throttle", VALUE),
            ("--replica-alter-log-dirs-throttle", VALUE),
            ("--timeout", VALUE),
            ("--additional", FLAG),
            ("--preserve-throttles", FLAG),
            ("--disallow-replication-factor-change", FLAG),
        ]
    ],
]


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
