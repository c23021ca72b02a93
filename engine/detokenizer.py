"""Incremental detokenization: sampled token ids in, UTF-8-safe text deltas out.

The engine loop calls `IncrementalDetokenizer.update` once per step per request with the
newly sampled ids and streams the returned text. Two layers do the work:

- `_DecodeWindow` turns ids into text by decoding a short window of recent tokens, so a
  step costs O(new tokens), and holds back a character whose bytes are still incomplete;
- `_StopMatcher` holds back text that could be the start of a stop string and cuts the
  output at the first stop string that completes.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from engine.errors import EngineError, InvalidRequestError, InvalidSamplingParamsError

_REPLACEMENT = "\ufffd"
# The window is re-anchored only once it holds more tokens than this, so most steps cost one
# decode of a handful of tokens.
_SOFT_WINDOW_TOKENS = 8
# How many later starts a re-anchoring tries. A character spans at most 4 byte tokens, so
# this reaches past a split character to a token whose text is complete.
_MAX_ANCHOR_TRIES = 8


class TokenDecoder(Protocol):
    """What the detokenizer needs from `engine.tokenizer.Tokenizer`."""

    def decode(self, token_ids: Sequence[int], skip_special_tokens: bool = True) -> str: ...


@dataclass(slots=True)
class DetokenizerUpdate:
    """The outcome of one `update`: text safe to release now, and whether a stop matched."""

    text: str  # may be ""
    stopped: bool  # a stop string matched: the request must finish now
    stop_reason: str | None  # the stop string that matched


class _DecodeWindow:
    """Decodes a growing id sequence by re-decoding only its last few tokens.

    Invariants: every token before `_window` has had all its text released, and `_released`
    is the part of decode(`_window`) already released. The first tokens of the window are
    context whose text is already out: decoding from them gives later tokens the spacing
    and byte merging they have in the full decode (a SentencePiece decoder strips the
    leading space of the first token only; a byte run decodes as a whole).

    The window moves forward ("re-anchors") to a later token only when the decode from
    that token reproduces the tail of the current decode, released text included, so the
    move is checked rather than assumed; it never starts inside a split character.
    """

    __slots__ = ("_tokenizer", "_skip_special_tokens", "_window", "_released", "_num_done")

    def __init__(self, tokenizer: TokenDecoder, skip_special_tokens: bool) -> None:
        self._tokenizer = tokenizer
        self._skip_special_tokens = skip_special_tokens
        self._window: list[int] = []
        self._released = ""
        # Leading tokens of the window whose text was wholly released at a step whose decode
        # ended on a complete character.
        self._num_done = 0

    def _decode(self, token_ids: Sequence[int]) -> str:
        return self._tokenizer.decode(token_ids, skip_special_tokens=self._skip_special_tokens)

    def push(self, token_ids: Sequence[int]) -> str:
        """Appends ids; returns the newly complete text (no trailing partial character)."""
        if not token_ids:
            return ""
        self._window.extend(token_ids)
        text = self._decode(self._window)
        if not text.startswith(self._released):
            # A byte-fallback decoder turns a run of byte tokens that is not (yet) valid
            # UTF-8 into one U+FFFD per byte, masking characters already released; the run
            # becomes valid again once the split character's last byte arrives.
            return ""
        # An incomplete UTF-8 sequence at the end decodes as U+FFFD; the next token may
        # complete it, so it stays unreleased until then (or until flush).
        end = len(text.rstrip(_REPLACEMENT))
        delta = ""
        if end > len(self._released):
            delta = text[len(self._released) : end]
            self._released = text[:end]
        if end == len(text):
            self._num_done = len(self._window)
        if len(self._window) > _SOFT_WINDOW_TOKENS:
            self._reanchor(text)
        return delta

    def _reanchor(self, text: str) -> None:
        """Moves the window start to the latest token that decodes consistently with `text`."""
        num_pending = len(text) - len(self._released)
        last = len(self._window) - 1
        for start in range(last, max(0, last - _MAX_ANCHOR_TRIES), -1):
            context = self._decode(self._window[start:])
            # The candidate must keep at least one released character ahead of the pending
            # text, and must not begin with the U+FFFD of a character cut in half.
            if (
                len(context) > num_pending
                and not context.startswith(_REPLACEMENT)
                and text.endswith(context)
            ):
                del self._window[:start]
                self._num_done = max(0, self._num_done - start)
                self._released = context[: len(context) - num_pending]
                return

    def flush(self) -> str:
        """Releases whatever is held back, including U+FFFD of truly invalid bytes."""
        text = self._decode(self._window) if self._window else ""
        if text.startswith(self._released):
            rest = text[len(self._released) :]
        else:
            # A byte run that ends invalid masks its released characters (see `push`); give
            # out the replacement text of the tokens after them only.
            rest = self._decode(self._window[self._num_done :])
        self._window.clear()
        self._released = ""
        self._num_done = 0
        return rest


class _StopMatcher:
    """Holds back text that could begin a stop string; finds the first stop that completes.

    Invariant: `_pending` is the longest suffix of the text seen so far that is a proper
    prefix of some stop string, so no released character can belong to a later match.
    "First" means the match that completes first in the character stream (smallest end);
    among matches ending at the same character, the one starting earliest. This makes the
    outcome independent of how the text was cut into steps.
    """

    __slots__ = ("_stop", "_include_stop_str_in_output", "_pending")

    def __init__(self, stop: Sequence[str], include_stop_str_in_output: bool) -> None:
        self._stop = tuple(stop)
        self._include_stop_str_in_output = include_stop_str_in_output
        self._pending = ""

    def feed(self, text: str) -> tuple[str, str | None]:
        """Returns (text to release, matched stop string or None)."""
        if not self._stop:
            return text, None
        pending = self._pending + text
        best: tuple[int, int, str] | None = None  # (end, start, stop string)
        for stop in self._stop:
            start = pending.find(stop)
            if start >= 0:
                candidate = (start + len(stop), start, stop)
                if best is None or candidate[:2] < best[:2]:
                    best = candidate
        if best is not None:
            end, start, stop = best
            self._pending = ""
            return pending[: end if self._include_stop_str_in_output else start], stop
        num_held = self._longest_stop_prefix_suffix(pending)
        self._pending = pending[len(pending) - num_held :]
        return pending[: len(pending) - num_held], None

    def _longest_stop_prefix_suffix(self, text: str) -> int:
        longest = 0
        for stop in self._stop:
            for size in range(min(len(stop) - 1, len(text)), longest, -1):
                if text.endswith(stop[:size]):
                    longest = size
                    break
        return longest

    def drain(self) -> str:
        """Releases the held text at a finish that is not a stop string."""
        held, self._pending = self._pending, ""
        return held


class IncrementalDetokenizer:
    """Streams one request's output text, UTF-8-safe and stop-string-safe.

    Without stop strings, the concatenation of every `update(...).text` and `flush()`
    equals `tokenizer.decode(output_ids, skip_special_tokens)`: the text is that of the
    output ids alone, which is what a client decoding the ids it received would get.
    `prompt_token_ids` is taken for the engine's call but deliberately not used to seed the
    window: seeding would give a SentencePiece model's first output token the leading space
    it has after the prompt (" Hello"), which the decode of the output ids strips ("Hello").

    The one exception: a byte-fallback decoder (Llama/Mistral) turns a whole run of byte
    tokens into one U+FFFD per byte when the run ends in bytes that never form a character
    (e.g. max_tokens cut a character in half). Characters of that run already streamed stay
    as they were; only the bytes after them come out as U+FFFD. Matching the full decode
    there would mean holding back every run of byte tokens until it ends.
    """

    __slots__ = ("_window", "_matcher", "_chunks", "_text", "_stop_reason", "_flushed")

    def __init__(
        self,
        tokenizer: TokenDecoder,
        *,
        stop: Sequence[str] = (),
        include_stop_str_in_output: bool = False,
        skip_special_tokens: bool = True,
        prompt_token_ids: Sequence[int] = (),
    ) -> None:
        if isinstance(stop, str):
            stop = [stop]
        if any(not isinstance(s, str) or not s for s in stop):
            raise InvalidSamplingParamsError(
                f"stop must be a list of non-empty strings, got {list(stop)!r}"
            )
        _check_token_ids(prompt_token_ids, "prompt_token_ids")
        self._window = _DecodeWindow(tokenizer, skip_special_tokens)
        self._matcher = _StopMatcher(stop, include_stop_str_in_output)
        self._chunks: list[str] = []
        self._text: str | None = ""
        self._stop_reason: str | None = None
        self._flushed = False

    @property
    def output_text(self) -> str:
        """All text released so far."""
        if self._text is None:
            self._text = "".join(self._chunks)
            self._chunks = [self._text]
        return self._text

    @property
    def stop_reason(self) -> str | None:
        """The stop string that ended the output, or None."""
        return self._stop_reason

    def _release(self, text: str) -> str:
        if text:
            self._chunks.append(text)
            self._text = None
        return text

    def update(self, new_token_ids: Sequence[int]) -> DetokenizerUpdate:
        """Takes this step's sampled ids; returns the text that is safe to release now."""
        if self._stop_reason is not None:
            # The request is finishing; tokens sampled in the same step are dropped.
            return DetokenizerUpdate("", True, self._stop_reason)
        if self._flushed:
            raise EngineError(
                f"update() after flush(): the request already finished, "
                f"got {len(new_token_ids)} more token ids"
            )
        new_ids = _check_token_ids(new_token_ids, "new_token_ids")
        text, stop = self._matcher.feed(self._window.push(new_ids))
        if stop is not None:
            self._stop_reason = stop
        return DetokenizerUpdate(self._release(text), stop is not None, stop)

    def flush(self) -> str:
        """At a finish not caused by a stop string: releases everything held back."""
        if self._stop_reason is not None or self._flushed:
            return ""
        self._flushed = True
        # The text held for an incomplete character may still complete a stop string.
        text, stop = self._matcher.feed(self._window.flush())
        if stop is not None:
            self._stop_reason = stop
        else:
            text += self._matcher.drain()
        return self._release(text)


def _check_token_ids(token_ids: Sequence[int], name: str) -> list[int]:
    if isinstance(token_ids, str | bytes) or not hasattr(token_ids, "__iter__"):
        raise InvalidRequestError(f"{name} must be a sequence of token ids, got {token_ids!r}")
    ids = []
    for t in token_ids:
        try:
            token_id = operator.index(t)
        except TypeError:
            raise InvalidRequestError(f"{name} must hold integer token ids, got {t!r}") from None
        if token_id < 0:
            raise InvalidRequestError(f"{name} must hold token ids >= 0, got {token_id}")
        ids.append(token_id)
    return ids
