"""Helpers for WebSocket tests: read frames until a condition, fetch stored messages."""

from __future__ import annotations

from typing import Any

from starlette.testclient import TestClient

from tests.app.conftest import auth

Frame = dict[str, Any]


def until(ws: Any, pred, limit: int = 2000) -> list[Frame]:
    """Frames up to and including the first one matching `pred`."""
    frames: list[Frame] = []
    for _ in range(limit):
        frames.append(ws.receive_json())
        if pred(frames[-1]):
            return frames
    raise AssertionError(f"no matching frame in {limit}: {frames[-5:]}")


def until_done(ws: Any, message_id: str | None = None) -> list[Frame]:
    return until(ws, lambda f: f["type"] == "done"
                 and (message_id is None or f["message_id"] == message_id))


def chat(ws: Any, content: str, conversation_id: str | None = None, **extra: Any) -> list[Frame]:
    ws.send_json({"type": "chat", "conversation_id": conversation_id, "content": content,
                  **extra})
    return until_done(ws)


def text_of(frames: list[Frame], message_id: str | None = None) -> str:
    deltas = [f for f in frames if f["type"] == "delta"
              and (message_id is None or f["message_id"] == message_id)]
    assert [d["index"] for d in deltas] == list(range(len(deltas)))
    return "".join(d["text"] for d in deltas)


def conversation(client: TestClient, token: str, conversation_id: str) -> dict[str, Any]:
    r = client.get(f"/api/conversations/{conversation_id}", headers=auth(token))
    assert r.status_code == 200, r.text
    return r.json()
