"""The start of a chat turn: find what it answers (read only), then, once the input rails
have spoken, store the user message, the answer row and the input rails' events in ONE
transaction.

The input is checked before anything is written, so a message the rails redact is never
stored in the clear, and a blocked one is stored `blocked` together with the event that
blocked it. Ids are chosen up front so the rails (and the client's `start`) know them.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.db import conversations as repo
from app.db import moderation
from app.db.base import new_id
from app.db.session import Database
from app.errors import NotFoundError
from app.history import history_turns, last_user_message
from app.hooks import InputDecision
from app.prompt import PromptMessage
from app.protocol import ChatParams, InvalidFrameError
from app.settings import ChatSettings


@dataclass(frozen=True, slots=True)
class TurnRequest:
    user_id: str
    conversation_id: str | None
    content: str | None  # None: regenerate the answer to the last user message
    params: ChatParams | None = None
    use_documents: bool = True
    replaces: str | None = None  # edit and resend: the last user message this one replaces


@dataclass(frozen=True, slots=True)
class TurnPlan:
    """What a turn will write. `text` is the user's text as the input rails see it (for a
    regenerate: the stored user message)."""

    conversation_id: str
    is_new_conversation: bool
    system_prompt: str | None
    user_message_id: str
    is_new_user_message: bool
    message_id: str
    text: str
    turns: list[list[PromptMessage]]


async def plan_turn(db: Database, chat: ChatSettings, req: TurnRequest) -> TurnPlan:
    """Validate the request against the stored conversation; writes nothing."""
    async with db.session() as s:
        if req.conversation_id is None:
            if req.content is None:
                raise NotFoundError("regenerate needs a conversation")
            if req.replaces is not None:
                raise InvalidFrameError("replaces needs a conversation_id")
            conversation_id, system_prompt, messages = new_id(), chat.default_system_prompt, []
        else:
            conv = await repo.get_conversation(s, req.user_id, req.conversation_id)
            conversation_id, system_prompt = conv.id, conv.system_prompt
            messages = list(await repo.list_messages(s, conv.id))
    if req.content is None:
        user_msg = last_user_message(messages)
        if user_msg is None:
            raise NotFoundError(f"conversation {conversation_id!r} has no user message to answer")
        user_message_id, text = user_msg.id, user_msg.content
    else:
        if req.replaces is not None:
            last = last_user_message(messages)
            if last is None or last.id != req.replaces:
                raise InvalidFrameError(
                    f"message {req.replaces!r} is not the last user message of "
                    f"conversation {conversation_id!r}; only that one can be edited"
                )
        user_message_id, text = new_id(), req.content
    return TurnPlan(
        conversation_id=conversation_id, is_new_conversation=req.conversation_id is None,
        system_prompt=system_prompt, user_message_id=user_message_id,
        is_new_user_message=req.content is not None, message_id=new_id(), text=text,
        turns=history_turns(messages, before_id=req.replaces or user_message_id),
    )


async def store_turn(
    db: Database, chat: ChatSettings, req: TurnRequest, plan: TurnPlan, decision: InputDecision
) -> None:
    """The user message (with the text the rails want stored), the answer row (`streaming`,
    or `blocked` with the user message when the input was blocked) and the input events."""
    text = decision.text or plan.text
    blocked = decision.blocked
    async with db.session() as s:
        if plan.is_new_conversation:
            title = " ".join(text.split())[: chat.title_chars]
            await repo.create_conversation(s, req.user_id, title, plan.system_prompt,
                                           conversation_id=plan.conversation_id)
        else:
            # Deleted (or never theirs) while the rails ran: not found, nothing written.
            await repo.get_conversation(s, req.user_id, plan.conversation_id)
        if plan.is_new_user_message:
            await repo.add_message(
                s, id=plan.user_message_id, conversation_id=plan.conversation_id,
                user_id=req.user_id, role="user", content=text,
                status="blocked" if blocked else "complete", parent_id=req.replaces,
            )
        else:
            changes: dict[str, object] = {"status": "blocked"} if blocked else {}
            if text != plan.text:
                changes["content"] = text
            if changes:
                await repo.update_message(s, plan.user_message_id, **changes)
        await repo.add_message(
            s, id=plan.message_id, conversation_id=plan.conversation_id, user_id=req.user_id,
            role="assistant", content="", status="blocked" if blocked else "streaming",
            finish_reason="blocked" if blocked else None, parent_id=plan.user_message_id,
        )
        await moderation.add_events(
            s, decision.events, user_id=req.user_id, conversation_id=plan.conversation_id,
            message_id=plan.message_id,
        )
        await repo.touch_conversation(s, plan.conversation_id)
