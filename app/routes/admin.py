"""/api/admin/*: guardrail events, the engine's status and any user's conversation (for
opening the conversation of a moderation event); admins only."""

from __future__ import annotations

from sqlalchemy import select
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from app.db import conversations as repo
from app.db import moderation
from app.db.models import Conversation, User
from app.errors import InvalidRequestError, NotFoundError
from app.http import (
    json_response,
    query_choice,
    query_int,
    query_text,
    query_time,
    require_admin,
    state_of,
)
from app.textcheck import is_id
from app.views import conversation_json, event_json, message_json


async def list_moderation(request: Request) -> Response:
    """Newest first. Page with `before` = the `created_at` of the last event shown (event
    times are unique within a server process). Added filter: `action`."""
    await require_admin(request)
    stage = query_choice(request, "stage", ("input", "output"))
    action = query_choice(request, "action", ("block", "redact", "flag"))
    limit = query_int(request, "limit", 100, 1, 1000)
    before = query_time(request, "before")
    user_id = query_text(request, "user_id")
    if user_id is not None and not is_id(user_id):
        raise InvalidRequestError(f"user_id must be an id, got {user_id!r}")
    async with state_of(request).db.session() as s:
        events = await moderation.list_events(
            s, stage=stage, rail=query_text(request, "rail"), action=action,
            user_id=user_id, limit=limit, before=before,
        )
        # Added field `username`, so the log names people rather than ids.
        ids = {e.user_id for e in events if e.user_id is not None}
        rows = await s.execute(select(User.id, User.username).where(User.id.in_(ids)))
        names = {user_id: username for user_id, username in rows.all()}
        return json_response({"events": [
            {**event_json(e), "username": names.get(e.user_id or "")} for e in events
        ]})


async def engine_status(request: Request) -> Response:
    await require_admin(request)
    state = state_of(request)
    stats = state.engine.stats()
    queries, hits = stats.prefix_cache_queries, stats.prefix_cache_hits
    return json_response({
        "model": state.engine.model_name,
        "max_model_len": state.engine.max_model_len,
        "is_alive": stats.is_alive,
        "num_running": stats.num_running,
        "num_waiting": stats.num_waiting,
        "kv_cache_usage": stats.kv_cache_usage,
        "prefix_cache_queries": queries,
        "prefix_cache_hits": hits,
        # None until a prompt was looked up: a rate of nothing is not 0%.
        "prefix_cache_hit_rate": hits / queries if queries else None,
        "num_preemptions": stats.num_preemptions,
        "prompt_tokens_total": stats.prompt_tokens_total,
        "generation_tokens_total": stats.generation_tokens_total,
        "num_active_generations": state.hub.num_active,
    })


async def any_conversation(request: Request) -> Response:
    await require_admin(request)
    conversation_id = request.path_params["id"]
    async with state_of(request).db.session() as s:
        conv = await s.get(Conversation, conversation_id) if is_id(conversation_id) else None
        if conv is None:
            raise NotFoundError(f"conversation {conversation_id!r} not found")
        owner = await s.get(User, conv.user_id)
        data = conversation_json(conv)
        data["user"] = {"id": conv.user_id, "username": owner.username if owner else None}
        data["messages"] = [message_json(m) for m in await repo.list_messages(s, conv.id)]
        return json_response(data)


routes = [
    Route("/api/admin/moderation", list_moderation, methods=["GET"]),
    Route("/api/admin/status", engine_status, methods=["GET"]),
    Route("/api/admin/conversations/{id}", any_conversation, methods=["GET"]),
]
