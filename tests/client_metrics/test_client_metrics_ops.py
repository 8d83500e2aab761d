"""kafka-client-metrics.sh's rules and lines without a cluster (kcli.ops.client_metrics, kcli.render.client_metrics).

Messages and their order are ClientMetricsCommand's (Kafka 4.4.0, the same in 4.0.2).
"""

from __future__ import annotations

import re

import pytest

from kcli.errors import UsageError
from kcli.ops.client_metrics import Action, Given, plan
from kcli.render import client_metrics as view
from kcli.workflows.client_metrics import Changed, Described, Subscription


def test_one_action_then_the_bootstrap_then_what_the_action_refuses() -> None:
    with pytest.raises(
        UsageError,
        match=r"^Command must include exactly one action: --alter, --delete, --describe or --list\.$",
    ):
        plan(Given(list_=True, describe=True, bootstrap_server=True))
    with pytest.raises(UsageError, match="exactly one action"):
        plan(Given(bootstrap_server=False))  # the action first, as Kafka's tool checks
    with pytest.raises(UsageError, match=r"^--bootstrap-server must be specified\.$"):
        plan(Given(list_=True, name="x"))
    with pytest.raises(UsageError) as refused:
        plan(Given(list_=True, bootstrap_server=True, name="x", metrics=["a"]))
    assert refused.value.message == 'Option "[list]" can\'t be used with option "[name]"'
    with pytest.raises(UsageError, match=r'Option "\[describe\]" can\'t be used with option "\[interval\]"'):
        plan(Given(describe=True, bootstrap_server=True, name="x", interval="5"))
    with pytest.raises(
        UsageError, match=r'Option "\[delete\]" can\'t be used with option "\[generate-name\]"'
    ):
        plan(Given(delete=True, bootstrap_server=True, generate_name=True, match=["a=b"]))


def test_alter_needs_one_name_and_an_integer_interval() -> None:
    message = "One of --name or --generate-name must be specified with --alter."
    for given in (
        Given(alter=True, bootstrap_server=True),
        Given(alter=True, bootstrap_server=True, name="a", generate_name=True),
    ):
        with pytest.raises(UsageError, match=re.escape(message)):
            plan(given)
    for bad in ("soon", "1.5", "2147483648", " 5"):
        with pytest.raises(
            UsageError, match=r"^Invalid interval value\. Enter an integer, or leave empty to reset\.$"
        ):
            plan(Given(alter=True, bootstrap_server=True, name="a", interval=bad))
    assert plan(Given(alter=True, bootstrap_server=True, name="a", interval="+5")).changes == (
        ("interval.ms", "+5"),
    )
    with pytest.raises(
        UsageError, match=r"^A client metrics resource name must be specified with --delete\.$"
    ):
        plan(Given(delete=True, bootstrap_server=True))


def test_alter_joins_each_options_values_and_an_empty_value_deletes() -> None:
    request = plan(
        Given(
            alter=True,
            bootstrap_server=True,
            name="basic",
            interval="",
            metrics=["org.apache.kafka.producer.,org.apache.kafka.consumer.", "x."],
            match=["client_id=a"],
        )
    )
    assert request.action is Action.ALTER and request.name == "basic"
    assert request.changes == (
        ("interval.ms", ""),
        ("metrics", "org.apache.kafka.producer.,org.apache.kafka.consumer.,x."),
        ("match", "client_id=a"),
    )
    generated = plan(Given(alter=True, bootstrap_server=True, generate_name=True, metrics=["*"])).name
    assert generated is not None and re.fullmatch(r"[A-Za-z0-9_][A-Za-z0-9_-]{21}", generated)


def test_the_lines_kafka_prints() -> None:
    assert view.list_lines([]) == [""]  # Kafka prints the empty join: one empty line
    assert view.list_lines(["a", "b"]) == ["a\nb"]
    described = Described(
        subscriptions=(
            Subscription(name="cm1", configs=(("interval.ms", "1000"), ("match", ""), ("metrics", None))),
        )
    )
    assert view.describe_lines(described) == [
        "Client metrics configs for cm1 are:",
        "  interval.ms=1000",
        "  match=",
        "  metrics=null",
    ]
    missing = "The client metric resource nope doesn't exist and doesn't have dynamic config."
    assert view.describe_lines(Described(subscriptions=(), missing="nope")) == [missing]
    assert view.deleted_lines(Changed(name="nope", changes=(), existed=False)) == [missing]
    assert view.deleted_lines(Changed(name="cm1", changes=(("metrics", None),))) == [
        "Deleted client metrics config for cm1."
    ]
    assert view.altered_lines(Changed(name="cm1", changes=())) == ["Altered client metrics config for cm1."]
