"""/api/documents through the retrieval seam (a recording ingestor stands in for retrieval)."""

from __future__ import annotations

from starlette.testclient import TestClient

from app.errors import UnsupportedMediaTypeError
from app.hooks import ChunkDraft, TurnHooks
from app.main import create_app
from tests.app.conftest import auth, signup


class RecordingIngestor:
    def __init__(self) -> None:
        self.indexed: list[tuple[str, str | None, list[tuple[int, str]]]] = []
        self.removed: list[int] = []

    async def prepare(self, filename: str, data: bytes) -> list[ChunkDraft]:
        if not filename.endswith(".txt"):
            raise UnsupportedMediaTypeError(f"unsupported file type for {filename!r}")
        text = data.decode()
        return [ChunkDraft(ordinal=i, text=part, char_start=0, char_end=len(part))
                for i, part in enumerate(text.split("\n\n"))]

    async def index(self, user_id, conversation_id, chunks) -> None:
        self.indexed.append((user_id, conversation_id, chunks))

    async def remove(self, chunk_ids: list[int]) -> None:
        self.removed += chunk_ids


def _client(make_settings, fake_engine, ingestor, **overrides) -> TestClient:
    app = create_app(make_settings(**overrides), engine_factory=lambda s: fake_engine,
                     hooks=TurnHooks(documents=ingestor))
    return TestClient(app)


def test_upload_list_delete(make_settings, fake_engine) -> None:
    ingestor = RecordingIngestor()
    with _client(make_settings, fake_engine, ingestor) as client:
        alice, bob = signup(client, "alice"), signup(client, "bob")
        r = client.post("/api/documents", headers=auth(alice),
                        files={"file": ("notes.txt", b"one\n\ntwo", "text/plain")})
        assert r.status_code == 201, r.text
        doc = r.json()
        assert (doc["filename"], doc["status"], doc["num_chunks"], doc["size_bytes"]) == (
            "notes.txt", "ready", 2, 8)
        (user_id, conversation_id, chunks), = ingestor.indexed
        assert conversation_id is None and [text for _, text in chunks] == ["one", "two"]
        listed = client.get("/api/documents", headers=auth(alice)).json()["documents"]
        assert [d["id"] for d in listed] == [doc["id"]]
        assert client.get("/api/documents", headers=auth(bob)).json() == {"documents": []}
        assert client.delete(f"/api/documents/{doc['id']}", headers=auth(bob)).status_code == 404
        assert client.delete(f"/api/documents/{doc['id']}", headers=auth(alice)).status_code == 204
        assert sorted(ingestor.removed) == sorted(cid for cid, _ in chunks)
        assert client.get("/api/documents", headers=auth(alice)).json() == {"documents": []}


def test_upload_errors(make_settings, fake_engine) -> None:
    ingestor = RecordingIngestor()
    with _client(make_settings, fake_engine, ingestor,
                 limits={"max_upload_bytes": 100}) as client:
        alice, bob = signup(client, "alice"), signup(client, "bob")
        conv = client.post("/api/conversations", json={}, headers=auth(alice)).json()
        r = client.post("/api/documents", headers=auth(bob), data={"conversation_id": conv["id"]},
                        files={"file": ("a.txt", b"hi", "text/plain")})
        assert r.status_code == 404  # someone else's conversation
        r = client.post("/api/documents", headers=auth(alice),
                        files={"file": ("a.pdf", b"hi", "application/pdf")})
        assert r.status_code == 415 and r.json()["error"]["code"] == "unsupported_media_type"
        r = client.post("/api/documents", headers=auth(alice),
                        files={"file": ("big.txt", b"x" * 101, "text/plain")})
        assert r.status_code == 413
        r = client.post("/api/documents", headers=auth(alice), json={"file": "nope"})
        assert r.status_code == 422
        r = client.post("/api/documents", headers=auth(alice), data={"other": "x"},
                        files={"nofile": ("a.txt", b"hi", "text/plain")})
        assert r.status_code == 422
        client.cookies.clear()  # signup set a session cookie
        r = client.post("/api/documents", files={"file": ("a.txt", b"hi", "text/plain")})
        assert r.status_code == 401
        r = client.post("/api/documents", headers=auth(alice), data={"conversation_id": conv["id"]},
                        files={"file": ("in-conv.txt", b"hi", "text/plain")})
        assert r.status_code == 201 and r.json()["conversation_id"] == conv["id"]
        assert ingestor.indexed[-1][1] == conv["id"]


def test_upload_without_retrieval_is_503(client: TestClient) -> None:
    token = signup(client, "alice")
    r = client.post("/api/documents", headers=auth(token),
                    files={"file": ("a.txt", b"hi", "text/plain")})
    assert r.status_code == 503 and r.json()["error"]["code"] == "unavailable"


def test_bad_ids_and_text_never_reach_the_database(client: TestClient) -> None:
    token = signup(client, "alice")
    for path in ("/api/conversations/%00", "/api/conversations/a%20b", "/api/documents/%00x"):
        method = "DELETE" if "documents" in path else "GET"
        r = client.request(method, path, headers=auth(token))
        assert r.status_code == 404, path
    r = client.post("/api/conversations", json={"title": "a\x00b"}, headers=auth(token))
    assert r.status_code == 422 and "NUL" in r.json()["error"]["message"]
    r = client.post("/api/auth/login", json={"username": "al\x00ice", "password": "whatever12"})
    assert r.status_code in (401, 422)
    r = client.get("/api/admin/moderation?rail=%00", headers=auth(token))
    assert r.status_code == 422
