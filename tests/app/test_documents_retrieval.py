"""Documents through the real app with real retrieval (MiniLM embedder, FAISS index on disk),
on SQLite and PostgreSQL: every supported type, rejected files, deletion, isolation between
users and conversations, index repair at start. The engine is the fake one; what is checked
is which sources a chat turn cites."""

from __future__ import annotations

import asyncio
import sqlite3
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.app.conftest import DbTarget, _pg_exec, auth, signup
from tests.app.docutil import DOCX_TYPE, ask, documents, upload, upload_ready, wait_indexed
from tests.retrieval.documents import make_docx, make_pdf, make_zip

PENGUINS = b"Emperor penguins huddle together in large groups to survive the Antarctic winter."
VIOLIN = "The violin has four strings tuned in perfect fifths: G, D, A and E."
VOLCANO = (b"<html><body><h1>Volcanoes</h1><p>A volcano erupts when pressure from gas-rich "
           b"magma forces molten rock up through the crust.</p></body></html>")
SOURDOUGH = b"# Sourdough\n\nSourdough bread rises because wild yeast and bacteria ferment the dough."
LEAVES = "Photosynthesis in plant leaves converts sunlight, water and carbon dioxide into sugar."
FESTIVAL = b"The Zorblax lantern festival is held every autumn in the harbour town of Quellhaven."


def _index_ids(service) -> set[int]:
    return service.retriever.index.ids()


def test_every_type_is_indexed_and_cited(rag_app) -> None:
    app = rag_app()
    cases = [
        ("penguins.txt", PENGUINS, "text/plain", "How do penguins survive the Antarctic winter?"),
        ("bread.md", SOURDOUGH, "text/markdown", "What makes sourdough bread rise?"),
        ("volcano.html", VOLCANO, "text/html", "Why does a volcano erupt?"),
        ("violin.pdf", make_pdf([VIOLIN]), "application/pdf",
         "How many strings does a violin have?"),
        ("leaves.docx", make_docx(["Plants", LEAVES]), DOCX_TYPE,
         "How do plants turn sunlight into sugar?"),
    ]
    with app.client as client:
        token = signup(client, "alice")
        ids = {}
        for name, data, content_type, _ in cases:
            doc = upload_ready(client, token, name, data)
            assert (doc["filename"], doc["content_type"]) == (name, content_type)
            assert doc["num_chunks"] == doc["num_chunks_embedded"] >= 1
            ids[name] = doc["id"]
        with client.websocket_connect(f"/ws?token={token}") as ws:
            for name, _, _, question in cases:
                _, cited = ask(ws, question)
                assert cited[0] == ids[name], (question, cited)


def test_bad_files_are_refused_and_nothing_lands_outside_the_data_folder(
    rag_app, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    system_tmp = tmp_path / "system-tmp"
    system_tmp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(system_tmp))
    # Linux temporary files may have no name (O_TMPFILE), so calls are counted, not files.
    temp_calls: list[str] = []

    def recording(name: str):
        real = getattr(tempfile, name)

        def record(*args, **kwargs):
            temp_calls.append(name)
            return real(*args, **kwargs)
        return record

    for name in ("TemporaryFile", "NamedTemporaryFile", "mkstemp", "mkdtemp"):
        monkeypatch.setattr(tempfile, name, recording(name))
    app = rag_app(limits={"max_upload_bytes": 3 * 1024 * 1024})
    bomb = make_zip({"word/document.xml": b"\0" * 20_000_000, "[Content_Types].xml": b"<x/>"})
    png = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 8
    with app.client as client:
        token = signup(client, "alice")
        expect = [
            ("photo.png", png, 415, "unsupported file type"),
            ("photo.txt", png, 415, "binary data"),
            ("report.docx", make_pdf(["a PDF in disguise"]), 415, "content is a PDF"),
            ("empty.txt", b"", 422, "the file is empty"),
            ("blank.md", b" \n\t\n ", 422, "the file is empty"),
            ("scan.pdf", make_pdf([""]), 422, "no extractable text"),
            ("invoice.docx", bomb, 413, "expands"),
            # Over the 1 MiB a form parser would spool to a temporary file.
            ("big.txt", b"\xff" * (2 * 1024 * 1024), 415, "binary data"),
        ]
        for name, data, status, reason in expect:
            r = upload(client, token, name, data)
            assert r.status_code == status, (name, r.text)
            assert reason in r.json()["error"]["message"], (name, r.text)
        assert documents(client, token) == []
        for name, shown in [("../../../etc/passwd.txt", "passwd.txt"),
                            ("..\\..\\windows\\win.ini.md", "win.ini.md"),
                            ("/abs/dir/.hidden.txt", "hidden.txt")]:
            doc = upload_ready(client, token, name, FESTIVAL)
            assert doc["filename"] == shown
    assert temp_calls == []
    files = sorted(str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*") if p.is_file())
    allowed = {"hearth.db", "hearth.db-wal", "hearth.db-shm", "data/index/vectors.hvi"}
    assert set(files) <= allowed, files
    assert "data/index/vectors.hvi" in files


def _raw_upload(client, token: str, body_size: int, declare_length: bool) -> tuple[int, int]:
    """POST an upload straight into the ASGI app, feeding the body in 64 KiB pieces; returns
    (status, pieces the app pulled)."""
    boundary = b"hearthboundary"
    head = (b"--" + boundary + b"\r\nContent-Disposition: form-data; name=\"file\"; "
            b"filename=\"big.txt\"\r\nContent-Type: text/plain\r\n\r\n")
    piece = b"a" * 65536
    num_pieces = body_size // len(piece)
    headers = [(b"authorization", f"Bearer {token}".encode()),
               (b"content-type", b"multipart/form-data; boundary=" + boundary),
               (b"host", b"testserver")]
    if declare_length:
        headers.append((b"content-length", str(len(head) + num_pieces * len(piece)).encode()))
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
             "method": "POST", "scheme": "http", "path": "/api/documents", "raw_path": b"",
             "root_path": "", "query_string": b"", "headers": headers,
             "server": ("testserver", 80), "client": ("127.0.0.1", 5000), "state": {}}
    pulled, sent = 0, []

    async def receive() -> dict:
        nonlocal pulled
        if pulled == 0:
            pulled += 1
            return {"type": "http.request", "body": head, "more_body": True}
        if pulled > num_pieces:
            await asyncio.sleep(3600)  # the app reads on: hang like a slow client
        pulled += 1
        return {"type": "http.request", "body": piece, "more_body": pulled <= num_pieces}

    async def send(message: dict) -> None:
        sent.append(message)

    async def run() -> None:
        await client.app(scope, receive, send)

    client.portal.call(run)
    status = next(m["status"] for m in sent if m["type"] == "http.response.start")
    return status, pulled


def test_too_large_is_refused_before_the_body_is_read(rag_app) -> None:
    app = rag_app(limits={"max_upload_bytes": 200_000})
    with app.client as client:
        token = signup(client, "alice")
        # Declared too large: refused from the headers, no body piece read.
        assert _raw_upload(client, token, 50 * 1024 * 1024, declare_length=True) == (413, 0)
        # Undeclared (chunked): refused once the limit is passed, far before the end.
        status, pulled = _raw_upload(client, token, 50 * 1024 * 1024, declare_length=False)
        assert status == 413 and pulled <= 6, pulled
        assert documents(client, token) == []


def test_delete_takes_the_vectors_out_of_the_index(rag_app) -> None:
    app = rag_app()
    with app.client as client:
        token = signup(client, "alice")
        doc = upload_ready(client, token, "festival.txt", FESTIVAL)
        other = upload_ready(client, token, "penguins.txt", PENGUINS)
        before = _index_ids(app.service)
        assert len(before) == 2
        with client.websocket_connect(f"/ws?token={token}") as ws:
            _, cited = ask(ws, "Where is the Zorblax lantern festival held?")
            assert cited[0] == doc["id"]
            assert client.delete(f"/api/documents/{doc['id']}",
                                 headers=auth(token)).status_code == 204
            _, cited = ask(ws, "Where is the Zorblax lantern festival held?")
            assert doc["id"] not in cited
        assert len(_index_ids(app.service)) == 1 and _index_ids(app.service) < before
        assert [d["id"] for d in documents(client, token)] == [other["id"]]
    with rag_app().client:  # the saved index file no longer has them either
        pass
    restarted = rag_app()
    with restarted.client:
        assert restarted.service.retriever.load_report.status == "loaded"
        assert _index_ids(restarted.service) == _index_ids(app.service)


def test_chunk_ids_are_never_reused(rag_app) -> None:
    app = rag_app()
    with app.client as client:
        token = signup(client, "alice")
        first = upload_ready(client, token, "festival.txt", FESTIVAL)
        first_ids = _index_ids(app.service)
        client.delete(f"/api/documents/{first['id']}", headers=auth(token))
        upload_ready(client, token, "festival.txt", FESTIVAL)
        assert min(_index_ids(app.service)) > max(first_ids)


def test_users_and_conversations_never_see_other_documents(rag_app) -> None:
    app = rag_app()
    question = "Where is the Zorblax lantern festival held?"
    with app.client as client:
        alice, bob = signup(client, "alice"), signup(client, "bob")
        conv_a = client.post("/api/conversations", json={}, headers=auth(alice)).json()["id"]
        conv_b = client.post("/api/conversations", json={}, headers=auth(alice)).json()["id"]
        assert upload(client, bob, "x.txt", FESTIVAL, conversation_id=conv_a).status_code == 404
        scoped = upload_ready(client, alice, "festival.txt", FESTIVAL, conversation_id=conv_a)
        bobs = upload_ready(client, bob, "penguins.txt", PENGUINS)
        assert client.delete(f"/api/documents/{scoped['id']}",
                             headers=auth(bob)).status_code == 404
        with client.websocket_connect(f"/ws?token={bob}") as ws:
            _, cited = ask(ws, question)
            assert scoped["id"] not in cited and set(cited) <= {bobs["id"]}
            _, cited = ask(ws, FESTIVAL.decode())  # the exact text: still nothing of alice's
            assert scoped["id"] not in cited
        with client.websocket_connect(f"/ws?token={alice}") as ws:
            _, cited = ask(ws, question, conv_a)
            assert cited == [scoped["id"]]
            _, cited = ask(ws, question, conv_b)
            assert cited == []
            _, cited = ask(ws, question)  # a new conversation
            assert cited == []
            _, cited = ask(ws, "How do penguins survive the Antarctic winter?", conv_a)
            assert bobs["id"] not in cited
        # Deleting the conversation deletes its documents and their vectors.
        assert client.delete(f"/api/conversations/{conv_a}",
                             headers=auth(alice)).status_code == 204
        assert documents(client, alice) == []
        assert len(_index_ids(app.service)) == 1  # bob's only


def _set_all_processing(db_target: DbTarget) -> None:
    sql = "UPDATE documents SET status = 'processing'"
    if db_target.kind == "sqlite":
        path = db_target.url.split("///", 1)[1]
        with sqlite3.connect(path) as conn:
            conn.execute(sql)
    else:
        asyncio.run(_pg_exec(f"SET search_path TO {db_target.schema}; {sql}"))


def test_index_is_repaired_at_start_from_the_database(rag_app, db_target, tmp_path) -> None:
    app = rag_app()
    index_file = tmp_path / "data" / "index" / "vectors.hvi"
    question = "Where is the Zorblax lantern festival held?"
    with app.client as client:
        token = signup(client, "alice")
        doc = upload_ready(client, token, "festival.txt", FESTIVAL)
        upload_ready(client, token, "penguins.txt", PENGUINS)
        expected = _index_ids(app.service)

    def restart_and_ask() -> tuple[str, list[str]]:
        again = rag_app()
        with again.client as client:
            for listed in documents(client, token):
                assert wait_indexed(client, token, listed["id"])["status"] == "ready"
            assert _index_ids(again.service) == expected
            with client.websocket_connect(f"/ws?token={token}") as ws:
                return again.service.retriever.load_report.status, ask(ws, question)[1]

    index_file.unlink()
    assert restart_and_ask() == ("rebuilt", [doc["id"]])
    data = bytearray(index_file.read_bytes())
    data[-100:] = bytes(100)  # corrupt the FAISS payload
    index_file.write_bytes(bytes(data))
    assert restart_and_ask() == ("rebuilt", [doc["id"]])
    # A crash mid-ingestion: documents still `processing`, their vectors never saved. The
    # start leaves them out of the index and ingests them again in the background.
    index_file.unlink()
    _set_all_processing(db_target)
    assert restart_and_ask() == ("rebuilt", [doc["id"]])
    # ... also when their vectors had reached the saved index before the crash.
    _set_all_processing(db_target)
    again = rag_app()
    with again.client as client:
        assert again.service.retriever.load_report.num_removed == 2
        assert {wait_indexed(client, token, d["id"])["status"]
                for d in documents(client, token)} == {"ready"}
        assert _index_ids(again.service) == expected


def test_concurrent_uploads_and_searches(rag_app) -> None:
    app = rag_app()
    texts = [FESTIVAL, PENGUINS, SOURDOUGH, VIOLIN.encode()]
    with app.client as client:
        token = signup(client, "alice")
        first = upload_ready(client, token, "festival.txt", FESTIVAL)
        with ThreadPoolExecutor(4) as pool:
            uploads = [pool.submit(upload, client, token, f"doc{i}.txt", text)
                       for i, text in enumerate(texts)]
            with client.websocket_connect(f"/ws?token={token}") as ws:
                for _ in range(3):
                    _, cited = ask(ws, "Where is the Zorblax lantern festival held?")
                    assert cited[0] == first["id"] or cited[0] in {
                        u.result().json()["id"] for u in uploads if u.done()}
            responses = [u.result() for u in uploads]
        assert [r.status_code for r in responses] == [201] * 4
        for r in responses:
            assert wait_indexed(client, token, r.json()["id"])["status"] == "ready"
        assert len(_index_ids(app.service)) == 5
