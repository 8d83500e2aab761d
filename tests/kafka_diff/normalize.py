"""Every normalization the differential suite applies, in one place, each with why the values must differ.

Both tools run against the same cluster one after the other, so most output must be identical byte
for byte. What is rewritten here changes on its own between two runs (time, offsets that grow while
the cluster idles) or is ordered by something neither tool controls (the broker that answers, Java
identity hash codes). Anything else that differs is a difference of kcli's: fixed, or declared in the
corpus (tests/kafka_diff/corpus.py) and listed in docs/parity.md.
"""

from __future__ import annotations

import re
from collections.abc import Callable

# (name, the tools it applies to, why, rewrite): applied to the stdout of both tools, in this order.
Rule = tuple[str, frozenset[str], str, Callable[[str], str]]


def _sub(pattern: str, replacement: str, flags: int = 0) -> Callable[[str], str]:
    compiled = re.compile(pattern, flags)
    return lambda text: compiled.sub(replacement, text)


def _sorted_acl_entries(text: str) -> str:
    """Sort the tab-indented ACL entries of each resource block, and the blocks among themselves."""
    pieces = text.split("\n\n")
    for index, piece in enumerate(pieces):
        lines = piece.split("\n")
        at = [i for i, line in enumerate(lines) if line.startswith(("\t", " \t"))]
        if not at:
            continue
        entries = sorted(lines[i].lstrip(" ") for i in at)
        if lines[at[0]].startswith(" "):  # Kafka's first entry follows "`: \n " (a joined list)
            entries[0] = " " + entries[0]
        for i, entry in zip(at, entries, strict=True):
            lines[i] = entry
        pieces[index] = "\n".join(lines)
    filled = [i for i, piece in enumerate(pieces) if piece.strip()]
    for i, piece in zip(filled, sorted((pieces[i] for i in filled), key=_acl_block_key), strict=True):
        pieces[i] = piece
    return "\n\n".join(pieces)


def _acl_block_key(block: str) -> tuple[int, str]:
    first = block.split("\n", 1)[0]
    return (0 if first.startswith("ACLs for principal") else 1, first)


def _sorted_scram_mechanisms(text: str) -> str:
    def mechanisms(found: re.Match[str]) -> str:
        return found.group(1) + ", ".join(sorted(found.group(2).split(", ")))

    return re.sub(
        r"^(SCRAM credential configs for user-principal '[^']*' are )(.*)$", mechanisms, text, flags=re.M
    )


def _group_blocks_by_bucket(text: str) -> str:
    """kafka-configs --describe --entity-type groups: its `Dynamic configs for group G are:` blocks
    follow a Java HashMap of the group ids, whose ids of one bucket come in the order the brokers
    answered: each run of blocks of one bucket is sorted by id, the order of the buckets is kept."""
    import itertools

    from kcli.ops.java_order import string_hash

    blocks = re.split(r"(?m)^(?=Dynamic configs for group )", text)
    head, groups = blocks[0], [b for b in blocks[1:] if b]
    names = [block.splitlines()[0].removeprefix("Dynamic configs for group ").removesuffix(" are:") for block in groups]
    capacity = 16
    while len(names) > capacity * 3 // 4:
        capacity *= 2

    def bucket(name: str) -> int:
        h = string_hash(name) & 0xFFFFFFFF
        return (h ^ (h >> 16)) & (capacity - 1)

    runs = itertools.groupby(zip(names, groups, strict=True), key=lambda pair: bucket(pair[0]))
    return head + "".join(block for _, run in runs for _, block in sorted(run))


def _sorted_listing(text: str) -> str:
    """A group listing (plain ids, or a GROUP TYPE/STATE/PROTOCOL table) with its rows sorted."""
    lines = text.splitlines()
    if not lines or not lines[-1:]:
        return text
    header = re.match(r"^GROUP\s+(TYPE|STATE|PROTOCOL)\b", lines[0]) is not None
    plain = all(line and not any(c.isspace() for c in line) for line in lines)
    if not header and not plain:
        return text
    head, rows = (lines[:1], lines[1:]) if header else ([], lines)
    return "\n".join([*head, *sorted(rows)]) + ("\n" if text.endswith("\n") else "")


GROUP_LISTINGS = frozenset({"consumer-groups", "groups", "share-groups", "streams-groups"})


def _table_cells(header: str, rewrite: Callable[[int, str], str]) -> Callable[[str], str]:
    """Rewrite the cells of kafka-transactions' tab-separated tables whose header row has `header`:
    rewrite(column, cell) for each cell of the rows below it (the padding kept)."""

    def apply(text: str) -> str:
        lines = text.split("\n")
        inside = False
        for index, line in enumerate(lines):
            cells = line.split("\t")
            if header in cells or header in (c.strip() for c in cells):
                inside = True
                continue
            if inside and len(cells) > 1:
                lines[index] = "\t".join(
                    rewrite(column, cell.rstrip()).ljust(len(cell)) for column, cell in enumerate(cells)
                )
            else:
                inside = False
        return "\n".join(lines)

    return apply


def _transaction_cells(column: int, cell: str) -> str:
    if column == 7:  # TransactionDurationMs: now minus the start time
        return "<t>" if cell != "None" else cell
    if column == 8:  # TopicPartitions: a Java HashSet
        return ",".join(sorted(cell.split(","))) if cell else cell
    return cell


_TOKEN_ROW = re.compile(r"^[A-Za-z0-9_-]{22} [A-Za-z0-9+/=]+ ", re.M)
_TOKEN_DATE = re.compile(r"\b\d{4}-\d\d-\d\dT\d\d:\d\d\b")
_GENERATED_NAME = re.compile(r"^(Altered client metrics config for )?[A-Za-z0-9_-]{22}(\.?)$", re.M)


def _tokens(text: str) -> str:
    text = re.sub(r"(tokenId : )\S+", r"\1<id>", text)
    text = _TOKEN_ROW.sub("<id> <hmac> ", text)
    return _TOKEN_DATE.sub("<date>", text)


RULES: list[Rule] = [
    (
        "transaction duration and partitions",
        frozenset({"transactions"}),
        "TransactionDurationMs is the tool's clock minus the transaction's start; a transaction's partitions "
        "come as a Java HashSet (kcli sorts them)",
        _table_cells("TransactionDurationMs", _transaction_cells),
    ),
    (
        "hanging transaction age",
        frozenset({"transactions"}),
        "Duration(min) of find-hanging is the tool's clock minus the producer's last write, in whole minutes",
        _table_cells("Duration(min)", lambda column, cell: "<t>" if column == 7 else cell),
    ),
    (
        "delegation token ids, HMACs and times",
        frozenset({"delegation-tokens"}),
        "each --create makes a token of its own (id, HMAC, issue, expiry and max dates), and a renewal moves "
        "the expiry date with the clock",
        _tokens,
    ),
    (
        "generated subscription names",
        frozenset({"client-metrics"}),
        "--generate-name makes a random Uuid each run (--list shows it)",
        lambda text: _GENERATED_NAME.sub(r"\1<uuid>\2", text),
    ),
    (
        "quorum offsets and lag",
        frozenset({"metadata-quorum"}),
        "the metadata log grows while the cluster idles (the leader appends a record every 500 ms), so the "
        "high watermark, log end offsets, lag and fetch times move between the two runs",
        _sub(
            r"^(HighWatermark|MaxFollowerLag|MaxFollowerLagTimeMs):(\s+)-?\d+$",
            r"\1:\2<n>",
            re.M,
        ),
    ),
    (
        "quorum replication rows",
        frozenset({"metadata-quorum"}),
        "LogEndOffset, Lag, LastFetchTimestamp and LastCaughtUpTimestamp of each replica change with time",
        _sub(
            r"^(\d+\s+\S+\s+)\d+(\s+)\d+(\s+)(?:\d+|\d+ ms ago)(\s+)(?:\d+|\d+ ms ago)",
            r"\1<n>\2<n>\3<t>\4<t>",
            re.M,
        ),
    ),
    (
        "finalized features epoch",
        frozenset({"features"}),
        "the epoch of the finalized features is the metadata offset the answering node has applied",
        _sub(r"Epoch: \d+$", "Epoch: <n>", re.M),
    ),
    (
        "ACL entry order",
        frozenset({"acls"}),
        "Kafka's tools group ACL entries in Java hash sets whose hash codes include enum identity hashes, "
        "so the order changes from one JVM to the next",
        _sorted_acl_entries,
    ),
    (
        "group listing order",
        GROUP_LISTINGS,
        "the brokers' group coordinators list their groups in the order of their own maps, and Kafka's Admin "
        "client joins the brokers' answers in a Java HashSet's order of the brokers; kcli sorts the groups",
        _sorted_listing,
    ),
    (
        "order of groups in one hash bucket",
        frozenset({"configs"}),
        "kafka-configs describes the groups in a Java HashMap's order of their ids; ids of one bucket come "
        "in the order the brokers answered ListGroups",
        _group_blocks_by_bucket,
    ),
    (
        "sizes of the coordinators' own partitions",
        frozenset({"log-dirs"}),
        "the group, share and transaction coordinators write __consumer_offsets, __share_group_state and "
        "__transaction_state on their own (commits, share-group state snapshots): their sizes may grow "
        "between the two runs",
        _sub(r'("partition":"__(?:consumer_offsets|share_group_state|transaction_state)-\d+","size":)\d+', r"\1<n>"),
    ),
    (
        "SCRAM mechanism order",
        frozenset({"configs"}),
        "each broker returns a user's mechanisms in the order of its own metadata image; the two tools may "
        "ask different brokers",
        _sorted_scram_mechanisms,
    ),
]


def stdout(tool: str, text: str) -> str:
    """The stdout of either tool's `tool` command with every rule for that tool applied."""
    for _, tools, _, rewrite in RULES:
        if tool in tools:
            text = rewrite(text)
    return text


STATE_RULE = (
    "a partition's Leader, Isr, Elr and LastKnownElr (kafka-topics --describe) move on their own after a "
    "reassignment; its replicas and the configs are what a command leaves behind; a topic made afresh "
    "(created by each tool, or deleted and made again by an undo) gets a new TopicId"
)


def state(tool: str, text: str) -> str:
    """A state probe's output (Kafka's own tools) compared across runs: stdout rules, plus leadership.

    Leader, ISR and ELR of a partition move on their own after a reassignment; the replicas and the
    configs are what a command leaves behind.
    """
    text = stdout(tool, text)
    text = re.sub(r"\tTopicId: [\w-]{22}", "\tTopicId: <id>", text)
    text = re.sub(r"\tLeader: -?\d+", "", text)
    text = re.sub(r"\t(Isr|Elr|LastKnownElr): [\d,]*", "", text)
    return text


def canonical_order(text: str) -> str:
    """Lines sorted, and the `k=v, k=v` lists after ` are ` sorted: for the documented `order` difference."""
    lines = []
    for line in text.splitlines():
        head, sep, tail = line.partition(" are ")
        if sep and ", " in tail:
            line = head + sep + ", ".join(sorted(tail.split(", ")))
        lines.append(line)
    return "\n".join(sorted(lines))


def words(text: str) -> str:
    """Whitespace collapsed: how a key sentence is looked for in the other tool's stderr."""
    return " ".join(text.split())


_OPTION_LIST = re.compile(r"\[[\w.-]+\](?:, \[[\w.-]+\])+")
_NAME_LIST = re.compile(r"((?:Valid (?:states|types) are|Option\S* \S+ takes the following options): )([\w.\[\]-]+(?:, [\w.\[\]-]+)+)")
SET_ORDER_RULE = (
    "Kafka's group tools print a Java Set.of of option names (`[group], [all-groups]`) or of states and "
    "types (`Valid states are: ...`), whose iteration order Java randomizes per JVM; both sentences are "
    "compared with those lists sorted"
)


def sentence(text: str) -> str:
    """`words`, and the lists Kafka prints in a Java set's random order sorted (SET_ORDER_RULE)."""
    text = _OPTION_LIST.sub(lambda m: ", ".join(sorted(m.group(0).split(", "))), words(text))
    return _NAME_LIST.sub(lambda m: m.group(1) + ", ".join(sorted(m.group(2).split(", "))), text)
