"""Render wording a first reader cannot misread: the plan's cost line, and empty tables anywhere."""

from __future__ import annotations

import io

from kcli.env import Env
from kcli.ops.reassign.generate import GeneratePlan, Strategy
from kcli.ops.reassign.model import TopicPartition
from kcli.ops.reassign.stats import plan_stats
from kcli.render import write_rich
from kcli.render.reassign import stats_line


def _plan(
    current: dict[TopicPartition, tuple[int, ...]], proposed: dict[TopicPartition, tuple[int, ...]]
) -> GeneratePlan:
    racks = dict.fromkeys(sorted({b for replicas in proposed.values() for b in replicas}))
    return GeneratePlan(
        strategy=Strategy.MINIMAL_MOVEMENT,
        rack_aware=False,
        current=current,
        current_log_dirs={},
        proposed=proposed,
        stats=plan_stats(current, proposed, racks=racks, sizes={tp: 1024 for tp in proposed}),
    )


def _tp(partition: int) -> TopicPartition:
    return TopicPartition("orders", partition)


def test_plan_line_says_what_each_target_broker_holds() -> None:
    # drain broker 1 onto 2, 3, 4: every target broker ends with 3 replicas and 1 leader
    current = {_tp(0): (1, 2, 3), _tp(1): (2, 3, 4), _tp(2): (3, 4, 1)}
    proposed = {_tp(0): (4, 2, 3), _tp(1): (2, 3, 4), _tp(2): (3, 4, 2)}
    assert stats_line(_plan(current, proposed)) == (
        "Plan (minimal-movement): moves 2 replicas (2.0 KiB) in 2 of 3 partitions, changes 1 leader; "
        "after it, each of the 3 target brokers holds 3 replicas and 1 leader of these partitions"
    )


def test_plan_line_gives_a_range_when_brokers_differ_and_never_a_bare_zero_spread() -> None:
    current = {_tp(0): (1, 2), _tp(1): (2, 3), _tp(2): (3, 1)}
    assert stats_line(_plan(current, dict(current))) == (
        "Plan (minimal-movement): moves 0 replicas (0 B) in 0 of 3 partitions, changes 0 leaders; "
        "after it, each of the 3 target brokers holds 2 replicas and 1 leader of these partitions"
    )
    uneven = {_tp(0): (1, 2), _tp(1): (2, 3)}
    assert stats_line(_plan(uneven, dict(uneven))).endswith(
        "after it, each of the 3 target brokers holds 1-2 replicas and 0-1 leaders of these partitions"
    )
    single = {_tp(0): (1,)}
    assert stats_line(_plan(single, dict(single))).endswith(
        "after it, the one target broker holds 1 replica and 1 leader of these partitions"
    )


def test_every_empty_table_says_no_results_also_inside_a_group() -> None:
    from rich.console import Group
    from rich.table import Table

    empty = Table(title="Things")
    empty.add_column("Name")
    empty.add_column("Value")
    full = Table()
    full.add_column("Name")
    full.add_row("a")
    out = io.StringIO()
    write_rich(Env(stdout=out, environ={}), Group(empty, full))
    assert [line.rstrip() for line in out.getvalue().splitlines()] == [
        "        Things",
        "┏━━━━━━━━━━━━┳━━━━━━━┓",
        "┃ Name       ┃ Value ┃",
        "┡━━━━━━━━━━━━╇━━━━━━━┩",
        "│ no results │       │",
        "└────────────┴───────┘",
        "┏━━━━━━┓",
        "┃ Name ┃",
        "┡━━━━━━┩",
        "│ a    │",
        "└──────┘",
    ]
