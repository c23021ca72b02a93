"""/api/documents through the retrieval seam (a scripted ingestor stands in for retrieval):
the upload answers `processing`, a background job indexes it with visible progress, and
deletion or failure leaves nothing in the index."""

from __future__ import annotations

import asyncio
import threading

from starlette.testclient import TestClient

from app.errors import UnreadableDocumentError, UnsupportedMediaTypeError
from app.hooks import ChunkDraft, IngestProgress, PreparedUpload, StoredDocument, TurnHooks
from app.main import create_app
from tests.app.conftest import auth, signup
from tests.app.docutil import documents, upload, wait_indexed


class ScriptedIngestor:
    """Accepts .txt only, one chunk per paragraph. `index` reports progress chunk by chunk;
    after `hold_after` chunks it waits for `gate`; `fail` makes it raise instead."""

    def __init__(self, hold_after: int | None = None, fail: str | None = None) -> None:
        self.hold_after = hold_after
        self.fail = fail
        self.gate = threading.Event()
        self.indexed: list[StoredDocument] = []
        self.removed: list[int] = []

    async def prepare(self, filename: str | None, data: bytes) -> PreparedUpload:
        if not (filename or "").endswith(".txt"):
            raise UnsupportedMediaTypeError(f"unsupported file type for {filename!r}")
        parts = data.decode().split("\n\n")
        return PreparedUpload(filename=filename or "", content_type="text/plain", chunks=tuple(
            ChunkDraft(ordinal=i, text=p, char_start=0, char_end=len(p))
            for i, p in enumerate(parts)))

    async def index(self, document: StoredDocument, progress: IngestProgress) -> None:
        total = len(document.chunks)
        for done in range(total + 1):
            if self.hold_after is not None and done > self.hold_after:
                while not self.gate.is_set():
                    await asyncio.sleep(0.005)
            progress(done, total)
        if self.fail is not None:
            raise UnreadableDocumentError(self.fail)
        self.indexed.append(document)

    async def remove(self, chunk_ids) -> None:
        self.removed += chunk_ids


def _client(make_settings, fake_engine, ingestor, **overrides) -> TestClient:
    app = create_app(make_settings(**overrides), engine_factory=lambda s: fake_engine,
                     hooks=TurnHooks(documents=ingestor))
    return TestClient(app)


def test_upload_list_delete(make_settings, fake_engine) -> None:
    ingestor = ScriptedIngestor()
    with _client(make_settings, fake_engine, ingestor) as client:
        alice, bob = signup(client, "alice"), signup(client, "bob")
        r = upload(client, alice, "notes.txt", b"one\n\ntwo")
        assert r.status_code == 201, r.text
        doc = r.json()
        assert (doc["filename"], doc["status"], doc["num_chunks"], doc["num_chunks_embedded"],
                doc["size_bytes"]) == ("notes.txt", "processing", 2, 0, 8)
        ready = wait_indexed(client, alice, doc["id"])
        assert (ready["status"], ready["num_chunks_embedded"], ready["error"]) == ("ready", 2, None)
        (stored,) = ingestor.indexed
        assert (stored.document_id, stored.conversation_id) == (doc["id"], None)
        assert [c.text for c in stored.chunks] == ["one", "two"]
        assert [d["id"] for d in documents(client, alice)] == [doc["id"]]
        assert documents(client, bob) == []
        assert client.delete(f"/api/documents/{doc['id']}", headers=auth(bob)).status_code == 404
        assert client.delete(f"/api/documents/{doc['id']}", headers=auth(alice)).status_code == 204
        assert sorted(ingestor.removed) == sorted(stored.chunk_ids)
        assert documents(client, alice) == []


def test_progress_is_visible_and_a_delete_stops_the_job(make_settings, fake_engine) -> None:
    ingestor = ScriptedIngestor(hold_after=1)
    with _client(make_settings, fake_engine, ingestor) as client:
        alice = signup(client, "alice")
        doc = upload(client, alice, "notes.txt", b"a\n\nb\n\nc").json()
        for _ in range(500):
            (listed,) = documents(client, alice)
            if listed["num_chunks_embedded"] == 1:
                break
        assert (listed["status"], listed["num_chunks_embedded"], listed["num_chunks"]) == (
            "processing", 1, 3)
        assert client.delete(f"/api/documents/{doc['id']}", headers=auth(alice)).status_code == 204
        ingestor.gate.set()
        state = client.app.state.hearth  # type: ignore[attr-defined]
        for _ in range(500):
            if len(state.ingestion) == 0:
                break
            threading.Event().wait(0.01)
        assert len(state.ingestion) == 0 and ingestor.indexed == []
        # The delete removed the chunk ids; the stopped job removed them again (no-op).
        assert len(ingestor.removed) == 6 and len(set(ingestor.removed)) == 3
        assert documents(client, alice) == []


def test_failed_indexing_is_reported_with_its_reason(make_settings, fake_engine) -> None:
    ingestor = ScriptedIngestor(fail="embedding broke")
    with _client(make_settings, fake_engine, ingestor) as client:
        alice = signup(client, "alice")
        doc = upload(client, alice, "notes.txt", b"a\n\nb").json()
        failed = wait_indexed(client, alice, doc["id"])
        assert (failed["status"], failed["error"], failed["num_chunks_embedded"]) == (
            "failed", "embedding broke", 0)
        assert len(ingestor.removed) == 2  # whatever reached the index left it


def test_upload_errors(make_settings, fake_engine) -> None:
    ingestor = ScriptedIngestor()
    with _client(make_settings, fake_engine, ingestor,
                 limits={"max_upload_bytes": 100}) as client:
        alice, bob = signup(client, "alice"), signup(client, "bob")
        conv = client.post("/api/conversations", json={}, headers=auth(alice)).json()
        r = upload(client, bob, "a.txt", b"hi", conversation_id=conv["id"])
        assert r.status_code == 404  # someone else's conversation
        r = upload(client, alice, "a.txt", b"hi", conversation_id="../../etc")
        assert r.status_code == 422
        r = upload(client, alice, "a.pdf", b"hi")
        assert r.status_code == 415 and r.json()["error"]["code"] == "unsupported_media_type"
        r = upload(client, alice, "big.txt", b"x" * 101)
        assert r.status_code == 413 and r.json()["error"]["code"] == "payload_too_large"
        r = client.post("/api/documents", headers=auth(alice), json={"file": "nope"})
        assert r.status_code == 422
        r = client.post("/api/documents", headers=auth(alice), data={"other": "x"},
                        files={"nofile": ("a.txt", b"hi", "text/plain")})
        assert r.status_code == 422 and "nofile" in r.json()["error"]["message"]
        r = client.post("/api/documents", headers=auth(alice), data={"other": "x"},
                        files={"file": ("a.txt", b"hi", "text/plain")})
        assert r.status_code == 422 and "other" in r.json()["error"]["message"]
        r = client.post("/api/documents", headers=auth(alice), files=[
            ("file", ("a.txt", b"hi", "text/plain")), ("file", ("b.txt", b"ho", "text/plain"))])
        assert r.status_code == 422
        r = client.post("/api/documents", headers={
            **auth(alice), "content-type": "multipart/form-data; boundary=xyz"},
            content=b"--xyz\r\nContent-Disposition: form-data; name=\"file\"; "
                    b"filename=\"a.txt\"\r\n\r\nhalf a bo")
        assert r.status_code == 422 and "closing boundary" in r.json()["error"]["message"]
        client.cookies.clear()  # signup set a session cookie
        r = upload(client, "not-a-token", "a.txt", b"hi")
        assert r.status_code == 401
        r = upload(client, alice, "in-conv.txt", b"hi", conversation_id=conv["id"])
        assert r.status_code == 201 and r.json()["conversation_id"] == conv["id"]
        wait_indexed(client, alice, r.json()["id"])
        assert ingestor.indexed[-1].conversation_id == conv["id"]
        assert len(ingestor.indexed) == 1  # nothing rejected reached the index


def test_upload_without_retrieval_is_503(client: TestClient) -> None:
    token = signup(client, "alice")
    r = upload(client, token, "a.txt", b"hi")
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
