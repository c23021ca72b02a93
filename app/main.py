"""create_app(settings, engine_factory): the Starlette app and its lifespan."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import AsyncExitStack, asynccontextmanager
from typing import Protocol

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.routing import WebSocketRoute

from app.db.session import Database
from app.engine_port import EngineLike
from app.errors import AppError
from app.generations import GenerationHub
from app.hooks import TurnHooks
from app.http import app_error_handler, http_error_handler, internal_error_handler
from app.ingestion import IngestionJobs
from app.limits import Admission
from app.metrics import Metrics
from app.prompt import PromptBuilder
from app.routes import admin, auth, conversations, documents, health, openai, ui
from app.settings import Settings
from app.state import AppState
from app.ws import websocket_endpoint

log = logging.getLogger("hearth.app")

EngineFactory = Callable[[Settings], EngineLike]


class Service(Protocol):
    """Something with a lifetime tied to the app's (e.g. the retrieval index): started after
    the database and engine, stopped before them."""

    async def start(self, state: AppState) -> None: ...

    async def stop(self) -> None: ...


def default_engine_factory(settings: Settings) -> EngineLike:
    """Load the configured model into an `engine.AsyncEngine` (blocking: seconds)."""
    from engine import AsyncEngine

    return AsyncEngine(settings.engine.to_engine_config())  # type: ignore[no-any-return]


def default_services(settings: Settings) -> list[Service]:
    """The services `hearth serve` runs: retrieval (documents) and the guardrails, each
    unless it is disabled. Guardrails start after retrieval and share its embedder."""
    services: list[Service] = []
    retrieval = None
    if settings.retrieval.enabled:
        from app.rag.service import RetrievalService  # loads torch and FAISS

        retrieval = RetrievalService()
        services.append(retrieval)
    if settings.guardrails.enabled:
        from app.guard.service import GuardrailService  # loads the guardrail models

        services.append(GuardrailService(retrieval))
    return services


def create_app(
    settings: Settings | None = None,
    engine_factory: EngineFactory = default_engine_factory,
    hooks: TurnHooks | None = None,
    services: Sequence[Service] = (),
) -> Starlette:
    settings = settings if settings is not None else Settings()
    hooks = hooks if hooks is not None else TurnHooks()

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        # Each resource is released in reverse order of acquisition, also when a later
        # step of the start fails.
        async with AsyncExitStack() as stack:
            settings.data_dir.mkdir(parents=True, exist_ok=True)
            db = Database(settings.resolved_database_url, settings.database_schema)
            stack.push_async_callback(db.dispose)
            await db.migrate()
            recovered = await db.recover_interrupted()
            if recovered:
                log.warning("marked %d messages left streaming by a previous run interrupted",
                            recovered)
            engine = await asyncio.to_thread(engine_factory, settings)
            stack.push_async_callback(engine.shutdown)
            engine.start()
            hub = GenerationHub(settings.server.finished_generation_retention_seconds)
            state = AppState(
                settings=settings, engine=engine, db=db, hub=hub,
                admission=Admission(settings.limits, hub, engine.stats),
                metrics=Metrics(engine.stats), hooks=hooks,
                prompts=PromptBuilder(engine.tokenizer, engine.max_model_len),
                ingestion=IngestionJobs(db, settings.retrieval.max_concurrent_ingestions),
            )
            app.state.hearth = state
            for service in services:
                await service.start(state)
                stack.push_async_callback(service.stop)
            # Ingestion jobs stop before the services they use (the retrieval index).
            stack.push_async_callback(state.ingestion.shutdown)
            yield
            await _drain(state)

    app = Starlette(
        routes=[
            *health.routes, *auth.routes, *conversations.routes, *documents.routes,
            *admin.routes, *openai.routes,
            WebSocketRoute("/ws", websocket_endpoint),
            *ui.routes,
        ],
        exception_handlers={
            AppError: app_error_handler,
            HTTPException: http_error_handler,
            Exception: internal_error_handler,
        },
        lifespan=lifespan,
        max_body_size=settings.limits.max_upload_bytes + 1024 * 1024,
    )
    return app


async def _drain(state: AppState) -> None:
    """Stop admitting, let running generations finish within the drain window, then
    interrupt the rest (their messages are stored as `interrupted`)."""
    state.hub.begin_drain(state.settings.server.drain_seconds)
    if not await state.hub.wait_idle(state.hub.drain_time_left()):
        log.warning("drain window over; interrupting %d generations", state.hub.num_active)
    await state.hub.cancel_all("shutdown")
