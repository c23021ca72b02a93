"""GuardrailService: builds the guardrail pipeline at start and plugs it into the app's
seams (an `app.main.Service`).

It shares the retrieval service's embedder when there is one (one MiniLM in memory: the
rails run a sibling with bf16 linear layers over the same token embeddings, see
guardrails/models/rail_embedder.py); otherwise it loads its own, and only when an enabled rail
embeds text. The model-backed checks run on a RailsExecutor's thread with one torch thread,
so they do not fight the engine loop for cores. Seams that `create_app` was given explicitly
(not the no-op defaults) are left alone, so a caller's own hooks win over the pipeline's.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from typing import TYPE_CHECKING

from app.guard.config import guardrail_settings, needs_embedder
from app.guard.executor import RailsExecutor
from app.guard.seams import PipelineGrounding, PipelineInputCheck, PipelineOutputGuards
from app.hooks import allow_input, no_grounding, passthrough_guard
from app.state import AppState
from guardrails import GuardrailPipeline
from guardrails.models.rail_embedder import rail_embedder

if TYPE_CHECKING:
    from app.rag.service import RetrievalService
    from retrieval.embedder import Embedder

log = logging.getLogger("hearth.guardrails")


class GuardrailService:
    def __init__(
        self, retrieval: RetrievalService | None = None, embedder: Embedder | None = None
    ) -> None:
        """`retrieval`: a service started before this one, whose embedder is shared;
        `embedder`: a loaded one to use instead (tests share one across apps)."""
        self.retrieval = retrieval
        self.embedder = embedder
        self.pipeline: GuardrailPipeline | None = None
        self.executor: RailsExecutor | None = None

    async def start(self, state: AppState) -> None:
        g = state.settings.guardrails
        if not g.enabled:
            return
        settings = guardrail_settings(g)
        embedder = self.embedder
        if embedder is None and self.retrieval is not None:
            embedder = self.retrieval.embedder
        if embedder is None and needs_embedder(settings):
            from retrieval.embedder import Embedder

            embedder = await asyncio.to_thread(Embedder.load,
                                               state.settings.retrieval.embedding_model)
        executor = RailsExecutor()
        try:
            embed = None
            if embedder is not None:
                embed = (await executor.run(rail_embedder, embedder)).embed
            pipeline = await executor.run(GuardrailPipeline.from_settings, settings, embed=embed)
        except BaseException:
            executor.shutdown()  # stop() is not called for a service whose start failed
            raise
        self.executor = executor
        self.pipeline = pipeline
        hooks = state.hooks
        state.hooks = dataclasses.replace(
            hooks,
            input_check=PipelineInputCheck(pipeline, state.metrics, executor)
            if hooks.input_check is allow_input else hooks.input_check,
            output_guard=PipelineOutputGuards(pipeline, executor)
            if hooks.output_guard is passthrough_guard else hooks.output_guard,
            ground=PipelineGrounding(pipeline, executor)
            if hooks.ground is no_grounding else hooks.ground,
        )
        # What runs, not what was asked for: the judge stays out beside the 3-layer student.
        log.info("guardrails on: input %s; output %s",
                 ", ".join(r.name for r in pipeline.input_rails) or "-",
                 ", ".join(settings.output_rails) or "-")

    async def stop(self) -> None:
        self.pipeline = None
        if self.executor is not None:
            await asyncio.to_thread(self.executor.shutdown)
            self.executor = None
