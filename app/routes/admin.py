"""/api/admin/moderation: guardrail events, admins only."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from app.db import moderation
from app.http import (
    json_response,
    query_choice,
    query_int,
    query_text,
    query_time,
    require_admin,
    state_of,
)
from app.views import event_json


async def list_moderation(request: Request) -> Response:
    await require_admin(request)
    stage = query_choice(request, "stage", ("input", "output"))
    limit = query_int(request, "limit", 100, 1, 1000)
    before = query_time(request, "before")
    async with state_of(request).db.session() as s:
        events = await moderation.list_events(
            s, stage=stage, rail=query_text(request, "rail"),
            user_id=query_text(request, "user_id"), limit=limit, before=before,
        )
        return json_response({"events": [event_json(e) for e in events]})


routes = [Route("/api/admin/moderation", list_moderation, methods=["GET"])]
