"""Every Kafka-written log in ../shared/fixtures/kraft replayed by kcli and by Kafka itself, compared.

Kafka's side is its own replay (MetadataBatchLoader and MetadataDelta of kafka-metadata 4.4.0) and its
shell's `tree /image` (kafka-shell 4.0.2), through MetadataReplayDriver.java: no broker runs, one JVM
for every input. kcli's side is `kcli metadata-shell ... tree /image`. Each log dir is read three ways
where it can be: its whole log (when its segments start at offset 0), its newest snapshot alone, and
its newest snapshot with the log after it (what `--directory` reads). The output must be the same
but for kafka_replay.NORMALIZATIONS. The deliberate negative case (a pre-release PartitionRecord v1)
must be refused by both.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import KRAFT_FIXTURES, invoke
from tests.metadata_vs_kafka import kafka_replay

pytestmark = [pytest.mark.realkafka]

NEGATIVE = KRAFT_FIXTURES / "apache-kafka-pr15553/core/data/kafka-1168504093769635972/__cluster_metadata-0"
COMMANDS = [["tree", "/image"]]


def _inputs(links: Path) -> list[tuple[str, list[Path], list[str]]]:
    """(name, files Kafka reads in order, kcli's arguments) of every way each fixture is read."""
    inputs = []
    for log_dir in sorted(KRAFT_FIXTURES.rglob("__cluster_metadata-0")):
        if log_dir == NEGATIVE:
            continue
        name = str(log_dir.parent.relative_to(KRAFT_FIXTURES))
        segments = sorted(log_dir.glob("[0-9]" * 20 + ".log"))
        snapshots = sorted(p for p in log_dir.glob("*.checkpoint") if not p.name.startswith("0" * 20 + "-"))
        if segments and segments[0].name == "0" * 20 + ".log":
            whole = links / str(len(inputs)) / log_dir.name  # the segments alone: no snapshot to start from
            whole.mkdir(parents=True)
            for segment in segments:
                (whole / segment.name).symlink_to(segment)
            inputs.append((f"{name} (whole log)", segments, ["--directory", str(whole.parent)]))
        if snapshots:
            inputs.append((f"{name} (snapshot)", snapshots[-1:], ["--snapshot", str(snapshots[-1])]))
            if segments:
                inputs.append(
                    (f"{name} (directory)", [snapshots[-1], *segments], ["--directory", str(log_dir.parent)])
                )
    return inputs


@pytest.fixture(scope="module")
def compared() -> Iterator[list[tuple[str, str, str]]]:
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        classes = kafka_replay.compile_driver(root / "classes")
        inputs = _inputs(root / "links")
        inputs.append(("negative", sorted(NEGATIVE.glob("*.log")), ["--directory", str(NEGATIVE.parent)]))
        kafkas = kafka_replay.kafka_outputs(
            classes, [files for _, files, _ in inputs], COMMANDS, root / "out"
        )
        rows = []
        for (name, _, args), kafka in zip(inputs, kafkas, strict=True):
            ours = invoke("metadata-shell", *args, *COMMANDS[0])
            rows.append(
                (
                    name,
                    kafka[0],
                    kafka_replay.kcli_text(ours.stdout)
                    if ours.code == 0
                    else f"exit {ours.code}: {ours.stderr}",
                )
            )
        yield rows


def test_every_fixture_replays_as_kafka_replays_it(compared: list[tuple[str, str, str]]) -> None:
    read = [(name, kafka, kcli) for name, kafka, kcli in compared if name != "negative"]
    assert len(read) >= 25, [name for name, _, _ in read]
    differences = [
        f"{name}\n  Kafka: {kafka[:400]!r}\n  kcli:  {kcli[:400]!r}"
        for name, kafka, kcli in read
        if kafka != kcli
    ]
    assert not differences, f"{len(differences)} of {len(read)} differ:\n" + "\n".join(differences)
    assert all("PartitionRegistration(" in kafka or "(snapshot)" in name or "topics:\n  byId:\n  byName:" in kafka
               for name, kafka, _ in read)  # fmt: skip


def test_the_negative_case_is_refused_by_both(compared: list[tuple[str, str, str]]) -> None:
    kafka, kcli = next((kafka, kcli) for name, kafka, kcli in compared if name == "negative")
    assert kafka.startswith("EXCEPTION ") or "FAULT " in kafka, kafka[:500]
    assert kcli.startswith("exit 1: ") and "offset 24" in kcli, kcli[:500]
