"""Chat turns with real retrieval (fake engine): the citations frame, what the prompt holds,
the stored citations, prefix-cache reuse, and the context budget (fewer sources rather than
dropped history)."""

from __future__ import annotations

from app.prompt import PromptBuilder, PromptMessage
from retrieval.prompt_context import format_context
from retrieval.types import Source
from tests.app.conftest import auth, signup
from tests.app.docutil import ask, upload, upload_ready
from tests.app.fakes import FakeEngine, FakeTokenizer
from tests.app.wsutil import conversation

FESTIVAL = b"The Zorblax lantern festival is held every autumn in the harbour town of Quellhaven."
PENGUINS = b"Emperor penguins huddle together in large groups to survive the Antarctic winter."
QUESTION = "Where is the Zorblax lantern festival held?"


def test_citations_come_first_are_stored_and_the_cache_still_hits(rag_app) -> None:
    app = rag_app()
    with app.client as client:
        token = signup(client, "alice")
        doc = upload_ready(client, token, "festival.txt", FESTIVAL)
        upload_ready(client, token, "penguins.txt", PENGUINS)
        with client.websocket_connect(f"/ws?token={token}") as ws:
            first, cited = ask(ws, QUESTION)
            cid = first[0]["conversation_id"]
            unrelated, _ = ask(ws, "Please count from one to five.", cid)
            no_docs, _ = ask(ws, QUESTION, cid, documents=False)
        assert [f["type"] for f in first[:3]] == ["start", "citations", "delta"]
        (source,) = first[1]["sources"]
        assert first[1]["message_id"] == first[0]["message_id"]
        assert (source["document_id"], source["filename"], source["text"]) == (
            doc["id"], "festival.txt", FESTIVAL.decode())
        assert source["chunk_id"].isdigit() and 0.3 <= source["score"] <= 1.0
        assert all(f["type"] != "citations" for f in unrelated + no_docs)
        prompts = [app.engine.tokenizer.decode(p, False) for p in app.engine.prompts]
        assert f"[1] festival.txt\n{FESTIVAL.decode()}\n\nQuestion: {QUESTION}" in prompts[0]
        assert "Sources:" not in prompts[1].split(prompts[0])[1]
        # Each turn's prompt extends the last one (with its answer): the context stays in
        # the turn it was retrieved for, so the prefix cache is hit every time.
        for before, after, frames in zip(app.engine.prompts[:-1], app.engine.prompts[1:],
                                         (unrelated, no_docs), strict=True):
            assert after[: len(before)] == before
            assert frames[-1]["usage"]["cached_tokens"] >= len(before) // 16 * 16 - 16 > 0
        stored = conversation(client, token, cid)["messages"]
        assert stored[1]["citations"] == [source]
        assert [m["citations"] for m in stored[2:]] == [[], [], [], []]


# Two sources that both answer the question, each about 200 characters.
LIGHTHOUSE_A = (b"The lighthouse of Port Evander was built in 1874 on the northern cliffs; its "
                b"keeper climbed the tower every evening to light the lamp for the fishing boats "
                b"returning to the harbour.")
LIGHTHOUSE_B = (b"Mara Quill was the keeper of the Port Evander lighthouse for forty years and "
                b"kept a diary of every ship that passed the lighthouse, which is now in the "
                b"town museum of Port Evander.")
LONG_TURN = "Here is some background I want you to remember for later. " * 6
ASK = "Who kept the lighthouse of Port Evander?"


def _plain_prompt_tokens() -> int:
    """Tokens of the second turn's prompt without sources (fake tokenizer: one per char)."""
    builder = PromptBuilder(FakeTokenizer(), 1_000_000)
    turns = [[PromptMessage("user", LONG_TURN), PromptMessage("assistant", "ok")],
             [PromptMessage("user", ASK)]]
    return len(builder.build(None, turns, 16).token_ids)


def _one_source_tokens() -> int:
    sources = [Source("d", 1, name, 0.5, text.decode())
               for name, text in (("a.txt", LIGHTHOUSE_A), ("b.txt", LIGHTHOUSE_B))]
    return max(len(format_context([s], 1_000_000, len).text) for s in sources)


def _two_turns(client, token: str) -> tuple[list, list]:
    with client.websocket_connect(f"/ws?token={token}") as ws:
        first, _ = ask(ws, LONG_TURN, documents=False, params={"max_tokens": 16})
        second, cited = ask(ws, ASK, first[0]["conversation_id"], params={"max_tokens": 16})
    return second, cited


def test_sources_shrink_to_fit_rather_than_history_being_dropped(rag_app) -> None:
    roomy = rag_app(engine=FakeEngine(reply=lambda p: "ok"), retrieval={"top_k": 2})
    with roomy.client as client:
        token = signup(client, "alice")
        a = upload_ready(client, token, "a.txt", LIGHTHOUSE_A)
        b = upload_ready(client, token, "b.txt", LIGHTHOUSE_B)
        second, cited = _two_turns(client, token)
        assert sorted(cited) == sorted([a["id"], b["id"]])  # both match when there is room
        assert second[-1]["dropped_turns"] == 0
    # Room for the history, the answer and one source, not two (the wrapper around the
    # sources and the safety margin take under 60 tokens).
    max_model_len = _plain_prompt_tokens() + 16 + _one_source_tokens() + 60
    tight = rag_app(engine=FakeEngine(reply=lambda p: "ok", max_model_len=max_model_len),
                    retrieval={"top_k": 2})
    with tight.client as client:
        second, cited = _two_turns(client, token)
        assert len(cited) == 1 and cited[0] in {a["id"], b["id"]}
        assert second[-1]["dropped_turns"] == 0 and second[-1]["finish_reason"] == "stop"
        prompt = tight.engine.tokenizer.decode(tight.engine.prompts[-1], False)
        assert LONG_TURN in prompt and "[1] " in prompt and "[2] " not in prompt
        assert len(tight.engine.prompts[-1]) + 16 <= max_model_len


def test_retrieval_disabled_in_settings(rag_app) -> None:
    app = rag_app(retrieval={"enabled": False})
    with app.client as client:
        token = signup(client, "alice")
        r = upload(client, token, "festival.txt", FESTIVAL)
        assert r.status_code == 503
        with client.websocket_connect(f"/ws?token={token}") as ws:
            _, cited = ask(ws, QUESTION)
        assert cited == [] and app.service.retriever is None
        assert client.get("/api/documents", headers=auth(token)).json() == {"documents": []}
