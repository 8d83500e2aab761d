"""Compressing a records area the way Kafka's Java code frames each codec at its default level.

A broker rebuilds a batch when the topic's compression.type differs from the producer's (KIP-390
levels at their defaults), so a batch the emulator rebuilds should be what Kafka's would be:
- gzip: java.util.zip's GZIP framing (a 10-byte header, OS 255) around zlib's deflate at level 6.
- snappy: xerial's SnappyOutputStream framing (its header, then 32 KiB blocks, each length-prefixed).
- lz4: Kafka's Lz4BlockOutputStream: an LZ4 frame with independent 64 KiB blocks, no checksums, the
  descriptor's XXHash32 byte, blocks compressed at level 9 (LZ4HC) or stored when that is no smaller.
- zstd: a zstd frame at level 3 written as a stream, flushed and ended (no content size; an empty
  last block), as Kafka's zstd-jni stream writes it.
"""

from __future__ import annotations

import struct
import zlib

XERIAL_HEADER = b"\x82SNAPPY\x00" + struct.pack(">ii", 1, 1)
SNAPPY_BLOCK = 32 * 1024
LZ4_MAGIC = 0x184D2204
LZ4_FLG = 0x60  # version 01, independent blocks
LZ4_BD = 0x40  # 64 KiB blocks
LZ4_BLOCK = 64 * 1024
LZ4_STORED = 0x80000000
GZIP_HEADER = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"  # no name or time, OS "unknown"


def compress(codec: int, data: bytes) -> bytes:
    """The records area `data` compressed with Kafka codec `codec` (1 gzip, 2 snappy, 3 lz4, 4 zstd)."""
    if codec == 1:
        return _gzip(data)
    if codec == 2:
        return _snappy(data)
    if codec == 3:
        return _lz4(data)
    if codec == 4:
        import cramjam

        # a stream flushed, then ended: no content size, the data's blocks and an empty last block, as
        # Kafka's zstd-jni stream writes when its buffered stream is closed
        streamed = cramjam.zstd.Compressor(level=3)
        streamed.compress(data)
        return bytes(streamed.flush()) + bytes(streamed.finish())
    return data


def _gzip(data: bytes) -> bytes:
    deflater = zlib.compressobj(6, zlib.DEFLATED, -15)
    body = deflater.compress(data) + deflater.flush()
    return GZIP_HEADER + body + struct.pack("<II", zlib.crc32(data) & 0xFFFFFFFF, len(data) & 0xFFFFFFFF)


def _snappy(data: bytes) -> bytes:
    import cramjam

    out = bytearray(XERIAL_HEADER)
    for start in range(0, len(data), SNAPPY_BLOCK):
        block = bytes(cramjam.snappy.compress_raw(data[start : start + SNAPPY_BLOCK]))
        out += struct.pack(">i", len(block)) + block
    return bytes(out)


def _lz4(data: bytes) -> bytes:
    import cramjam

    descriptor = bytes([LZ4_FLG, LZ4_BD])
    out = bytearray(struct.pack("<I", LZ4_MAGIC) + descriptor + bytes([(xxh32(descriptor) >> 8) & 0xFF]))
    for start in range(0, len(data), LZ4_BLOCK):
        raw = data[start : start + LZ4_BLOCK]
        packed = bytes(
            cramjam.lz4.compress_block(raw, mode="high_compression", compression=9, store_size=False)
        )
        if len(packed) >= len(raw):
            out += struct.pack("<I", len(raw) | LZ4_STORED) + raw
        else:
            out += struct.pack("<I", len(packed)) + packed
    out += struct.pack("<I", 0)
    return bytes(out)


_P1, _P2, _P3, _P4, _P5 = 2654435761, 2246822519, 3266489917, 668265263, 374761393
_MASK = 0xFFFFFFFF


def _rotl(value: int, bits: int) -> int:
    return ((value << bits) | (value >> (32 - bits))) & _MASK


def xxh32(data: bytes, seed: int = 0) -> int:
    """XXHash32 of `data` (the LZ4 frame descriptor's checksum)."""
    length = len(data)
    position = 0
    if length >= 16:
        lanes = [(seed + _P1 + _P2) & _MASK, (seed + _P2) & _MASK, seed & _MASK, (seed - _P1) & _MASK]
        while position + 16 <= length:
            for lane in range(4):
                (word,) = struct.unpack_from("<I", data, position)
                lanes[lane] = (_rotl((lanes[lane] + word * _P2) & _MASK, 13) * _P1) & _MASK
                position += 4
        value = (_rotl(lanes[0], 1) + _rotl(lanes[1], 7) + _rotl(lanes[2], 12) + _rotl(lanes[3], 18)) & _MASK
    else:
        value = (seed + _P5) & _MASK
    value = (value + length) & _MASK
    while position + 4 <= length:
        (word,) = struct.unpack_from("<I", data, position)
        value = (_rotl((value + word * _P3) & _MASK, 17) * _P4) & _MASK
        position += 4
    while position < length:
        value = (_rotl((value + data[position] * _P5) & _MASK, 11) * _P1) & _MASK
        position += 1
    value ^= value >> 15
    value = (value * _P2) & _MASK
    value ^= value >> 13
    value = (value * _P3) & _MASK
    value ^= value >> 16
    return value
