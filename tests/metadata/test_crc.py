"""kcli.crc: the CRC-32C of Kafka's record batches, from the crc32c package's C function loaded without
the package's __init__ (importlib.metadata and argparse: 20 ms of every metadata read's start-up)."""

from __future__ import annotations

import crc32c as package

from kcli.crc import crc32c
from tests.conftest import KRAFT_FIXTURES
from tests.fresh_process import run_fresh


def test_the_checksum_is_the_package_s() -> None:
    assert crc32c(b"123456789") == 0xE3069283  # the check value of CRC-32C
    for data in (b"", b"\x00", bytes(range(256)) * 64, memoryview(b"kafka" * 1000)):
        assert crc32c(data) == package.crc32c(data)
    assert crc32c(b"6789", crc32c(b"12345")) == crc32c(b"123456789")  # continued from a value


def test_a_dump_loads_the_reader_alone() -> None:
    log = KRAFT_FIXTURES / "hiage-kafka-raft" / "data" / "kafka1"
    code, out, modules = run_fresh("metadata-shell", "--directory", str(log), "--dump")
    assert code == 0 and "FeatureLevelRecord" in out
    assert "crc32c._crc32c" in modules
    assert not modules & {"crc32c", "importlib.metadata", "argparse"}  # the package's __init__ and its cost
    assert not modules & {
        "kcli.shell.session",
        "kcli.metadata.image",
        "kcli.metadata.tree",
        "kcli.shell.commands",
    }
    code, out, modules = run_fresh("metadata-shell", "--directory", str(log), "ls", "/image/features")
    assert code == 0 and "metadataVersion" in out and "kcli.metadata.image" in modules
