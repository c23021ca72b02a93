"""Conversation history -> prompt token ids, identical from turn to turn.

The engine's prefix cache reuses KV blocks only when the new prompt starts with exactly the
tokens it saw before. Re-tokenizing the whole rendered conversation each turn does not give
that: byte-level BPE may merge an earlier answer differently from how it was generated, and
the answer's end-of-turn marker was sampled, not rendered. So the prompt is built piece by
piece: the chat template is rendered for growing prefixes of the conversation, each message's
piece is encoded on its own (the same ids every turn), and an assistant answer contributes the
token ids it was generated as. Turn N's prompt + answer is then a prefix of turn N+1's prompt.
"""

from __future__ import annotations

import inspect
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from app.errors import ContextLengthError


class ChatTokenizer(Protocol):
    def encode(self, text: str) -> list[int]: ...

    def decode(self, token_ids: Sequence[int], skip_special_tokens: bool = True) -> str: ...

    def apply_chat_template(
        self, messages: list[dict[str, str]], add_generation_prompt: bool = True
    ) -> str: ...


@dataclass(frozen=True, slots=True)
class PromptMessage:
    role: str
    content: str
    # The ids an assistant answer was generated as (None: encode its text).
    token_ids: tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True)
class BuiltPrompt:
    token_ids: list[int]
    max_tokens: int
    dropped_turns: int


def with_context(content: str, context: str | None) -> str:
    """The user's text as the model sees it, with retrieved sources in front when there are any."""
    if not context:
        return content
    return f"Sources:\n{context}\n\nQuestion: {content}"


class PromptBuilder:
    def __init__(self, tokenizer: ChatTokenizer, max_model_len: int) -> None:
        self.tokenizer = tokenizer
        self.max_model_len = max_model_len
        special = getattr(tokenizer, "special_token_ids", None) or ()
        eos = getattr(tokenizer, "eos_token_ids", None) or ()
        self._trailing_special = frozenset(special) | frozenset(eos)
        try:
            params = inspect.signature(tokenizer.encode).parameters
        except (TypeError, ValueError):
            params = {}  # type: ignore[assignment]
        self._splits_special = "split_special_tokens" in params

    def count_tokens(self, text: str) -> int:
        """Tokens `text` takes as message content (special-token strings spelled out)."""
        return len(self._literal(text))

    def render_ids(self, messages: Sequence[PromptMessage]) -> list[int]:
        """Token ids of `messages` followed by the assistant generation prompt."""
        return [t for piece in self._pieces(messages) for t in piece]

    def build(
        self,
        system: PromptMessage | None,
        turns: Sequence[Sequence[PromptMessage]],
        max_tokens: int,
    ) -> BuiltPrompt:
        """Fit the conversation in the context, dropping the oldest turns (never the system
        prompt or the last turn); when only the last turn is left, shrink max_tokens.

        `turns` are groups that start with a user message; the last one is being answered.
        """
        if not turns:
            raise ValueError("a prompt needs at least one turn")
        head = [system] if system is not None else []
        pieces = self._pieces(head + [m for turn in turns for m in turn])
        sizes = [len(p) for p in pieces]
        num_head = len(head)
        turn_sizes, start = [], num_head
        for turn in turns:
            turn_sizes.append(sum(sizes[start : start + len(turn)]))
            start += len(turn)
        budget = self.max_model_len - max_tokens
        # Estimate how many turns to drop from the piece sizes, then confirm by rendering.
        total, dropped = sum(sizes), 0
        while total > budget and dropped < len(turns) - 1:
            total -= turn_sizes[dropped]
            dropped += 1
        while True:
            kept = head + [m for turn in turns[dropped:] for m in turn]
            ids = self.render_ids(kept) if dropped else [t for p in pieces for t in p]
            if len(ids) <= budget or dropped == len(turns) - 1:
                break
            dropped += 1
        if len(ids) + max_tokens > self.max_model_len:
            room = self.max_model_len - len(ids)
            if room < 1:
                raise ContextLengthError(
                    f"the message needs {len(ids)} prompt tokens; the model's context is "
                    f"{self.max_model_len} tokens"
                )
            max_tokens = room
        return BuiltPrompt(token_ids=ids, max_tokens=max_tokens, dropped_turns=dropped)

    # ----------------------------------------------------------------------------------------
    def _render(self, messages: list[dict[str, str]], add_generation_prompt: bool) -> str:
        return self.tokenizer.apply_chat_template(
            messages, add_generation_prompt=add_generation_prompt
        )

    def _pieces(self, messages: Sequence[PromptMessage]) -> list[list[int]]:
        """Ids per message (plus one last piece: the generation prompt)."""
        dicts = [{"role": m.role, "content": m.content} for m in messages]
        rendered = [self._render(dicts[:i], False) for i in range(len(dicts) + 1)]
        final = self._render(dicts, True)
        prefix_stable = all(
            rendered[i + 1].startswith(rendered[i]) for i in range(len(dicts))
        ) and final.startswith(rendered[-1])
        if not prefix_stable:
            # A template whose output for a prefix is not a prefix of the whole: no reuse.
            return [self.tokenizer.encode(final)]
        pieces: list[list[int]] = []
        for i, message in enumerate(messages):
            text = rendered[i + 1][len(rendered[i]) :]
            pieces.append(self._message_ids(message, text, dicts, rendered[i], i))
        pieces.append(self.tokenizer.encode(final[len(rendered[-1]) :]))
        return pieces

    def _message_ids(
        self,
        message: PromptMessage,
        text: str,
        dicts: list[dict[str, str]],
        rendered_before: str,
        index: int,
    ) -> list[int]:
        """A message's ids: the template's markers as special tokens, its content as literal
        text (a user typing "<|im_start|>" must not forge a turn), or for an answer with
        known ids, exactly those."""
        probe = [*dicts[:index], {"role": message.role, "content": _PROBE}]
        shape = self._render(probe, False)[len(rendered_before) :]
        header, found, trailer = shape.partition(_PROBE)
        if not found or text != header + message.content + trailer:
            return self.tokenizer.encode(text)  # a template that rewrites content
        body = self._literal(message.content)
        if message.role == "assistant" and message.token_ids:
            answer = list(message.token_ids)
            while answer and answer[-1] in self._trailing_special:
                answer.pop()
            if self.tokenizer.decode(answer) == message.content:
                body = answer
        return self.tokenizer.encode(header) + body + self.tokenizer.encode(trailer)

    def _literal(self, text: str) -> list[int]:
        if self._splits_special:
            return self.tokenizer.encode(text, split_special_tokens=True)  # type: ignore[call-arg]
        return self.tokenizer.encode(text)


# Stands in for a message's content to find where the template puts it.
_PROBE = "\x00hearth-content-probe\x00"
