"""kafka-reassign-partitions.sh's command line as a value, checked in the original's order.

`ReassignRequest` holds what the command line gave (plain values: no typer); `check_request` runs
every check before anything is sent, in ReassignPartitionsCommand's order, then kcli's own rules:

1. exactly one action;
2. the connection settings (`resolve`: the client layer's checks of --bootstrap-server/-controller,
   --command-config and the profile);
3. the options the action needs, then those it does not take (the first on the command line);
4. words that belong to no option;
5. kcli's rules: --bootstrap-controller only with --list and --cancel; the replication-factor flags
   not both; throttles and --timeout in range; --preserve-throttles with --execute only with --wait;
6. the action's input: for --generate the strategy and its options, the topics-to-move file, the
   broker list and the --log-dir placements; for --verify/--execute/--cancel the reassignment file
   (and, to execute, its shape).

It returns a `Checked` value: the action, the resolved connection and the parsed input.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Generic, Protocol, TypeVar

from kcli.errors import UsageError
from kcli.kafka import EndpointType
from kcli.ops.arguments import refuse_stray
from kcli.ops.reassign.generate import Strategy
from kcli.ops.reassign.json_format import (
    ReassignmentFile,
    parse_broker_list,
    parse_reassignment,
    parse_topics_to_move,
)
from kcli.ops.reassign.validate import check_file_shape

ACTIONS = ("generate", "execute", "verify", "cancel", "list")
# Options each action accepts besides the connection ones (the original's rules, plus kcli's own).
ALLOWED: dict[str, set[str]] = {
    "generate": {
        "topics-to-move-json-file",
        "broker-list",
        "disable-rack-aware",
        "strategy",
        "seed",
        "replication-factor",
        "log-dir",
    },
    "execute": {
        "reassignment-json-file",
        "additional",
        "throttle",
        "replica-alter-log-dirs-throttle",
        "timeout",
        "disallow-replication-factor-change",
        "allow-replication-factor-change",
        "wait",
        "no-elect",
        "rollback-file",
        "preserve-throttles",
    },
    "verify": {"reassignment-json-file", "preserve-throttles"},
    "cancel": {"reassignment-json-file", "preserve-throttles", "timeout"},
    "list": set(),
}
REQUIRED = {
    "generate": ("topics-to-move-json-file", "broker-list"),
    "execute": ("reassignment-json-file",),
    "verify": ("reassignment-json-file",),
    "cancel": ("reassignment-json-file",),
    "list": (),
}
ALWAYS_ALLOWED = {"bootstrap-server", "command-config", "profile", "output"}


class Connection(Protocol):
    """What the checks need of the resolved connection settings (a kcli.client.config.ClientConfig)."""

    @property
    def endpoint_type(self) -> EndpointType: ...


C = TypeVar("C", bound=Connection)


@dataclass(frozen=True, slots=True, kw_only=True)
class ReassignRequest:
    """The command line of `kcli reassign-partitions`."""

    actions: tuple[str, ...]  # the action flags given, of ACTIONS
    reassignment_json_file: Path | None = None
    topics_to_move_json_file: Path | None = None
    broker_list: str | None = None
    disable_rack_aware: bool = False
    strategy: str = "original"
    seed: int | None = None
    replication_factor: int | None = None
    log_dir: tuple[str, ...] = ()
    throttle: int = -1
    replica_alter_log_dirs_throttle: int = -1
    timeout: int | None = None
    additional: bool = False
    preserve_throttles: bool = False
    disallow_replication_factor_change: bool = False
    allow_replication_factor_change: bool = False
    wait: bool = False
    rollback_file: Path | None = None
    no_elect: bool = False
    bootstrap_controller: bool = False  # --bootstrap-controller given
    order: tuple[str, ...] = ()  # the options as the command line gave them (--name)
    stray: tuple[str, ...] = ()  # words that belong to no option

    def given(self) -> dict[str, bool]:
        """Which options the command line set (by their names without --)."""
        return {
            "reassignment-json-file": self.reassignment_json_file is not None,
            "topics-to-move-json-file": self.topics_to_move_json_file is not None,
            "broker-list": self.broker_list is not None,
            "disable-rack-aware": self.disable_rack_aware,
            "strategy": self.strategy != "original",
            "seed": self.seed is not None,
            "replication-factor": self.replication_factor is not None,
            "log-dir": bool(self.log_dir),
            "throttle": self.throttle != -1,
            "replica-alter-log-dirs-throttle": self.replica_alter_log_dirs_throttle != -1,
            "timeout": self.timeout is not None,
            "additional": self.additional,
            "preserve-throttles": self.preserve_throttles,
            "disallow-replication-factor-change": self.disallow_replication_factor_change,
            "allow-replication-factor-change": self.allow_replication_factor_change,
            "wait": self.wait,
            "no-elect": self.no_elect,
            "rollback-file": self.rollback_file is not None,
            "bootstrap-controller": self.bootstrap_controller,
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class GenerateInput:
    """What --generate plans from: checked and parsed."""

    topics: list[str]
    brokers: list[int]
    strategy: Strategy
    placements: dict[int, str] = field(default_factory=dict)  # --log-dir: broker -> log dir


@dataclass(frozen=True, slots=True, kw_only=True)
class Checked(Generic[C]):
    """A request that passed every check: its action, connection and input."""

    action: str
    config: C
    generate: GenerateInput | None = None
    file: ReassignmentFile | None = None


def check_request(
    request: ReassignRequest, *, resolve: Callable[[], C], read: Callable[[Path, str], str]
) -> Checked[C]:
    """Every check of the command line, in the order of the module docstring. `resolve` gives the
    connection settings (raising the client layer's usage errors); `read(path, what)` a file's text."""
    action = choose_action(request.actions)
    config = resolve()
    check_options(action, request.given(), list(request.order))
    refuse_stray(request.stray)
    _check_kcli_rules(action, request, config)
    if action == "generate":
        return Checked(action=action, config=config, generate=_generate_input(request, read))
    if action == "list":
        return Checked(action=action, config=config)
    path = request.reassignment_json_file
    assert path is not None  # required by check_options
    file = parse_reassignment(read(path, "reassignment JSON file"), str(path))
    if action == "execute":
        check_file_shape(file)
    return Checked(action=action, config=config, file=file)


def choose_action(given: tuple[str, ...]) -> str:
    """Exactly one action (the original's first check)."""
    chosen = [action for action in ACTIONS if action in given]
    if len(chosen) != 1:
        raise UsageError(
            "Command must include exactly one action: --generate, --execute, --verify, --cancel, --list"
        )
    return chosen[0]


def check_options(action: str, given: dict[str, bool], order: list[str]) -> None:
    """The original's checks after the connection one: required options, then options the action
    does not take, reported for the first such option on the command line (`order`)."""
    for option in REQUIRED[action]:
        if not given.get(option):
            raise UsageError(f'Missing required argument "[{option}]"')
    allowed = ALLOWED[action] | ALWAYS_ALLOWED
    if action in ("list", "cancel"):
        allowed = allowed | {"bootstrap-controller"}
    present = [name[2:] for name in order if name.startswith("--")] or [o for o, on in given.items() if on]
    for option in present:
        if option != action and option not in allowed:
            raise UsageError(f'Option "[{option}]" can\'t be used with action "[{action}]"')


def _check_kcli_rules(action: str, request: ReassignRequest, config: Connection) -> None:
    if config.endpoint_type is EndpointType.CONTROLLERS and action not in ("list", "cancel"):
        raise UsageError(
            f"--{action} needs broker metadata (topics, log dirs): use --bootstrap-server; "
            "--bootstrap-controller works only with --list and --cancel"
        )
    if request.allow_replication_factor_change and request.disallow_replication_factor_change:
        raise UsageError(
            "--allow-replication-factor-change and --disallow-replication-factor-change contradict each other"
        )
    if request.throttle < -1 or request.replica_alter_log_dirs_throttle < -1:
        raise UsageError("throttles are rates in B/s (or -1 for none)")
    if request.timeout is not None and request.timeout < 0:
        raise UsageError("--timeout must be a number of milliseconds >= 0")
    if action == "execute" and request.preserve_throttles and not request.wait:
        raise UsageError(
            "--preserve-throttles with --execute needs --wait: without --wait nothing removes the "
            "throttles until --verify (which takes --preserve-throttles itself)"
        )


def _generate_input(request: ReassignRequest, read: Callable[[Path, str], str]) -> GenerateInput:
    try:
        strategy = Strategy(request.strategy)
    except ValueError:
        raise UsageError(f"--strategy must be one of: {', '.join(s.value for s in Strategy)}") from None
    if request.log_dir and (strategy is not Strategy.ORIGINAL or request.replication_factor is not None):
        raise UsageError(
            "--log-dir plans a move between the log dirs of brokers only: it takes no --strategy or "
            "--replication-factor (plan those apart)"
        )
    if request.replication_factor is not None and strategy is not Strategy.MINIMAL_MOVEMENT:
        raise UsageError(
            "--replication-factor needs --strategy minimal-movement (the original planner keeps each "
            "partition's replication factor)"
        )
    path, broker_list = request.topics_to_move_json_file, request.broker_list
    assert path is not None and broker_list is not None  # required by check_options
    topics = parse_topics_to_move(read(path, "topics-to-move JSON file"), str(path))
    brokers = parse_broker_list(broker_list)
    return GenerateInput(
        topics=topics,
        brokers=brokers,
        strategy=strategy,
        placements=log_dir_placements(request.log_dir, brokers),
    )


def log_dir_placements(given: tuple[str, ...], brokers: list[int]) -> dict[int, str]:
    """--log-dir BROKER:DIR values: broker -> absolute log dir (a broker of --broker-list, once)."""
    placements: dict[int, str] = {}
    for text in given:
        broker, sep, path = text.partition(":")
        if not sep or not broker.strip().isdigit() or not path.startswith("/"):
            raise UsageError(
                f"--log-dir takes BROKER:DIR with an absolute DIR (e.g. 1:/data/disk2), not {text!r}"
            )
        node = int(broker)
        if node not in brokers:
            raise UsageError(f"--log-dir {text}: broker {node} is not in --broker-list")
        if node in placements:
            raise UsageError(f"--log-dir names broker {node} twice")
        placements[node] = path
    return placements
