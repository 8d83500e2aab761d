"""Every file kcli writes goes through kcli/writes.py, and a write that fails leaves nothing harmed.

The guard walks kcli's source for any call that creates, writes, renames or cuts a file outside
kcli/writes.py and fails on it. The behaviour is checked on a real full disk (kernel ENOSPC on a
filled tmpfs, tests/reliability/full_disk.py): the old file stays whole, no temporary is left,
and the cause is one line.
"""

from __future__ import annotations

import json
import os
import stat
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kcli.writes import WriteFailed, replacing, write_file
from tests.conftest import REPO, invoke
from tests.reliability.full_disk import NO_SPACE, run_on_full_disk
from tests.reliability.write_sites import kcli_write_sites, write_sites

# Writes that are not Python file writes: calls into the JVM's Hadoop FileSystem (the audit's
# remote storage), which writes beside and renames on its own side (kcli/audit/storage.py).
JVM_WRITES = {
    ("kcli/audit/storage.py", ".rename()"): "FileSystem.rename of a temporary written in the JVM",
    ("kcli/audit/storage.py", ".write_bytes()"): "Storage.write_bytes: the JVM's FileSystem.create",
    ("kcli/audit/job.py", ".write_bytes()"): "Storage.write_bytes: the JVM's FileSystem.create",
}
# Not routed yet: the sandbox's own files (the emulator's replicas and state, the real engine's
# node files) are written by kcli/sandbox, whose move to kcli/sandbox/emulator is under way.
NOT_ROUTED_YET = ("kcli/sandbox/", "kcli/cli/sandbox")


def test_every_file_write_in_kcli_goes_through_kcli_writes() -> None:
    sites = [
        site
        for site in kcli_write_sites(REPO)
        if site.path != "kcli/writes.py"
        and (site.path, site.call) not in JVM_WRITES
        and not site.path.startswith(NOT_ROUTED_YET)
    ]
    assert not sites, "write through kcli.writes instead:\n" + "\n".join(map(str, sites))


def test_the_jvm_writes_named_above_are_still_there() -> None:
    found = {(site.path, site.call) for site in kcli_write_sites(REPO)}
    assert set(JVM_WRITES) <= found


def test_the_guard_finds_every_kind_of_write() -> None:
    """A check that could not fail would hold nothing: each kind of write is found in a sample."""
    sample = """
open(p, "w"); open(p, "ab"); open(p, mode="x"); open(p, chosen); open(p, "r+b")
path.open("a"); path.write_text(t); path.write_bytes(b); path.touch(); path.mkdir(); path.rename(q)
path.replace(q); path.symlink_to(q); archive.extractall(d)
os.open(p, os.O_WRONLY | os.O_CREAT); os.fdopen(fd, "w"); os.replace(a, b); os.rename(a, b)
os.makedirs(d); os.mkdir(d); os.truncate(p, 0); os.write(fd, b); os.mkfifo(p); os.link(a, b)
shutil.copyfile(a, b); shutil.move(a, b); shutil.copytree(a, b)
tempfile.mkstemp(); tempfile.NamedTemporaryFile(); tempfile.TemporaryDirectory()
"""
    reads = """
open(p); open(p, "rb"); path.open(); connection.open(endpoint, config=c); text.replace("a", "b")
os.open(p, os.O_RDONLY | os.O_NONBLOCK); path.read_text(); shutil.which("java")
"""
    import ast

    statements = ast.parse(sample).body  # one write call each
    assert len(list(write_sites(sample))) == len(statements) == 30
    assert list(write_sites(reads)) == []


# ---- kcli.writes itself -----------------------------------------------------------------------------


def test_a_write_interrupted_by_ctrl_c_leaves_the_old_file_and_no_temporary(tmp_path: Path) -> None:
    target = tmp_path / "export.json"
    target.write_text("the good export\n")
    with pytest.raises(KeyboardInterrupt), replacing(target, what="the export") as out:
        out.write("half of the new ")
        raise KeyboardInterrupt
    assert target.read_text() == "the good export\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["export.json"]


def test_a_link_is_written_through_and_the_mode_kept(tmp_path: Path) -> None:
    real = tmp_path / "dotfiles" / "config.toml"
    real.parent.mkdir()
    real.write_text("old\n")
    real.chmod(0o640)
    link = tmp_path / "config.toml"
    link.symlink_to(real)
    write_file(link, "new\n", what="config file")
    assert link.is_symlink() and real.read_text() == "new\n"
    assert stat.S_IMODE(real.stat().st_mode) == 0o640
    write_file(link, "secret\n", what="config file", private=True)
    assert stat.S_IMODE(real.stat().st_mode) == 0o600


def test_a_device_is_written_into_never_replaced(tmp_path: Path) -> None:
    """`--export /dev/stdout` or a link to /dev/null: the device stays a device."""
    link = tmp_path / "sink"
    link.symlink_to(os.devnull)
    write_file(link, "anything\n", what="the ACL export")
    assert stat.S_ISCHR(os.stat(os.devnull).st_mode) and link.is_symlink()


def test_a_fifo_is_written_when_read_and_refused_when_nobody_reads(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(WriteFailed) as refused:
        write_file(fifo, "x", what="the ACL export")
    assert (
        refused.value.line()
        == f"cannot write the ACL export {fifo}: it is a FIFO nobody reads (start its reader first)"
    )
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()))
    reader.start()
    for _ in range(200):  # until the reader has the FIFO open
        try:
            write_file(fifo, "through the pipe\n", what="the ACL export")
            break
        except WriteFailed:
            threading.Event().wait(0.01)
    reader.join(timeout=10)
    assert received == [b"through the pipe\n"] and stat.S_ISFIFO(fifo.lstat().st_mode)


def test_a_directory_is_refused(tmp_path: Path) -> None:
    with pytest.raises(WriteFailed) as refused:
        write_file(tmp_path, "x", what="the ACL export")
    assert (
        refused.value.line()
        == f"cannot write the ACL export {tmp_path}: it is a directory (give the path of a file)"
    )


# ---- on a full disk ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def acl_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """The smallest sandbox that keeps ACLs and can move a replica: one controller, two brokers, the
    authorizer on, one topic."""
    from kcli.sandbox.emulator.handle import Sandbox

    with Sandbox(
        directory=tmp_path_factory.mktemp("writes-sandbox"),
        controllers=1,
        brokers=2,
        authorizer=True,
        topics=1,
    ) as sb:
        yield sb


def _add_acls(sb: Any, topic: str, principals: int) -> None:
    names = [arg for index in range(principals) for arg in ("--allow-principal", f"User:writer-{index:03d}")]
    operations = [arg for op in ("Read", "Write", "Describe", "Alter") for arg in ("--operation", op)]
    added = invoke("acls", "-b", sb.bootstrap_servers, "--add", *names, *operations, "--topic", topic)
    assert added.code == 0, added.stderr


def test_acls_export_over_an_existing_export_on_a_full_disk_keeps_it_whole(
    acl_cluster: Any, tmp_path: Path
) -> None:
    """It truncated the good export and left half a JSON."""
    _add_acls(acl_cluster, "exported", 10)
    good = invoke("acls", "-b", acl_cluster.bootstrap_servers, "--export", "-", "--topic", "exported")
    assert good.code == 0 and len(json.loads(good.stdout)["acls"]) == 40
    _add_acls(acl_cluster, "exported", 30)  # the new export is three times the old one
    run = run_on_full_disk(
        tmp_path,
        ["acls", "-b", acl_cluster.bootstrap_servers, "--export", "acls.json", "--topic", "exported"],
        stage={"acls.json": good.stdout},
        free_bytes=4096,
    )
    target = "acls.json"  # as it was given, relative to the working directory on the full disk
    assert (run.code, run.stdout) == (1, "")
    assert run.stderr.startswith(
        f"Error: cannot write the ACL export {target}: {run.reason}; {target} is unchanged ("
    )
    assert run.stderr.count("\n") == 1
    assert run.files == {"acls.json": good.stdout.encode()}  # the old export whole, no temporary


def test_profile_add_on_a_full_disk_keeps_the_config_file(tmp_path: Path) -> None:
    """It was "unexpected OSError (this is a bug)"."""
    config = '[profiles.old]\n"bootstrap.servers" = "k1:9092"\n'
    run = run_on_full_disk(
        tmp_path,
        ["profile", "add", "new", "--set", "bootstrap.servers=k2:9092", "--set", "client.id=" + "c" * 6000],
        stage={"kcli.toml": config},
        free_bytes=4096,
        environ={"KCLI_CONFIG": "kcli.toml"},
    )
    assert run.code == 1
    assert run.stderr.startswith(
        f"Error: cannot write config file kcli.toml: {run.reason}; kcli.toml is unchanged ("
    )
    assert run.stderr.count("\n") == 1
    assert run.files == {"kcli.toml": config.encode()}


def test_spark_collect_on_a_full_disk_leaves_no_part_file(acl_cluster: Any, tmp_path: Path) -> None:
    """It left an empty `.part-00000.parquet.tmp` among the tables; the snapshot it was writing has no
    clusters row, so audits ignore it, and the message says so."""
    run = run_on_full_disk(
        tmp_path,
        ["spark", "collect", "-b", acl_cluster.bootstrap_servers, "--out", "snapshots"],
        free_bytes=8192,
    )
    assert run.code == 1 and run.stderr.count("\n") == 2  # the progress line, then the error
    error = run.stderr.splitlines()[-1]
    assert error.startswith(f"Error: cannot write the snapshot file {run.disk}/snapshots/")
    assert (
        f": {run.reason} (the snapshot being written lacks its clusters row, so audits ignore it; " in error
    )
    assert not [name for name in run.files if name.rsplit("/", 1)[-1].startswith(".")]
    assert not [name for name in run.files if name.startswith("snapshots/clusters/")]


def test_a_rollback_file_on_a_full_disk_stops_execute_before_any_change(
    acl_cluster: Any, tmp_path: Path
) -> None:
    """The rollback file is written first; when it cannot be, nothing is sent to the cluster."""
    (topic,) = invoke("topics", "-b", acl_cluster.bootstrap_servers, "--list").lines
    before = invoke("topics", "-b", acl_cluster.bootstrap_servers, "--describe", "--topic", topic)
    replicas = next(line for line in before.lines if "Replicas:" in line).split("Replicas:")[1].split()[0]
    target = [int(broker) for broker in reversed(replicas.split(","))]  # a new preferred leader
    move = {"version": 1, "partitions": [{"topic": topic, "partition": 0, "replicas": target}]}
    run = run_on_full_disk(
        tmp_path,
        [
            "reassign-partitions", "-b", acl_cluster.bootstrap_servers, "--execute",
            "--reassignment-json-file", "move.json", "--rollback-file", "rollback.json",
        ],
        stage={"move.json": json.dumps(move)},
        free_bytes=0,
    )  # fmt: skip
    assert run.code == 1
    hint = (
        "the file is larger than this process may write (ulimit -f)"
        if run.reason != NO_SPACE
        else ("free some space on that file system, or give a path on another one")
    )
    assert run.stderr == (
        f"Error: cannot write the rollback file {run.disk / 'rollback.json'}: {run.reason}; nothing was changed "
        f"on the cluster ({hint})\n"
    )
    assert set(run.files) == {"move.json"}
    after = invoke("topics", "-b", acl_cluster.bootstrap_servers, "--describe", "--topic", topic)
    assert after.lines == before.lines
