"""The chat turn's `retrieve` hook: search the documents the asking user may see and render
the best of them as numbered sources within the turn's token budget."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from app.hooks import RetrievalResult, TurnContext
from app.protocol import Source
from app.settings import RetrievalSettings
from retrieval.errors import InvalidQueryError
from retrieval.prompt_context import format_context
from retrieval.retriever import Retriever
from retrieval.types import Scope

# Below this many tokens no source fits usefully; the search is skipped.
MIN_CONTEXT_TOKENS = 32


class DocumentSearch:
    """Scope: the user's documents not tied to a conversation, plus those uploaded into this
    conversation; never anyone else's (the scope is resolved to chunk ids before FAISS runs).

    `count_tokens` is the chat model's (as message content encodes): the budget is in the
    prompt's own tokens.
    """

    def __init__(self, retriever: Retriever, settings: RetrievalSettings,
                 count_tokens: Callable[[str], int]) -> None:
        self.retriever = retriever
        self.settings = settings
        self.count_tokens = count_tokens

    async def __call__(self, query: str, ctx: TurnContext) -> RetrievalResult:
        if not ctx.use_documents:
            return RetrievalResult()
        budget = self.settings.context_tokens
        if ctx.context_budget is not None:
            budget = min(budget, ctx.context_budget)
        if budget < MIN_CONTEXT_TOKENS:
            return RetrievalResult()
        scope = Scope(user_id=ctx.user_id, conversation_id=ctx.conversation_id)
        return await asyncio.to_thread(self._search, query, scope, budget)

    def _search(self, query: str, scope: Scope, budget: int) -> RetrievalResult:
        try:
            found = self.retriever.search(query, scope, self.settings.top_k,
                                          self.settings.min_score)
        except InvalidQueryError:
            return RetrievalResult()  # e.g. a message with no searchable text
        if not found:
            return RetrievalResult()
        context = format_context(found, budget, self.count_tokens)
        sources = tuple(
            Source(document_id=s.document_id, chunk_id=str(s.chunk_id), filename=s.filename,
                   score=s.score, text=s.text)
            for s in context.sources
        )
        return RetrievalResult(sources=sources, context=context.text)
