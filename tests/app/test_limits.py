"""Limits: message length, rate, per-user concurrency, bounded queue, context budget."""

from __future__ import annotations

from starlette.testclient import TestClient

from app.main import create_app
from tests.app.conftest import signup
from tests.app.fakes import FakeEngine
from tests.app.wsutil import chat, until


def _app(make_settings, engine: FakeEngine, **overrides) -> TestClient:
    return TestClient(create_app(make_settings(**overrides), engine_factory=lambda s: engine))


def test_message_length_limit(make_settings, fake_engine) -> None:
    with _app(make_settings, fake_engine, limits={"max_message_chars": 10}) as client:
        token = signup(client, "alice")
        with client.websocket_connect(f"/ws?token={token}") as ws:
            ws.send_json({"type": "chat", "content": "x" * 11})
            reply = ws.receive_json()
            assert reply["code"] == "invalid_frame" and "10" in reply["message"]
            assert chat(ws, "x" * 10)[-1]["finish_reason"] == "stop"


def test_messages_per_minute(make_settings, fake_engine) -> None:
    with _app(make_settings, fake_engine, limits={"messages_per_minute": 2}) as client:
        alice, bob = signup(client, "alice"), signup(client, "bob")
        with client.websocket_connect(f"/ws?token={alice}") as ws:
            chat(ws, "one")
            chat(ws, "two")
            ws.send_json({"type": "chat", "content": "three"})
            reply = ws.receive_json()
            assert reply["type"] == "error" and reply["code"] == "rate_limited"
        with client.websocket_connect(f"/ws?token={bob}") as ws:  # per user
            assert chat(ws, "one")[-1]["finish_reason"] == "stop"


def test_concurrent_generations_per_user(make_settings, fake_engine) -> None:
    fake_engine.hold_after = 1
    with _app(make_settings, fake_engine,
              limits={"max_concurrent_generations_per_user": 1}) as client:
        token = signup(client, "alice")
        with client.websocket_connect(f"/ws?token={token}") as ws:
            ws.send_json({"type": "chat", "content": "first"})
            until(ws, lambda f: f["type"] == "delta")
            ws.send_json({"type": "chat", "content": "second"})
            reply = ws.receive_json()
            assert reply["code"] == "rate_limited"
            fake_engine.gate.set()
            until(ws, lambda f: f["type"] == "done")
            assert chat(ws, "third")[-1]["finish_reason"] == "stop"


def test_full_engine_queue_is_overloaded_not_a_wait(make_settings, fake_engine) -> None:
    with _app(make_settings, fake_engine, limits={"max_engine_waiting": 4}) as client:
        token = signup(client, "alice")
        fake_engine.extra_waiting = 4
        with client.websocket_connect(f"/ws?token={token}") as ws:
            ws.send_json({"type": "chat", "content": "hello"})
            assert ws.receive_json()["code"] == "overloaded"
            fake_engine.extra_waiting = 3
            assert chat(ws, "hello")[-1]["finish_reason"] == "stop"


def test_long_history_drops_oldest_turns_and_says_so(make_settings) -> None:
    engine = FakeEngine(max_model_len=360)
    with _app(make_settings, engine, chat={"default_max_tokens": 70}) as client:
        token = signup(client, "alice")
        with client.websocket_connect(f"/ws?token={token}") as ws:
            first = chat(ws, "turn one " + "a" * 40)
            cid = first[0]["conversation_id"]
            assert first[-1]["dropped_turns"] == 0
            second = chat(ws, "turn two " + "b" * 40, cid)
            assert second[-1]["dropped_turns"] == 0
            third = chat(ws, "turn three " + "c" * 40, cid)
    assert third[-1]["finish_reason"] == "stop" and third[-1]["dropped_turns"] == 1
    prompt = engine.tokenizer.decode(engine.prompts[-1], skip_special_tokens=False)
    assert "turn one" not in prompt and "turn two" in prompt and "turn three" in prompt
    assert prompt.startswith("<|im_start|>system\n")  # the system prompt stays
    assert len(engine.prompts[-1]) + 70 <= 360


def test_a_message_longer_than_the_context_is_an_error_not_a_crash(make_settings) -> None:
    engine = FakeEngine(max_model_len=300)
    with _app(make_settings, engine) as client:
        token = signup(client, "alice")
        with client.websocket_connect(f"/ws?token={token}") as ws:
            ws.send_json({"type": "chat", "content": "z" * 400})
            frames = until(ws, lambda f: f["type"] == "done")
    assert [f["type"] for f in frames] == ["start", "error", "done"]
    assert frames[1]["code"] == "context_length_exceeded"
    assert frames[1]["message_id"] == frames[0]["message_id"]
    assert frames[2]["finish_reason"] == "error"
    assert engine.prompts == []


def test_max_tokens_shrinks_to_fit_when_only_one_turn_is_left(make_settings) -> None:
    engine = FakeEngine(max_model_len=200)
    with _app(make_settings, engine, chat={"default_max_tokens": 150}) as client:
        token = signup(client, "alice")
        with client.websocket_connect(f"/ws?token={token}") as ws:
            frames = chat(ws, "q" * 60)
    done = frames[-1]
    assert done["finish_reason"] == "length"
    assert done["usage"]["prompt_tokens"] + done["usage"]["completion_tokens"] == 200
