"""The on-disk form of a vector index: one file, written atomically, checked on read.

Layout: MAGIC | header length (u32, little endian) | header JSON | FAISS-serialized index.
The header carries the payload's SHA-256, so a torn or corrupted file is detected before FAISS
parses it. Writes go to a temp file in the same folder, are fsynced, then os.replace()d over
the old file, and the folder is fsynced: a crash leaves either the old file or the new one.
"""

from __future__ import annotations

import hashlib
import json
import os
import struct
import uuid
from dataclasses import dataclass
from pathlib import Path

MAGIC = b"HEARTHVI"
FORMAT_VERSION = 1
_LEN = struct.Struct("<I")


class IndexFileError(Exception):
    """The index file is missing, torn, corrupted or from another format; rebuild it."""


@dataclass(frozen=True, slots=True)
class IndexFileHeader:
    dim: int
    kind: str
    num_vectors: int
    deleted_ids: tuple[int, ...]


def write_atomic(path: Path, chunks: list[bytes]) -> None:
    """Write the concatenation of `chunks` to `path` so readers see old or new, never half."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.parent / f".{path.name}.{uuid.uuid4().hex}.tmp"
    try:
        with open(tmp, "wb") as f:
            for chunk in chunks:
                f.write(chunk)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    _fsync_dir(path.parent)


def _fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return  # platforms without directory handles (Windows): the replace is still atomic
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def encode(header: IndexFileHeader, payload: bytes) -> list[bytes]:
    meta = {
        "format": FORMAT_VERSION,
        "dim": header.dim,
        "kind": header.kind,
        "num_vectors": header.num_vectors,
        "deleted_ids": list(header.deleted_ids),
        "sha256": hashlib.sha256(payload).hexdigest(),
    }
    raw = json.dumps(meta, separators=(",", ":")).encode()
    return [MAGIC, _LEN.pack(len(raw)), raw, payload]


def read(path: Path) -> tuple[IndexFileHeader, bytes]:
    try:
        data = path.read_bytes()
    except FileNotFoundError as exc:
        raise IndexFileError(f"no index file at {str(path)!r}") from exc
    except OSError as exc:
        raise IndexFileError(f"cannot read {str(path)!r}: {exc}") from exc
    prefix = len(MAGIC) + _LEN.size
    if len(data) < prefix or not data.startswith(MAGIC):
        raise IndexFileError(f"{str(path)!r} is not a Hearth vector index file")
    (header_len,) = _LEN.unpack_from(data, len(MAGIC))
    try:
        meta = json.loads(data[prefix : prefix + header_len])
        header = IndexFileHeader(
            dim=int(meta["dim"]),
            kind=str(meta["kind"]),
            num_vectors=int(meta["num_vectors"]),
            deleted_ids=tuple(int(i) for i in meta["deleted_ids"]),
        )
        version, digest = int(meta["format"]), str(meta["sha256"])
    except (ValueError, KeyError, TypeError) as exc:
        raise IndexFileError(f"{str(path)!r} has a corrupted header: {exc}") from exc
    if version != FORMAT_VERSION:
        raise IndexFileError(f"{str(path)!r} has format {version}, expected {FORMAT_VERSION}")
    payload = data[prefix + header_len :]
    if hashlib.sha256(payload).hexdigest() != digest:
        raise IndexFileError(f"{str(path)!r} is corrupted (checksum mismatch)")
    return header, payload
