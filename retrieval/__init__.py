"""Hearth retrieval: parse uploads, chunk, embed with MiniLM, search per user scope.

The app's entry points are re-exported here lazily, so importing a pure-Python module such as
retrieval.chunking does not load torch or FAISS.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "Embedder": "retrieval.embedder",
    "Retriever": "retrieval.retriever",
    "RetrievalConfig": "retrieval.retriever",
    "PreparedDocument": "retrieval.ingest",
    "ChunkingSettings": "retrieval.chunking",
    "IndexSettings": "retrieval.index",
    "SearchSettings": "retrieval.search",
    "ParseLimits": "retrieval.limits",
    "format_context": "retrieval.prompt_context",
    "PromptContext": "retrieval.prompt_context",
    "parse_document": "retrieval.parsing",
    "safe_display_name": "retrieval.filenames",
    "ChunkRecord": "retrieval.types",
    "IndexedChunk": "retrieval.types",
    "Scope": "retrieval.types",
    "Source": "retrieval.types",
    "RetrievalError": "retrieval.errors",
    "UnsupportedTypeError": "retrieval.errors",
    "UnreadableDocumentError": "retrieval.errors",
    "DocumentTooLargeError": "retrieval.errors",
    "InvalidQueryError": "retrieval.errors",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'retrieval' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
