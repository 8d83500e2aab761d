"""Kafka's own command-line tools (DIST/bin/kafka-*.sh) as independent readers in tests.

Each call is one JVM with a deadline; a failing tool fails the test with its stderr.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

TOOL_DEADLINE_S = 180.0  # a JVM on a busy 2-core machine


class KafkaToolError(AssertionError):
    """A Kafka tool exited non-zero: its command line and what it printed."""


def kafka_tool(home: Path, tool: str, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    """Run DIST/bin/`tool` with `args`; its completed process (stdout, stderr, returncode)."""
    script = home / "bin" / tool
    done = subprocess.run(
        ["bash", str(script), *args], capture_output=True, text=True, timeout=TOOL_DEADLINE_S, check=False
    )
    if check and done.returncode != 0:
        raise KafkaToolError(f"{tool} {' '.join(args)} exited {done.returncode}: {done.stderr.strip()}")
    return done


_CONFIGS_HEADER = re.compile(r"^(?:Dynamic|Static|All) configs for (\w[\w ]*?) (\S+) are:$")


def described_configs(text: str) -> dict[str, dict[str, str]]:
    """kafka-configs.sh --describe output: "ENTITY NAME" -> {key: value} (sensitive values as shown)."""
    out: dict[str, dict[str, str]] = {}
    current: dict[str, str] | None = None
    for line in text.splitlines():
        header = _CONFIGS_HEADER.match(line)
        if header:
            current = out.setdefault(f"{header.group(1)} {header.group(2)}", {})
            continue
        if current is not None and line.startswith("  ") and "=" in line:
            key, _, rest = line.strip().partition("=")
            current[key] = rest.split(" sensitive=", 1)[0]
    return out
