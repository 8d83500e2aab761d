"""The README's main job: scripts/tour.sh walks through every tool, and its log is plain text.

The README's tour block and the script must name the same tools, and every tool of the app.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO
from tests.fixtures_tansu import free_port_run

TOUR = REPO / "scripts" / "tour.sh"
NODES = 7  # the tour's sandbox: 4 brokers, 3 controllers, on consecutive ports


def _tools(lines: list[str]) -> set[str]:
    """The first word after each `kcli` that starts a command (a step, or a line of the README block)."""
    return {
        match.group(1)
        for line in lines
        for match in re.finditer(r"(?:^|&& |step(?:_fails \d+)? )kcli ([a-z-]+)", line)
    }


def _readme_tour() -> list[str]:
    text = (REPO / "README.md").read_text()
    section = text.split("## A five-minute tour", 1)[1].split("\n## ", 1)[0]
    return section.split("```sh\n", 1)[1].split("```", 1)[0].splitlines()


def _app_tools() -> set[str]:
    import typer.main

    from kcli.cli.main import app

    root = typer.main.get_command(app)
    return {name for name in root.list_commands(None) if not root.commands[name].hidden}


def test_readme_tour_and_tour_script_walk_through_every_tool_alike() -> None:
    script = TOUR.read_text().splitlines()
    readme = _readme_tour()
    assert _tools(script) == _app_tools()
    assert _tools(readme) == _app_tools()

    def sandbox_up_flags(lines: list[str]) -> list[str]:
        line = next(line for line in lines if "kcli sandbox up" in line)
        return re.findall(r"--[a-z-]+", line)

    assert sandbox_up_flags(script) == sandbox_up_flags(readme)
    # the fault the doctor must catch, in both: misroute, doctor exits 1, the misroute ends
    for lines in (script, readme):
        joined = "\n".join(lines)
        assert re.search(
            r"kcli sandbox misroute 2 .*\n.*kcli cluster doctor .*\n.*kcli sandbox misroute 2 --as 2", joined
        )
    assert any(line.startswith("step_fails 1 kcli cluster doctor") for line in script)


@pytest.mark.sandbox
@pytest.mark.spark
@pytest.mark.slow
@pytest.mark.timeout(900)
def test_tour_passes_and_logs_plain_text(tmp_path: Path) -> None:
    environ = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "KCLI_CONFIG")}
    environ["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{environ.get('PATH', '')}"
    environ["KCLI_TOUR_PORT"] = str(free_port_run(NODES))
    environ["TMPDIR"] = str(tmp_path)
    done = subprocess.run(
        ["bash", str(TOUR)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=environ,
        cwd=tmp_path,
        timeout=880,
    )
    log = done.stdout
    assert done.returncode == 0, log[-3000:]
    assert "\x1b" not in log  # off a terminal: no escape codes from the script, rich or anything else
    lines = log.splitlines()
    steps = [line for line in lines if line.startswith("$ kcli ")]
    assert _tools(line[2:] for line in steps) == _app_tools()
    assert len(steps) == sum(
        1 for line in TOUR.read_text().splitlines() if re.match(r"step(_fails \d+)? kcli ", line)
    )

    def after(step_prefix: str) -> list[str]:
        start = next(i for i, line in enumerate(lines) if line.startswith(f"$ kcli {step_prefix}"))
        end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("$ ")), len(lines))
        return [line for line in lines[start + 1 : end] if line]

    assert after("configs --bootstrap-controller") == [  # ELR's cluster-level value, as Kafka 4.4 keeps it
        "Default configs for brokers in the cluster are:",
        "  min.insync.replicas=1 sensitive=false synonyms={DYNAMIC_DEFAULT_BROKER_CONFIG:min.insync.replicas=1}",
    ]
    plan = after("reassign-partitions --bootstrap-server 127.0.0.1")[-1]
    assert re.fullmatch(
        r"Plan \(minimal-movement\): moves 2 replicas \([0-9.]+ \w+\) in 2 of 3 partitions, changes 1 leader; "
        r"after it, each of the 3 target brokers holds 3 replicas and 1 leader of these partitions",
        plan,
    ), plan
    expected_failures = [i for i, line in enumerate(lines) if line == "(exit code 1, as expected)"]
    assert len(expected_failures) == 2  # the lag check, then the doctor catching the misroute
    lag_check, misrouted = expected_failures
    assert lines[lag_check - 1].startswith("Error: 3 partition(s) of 1 group(s) over the lag threshold (50 records)")
    assert lines[misrouted - 1].startswith("UNHEALTHY: ")
    assert any("node-id-mismatch" in line for line in lines[misrouted - 3 : misrouted])
    groups = f"consumer-groups --bootstrap-server 127.0.0.1:{environ['KCLI_TOUR_PORT']} "
    lagging = [line.split() for line in after(f"{groups}--describe --group tour-app --time-lag")]
    lagging = [row for row in lagging if row[0] == "tour-app"]
    # GROUP TOPIC PARTITION CURRENT-OFFSET LOG-END-OFFSET LAG TIME-LAG ...: 40 of 100 records read
    assert sorted(row[2:6] for row in lagging) == [[str(p), "40", "100", "60"] for p in range(3)]
    caught_up = after(f"{groups}--reset-offsets --group tour-app --topic sandbox-topic-00000 --to-latest")
    undo = [line for line in caught_up if line.startswith("Saved")]
    assert undo and "to undo: kcli consumer-groups" in undo[-1]
    undone = after(f"{groups}--reset-offsets --group tour-app --from-file")
    assert sorted(line.split()[-1] for line in undone if line.startswith("tour-app")) == ["40", "40", "40"]
    profile_step = lines.index("$ kcli cluster-id")
    assert re.fullmatch(r"Cluster ID: [\w-]{22}", lines[profile_step + 1])
    acl_rows = [line for line in after("acls --bootstrap-server 127.0.0.1") if "User:alice" in line]
    assert acl_rows and all("READ" in line for line in acl_rows)
    assert lines[-1] == "The tour is over; the sandbox is stopped on exit."
