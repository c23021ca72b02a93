"""Typed errors the retrieval package raises; each names the offending value.

The app maps them to HTTP answers: UnsupportedTypeError -> 415, UnreadableDocumentError -> 422
(its subclass DocumentTooLargeError may be answered 413), the other input errors -> 422/400.
"""

from __future__ import annotations


class RetrievalError(Exception):
    """Base class of every error the retrieval package raises on purpose."""


class EmbedderLoadError(RetrievalError):
    """The embedding model folder is missing, incomplete or not a BERT encoder."""


class UnsupportedTypeError(RetrievalError, ValueError):
    """An upload whose content is not a supported type, or does not match its extension."""


class UnreadableDocumentError(RetrievalError, ValueError):
    """An upload of a supported type from which no text can be taken (empty, encrypted, broken)."""

    def __init__(self, filename: str, reason: str) -> None:
        self.filename = filename
        self.reason = reason
        super().__init__(f"cannot read {filename!r}: {reason}")


class DocumentTooLargeError(UnreadableDocumentError):
    """An upload over a parse limit (bytes, pages, text), or an archive that would expand past
    its limits (a zip bomb). A kind of UnreadableDocumentError (422); the app may answer 413."""


class InvalidSettingError(RetrievalError, ValueError):
    """A retrieval setting outside its allowed range."""


class InvalidQueryError(RetrievalError, ValueError):
    """A search request with a bad argument (k, min_score, an empty query)."""


class VectorIndexError(RetrievalError, ValueError):
    """A bad call on the vector index: wrong vector shape, duplicate or unknown chunk ids."""
