"""The clusters the runbooks run against: one per engine, started with `kcli sandbox up` as an operator would.

Both are SASL_SSL with SCRAM users and the StandardAuthorizer, two log dirs per broker, three brokers,
formatted at an older metadata.version (RELEASE_BEFORE) so the upgrade runbook has something to do.
The emulator runs three controllers (it refuses to stop a voter whose quorum would lose its
majority, and a rolling restart stops each). Real Kafka runs two, since every JVM costs CI time: a
restarting controller leaves the other without a majority for a moment, which the brokers survive.
Not one: the brokers find the quorum's leader through the controllers of their
controller.quorum.bootstrap.servers, so replacing the only one of them would cut them off.
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

RELEASE_BEFORE = "3.9"  # the first release with a dynamic quorum (KIP-853): controllers can be replaced
KCLI_DEADLINE_S = 600.0


@dataclass(frozen=True, slots=True, kw_only=True)
class Engine:
    name: str  # "emulator" | "kafka"
    controllers: int
    kafka_version: str | None = None

    @property
    def label(self) -> str:
        return f"real Kafka {self.kafka_version}" if self.kafka_version else "the emulator"


EMULATOR = Engine(name="emulator", controllers=3)
REAL_KAFKA = Engine(name="kafka", controllers=2, kafka_version="4.4.0")


def kcli(
    *args: str, check: bool = True, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """Run the installed `kcli` (this interpreter's) as a process, with a deadline."""
    program = Path(sys.executable).parent / "kcli"
    done = subprocess.run(
        [str(program), *args],
        capture_output=True,
        text=True,
        timeout=KCLI_DEADLINE_S,
        check=False,
        env={
            "NO_COLOR": "1",
            "KCLI_CONFIG": "/nonexistent/kcli.toml",
            "PATH": "/usr/bin:/bin",
            **(env or {}),
        },
    )
    if check and done.returncode != 0:
        raise AssertionError(f"kcli {' '.join(args)} exited {done.returncode}: {done.stderr.strip()}")
    return done


class SandboxCluster:
    """One sandbox under `directory`, of the emulator or of real Kafka nodes (`kafka_home`)."""

    def __init__(self, engine: Engine, directory: Path, kafka_home: Path | None) -> None:
        self.engine = engine
        self.directory = directory
        self.kafka_home = kafka_home

    def start(self) -> None:
        args = [
            "sandbox", "up", "--dir", str(self.directory), "--detach", "--base-port", "0",
            "--controllers", str(self.engine.controllers), "--brokers", "3",
            "--security", "sasl_ssl", "--authorizer", "--log-dirs", "2", "--release-version", RELEASE_BEFORE,
        ]  # fmt: skip
        if self.kafka_home is not None:
            args += ["--kafka-home", str(self.kafka_home)]
        kcli(*args)

    def stop(self) -> None:
        if (self.directory / "sandbox.json").exists():
            kcli("sandbox", "down", "--dir", str(self.directory), check=False)

    @property
    def command_config(self) -> Path:
        """The admin's client settings that `sandbox up` wrote (TLS trust, SASL PLAIN as admin)."""
        return self.directory / "client-admin.properties"

    def status(self) -> dict[str, Any]:
        done = kcli("sandbox", "status", "--dir", str(self.directory), "-o", "json")
        status: dict[str, Any] = json.loads(done.stdout)
        return status

    def client_properties(self) -> dict[str, str]:
        from kcli.properties import read_properties_file

        return read_properties_file(self.command_config)

    def variables(self) -> dict[str, str]:
        """What every runbook is given: where the cluster is and how to reach it."""
        status = self.status()
        running = [n for n in status["nodes"] if n["running"]]
        return {
            "B": _running(status, "bootstrap_servers", brokers=True),
            "C": _running(status, "bootstrap_controllers", brokers=False),
            "DIR": str(self.directory),
            "KCLI_COMMAND_CONFIG": str(self.command_config),
            "BROKERS": ",".join(str(n["id"]) for n in running if n["role"] != "controller"),
            "CONTROLLERS": ",".join(str(n["id"]) for n in running if n["role"] == "controller"),
        }


def _running(status: dict[str, Any], key: str, *, brokers: bool) -> str:
    """A bootstrap list of the running brokers (or controllers): a retired node is left out, as an
    operator drops it from the lists once it is gone."""
    running = {
        f"{n['host']}:{n['port']}"
        for n in status["nodes"]
        if n["running"] and (n["role"] != "controller") == brokers
    }
    listed = [address for address in status[key].split(",") if address in running]
    return ",".join(listed or sorted(running))
