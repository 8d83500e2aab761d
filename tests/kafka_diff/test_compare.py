"""The differential suite's own parts, without Kafka: the corpus is well formed, the comparison judges
what it should (outputs taken from Kafka 4.4.0's and 4.0.2's tools)."""

from __future__ import annotations

import pytest

from tests.kafka_diff import compare, corpus, normalize
from tests.kafka_diff.compare import Outcome


def test_every_case_is_well_formed() -> None:
    ids = [case.id for case in corpus.ALL_CASES]
    assert len(ids) == len(set(ids)), "case ids are unique"
    for case in corpus.ALL_CASES:
        assert case.tool in corpus.TOOLS, case.id
        assert set(case.versions) <= set(corpus.VERSIONS), case.id
        assert case.source, case.id
        for difference in case.differences:
            assert difference.aspects <= set(compare.ASPECTS), case.id
            assert difference.reason, case.id
            assert difference.versions & set(case.versions), f"{case.id}: a difference for a release it skips"
        actions = tuple(f"{name} " for name in corpus.ACTIONS)
        for line in (*case.setup, *case.undo, *case.cleanup):
            assert line.startswith(("bin/kafka-", "sandbox ", *actions)), f"{case.id}: {line}"
        for line in case.state:
            assert line.startswith("bin/kafka-"), f"{case.id}: {line}"
        if any(line.startswith("bin/") for line in case.undo):
            assert case.state, f"{case.id}: an undo without state to check it against"


def test_the_docs_lines_are_kafkas_own() -> None:
    """Each docs case names the file and line of Kafka 4.4's docs it comes from."""
    sources = [case.source for case in corpus.DOCS if case.source.startswith("docs/")]
    assert len(sources) >= 60
    assert all(":" in source.split(" ", 1)[0] for source in sources)


def test_key_sentence_of_each_error_shape() -> None:
    configs = Outcome(
        1,
        "",
        "Error while executing config command with args '--bootstrap-server x --alter'\n"
        "java.util.concurrent.ExecutionException: org.apache.kafka.common.errors.InvalidConfigurationException:"
        " Unknown topic config name: x\n\tat java.base/java.util.concurrent.CompletableFuture.reportGet(X.java:1)\n",
    )
    assert compare.key_sentence("configs", configs) == "Unknown topic config name: x"
    argparse = Outcome(
        1,
        "",
        "usage: kafka-cluster cluster-id [-h] [--config CONFIG]\n"
        "kafka-cluster:  error:  one  of   the  arguments  --bootstrap-server/-b  --\n"
        "bootstrap-controller/-C is required\n",
    )
    assert compare.key_sentence("cluster", argparse) == (
        "one of the arguments --bootstrap-server/-b --bootstrap-controller/-C is required"
    )
    acls = Outcome(
        1, "Error while executing ACL command: Cannot invoke x\njava.lang.NullPointerException: y\n", ""
    )
    assert compare.key_sentence("acls", acls) == "Cannot invoke x"
    features = Outcome(1, "", "Command line error: You must specify either A or B.. Type --help for help.")
    assert compare.key_sentence("features", features) == "You must specify either A or B."
    logged = Outcome(
        1,
        "",
        "[2026-11-27 04:39:40,755] ERROR [AdminClient clientId=adminclient-1] failed (o.a.k.X)\n"
        "org.apache.kafka.common.errors.ControllerIdNotRegisteredException: Controller ID 109 is not currently registered.\n",
    )
    assert compare.key_sentence("cluster", logged) == "Controller ID 109 is not currently registered."
    assert compare.key_sentence("cluster", Outcome(0, "Cluster ID: x\n", "")) is None


def test_aspects_found() -> None:
    kafka = Outcome(1, "", "Error: Unknown broker id 7\n")
    same = Outcome(2, "", "Error: Unknown broker id 7 (the cluster's brokers are 1,2,3)\n")
    assert compare.differing_aspects("configs", kafka, same, None, None) == {}
    other = Outcome(0, "done\n", "")
    assert set(compare.differing_aspects("configs", kafka, other, "a", "b")) == {
        "exit",
        "stdout",
        "message",
        "state",
    }
    unsorted = Outcome(0, "Dynamic configs for topic b are:\nDynamic configs for topic a are:\n", "")
    sorted_ = Outcome(0, "Dynamic configs for topic a are:\nDynamic configs for topic b are:\n", "")
    assert set(compare.differing_aspects("configs", unsorted, sorted_, None, None)) == {"order"}


def test_errors_on_stdout_are_not_data() -> None:
    kafka = Outcome(1, "Error: Unable to find partition: foo-2\njava.lang.Exception: y\n\tat z\n", "")
    kcli = Outcome(1, "", "Error: Unable to find partition: foo-2\n")
    assert compare.differing_aspects("reassign-partitions", kafka, kcli, None, None) == {}


@pytest.mark.parametrize(
    ("tool", "kafka", "kcli"),
    [
        (
            "features",
            "Feature: a  SupportedMinVersion: 0  Epoch: 381\n",
            "Feature: a  SupportedMinVersion: 0  Epoch: 382\n",
        ),
        ("metadata-quorum", "HighWatermark:          384\n", "HighWatermark:          385\n"),
        (
            "configs",
            "SCRAM credential configs for user-principal 'bob' are SCRAM-SHA-512=iterations=4096, SCRAM-SHA-256=iterations=4096\n",
            "SCRAM credential configs for user-principal 'bob' are SCRAM-SHA-256=iterations=4096, SCRAM-SHA-512=iterations=4096\n",
        ),
        (
            "acls",
            "Current ACLs for resource `R`:\n\t(principal=User:Bob, x)\n\t(principal=User:Alice, x)\n\n",
            "Current ACLs for resource `R`:\n\t(principal=User:Alice, x)\n\t(principal=User:Bob, x)\n\n",
        ),
        (
            "log-dirs",
            '{"partition":"__share_group_state-46","size":300,"offsetLag":0},{"partition":"t-0","size":7}\n',
            '{"partition":"__share_group_state-46","size":474,"offsetLag":0},{"partition":"t-0","size":7}\n',
        ),
    ],
    ids=["features-epoch", "quorum-offsets", "scram-order", "acl-order", "coordinator-partition-size"],
)
def test_each_normalization_makes_equal_what_it_must(tool: str, kafka: str, kcli: str) -> None:
    assert kafka != kcli
    assert normalize.stdout(tool, kafka) == normalize.stdout(tool, kcli)


def test_normalizations_keep_what_must_stay() -> None:
    first_entry = (
        "Adding ACLs for resource `R`: \n \t(principal=User:Bob, x)\n\t(principal=User:Alice, x)\n\n"
    )
    assert normalize.stdout("acls", first_entry).splitlines()[1] == " \t(principal=User:Alice, x)"
    assert normalize.stdout("configs", "Epoch: 5\n") == "Epoch: 5\n"  # each rule holds for its tool alone
    sized = '{"partition":"t-0","size":7}\n'  # a topic of the user's keeps its size compared
    assert normalize.stdout("log-dirs", sized) == sized
    assert (
        normalize.stdout("metadata-quorum", "LeaderId:               103\n")
        == "LeaderId:               103\n"
    )


def _group_blocks(*groups: str) -> str:
    return "".join(f"Dynamic configs for group {g} are:\n" for g in groups)


def test_configs_groups_in_one_hash_bucket_may_swap_but_the_buckets_keep_their_order() -> None:
    # Kafka 4.4.0 on a real cluster: my-other-group and my-share-group share bucket 13 of 16
    kafka = _group_blocks(
        "cg-active-classic", "my-group", "cg-active-848", "my-share-group", "my-other-group"
    )
    swapped = _group_blocks(
        "cg-active-classic", "my-group", "cg-active-848", "my-other-group", "my-share-group"
    )
    assert normalize.stdout("configs", kafka) == normalize.stdout("configs", swapped)
    alphabetical = _group_blocks(
        "cg-active-848", "cg-active-classic", "my-group", "my-other-group", "my-share-group"
    )
    assert normalize.stdout("configs", kafka) != normalize.stdout("configs", alphabetical)


def test_the_parity_lines_are_still_the_parity_suites() -> None:
    """tests/kafka_diff/parity_lines.json (scripts/parity-lines.py): each line's parity case still exists,
    and kcli still answers it as recorded; a changed parity suite means running the script again."""
    import importlib
    import json
    from pathlib import Path

    from tests.kafka_parity.conftest import kcli

    entries = json.loads(Path(__file__).with_name("parity_lines.json").read_text(encoding="utf-8"))
    assert entries
    for entry in entries:
        path, test = entry["parity_case"].split("::", 1)
        module = importlib.import_module(path.removesuffix(".py").replace("/", "."))
        assert hasattr(module, test.split("[", 1)[0]), (
            f"{entry['parity_case']} is gone: run scripts/parity-lines.py"
        )
        result = kcli(*entry["argv"], environ={"KCLI_DEFAULT_API_TIMEOUT_MS": "1"})
        assert result.code == entry["kcli_exit"], (entry, result.stderr)


def test_the_group_tools_error_blocks_on_stdout() -> None:
    """kafka-consumer-groups prints a failure as `\\nError: ...` on stdout and exits 0: the block is its
    error report (its key sentence, without the wrappers), and the rest of stdout is its data."""
    kafka = Outcome(
        0,
        "\nError: Deletion of some consumer groups failed:\n* Group 'x' could not be deleted due to: y\n"
        "\nThese consumer groups were deleted successfully: 'a'\n",
        "",
    )
    assert compare.key_sentence("consumer-groups", kafka) == "Deletion of some consumer groups failed:"
    assert (
        compare._data_part("consumer-groups", kafka)
        == "\nThese consumer groups were deleted successfully: 'a'\n"
    )
    wrapped = Outcome(
        0,
        "\nError: Executing consumer group command failed due to org.apache.kafka.common.errors."
        "GroupIdNotFoundException: Group nope not found.\n",
        "WARN: No action will be performed as the --execute option is missing.\n",
    )
    assert compare.key_sentence("consumer-groups", wrapped) == "Group nope not found."
    usage = Outcome(
        1, "", "WARN: No action will be performed\nOption [reset-offsets] takes one of these options: [x]\n"
    )
    assert (
        compare.key_sentence("consumer-groups", usage)
        == "Option [reset-offsets] takes one of these options: [x]"
    )
    jopt = Outcome(
        1,
        "",
        'Exception in thread "main" joptsimple.UnavailableOptionException: Option(s) [members] are unavailable\n',
    )
    assert compare.key_sentence("consumer-groups", jopt) == "Option(s) [members] are unavailable"


def test_javas_set_order_does_not_count() -> None:
    kafka = Outcome(1, "", "Option [describe] takes one of these options: [all-groups], [group]\n")
    kcli = Outcome(2, "", "Error: Option [describe] takes one of these options: [group], [all-groups]\n")
    assert compare.differing_aspects("consumer-groups", kafka, kcli, None, None) == {}
    states = Outcome(1, "", "Invalid state list 'x'. Valid states are: Stable, Dead, Empty\n")
    ours = Outcome(2, "", "Error: Invalid state list 'x'. Valid states are: Dead, Empty, Stable\n")
    assert compare.differing_aspects("share-groups", states, ours, None, None) == {}


def test_group_listings_are_compared_as_sets() -> None:
    assert normalize.stdout("groups", "GROUP  TYPE  PROTOCOL\nz  Classic  consumer \na  Share  share \n") == (
        "GROUP  TYPE  PROTOCOL\na  Share  share \nz  Classic  consumer \n"
    )
    assert normalize.stdout("consumer-groups", "b\na\n") == "a\nb\n"
    describe = "\nGROUP  TOPIC  PARTITION\nb  t  1\na  t  0\n"
    assert normalize.stdout("consumer-groups", describe) == describe  # rows of a describe keep their order


def test_key_sentence_of_the_transactions_and_client_metrics_tools() -> None:
    """kafka-transactions' `<what>: <cause>. Enable debug logging ...` (the cause's period doubled when it
    has one), its argparse4j error after the usage, and kafka-client-metrics' error on stdout."""
    hanging = Outcome(
        1, "", "Failed to describe 1 topics: This server does not host this topic-partition.. Enable debug "
        "logging for additional detail.\n",
    )  # fmt: skip
    assert compare.key_sentence("transactions", hanging) == (
        "Failed to describe 1 topics: This server does not host this topic-partition."
    )
    usage = Outcome(
        1,
        "",
        "usage: kafka-transactions.sh --bootstrap-server host:port describe [-h]\n"
        "                             --transactional-id TRANSACTIONAL_ID\n"
        "kafka-transactions.sh: error: argument --transactional-id is required\n",
    )
    assert compare.key_sentence("transactions", usage) == "argument --transactional-id is required"
    metrics = Outcome(
        1,
        "Error while executing client metrics command : Illegal client matching pattern: foo=bar\n",
        "[2026-12-01 22:02:40,295] ERROR org.apache.kafka.common.errors.InvalidConfigurationException: x\n"
        " (org.apache.kafka.tools.ClientMetricsCommand)\n",
    )
    assert compare.key_sentence("client-metrics", metrics) == "Illegal client matching pattern: foo=bar"


def test_the_normalizations_of_the_new_tools() -> None:
    table = (
        "CoordinatorId\tTransactionalId\tProducerId\tProducerEpoch\tTransactionState\tTransactionTimeoutMs\t"
        "CurrentTransactionStartTimeMs\tTransactionDurationMs\tTopicPartitions  \t\n"
        "1            \ttx-open        \t2         \t0            \tOngoing         \t60000               \t"
        "1796161307881                \t{}                \t{}\t\n"
    )
    assert normalize.stdout("transactions", table.format(19695, "txt-2,txt-1,txt-0")) == normalize.stdout(
        "transactions", table.format(20311, "txt-0,txt-1,txt-2")
    )
    token = (
        "Created delegation token with tokenId : {0}\n\nTOKENID ...\n\n{0} {1} User:admin      User:admin      "
        "[User:user1]              {2} 2026-12-02T22:09 2026-12-08T22:09\n"
    )
    first = token.format("YL98C8O6SZWNnYbf_3t3lA", "bsIc+/Q3uI==", "2026-12-01T22:09")
    second = token.format("Hjz9WEU7REenZjQSIbfe8g", "/hmB1S5+==", "2026-12-01T22:10")
    assert normalize.stdout("delegation-tokens", first) == normalize.stdout("delegation-tokens", second)
    assert normalize.stdout(
        "client-metrics", "Altered client metrics config for eDPGFkQHQJmX1sF1WLKgqQ.\n"
    ) == ("Altered client metrics config for <uuid>.\n")
    assert normalize.stdout("client-metrics", "Altered client metrics config for cm-basic.\n").endswith(
        "cm-basic.\n"
    )
