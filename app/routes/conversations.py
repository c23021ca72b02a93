"""/api/conversations: list, create, read (with messages), rename, delete — own only."""

from __future__ import annotations

from pydantic import BaseModel, Field
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from app.db import conversations as repo
from app.db import documents
from app.http import json_response, query_int, query_time, read_json, require_user, state_of
from app.views import conversation_json, message_json


class NewConversation(BaseModel):
    title: str | None = Field(None, max_length=200)
    system_prompt: str | None = Field(None, max_length=32_000)


class RenameConversation(BaseModel):
    title: str = Field(max_length=200)


def _short(conv: object) -> dict[str, object]:
    data = conversation_json(conv)  # type: ignore[arg-type]
    del data["system_prompt"]
    return data


async def list_conversations(request: Request) -> Response:
    user = await require_user(request)
    limit = query_int(request, "limit", 50, 1, 200)
    before = query_time(request, "before")
    async with state_of(request).db.session() as s:
        rows = await repo.list_conversations(s, user.id, limit, before)
        return json_response({"conversations": [_short(c) for c in rows]})


async def create_conversation(request: Request) -> Response:
    user = await require_user(request)
    body = await read_json(request, NewConversation)
    settings = state_of(request).settings
    system_prompt = body.system_prompt or settings.chat.default_system_prompt
    async with state_of(request).db.session() as s:
        conv = await repo.create_conversation(s, user.id, body.title or "", system_prompt)
        return json_response(conversation_json(conv), status=201)


async def get_conversation(request: Request) -> Response:
    user = await require_user(request)
    async with state_of(request).db.session() as s:
        conv = await repo.get_conversation(s, user.id, request.path_params["id"])
        messages = await repo.list_messages(s, conv.id)
        data = conversation_json(conv)
        data["messages"] = [message_json(m) for m in messages]
        return json_response(data)


async def rename_conversation(request: Request) -> Response:
    user = await require_user(request)
    body = await read_json(request, RenameConversation)
    async with state_of(request).db.session() as s:
        conv = await repo.get_conversation(s, user.id, request.path_params["id"])
        conv.title = body.title
        await s.flush()
        return json_response(conversation_json(conv))


async def delete_conversation(request: Request) -> Response:
    user = await require_user(request)
    conversation_id = request.path_params["id"]
    state = state_of(request)
    async with state.db.session() as s:
        await repo.get_conversation(s, user.id, conversation_id)
    # Stop its running answers first, so none writes into a deleted conversation.
    for generation in state.hub.running_in(conversation_id):
        generation.cancel("cancelled")
        if generation.task is not None:
            await generation.task
    async with state.db.session() as s:
        doc_ids, chunk_ids = await documents.conversation_documents(s, conversation_id)
        await repo.delete_conversation(s, user.id, conversation_id)
    # Its documents went with it (cascade); their vectors leave the index too.
    state.ingestion.stop(doc_ids)
    if state.hooks.documents is not None:
        await state.hooks.documents.remove(chunk_ids)
    return Response(status_code=204)


routes = [
    Route("/api/conversations", list_conversations, methods=["GET"]),
    Route("/api/conversations", create_conversation, methods=["POST"]),
    Route("/api/conversations/{id}", get_conversation, methods=["GET"]),
    Route("/api/conversations/{id}", rename_conversation, methods=["PATCH"]),
    Route("/api/conversations/{id}", delete_conversation, methods=["DELETE"]),
]
