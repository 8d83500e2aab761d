"""KEY=VALUE options: --set of `kcli profile` and --conf of `kcli spark audit` parse alike."""

from __future__ import annotations

import pytest

from kcli.audit.job import parse_conf
from kcli.errors import UsageError
from kcli.workflows.profiles import parse_settings


def test_pairs_are_split_at_the_first_equals_sign_and_stripped() -> None:
    assert parse_settings([" bootstrap.servers = k1:9092 ", "sasl.jaas.config=a=b"]) == {
        "bootstrap.servers": "k1:9092",
        "sasl.jaas.config": "a=b",
    }
    assert parse_conf(["spark.executor.memory=4g", "spark.x="]) == {
        "spark.executor.memory": "4g",
        "spark.x": "",
    }


@pytest.mark.parametrize("pair", ["no-equals", "=value", "  =value"])
def test_a_pair_without_a_key_or_equals_sign_names_its_option(pair: str) -> None:
    with pytest.raises(UsageError) as settings_error:
        parse_settings([pair])
    assert settings_error.value.message == (
        f"--set {pair!r}: expected KEY=VALUE, e.g. bootstrap.servers=k1:9092"
    )
    with pytest.raises(UsageError) as conf_error:
        parse_conf([pair])
    assert conf_error.value.message == f"--conf {pair!r}: expected KEY=VALUE, e.g. spark.executor.memory=4g"
