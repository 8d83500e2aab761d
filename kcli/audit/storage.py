"""Files through Spark's Hadoop filesystem layer: one code path for local paths, file://, hdfs://, s3a://.

Every input and output of an audit (snapshot directories, metadata log directories, findings) is a
URI. A path without a scheme is a local path of the machine kcli runs on (made absolute here, so it
means the same on the driver and on executors that share the filesystem); anything else is handed
to Hadoop as is, so any filesystem the Spark installation has a connector for works the same way.
Hadoop paths are not percent-encoded: a space in a name is a space.
"""

from __future__ import annotations

import contextlib
import os
import re
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.\-]*:/")
_GLOB_SPECIAL = re.compile(r"([\\\[\]{}*?])")


def to_uri(text: str) -> str:
    """A path or URI as a URI: a path without a scheme becomes an absolute file:// URI."""
    if _SCHEME.match(text):
        return text
    return "file://" + os.path.abspath(os.path.expanduser(text))


def local_path(uri: str) -> Path | None:
    """The local path a file: URI names (None for other schemes)."""
    if not uri.startswith("file:"):
        return None
    rest = uri[len("file:") :]
    if rest.startswith("//"):
        rest = rest[2:]
        rest = rest[rest.index("/") :] if "/" in rest else "/"  # drop an authority (file://host/...)
    return Path(rest)


def join(uri: str, *parts: str) -> str:
    """`uri` with path components appended."""
    return "/".join([uri.rstrip("/"), *(part.strip("/") for part in parts)])


def glob_escape(text: str) -> str:
    """`text` with Hadoop glob characters escaped, so it matches only itself inside a glob pattern."""
    return _GLOB_SPECIAL.sub(r"\\\1", text)


def name_of(uri: str) -> str:
    """The last component of a URI."""
    return uri.rstrip("/").rsplit("/", 1)[-1]


def parent_of(uri: str) -> str:
    """The URI of the directory holding `uri`."""
    return uri.rstrip("/").rsplit("/", 1)[0]


@dataclass(frozen=True, slots=True, kw_only=True)
class FileInfo:
    """One listed file or directory."""

    uri: str
    size: int
    is_dir: bool


class Storage:
    """Hadoop FileSystem calls from the driver, through the session's JVM and Hadoop configuration."""

    def __init__(self, spark: SparkSession) -> None:
        jvm: Any = spark._jvm  # type: ignore[attr-defined]
        self._jvm = jvm
        self._gateway: Any = spark.sparkContext._gateway  # type: ignore[attr-defined]
        self._conf = spark._jsc.hadoopConfiguration()  # type: ignore[attr-defined]

    def _path(self, uri: str) -> Any:
        return self._jvm.org.apache.hadoop.fs.Path(uri)

    def _fs(self, path: Any) -> Any:
        if path.toUri().getScheme() == "file":
            # Hadoop's checksummed local filesystem would leave a .crc file beside each file written.
            return self._jvm.org.apache.hadoop.fs.FileSystem.getLocal(self._conf).getRaw()
        return path.getFileSystem(self._conf)

    def exists(self, uri: str) -> bool:
        path = self._path(uri)
        return bool(self._fs(path).exists(path))

    def is_dir(self, uri: str) -> bool:
        path = self._path(uri)
        fs = self._fs(path)
        return bool(fs.exists(path) and fs.getFileStatus(path).isDirectory())

    def glob(self, pattern: str) -> list[FileInfo]:
        """What a Hadoop glob pattern matches (escape literal parts with glob_escape)."""
        path = self._path(pattern)
        statuses = self._fs(path).globStatus(path)
        return [] if statuses is None else [_info(status) for status in statuses]

    def list_files(self, uri: str) -> Iterator[FileInfo]:
        """Every file at or below `uri` (recursively)."""
        path = self._path(uri)
        found = self._fs(path).listFiles(path, True)
        while found.hasNext():
            yield _info(found.next())

    def read_bytes(self, uri: str, *, limit: int) -> bytes:
        """A whole (small) file; ValueError when it is larger than `limit` bytes."""
        path = self._path(uri)
        fs = self._fs(path)
        size = fs.getFileStatus(path).getLen()
        if size > limit:
            raise ValueError(f"{uri}: {size} bytes, more than the {limit} expected")
        stream = fs.open(path)
        try:
            return bytes(self._jvm.org.apache.commons.io.IOUtils.toByteArray(stream))
        finally:
            stream.close()

    @contextmanager
    def _replacing(self, uri: str) -> Iterator[tuple[Any, Any]]:
        """The filesystem and a temporary path to write the new `uri` to; once written, the temporary
        file is renamed over `uri`, so readers see the old file or the new one, never half of one.

        The temporary name is unique (concurrent writers of one file never share it) and the
        temporary file is deleted when writing or renaming fails.
        """
        path = self._path(uri)
        fs = self._fs(path)
        temporary = self._path(join(parent_of(uri), f".{name_of(uri)}.{uuid.uuid4().hex}.tmp"))
        try:
            yield fs, temporary
            self._rename_over(fs, temporary, path)
        except BaseException:
            with contextlib.suppress(Exception):
                fs.delete(temporary, False)
            raise

    def _rename_over(self, fs: Any, source: Any, target: Any) -> None:
        """Rename `source` over the file `target` in one step where the filesystem can.

        The local filesystem's rename replaces the target atomically (rename(2)); HDFS refuses to
        rename onto an existing file, so it gets Hadoop's rename with OVERWRITE, atomic there too
        (object stores have no atomic rename: there it is the best the connector offers).
        """
        if fs.exists(target) and fs.getFileStatus(target).isDirectory():
            raise OSError(f"cannot replace {target.toString()}: it is a directory")
        if fs.rename(source, target):
            return
        rename = self._jvm.org.apache.hadoop.fs.Options.Rename
        options = self._gateway.new_array(rename, 1)
        options[0] = rename.OVERWRITE
        self._jvm.org.apache.hadoop.fs.FileUtil.rename(fs, source, target, options)

    def write_bytes(self, uri: str, data: bytes) -> None:
        """Write a whole file; readers see the old file or the new one, never half of one."""
        with self._replacing(uri) as (fs, temporary):
            stream = fs.create(temporary, False)
            try:
                stream.write(bytearray(data))
            finally:
                stream.close()

    def copy(self, source: str, target: str) -> None:
        """Copy a file (inside the JVM), replacing `target` whole."""
        src = self._path(source)
        with self._replacing(target) as (fs, temporary):
            stream = self._fs(src).open(src)
            try:
                self._jvm.org.apache.hadoop.io.IOUtils.copyBytes(
                    stream, fs.create(temporary, False), 1 << 16, True
                )
            finally:
                stream.close()

    def mkdirs(self, uri: str) -> None:
        path = self._path(uri)
        self._fs(path).mkdirs(path)

    def delete(self, uri: str) -> None:
        """Remove a file or a whole directory (nothing when it does not exist)."""
        path = self._path(uri)
        self._fs(path).delete(path, True)

    def sink(self, root: str) -> Any:
        """A snapshot sink (kcli.audit.snapshot.Sink) writing under the directory `root`."""

        def write(relative: str, data: bytes) -> None:
            self.write_bytes(join(root, relative), data)

        return write


def _info(status: Any) -> FileInfo:
    return FileInfo(
        uri=str(status.getPath().toString()), size=int(status.getLen()), is_dir=bool(status.isDirectory())
    )
