"""What a new user sees first: hints that lead somewhere, tables that are tables, empty results that say so.

One sandbox without an authorizer (3 controllers, 3 brokers, 2 topics) serves the module; nothing here
changes its state.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.conftest import invoke

CLUSTER_ID = "MkU3OEVBNTcwNTJENDM2Qg"
UNSET = {"KCLI_BOOTSTRAP_SERVER": None, "KCLI_BOOTSTRAP_CONTROLLER": None, "KCLI_PROFILE": None}


@pytest.fixture(scope="module")
def sb(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    from kcli.sandbox.emulator.handle import Sandbox

    with Sandbox(directory=tmp_path_factory.mktemp("first-use"), topics=2, cluster_id=CLUSTER_ID) as sandbox:
        yield sandbox


def _stripped(text: str) -> list[str]:
    return [line.rstrip() for line in text.splitlines()]


def test_unknown_topic_hint_names_a_command_that_lists_topics(sb: Any) -> None:
    failed = invoke(
        "configs",
        "-b",
        sb.bootstrap_servers,
        "--alter",
        "--topic",
        "no-such-topic",
        "--add-config",
        "retention.ms=1",
    )
    assert failed.code == 1 and failed.stdout == ""
    # Kafka 4.4 describes an unknown topic with an empty message: the line gives the error's own
    assert failed.stderr == (
        "Error: updating config for topic no-such-topic: UNKNOWN_TOPIC_OR_PARTITION: This server does not host "
        "this topic-partition. (check the topic name; kcli configs --bootstrap-server HOST:PORT --describe "
        "--entity-type topics lists the topics)\n"
    )
    # ... and the command it names does list them
    listed = invoke(
        "configs", "--bootstrap-server", sb.bootstrap_servers, "--describe", "--entity-type", "topics"
    )
    assert listed.code == 0
    assert listed.lines == [
        "Dynamic configs for topic sandbox-topic-00000 are:",
        "Dynamic configs for topic sandbox-topic-00001 are:",
    ]


def test_acls_without_an_authorizer_say_how_to_get_one(sb: Any) -> None:
    result = invoke("acls", "-b", sb.bootstrap_servers, "--list")
    assert result.code == 1 and result.stdout == ""
    assert result.stderr == (
        "Error: DescribeAcls: SECURITY_DISABLED: No Authorizer is configured. (no authorizer is configured on this "
        "cluster, so ACLs cannot be used: set authorizer.class.name=org.apache.kafka.metadata.authorizer."
        "StandardAuthorizer on every broker and controller; for a sandbox, start it with kcli sandbox up "
        "--authorizer)\n"
    )


def test_no_bootstrap_names_every_place_an_address_can_come_from() -> None:
    result = invoke("cluster-id", environ=UNSET)
    assert result.code == 2 and result.stdout == ""
    assert result.stderr == (
        "Error: You must specify either --bootstrap-controller or --bootstrap-server. Or set bootstrap.controllers "
        "or bootstrap.servers in --command-config FILE or a profile (kcli profile add NAME --bootstrap-server "
        "HOST:PORT --use), or KCLI_BOOTSTRAP_CONTROLLER or KCLI_BOOTSTRAP_SERVER in the environment.\n"
    )


def test_cluster_id_table_is_a_table(sb: Any) -> None:
    result = invoke("cluster-id", "-C", sb.bootstrap_controllers, "-o", "table")
    assert result.code == 0
    assert _stripped(result.stdout) == [
        "┏━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━┓",
        "┃ Cluster ID             ┃ Controller ID ┃ Endpoint type ┃",
        "┡━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━┩",
        f"│ {CLUSTER_ID} │ 101           │ controllers   │",
        "└────────────────────────┴───────────────┴───────────────┘",
    ]


def test_broker_defaults_of_a_cluster_with_elr_hold_min_insync_replicas(sb: Any) -> None:
    # Kafka 4.4's controller keeps a cluster-level min.insync.replicas while ELR is on
    text = invoke("configs", "-C", sb.bootstrap_controllers, "--describe", "--broker-defaults")
    assert (text.code, text.stderr) == (0, "")
    assert text.stdout == (
        "Default configs for brokers in the cluster are:\n"
        "  min.insync.replicas=1 sensitive=false synonyms={DYNAMIC_DEFAULT_BROKER_CONFIG:min.insync.replicas=1}\n"
    )


def test_broker_defaults_say_none_are_set(make_sandbox: Any) -> None:
    sb = make_sandbox(controllers=1, brokers=1, release_version="4.0-IV0")  # before ELR: nothing set
    text = invoke("configs", "-C", sb.bootstrap_controllers, "--describe", "--broker-defaults")
    assert text.code == 0
    assert (
        text.stdout == "Default configs for brokers in the cluster are:\n"
    )  # kafka-configs.sh's line, alone
    assert text.stderr == (
        "Note: no cluster-wide broker defaults are set; each broker uses its own configuration "
        "(--entity-type brokers --entity-name ID --all shows it).\n"
    )
    table = invoke(
        "configs", "-C", sb.bootstrap_controllers, "--describe", "--broker-defaults", "-o", "table"
    )
    assert table.code == 0 and table.stderr == ""
    assert _stripped(table.stdout) == [
        "          Default configs for brokers in the cluster are",
        "┏━━━━━━━━━━━━┳━━━━━━━┳━━━━━━━━┳━━━━━━━━━━━┳━━━━━━━━━━━┳━━━━━━━━━━┓",
        "┃ Name       ┃ Value ┃ Source ┃ Sensitive ┃ Read-only ┃ Synonyms ┃",
        "┡━━━━━━━━━━━━╇━━━━━━━╇━━━━━━━━╇━━━━━━━━━━━╇━━━━━━━━━━━╇━━━━━━━━━━┩",
        "│ no results │       │        │           │           │          │",
        "└────────────┴───────┴────────┴───────────┴───────────┴──────────┘",
    ]
    # a broker that does have configs gets neither the note nor the marker
    broker = invoke(
        "configs", "-b", sb.bootstrap_servers, "--describe", "--entity-type", "brokers", "--entity-name", "1"
    )
    assert broker.code == 0 and "Note:" not in broker.stderr and "no results" not in broker.stdout
