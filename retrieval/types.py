"""The dataclasses retrieval exchanges with the app: what it parses, stores, finds and cites.

Ids follow the app's schema: users, conversations and documents have string ids; a chunk's id
is the database's integer primary key, which is also its vector id in the FAISS index.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class TextSection:
    """A run of document text; `page` is 1-based for PDFs and None for other types."""

    text: str
    page: int | None = None


@dataclass(frozen=True, slots=True)
class ParsedDocument:
    """Text taken out of an upload. `text` joins the sections with SECTION_SEPARATOR; chunk
    offsets (char_start, char_end) index into that joined text."""

    display_name: str
    kind: str  # "text" | "markdown" | "html" | "pdf" | "docx"
    sections: tuple[TextSection, ...]

    SECTION_SEPARATOR = "\n\n"

    @property
    def text(self) -> str:
        return self.SECTION_SEPARATOR.join(s.text for s in self.sections)


@dataclass(frozen=True, slots=True)
class TextChunk:
    """One chunk as the chunker makes it: text == document_text[char_start:char_end]."""

    ordinal: int
    text: str
    page: int | None
    char_start: int
    char_end: int
    num_tokens: int


@dataclass(frozen=True, slots=True)
class ChunkRecord:
    """What the app stores per chunk (its `chunks` table); the row's id becomes the chunk id."""

    document_id: str
    ordinal: int
    text: str
    page: int | None
    char_start: int
    char_end: int


@dataclass(frozen=True, slots=True)
class IndexedChunk:
    """A stored chunk with its owner scope, as the app hands it back at start-up and after an
    insert: everything search needs to filter by scope and to cite the chunk."""

    chunk_id: int
    document_id: str
    owner_id: str
    conversation_id: str | None  # None: visible in all of the owner's conversations
    filename: str
    ordinal: int
    text: str
    page: int | None = None


@dataclass(frozen=True, slots=True)
class Scope:
    """Which chunks a search may return: the user's own documents that are not tied to a
    conversation, plus those uploaded into `conversation_id` (when given)."""

    user_id: str
    conversation_id: str | None = None


@dataclass(frozen=True, slots=True)
class Source:
    """One search hit, in the shape of the protocol's citation (plus page)."""

    document_id: str
    chunk_id: int
    filename: str
    score: float
    text: str
    page: int | None = None
