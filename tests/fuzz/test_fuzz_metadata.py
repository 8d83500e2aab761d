"""Damaged metadata log segments and snapshots: entries or a DecodeError naming file and offset, never more.

Seeds are files written by kcli's own metadata writer (tests/fuzz/corpus/metadata). Damage is applied
with and without fixing the batch CRCs afterwards, so that it also reaches record decoding.
"""

from __future__ import annotations

import time

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
    started = time.monotonic()
    try:
        entries = list(read_file(path, skip_corrupt=skip))
    except DecodeError as error:
        assert str(path) in error.line() or path.name in error.line()
    else:
        assert all(entry.offset >= 0 for entry in entries)
    assert time.monotonic() - started < 1.0
