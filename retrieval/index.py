"""The FAISS vector index: chunk ids -> unit vectors, inner-product (cosine) search.

"flat" (default) is IndexIDMap2 over IndexFlatIP: exact, removal in place. "hnsw" is
IndexIDMap2 over IndexHNSWFlat for large collections: HNSW cannot remove vectors, so removed
ids become tombstones excluded from every search, and the graph is rebuilt once tombstones
pass a quarter of it.

Scope filtering happens inside the search: an allowed set small enough is scored exactly
from the stored vectors; a larger one goes to FAISS as an IDSelector, and if a filtered HNSW
walk comes back short the allowed set is scored exactly. So a search returns
min(k, |allowed ∩ index|) hits, never fewer because of filtering.

Invariant: `_live` is exactly the set of ids FAISS holds minus `_deleted`; one lock guards
all of it, so concurrent uploads, deletes and searches are safe.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import faiss
import numpy as np

from retrieval import index_file
from retrieval.errors import InvalidSettingError, VectorIndexError

INDEX_FILENAME = "vectors.hvi"
INDEX_KINDS = ("flat", "hnsw")
_COMPACT_FRACTION = 0.25

FetchVectors = Callable[[Sequence[int]], np.ndarray]


@dataclass(frozen=True, slots=True)
class IndexSettings:
    kind: str = "flat"
    hnsw_m: int = 32
    hnsw_ef_construction: int = 80
    hnsw_ef_search: int = 64
    # Allowed sets up to this size are scored exactly instead of filtered through FAISS.
    exact_search_max_ids: int = 4096
    rebuild_batch_size: int = 256

    def __post_init__(self) -> None:
        if self.kind not in INDEX_KINDS:
            raise InvalidSettingError(f"index kind must be one of {INDEX_KINDS}, got {self.kind!r}")
        for name in ("hnsw_m", "hnsw_ef_construction", "hnsw_ef_search", "rebuild_batch_size"):
            if getattr(self, name) <= 0:
                raise InvalidSettingError(f"{name} must be positive, got {getattr(self, name)}")
        if self.exact_search_max_ids < 0:
            raise InvalidSettingError(
                f"exact_search_max_ids must be >= 0, got {self.exact_search_max_ids}"
            )


@dataclass(frozen=True, slots=True)
class LoadReport:
    """How load_or_rebuild got its index: "loaded" as saved, "repaired" (ids added/removed to
    match the database) or "rebuilt" (file missing, corrupt or of other settings)."""

    status: str
    num_added: int
    num_removed: int
    reason: str = ""


def _as_ids(ids: Iterable[int]) -> np.ndarray:
    return np.fromiter((int(i) for i in ids), dtype=np.int64)


class VectorIndex:
    def __init__(self, dim: int, settings: IndexSettings | None = None) -> None:
        if dim <= 0:
            raise InvalidSettingError(f"dim must be positive, got {dim}")
        self.dim = dim
        self.settings = settings or IndexSettings()
        self._lock = threading.RLock()
        self._save_lock = threading.Lock()
        self._faiss = self._new_faiss()
        self._live: set[int] = set()
        self._deleted: set[int] = set()

    def _new_faiss(self) -> faiss.IndexIDMap2:
        inner: faiss.Index
        if self.settings.kind == "hnsw":
            hnsw = faiss.IndexHNSWFlat(self.dim, self.settings.hnsw_m, faiss.METRIC_INNER_PRODUCT)
            hnsw.hnsw.efConstruction = self.settings.hnsw_ef_construction
            inner = hnsw
        else:
            inner = faiss.IndexFlatIP(self.dim)
        return faiss.IndexIDMap2(inner)

    def __len__(self) -> int:
        with self._lock:
            return len(self._live)

    def __contains__(self, chunk_id: object) -> bool:
        with self._lock:
            return chunk_id in self._live

    def ids(self) -> set[int]:
        with self._lock:
            return set(self._live)

    def add(self, ids: Sequence[int], vectors: np.ndarray) -> None:
        """Add vectors (n, dim) under new chunk ids; ids already present are refused."""
        id_array = _as_ids(ids)
        vectors = np.ascontiguousarray(vectors, dtype=np.float32)
        if vectors.ndim != 2 or vectors.shape != (len(id_array), self.dim):
            raise VectorIndexError(
                f"expected vectors of shape ({len(id_array)}, {self.dim}), got {vectors.shape}"
            )
        if len(set(id_array.tolist())) != len(id_array):
            raise VectorIndexError("duplicate chunk ids in one add")
        if not np.isfinite(vectors).all():
            raise VectorIndexError("vectors contain NaN or infinity")
        if len(id_array) == 0:
            return
        with self._lock:
            present = self._live.intersection(id_array.tolist())
            if present:
                raise VectorIndexError(f"chunk ids already indexed: {sorted(present)[:10]}")
            if self._deleted.intersection(id_array.tolist()):
                self._compact()  # an id coming back: drop its tombstoned vector first
            self._faiss.add_with_ids(vectors, id_array)
            self._live.update(id_array.tolist())

    def remove(self, ids: Iterable[int]) -> int:
        """Remove chunk ids; unknown ids are ignored. Returns how many were removed."""
        with self._lock:
            doomed = self._live.intersection(int(i) for i in ids)
            if not doomed:
                return 0
            self._live.difference_update(doomed)
            if self.settings.kind == "hnsw":
                self._deleted.update(doomed)
                if len(self._deleted) > _COMPACT_FRACTION * self._faiss.ntotal:
                    self._compact()
            else:
                self._faiss.remove_ids(faiss.IDSelectorBatch(_as_ids(doomed)))
            return len(doomed)

    def _compact(self) -> None:
        """Rebuild the FAISS index from the live vectors, dropping tombstones."""
        live = _as_ids(sorted(self._live))
        vectors = self._faiss.reconstruct_batch(live) if len(live) else None
        self._faiss = self._new_faiss()
        self._deleted.clear()
        if vectors is not None:
            self._faiss.add_with_ids(vectors, live)

    def vectors(self, ids: Sequence[int]) -> np.ndarray:
        """The stored vectors of `ids` (n, dim)."""
        with self._lock:
            unknown = [i for i in ids if i not in self._live]
            if unknown:
                raise VectorIndexError(f"chunk ids not in the index: {unknown[:10]}")
            return self._faiss.reconstruct_batch(_as_ids(ids)).reshape(len(ids), self.dim)

    def search(
        self, query: np.ndarray, k: int, allowed: Iterable[int] | None = None
    ) -> list[tuple[int, float]]:
        """Top-k (chunk_id, inner product) among `allowed` (None: all), best first, ties by id."""
        q = np.ascontiguousarray(query, dtype=np.float32).reshape(1, -1)  # (1, dim)
        if q.shape[1] != self.dim:
            raise VectorIndexError(f"query has dimension {q.shape[1]}, expected {self.dim}")
        if k <= 0:
            raise VectorIndexError(f"k must be positive, got {k}")
        with self._lock:
            if allowed is None:
                hits = self._search_all(q, k)
            else:
                candidates = self._live.intersection(int(i) for i in allowed)
                if len(candidates) <= self.settings.exact_search_max_ids:
                    hits = self._search_exact(q, k, candidates)
                else:
                    hits = self._search_filtered(q, k, candidates)
        hits.sort(key=lambda hit: (-hit[1], hit[0]))
        return hits

    def _search_all(self, q: np.ndarray, k: int) -> list[tuple[int, float]]:
        n = min(k, len(self._live))
        if n == 0:
            return []
        if self._deleted:
            tombstones = faiss.IDSelectorBatch(_as_ids(self._deleted))
            return self._search_filtered(q, k, self._live, faiss.IDSelectorNot(tombstones))
        scores, ids = self._faiss.search(q, n, params=self._params(None, n))
        return [(int(i), float(s)) for i, s in zip(ids[0], scores[0], strict=True) if i >= 0]

    def _search_exact(self, q: np.ndarray, k: int, candidates: set[int]) -> list[tuple[int, float]]:
        if not candidates:
            return []
        ids = _as_ids(sorted(candidates))
        stored = self._faiss.reconstruct_batch(ids).reshape(len(ids), self.dim)  # (n, dim)
        scores = stored @ q[0]  # (n,)
        top = np.lexsort((ids, -scores))[:k]  # by score descending, then id
        return [(int(ids[i]), float(scores[i])) for i in top]

    def _search_filtered(
        self,
        q: np.ndarray,
        k: int,
        candidates: set[int],
        selector: faiss.IDSelector | None = None,
    ) -> list[tuple[int, float]]:
        """Search through FAISS restricted to `candidates` (by `selector` when the caller
        has a cheaper one describing the same set)."""
        n = min(k, len(candidates))
        if n == 0:
            return []
        if selector is None:
            selector = faiss.IDSelectorBatch(_as_ids(candidates))
        scores, ids = self._faiss.search(q, n, params=self._params(selector, n))
        hits = [(int(i), float(s)) for i, s in zip(ids[0], scores[0], strict=True) if i >= 0]
        if len(hits) < n:
            # A filtered HNSW walk can miss members; exact scoring is always complete.
            return self._search_exact(q, k, candidates)
        return hits

    def _params(self, selector: faiss.IDSelector | None, k: int) -> faiss.SearchParameters:
        # Attributes are set one by one: faiss's type stubs lack these constructors' keywords.
        params: faiss.SearchParameters
        if self.settings.kind == "hnsw":
            hnsw_params = faiss.SearchParametersHNSW()  # type: ignore[attr-defined]
            hnsw_params.efSearch = max(self.settings.hnsw_ef_search, k)
            params = hnsw_params
        else:
            params = faiss.SearchParameters()
        if selector is not None:
            params.sel = selector
        return params

    def save(self, folder: Path | str) -> Path:
        """Write the index to folder/INDEX_FILENAME atomically; returns the file's path."""
        path = Path(folder) / INDEX_FILENAME
        with self._save_lock:
            with self._lock:
                payload = faiss.serialize_index(self._faiss).tobytes()
                header = index_file.IndexFileHeader(
                    dim=self.dim,
                    kind=self.settings.kind,
                    num_vectors=len(self._live),
                    deleted_ids=tuple(sorted(self._deleted)),
                )
            index_file.write_atomic(path, index_file.encode(header, payload))
        return path

    @classmethod
    def load(
        cls, folder: Path | str, dim: int, settings: IndexSettings | None = None
    ) -> VectorIndex:
        """Read folder/INDEX_FILENAME; raises IndexFileError if it is missing, corrupt or was
        written for another dimension or kind."""
        path = Path(folder) / INDEX_FILENAME
        header, payload = index_file.read(path)
        index = cls(dim, settings)
        if header.dim != dim or header.kind != index.settings.kind:
            raise index_file.IndexFileError(
                f"{str(path)!r} holds a {header.kind} index of dim {header.dim}, "
                f"expected {index.settings.kind} of dim {dim}"
            )
        try:
            loaded = faiss.deserialize_index(np.frombuffer(payload, dtype=np.uint8))
        except RuntimeError as exc:
            raise index_file.IndexFileError(f"{str(path)!r}: FAISS cannot read it: {exc}") from exc
        if not isinstance(loaded, faiss.IndexIDMap2) or loaded.d != dim:
            raise index_file.IndexFileError(f"{str(path)!r} is not an id-mapped index of dim {dim}")
        stored = set(faiss.vector_to_array(loaded.id_map).tolist())
        deleted = set(header.deleted_ids)
        if not deleted <= stored or len(stored) - len(deleted) != header.num_vectors:
            raise index_file.IndexFileError(f"{str(path)!r}: header and index disagree")
        index._faiss = loaded
        index._live = stored - deleted
        index._deleted = deleted
        return index


def load_or_rebuild(
    folder: Path | str,
    expected_ids: Iterable[int],
    fetch_vectors: FetchVectors,
    dim: int,
    settings: IndexSettings | None = None,
) -> tuple[VectorIndex, LoadReport]:
    """The index saved in `folder`, made to hold exactly `expected_ids` (the database's chunk
    ids, the source of truth). Ids it lacks are fetched with `fetch_vectors(ids) -> (n, dim)`,
    ids it has in excess are removed; a missing or corrupt file is rebuilt from scratch. The
    result is saved whenever it differs from the file."""
    settings = settings or IndexSettings()
    expected = {int(i) for i in expected_ids}
    try:
        index = VectorIndex.load(folder, dim, settings)
        status, reason = "loaded", ""
    except index_file.IndexFileError as exc:
        index = VectorIndex(dim, settings)
        status, reason = "rebuilt", str(exc)
    stale = index.ids() - expected
    missing = sorted(expected - index.ids())
    num_removed = index.remove(stale)
    for start in range(0, len(missing), settings.rebuild_batch_size):
        batch = missing[start : start + settings.rebuild_batch_size]
        vectors = np.asarray(fetch_vectors(batch), dtype=np.float32)
        if vectors.shape != (len(batch), dim):
            raise VectorIndexError(
                f"fetch_vectors returned shape {vectors.shape} for {len(batch)} ids, "
                f"expected ({len(batch)}, {dim})"
            )
        index.add(batch, vectors)
    if status == "loaded" and (stale or missing):
        status = "repaired"
        reason = f"{len(missing)} chunk ids missing, {len(stale)} stale"
    if status != "loaded":
        index.save(folder)
    return index, LoadReport(status, len(missing), num_removed, reason)
