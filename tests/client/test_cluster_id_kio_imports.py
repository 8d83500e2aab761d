"""`kcli cluster-id` and `kcli cluster api-versions` against a live cluster import the kio schemas of
the messages they exchange and no others: kio's index (which names every API) and the schemas of other
APIs stay unloaded (api-versions learns each API's versions and flexibility from kcli/data)."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

PROBE = """
import contextlib, io, json, sys
sys.modules["hypothesis"] = None  # as the console entry point does
from kcli.cli.main import main
with contextlib.redirect_stdout(io.StringIO()) as out:
    code = main(sys.argv[1:])
print(json.dumps([code, out.getvalue(), sorted(sys.modules)]))
"""

# ApiVersions and DescribeCluster, their headers, and what their fields are typed with
EXCHANGED = {"api_versions", "describe_cluster", "request_header", "response_header", "errors", "types"}


def run(*argv: str) -> tuple[int, str, list[str]]:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *argv],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
        env={"TYPER_USE_RICH": "0", "KCLI_CONFIG": "/nonexistent/kcli.toml", "PATH": ""},
    )
    code, out, modules = json.loads(done.stdout)
    return code, out, modules


def schemas_of(modules: list[str]) -> set[str]:
    return {name.split(".")[2] for name in modules if name.startswith("kio.schema.") and name.count(".") >= 2}


def test_cluster_id_loads_only_the_schemas_it_exchanges(sandbox: Any) -> None:
    code, out, modules = run("cluster-id", "-b", sandbox.bootstrap_servers)
    assert (code, out.startswith("Cluster ID: ")) == (0, True)
    assert schemas_of(modules) == EXCHANGED
    assert "kio.index" not in modules and "kio.schema.index" not in modules


def test_api_versions_loads_only_the_schemas_it_exchanges(sandbox: Any) -> None:
    code, out, modules = run("cluster", "api-versions", "-b", sandbox.bootstrap_servers)
    assert code == 0 and "DescribeCluster(60): 0 to 2 [usable: 2, request header: 2]" in out, out
    assert schemas_of(modules) == EXCHANGED
    assert "kio.index" not in modules and "kio.schema.index" not in modules
