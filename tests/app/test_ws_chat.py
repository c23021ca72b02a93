"""WebSocket chat with the fake engine: frames, persistence, prefix-cache reuse, protocol rules."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from app.main import create_app
from tests.app.conftest import signup
from tests.app.fakes import FakeEngine
from tests.app.wsutil import chat, conversation, text_of, until, until_done


def test_chat_streams_and_stores_the_answer(client: TestClient, fake_engine: FakeEngine) -> None:
    token = signup(client, "alice")
    with client.websocket_connect(f"/ws?token={token}") as ws:
        frames = chat(ws, "hello there")
    start, done = frames[0], frames[-1]
    assert start["type"] == "start" and set(start) == {
        "type", "conversation_id", "user_message_id", "message_id"}
    assert text_of(frames) == "You said: hello there"
    assert all(f["message_id"] == start["message_id"] for f in frames[1:])
    assert done == {
        "type": "done", "message_id": start["message_id"], "finish_reason": "stop",
        "usage": {"prompt_tokens": len(fake_engine.prompts[0]), "completion_tokens": 22,
                  "cached_tokens": 0},
        "dropped_turns": 0,
    }
    conv = conversation(client, token, start["conversation_id"])
    assert conv["title"] == "hello there"
    user_msg, answer = conv["messages"]
    assert user_msg["id"] == start["user_message_id"] and user_msg["role"] == "user"
    assert user_msg["content"] == "hello there" and user_msg["status"] == "complete"
    assert answer["id"] == start["message_id"] and answer["status"] == "complete"
    assert answer["content"] == "You said: hello there"
    assert answer["usage"] == done["usage"] and answer["parent_id"] == user_msg["id"]


def test_second_turn_reuses_the_first_turns_kv_blocks(
    client: TestClient, fake_engine: FakeEngine
) -> None:
    token = signup(client, "alice")
    with client.websocket_connect(f"/ws?token={token}") as ws:
        first = chat(ws, "first question")
        cid = first[0]["conversation_id"]
        second = chat(ws, "second question", cid)
        third = chat(ws, "third", cid)
    p1, p2, p3 = fake_engine.prompts
    answer1 = fake_engine.tokenizer.encode("You said: first question") + [2]
    # The previous prompt plus the generated answer is a prefix of the next prompt ...
    assert p2[: len(p1) + len(answer1)] == p1 + answer1
    # ... so everything computed last turn (all but the last sampled token) is reused,
    # in whole 16-token blocks.
    assert second[-1]["usage"]["cached_tokens"] == (len(p1) + len(answer1) - 1) // 16 * 16
    assert third[-1]["usage"]["cached_tokens"] >= len(p2) // 16 * 16
    assert first[-1]["usage"]["cached_tokens"] == 0
    assert p3[: len(p2)] == p2


def test_several_generations_at_once_on_one_socket(
    client: TestClient, fake_engine: FakeEngine
) -> None:
    token = signup(client, "alice")
    fake_engine.hold_after = 3
    with client.websocket_connect(f"/ws?token={token}") as ws:
        ws.send_json({"type": "chat", "conversation_id": None, "content": "alpha"})
        ws.send_json({"type": "chat", "conversation_id": None, "content": "beta"})
        seen: list[str] = []
        frames = until(ws, lambda f: seen.append(f["type"]) or seen.count("delta") == 6)
        assert seen.count("start") == 2  # both run before either may finish
        fake_engine.gate.set()
        frames += until_done(ws)
        frames += until_done(ws)
    starts = [f for f in frames if f["type"] == "start"]
    assert len(starts) == 2 and starts[0]["conversation_id"] != starts[1]["conversation_id"]
    texts = {text_of(frames, s["message_id"]) for s in starts}
    assert texts == {"You said: alpha", "You said: beta"}
    assert sum(1 for f in frames if f["type"] == "done") == 2


def test_ping_and_malformed_frames_keep_the_socket_open(client: TestClient) -> None:
    token = signup(client, "alice")
    with client.websocket_connect(f"/ws?token={token}") as ws:
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong"}
        ws.send_text("{not json")
        reply = ws.receive_json()
        assert reply["type"] == "error" and reply["code"] == "invalid_json"
        for bad, field in [
            ({"type": "dance"}, "dance"),
            ([1, 2], "object"),
            ({"type": "chat", "conversation_id": None}, "content"),
            ({"type": "chat", "content": ""}, "content"),
            ({"type": "chat", "content": "x", "params": {"temperature": -1}}, "temperature"),
            ({"type": "chat", "content": "x", "params": {"max_tokens": 10**9}}, "max_tokens"),
            ({"type": "resume", "message_id": "m", "after": -1}, "after"),
            ({"type": "cancel"}, "message_id"),
            ({"type": "ping", "extra": 1}, "extra"),
        ]:
            ws.send_json(bad)
            reply = ws.receive_json()
            assert reply["type"] == "error" and reply["code"] == "invalid_frame", bad
            assert field in reply["message"], (bad, reply)
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong"}


def test_binary_frame_closes_1003(client: TestClient) -> None:
    token = signup(client, "alice")
    with client.websocket_connect(f"/ws?token={token}") as ws:
        ws.send_bytes(b"\x00\x01")
        with pytest.raises(WebSocketDisconnect) as info:
            ws.receive_json()
    assert info.value.code == 1003


def test_oversized_frame_closes_1009(make_settings, fake_engine: FakeEngine) -> None:
    app = create_app(make_settings(limits={"max_frame_bytes": 200}),
                     engine_factory=lambda s: fake_engine)
    with TestClient(app) as client:
        token = signup(client, "alice")
        with client.websocket_connect(f"/ws?token={token}") as ws:
            ws.send_json({"type": "chat", "content": "x" * 300})
            with pytest.raises(WebSocketDisconnect) as info:
                ws.receive_json()
    assert info.value.code == 1009


def test_no_auth_closes_1008(client: TestClient) -> None:
    client.cookies.clear()
    for url in ("/ws", "/ws?token=hth_wrong"):
        with client.websocket_connect(url) as ws:
            assert ws.receive_json()["code"] == "unauthorized"
            with pytest.raises(WebSocketDisconnect) as info:
                ws.receive_json()
        assert info.value.code == 1008


def test_origin_rules(make_settings, fake_engine: FakeEngine) -> None:
    settings = make_settings(server={"allowed_origins": ["https://chat.example"]})
    with TestClient(create_app(settings, engine_factory=lambda s: fake_engine)) as client:
        token = signup(client, "alice")
        for origin in ("http://testserver", "https://chat.example", None):
            headers = {"origin": origin} if origin else {}
            with client.websocket_connect(f"/ws?token={token}", headers=headers) as ws:
                ws.send_json({"type": "ping"})
                assert ws.receive_json() == {"type": "pong"}, origin
        for origin in ("https://evil.example", "http://testserver.evil.example", "null"):
            with pytest.raises(WebSocketDisconnect) as info:  # noqa: SIM117
                with client.websocket_connect(f"/ws?token={token}", headers={"origin": origin}):
                    pass
            assert info.value.code == 1008, origin


def test_cookie_authenticates_the_socket(client: TestClient) -> None:
    signup(client, "alice")  # the signup response set the session cookie
    with client.websocket_connect("/ws", headers={"origin": "http://testserver"}) as ws:
        frames = chat(ws, "via cookie")
    assert text_of(frames) == "You said: via cookie"


def test_engine_crash_mid_answer_ends_with_error(
    client: TestClient, fake_engine: FakeEngine
) -> None:
    token = signup(client, "alice")
    fake_engine.fail_after = 4
    with client.websocket_connect(f"/ws?token={token}") as ws:
        frames = chat(ws, "boom")
    assert frames[-1]["finish_reason"] == "error"
    assert text_of(frames) == "You "
    answer = conversation(client, token, frames[0]["conversation_id"])["messages"][1]
    assert answer["status"] == "error" and answer["content"] == "You "
