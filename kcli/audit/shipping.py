"""Shipping kcli to Spark executors whose Python does not have it.

The metadata-log source runs kcli's reader in Python tasks. On a cluster the executors' Python is
usually a plain interpreter of the same minor version, so the driver builds one zip at run time and
adds it to the job (SparkContext.addPyFile):

- kcli itself and the pure-Python packages its reader imports, importable straight from the zip;
- the packages with binary modules (crc32c, cramjam, kio's codec) as built for the driver's
  platform, under a folder that is not importable from the zip. A task that cannot import them
  extracts that folder once per executor into Spark's per-application file directory and puts it
  on sys.path (`activate`); an executor's own installed copy wins.

Executors on another OS or CPU than the driver must have those packages installed themselves (or
get an environment with spark.archives); `activate` says so in one line.
"""

from __future__ import annotations

import importlib.util
import os
import sys
import sysconfig
import zipfile
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path
from typing import Any

ZIP_NAME = "kcli-executor.zip"
NATIVE_DIR = "kcli-native"
# What a task of the metadata-log source imports, beyond the standard library and pyspark.
PACKAGES = ("kcli", "kio", "typing_extensions", "crc32c", "cramjam")
TAG_FILE = f"{NATIVE_DIR}/PLATFORM"
LIST_FILE = f"{NATIVE_DIR}/PACKAGES"


def platform_tag() -> str:
    """What a binary module is built for: interpreter, version and platform, e.g. cpython-311-linux-x86_64."""
    return f"{sys.implementation.name}-{sys.version_info[0]}{sys.version_info[1]}-{sysconfig.get_platform()}"


def build_zip(target: Path) -> Path:
    """Write the executor zip to `target` (a file path) and return it."""
    native = []
    with zipfile.ZipFile(target, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=1) as archive:
        for name in PACKAGES:
            files = _package_files(name)
            binary = any(path.name.endswith(tuple(EXTENSION_SUFFIXES)) for path, _ in files)
            if binary:
                native.append(name)
            for path, arcname in files:
                archive.write(path, f"{NATIVE_DIR}/{arcname}" if binary else arcname)
        archive.writestr(TAG_FILE, platform_tag())
        archive.writestr(LIST_FILE, "\n".join(native))
    return target


def needed(spark: Any) -> bool:
    """Whether Python tasks may run where kcli is not installed: a non-local master or another Python."""
    from kcli.audit.session import is_local

    context = spark.sparkContext
    return not is_local(str(context.master)) or context.pythonExec != sys.executable


def ship(spark: Any) -> None:
    """Build the zip and add it to the session's context (once): every later Python task can import kcli.

    The zip is built in the driver's per-context file directory, so it lives as long as the context.
    """
    from pyspark import SparkFiles

    context = spark.sparkContext
    if any(path.endswith("/" + ZIP_NAME) for path in context.listFiles):
        return
    from kcli.writes import make_directories

    build = Path(SparkFiles.getRootDirectory()) / "kcli-build"
    make_directories(build, what="the shipped code's directory")
    context.addPyFile(str(build_zip(build / ZIP_NAME)))


def activate() -> None:
    """In a task: make the binary packages importable, from the executor's Python or the shipped zip."""
    from pyspark import SparkFiles

    target = Path(SparkFiles.getRootDirectory()) / NATIVE_DIR
    if str(target) in sys.path:
        return
    shipped = Path(SparkFiles.get(ZIP_NAME))
    if not shipped.is_file():
        return  # nothing shipped: the executor's Python has kcli (a local master)
    with zipfile.ZipFile(shipped) as archive:
        native = archive.read(LIST_FILE).decode().split()
        built_for = archive.read(TAG_FILE).decode().strip()
    missing = [name for name in native if importlib.util.find_spec(name) is None]
    if not missing:
        return
    if built_for != platform_tag():
        raise ImportError(
            f"this executor's Python ({platform_tag()}) lacks {', '.join(missing)} and cannot load the "
            f"driver's ({built_for}): install them on the executors (pip install {' '.join(missing)}) "
            "or ship an environment with spark.archives"
        )
    if not target.is_dir():
        _extract(shipped, target)
    sys.path.append(str(target))


def _extract(shipped: Path, target: Path) -> None:
    """Unpack the native folder next to the zip; concurrent tasks race harmlessly (rename is atomic)."""
    from kcli.writes import WriteFailed, extract_members, move_into_place

    staging = target.with_name(f".{NATIVE_DIR}-{os.getpid()}")
    with zipfile.ZipFile(shipped) as archive:
        extract_members(archive, f"{NATIVE_DIR}/", staging, what="the shipped native libraries")
    try:
        move_into_place(staging / NATIVE_DIR, target, what="the shipped native libraries", durable=False)
    except WriteFailed:
        if not target.is_dir():
            raise


def _package_files(name: str) -> list[tuple[Path, str]]:
    """(file, name in the zip) for an installed package or module as it is on disk, with its .dist-info
    (some packages read their own version from it) and vendored libraries; caches left out."""
    import importlib.metadata

    spec = importlib.util.find_spec(name)
    if spec is None or spec.origin is None:
        raise ImportError(f"{name} is not installed")
    origin = Path(spec.origin)
    if spec.submodule_search_locations is None:  # a single-file module
        found = [(origin, origin.name)]
    else:
        root = origin.parent
        found = [
            (path, f"{name}/{path.relative_to(root).as_posix()}")
            for path in sorted(root.rglob("*"))
            if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc"
        ]
    try:
        distribution = importlib.metadata.distribution(name)
    except importlib.metadata.PackageNotFoundError:
        return found
    for entry in distribution.files or ():
        top = entry.parts[0] if entry.parts else ""
        if top.endswith(".dist-info") or top == f"{name}.libs":
            path = Path(str(distribution.locate_file(entry)))
            if path.is_file():
                found.append((path, Path(str(entry)).as_posix()))
    return found
