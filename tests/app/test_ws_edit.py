"""Edit and resend (the browser UI's "Edit" on the last user message): a chat frame with
`replaces` stores the new message as the old one's successor, and the old message and its
answers leave the prompt history of this and every later turn."""

from __future__ import annotations

from starlette.testclient import TestClient

from tests.app.conftest import signup
from tests.app.fakes import FakeEngine
from tests.app.wsutil import chat, conversation, text_of, until


def prompt_text(engine: FakeEngine, index: int) -> str:
    return engine.tokenizer.decode(engine.prompts[index], skip_special_tokens=False)


def test_edited_message_replaces_the_old_turn(client: TestClient, fake_engine: FakeEngine) -> None:
    token = signup(client, "alice")
    with client.websocket_connect(f"/ws?token={token}") as ws:
        first = chat(ws, "first question")
        cid = first[0]["conversation_id"]
        second = chat(ws, "second qusetion", cid)
        old_user = second[0]["user_message_id"]
        edited = chat(ws, "second question", cid, replaces=old_user)
        third = chat(ws, "third question", cid)
    assert text_of(edited) == "You said: second question"
    for index in (2, 3):  # the edited turn and the one after it
        prompt = prompt_text(fake_engine, index)
        assert "first question" in prompt and "second question" in prompt
        assert "qusetion" not in prompt
    # The edited turn's prompt is the first turn's conversation plus the new message: the
    # prefix cache still serves everything before the edit.
    assert fake_engine.prompts[2][: len(fake_engine.prompts[1]) - 40] == \
        fake_engine.prompts[1][: len(fake_engine.prompts[1]) - 40]
    messages = conversation(client, token, cid)["messages"]
    users = [(m["content"], m["parent_id"]) for m in messages if m["role"] == "user"]
    assert users == [("first question", None), ("second qusetion", None),
                     ("second question", old_user), ("third question", None)]
    assert edited[0]["user_message_id"] != old_user
    assert third[-1]["finish_reason"] == "stop"


def test_only_the_last_user_message_can_be_replaced(client: TestClient,
                                                    fake_engine: FakeEngine) -> None:
    token = signup(client, "alice")
    with client.websocket_connect(f"/ws?token={token}") as ws:
        first = chat(ws, "one")
        cid = first[0]["conversation_id"]
        chat(ws, "two", cid)
        ws.send_json({"type": "chat", "conversation_id": cid, "content": "uno",
                      "replaces": first[0]["user_message_id"]})
        error = until(ws, lambda f: f["type"] == "error")[-1]
        assert error["code"] == "invalid_frame"
        assert first[0]["user_message_id"] in error["message"]
        assert "only that one can be edited" in error["message"]
        ws.send_json({"type": "chat", "conversation_id": None, "content": "x",
                      "replaces": first[0]["user_message_id"]})
        error = until(ws, lambda f: f["type"] == "error")[-1]
        assert error["message"] == "replaces needs a conversation_id"
        ws.send_json({"type": "chat", "conversation_id": cid, "content": "x",
                      "replaces": "bad id!"})
        error = until(ws, lambda f: f["type"] == "error")[-1]
        assert error["code"] == "invalid_frame" and error["message"].startswith("replaces:")
    stored = conversation(client, token, cid)["messages"]
    assert [m["content"] for m in stored if m["role"] == "user"] == ["one", "two"]
    assert len(fake_engine.prompts) == 2


def test_another_users_message_cannot_be_replaced(client: TestClient) -> None:
    alice = signup(client, "alice")
    eve = signup(client, "eve")
    with client.websocket_connect(f"/ws?token={alice}") as ws:
        first = chat(ws, "mine")
    with client.websocket_connect(f"/ws?token={eve}") as ws:
        ws.send_json({"type": "chat", "conversation_id": first[0]["conversation_id"],
                      "content": "hijack", "replaces": first[0]["user_message_id"]})
        error = until(ws, lambda f: f["type"] == "error")[-1]
        assert error["code"] == "not_found"
