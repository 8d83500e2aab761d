"""The guarantees kcli makes under faults, bad input and hostile peers, and the tests that prove them.

    python -m tests.reliability.guarantees          # run every listed test, write docs/guarantees.md

The table in docs/guarantees.md is written from that run's JUnit report: each guarantee shows how many
of its tests passed and how long they took, so the document never claims more than a run showed.
"""

from __future__ import annotations

import datetime
import platform
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ElementTree
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "guarantees.md"


@dataclass(frozen=True, slots=True, kw_only=True)
class Guarantee:
    area: str
    promise: str
    tests: tuple[str, ...]  # "path.py::test_name" (every parametrization of it counts)


R, F, S, T = "tests/reliability/", "tests/fuzz/", "tests/security/", "tests/sandbox/"
GUARANTEES: tuple[Guarantee, ...] = (
    Guarantee(
        area="Faults",
        promise="A broker stopped in the middle of a multi-broker describe: the others are printed, the "
        "missing node is named, exit 1, within the deadline.",
        tests=(f"{R}test_sandbox_faults.py::test_broker_stopped_mid_describe_finishes_with_what_it_got",),
    ),
    Guarantee(
        area="Faults",
        promise="Every broker replaced by new ones on new ports (KIP-899): `metadata-quorum describe --watch` "
        "rebootstraps through the bootstrap address and every refresh succeeds.",
        tests=(f"{R}test_sandbox_faults.py::test_replaced_brokers_watch_rebootstraps_and_carries_on",),
    ),
    Guarantee(
        area="Faults",
        promise="The same with metadata.recovery.strategy=none: the watch stops with one clear error and "
        "sends nothing to the new brokers.",
        tests=(
            f"{R}test_sandbox_faults.py::test_replaced_brokers_with_recovery_none_stops_with_a_clear_error",
        ),
    ),
    Guarantee(
        area="Faults",
        promise="A misrouted endpoint (KIP-1242): REBOOTSTRAP_REQUIRED is noticed, the client rebootstraps "
        "once, then names the misrouted node; no write reaches the wrong node; reads use other nodes. With a "
        "pre-v5 peer (tansu), doctor still flags the endpoint that answers for another cluster.",
        tests=(
            f"{R}test_sandbox_faults.py::test_misrouted_broker_never_gets_a_write",
            f"{R}test_real_peers.py::test_doctor_flags_a_misrouted_pre_v5_peer",
        ),
    ),
    Guarantee(
        area="Faults",
        promise="Controller failover during UpdateFeatures, IncrementalAlterConfigs and "
        "AlterPartitionReassignments (through brokers and controllers): NOT_CONTROLLER is retried on the "
        "new controller and the write is in the metadata log exactly once.",
        tests=(
            f"{R}test_failover_writes.py::test_failover_during_update_features",
            f"{R}test_failover_writes.py::test_failover_during_incremental_alter_configs",
            f"{R}test_failover_writes.py::test_failover_during_alter_partition_reassignments",
        ),
    ),
    Guarantee(
        area="Durability",
        promise="Nothing acknowledged is lost: 200 concurrent `configs --alter` (8 at a time, each on its own "
        "topic of a 200-topic sandbox) while the active controller fails over every 0.4 s, then `sandbox down` "
        "+ `up`, or `kill -9` mid-writes + `up`: every acknowledged value is in the reopened image and exactly "
        "once in every voter's log; every replica has contiguous offsets, epochs that never go down and a "
        "leader-epoch-checkpoint that agrees with its batches, checked with kio's batch reader and kcli's.",
        tests=(
            f"{R}test_durability.py::test_acknowledged_writes_survive_failover_and_restart",
            f"{R}test_durability.py::test_acknowledged_writes_survive_kill_9_under_failover",
        ),
    ),
    Guarantee(
        area="Durability",
        promise="Sandbox replicas follow KRaft's rules: a torn or damaged tail, repeated offsets or epochs "
        "going backwards are cut on open; leader-epoch-checkpoint is rebuilt from the batches; a deposed "
        "leader's uncommitted suffix is truncated by epoch and offset when it fetches, never below the high "
        "watermark; reopening repairs diverged replicas; a write needs a majority of the voters, and a voter "
        "whose fsync fails acknowledges nothing until a later fsync of the same data succeeds.",
        tests=(f"{T}test_replication.py",),
    ),
    Guarantee(
        area="Durability",
        promise="Reopening a sandbox restores the settings it was created with (ports, security, authorizer, "
        "racks, sizes): ACLs stay enforced; a flag given again overrides for that run and says so on stderr.",
        tests=(
            f"{T}test_up_cli.py::test_reopen_takes_saved_settings_and_names_each_flag_that_differs",
            f"{T}test_up_cli.py::test_reopened_sandbox_keeps_its_authorizer_security_and_ports",
        ),
    ),
    Guarantee(
        area="Faults",
        promise="A node that answers after request.timeout.ms: its request fails in that time and is "
        "named; bootstrap and other nodes go on.",
        tests=(f"{R}test_sandbox_faults.py::test_answers_delayed_past_request_timeout",),
    ),
    Guarantee(
        area="Faults",
        promise="A half-open connection (before or after the handshake) ends in one timeout error within "
        "request.timeout.ms; a listener that resets (at once or mid-session) ends in one clear error; "
        "a broken first bootstrap address is skipped.",
        tests=(
            f"{R}test_network_faults.py::test_half_open_connection_times_out_in_request_timeout",
            f"{R}test_network_faults.py::test_a_broken_first_address_is_skipped_for_the_next",
            f"{R}test_network_faults.py::test_listener_that_resets_at_once",
            f"{R}test_network_faults.py::test_listener_that_resets_mid_session",
        ),
    ),
    Guarantee(
        area="Faults",
        promise="A cluster id that changes between bootstrap and rebootstrap is refused (both ids named) "
        "and nothing is written to either cluster.",
        tests=(
            f"{R}test_sandbox_faults.py::test_cluster_id_change_on_rebootstrap_is_refused_and_nothing_is_written",
            f"{R}test_real_peers.py::test_mock_cluster_replaced_by_another_cluster_is_refused_on_rebootstrap",
        ),
    ),
    Guarantee(
        area="Bad input",
        promise="Response bytes (truncated, int32/varint lengths forged to 2 GiB and beyond, negative sizes, "
        "bogus tagged fields, flipped bytes) decode to a value or ProtocolError; valid ones round-trip.",
        tests=(
            f"{F}test_fuzz_responses.py::test_valid_responses_decode_to_the_same_value",
            f"{F}test_fuzz_responses.py::test_corpus_frames_decode_and_encode_back",
            f"{F}test_fuzz_responses.py::test_damaged_responses_decode_or_raise_protocol_error",
            f"{F}test_fuzz_responses.py::test_cluster_id_against_a_server_sending_damaged_describe_cluster",
        ),
    ),
    Guarantee(
        area="Bad input",
        promise="A forged length never allocates: peak memory stays flat over every forged position, and "
        "the inputs that aborted kio's native decoder survive (kcli.bounds).",
        tests=(
            f"{F}test_fuzz_responses.py::test_forged_lengths_of_2_gib_do_not_allocate",
            f"{F}test_fuzz_responses.py::test_regressions_found_by_the_long_fuzz_run_survive_in_a_child_process",
        ),
    ),
    Guarantee(
        area="Bad input",
        promise=".properties, client settings, TOML profiles (also nested 100,000 deep), --add-config specs, "
        "ACL options, reassignment and ACL JSON (also nested 200,000 deep): a value or a UsageError.",
        tests=(
            f"{F}test_fuzz_inputs.py::test_properties_text_always_parses",
            f"{F}test_fuzz_inputs.py::test_client_settings_resolve_or_raise_usage_error",
            f"{F}test_fuzz_inputs.py::test_toml_profiles_load_or_raise_usage_error",
            f"{F}test_fuzz_inputs.py::test_deeply_nested_toml_is_a_usage_error",
            f"{F}test_fuzz_inputs.py::test_add_config_specs_parse_or_raise_usage_error",
            f"{F}test_fuzz_inputs.py::test_acl_options_build_bindings_or_raise_usage_error",
            f"{F}test_fuzz_inputs.py::test_reassignment_json_parses_or_raises_usage_error",
            f"{F}test_fuzz_inputs.py::test_broker_lists_parse_or_raise_usage_error",
            f"{F}test_fuzz_inputs.py::test_acl_import_documents_parse_or_raise_usage_error",
            f"{F}test_fuzz_inputs.py::test_deeply_nested_json_is_a_usage_error",
        ),
    ),
    Guarantee(
        area="Bad input",
        promise="Every file kcli reads (--command-config, TOML profiles, reassignment and topics-to-move JSON, "
        "ACL import, --add-config-file, rule files, PEM stores, ${file:} secrets) is refused with one line "
        "and exit 2 when it is a FIFO, a directory, a terminal with nothing typed, or a file or device over "
        "its size bound (/dev/zero), never waited for; /dev/null reads as an empty file, as in Kafka's tools.",
        tests=(
            f"{R}test_bounded_inputs.py::test_dev_zero_is_refused_at_its_bound",
            f"{R}test_bounded_inputs.py::test_dev_null_is_an_empty_command_config",
            f"{R}test_bounded_inputs.py::test_a_fifo_and_a_directory_are_refused",
            f"{R}test_bounded_inputs.py::test_a_terminal_with_nothing_typed_is_refused_not_waited_for",
            f"{R}test_bounded_inputs.py::test_a_file_over_its_bound_is_refused",
        ),
    ),
    Guarantee(
        area="Bad input",
        promise="A 5,000-digit number in a reassignment or ACL document, a client setting, a bootstrap "
        "address, a TOML profile or rule file, or a flag is a usage error naming where it is; client settings "
        "are checked by Kafka's type and range (INT, SHORT, LONG, DOUBLE, BOOLEAN, enumerations, class names), "
        "naming the setting and where it was set.",
        tests=(
            f"{R}test_bounded_inputs.py::test_a_5000_digit_replica_id_is_a_usage_error_naming_the_field",
            f"{R}test_bounded_inputs.py::test_a_5000_digit_partition_number_is_a_usage_error_naming_the_field",
            f"{R}test_bounded_inputs.py::test_a_5000_digit_number_is_a_usage_error_naming_where_it_is",
            f"{R}test_bounded_inputs.py::test_leading_zeros_count_for_nothing_as_in_java",
            f"{R}test_bounded_inputs.py::test_client_settings_are_checked_by_kafkas_type_and_range",
            f"{R}test_bounded_inputs.py::test_settings_from_the_environment_name_the_variable",
            f"{R}test_bounded_inputs.py::test_valid_settings_at_the_edges_of_their_types_are_taken",
            f"{R}test_bounded_inputs.py::test_every_setting_kcli_knows_has_a_kafka_type",
        ),
    ),
    Guarantee(
        area="Bad input",
        promise="Metadata log segments and snapshots, damaged with and without valid CRCs: entries or a "
        "DecodeError naming the file, within a second; a nested quorum-state is ignored, not a crash.",
        tests=(
            f"{F}test_fuzz_metadata.py::test_corpus_reads_cleanly",
            f"{F}test_fuzz_metadata.py::test_damaged_logs_read_or_raise_decode_error",
            f"{F}test_fuzz_inputs.py::test_deeply_nested_quorum_state_is_ignored_not_a_crash",
        ),
    ),
    Guarantee(
        area="Real peers",
        promise="tansu: the malformed CreateAcls reply and the connection dropped on unsupported APIs each "
        "end in a clear error within 10 s.",
        tests=(
            f"{R}test_real_peers.py::test_tansu_malformed_create_acls_reply_is_a_clear_error_in_time",
            f"{R}test_real_peers.py::test_tansu_drops_the_connection_on_unsupported_apis",
        ),
    ),
    Guarantee(
        area="Real peers",
        promise="librdkafka mock cluster: bootstrap and Metadata work, dead bootstrap entries are skipped, "
        "missing admin APIs are a clear error, a cluster gone mid-session fails within the deadline, "
        "rebootstrap through a stable address carries on.",
        tests=(
            f"{R}test_real_peers.py::test_mock_cluster_bootstrap_and_metadata",
            f"{R}test_real_peers.py::test_mock_cluster_dead_bootstrap_entries_are_skipped",
            f"{R}test_real_peers.py::test_mock_cluster_without_admin_apis_is_a_clear_error",
            f"{R}test_real_peers.py::test_mock_cluster_going_away_mid_session_fails_within_the_deadline",
            f"{R}test_real_peers.py::test_mock_cluster_rebootstrap_through_a_stable_address_carries_on",
        ),
    ),
    Guarantee(
        area="Security",
        promise="TLS: hostname verification is on by default (turned off only explicitly); a wrong CA or "
        "host name fails with one clear line; plaintext against TLS gets a hint; a client certificate "
        "(mTLS) is the identity the authorizer sees.",
        tests=(
            f"{S}test_tls.py::test_hostname_verification_is_on_by_default",
            f"{S}test_tls.py::test_hostname_check_can_be_turned_off_explicitly",
            f"{S}test_tls.py::test_wrong_ca_is_one_clear_error",
            f"{S}test_tls.py::test_plaintext_client_against_tls_listener_gets_a_hint",
            f"{S}test_tls.py::test_client_certificate_is_the_identity",
        ),
    ),
    Guarantee(
        area="Security",
        promise="SASL: PLAIN outside TLS only when security.protocol=SASL_PLAINTEXT is chosen, with a "
        "warning every run; SCRAM works; a wrong password is one line without the password; a server "
        "that cannot prove the password (forged SCRAM signature) is rejected before any request.",
        tests=(
            f"{S}test_sasl.py::test_plain_over_plaintext_warns_and_names_the_risk",
            f"{S}test_sasl.py::test_scram_over_plaintext_works_without_a_warning",
            f"{S}test_sasl.py::test_wrong_password_is_one_line_without_the_password",
            f"{S}test_sasl.py::test_scram_server_that_cannot_prove_the_password_is_rejected",
        ),
    ),
    Guarantee(
        area="Security",
        promise="`cluster doctor` with a wrong SASL password reports an authentication failure (the address "
        "answers), not an unreachable address, and never prints the password.",
        tests=(
            f"{R}test_bounded_inputs.py::test_doctor_reports_a_wrong_sasl_password_as_an_authentication_failure",
        ),
    ),
    Guarantee(
        area="Security",
        promise="With the authorizer: configs, acls, features, metadata-quorum and reassign-partitions say "
        "'authorization failed' for a principal without rights, per resource, and work with rights.",
        tests=(
            f"{S}test_authorizer.py::test_without_rights_each_tool_says_not_authorized",
            f"{S}test_authorizer.py::test_not_authorized_is_reported_per_resource",
            f"{S}test_authorizer.py::test_with_rights_every_tool_works",
        ),
    ),
    Guarantee(
        area="Security",
        promise="Secrets (PLAIN and SCRAM passwords, a password from ${env:...}, a sensitive config) never "
        "reach stdout, stderr, --debug output, JSON, logs or exception text over 60 command runs.",
        tests=(
            f"{S}test_secrets.py::test_no_secret_in_any_output",
            f"{S}test_secrets.py::test_client_config_repr_hides_secrets",
        ),
    ),
    Guarantee(
        area="Security",
        promise="No shell, eval, exec or pickle on anything read from a file or the network (AST check "
        "of kcli; the two code generators build source from kcli's record schemas only).",
        tests=(
            f"{S}test_no_unsafe_calls.py::test_no_shell_eval_exec_or_pickle_in_kcli",
            f"{S}test_no_unsafe_calls.py::test_the_check_finds_code_built_at_run_time",
            f"{S}test_no_unsafe_calls.py::test_generated_readers_do_not_run_data_from_a_log",
        ),
    ),
    Guarantee(
        area="Signals",
        promise="kcli signals only a process it started: every signal goes through kcli.processes, which "
        "checks the pid, start time and command line it recorded at launch against /proc and refuses a pid "
        "of 0 or below; `sandbox down` on a stale sandbox.json (pid gone, another program's, 0, -1) signals "
        "nothing and says so. A walk of kcli/, tests/ and benchmarks/ finds no other signal call.",
        tests=("tests/test_processes.py",),
    ),
    Guarantee(
        area="Writes",
        promise="Every file write goes through kcli.writes: beside-and-rename, fsync where the data "
        "matters, the temporary removed on error or Ctrl-C, a full disk or read-only file system in one "
        "line with the old file whole; stdout or stderr on /dev/full is one line and exit 1, no traceback.",
        tests=(f"{R}test_writes.py", f"{R}test_output_errors.py"),
    ),
    Guarantee(
        area="Interruptions",
        promise="Ctrl-C, SIGTERM or SIGHUP during reassign-partitions --execute --wait says what is left "
        "(the move goes on, the throttles stay, --verify removes them, --cancel stops it); Ctrl-C while "
        "`sandbox up --detach` waits stops the half-started process and says so.",
        tests=(
            f"{R}test_interruptions.py",
            f"{T}test_up_directory.py::test_ctrl_c_while_up_detach_waits_stops_the_half_started_process",
        ),
    ),
    Guarantee(
        area="Interruptions",
        promise="Ctrl-C, SIGTERM or SIGHUP during `spark audit` (while the JVM starts or in a job) is one "
        "line saying the audit stopped and what --out may hold, exit 128+signal, and no JVM or Python worker "
        "left running.",
        tests=("tests/audit/test_interrupt.py",),
    ),
    Guarantee(
        area="Bad input",
        promise="A walk of every command from its help examples, with and without a cluster: each path "
        "option and the config file given as a FIFO nobody writes to, a symlink loop, a dangling link, "
        "/dev/zero, a directory or file of the wrong kind, a path under a file, deeply nested JSON or TOML "
        "or binary; stdout on /dev/full; the config and home on a full disk. No case is a bug line or an "
        "escaped exception, none takes past its deadline, none writes outside its own directory.",
        tests=(f"{R}test_fault_walk.py",),
    ),
    Guarantee(
        area="Sandbox",
        promise="`sandbox up` writes only into a new or empty directory or a sandbox's (a file, a foreign "
        "directory or a link that loops: one line, nothing written), one `up` at a time (a lock the "
        "serving process holds); a "
        "sandbox whose own files are a FIFO, a device or nested past any kcli writes is refused at once; "
        "a reopen keeps every node and its port; the control channel has one deadline and a size bound.",
        tests=(f"{T}test_up_directory.py", f"{T}test_control_channel.py"),
    ),
    Guarantee(
        area="Sandbox",
        promise="A damaged metadata log keeps what it can: a flipped bit in an early batch restarts the log "
        "from the newest snapshot (as Kafka's truncateToLatestSnapshot), a snapshot that does not read "
        "whole is set aside and the state rebuilt, else one error line.",
        tests=(f"{T}test_snapshot_recovery.py",),
    ),
    Guarantee(
        area="Bad input",
        promise="Logs a running node is writing are read without a lock, the half-written batch at the end "
        "of the last segment being the end of the data; side files that are FIFOs or devices are refused "
        "at once; pipes (`<(...)`, /dev/stdin) are read bounded in size and time; edge values (a client.id "
        "over 32767 bytes, lone surrogates, huge ids) are usage errors.",
        tests=(f"{R}test_live_logs.py", f"{R}test_pipes.py", f"{R}test_edge_values.py"),
    ),
)


@dataclass(frozen=True, slots=True, kw_only=True)
class Outcome:
    passed: int
    failed: int
    seconds: float


def _figures(report: Path) -> list[dict[str, object]]:
    """The `durability` properties the durability tests recorded (JSON objects), in run order."""
    import json

    out = []
    for case in ElementTree.parse(report).getroot().iter("testcase"):
        for prop in case.iter("property"):
            if prop.get("name") == "durability":
                out.append(json.loads(prop.get("value", "{}")))
    return out


def _junit_cases(report: Path) -> dict[str, tuple[bool, float]]:
    """'tests/x/test_y.py::test_z[param]' -> (passed, seconds) from a pytest JUnit XML report."""
    cases: dict[str, tuple[bool, float]] = {}
    for case in ElementTree.parse(report).getroot().iter("testcase"):
        path = case.get("classname", "").replace(".", "/") + ".py"
        key = f"{path}::{case.get('name')}"
        bad = any(child.tag in ("failure", "error", "skipped") for child in case)
        cases[key] = (not bad, float(case.get("time", "0")))
    return cases


def _covers(test: str, key: str) -> bool:
    """Whether the JUnit case `key` is (a parametrization of) `test`, or in `test` when it names a file."""
    if "::" not in test:
        return key.startswith(test + "::")
    return key == test or key.startswith(test + "[")


def outcomes(cases: dict[str, tuple[bool, float]]) -> dict[Guarantee, Outcome]:
    result = {}
    for guarantee in GUARANTEES:
        matched = [value for key, value in cases.items() for test in guarantee.tests if _covers(test, key)]
        missing = sum(1 for test in guarantee.tests if not any(_covers(test, k) for k in cases))
        result[guarantee] = Outcome(
            passed=sum(1 for ok, _ in matched if ok),
            failed=sum(1 for ok, _ in matched if not ok) + missing,
            seconds=sum(seconds for _, seconds in matched),
        )
    return result


def render(
    results: dict[Guarantee, Outcome],
    *,
    commit: str,
    when: str,
    total_s: float,
    figures: Sequence[dict[str, object]] = (),
) -> str:
    lines = [
        "# Guarantees under faults, bad input and hostile peers",
        "",
        "Each row is a promise kcli makes and the end-to-end tests that prove it (sandbox, tansu, the",
        "librdkafka mock cluster, hypothesis). **Last result** comes from a real run of exactly these tests,",
        "written by `python -m tests.reliability.guarantees` (re-run it to refresh this file).",
        "",
        f"Last run: {when}, commit `{commit}`, Python {platform.python_version()} on {platform.system()} "
        f"{platform.machine()}; {sum(o.passed for o in results.values())} test cases passed, "
        f"{sum(o.failed for o in results.values())} failed, {total_s:.0f} s wall time.",
        "",
        "| Area | Guarantee | Tests | Last result |",
        "|---|---|---|---|",
    ]
    for guarantee, outcome in results.items():
        tests = "<br>".join(f"`{test}`" for test in guarantee.tests)
        verdict = "PASS" if outcome.failed == 0 and outcome.passed else "FAIL"
        lines.append(
            f"| {guarantee.area} | {guarantee.promise} | {tests} | "
            f"{verdict} ({outcome.passed}/{outcome.passed + outcome.failed} cases, {outcome.seconds:.1f} s) |"
        )
    lines += ["", "## Durability figures (from the same run)", ""]
    if figures:
        keys = [k for k in figures[0] if k != "variant"]
        lines.append("| " + " | ".join(["Variant", *keys]) + " |")
        lines.append("|" + "---|" * (len(keys) + 1))
        for row in figures:
            lines.append("| " + " | ".join(str(row.get(k, "")) for k in ["variant", *keys]) + " |")
    else:
        lines.append("(the durability tests did not record figures in this run)")
    lines += [
        "",
        "How the sandbox keeps them (kcli/sandbox/emulator/metalog.py, kcli/sandbox/emulator/replica.py): every node keeps its own",
        "replica of `__cluster_metadata-0`; only the active controller appends, and replication rounds run one",
        "at a time: each running node fetches at its log end and last epoch, truncates where its log diverged",
        "from the leader's (Kafka's validateOffsetAndEpoch / truncateToEndOffset) and appends the leader's",
        "batches verbatim. Fsync policy: every replica written in a round is fsynced before its end offset",
        "counts, the leader's included; a write is acknowledged once the high watermark (held durably by a",
        "majority of the voters, past the leader epoch's first offset) passes it. Opening a replica cuts a torn",
        "or damaged tail (CRC, offsets, epochs checked) and rebuilds leader-epoch-checkpoint from the batches;",
        "`up` elects the most up-to-date voter in an epoch higher than any seen. `kill -9` cannot lose what the",
        "page cache holds; the fsyncs are what keep acknowledged writes through a power loss.",
    ]
    lines += [
        "",
        "## Longer fuzz run",
        "",
        "`python benchmarks/fuzz_long.py --seconds N` runs atheris (libFuzzer) on the response decoder, the",
        "metadata reader (with the image's and the dump's fast paths) and the emulator's request decoder, each",
        "in its own process with a 1 GiB RSS limit, seeded from `tests/fuzz/corpus/`; it prints executions,",
        "coverage and findings (tests/fuzz/test_fuzz_coverage_guided.py runs the same targets for seconds in",
        "CI). Its first finding (a forged compact array count that made kio's native decoder abort the",
        "interpreter) is kept in `tests/fuzz/corpus/regressions/`; every path from outside bytes to kio is",
        "guarded by `kcli/bounds/` (length walks generated by `scripts/decoders.py`).",
        "",
    ]
    return "\n".join(lines)


def main() -> int:
    files = sorted({test.split("::")[0] for g in GUARANTEES for test in g.tests})
    with tempfile.TemporaryDirectory() as scratch:
        report = Path(scratch) / "report.xml"
        started = datetime.datetime.now(datetime.UTC)
        done = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", f"--junitxml={report}", *files],
            cwd=ROOT,
            check=False,
        )
        total = (datetime.datetime.now(datetime.UTC) - started).total_seconds()
        results = outcomes(_junit_cases(report))
        figures = _figures(report)
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=False
    ).stdout.strip()
    DOC.write_text(
        render(
            results,
            commit=commit,
            when=started.strftime("%Y-%m-%d %H:%M UTC"),
            total_s=total,
            figures=figures,
        ),
        encoding="utf-8",
    )
    print(f"wrote {DOC} (pytest exit {done.returncode})")
    return done.returncode


if __name__ == "__main__":
    raise SystemExit(main())
