"""Read RecordBatch v2 files (log segments, snapshots, bootstrap.checkpoint) into metadata records.

The read model is kept apart from the writer's: batches and entries are NamedTuples because a log
holds millions of them and tuple construction is several times cheaper than a frozen dataclass.

Behavior:
- Every batch is checked: magic 2, CRC-32C over bytes [21, end), length inside the file, records
  parsing exactly to the batch end, offsets contiguous inside the batch.
- Compressed batches (gzip, snappy raw or xerial-framed, lz4 frame, zstd) are inflated with cramjam.
- Data record values are framed metadata records; control records are decoded by control type.
- Unknown api keys or versions become `RawRecord`s (counted in `ReadStats.unknown`), never errors.
- A record whose body does not parse, or a corrupt batch, raises `DecodeError` naming the file, the
  byte position and the last good offset; with `skip_corrupt` it is counted in `ReadStats` and
  reading goes on (a batch with a readable length is skipped whole; otherwise the rest of the file).
- A file ending in zeros (pre-allocated) ends cleanly; a torn batch at the end is corruption.
- Files are read in windows of a few MiB (a batch larger than a window gets one of its own), so a
  reader's memory does not grow with the file.
- A log that breaks Kafka's invariants (a batch at offsets already read: two records at one
  offset, offsets not increasing; a leader epoch lower than the one before) is read on, and each
  such batch adds a warning naming the file, the byte and the offsets to `ReadStats.warnings`.

Records are framed in one place, `frame_records`, for every kind of file (segments, snapshots,
compressed or not) and every batch size; `FileReader.scan` hands each framed record to a
`RecordSink`, whose table of fast handlers (keyed by the record's frame header: frame version,
api key, version) decides per record type whether to decode it cheaply, skip it after reading
that header, or leave it to the general decoder (`FileReader.entry_at`, kio's readers).
"""

from __future__ import annotations

import functools
import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kcli.crc import crc32c
from kcli.errors import (
    ChecksumError,
    DecodeError,
    KcliError,
    LengthError,
    RecordError,
    TruncatedData,
    UnknownFormatError,
)
from kcli.kafka import read_uvarint
from kcli.metadata.codec import metadata_body_reader
from kcli.metadata.framing import (
    _GENERAL,
    RUN_LIMIT,
    FastHandler,
    RecordSink,
    RunHandler,
    _plain_headers,
    _skip_run,
    decode_value,
    decompress,
    frame_record,
)
from kcli.metadata.invariants import LogInvariants
from kcli.metadata.read_model import (
    _BATCH,
    _NOOP_LENGTH,
    _NOOP_TAIL,
    BATCH_OVERHEAD,
    CONTROL_FLAG,
    NOOP_RECORD,
    BatchSpan,
    Entry,
    RawRecord,
    ReadStats,
    _span,
    noop_run_heads,
)
from kcli.metadata.windows import FileUntil, Source, plausible_end, refill, zero_to_end

NOOP_HEADER = b"\x01\x14\x00"


def _plain_noop(area: Any, body: int, end: int, offset: int) -> bool:
    """A NoOpRecord without tagged fields: nothing to decode."""
    return end == body + 1 and area[body] == 0


class _Collect:
    """The sink of `FileReader.entries`: every record as an Entry, in order."""

    __slots__ = ("entry", "handlers", "noops", "runs")

    def __init__(self, out: list[Entry], reader: FileReader) -> None:
        self.runs: Mapping[bytes, RunHandler] = {}
        self.handlers: Mapping[bytes, FastHandler | None] = (
            {NOOP_HEADER: _plain_noop} if reader.skip_noop else {}
        )
        self.entry = out.append
        self.noops = functools.partial(_noop_entries, out, reader)

    def begin(self, batch: BatchSpan) -> None:
        pass


def _noop_entries(out: list[Entry], reader: FileReader, batch: BatchSpan) -> None:
    record = (() if 20 in reader.values else _noop()) if reader.decode else None
    out.extend(
        Entry(offset, epoch, timestamp, False, 20, 0, record)
        for offset, epoch, _c, timestamp in batch.noops or ()
    )


# -- files -----------------------------------------------------------------------------------------


@dataclass(slots=True, kw_only=True)
class FileReader:
    """Reads one file of batches, applying the corruption policy and checking the log's invariants.

    `decode=False` leaves data record bodies undecoded (`record` is then None) for fast scans;
    `values` (api keys) gives those records, when their class is flat (kcli.metadata.fastdecode),
    as plain tuples of field values instead of dataclasses; `skip_noop=True` drops NoOpRecords
    (still counted) before any decoding; records below `min_offset` are passed over (a log
    replayed after a snapshot). `last_good_offset`/`last_epoch` may be given as where the previous
    segment ended: the invariant checks then continue across files.

    `live_tail`: the file is the last segment of a log, which a running node appends to; a batch
    that ends past the end of the file is one it is still writing, so it is the end of the data, as
    Kafka's readers (FileLogInputStream.nextBatch) take it. Elsewhere it is damage.
    """

    path: Path
    stats: ReadStats
    skip_corrupt: bool = False
    decode: bool = True
    skip_noop: bool = False
    values: frozenset[int] = frozenset()
    min_offset: int = 0
    last_good_offset: int | None = None
    last_epoch: int = -1
    last_timestamp: int = -1
    live_tail: bool = False
    # bytes [start, stop) only, at batch boundaries: a half of a two-process dump (kcli.shell.halves)
    start: int = 0
    stop: int | None = None
    # reader per (api key << 16 | version) for data records; control records use the slow path
    _readers: dict[int, Any] = field(default_factory=dict)
    _invariants: LogInvariants | None = None

    def entries(self, data: bytes | None = None) -> Iterator[Entry]:
        """The records of the file in order (every one through the general decoder)."""
        out: list[Entry] = []
        return self.collected(_Collect(out, self), out, data)

    def collected(self, sink: RecordSink, out: list[Entry], data: bytes | None = None) -> Iterator[Entry]:
        """`scan` to a `sink` that appends to `out`, yielding what each batch added (so a reader of
        entries never holds more than a batch's worth)."""
        for batch in self.batches(data):
            problem = self.scan_batch(batch, sink)
            yield from out
            out.clear()
            if problem is not None:
                self.batch_failed(problem)

    def scan(self, sink: RecordSink, data: bytes | None = None, *, resume: bool = False) -> None:
        """Every record of the file to `sink`, in order, under the corruption policy (`resume`: the
        invariant checks go on from a scan of the bytes before `start`)."""
        for batch in self.batches(data, resume=resume):
            problem = self.scan_batch(batch, sink)
            if problem is not None:
                self.batch_failed(problem)

    def scan_batch(self, batch: BatchSpan, sink: RecordSink) -> DecodeError | None:
        """Frame one batch's records and hand each to `sink`; returns what stopped the batch early
        (the records before it were handed over), for the caller to report with `batch_failed`.

        This is the one place records are framed, whatever the file and the batch size. Every
        record is checked: its length fits the batch, its offset delta is its index, its fields add
        up to its length, and the records fill the batch exactly; a data record's value holds at
        least a frame header. Records framed as KRaft writes them (attributes 0, timestamp delta 0,
        null key, no headers) are recognised cheaply and dispatched on their frame header; any
        other record is framed by `frame_record` and decoded by the general decoder.
        """
        base_offset, epoch, base_ts, count, control, area, pos, end, shift, _noops = batch
        if area is None:
            sink.noops(batch)
            return None
        first = self.min_offset - base_offset
        if not control:
            sink.begin(batch)
        handlers = sink.handlers
        get = handlers.get
        runs = sink.runs
        headers = _plain_headers(count)
        limit = 0 if control else min(count, len(headers))  # control records have keys
        least = 0 if control else 6  # zig-zag of the smallest value length: 3 bytes for a data record
        index = 0
        ts_delta = 0
        key_start = key_length = 0
        problem: DecodeError | None = None
        failed = 0
        while index < count:
            plain = False
            if index < limit and pos + 8 <= end:
                try:
                    b = area[pos]
                    if b < 0x80:
                        hdr = pos + 1
                    else:
                        b = (b & 0x7F) | (area[pos + 1] << 7) if area[pos + 1] < 0x80 else 1
                        hdr = pos + 2
                    head = headers[index]
                    value = hdr + len(head)
                    if not b & 1 and area[hdr:value] == head:
                        record_end = hdr + (b >> 1)
                        b = area[value]
                        if b < 0x80:
                            value += 1
                        else:
                            b = (b & 0x7F) | (area[value + 1] << 7) if area[value + 1] < 0x80 else 1
                            value += 2
                        value_end = value + (b >> 1)
                        plain = not (
                            b & 1
                            or b < least
                            or value_end + 1 != record_end
                            or record_end > end
                            or area[value_end]
                        )
                        ts_delta = 0
                except IndexError:
                    plain = False
            if not plain:
                try:
                    ts_delta, key_start, key_length, value, value_length, record_end = frame_record(
                        area, pos, end, index, count, shift
                    )
                    if value_length < 3 and not control:
                        raise LengthError(f"metadata record value of {value_length} bytes", shift + value)
                except DecodeError as found:
                    problem = found
                    break
                value_end = value + max(value_length, 0)
            if index >= first:
                if plain:
                    header = area[value : value + 3]
                    handler = get(header, _GENERAL)
                    if handler is not _GENERAL:
                        size = record_end - pos
                        if (
                            record_end + size <= end
                            and area[record_end] == area[pos]
                            and area[record_end + 1] == area[pos + 1]
                            and index + 1 < limit
                        ):
                            # the next record is as long: maybe a run framed alike (see RunHandler)
                            runner = _skip_run if handler is None else runs.get(header)
                            if runner is not None:
                                stop = 64 if index < 64 else 8192 if index < 8192 else limit
                                more = min(stop - index, (end - pos) // size, RUN_LIMIT)
                                firsts = area[pos : pos + more * size : size]
                                more -= len(firsts.lstrip(firsts[:1]))  # those as long, by their first byte
                                if more > 1:
                                    done = runner(
                                        area, pos, size, hdr, value, index, more, base_offset + index
                                    )
                                    if done:
                                        pos += done * size
                                        index += done
                                        continue
                        if handler is None or handler(area, value + 3, value_end, base_offset + index):
                            pos = record_end
                            index += 1
                            continue
                    key_length = -1
                try:
                    found_entry = self.entry_at(
                        batch, index, first, value, value_end, ts_delta, key_start, key_length
                    )
                except DecodeError as stop:
                    problem = stop
                    failed = 1
                    break
                if found_entry is not None:
                    sink.entry(found_entry)
                if sink.handlers is not handlers:
                    handlers = sink.handlers
                    get = handlers.get
                    runs = sink.runs
            pos = record_end
            index += 1
        if problem is None and pos != end:
            problem = RecordError(f"{end - pos} bytes after the last record of the batch", shift + pos)
        read = index - max(first, 0)
        if read > 0:
            self.stats.records += read + failed
            self.last_good_offset = base_offset + index - 1
            self.last_epoch = epoch
            self.last_timestamp = base_ts + ts_delta
        elif failed:
            self.stats.records += 1
        return problem

    def entry_at(
        self,
        batch: BatchSpan,
        index: int,
        first: int,
        value_start: int,
        value_end: int,
        ts_delta: int,
        key_start: int,
        key_length: int,
    ) -> Entry | None:
        """The Entry of record `index` of a batch through the general decoder (None: a NoOp skipped).

        A DecodeError when its frame header or control key is wrong (the batch stops there); a body
        that does not parse follows the skip policy. Records from `first` (the batch's first at or
        above `min_offset`) to `index` count as read.
        """
        base_offset, epoch, base_ts, _count, control, area, _start, _end, shift, _noops = batch
        offset = base_offset + index
        if index > first and index > 0:
            self.last_good_offset = offset - 1
        timestamp = base_ts + ts_delta
        readers = self._readers
        if control:
            if key_length != 4:
                raise RecordError(f"control record key of {key_length} bytes", shift + value_start)
            ctype = int.from_bytes(area[key_start + 2 : key_start + 4], "big", signed=True)
            record = self._decode(readers, True, ctype, 0, area, value_start, value_end, shift, offset)
            return Entry(offset, epoch, timestamp, True, ctype, 0, record)
        frame = area[value_start]
        api_key = area[value_start + 1]
        version = area[value_start + 2]
        body = value_start + 3
        if frame != 1 or api_key >= 0x80 or version >= 0x80:
            frame, used = read_uvarint(area, value_start)
            if frame != 1:
                raise UnknownFormatError(
                    f"metadata record frame version {frame} (expected 1)", shift + value_start
                )
            api_key, used2 = read_uvarint(area, value_start + used)
            version, used3 = read_uvarint(area, value_start + used + used2)
            body = value_start + used + used2 + used3
            if body > value_end:
                raise LengthError("metadata record frame header overruns the value", shift + value_start)
        if api_key == 20 and self.skip_noop and value_end - value_start == 4:
            return None
        if not self.decode:
            return Entry(offset, epoch, timestamp, False, api_key, version, None)
        reader = readers.get(api_key << 16 | version)
        record = None
        if reader is not None:
            try:
                record, used = reader(area, body)
            except Exception:
                used = -1
            if body + used != value_end:
                reader = None
        if reader is None:
            record = self._decode(readers, False, api_key, version, area, body, value_end, shift, offset)
        return Entry(offset, epoch, timestamp, False, api_key, version, record)

    def batch_failed(self, problem: DecodeError) -> None:
        """A batch stopped early: report (or raise) and count it as skipped."""
        self._problem(problem)
        self.stats.skipped_batches += 1

    # -- batches -----------------------------------------------------------------------------------

    def batches(self, data: bytes | None = None, *, resume: bool = False) -> Iterator[BatchSpan]:
        """The file's batches, checked (magic, length, CRC, invariants) and inflated, in order.

        A batch holding only the idle controller's NoOpRecord is accounted here (most of every real
        log, nothing to parse): dropped with `skip_noop`, else yielded with `area` None.
        """
        if not resume or self._invariants is None:
            self.stats.files.append(str(self.path))
            self._invariants = LogInvariants(
                self.path, self.stats.warnings, seen_offset=self.last_good_offset, seen_epoch=self.last_epoch
            )
        if data is not None:
            yield from self._batches_in(bytes(data), None, len(data))
            return
        try:
            handle = open(self.path, "rb")  # noqa: SIM115 (closed below; open errors worded here)
        except OSError as error:
            raise KcliError(
                f"cannot read {self.path}: {error.strerror or error}",
                hint="a running node may have deleted it meanwhile (after a snapshot): read again",
            ) from None
        with handle:
            source: Source = handle
            size = os.fstat(handle.fileno()).st_size
            if self.stop is not None and self.stop < size:  # the first part of the file only
                source, size = FileUntil(handle, self.stop), self.stop
            yield from self._batches_in(b"", source, size, self.start)

    def _batches_in(self, buf: bytes, handle: Source | None, size: int, start: int = 0) -> Iterator[BatchSpan]:
        """Batches of a file of `size` bytes from position `start`, read through `handle` a window at
        a time (or all in `buf`).

        `base` is the file position of `buf[0]`; positions reported are file positions.
        """
        stats = self.stats
        invariants = self._invariants
        assert invariants is not None  # set by batches()
        skip_noop = self.skip_noop
        min_offset = self.min_offset
        unpack = _BATCH.unpack_from
        base = start
        pos = 0
        view = memoryview(buf)
        while True:
            if handle is not None and pos + BATCH_OVERHEAD > len(buf) and base + len(buf) < size:
                buf, base, pos = refill(handle, buf, base, pos, BATCH_OVERHEAD)
                view = memoryview(buf)
            if pos >= len(buf):
                return
            if buf[pos + 43 : pos + 72] == _NOOP_TAIL and buf[pos + 8 : pos + 12] == _NOOP_LENGTH:
                # The idle controller's batches of one NoOpRecord (most of every real log) in the one
                # layout KRaft writes (only the offset, epoch, CRC and timestamps vary), a run at a time.
                heads = noop_run_heads(buf, view, pos)  # the general path below reports a bad batch
                if heads:
                    invariants.check_run(heads, base + pos)
                    stats.batches += len(heads)
                    pos += 72 * len(heads)
                    if min_offset:
                        heads = [head for head in heads if head[0] >= min_offset]
                    if heads:
                        stats.records += len(heads)
                        self.last_good_offset, self.last_epoch, _crc, self.last_timestamp = heads[-1]
                        if not skip_noop:
                            first = heads[0]
                            yield _span(
                                BatchSpan,
                                (first[0], first[1], first[3], len(heads), False, None, 0, 0, 0, heads),
                            )
                    continue
            try:
                if base + pos + BATCH_OVERHEAD > size:
                    if not any(view[pos:]):
                        return  # pre-allocated zero tail: end of data
                    if self.live_tail:
                        stats.partial_tail_bytes = size - base - pos
                        return
                    raise TruncatedData(
                        f"truncated batch header ({size - base - pos} bytes left)", base + pos
                    )
                (
                    base_offset,
                    length,
                    epoch,
                    magic,
                    crc,
                    attributes,
                    _last_delta,
                    base_ts,
                    _max_ts,
                    _pid,
                    _pepoch,
                    _bseq,
                    count,
                ) = unpack(buf, pos)
                if length == 0 and zero_to_end(handle, view[pos:]):
                    return
                if magic != 2:
                    raise UnknownFormatError(f"unsupported batch magic {magic}", base + pos)
                if length < BATCH_OVERHEAD - 12:
                    raise LengthError(f"impossible batch length {length}", base + pos)
                if base + pos + 12 + length > size:
                    if self.live_tail:
                        stats.partial_tail_bytes = size - base - pos
                        return
                    raise TruncatedData(
                        f"truncated batch: length {length} but {size - base - pos - 12} bytes left",
                        base + pos,
                    )
                if handle is not None and pos + 12 + length > len(buf):
                    buf, base, pos = refill(handle, buf, base, pos, 12 + length)
                    view = memoryview(buf)
                batch_end = pos + 12 + length
                if crc32c(view[pos + 21 : batch_end]) != crc:
                    raise ChecksumError("CRC-32C mismatch", base + pos)
            except DecodeError as problem:
                self._problem(problem)
                plausible = plausible_end(buf, pos, size - base)
                if plausible is None:
                    stats.skipped_bytes += size - base - pos
                    return
                stats.skipped_batches += 1
                if plausible > len(buf) and handle is not None:
                    handle.seek(base + plausible)
                    buf, base, pos = b"", base + plausible, 0
                    view = memoryview(buf)
                else:
                    pos = plausible
                continue
            stats.batches += 1
            invariants.check(base_offset, count, epoch, base + pos)
            if length == 60 and count == 1 and attributes == 0 and buf[pos + 61 : batch_end] == NOOP_RECORD:
                pos = batch_end
                if base_offset < min_offset:
                    continue
                stats.records += 1
                self.last_good_offset = base_offset
                self.last_epoch = epoch
                self.last_timestamp = base_ts
                if not skip_noop:
                    heads = [(base_offset, epoch, crc, base_ts)]
                    yield _span(BatchSpan, (base_offset, epoch, base_ts, 1, False, None, 0, 0, 0, heads))
                continue
            codec = attributes & 0x07
            if codec:
                try:
                    area: Any = decompress(codec, buf[pos + BATCH_OVERHEAD : batch_end], base + pos)
                except DecodeError as problem:
                    self._problem(problem)
                    stats.skipped_batches += 1
                    pos = batch_end
                    continue
                span = _span(BatchSpan, (
                    base_offset, epoch, base_ts, count, bool(attributes & CONTROL_FLAG), area, 0, len(area),
                    base + pos + BATCH_OVERHEAD, None,
                ))  # fmt: skip
            else:
                span = _span(BatchSpan, (
                    base_offset, epoch, base_ts, count, bool(attributes & CONTROL_FLAG), buf,
                    pos + BATCH_OVERHEAD, batch_end, base, None,
                ))  # fmt: skip
            yield span
            pos = batch_end

    # -- errors and the general decoder ------------------------------------------------------------

    def _problem(self, problem: DecodeError) -> None:
        error = problem.located(file=str(self.path), last_good_offset=self.last_good_offset)
        if not self.skip_corrupt:
            raise error
        self.stats.problems.append(error.message)

    def _decode(
        self,
        readers: dict[int, Any],
        control: bool,
        key: int,
        version: int,
        area: Any,
        start: int,
        end: int,
        shift: int,
        offset: int,
    ) -> Any:
        """Look the reader up, decode, and turn failures into the corruption policy."""
        compiled = None
        if not control and key in self.values:
            from kcli.metadata.fastdecode import values_reader

            compiled = values_reader(key, version)
        if not control and (key << 16 | version) not in readers:
            readers[key << 16 | version] = compiled or metadata_body_reader(key, version)
        try:
            record = decode_value(key, version, control, area, start, end)
        except DecodeError as problem:
            error = problem.located(
                file=str(self.path),
                shift=shift,
                last_good_offset=self.last_good_offset,
                prefix=f"offset {offset}: ",
            )
            if not self.skip_corrupt:
                raise error from None
            self.stats.problems.append(error.message)
            self.stats.skipped_records += 1
            return RawRecord(
                key=key, version=version, control=control, data=bytes(area[start:end]), reason=problem.detail
            )
        if type(record) is RawRecord:
            self.stats.unknown += 1
        elif compiled is not None:
            # kio read a body the compiled reader left to it (e.g. an unknown tagged field).
            from kcli.metadata.fastdecode import values_of

            return values_of(record)
        return record


@functools.cache
def _noop() -> Any:
    from kcli.metadata.records import NoOpRecord

    return NoOpRecord()


def read_file(
    path: Path | str, *, skip_corrupt: bool = False, stats: ReadStats | None = None
) -> Iterator[Entry]:
    """Every record of one segment, snapshot or bootstrap.checkpoint file, decoded."""
    reader = FileReader(path=Path(path), stats=stats or ReadStats(), skip_corrupt=skip_corrupt)
    return reader.entries()
