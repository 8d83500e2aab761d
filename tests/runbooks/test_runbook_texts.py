"""The runbooks as texts: their format, their checks, the index the help pages read, the Kafka equivalents.

No cluster here (test_runbooks.py replays them): what can be wrong with a runbook before it runs.
"""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.runbooks.books import BOOKS
from tests.runbooks.markdown import KAFKA, RunbookError, parse, runbooks
from tests.runbooks.test_runbooks import RUNBOOKS, steps_match

REPO = Path(__file__).resolve().parents[2]


def test_every_runbook_has_its_test_and_every_test_its_runbook() -> None:
    files = sorted(book.file for book in BOOKS)
    assert [r.name for r in runbooks(RUNBOOKS)] == files
    for book in BOOKS:
        steps_match(parse(RUNBOOKS / book.file), book)


def test_the_help_pages_index_of_runbooks_is_current() -> None:
    done = subprocess.run(
        [sys.executable, str(REPO / "scripts" / "runbook-index.py"), "--check"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr


def test_the_readmes_list_every_runbook() -> None:
    index = (RUNBOOKS / "README.md").read_text(encoding="utf-8")
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    for runbook in runbooks(RUNBOOKS):
        assert f"]({runbook.name})" in index, f"docs/runbooks/README.md does not list {runbook.name}"
        assert f"(docs/runbooks/{runbook.name})" in readme, f"README.md does not list {runbook.name}"


GOOD = """# A procedure

## Before you start

- `$B`: the brokers.

## Step 1: Look

```sh
kcli topics --bootstrap-server "$B" --list > topics.txt
COUNT=$(wc -l < topics.txt)
```

**Check:** the topics.

**Roll back:** nothing.

## Step 2: Count

```sh
echo "$COUNT topics"
```

**Check:** a number.

**Roll back:** nothing.
"""


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda t: t.replace("## Step 2: Count", "## Step 3: Count"), "step 3 should be step 2"),
        (lambda t: t.replace("**Check:** a number.", ""), "does not say what to check"),
        (lambda t: t.replace("**Roll back:** nothing.\n", "", 1), "does not say how to roll back"),
        (lambda t: t.replace('echo "$COUNT topics"', 'echo "$TOTAL topics"'), "$TOTAL is neither listed"),
        (lambda t: t.replace("## Before you start", "## Before"), "no '## Before you start' section"),
        (lambda t: t + "\n## Notes\n\n```sh\nkcli cluster-id\n```\n", "a shell block outside a step"),
        (lambda t: t.replace("```sh\necho", "```sh run\necho"), "unknown shell block ```sh run"),
        (lambda t: t.replace("## Step 2: Count", "## Step 2: Look"), "two steps are headed 'Look'"),
    ],
)
def test_a_runbook_that_breaks_the_format_is_refused_with_its_line(
    tmp_path: Path, change: object, message: str
) -> None:
    path = tmp_path / "procedure.md"
    path.write_text(GOOD)
    parsed = parse(path)
    assert [s.heading for s in parsed.steps] == ["Look", "Count"]
    assert parsed.steps[0].script.startswith("kcli topics")
    path.write_text(change(GOOD))  # type: ignore[operator]
    with pytest.raises(RunbookError, match=re.escape(message)):
        parse(path)


# ---------------------------------------------------------------------------------------- Kafka

# Kafka's tools with subcommands (argparse4j): their options are the tool's and the subcommand's.
SUBCOMMAND_TOOLS = {"kafka-cluster.sh", "kafka-features.sh", "kafka-metadata-quorum.sh", "kafka-storage.sh"}


def kafka_commands(text: str) -> list[tuple[str, list[str]]]:
    """(program, its words) of each kafka-*.sh in a ```sh kafka block (continuations joined, $(...) too)."""
    out: list[tuple[str, list[str]]] = []
    for line in text.replace("\\\n", " ").splitlines():
        code = line.split("#", 1)[0] if not line.lstrip().startswith("#") else ""
        words = shlex.split(re.sub(r"[$]\(|[()|;]|&&", " ", code).replace('"', " ").replace("'", " "))
        program: str | None = None
        for word in words:
            if re.fullmatch(r"kafka-[a-z-]+\.sh", word):
                program = word
                out.append((program, []))
            elif program is not None:
                out[-1][1].append(word)
    return out


def _options_of(home: Path, program: str, subcommand: str | None) -> set[str]:
    """Every --option the real tool's --help lists (its subcommand's too)."""
    texts = []
    for argv in ([program, "--help"], [program, subcommand, "--help"] if subcommand else None):
        if argv is None:
            continue
        done = subprocess.run(
            ["bash", str(home / "bin" / argv[0]), *argv[1:]],
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        texts.append(done.stdout + done.stderr)
    return set(re.findall(r"--[a-z][a-z0-9-]*", "\n".join(texts)))


@pytest.mark.realkafka
@pytest.mark.slow
def test_the_kafka_equivalents_use_real_tools_and_options() -> None:
    """Each ```sh kafka block's programs are in Kafka 4.4.0's bin/ and take the options it gives them."""
    from tests.fixtures_kafka import NEWEST, kafka_home

    home = kafka_home(NEWEST)
    uses: dict[tuple[str, str | None], dict[str, set[str]]] = {}
    for runbook in runbooks(RUNBOOKS):
        for step in runbook.steps:
            for block in step.blocks:
                if block.kind != KAFKA:
                    continue
                for program, words in kafka_commands(block.text):
                    where = f"{runbook.name}:{block.line}"
                    assert (home / "bin" / program).exists(), f"{where}: Kafka has no bin/{program}"
                    subcommand = (
                        next((w for w in words if re.fullmatch(r"[a-z][a-z-]*", w)), None)
                        if program in SUBCOMMAND_TOOLS
                        else None
                    )
                    options = {w.split("=", 1)[0] for w in words if w.startswith("--")}
                    uses.setdefault((program, subcommand), {}).setdefault(where, set()).update(options)
    assert uses, "no ```sh kafka block found"
    with ThreadPoolExecutor(max_workers=4) as pool:
        known = dict(zip(uses, pool.map(lambda key: _options_of(home, *key), uses), strict=True))
    unknown = [
        f"{where}: {program}{' ' + sub if sub else ''} has no {option}"
        for (program, sub), places in uses.items()
        for where, options in places.items()
        for option in sorted(options - known[(program, sub)])
        if known[(program, sub)]  # a tool whose help lists no option (kafka-server-start.sh) takes none
    ]
    assert not unknown, "\n".join(unknown)


def test_help_and_man_pages_name_the_runbooks_that_use_a_command() -> None:
    from kcli.cli.docgen import man_pages
    from tests.conftest import invoke

    helped = invoke("reassign-partitions", "--help")
    assert helped.code == 0
    text = " ".join(helped.stdout.split())
    assert "Runbooks" in text
    assert "docs/runbooks/add-brokers.md Add a broker and move a share of the partitions onto it" in text
    assert "docs/runbooks/replace-controller.md" not in text
    quorum = " ".join(invoke("metadata-quorum", "remove-controller", "--help").stdout.split())
    assert "docs/runbooks/replace-controller.md Replace a controller of a dynamic quorum" in quorum
    page = man_pages()["kcli-sandbox-add-node.1"]
    assert ".SH RUNBOOKS" in page and ".B docs/runbooks/add\\-brokers.md" in page  # roff escapes "-"
    root = man_pages()["kcli.1"]
    assert all(f"docs/runbooks/{r.name}".replace("-", "\\-") in root for r in runbooks(RUNBOOKS))
