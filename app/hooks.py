"""Seams where guardrails and retrieval plug into a chat turn, with no-op defaults.

The chat pipeline calls, in order: `input_check` (before anything else sees the text),
`retrieve` (sources + the context text rendered into the prompt), then streams the engine's
text through an `OutputGuard` that releases only checked text, and, when sources were used,
`ground` on the finished answer. Implementations run their model work in worker threads;
these calls are awaited on the event loop.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

from app.protocol import Source, UnsupportedSentence


@dataclass(frozen=True, slots=True)
class TurnContext:
    """Who is asking and where; handed to every hook."""

    user_id: str
    conversation_id: str | None
    message_id: str | None
    system_prompt: str | None
    use_documents: bool
    # Prompt tokens retrieved context may take without pushing history out of the model's
    # context (None: no limit beyond the retrieval settings).
    context_budget: int | None = None


@dataclass(frozen=True, slots=True)
class GuardEvent:
    """One guardrail action to record in the moderation table."""

    stage: Literal["input", "output"]
    rail: str
    action: Literal["block", "redact", "flag"]
    reason: str
    excerpt: str


@dataclass(frozen=True, slots=True)
class InputDecision:
    blocked: bool = False
    rail: str = ""
    reason: str = ""
    text: str | None = None  # a rewritten (e.g. redacted) input to use instead, if any
    events: tuple[GuardEvent, ...] = ()


@dataclass(frozen=True, slots=True)
class OutputDecision:
    release: str = ""  # text checked and safe to send now
    blocked: bool = False
    rail: str = ""
    reason: str = ""
    events: tuple[GuardEvent, ...] = ()


@dataclass(frozen=True, slots=True)
class RetrievalResult:
    sources: tuple[Source, ...] = ()
    context: str = ""  # rendered into the user's turn of the prompt


@dataclass(frozen=True, slots=True)
class GroundingDecision:
    unsupported: tuple[UnsupportedSentence, ...] = ()  # spans refer to the answer checked
    events: tuple[GuardEvent, ...] = ()  # one `flag` per unsupported sentence


class InputCheck(Protocol):
    async def __call__(self, text: str, ctx: TurnContext) -> InputDecision: ...


class Retriever(Protocol):
    async def __call__(self, query: str, ctx: TurnContext) -> RetrievalResult: ...


class OutputGuard(Protocol):
    async def feed(self, text: str) -> OutputDecision: ...

    async def finish(self) -> OutputDecision: ...


class OutputGuardFactory(Protocol):
    def __call__(self, ctx: TurnContext) -> OutputGuard: ...


class Grounder(Protocol):
    """Checks a finished answer (the text the client received) against the sources the turn
    retrieved."""

    async def __call__(
        self, answer: str, sources: Sequence[Source], ctx: TurnContext
    ) -> GroundingDecision: ...


async def allow_input(text: str, ctx: TurnContext) -> InputDecision:
    return InputDecision()


async def no_retrieval(query: str, ctx: TurnContext) -> RetrievalResult:
    return RetrievalResult()


class PassthroughGuard:
    """Releases every delta as it comes."""

    async def feed(self, text: str) -> OutputDecision:
        return OutputDecision(release=text)

    async def finish(self) -> OutputDecision:
        return OutputDecision()


def passthrough_guard(ctx: TurnContext) -> OutputGuard:
    return PassthroughGuard()


async def no_grounding(
    answer: str, sources: Sequence[Source], ctx: TurnContext
) -> GroundingDecision:
    return GroundingDecision()


@dataclass(frozen=True, slots=True)
class ChunkDraft:
    """A chunk of an uploaded document, before the database gives it an id."""

    ordinal: int
    text: str
    char_start: int
    char_end: int
    page: int | None = None


@dataclass(frozen=True, slots=True)
class PreparedUpload:
    """An upload parsed and chunked, not yet embedded."""

    filename: str  # a display name, never a path
    content_type: str  # judged from the content, not from what the client claimed
    chunks: tuple[ChunkDraft, ...]


@dataclass(frozen=True, slots=True)
class StoredDocument:
    """A document whose chunk rows are stored; `chunk_ids[i]` is the row of `chunks[i]`."""

    document_id: str
    user_id: str
    conversation_id: str | None
    filename: str
    content_type: str
    chunks: tuple[ChunkDraft, ...]
    chunk_ids: tuple[int, ...]


IngestProgress = Callable[[int, int], None]  # (chunks embedded so far, total chunks)


class DocumentIngestor(Protocol):
    """The retrieval package's side of uploads: it parses and indexes, the app stores rows.

    `prepare` (fast: parse + chunk) answers the upload and raises an `app.errors.AppError`
    (413 too large, 415 unsupported type, 422 unreadable) for a bad file; `index` (slow:
    embed, then add under the stored ids) runs in the background and calls `progress` from a
    worker thread after each batch (an exception raised by `progress` stops it); `remove`
    drops chunk ids from the index (unknown ids are ignored).
    """

    async def prepare(self, filename: str | None, data: bytes) -> PreparedUpload: ...

    async def index(self, document: StoredDocument, progress: IngestProgress) -> None: ...

    async def remove(self, chunk_ids: Sequence[int]) -> None: ...


@dataclass(frozen=True)
class TurnHooks:
    input_check: InputCheck = allow_input
    retrieve: Retriever = no_retrieval
    output_guard: OutputGuardFactory = passthrough_guard
    documents: DocumentIngestor | None = None
    ground: Grounder = no_grounding
