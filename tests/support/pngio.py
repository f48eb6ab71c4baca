"""A tiny PNG reader and writer for the golden pictures (numpy and zlib only, no pygame).

Pictures are ``(height, width, 3)`` uint8 arrays. Writing uses a palette when the picture has at
most 256 colours (the zone layer has four), else 8-bit RGB. Reading accepts what this module
writes and any other non-interlaced 8-bit greyscale, RGB, RGBA or palette PNG, so a golden
re-compressed by another tool still loads; the comparison is on pixels, never on bytes.
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

import numpy as np

_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _chunk(kind: bytes, data: bytes) -> bytes:
    crc = zlib.crc32(kind + data) & 0xFFFFFFFF
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)


def encode_png(image: np.ndarray) -> bytes:
    """Encode an ``(h, w, 3)`` uint8 picture as PNG bytes (deterministic)."""
    img = np.ascontiguousarray(image, dtype=np.uint8)
    if img.ndim != 3 or img.shape[2] != 3:
        raise ValueError(f"expected an (h, w, 3) picture, got shape {img.shape}")
    h, w, _ = img.shape
    flat = img.reshape(-1, 3).astype(np.uint32)
    packed = (flat[:, 0] << 16) | (flat[:, 1] << 8) | flat[:, 2]
    keys, index = np.unique(packed, return_inverse=True)
    if len(keys) <= 256:
        rows = index.reshape(h, w).astype(np.uint8)
        header = struct.pack(">IIBBBBB", w, h, 8, 3, 0, 0, 0)
        colours = np.column_stack([keys >> 16, (keys >> 8) & 0xFF, keys & 0xFF]).astype(np.uint8)
        extra = _chunk(b"PLTE", colours.tobytes())
    else:
        rows = img.reshape(h, w * 3)
        header = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)
        extra = b""
    raw = np.hstack([np.zeros((h, 1), dtype=np.uint8), rows]).tobytes()  # filter 0 on every row
    return (_SIGNATURE + _chunk(b"IHDR", header) + extra
            + _chunk(b"IDAT", zlib.compress(raw, 9)) + _chunk(b"IEND", b""))


def write_png(path: Path, image: np.ndarray) -> Path:
    """Write ``image`` to ``path`` (folders created)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(encode_png(image))
    return path


def _unfilter(data: bytes, h: int, stride: int, bpp: int) -> np.ndarray:
    out = np.zeros((h, stride), dtype=np.uint8)
    prev = np.zeros(stride, dtype=np.int32)
    pos = 0
    for y in range(h):
        ftype = data[pos]
        line = np.frombuffer(data, dtype=np.uint8, count=stride, offset=pos + 1).astype(np.int32)
        pos += stride + 1
        if ftype == 0:
            cur = line
        elif ftype == 2:
            cur = (line + prev) & 0xFF
        else:
            cur = np.zeros(stride, dtype=np.int32)
            for i in range(stride):
                a = cur[i - bpp] if i >= bpp else 0
                b = prev[i]
                c = prev[i - bpp] if i >= bpp else 0
                if ftype == 1:
                    pred = a
                elif ftype == 3:
                    pred = (a + b) // 2
                elif ftype == 4:
                    p = a + b - c
                    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                    pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                else:
                    raise ValueError(f"unknown PNG filter {ftype}")
                cur[i] = (line[i] + pred) & 0xFF
        out[y] = cur
        prev = cur
    return out


def read_png(path: Path) -> np.ndarray:
    """Read a PNG as an ``(h, w, 3)`` uint8 array (alpha, if any, is dropped)."""
    blob = Path(path).read_bytes()
    if not blob.startswith(_SIGNATURE):
        raise ValueError(f"{path}: not a PNG file")
    pos = len(_SIGNATURE)
    idat = b""
    palette = None
    w = h = depth = ctype = interlace = 0
    while pos < len(blob):
        (length,) = struct.unpack(">I", blob[pos:pos + 4])
        kind = blob[pos + 4:pos + 8]
        data = blob[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", data)
        elif kind == b"PLTE":
            palette = np.frombuffer(data, dtype=np.uint8).reshape(-1, 3)
        elif kind == b"IDAT":
            idat += data
        elif kind == b"IEND":
            break
    channels = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}.get(ctype)
    if depth != 8 or interlace or channels is None:
        raise ValueError(f"{path}: unsupported PNG (bit depth {depth}, colour type {ctype})")
    rows = _unfilter(zlib.decompress(idat), h, w * channels, channels)
    pix = rows.reshape(h, w, channels)
    if ctype == 3:
        if palette is None:
            raise ValueError(f"{path}: palette PNG without a palette")
        return palette[pix[:, :, 0]]
    if ctype in (0, 4):
        return np.repeat(pix[:, :, :1], 3, axis=2)
    return np.ascontiguousarray(pix[:, :, :3])
