"""`hearth serve` as the CLI builds it (real model, retrieval), but with scripted guardrails, so
browser tests can see exactly how the UI shows each guardrail action:

- an input containing "forbidden" is blocked (rail `scripted_input`);
- e-mail addresses in an input are redacted to `[EMAIL]` (rail `scripted_pii`);
- an answer to an input starting with "CUTOFF" is withheld after its first released text
  (output rail `scripted_output`).

Settings come from HEARTH_* variables as for `hearth serve`.
"""

from __future__ import annotations

import re

import uvicorn

from app import main
from app.hooks import GuardEvent, InputDecision, OutputDecision, TurnContext, TurnHooks
from app.settings import Settings

EMAIL = re.compile(r"[\w.+-]+@[\w-]+\.[\w.]+")
_cut_off: set[str] = set()  # message ids whose answers get withheld


async def check_input(text: str, ctx: TurnContext) -> InputDecision:
    if "forbidden" in text.lower():
        reason = "asks for forbidden things"
        return InputDecision(blocked=True, rail="scripted_input", reason=reason,
                             events=(GuardEvent("input", "scripted_input", "block", reason,
                                                text[:200]),))
    if text.startswith("CUTOFF") and ctx.message_id is not None:
        _cut_off.add(ctx.message_id)
    redacted = EMAIL.sub("[EMAIL]", text)
    if redacted != text:
        return InputDecision(text=redacted, events=(GuardEvent(
            "input", "scripted_pii", "redact", "e-mail address", redacted[:200]),))
    return InputDecision()


class CutOffGuard:
    """Releases the first piece of text, then blocks the rest of the answer."""

    def __init__(self) -> None:
        self.released = False

    async def feed(self, text: str) -> OutputDecision:
        if not self.released:
            self.released = True
            return OutputDecision(release=text)
        return OutputDecision(blocked=True, rail="scripted_output", reason="withheld by test",
                              events=(GuardEvent("output", "scripted_output", "block",
                                                 "withheld by test", text[:200]),))

    async def finish(self) -> OutputDecision:
        return OutputDecision()


class PassGuard:
    async def feed(self, text: str) -> OutputDecision:
        return OutputDecision(release=text)

    async def finish(self) -> OutputDecision:
        return OutputDecision()


def output_guard(ctx: TurnContext) -> CutOffGuard | PassGuard:
    return CutOffGuard() if ctx.message_id in _cut_off else PassGuard()


def build(settings: Settings):  # type: ignore[no-untyped-def]
    hooks = TurnHooks(input_check=check_input, output_guard=output_guard)
    # The retrieval service adds its own hooks (documents, search) to these when it starts.
    return main.create_app(settings, main.default_engine_factory, hooks=hooks,
                           services=main.default_services(settings))


if __name__ == "__main__":
    settings = Settings()
    config = uvicorn.Config(build(settings), host=settings.server.host, port=settings.server.port,
                            log_level=settings.server.log_level, lifespan="on",
                            ws_max_size=settings.limits.max_frame_bytes)
    uvicorn.Server(config).run()
