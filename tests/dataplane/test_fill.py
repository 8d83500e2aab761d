"""`kcli sandbox up --topics N --records-per-partition M`: topics filled as a producer fills them."""

from __future__ import annotations

from pathlib import Path

import pytest

from kcli.sandbox.emulator.data.records import headers_in, records_of
from tests.conftest import invoke

pytestmark = pytest.mark.sandbox


def _batches(log: Path) -> bytes:
    return b"".join(p.read_bytes() for p in sorted(log.glob("*.log")))


def test_up_fills_the_topics_in_a_producers_batches_and_reopens_them(tmp_path: Path) -> None:
    from kcli.sandbox.emulator.handle import Sandbox

    options = {"controllers": 1, "brokers": 1, "topics": 2, "partitions": 2}
    with Sandbox(
        directory=tmp_path / "sb", records_per_partition=1500, compression="snappy", **options
    ) as sb:
        ends = sb.run(
            lambda c: [
                c.partition_logs.offsets(f"sandbox-topic-0000{t}", p).log_end_offset
                for t in (0, 1)
                for p in (0, 1)
            ]
        )
    assert ends == [1500] * 4
    data = _batches(tmp_path / "sb" / "1" / "sandbox-topic-00001-1")
    headers = headers_in(data)
    assert 5 <= len(headers) <= 20  # batches of many records, about batch.size before compression
    assert all(h.compression == 2 for h in headers)  # snappy, as the Java producer frames it
    records = [r for h in headers for r in records_of(data, h)]
    assert [r.offset for r in records] == list(range(1500))
    assert (
        records[7].key == b"key-7" and records[7].value is not None and records[7].value.startswith(b'{"id":')
    )
    stamps = [r.timestamp_ms for r in records]
    assert stamps == sorted(stamps) and len(set(stamps)) == 1500
    assert len(data) < sum(len(r.value or b"") for r in records) / 2  # varied payloads still compress
    # reopened: the records are there, and nothing is filled twice
    with Sandbox(directory=tmp_path / "sb", **options) as sb:
        assert sb.run(lambda c: c.partition_logs.offsets("sandbox-topic-00000", 0).log_end_offset) == 1500


def test_bad_fill_options_are_one_line_usage_errors(tmp_path: Path) -> None:
    bad = invoke("sandbox", "up", "--dir", str(tmp_path / "sb"), "--topics", "1", "--compression", "brotli")
    assert bad.code == 2
    assert "--compression must be one of none, gzip, snappy, lz4, zstd, not 'brotli'" in bad.stderr
    real = invoke(
        "sandbox", "up", "--dir", str(tmp_path / "real"), "--kafka-home", str(tmp_path),
        "--topics", "1", "--records-per-partition", "5",
    )  # fmt: skip
    assert real.code == 2
    assert "--records-per-partition fills the emulator's topics" in real.stderr
    assert not (tmp_path / "sb").exists() and not (tmp_path / "real").exists()


def test_up_detach_fills_the_topics_too(tmp_path: Path) -> None:
    """`up --detach` starts the emulator's own process with the flags it resolved: the fill among them."""
    directory = tmp_path / "sb"
    up = invoke(
        "sandbox", "up", "--dir", str(directory), "--base-port", "0", "--controllers", "1", "--brokers", "1",
        "--topics", "1", "--partitions", "2", "--records-per-partition", "25", "--compression", "lz4", "--detach",
    )  # fmt: skip
    assert up.code == 0, up.stderr
    try:
        bootstrap = next(
            line.split("=", 1)[1] for line in up.stdout.splitlines() if line.startswith("bootstrap.servers=")
        )
        offsets = invoke("get-offsets", "--bootstrap-server", bootstrap, "--topic", "sandbox-topic-00000")
        assert offsets.code == 0, offsets.stderr
        assert offsets.lines == ["sandbox-topic-00000:0:25", "sandbox-topic-00000:1:25"]
        headers = headers_in(_batches(directory / "1" / "sandbox-topic-00000-0"))
        assert headers and all(h.compression == 3 for h in headers)  # lz4
    finally:
        assert invoke("sandbox", "down", "--dir", str(directory)).code == 0
