"""Helpers for document tests: upload, wait until indexed, ask through the WebSocket."""

from __future__ import annotations

import time
from typing import Any

from starlette.testclient import TestClient

from tests.app.conftest import auth
from tests.app.wsutil import Frame, chat

DOCX_TYPE = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"


def upload(client: TestClient, token: str, name: str, data: bytes,
           conversation_id: str | None = None, content_type: str = "application/octet-stream"):
    form = {"conversation_id": conversation_id} if conversation_id else None
    return client.post("/api/documents", headers=auth(token), data=form,
                       files={"file": (name, data, content_type)})


def documents(client: TestClient, token: str) -> list[dict[str, Any]]:
    r = client.get("/api/documents", headers=auth(token))
    assert r.status_code == 200, r.text
    return r.json()["documents"]


def wait_indexed(client: TestClient, token: str, document_id: str,
                 timeout: float = 30.0) -> dict[str, Any]:
    """The document once it left `processing` (ready or failed)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        (doc,) = [d for d in documents(client, token) if d["id"] == document_id]
        if doc["status"] != "processing":
            return doc
        time.sleep(0.02)
    raise AssertionError(f"document {document_id} still processing after {timeout} s")


def upload_ready(client: TestClient, token: str, name: str, data: bytes,
                 conversation_id: str | None = None) -> dict[str, Any]:
    r = upload(client, token, name, data, conversation_id)
    assert r.status_code == 201, r.text
    assert r.json()["status"] == "processing"
    doc = wait_indexed(client, token, r.json()["id"])
    assert doc["status"] == "ready", doc
    return doc


def citations(frames: list[Frame]) -> list[dict[str, Any]]:
    """The sources of the turn's citations frame ([] when it had none)."""
    found = [f for f in frames if f["type"] == "citations"]
    assert len(found) <= 1
    return found[0]["sources"] if found else []


def ask(ws: Any, question: str, conversation_id: str | None = None,
        **extra: Any) -> tuple[list[Frame], list[str]]:
    """Frames of one turn and the document ids it cited, best first."""
    frames = chat(ws, question, conversation_id, **extra)
    assert frames[-1]["type"] == "done", frames[-3:]
    return frames, [s["document_id"] for s in citations(frames)]
