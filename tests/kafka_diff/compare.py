"""How one command line's two runs are compared: the aspects that can differ, and Kafka's key sentence.

Aspects (a declared difference names the ones it covers):
- `exit`: success against failure (kcli's exit 2 for usage errors is a failure like Kafka's 1).
- `stdout`: the normalized stdout, line for line.
- `order`: the same lines in another order (and `k=v` lists within ` are ` lines); declared where
  kcli sorts what Kafka prints in Java HashMap order. Declaring it replaces `stdout`.
- `message`: Kafka's key sentence (its error, without usage text, stack trace or log lines) is not in
  kcli's stderr.
- `state`: the cluster state read back after each run differs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tests.kafka_diff import normalize

ASPECTS = ("exit", "stdout", "order", "message", "state")
KEY_SENTENCE_RULE = (
    "Kafka's key sentence is the first line of its error (stderr; stdout for kafka-acls and "
    "kafka-reassign-partitions) that is not a log line, usage text or stack frame, without the wrappers "
    "around it (`Error while executing ... command`, `Error: `, `Command line error: `/`. Type --help "
    "for help.`, Scala's `requirement failed: `, `Caused by: ` and exception class names), with "
    "argparse4j's wrapped `error:` lines joined; kcli's stderr must contain it, whitespace collapsed"
)
# Kafka tools that print their errors on stdout (kcli keeps stdout for data: its errors go to stderr).
ERRORS_ON_STDOUT = frozenset({"acls", "reassign-partitions", "consumer-groups", "share-groups", "streams-groups"})
# Of those, the ones that print a failed operation's `Error: ...` block on stdout and exit 0
# (ConsumerGroupCommand.printError): the block is their error report, whatever the exit status.
ERROR_BLOCKS_EXIT_0 = frozenset({"consumer-groups", "share-groups", "streams-groups"})
_LOG_LINE = re.compile(r"^\[\d{4}-\d\d-\d\d [\d:,]+\] (?:TRACE|DEBUG|INFO|WARN|ERROR|FATAL) ")
_EXCEPTION_PREFIX = re.compile(r"^(?:(?:[\w$]+\.)*[\w$]*(?:Exception|Error|Failure)(?::\s*|$))+")
_USAGE_START = re.compile(r"^(?:usage: |Option\s+Description|This tool helps|Usage: )")


@dataclass(frozen=True, slots=True)
class Outcome:
    """One tool's run of one command line."""

    code: int
    stdout: str
    stderr: str

    @property
    def ok(self) -> bool:
        return self.code == 0


def key_sentence(tool: str, run: Outcome) -> str | None:
    """The sentence that says why Kafka's tool failed; None when it succeeded or said nothing."""
    if tool in ERROR_BLOCKS_EXIT_0 and _error_start(run.stdout) is not None:
        return _first_sentence(tool, _error_part(run.stdout))
    if run.ok:
        return None
    text = run.stderr
    if tool in ERRORS_ON_STDOUT and run.stdout.strip():
        text = _error_part(run.stdout) + "\n" + text
    return _first_sentence(tool, text)


def _error_start(stdout: str) -> int | None:
    """The index of the line where Kafka's error report starts in its stdout (acls, reassign-partitions)."""
    for index, line in enumerate(stdout.splitlines()):
        if line.startswith(("Error while executing ACL command: ", "Error: ")) or _EXCEPTION_PREFIX.match(
            line
        ):
            return index
    return None


def _error_part(stdout: str) -> str:
    start = _error_start(stdout)
    return stdout if start is None else "\n".join(stdout.splitlines()[start:])


def _first_sentence(tool: str, text: str) -> str | None:
    lines = [line for line in text.splitlines() if not _LOG_LINE.match(line)]
    argparse_error = _argparse_error(tool, lines)
    if argparse_error is not None:
        return argparse_error
    for line in lines:
        stripped = line.strip()
        if _USAGE_START.match(stripped):
            break  # the usage text follows the error, when there is one
        if not stripped or stripped.startswith("at "):
            continue
        if stripped.startswith("WARN: ") and tool in ERROR_BLOCKS_EXIT_0:
            continue  # the no-execute warning of a reset, printed before any error
        for prefix in (
            'Exception in thread "main" ',
            "Error while executing ACL command: ",
            "Error: ",
            "Error occurred: ",
            "Command line error: ",
            "Caused by: ",
            "Executing consumer group command failed due to ",
            "Executing share group command failed due to ",
            "Executing streams group command failed due to ",
        ):
            stripped = stripped.removeprefix(prefix)
        # argparse4j's wrapper in kafka-features, and Scala's require() in the 4.0 kafka-configs
        stripped = stripped.removesuffix(". Type --help for help.").removeprefix("requirement failed: ")
        if stripped.startswith("Error while executing config command with args"):
            continue
        stripped = _EXCEPTION_PREFIX.sub("", stripped).strip()
        if stripped:
            return stripped
    return None


def _argparse_error(tool: str, lines: list[str]) -> str | None:
    """argparse4j's `kafka-<tool>: error: ...`, which it wraps and justifies over several lines."""
    for index, line in enumerate(lines):
        found = re.match(r"^(?:kafka-[\w-]+|[\w-]+):\s+error:\s+(.*)$", line)
        if found:
            parts = [found.group(1), *(rest.strip() for rest in lines[index + 1 :] if rest.strip())]
            joined = ""
            for part in parts:
                glue = "" if joined.endswith("-") and not joined.endswith(" -") else " "
                joined = f"{joined}{glue}{part}" if joined else part
            return normalize.words(joined)
    return None


def differing_aspects(
    tool: str,
    kafka: Outcome,
    kcli: Outcome,
    state_kafka: str | None,
    state_kcli: str | None,
    *,
    help_requested: bool = False,
) -> dict[str, str]:
    """Each aspect in which the two runs differ, with a short account of how (help has no key sentence)."""
    found: dict[str, str] = {}
    if kafka.ok != kcli.ok:
        found["exit"] = f"Kafka exit {kafka.code}, kcli exit {kcli.code}"
    kafka_out = normalize.stdout(tool, _data_part(tool, kafka))
    kcli_out = normalize.stdout(tool, kcli.stdout)
    if kafka_out != kcli_out:
        if normalize.canonical_order(kafka_out) == normalize.canonical_order(kcli_out):
            found["order"] = "the same lines in another order"
        else:
            found["stdout"] = _first_difference(kafka_out, kcli_out)
    sentence = None if help_requested else key_sentence(tool, kafka)
    if sentence is not None and normalize.sentence(sentence) not in normalize.sentence(kcli.stderr):
        found["message"] = f"Kafka: {sentence!r}; kcli: {kcli.stderr.strip()!r}"
    if state_kafka != state_kcli:
        found["state"] = _first_difference(state_kafka or "", state_kcli or "")
    return found


def _data_part(tool: str, run: Outcome) -> str:
    """Kafka's stdout without its error report, for the tools that print errors on stdout."""
    if tool in ERROR_BLOCKS_EXIT_0:
        return _without_error_blocks(run.stdout)
    if run.ok or tool not in ERRORS_ON_STDOUT:
        return run.stdout
    start = _error_start(run.stdout)
    if start is None:
        return run.stdout
    return "".join(run.stdout.splitlines(keepends=True)[:start])


def _without_error_blocks(stdout: str) -> str:
    """The stdout of a group tool without its `Error: ...` blocks: the blank line before each (printError's
    `\n`), the line, and the lines that follow it up to the next blank one (`* Group ...`, stack traces)."""
    lines = stdout.splitlines(keepends=True)
    out: list[str] = []
    index = 0
    while index < len(lines):
        line = lines[index]
        if line.startswith("Error: "):
            if out and not out[-1].strip():
                out.pop()
            index += 1
            while index < len(lines) and lines[index].strip():
                index += 1
            continue
        out.append(line)
        index += 1
    return "".join(out)


def _first_difference(expected: str, actual: str) -> str:
    left, right = expected.splitlines(), actual.splitlines()
    for index, (a, b) in enumerate(zip(left, right, strict=False)):
        if a != b:
            return f"line {index + 1}: Kafka {a!r}, kcli {b!r}"
    if len(left) != len(right):
        longer, who = (left, "Kafka") if len(left) > len(right) else (right, "kcli")
        return (
            f"only {who} prints line {min(len(left), len(right)) + 1}: {longer[min(len(left), len(right))]!r}"
        )
    return "trailing whitespace or newline"
