"""StreamingOutputChecker: release a streamed answer only after it has been checked.

Deltas collect in `pending`. Once `chunk_size` chars are pending, a window is checked: the
chunk plus the last `context_size` chars already released, carried over so that a sentence
split across two windows is read whole. A window that passes is PII-redacted and released;
one that fails ends the stream with a block. `finish()` checks the last, partial window.

Invariants: every fed char is checked as new text in exactly one window before it is
released; released text is never taken back; hold-back is at most one chunk, plus the rest
of a token (or run of digit groups, which may be a card number) that the chunk boundary would
split. Pure CPU; the rails' models run inside `feed` only when it checks a window
(`may_check` tells a caller beforehand) and inside `finish`.
"""

from __future__ import annotations

from dataclasses import dataclass

from guardrails.base import Action, ModerationEvent, Stage, Verdict, Window, WindowChecker, clip
from guardrails.errors import CheckerClosedError, InvalidInputError
from guardrails.rails.pii import PiiRedactor, Redaction

_EXCERPT_SIDE = 30


@dataclass(frozen=True, slots=True)
class OutputStep:
    """What one feed()/finish() produced. `text` may be sent to the client now. `blocked` is
    set on the step that blocked (the caller aborts generation and sends `blocked`); after
    it the checker is closed."""

    text: str
    blocked: Verdict | None
    events: tuple[ModerationEvent, ...]


class StreamingOutputChecker:
    def __init__(
        self,
        checkers: list[WindowChecker],
        redactor: PiiRedactor | None,
        chunk_size: int,
        context_size: int,
    ) -> None:
        self._checkers = checkers
        self._redactor = redactor
        self._chunk_size = chunk_size
        self._context_size = context_size
        self._pending = ""
        self._context = ""
        self._released: list[str] = []
        self._blocked: Verdict | None = None
        self._finished = False

    @property
    def released_text(self) -> str:
        """Everything released so far (redacted), i.e. what the client has been sent."""
        return "".join(self._released)

    @property
    def blocked(self) -> Verdict | None:
        return self._blocked

    @property
    def num_pending_chars(self) -> int:
        return len(self._pending)

    def may_check(self, delta: str) -> bool:
        """Whether feeding `delta` may check a window (and so run the rails' models): a caller
        that keeps models off its thread hands only such deltas to a worker."""
        return len(self._pending) + len(delta) >= self._chunk_size

    def feed(self, delta: str) -> OutputStep:
        if not isinstance(delta, str):
            raise InvalidInputError(f"delta must be str, got {type(delta).__name__}")
        if self._finished or self._blocked is not None:
            raise CheckerClosedError(f"checker is closed; cannot feed {delta[:40]!r}")
        self._pending += delta
        out: list[str] = []
        events: list[ModerationEvent] = []
        while len(self._pending) >= self._chunk_size:
            cut = self._release_point()
            if cut == 0:
                break
            if not self._check_and_release(self._pending[:cut], False, out, events):
                break
            self._pending = self._pending[cut:]
        return OutputStep("".join(out), self._blocked, tuple(events))

    def finish(self) -> OutputStep:
        """Checks and releases what is still held back. After a block it returns an empty
        step (the block was reported once, by the step that blocked)."""
        if self._finished:
            raise CheckerClosedError("finish() was already called")
        self._finished = True
        if self._blocked is not None:
            return OutputStep("", self._blocked, ())
        out: list[str] = []
        events: list[ModerationEvent] = []
        if self._pending and self._check_and_release(self._pending, True, out, events):
            self._pending = ""
        return OutputStep("".join(out), self._blocked, tuple(events))

    def _release_point(self) -> int:
        if self._redactor is None:
            return self._chunk_size
        cut = self._redactor.safe_cut(self._pending, self._chunk_size)
        if cut > 0:
            return cut
        # A token or digit run longer than a chunk is no single PII item; release one chunk
        # rather than hold the stream without bound.
        return self._chunk_size if len(self._pending) >= 2 * self._chunk_size else 0

    def _check_and_release(
        self, chunk: str, is_final: bool, out: list[str], events: list[ModerationEvent]
    ) -> bool:
        window = Window(self._context + chunk, len(self._context), is_final)
        for checker in self._checkers:
            verdict = checker.check(window)
            if verdict.action is Action.ALLOW:
                continue
            events.append(ModerationEvent.from_verdict(Stage.OUTPUT, self._redact_excerpt(verdict)))
            if verdict.action is Action.BLOCK:
                self._blocked = verdict
                return False
        released = chunk
        if self._redactor is not None:
            redaction = self._redactor.redact(chunk)
            released = redaction.text
            events.extend(_redaction_events(redaction))
        out.append(released)
        self._released.append(released)
        self._context = (self._context + chunk)[-self._context_size :] if self._context_size else ""
        return True

    def _redact_excerpt(self, verdict: Verdict) -> Verdict:
        if self._redactor is None or not verdict.excerpt:
            return verdict
        text = self._redactor.redact(verdict.excerpt).text
        return Verdict(verdict.action, verdict.rail, verdict.reason, verdict.score, text)


def _redaction_events(redaction: Redaction) -> list[ModerationEvent]:
    """One event per redacted item; the excerpt shows the placeholder in its redacted
    surroundings, never the removed value."""
    events = []
    shift = 0  # how much earlier placeholders changed the text's length before this item
    for m in redaction.matches:
        placeholder = f"[{m.kind}]"
        at = m.start + shift
        shift += len(placeholder) - (m.end - m.start)
        lo = max(0, at - _EXCERPT_SIDE)
        hi = at + len(placeholder) + _EXCERPT_SIDE
        reason = f"{m.kind.lower().replace('_', ' ')} redacted"
        events.append(
            ModerationEvent(Stage.OUTPUT, "pii", Action.REDACT, reason, clip(redaction.text[lo:hi]))
        )
    return events
