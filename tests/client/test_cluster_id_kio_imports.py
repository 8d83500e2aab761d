"""`kcli cluster-id` and `kcli cluster api-versions` against a live cluster import the kio schemas of
the messages they exchange and no others: kio's index (which names every API) and the schemas of other
APIs stay unloaded (api-versions learns each API's versions and flexibility from kcli/data)."""

from __future__ import annotations

from typing import Any

from tests.fresh_process import run_fresh

# ApiVersions and DescribeCluster, their headers, and what their fields are typed with
EXCHANGED = {"api_versions", "describe_cluster", "request_header", "response_header", "errors", "types"}


def schemas_of(modules: set[str]) -> set[str]:
    return {name.split(".")[2] for name in modules if name.startswith("kio.schema.") and name.count(".") >= 2}


def test_cluster_id_loads_only_the_schemas_it_exchanges(sandbox: Any) -> None:
    code, out, modules = run_fresh("cluster-id", "-b", sandbox.bootstrap_servers)
    assert (code, out.startswith("Cluster ID: ")) == (0, True)
    assert schemas_of(modules) == EXCHANGED
    assert "kio.index" not in modules and "kio.schema.index" not in modules


def test_api_versions_loads_only_the_schemas_it_exchanges(sandbox: Any) -> None:
    code, out, modules = run_fresh("cluster", "api-versions", "-b", sandbox.bootstrap_servers)
    assert code == 0 and "DescribeCluster(60): 0 to 2 [usable: 2]" in out, out
    assert schemas_of(modules) == EXCHANGED
    assert "kio.index" not in modules and "kio.schema.index" not in modules
