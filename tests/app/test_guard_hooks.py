"""The guardrail seams: a blocked input never reaches the engine, a blocked output stops it,
and both are recorded (moderation table, admin route, metrics)."""

from __future__ import annotations

import httpx
import openai
from starlette.testclient import TestClient

from app.hooks import (
    GuardEvent,
    InputDecision,
    OutputDecision,
    RetrievalResult,
    TurnContext,
    TurnHooks,
)
from app.main import create_app
from app.protocol import Source
from tests.app.conftest import auth, signup
from tests.app.fakes import FakeEngine
from tests.app.wsutil import chat, conversation, text_of


async def block_forbidden(text: str, ctx: TurnContext) -> InputDecision:
    if "forbidden" in text:
        event = GuardEvent("input", "denylist", "block", "denied word", text[:40])
        return InputDecision(blocked=True, rail="denylist", reason="denied word",
                             events=(event,))
    return InputDecision()


class StopAtSecret:
    """Holds back text until a window of 4 characters is checked; blocks on 'SECRET'."""

    def __init__(self) -> None:
        self.pending = ""
        self.seen = ""

    async def feed(self, text: str) -> OutputDecision:
        self.pending += text
        self.seen += text
        if "SECRET" in self.seen:
            return OutputDecision(blocked=True, rail="leak", reason="secret", events=(
                GuardEvent("output", "leak", "block", "secret", self.seen[-20:]),))
        release, self.pending = self.pending[:-4], self.pending[-4:]
        return OutputDecision(release=release)

    async def finish(self) -> OutputDecision:
        release, self.pending = self.pending, ""
        return OutputDecision(release=release)


async def two_sources(query: str, ctx: TurnContext) -> RetrievalResult:
    if not ctx.use_documents:
        return RetrievalResult()
    sources = (Source(document_id="d1", chunk_id="7", filename="a.txt", score=0.9, text="alpha"),)
    return RetrievalResult(sources=sources, context="[1] alpha")


HOOKS = TurnHooks(input_check=block_forbidden, output_guard=lambda ctx: StopAtSecret(),
                  retrieve=two_sources)


def _client(make_settings, engine: FakeEngine) -> TestClient:
    return TestClient(create_app(make_settings(), engine_factory=lambda s: engine, hooks=HOOKS))


def test_blocked_input(make_settings, fake_engine: FakeEngine) -> None:
    with _client(make_settings, fake_engine) as client:
        admin = signup(client, "alice")
        with client.websocket_connect(f"/ws?token={admin}") as ws:
            frames = chat(ws, "something forbidden")
        assert [f["type"] for f in frames] == ["start", "blocked", "done"]
        assert frames[1] == {"type": "blocked", "message_id": frames[0]["message_id"],
                             "stage": "input", "rail": "denylist", "reason": "denied word"}
        assert frames[2]["finish_reason"] == "blocked"
        assert fake_engine.prompts == []  # the engine never saw it
        messages = conversation(client, admin, frames[0]["conversation_id"])["messages"]
        assert [m["status"] for m in messages] == ["blocked", "blocked"]
        events = client.get("/api/admin/moderation?stage=input", headers=auth(admin)).json()
        (event,) = events["events"]
        assert (event["stage"], event["rail"], event["action"]) == ("input", "denylist", "block")
        assert event["message_id"] == frames[0]["message_id"]
        assert client.get("/api/admin/moderation?stage=output",
                          headers=auth(admin)).json() == {"events": []}
        assert ('hearth_guardrail_events_total{action="block",rail="denylist",stage="input"} 1.0'
                in client.get("/metrics").text)


def test_output_guard_holds_back_and_blocks(make_settings) -> None:
    engine = FakeEngine(reply=lambda prompt: "Here it is: SECRET stuff")
    with _client(make_settings, engine) as client:
        token = signup(client, "alice")
        with client.websocket_connect(f"/ws?token={token}") as ws:
            frames = chat(ws, "tell me")
    kinds = [f["type"] for f in frames]
    assert kinds[:2] == ["start", "citations"] and kinds[-2:] == ["blocked", "done"]
    assert frames[-2]["stage"] == "output" and frames[-2]["rail"] == "leak"
    # Only text checked before the block went out; never the secret.
    assert text_of(frames) == "Here it is: S"
    assert "SECRET" not in text_of(frames)
    assert frames[-1]["finish_reason"] == "blocked"
    assert engine.aborted  # the engine request was stopped


def test_citations_are_sent_and_stored_and_context_reaches_the_prompt(
    make_settings, fake_engine: FakeEngine
) -> None:
    with _client(make_settings, fake_engine) as client:
        token = signup(client, "alice")
        with client.websocket_connect(f"/ws?token={token}") as ws:
            frames = chat(ws, "what is alpha?")
            no_docs = chat(ws, "and now?", frames[0]["conversation_id"], documents=False)
    assert frames[1]["type"] == "citations"
    assert frames[1]["sources"] == [{"document_id": "d1", "chunk_id": "7", "filename": "a.txt",
                                     "score": 0.9, "text": "alpha"}]
    assert all(f["type"] != "citations" for f in no_docs)
    prompt = fake_engine.tokenizer.decode(fake_engine.prompts[0], skip_special_tokens=False)
    assert "[1] alpha" in prompt and "what is alpha?" in prompt
    # The second turn renders the first turn (with its sources) identically: cache reuse.
    assert fake_engine.prompts[1][: len(fake_engine.prompts[0])] == fake_engine.prompts[0]
    messages = conversation(client, token, frames[0]["conversation_id"])["messages"]
    assert messages[1]["citations"] == frames[1]["sources"]


def test_openai_route_applies_the_same_guardrails(live_server, make_settings) -> None:
    base = live_server(make_settings(), hooks=HOOKS)
    token = httpx.post(f"{base}/api/auth/signup",
                       json={"username": "alice", "password": "correct horse"}).json()["token"]
    client = openai.OpenAI(base_url=f"{base}/v1", api_key=token, max_retries=0)
    out = client.chat.completions.create(
        model="x", messages=[{"role": "user", "content": "forbidden thing"}])
    assert out.choices[0].finish_reason == "content_filter"
    assert out.choices[0].message.content == "Sorry, I can't help with that."
    chunks = list(client.chat.completions.create(
        model="x", messages=[{"role": "user", "content": "forbidden thing"}], stream=True))
    assert chunks[-1].choices[0].finish_reason == "content_filter"
    assert chunks[-1].choices[0].delta.content == "Sorry, I can't help with that."


async def redact_digits(text: str, ctx: TurnContext) -> InputDecision:
    redacted = "".join("#" if ch.isdigit() else ch for ch in text)
    if redacted == text:
        return InputDecision()
    event = GuardEvent("input", "pii", "redact", "digits", redacted[:40])
    return InputDecision(text=redacted, events=(event,))


def test_redacted_input_is_what_is_stored_and_prompted(make_settings, fake_engine) -> None:
    app = create_app(make_settings(), engine_factory=lambda s: fake_engine,
                     hooks=TurnHooks(input_check=redact_digits))
    with TestClient(app) as client:
        token = signup(client, "alice")
        with client.websocket_connect(f"/ws?token={token}") as ws:
            first = chat(ws, "my card is 4111")
            second = chat(ws, "thanks", first[0]["conversation_id"])
        assert text_of(first) == "You said: my card is ####"
        messages = conversation(client, token, first[0]["conversation_id"])["messages"]
        assert messages[0]["content"] == "my card is ####"
        p1, p2 = fake_engine.prompts
        assert "4111" not in fake_engine.tokenizer.decode(p1 + p2)
        assert second[-1]["usage"]["cached_tokens"] > len(p1) // 16 * 16 - 16
