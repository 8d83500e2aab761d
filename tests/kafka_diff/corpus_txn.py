"""The corpus of kafka-transactions, kafka-client-metrics, kafka-delegation-tokens and
kafka-broker-api-versions: every command line of their docs (docs/security/authentication-using-sasl.md
of Kafka 4.4 has the delegation-token ones; the others have none) and of their --help, plus error lines.

Lines and their fields are as in tests/kafka_diff/corpus.py, with one more kind of setup, undo and
cleanup line: `txn <action> ...` makes real transactional state (tests/kafka_diff/txn_state.py):
`txn prepare` (txn-topic with a committed, an aborted and an open transaction of confluent-kafka
producers), `txn fresh-hang TOPIC` (the topic made afresh with a hanging transaction at offset 0),
`txn drop-topic TOPIC`, `txn new-token` (a token whose HMAC fills `{hmac}`), `txn expire-tokens`,
`txn clean-generated-metrics`.

Kafka 4.4.0's cluster of the suite runs SASL_SSL with the admin user logged in by SCRAM and
delegation.token.secret.key set; 4.0.2's is plaintext, where token requests are refused.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tests.kafka_diff.conftest import Target
    from tests.kafka_diff.corpus import Case

TX = "bin/kafka-transactions.sh --bootstrap-server localhost:9092"
CM = "bin/kafka-client-metrics.sh --bootstrap-server localhost:9092"
DT = "bin/kafka-delegation-tokens.sh --bootstrap-server localhost:9092"
SASL_DOCS = "docs/security/authentication-using-sasl.md"

# ---------------------------------------------------------------------------------- reasons

TX_HELP = (
    "--help prints kcli's own help on stdout and exits 0; kafka-transactions' argparse4j prints its usage "
    "and exits 1, a subcommand's too"
)
TX_PARSE_ERRORS = (
    "a line argparse4j itself refuses (a missing required option or subcommand, an unknown option, a value "
    "that is not a number) gets click's usage error (exit 2): `Missing option '--topic'`; argparse4j words it "
    "`argument --topic is required`, `too few arguments`, `unrecognized arguments: '--blah'`"
)
NO_BOOTSTRAP_NEEDED_FOR_HELP = (
    "kafka-transactions requires --bootstrap-server before it shows a subcommand's help"
)
PARTITIONS_SORTED = (
    "a transaction's partitions are listed sorted; Kafka prints a Java HashSet of them (normalized: sorted)"
)
FORCE_TERMINATE_UNKNOWN = (
    "kcli refuses to force-terminate a transactional id the cluster does not know (DescribeTransactions "
    "first); Kafka's tool sends InitProducerId, which creates the id, and exits 0"
)
DESCRIBE_OWN_TOKENS = (
    "--describe without --owner-principal lists the caller's own tokens and those it may describe, as the "
    "tool's help says; kafka-delegation-tokens sends an empty owner list, which matches no token (it always "
    "prints `Total number of tokens : 0`)"
)
HMAC_NOT_ECHOED = (
    "kcli does not echo the HMAC it is given (`with hmac :<hidden>`), and it ends the `Completed renew "
    "operation.` and `Completed expire operation.` lines with a newline (Kafka's have none)"
)
DELETE_MISSING_SUBSCRIPTION = (
    "--delete of a name that has no subscription says so (`doesn't exist and doesn't have dynamic config`, "
    "exit 0, as --describe words it); Kafka's tool sends deletes for its default configs and prints `Deleted "
    "client metrics config for X.`"
)
DESCRIBE_MISSING_4_0 = (
    "--describe of a name without a subscription says `doesn't exist` as Kafka 4.1+ does (it asks "
    "ListConfigResources first); 4.0 prints an empty `Client metrics configs for X are:` block"
)
API_VERSIONS_4_4 = (
    "kcli prints every client API of Kafka 4.4 (ApiKeys.clientApis) with 4.4's names; Kafka 4.0.2's tool "
    "knows 4.0's (ListClientMetricsResources for ListConfigResources(74), nothing after 87)"
)
BROKERS_BY_ID = (
    "kcli lists the brokers by id; kafka-broker-api-versions in the iteration order of a Java HashMap of its "
    "Node objects, and `[usable: N]` is the version kcli itself would send (kio's newest)"
)
NO_TRACE = (
    "kcli reports the failure as one line on stderr; Kafka's tool prints the exception's message, then its "
    "class name and stack trace"
)


def _help(case: Callable[..., Case], differs: Callable[..., object]) -> list[Case]:
    tools = [
        ("transactions", "--help", TX_HELP),
        ("transactions", "--bootstrap-server localhost:9092 list --help", TX_HELP),
        ("transactions", "--bootstrap-server localhost:9092 describe --help", TX_HELP),
        ("transactions", "--bootstrap-server localhost:9092 describe-producers --help", TX_HELP),
        ("transactions", "--bootstrap-server localhost:9092 abort --help", TX_HELP),
        ("transactions", "--bootstrap-server localhost:9092 find-hanging --help", TX_HELP),
        ("client-metrics", "--help", None),
        ("delegation-tokens", "--help", None),
        ("broker-api-versions", "--help", None),
    ]
    from tests.kafka_diff.corpus import OWN_HELP

    out = [
        case(
            f"help-{tool}-{'-'.join(w for w in args.split() if not w.startswith(('-', 'localhost')))}".rstrip(
                "-"
            ),
            f"bin/kafka-{tool}.sh {args}",
            "the tool's --help",
            differences=(differs("exit", "stdout", reason=reason or OWN_HELP),),
        )
        for tool, args, reason in tools
    ]
    out.append(
        case(
            "help-transactions-forceTerminateTransaction",
            f"{TX} forceTerminateTransaction --help",
            "the tool's --help (4.4)",
            differences=(differs("exit", "stdout", reason=TX_HELP),),
        )
    )
    return out


def cases() -> list[Case]:
    """Every case of these tools (imported by tests/kafka_diff/corpus.py).

    Where they run: a line whose output or option is Kafka 4.4's alone, or that needs SASL (tokens),
    on 4.4.0; a line the tool refuses before it connects on 4.4.0 (its wording); the other reads and
    writes on 4.0.2's one plaintext node, the main ones on both releases. That keeps the 3+3 SASL_SSL
    cluster's share of the suite's time small.
    """
    from tests.kafka_diff.corpus import NEWEST, OLDEST, OWN_VERSION, VERSIONS, Case, differs

    old, new, both = (OLDEST,), (NEWEST,), VERSIONS
    tx_state = ("txn prepare",)
    hanging: dict[str, Any] = {"setup": ("txn fresh-hang txn-hang",), "cleanup": ("txn drop-topic txn-hang",)}
    out: list[Case] = [*_help(Case, differs)]
    out += [
        # ---- kafka-transactions: the reads, on real transactions
        Case("tx-list", f"{TX} list", "the tool's --help: list", setup=tx_state, versions=both),
        Case(
            "tx-list-duration",
            f"{TX} list --duration-filter 0",
            "list --duration-filter",
            setup=tx_state,
            versions=old,
        ),
        Case(
            "tx-list-pattern",
            f"{TX} list --transactional-id-pattern 'tx-.*ed'",
            "list --transactional-id-pattern (4.1+)",
            setup=tx_state,
            versions=new,
        ),
        Case(
            "tx-describe-tx-committed",
            f"{TX} describe --transactional-id tx-committed",
            "the tool's --help: describe",
            setup=tx_state,
            versions=old,
        ),
        Case(
            "tx-describe-tx-open",
            f"{TX} describe --transactional-id tx-open",
            "the tool's --help: describe",
            setup=tx_state,
            versions=both,
        ),
        Case(
            "tx-describe-unknown",
            f"{TX} describe --transactional-id no-such-id",
            "describe of an id the cluster does not know",
            versions=both,
        ),
        Case(
            "tx-describe-producers",
            f"{TX} describe-producers --topic txn-topic --partition 0",
            "the tool's --help: describe-producers",
            setup=tx_state,
            versions=both,
        ),
        Case(
            "tx-describe-producers-broker",
            f"{TX} describe-producers --broker-id 1 --topic txn-topic --partition 0",
            "describe-producers --broker-id (partition 0 is on broker 1)",
            setup=tx_state,
            versions=old,
        ),
        Case(
            "tx-find-hanging-topic",
            f"{TX} find-hanging --topic txn-hang --max-transaction-timeout 0",
            "the tool's --help: find-hanging, on a hanging transaction",
            versions=both,
            **hanging,
        ),
        Case(
            "tx-find-hanging-partition",
            f"{TX} find-hanging --topic txn-hang --partition 0 --max-transaction-timeout 0",
            "find-hanging --partition",
            versions=old,
            **hanging,
        ),
        Case(
            "tx-find-hanging-broker",
            f"{TX} find-hanging --broker-id 1",
            "find-hanging --broker-id (every partition with a replica there; 15 minutes: none old enough)",
            setup=tx_state,
            versions=old,
        ),
        Case(
            "tx-find-hanging-none",
            f"{TX} find-hanging --topic txn-topic --max-transaction-timeout 0",
            "find-hanging where the open transaction's coordinator still holds it",
            setup=tx_state,
            versions=old,
        ),
        # ---- kafka-transactions: the writes
        Case(
            "tx-abort-start-offset",
            f"{TX} abort --topic txn-abort --partition 0 --start-offset 0",
            "the tool's --help: abort --start-offset, of a hanging transaction (the state read back on 4.0.2)",
            setup=("txn fresh-hang txn-abort",),
            state=(f"{TX} find-hanging --topic txn-abort --max-transaction-timeout 0",),
            undo=("txn fresh-hang txn-abort",),
            cleanup=("txn drop-topic txn-abort",),
            restorable=False,  # the hanging transaction made again has a producer id of its own
            versions=old,
        ),
        Case(
            "tx-abort-start-offset-4-4",
            f"{TX} abort --topic txn-abort --partition 0 --start-offset 0",
            "the tool's --help: abort --start-offset, of a hanging transaction (4.4.0; its state: the 4.0.2 case)",
            setup=("txn fresh-hang txn-abort",),
            undo=("txn fresh-hang txn-abort",),
            cleanup=("txn drop-topic txn-abort",),
            versions=new,
        ),
        Case(
            "tx-abort-no-such-offset",
            f"{TX} abort --topic txn-topic --partition 0 --start-offset 99999",
            "abort --start-offset of no open transaction",
            setup=tx_state,
            versions=old,
        ),
        Case(
            "tx-force-terminate",
            f"{TX} forceTerminateTransaction --transactionalId tx-committed",
            "the tool's --help: forceTerminateTransaction (4.4), of an id without an open transaction",
            setup=tx_state,
            versions=new,
        ),
        # ---- kafka-transactions: lines it refuses before it connects
        *[
            Case(f"tx-error-{slug}", f"{TX} {args}", "error case", versions=new, differences=differences)
            for slug, args, differences in [
                ("abort-unidentified", "abort --topic txn-topic --partition 0", ()),
                ("abort-no-epoch", "abort --topic txn-topic --partition 0 --producer-id 5", ()),
                (
                    "abort-no-coordinator-epoch",
                    "abort --topic txn-topic --partition 0 --producer-id 5 --producer-epoch 0",
                    (),
                ),
                ("find-hanging-unscoped", "find-hanging", ()),
                ("find-hanging-partition-only", "find-hanging --broker-id 1 --partition 0", ()),
                ("describe-no-id", "describe", (differs("message", reason=TX_PARSE_ERRORS),)),
                ("no-subcommand", "", (differs("message", reason=TX_PARSE_ERRORS),)),
                ("bad-number", "list --duration-filter soon", (differs("message", reason=TX_PARSE_ERRORS),)),
            ]
        ],
        Case("tx-error-no-bootstrap", "bin/kafka-transactions.sh list", "error case", versions=new),
        Case(
            "tx-version",
            "bin/kafka-transactions.sh --version",
            "the tool's --help: -v, --version",
            versions=new,
            differences=(differs("stdout", reason=OWN_VERSION),),
        ),
    ]
    out += _client_metrics(Case, differs, old, new, both)
    out += _tokens(Case, differs, old, new)
    out += [
        Case(
            "broker-api-versions",
            "bin/kafka-broker-api-versions.sh --bootstrap-server localhost:9092",
            "the tool's --help",
            versions=both,
            differences=(
                differs("stdout", reason=BROKERS_BY_ID),
                differs("stdout", reason=API_VERSIONS_4_4, versions=old),
            ),
        ),
        Case(
            "broker-api-versions-version",
            "bin/kafka-broker-api-versions.sh --version",
            "the tool's --help: --version",
            differences=(differs("stdout", reason=OWN_VERSION),),
        ),
    ]
    return out


def _client_metrics(
    case: Callable[..., Case],
    differs: Callable[..., object],
    old: tuple[str, ...],
    new: tuple[str, ...],
    both: tuple[str, ...],
) -> list[Case]:
    describe = f"{CM} --describe --name cm-basic"
    alter = (
        f"{CM} --alter --name cm-basic --metrics org.apache.kafka.producer.,org.apache.kafka.consumer.coordinator "
        "--interval 5000 --match client_id=app-1,client_software_name=kafka.python"
    )
    delete = f"{CM} --delete --name cm-basic"
    listed = {
        "setup": (f"{CM} --alter --name cm-listed --metrics a.",),
        "cleanup": (f"{CM} --delete --name cm-listed",),
    }
    return [
        case(
            "cm-alter",
            alter,
            "the tool's --help: --alter --name --metrics --interval --match (the state read back on 4.0.2)",
            state=(describe,),
            undo=(delete,),
            versions=old,
        ),
        case(
            "cm-alter-4-4",
            alter,
            "the tool's --help: --alter --name --metrics --interval --match (4.4.0; its state: the 4.0.2 case)",
            cleanup=(delete,),
            versions=new,
        ),
        case(
            "cm-alter-reset-interval",
            f"{CM} --alter --name cm-basic --interval=",
            "the tool's --help: --interval (leave empty to reset)",
            setup=(f"{CM} --alter --name cm-basic --metrics org.apache.kafka. --interval 1000",),
            cleanup=(delete,),
            versions=old,
        ),
        case(
            "cm-generate-name",
            f"{CM} --alter --generate-name --metrics '*'",
            "the tool's --help: --generate-name",
            cleanup=("txn clean-generated-metrics",),
            versions=old,
        ),
        case("cm-list", f"{CM} --list", "the tool's --help: --list", versions=old, **listed),
        case("cm-describe-all", f"{CM} --describe", "the tool's --help: --describe", versions=old, **listed),
        case(
            "cm-describe-missing",
            f"{CM} --describe --name cm-none",
            "--describe of a name without a subscription",
            versions=both,
            differences=(differs("stdout", reason=DESCRIBE_MISSING_4_0, versions=old),),
        ),
        case(
            "cm-delete",
            delete,
            "the tool's --help: --delete",
            setup=(f"{CM} --alter --name cm-basic --metrics org.apache.kafka.",),
            state=(f"{CM} --list",),
            undo=(f"{CM} --alter --name cm-basic --metrics org.apache.kafka.",),
            cleanup=(delete,),
            versions=old,
        ),
        case(
            "cm-delete-missing",
            f"{CM} --delete --name cm-none",
            "--delete of a name without a subscription",
            versions=old,
            differences=(differs("stdout", reason=DELETE_MISSING_SUBSCRIPTION),),
        ),
        *[
            case(f"cm-error-{slug}", f"{CM} {args}", "error case", versions=versions)
            for slug, args, versions in [
                ("two-actions", "--list --describe", new),
                ("alter-unnamed", "--alter --metrics a.", new),
                ("alter-two-names", "--alter --name a --generate-name", new),
                ("bad-interval", "--alter --name a --interval soon", new),
                ("list-name", "--list --name a", new),
                ("describe-interval", "--describe --interval 5", new),
                ("delete-unnamed", "--delete", new),
                ("bad-match", "--alter --name cm-bad --match nosuch=1", old),  # the broker refuses these
                ("small-interval", "--alter --name cm-bad --interval 10", old),
            ]
        ],
        case(
            "cm-version",
            "bin/kafka-client-metrics.sh --version",
            "the tool's --help: --version",
            versions=new,
            differences=(differs("stdout", reason=_own_version()),),
        ),
    ]


def _own_version() -> str:
    from tests.kafka_diff.corpus import OWN_VERSION

    return OWN_VERSION


def _tokens(
    case: Callable[..., Case], differs: Callable[..., object], old: tuple[str, ...], new: tuple[str, ...]
) -> list[Case]:
    """Tokens need SASL: 4.4.0's cluster (4.0.2's plaintext node refuses them: one line shows it)."""
    token = {"setup": ("txn new-token",), "cleanup": ("txn expire-tokens",)}
    create = f"{DT} --create --max-life-time-period -1 --command-config client.properties --renewer-principal User:user1"
    return [
        # The examples of docs/security/authentication-using-sasl.md (client.properties: the suite's settings)
        case(
            "sasl-create-token",
            create,
            f"{SASL_DOCS}:818",
            state=(f"{DT} --describe --owner-principal User:user1",),
            undo=("txn expire-tokens",),
            versions=new,
        ),
        *[
            case(
                f"sasl-{slug}",
                f"{DT} {args}",
                f"{SASL_DOCS}:{line}",
                versions=new,
                differences=(differs("stdout", reason=HMAC_NOT_ECHOED),),
            )
            for slug, args, line in [
                (
                    "renew-token",
                    "--renew --renew-time-period -1 --command-config client.properties --hmac ABCDEFGHIJK",
                    834,
                ),
                (
                    "expire-token",
                    "--expire --expiry-time-period -1 --command-config client.properties --hmac ABCDEFGHIJK",
                    841,
                ),
            ]
        ],
        case(
            "sasl-describe-tokens",
            f"{DT} --describe --command-config client.properties --owner-principal User:user1",
            f"{SASL_DOCS}:848, with a token renewable by User:user1",
            versions=new,
            **token,
        ),
        case(
            "dt-describe-own",
            f"{DT} --describe",
            "the tool's --help: --describe without --owner-principal, with a token of the admin user",
            versions=new,
            differences=(differs("stdout", reason=DESCRIBE_OWN_TOKENS),),
            **token,
        ),
        case(
            "dt-renew",
            f"{DT} --renew --renew-time-period 3600000 --hmac {{hmac}}",
            "the tool's --help: --renew --renew-time-period, of a real token",
            versions=new,
            differences=(differs("stdout", reason=HMAC_NOT_ECHOED),),
            **token,
        ),
        *[
            case(f"dt-error-{slug}", f"{DT} {args}", "error case", versions=new)
            for slug, args in [
                ("two-actions", "--create --describe"),
                ("create-no-life", "--create"),
                ("renew-no-period", "--renew --hmac ABCD"),
                ("expire-no-hmac", "--expire --expiry-time-period -1"),
                ("create-hmac", "--create --max-life-time-period -1 --hmac ABCD"),
                ("describe-hmac", "--describe --hmac ABCD"),
                ("bad-principal", "--create --max-life-time-period -1 --renewer-principal user1"),
            ]
        ],
        case(
            "dt-refused-plaintext",
            f"{DT} --describe --command-config client.properties",
            "--describe on 4.0.2's plaintext node, which refuses token requests",
            versions=old,
        ),
        case(
            "dt-version",
            "bin/kafka-delegation-tokens.sh --version",
            "the tool's --help: --version",
            versions=new,
            differences=(differs("stdout", reason=_own_version()),),
        ),
        # Last: admin cannot expire a token it made for another owner (only owner1 and the renewers can)
        case(
            "sasl-create-token-owner",
            f"{create} --owner-principal User:owner1",
            f"{SASL_DOCS}:826",
            versions=new,
        ),
    ]


def act(target: Target, words: list[str], files: Path) -> None:
    from tests.kafka_diff import txn_state

    txn_state.act(target, words, files)


# Lines of setup, undo and cleanup this corpus adds (tests/kafka_diff/runner.py runs them).
ACTIONS: dict[str, Callable[[Target, list[str], Path], None]] = {"txn": act}
