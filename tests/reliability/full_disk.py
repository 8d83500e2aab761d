"""Run kcli on a full disk: a small tmpfs, filled but for a few bytes, in a private mount namespace.

The kernel refuses the write with ENOSPC, as a real full disk does; nothing outside the namespace
sees the mount, and it goes when the process does. Where no mount namespace can be made (no
unshare, no privilege, no user namespaces), the same run gets a file size limit instead
(RLIMIT_FSIZE: the kernel refuses the write with EFBIG), so the test still runs and still checks
that the old file stays whole and no temporary is left.
"""

from __future__ import annotations

import functools
import os
import resource
import shutil
import subprocess
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

NO_SPACE = "No space left on device"
TOO_LARGE = "File too large"
DEADLINE_S = 120

# Inside the namespace: mount, stage, fill, run, then copy what is left out for the test to see.
_SCRIPT = """
set -e
mount -t tmpfs -o size=4m,mode=0755 tmpfs "$DISK"
cp -a "$STAGE/." "$DISK/"
head -c 8000000 /dev/zero > "$DISK/.filler" 2>/dev/null || true
truncate -s -"$FREE" "$DISK/.filler"
set +e
cd "$DISK"
"$@" > "$OUT/stdout" 2> "$OUT/stderr" < /dev/null
echo $? > "$OUT/rc"
rm -f "$DISK/.filler"
cp -a "$DISK/." "$OUT/after/"
"""


@dataclass(frozen=True)
class FullDiskRun:
    code: int
    stdout: str
    stderr: str
    files: dict[str, bytes]  # what the disk holds afterwards, by path relative to it
    reason: str  # the kernel's words for the refused write (NO_SPACE, or TOO_LARGE without tmpfs)
    disk: Path  # the directory kcli ran in (cwd), as kcli names it in its messages


@functools.cache
def _namespace_prefix() -> tuple[str, ...] | None:
    """The unshare command line that can mount a tmpfs here, or None."""
    unshare = shutil.which("unshare")
    if unshare is None:
        return None
    for prefix in (
        (unshare, "--mount", "--propagation", "private"),
        (unshare, "-r", "-m", "--propagation", "private"),
    ):
        probe = subprocess.run(
            [*prefix, "sh", "-c", "d=$(mktemp -d) && mount -t tmpfs -o size=64k tmpfs \"$d\" && umount \"$d\"; rc=$?; rmdir \"$d\"; exit $rc"],
            capture_output=True, timeout=30, check=False,
        )  # fmt: skip
        if probe.returncode == 0:
            return prefix
    return None


def run_on_full_disk(
    tmp_path: Path,
    argv: list[str],
    *,
    stage: Mapping[str, str | bytes] | None = None,
    free_bytes: int = 4096,
    environ: Mapping[str, str] | None = None,
) -> FullDiskRun:
    """`kcli ARGV` with its working directory on a disk with `free_bytes` left, holding `stage`."""
    stage_dir, out, disk = tmp_path / "stage", tmp_path / "out", tmp_path / "disk"
    for folder in (stage_dir, out / "after", disk):
        folder.mkdir(parents=True, exist_ok=True)
    for name, content in (stage or {}).items():
        path = stage_dir / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content.encode() if isinstance(content, str) else content)
    env = {**os.environ, "NO_COLOR": "1", "KCLI_CONFIG": "/nonexistent/kcli.toml", **(environ or {})}
    command = [sys.executable, "-m", "kcli", *argv]
    prefix = _namespace_prefix()
    if prefix is not None:
        env |= {"DISK": str(disk), "STAGE": str(stage_dir), "OUT": str(out), "FREE": str(free_bytes)}
        subprocess.run(
            [*prefix, "sh", "-c", _SCRIPT, "sh", *command], env=env, timeout=DEADLINE_S, check=True
        )
        code = int((out / "rc").read_text())
        stdout, stderr = (out / "stdout").read_text(), (out / "stderr").read_text()
        reason = NO_SPACE
    else:
        shutil.copytree(stage_dir, disk, dirs_exist_ok=True)
        limit = free_bytes  # no new file may grow past it; the files already there stay as they are
        done = subprocess.run(
            command, cwd=disk, env=env, capture_output=True, text=True, timeout=DEADLINE_S, check=False,
            preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit)),
        )  # fmt: skip
        code, stdout, stderr, reason = done.returncode, done.stdout, done.stderr, TOO_LARGE
        shutil.copytree(disk, out / "after", dirs_exist_ok=True)
    after = out / "after"
    files = {p.relative_to(after).as_posix(): p.read_bytes() for p in sorted(after.rglob("*")) if p.is_file()}
    return FullDiskRun(code, stdout, stderr, files, reason, disk)
