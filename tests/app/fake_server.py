"""Run the real server (`app.cli.serve`: uvicorn + SIGTERM drain) with the fake engine, for
tests that signal or kill a server process. Settings come from HEARTH_* variables as usual;
FAKE_TOKEN_DELAY sets the seconds per token and FAKE_REPLY the answer."""

from __future__ import annotations

import os

from app.cli import serve
from app.settings import Settings
from tests.app.fakes import FakeEngine

if __name__ == "__main__":
    delay = float(os.environ.get("FAKE_TOKEN_DELAY", "0"))
    reply = os.environ.get("FAKE_REPLY")
    engine = FakeEngine(token_delay=delay) if reply is None else FakeEngine(
        reply=lambda prompt: reply, token_delay=delay)
    raise SystemExit(serve(Settings(), engine_factory=lambda s: engine))
