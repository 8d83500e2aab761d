"""Unit tests of kafka-cluster.sh's list-endpoints table shape."""

from __future__ import annotations

from kcli.client.api.cluster import ClusterEndpoints
from kcli.client.cluster import NodeInfo
from kcli.render.cluster import list_endpoints_json, list_endpoints_lines


def test_broker_table_widths_follow_longest_host_and_rack() -> None:
    result = ClusterEndpoints(
        cluster_id="c",
        endpoint_type="broker",
        nodes=(
            NodeInfo(node_id=1, host="broker-one.example", port=9092, rack="rack-a-long"),
            NodeInfo(node_id=2, host="b2", port=9093, rack=None, fenced=True),
        ),
    )
    assert list_endpoints_lines(result) == [
        "ID         HOST               PORT       RACK        STATE      ENDPOINT_TYPE  ",
        "1          broker-one.example 9092       rack-a-long unfenced   broker         ",
        "2          b2                 9093       null        fenced     broker         ",
    ]
    assert list_endpoints_json(result)["nodes"][1] == {
        "id": 2,
        "host": "b2",
        "port": 9093,
        "rack": None,
        "fenced": True,
    }


def test_controller_table_has_no_state_and_default_widths() -> None:
    # As in Java, the host width ignores the header: a short host leaves HOST overflowing.
    result = ClusterEndpoints(
        cluster_id="c", endpoint_type="controller", nodes=(NodeInfo(node_id=101, host="c1", port=9093),)
    )
    assert list_endpoints_lines(result) == [
        "ID         HOST PORT       RACK       ENDPOINT_TYPE  ",
        "101        c1 9093       null       controller     ",
    ]
    empty = ClusterEndpoints(cluster_id="c", endpoint_type="broker", nodes=())
    assert list_endpoints_lines(empty)[0].startswith("ID         HOST" + " " * 97 + "PORT")
