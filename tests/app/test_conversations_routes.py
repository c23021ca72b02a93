"""Conversations over HTTP; no route ever reads or changes another user's objects."""

from __future__ import annotations

import time

from starlette.testclient import TestClient

from tests.app.conftest import auth, signup


def _create(client: TestClient, token: str, **body: object) -> dict:
    r = client.post("/api/conversations", json=body, headers=auth(token))
    assert r.status_code == 201, r.text
    return r.json()


def test_crud(client: TestClient) -> None:
    token = signup(client, "alice")
    conv = _create(client, token, title="Trip", system_prompt="Be brief.")
    assert conv["title"] == "Trip" and conv["system_prompt"] == "Be brief."
    assert conv["created_at"].endswith("Z")
    r = client.get(f"/api/conversations/{conv['id']}", headers=auth(token))
    assert r.json() == {**conv, "messages": []}
    r = client.patch(f"/api/conversations/{conv['id']}", json={"title": "Holiday"},
                     headers=auth(token))
    assert r.status_code == 200 and r.json()["title"] == "Holiday"
    assert client.delete(f"/api/conversations/{conv['id']}", headers=auth(token)).status_code == 204
    assert client.get(f"/api/conversations/{conv['id']}", headers=auth(token)).status_code == 404


def test_list_is_own_newest_first_with_cursor_and_limit(client: TestClient) -> None:
    alice, bob = signup(client, "alice"), signup(client, "bob")
    ids = []
    for i in range(3):
        ids.append(_create(client, alice, title=f"c{i}")["id"])
        time.sleep(0.002)
    _create(client, bob, title="bob's")
    listed = client.get("/api/conversations", headers=auth(alice)).json()["conversations"]
    assert [c["id"] for c in listed] == ids[::-1]
    assert set(listed[0]) == {"id", "title", "created_at", "updated_at"}
    page = client.get("/api/conversations?limit=2", headers=auth(alice)).json()["conversations"]
    assert [c["id"] for c in page] == ids[:0:-1]
    r = client.get("/api/conversations", params={"before": page[-1]["updated_at"]},
                   headers=auth(alice))
    assert [c["id"] for c in r.json()["conversations"]] == [ids[0]]


def test_bad_query_values_are_422_and_unknown_routes_404(client: TestClient) -> None:
    token = signup(client, "alice")
    for query in ("limit=0", "limit=abc", "limit=100000", "before=yesterday",
                  "before=2026-01-01T00:00:00"):
        r = client.get(f"/api/conversations?{query}", headers=auth(token))
        assert r.status_code == 422, query
        assert r.json()["error"]["code"] == "invalid_request"
    r = client.get("/api/nothing-here", headers=auth(token))
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"
    r = client.put("/api/conversations", headers=auth(token))
    assert r.status_code == 405 and "error" in r.json()
    r = client.patch("/api/conversations/x", json={"title": 5}, headers=auth(token))
    assert r.status_code in (404, 422)


def test_other_users_objects_are_404_on_every_id_route(client: TestClient) -> None:
    alice, bob = signup(client, "alice"), signup(client, "bob")
    conv = _create(client, alice, title="private")
    with client.websocket_connect(f"/ws?token={alice}") as ws:
        ws.send_json({"type": "chat", "conversation_id": conv["id"], "content": "secret"})
        frames = [ws.receive_json()]
        while frames[-1]["type"] != "done":
            frames.append(ws.receive_json())
    message_id = frames[0]["message_id"]
    cid = conv["id"]
    for method, path, body in [
        ("GET", f"/api/conversations/{cid}", None),
        ("PATCH", f"/api/conversations/{cid}", {"title": "mine now"}),
        ("DELETE", f"/api/conversations/{cid}", None),
        ("DELETE", f"/api/documents/{cid}", None),
    ]:
        r = client.request(method, path, json=body, headers=auth(bob))
        assert r.status_code == 404, (method, path)
        assert r.json()["error"]["code"] == "not_found"
    with client.websocket_connect(f"/ws?token={bob}") as ws:
        for frame in (
            {"type": "chat", "conversation_id": cid, "content": "hi"},
            {"type": "regenerate", "conversation_id": cid},
            {"type": "resume", "message_id": message_id, "after": 0},
            {"type": "cancel", "message_id": message_id},
        ):
            ws.send_json(frame)
            reply = ws.receive_json()
            assert reply["type"] == "error" and reply["code"] == "not_found", frame
    # Nothing of Alice's changed.
    r = client.get(f"/api/conversations/{cid}", headers=auth(alice)).json()
    assert r["title"] == "private" and [m["content"] for m in r["messages"]] == [
        "secret", "You said: secret"]
