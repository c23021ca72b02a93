"""Which stored messages form a conversation's prompt history."""

from __future__ import annotations

from collections.abc import Sequence

from app.db.models import Message
from app.prompt import PromptMessage, with_context

# Answers worth showing the model again: finished, or cut short but with text.
_ANSWER_STATUSES = ("complete", "interrupted")


def history_turns(messages: Sequence[Message], before_id: str | None) -> list[list[PromptMessage]]:
    """Turns (a user message and its latest usable answer) in order, up to `before_id`.

    Blocked user messages never reach the model, nor does a user message that was edited (a
    later user message names it as `parent_id`) or its answers; of several answers to one
    user message (regenerate) the newest usable one counts.
    """
    superseded = {m.parent_id for m in messages if m.role == "user" and m.parent_id}
    answers: dict[str, Message] = {}
    for m in messages:
        if (
            m.role == "assistant"
            and m.parent_id is not None
            and m.status in _ANSWER_STATUSES
            and m.content
        ):
            answers[m.parent_id] = m  # messages come oldest first, so the newest wins
    turns: list[list[PromptMessage]] = []
    for m in messages:
        if m.id == before_id:
            break
        if m.role != "user" or m.status == "blocked" or m.id in superseded:
            continue
        turn = [PromptMessage("user", with_context(m.content, m.context))]
        answer = answers.get(m.id)
        if answer is not None:
            ids = tuple(answer.token_ids) if answer.token_ids else None
            turn.append(PromptMessage("assistant", answer.content, ids))
        turns.append(turn)
    return turns


def last_user_message(messages: Sequence[Message]) -> Message | None:
    for m in reversed(messages):
        if m.role == "user":
            return m
    return None
