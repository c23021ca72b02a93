"""Database rows -> the JSON shapes of PROTOCOL.md."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from app.db.models import Conversation, Document, Message, ModerationEvent, User


def iso(value: datetime) -> str:
    return value.isoformat().replace("+00:00", "Z")


def user_json(user: User) -> dict[str, Any]:
    return {"id": user.id, "username": user.username, "role": user.role}


def conversation_json(conv: Conversation) -> dict[str, Any]:
    return {
        "id": conv.id,
        "title": conv.title,
        "system_prompt": conv.system_prompt,
        "created_at": iso(conv.created_at),
        "updated_at": iso(conv.updated_at),
    }


def message_json(message: Message) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": message.id,
        "role": message.role,
        "content": message.content,
        "status": message.status,
        "created_at": iso(message.created_at),
        "citations": message.citations or [],
        "parent_id": message.parent_id,
    }
    if message.role == "assistant":
        data["finish_reason"] = message.finish_reason
        # Added field: sentences the grounding check found unsupported by the citations.
        data["unsupported"] = message.unsupported or []
        if message.prompt_tokens is not None:
            data["usage"] = {
                "prompt_tokens": message.prompt_tokens,
                "completion_tokens": message.completion_tokens or 0,
                "cached_tokens": message.cached_tokens or 0,
            }
    return data


def document_json(doc: Document, num_embedded: int) -> dict[str, Any]:
    """`num_chunks_embedded` of `num_chunks` is the progress of a `processing` document;
    `error` says why a `failed` one failed."""
    return {
        "id": doc.id,
        "filename": doc.filename,
        "status": doc.status,
        "num_chunks": doc.num_chunks,
        "num_chunks_embedded": num_embedded,
        "size_bytes": doc.size_bytes,
        "content_type": doc.content_type,
        "conversation_id": doc.conversation_id,
        "created_at": iso(doc.created_at),
        "error": doc.error,
    }


def event_json(event: ModerationEvent) -> dict[str, Any]:
    return {
        "id": event.id,
        "created_at": iso(event.created_at),
        "user_id": event.user_id,
        "conversation_id": event.conversation_id,
        "message_id": event.message_id,
        "stage": event.stage,
        "rail": event.rail,
        "action": event.action,
        "reason": event.reason,
        "excerpt": event.excerpt,
    }
