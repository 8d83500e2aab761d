"""kcli beside Kafka's own tools on the same real cluster: every line of the corpus, both tools, same state.

The corpus is tests/kafka_diff/corpus.py; how one case runs and is judged, tests/kafka_diff/runner.py.
Kafka 4.4.0 is the session's real cluster (SASL_SSL, SCRAM, the StandardAuthorizer); 4.0.2 the
session's oldest one (plaintext), for the lines whose output changed between releases.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.kafka_diff import runner
from tests.kafka_diff.beyond_kafka import *  # noqa: F403  (kcli's own topic-tool checks, on these clusters)
from tests.kafka_diff.corpus import CASES, NEWEST, Case

# What the new tools' corpus cannot check, on the same clusters (one file: one xdist worker, one start).
from tests.kafka_diff.txn_checks import (  # noqa: F401
    test_client_metrics_and_api_versions_json,
    test_tokens_json_and_the_hmac_stays_out_of_stderr,
    test_transactions_json_and_the_doctor_on_a_hanging_transaction,
    test_what_kcli_refuses_leaves_the_cluster_as_it_was,
)

pytestmark = [pytest.mark.realkafka, pytest.mark.slow]


def _params() -> list[Any]:
    return [
        pytest.param(version, case, id=f"{version}-{case.id}") for case in CASES for version in case.versions
    ]


@pytest.mark.parametrize(("version", "case"), _params())
def test_kcli_beside_kafka(version: str, case: Case, request: pytest.FixtureRequest, tmp_path: Path) -> None:
    target = request.getfixturevalue("diff_newest" if version == NEWEST else "diff_oldest")
    runner.check(target, case, version, tmp_path)
