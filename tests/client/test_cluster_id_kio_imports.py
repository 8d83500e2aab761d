"""`kcli cluster-id` against a live cluster imports the kio schemas of the messages it exchanges and
no others: kio's index (which names every API) and the schemas of other APIs stay unloaded."""

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


def test_cluster_id_loads_only_the_schemas_it_exchanges(sandbox: Any) -> None:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, "cluster-id", "-b", sandbox.bootstrap_servers],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
        env={"TYPER_USE_RICH": "0", "KCLI_CONFIG": "/nonexistent/kcli.toml", "PATH": ""},
    )
    code, out, modules = json.loads(done.stdout)
    assert (code, out.startswith("Cluster ID: ")) == (0, True)
    schemas = {
        name.split(".")[2] for name in modules if name.startswith("kio.schema.") and name.count(".") >= 2
    }
    assert schemas == EXCHANGED
    assert "kio.index" not in modules and "kio.schema.index" not in modules
