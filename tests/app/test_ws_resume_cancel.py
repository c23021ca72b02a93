"""Cancel, regenerate, resume after a reconnect (live and from the database)."""

from __future__ import annotations

import time

from starlette.testclient import TestClient

from app.main import create_app
from tests.app.conftest import signup
from tests.app.fakes import FakeEngine
from tests.app.wsutil import chat, conversation, text_of, until, until_done


def _deltas(n: int):
    seen: list[str] = []
    return lambda f: seen.append(f["type"]) or seen.count("delta") == n


def test_cancel_keeps_what_was_streamed(client: TestClient, fake_engine: FakeEngine) -> None:
    token = signup(client, "alice")
    fake_engine.hold_after = 5
    with client.websocket_connect(f"/ws?token={token}") as ws:
        ws.send_json({"type": "chat", "conversation_id": None, "content": "a long one"})
        frames = until(ws, _deltas(5))
        mid = frames[0]["message_id"]
        ws.send_json({"type": "cancel", "message_id": mid})
        frames += until_done(ws)
        # Cancelling a finished message is a no-op, not an error.
        ws.send_json({"type": "cancel", "message_id": mid})
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong"}
    assert frames[-1]["finish_reason"] == "cancelled"
    assert [f["type"] for f in frames].count("done") == 1
    assert text_of(frames) == "You s"
    assert mid in fake_engine.aborted
    answer = conversation(client, token, frames[0]["conversation_id"])["messages"][1]
    assert answer["status"] == "interrupted" and answer["content"] == "You s"
    assert answer["finish_reason"] == "cancelled"


def test_generation_survives_disconnect_and_resumes_live(
    client: TestClient, fake_engine: FakeEngine
) -> None:
    token = signup(client, "alice")
    fake_engine.hold_after = 6
    with client.websocket_connect(f"/ws?token={token}") as ws:
        ws.send_json({"type": "chat", "conversation_id": None, "content": "keep going"})
        first = until(ws, _deltas(6))
    mid = first[0]["message_id"]
    assert fake_engine.aborted == []  # the socket closed; the generation did not stop
    with client.websocket_connect(f"/ws?token={token}") as ws:
        ws.send_json({"type": "resume", "message_id": mid, "after": 4})
        replay = until(ws, _deltas(2))
        assert [(f["index"], f["text"]) for f in replay] == [(4, "s"), (5, "a")]
        fake_engine.gate.set()
        rest = until_done(ws)
    assert all(f["type"] != "start" for f in replay + rest)
    deltas = [f for f in first if f["type"] == "delta"][:4] + replay + rest
    assert text_of(deltas) == "You said: keep going"
    assert rest[-1]["finish_reason"] == "stop"


def test_resume_a_finished_answer_from_the_database(make_settings, fake_engine) -> None:
    settings = make_settings(server={"finished_generation_retention_seconds": 0})
    with TestClient(create_app(settings, engine_factory=lambda s: fake_engine)) as client:
        token = signup(client, "alice")
        with client.websocket_connect(f"/ws?token={token}") as ws:
            frames = chat(ws, "remember me")
        mid = frames[0]["message_id"]
        time.sleep(0.05)  # past the retention: only the database knows it now
        with client.websocket_connect(f"/ws?token={token}") as ws:
            ws.send_json({"type": "resume", "message_id": mid, "after": 3})
            replay = until_done(ws)
            ws.send_json({"type": "resume", "message_id": frames[0]["user_message_id"],
                          "after": 0})
            assert ws.receive_json()["code"] == "not_found"
    original = [f for f in frames if f["type"] == "delta"]
    assert replay[:-1] == original[3:]
    assert replay[-1] == {**frames[-1], "dropped_turns": 0}


def test_regenerate_answers_the_last_user_message_again(
    client: TestClient, fake_engine: FakeEngine
) -> None:
    token = signup(client, "alice")
    with client.websocket_connect(f"/ws?token={token}") as ws:
        first = chat(ws, "pick a number")
        cid = first[0]["conversation_id"]
        ws.send_json({"type": "regenerate", "conversation_id": cid})
        again = until_done(ws)
    assert again[0]["type"] == "start"
    assert again[0]["user_message_id"] == first[0]["user_message_id"]
    assert again[0]["message_id"] != first[0]["message_id"]
    assert fake_engine.prompts[1] == fake_engine.prompts[0]  # same prompt, so ...
    assert again[-1]["usage"]["cached_tokens"] == len(fake_engine.prompts[0]) // 16 * 16
    messages = conversation(client, token, cid)["messages"]
    assert [(m["role"], m["parent_id"]) for m in messages] == [
        ("user", None),
        ("assistant", first[0]["user_message_id"]),
        ("assistant", first[0]["user_message_id"]),
    ]


def test_regenerate_without_user_message_is_not_found(client: TestClient) -> None:
    token = signup(client, "alice")
    cid = client.post("/api/conversations", json={},
                      headers={"Authorization": f"Bearer {token}"}).json()["id"]
    with client.websocket_connect(f"/ws?token={token}") as ws:
        ws.send_json({"type": "regenerate", "conversation_id": cid})
        reply = ws.receive_json()
    assert reply["type"] == "error" and reply["code"] == "not_found"


def test_deleting_a_conversation_stops_its_generation(
    client: TestClient, fake_engine: FakeEngine
) -> None:
    token = signup(client, "alice")
    fake_engine.hold_after = 2
    with client.websocket_connect(f"/ws?token={token}") as ws:
        ws.send_json({"type": "chat", "conversation_id": None, "content": "bye"})
        frames = until(ws, _deltas(2))
        r = client.delete(f"/api/conversations/{frames[0]['conversation_id']}",
                          headers={"Authorization": f"Bearer {token}"})
        assert r.status_code == 204
        done = until_done(ws)[-1]
    assert done["finish_reason"] == "cancelled"
