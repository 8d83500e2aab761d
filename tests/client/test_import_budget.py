"""The start-up budget of the networked tools: a command imports the kio classes of the APIs it sends
and no others, and no more of kcli than the budget stated here.

Each line runs as the installed program does (kcli.cli.entry.console, a fresh interpreter) with
--debug against the session's emulator sandbox; the requests come from its trace and the modules
from sys.modules at exit. A budget is the count of kcli modules a line loads today and a little
headroom: a new import on a hot path has to be paid for here, in the open.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.sandbox

PROBE = """
import atexit, os, sys
loaded = lambda: sorted(name for name, module in sys.modules.items() if module is not None)
atexit.register(lambda: open(os.environ["MODULES_OUT"], "w").write("\\n".join(loaded())))
sys.argv = ["kcli", *sys.argv[1:]]
from kcli.cli.entry import console
console()
"""
SENT = re.compile(r"\] -> [^:]+:\d+\)?: (\w+) v(\d+) \(correlation id")
KIO_MESSAGE = re.compile(r"^kio\.schema\.(\w+)\.v(\d+)\.(?:request|response)$")
# ApiVersions v5 (KIP-1242) is encoded by kcli's own kcli.client.protocol.api_versions_v5
OWN_CODECS = {("api_versions", 5)}
# Modules that a text-output read never needs: rendering of tables and help, the sandbox, Spark.
NEVER = ("rich", "kcli.sandbox", "kcli.audit", "pyspark", "prompt_toolkit", "hypothesis")
# (line after `kcli --debug`, with B for the bootstrap servers) -> kcli modules it may load
BUDGET: dict[str, int] = {
    "cluster-id -b B": 52,
    "features -b B describe": 56,
    "topics -b B --list": 62,
    "topics -b B --describe": 72,
    "configs -b B --describe --entity-type brokers --entity-name 1": 62,
    "broker-api-versions --bootstrap-server B": 61,
    "metadata-quorum -b B describe --status": 59,
    "log-dirs -b B --describe": 67,
    "get-offsets -b B": 68,
    "consumer-groups -b B --list": 70,
    "consumer-groups -b B --describe --all-groups": 80,
    "transactions -b B list": 62,
}


def _snake(api: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", api).lower()


@pytest.mark.parametrize("line", list(BUDGET))
def test_a_networked_line_imports_what_it_sends_and_stays_in_its_budget(
    sandbox: Any, traced_group: str, tmp_path: Path, line: str
) -> None:
    out = tmp_path / "modules.txt"
    args = [part if part != "B" else sandbox.bootstrap_servers for part in line.split()]
    env = {**os.environ, "MODULES_OUT": str(out), "KCLI_CONFIG": "/nonexistent/kcli.toml", "NO_COLOR": "1"}
    done = subprocess.run(
        [sys.executable, "-c", PROBE, "--debug", *args], capture_output=True, text=True, timeout=60, env=env
    )
    assert done.returncode == 0, done.stderr

    sent = {(_snake(api), int(version)) for api, version in SENT.findall(done.stderr)}
    modules = out.read_text().split()
    decoded = {(m[1], int(m[2])) for name in modules if (m := KIO_MESSAGE.match(name))}
    assert sent, done.stderr
    assert decoded == sent - OWN_CODECS, f"imported but not sent: {decoded - sent}; sent: {sorted(sent)}"
    own = [name for name in modules if name == "kcli" or name.startswith("kcli.")]
    assert len(own) <= BUDGET[line], f"{len(own)} kcli modules, budget {BUDGET[line]}: {own}"
    heavy = sorted(name for name in modules if name.startswith(NEVER))
    assert heavy == []
