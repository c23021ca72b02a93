"""What the index knows about each chunk besides its vector: owner scope, document, text.

Rebuilt from the database at start-up (the app hands over every stored chunk) and updated on
every upload and delete; never persisted by retrieval itself.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Sequence

from retrieval.errors import VectorIndexError
from retrieval.types import IndexedChunk, Scope


class ChunkCatalog:
    """Chunk entries with lookups by document and by scope.

    Invariant: every entry's id is in exactly one scope bucket, the owner's global bucket
    (conversation_id None) or its (owner, conversation) bucket, and in its document's set.
    """

    def __init__(self, entries: Iterable[IndexedChunk] = ()) -> None:
        self._lock = threading.Lock()
        self._by_id: dict[int, IndexedChunk] = {}
        self._by_scope: dict[tuple[str, str | None], set[int]] = {}
        self._by_document: dict[str, set[int]] = {}
        self.add(entries)

    def __len__(self) -> int:
        with self._lock:
            return len(self._by_id)

    def ids(self) -> set[int]:
        with self._lock:
            return set(self._by_id)

    def add(self, entries: Iterable[IndexedChunk]) -> None:
        entries = list(entries)
        with self._lock:
            clashes = [e.chunk_id for e in entries if e.chunk_id in self._by_id]
            if clashes or len({e.chunk_id for e in entries}) != len(entries):
                raise VectorIndexError(f"chunk ids already in the catalog: {clashes[:10]}")
            for e in entries:
                self._by_id[e.chunk_id] = e
                self._by_scope.setdefault((e.owner_id, e.conversation_id), set()).add(e.chunk_id)
                self._by_document.setdefault(e.document_id, set()).add(e.chunk_id)

    def remove(self, chunk_ids: Iterable[int]) -> list[IndexedChunk]:
        """Remove entries by id (unknown ids ignored); returns the removed entries."""
        removed = []
        with self._lock:
            for chunk_id in chunk_ids:
                entry = self._by_id.pop(int(chunk_id), None)
                if entry is None:
                    continue
                removed.append(entry)
                self._discard(self._by_scope, (entry.owner_id, entry.conversation_id), entry)
                self._discard(self._by_document, entry.document_id, entry)
        return removed

    @staticmethod
    def _discard(buckets: dict, key: object, entry: IndexedChunk) -> None:
        bucket = buckets[key]
        bucket.discard(entry.chunk_id)
        if not bucket:
            del buckets[key]

    def document_chunk_ids(self, document_id: str) -> set[int]:
        with self._lock:
            return set(self._by_document.get(document_id, ()))

    def allowed_ids(self, scope: Scope) -> set[int]:
        """Chunk ids the scope may see: the user's global documents plus, with a
        conversation, the documents uploaded into that conversation."""
        with self._lock:
            allowed = set(self._by_scope.get((scope.user_id, None), ()))
            if scope.conversation_id is not None:
                allowed |= self._by_scope.get((scope.user_id, scope.conversation_id), set())
            return allowed

    def get(self, chunk_ids: Sequence[int]) -> dict[int, IndexedChunk]:
        """Entries of those ids still present (a concurrent delete may have taken some)."""
        with self._lock:
            return {i: self._by_id[i] for i in chunk_ids if i in self._by_id}

    def texts(self, chunk_ids: Sequence[int]) -> list[str]:
        with self._lock:
            missing = [i for i in chunk_ids if i not in self._by_id]
            if missing:
                raise VectorIndexError(f"chunk ids not in the catalog: {missing[:10]}")
            return [self._by_id[i].text for i in chunk_ids]
