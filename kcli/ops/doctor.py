"""`kcli cluster doctor`: health checks as pure functions over facts collected from a cluster.

The collector (kcli.workflows.doctor.collect_facts) dials the bootstrap list and every advertised
endpoint of every broker and controller and records what each said; the checks here turn those facts
into findings with a severity. Nothing here touches the network, so every check is unit-tested.

The checks target the mistakes no Kafka tool reports: an advertised endpoint that answers for another
node or another cluster (KIP-1242), nodes that disagree on the active controller, a quorum without
leader or with voters that stopped fetching, fenced brokers, and a metadata.version left behind.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from kcli.kafka import Severity, host_port
from kcli.ops.doctor_finding import Finding
from kcli.ops.doctor_transactions import TransactionFacts, findings
from kcli.ops.quorum import QuorumInfo, ReplicaState

# A voter whose log is this many offsets behind the leader, or that has not caught up for this
# long, is lagging (Kafka's controller.quorum.fetch.timeout.ms defaults to 2 s; we allow slack).
VOTER_LAG_OFFSETS = 1000
VOTER_STALE_MS = 30_000
# An endpoint whose connection and ApiVersions exchange take this long is reported as slow: a
# healthy listener answers in milliseconds, and a second is already a third of a typical client
# request.timeout.ms budget spent on the handshake alone.
SLOW_ENDPOINT_MS = 1000


@dataclass(frozen=True, slots=True, kw_only=True)
class Identity:
    """How an endpoint's node id was checked and what came out.

    method: "api_versions_v5" (KIP-1242 ClusterId+NodeId, checked by a broker in the handshake),
    "api_versions_v5_after_login" (the same, sent again after a SASL login, when a broker checks it),
    "describe_configs" (the node's own broker config resource: controllers, pre-v5 nodes), or "none"
    when the server offers neither. verified is None when not checked.
    """

    method: str
    verified: bool | None
    actual_node_id: int | None = None
    detail: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class EndpointProbe:
    """What one dialled endpoint answered (role: bootstrap, broker or controller)."""

    role: str
    address: str
    node_id: int | None = None  # the id it is advertised as (None for bootstrap entries)
    ok: bool
    error: str | None = None
    error_hint: str | None = None  # what to do about `error`, when the failure suggests something
    auth_failed: bool = False  # it answered, but SASL or TLS authentication failed
    latency_ms: float | None = None
    cluster_id: str | None = None
    controller_id: int | None = None  # the active controller this node reports (-1/None unknown)
    identity: Identity | None = None
    finalized_metadata_version: int | None = None
    supported_metadata_version: tuple[int, int] | None = None
    features_epoch: int | None = None

    @property
    def subject(self) -> str:
        who = f"{self.role} {self.node_id}" if self.node_id is not None else self.role
        return f"{who} at {self.address}"


@dataclass(frozen=True, slots=True, kw_only=True)
class AdvertisedNode:
    """A broker or controller as the cluster advertises it."""

    role: str
    node_id: int
    host: str
    port: int
    rack: str | None = None
    fenced: bool = False

    @property
    def address(self) -> str:
        return host_port(self.host, self.port)


@dataclass(frozen=True, slots=True, kw_only=True)
class ClusterFacts:
    """Everything the collector learned; `not_checked` lists what the servers could not tell."""

    cluster_id: str | None
    bootstrap_kind: str  # "brokers" | "controllers"
    bootstrap: tuple[EndpointProbe, ...]
    nodes: tuple[AdvertisedNode, ...] = ()
    probes: tuple[EndpointProbe, ...] = ()
    quorum: QuorumInfo | None = None
    controller_id: int | None = None
    now_ms: int
    not_checked: tuple[str, ...] = ()
    metadata_version_names: dict[int, str] = field(default_factory=dict)
    transactions: TransactionFacts | None = None  # the open-transaction scan (brokers only)


@dataclass(frozen=True, slots=True, kw_only=True)
class DoctorReport:
    cluster_id: str | None
    findings: tuple[Finding, ...]
    checked: tuple[str, ...]
    not_checked: tuple[str, ...]
    endpoints: tuple[EndpointProbe, ...]
    fail_on: Severity

    @property
    def worst(self) -> Severity | None:
        return max((f.severity for f in self.findings), default=None)

    @property
    def failed(self) -> bool:
        return any(f.severity >= self.fail_on for f in self.findings)


Check = Callable[[ClusterFacts], Iterable[Finding]]


# ------------------------------------------------------------------------------------------- checks


def _answers_for_another_cluster(probe: EndpointProbe, facts: ClusterFacts) -> bool:
    """The probe was answered with a cluster id that is not the cluster's (both known)."""
    return probe.ok and bool(facts.cluster_id and probe.cluster_id) and probe.cluster_id != facts.cluster_id


def _not_answering(
    probe: EndpointProbe,
    *,
    check: str,
    what: str,
    severities: tuple[Severity, Severity],
    unreachable_hint: str,
) -> Iterable[Finding]:
    """A finding when `probe` failed authentication or did not answer (severities in that order)."""
    if probe.auth_failed:
        yield Finding(
            check=f"{check}-authentication-failed",
            severity=severities[0],
            subject=probe.subject,
            message=f"{what} answers, but authentication failed: {probe.error}",
            hint=probe.error_hint or "check the SASL or TLS settings of the client",
        )
    elif not probe.ok:
        yield Finding(
            check=f"{check}-unreachable",
            severity=severities[1],
            subject=probe.subject,
            message=f"{what} does not answer: {probe.error}",
            hint=probe.error_hint or unreachable_hint,
        )


def check_bootstrap(facts: ClusterFacts) -> Iterable[Finding]:
    """Every bootstrap address should answer; none answering is fatal for every tool."""
    answered = [p for p in facts.bootstrap if p.ok]
    for probe in facts.bootstrap:
        yield from _not_answering(
            probe,
            check="bootstrap",
            what="bootstrap address",
            severities=(Severity.high, Severity.medium)
            if answered
            else (Severity.critical, Severity.critical),
            unreachable_hint="remove it from bootstrap lists or bring the node back",
        )
    for probe in answered:
        if _answers_for_another_cluster(probe, facts):
            yield Finding(
                check="bootstrap-cluster-mismatch",
                severity=Severity.critical,
                subject=probe.subject,
                message=f"bootstrap address belongs to cluster {probe.cluster_id}, not {facts.cluster_id}",
                hint="the bootstrap list mixes clusters; clients may join the wrong one",
            )


def check_endpoints_answer(facts: ClusterFacts) -> Iterable[Finding]:
    for probe in facts.probes:
        yield from _not_answering(
            probe,
            check="endpoint",
            what="advertised endpoint",
            severities=(Severity.high, Severity.high),
            unreachable_hint="check the node is running and that its advertised listener is reachable from here",
        )


def check_endpoints_slow(facts: ClusterFacts) -> Iterable[Finding]:
    """An advertised endpoint that takes SLOW_ENDPOINT_MS or more to answer its first request."""
    for probe in facts.probes:
        if probe.ok and probe.latency_ms is not None and probe.latency_ms >= SLOW_ENDPOINT_MS:
            yield Finding(
                check="endpoint-slow",
                severity=Severity.low,
                subject=probe.subject,
                message=f"answered in {probe.latency_ms:.0f} ms (slower than {SLOW_ENDPOINT_MS} ms)",
                hint="an overloaded node or a slow network path; clients with short timeouts will fail here",
            )


def check_cluster_ids(facts: ClusterFacts) -> Iterable[Finding]:
    for probe in facts.probes:
        if _answers_for_another_cluster(probe, facts):
            yield Finding(
                check="cluster-id-mismatch",
                severity=Severity.critical,
                subject=probe.subject,
                message=f"answers for cluster {probe.cluster_id}, expected {facts.cluster_id}",
                hint="an advertised listener points at a node of another cluster, see KIP-1242",
            )


def check_identity(facts: ClusterFacts) -> Iterable[Finding]:
    for probe in facts.probes:
        ident = probe.identity
        if not probe.ok or ident is None or ident.verified is not False:
            continue
        actual = f" node {ident.actual_node_id}" if ident.actual_node_id is not None else " another node"
        detail = f" ({ident.detail})" if ident.detail else ""
        yield Finding(
            check="node-id-mismatch",
            severity=Severity.critical,
            subject=probe.subject,
            message=f"endpoint advertised for node {probe.node_id} is served by{actual}{detail}",
            hint="fix advertised.listeners / the load balancer mapping; clients are being misrouted, see KIP-1242",
        )


def check_shared_endpoints(facts: ClusterFacts) -> Iterable[Finding]:
    """Two nodes of one role advertising one host:port: only one of them can listen there.

    Caught whatever the nodes answer: a broker that does not check ApiVersions v5's NodeId (a
    SASL listener before the login, Kafka before 4.2) still shows up here. node-id-mismatch then
    names the one that is served by another node, where the node at the address says who it is.
    """
    by_address: dict[tuple[str, str], list[int]] = {}
    for node in facts.nodes:
        by_address.setdefault((node.role, node.address), []).append(node.node_id)
    for (role, address), ids in sorted(by_address.items()):
        if len(ids) < 2:
            continue
        yield Finding(
            check="endpoint-shared",
            severity=Severity.high,
            subject=f"{role}s {', '.join(map(str, sorted(ids)))}",
            message=f"all advertise {address}: clients asking for one of them reach another",
            hint="fix advertised.listeners of the node that does not listen there (node-id-mismatch names it)",
        )


def check_controller_agreement(facts: ClusterFacts) -> Iterable[Finding]:
    """Controllers must agree on the active controller, and it must be the quorum leader.

    Only controllers are asked: a KRaft broker reports a random live broker as "controller" (KIP-590).
    """
    askable = [p for p in facts.probes if p.role == "controller"]
    if facts.bootstrap_kind == "controllers":
        askable.extend(facts.bootstrap)
    known = {
        p.subject: p.controller_id
        for p in askable
        if p.ok and p.controller_id is not None and p.controller_id >= 0
    }
    if not known:
        return
    counts = Counter(known.values())
    majority, _ = counts.most_common(1)[0]
    if len(counts) > 1:
        outliers = sorted(f"{s} says {c}" for s, c in known.items() if c != majority)
        yield Finding(
            check="controller-disagreement",
            severity=Severity.medium,
            subject="cluster",
            message=f"controllers disagree on the active controller (most say {majority}; "
            + "; ".join(outliers)
            + ")",
            hint="normal for a moment after an election; persistent disagreement means a partitioned controller",
        )
    if facts.quorum is not None and facts.quorum.leader_id >= 0 and majority != facts.quorum.leader_id:
        yield Finding(
            check="controller-disagreement",
            severity=Severity.medium,
            subject="cluster",
            message=f"controllers report {majority} as active, but the quorum leader is {facts.quorum.leader_id}",
        )


def _stale_ms(voter: ReplicaState, now_ms: int) -> int | None:
    caught_up = voter.last_caught_up_timestamp
    return now_ms - caught_up if caught_up is not None and caught_up > 0 else None


def _lagging(voter: ReplicaState, leader: ReplicaState, now_ms: int) -> bool:
    """Never fetched, far behind, or behind and not caught up for a long time."""
    if voter.last_fetch_timestamp is None or voter.last_fetch_timestamp <= 0:
        return True
    lag = leader.log_end_offset - voter.log_end_offset
    stale = _stale_ms(voter, now_ms)
    return lag >= VOTER_LAG_OFFSETS or (lag > 0 and stale is not None and stale > VOTER_STALE_MS)


def check_quorum(facts: ClusterFacts) -> Iterable[Finding]:
    quorum = facts.quorum
    if quorum is None:
        return
    leader = quorum.leader
    if quorum.leader_id < 0 or leader is None:
        yield Finding(
            check="quorum-no-leader",
            severity=Severity.critical,
            subject="metadata quorum",
            message=f"no leader (LeaderId {quorum.leader_id}, epoch {quorum.leader_epoch})",
            hint="a majority of controllers must be running and able to reach each other",
        )
        return
    unhealthy = 0
    for voter in quorum.voters:
        if voter is leader:
            continue
        lag = leader.log_end_offset - voter.log_end_offset
        stale_ms = _stale_ms(voter, facts.now_ms)
        stopped = voter.last_fetch_timestamp is None or voter.last_fetch_timestamp <= 0
        if _lagging(voter, leader, facts.now_ms):
            unhealthy += 1
            reason = (
                "has never fetched from the leader"
                if stopped
                else f"is {lag} offsets behind"
                + (f", last caught up {stale_ms} ms ago" if stale_ms is not None else "")
            )
            yield Finding(
                check="quorum-voter-lagging",
                severity=Severity.high,
                subject=f"controller {voter.replica_id}",
                message=f"voter {reason} (leader {leader.replica_id} at offset {leader.log_end_offset})",
                hint="check the controller process and its network path to the leader",
            )
    # A voter whose advertised endpoint did not answer is not counted as healthy either.
    down = {p.node_id for p in facts.probes if p.role == "controller" and not p.ok}
    unhealthy += sum(
        1
        for v in quorum.voters
        if v.replica_id in down and v is not leader and not _lagging(v, leader, facts.now_ms)
    )
    healthy = len(quorum.voters) - unhealthy
    majority = len(quorum.voters) // 2 + 1
    if healthy < majority:
        yield Finding(
            check="quorum-majority-lost",
            severity=Severity.critical,
            subject="metadata quorum",
            message=f"only {healthy} of {len(quorum.voters)} voters are caught up; a majority is {majority}",
        )
    elif healthy == majority and len(quorum.voters) > 1:
        yield Finding(
            check="quorum-no-spare",
            severity=Severity.medium,
            subject="metadata quorum",
            message=f"{healthy} of {len(quorum.voters)} voters caught up: one more failure stops metadata writes",
        )
    if len(quorum.voters) == 1:
        yield Finding(
            check="quorum-single-voter",
            severity=Severity.low,
            subject="metadata quorum",
            message="one voter only: no controller failure can be tolerated",
        )


def check_fenced(facts: ClusterFacts) -> Iterable[Finding]:
    for node in facts.nodes:
        if node.role == "broker" and node.fenced:
            yield Finding(
                check="broker-fenced",
                severity=Severity.high,
                subject=f"broker {node.node_id} at {node.address}",
                message="broker is registered but fenced (not serving)",
                hint="it is catching up, shutting down or cannot heartbeat to the controller; "
                "`kcli cluster unregister --id N` if it is gone for good",
            )


def check_metadata_version(facts: ClusterFacts) -> Iterable[Finding]:
    answered = [p for p in (*facts.bootstrap, *facts.probes) if p.ok]
    finalized = {p.finalized_metadata_version for p in answered if p.finalized_metadata_version}
    names = facts.metadata_version_names

    def name(level: int) -> str:
        return f"{level} ({names[level]})" if level in names else str(level)

    if not finalized:
        if any(p.supported_metadata_version for p in answered):
            yield Finding(
                check="metadata-version-missing",
                severity=Severity.medium,
                subject="cluster",
                message="no finalized metadata.version reported",
            )
        return
    if len(finalized) > 1:
        yield Finding(
            check="metadata-version-disagreement",
            severity=Severity.medium,
            subject="cluster",
            message="nodes report different finalized metadata.version: "
            + ", ".join(name(v) for v in sorted(finalized)),
            hint="some nodes have not caught up with the metadata log",
        )
    level = max(finalized)
    ranges = [p.supported_metadata_version for p in answered if p.supported_metadata_version]
    if ranges:
        ceiling = min(high for _, high in ranges)
        floor = max(low for low, _ in ranges)
        if level > ceiling or level < floor:
            yield Finding(
                check="metadata-version-unsupported",
                severity=Severity.critical,
                subject="cluster",
                message=f"finalized metadata.version {name(level)} is outside what some nodes support "
                f"({name(floor)}..{name(ceiling)})",
            )
        elif level < ceiling:
            yield Finding(
                check="metadata-version-behind",
                severity=Severity.info,
                subject="cluster",
                message=f"finalized metadata.version is {name(level)}; every node supports up to {name(ceiling)}",
                hint="`kcli features --bootstrap-server ... upgrade --release-version ...` after a rolling upgrade",
            )
    if level not in names:
        yield Finding(
            check="metadata-version-unknown",
            severity=Severity.low,
            subject="cluster",
            message=f"finalized metadata.version level {level} is newer than this kcli knows",
        )


def check_not_checked(facts: ClusterFacts) -> Iterable[Finding]:
    for item in facts.not_checked:
        yield Finding(check="not-checked", severity=Severity.info, subject="doctor", message=item)
    unverified = [p for p in facts.probes if p.ok and p.identity is not None and p.identity.verified is None]
    if unverified:
        yield Finding(
            check="not-checked",
            severity=Severity.info,
            subject="doctor",
            message="node identity not verifiable (no ApiVersions v5 or broker DescribeConfigs) on "
            + ", ".join(p.subject for p in unverified),
        )


def check_transactions(facts: ClusterFacts) -> Iterable[Finding]:
    """Hanging transactions holding back a last stable offset (kcli.ops.doctor_transactions)."""
    return findings(facts.transactions)


CHECKS: tuple[tuple[str, Check], ...] = (
    ("bootstrap", check_bootstrap),
    ("endpoints", check_endpoints_answer),
    ("latency", check_endpoints_slow),
    ("cluster-id", check_cluster_ids),
    ("node-identity", check_identity),
    ("shared-endpoints", check_shared_endpoints),
    ("active-controller", check_controller_agreement),
    ("quorum", check_quorum),
    ("fenced-brokers", check_fenced),
    ("metadata-version", check_metadata_version),
    ("hanging-transactions", check_transactions),
    ("coverage", check_not_checked),
)


def diagnose(
    facts: ClusterFacts, *, fail_on: Severity = Severity.high, checks: Sequence[tuple[str, Check]] = CHECKS
) -> DoctorReport:
    """Run every check; findings are ordered worst first, then by check and subject."""
    findings = [finding for _, check in checks for finding in check(facts)]
    findings.sort(key=lambda f: (-int(f.severity), f.check, f.subject))
    return DoctorReport(
        cluster_id=facts.cluster_id,
        findings=tuple(findings),
        checked=tuple(name for name, _ in checks),
        not_checked=facts.not_checked,
        endpoints=(*facts.bootstrap, *facts.probes),
        fail_on=fail_on,
    )
