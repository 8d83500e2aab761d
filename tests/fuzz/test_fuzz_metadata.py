"""Damaged metadata log segments and snapshots: entries or a DecodeError naming file and offset, never more.

Seeds are files written by kcli's own metadata writer (tests/fuzz/corpus/metadata). Damage is applied
with and without fixing the batch CRCs afterwards, so that it also reaches record decoding.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kcli.metadata.read_model import DecodeError
from kcli.metadata.reader import read_file
from tests.fuzz import seeds

CORPUS = sorted((seeds.CORPUS / "metadata").iterdir())


@st.composite
def damaged_files(draw: st.DrawFn) -> tuple[str, bytes]:
    path = draw(st.sampled_from(CORPUS))
    data = path.read_bytes()
    position = draw(st.integers(min_value=0, max_value=len(data)))
    kind = draw(st.sampled_from(["truncate", "int32", "overwrite", "flip", "garbage"]))
    if kind == "truncate":
        data = data[:position]
    elif kind == "int32":
        data = seeds.forge_int32(data, position, draw(st.sampled_from(seeds.FORGED_INT32)))
    elif kind == "overwrite":  # same size: record framing stays intact, the body lies
        patch = draw(st.sampled_from(seeds.FORGED_UVARINTS) | st.binary(min_size=1, max_size=8))
        data = data[:position] + patch + data[position + len(patch) :]
    elif kind == "flip" and data:
        index = min(position, len(data) - 1)
        data = data[:index] + bytes([data[index] ^ draw(st.integers(1, 255))]) + data[index + 1 :]
    else:
        data = data[:position] + draw(st.binary(max_size=64))
    if draw(st.booleans()):
        data = seeds.fix_crcs(data)
    return path.name, data


def test_corpus_reads_cleanly() -> None:
    names = {p.name for p in CORPUS}
    assert any(n.endswith(".log") for n in names) and any(n.endswith(".checkpoint") for n in names)
    for path in CORPUS:
        assert list(read_file(path)), path


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(damaged_files(), st.booleans())
def test_damaged_logs_read_or_raise_decode_error(
    tmp_path_factory: pytest.TempPathFactory, case: tuple[str, bytes], skip: bool
) -> None:
    name, data = case
    path = tmp_path_factory.mktemp("md") / name
    path.write_bytes(data)
    try:
        entries = list(read_file(path, skip_corrupt=skip))
    except DecodeError as error:
        assert str(path) in error.line() or path.name in error.line()
    else:
        assert all(entry.offset >= 0 for entry in entries)


def test_the_corpus_holds_every_record_type_and_codec() -> None:
    """The seeds reach every record class's decoder and every codec (tests/fuzz/seeds.py)."""
    from kcli.metadata.read_model import ReadStats
    from kcli.metadata.reader import FileReader
    from kcli.metadata.records import METADATA_RECORD_CLASSES

    seen = set()
    codecs = set()
    for path in CORPUS:
        reader = FileReader(path=path, stats=ReadStats())
        for batch in reader.batches():
            codecs.add(path.name.removeprefix("compressed-").removesuffix(".log"))
            reader.scan_batch(batch, _Keys(seen))
    assert set(METADATA_RECORD_CLASSES) <= seen
    assert set(seeds.CODECS) <= codecs


class _Keys:
    """A sink that notes each record's (api key, version)."""

    def __init__(self, seen: set[tuple[int, int]]) -> None:
        self.seen = seen
        self.handlers: dict[bytes, object] = {}
        self.runs: dict[bytes, object] = {}

    def begin(self, batch: object) -> None:
        pass

    def noops(self, batch: object) -> None:
        pass

    def entry(self, entry: object) -> None:
        if not entry.control:  # type: ignore[attr-defined]
            self.seen.add((entry.key, entry.version))  # type: ignore[attr-defined]


def test_a_client_quota_entity_type_given_twice_builds_an_image(tmp_path: Path) -> None:
    """Found by benchmarks/fuzz_long.py on its seeds: a ClientQuotaRecord naming one entity type
    twice, once with a null name, made the image build sort a str against None (TypeError, "a bug
    in kcli"). Kafka keeps a map of entity type to name: the last one given wins."""
    from kcli.metadata import records as r
    from kcli.metadata.image import build_image
    from kcli.metadata.writer import MetadataLogWriter

    rec: Any = r
    quota = rec.ClientQuotaRecord(
        entity=(rec.EntityData(entity_type="user", entity_name="alice"), rec.EntityData(entity_type="user", entity_name=None)),
        key="producer_byte_rate",
        value=1024.0,
        remove=False,
    )
    with MetadataLogWriter(tmp_path, node_id=1, cluster_id="WnLkTHhkQaiJbwP8FClPhw") as log:
        log.append([quota], epoch=1, timestamp_ms=1)
    image = build_image(tmp_path)
    assert image.client_quotas == {(("user", None),): {"producer_byte_rate": 1024.0}}
