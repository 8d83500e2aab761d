"""`features describe --node-id N -o json` names the node as an integer, like every other node id."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import invoke


@pytest.mark.sandbox
def test_node_id_is_an_integer_in_json(sandbox: Any) -> None:
    node = sandbox.broker_ids[1]
    result = invoke(
        "features", "-b", sandbox.bootstrap_servers, "describe", "--node-id", str(node), "-o", "json"
    )
    assert result.code == 0, result.stderr
    assert result.json["node"] == node
