"""End to end with the real default model, the real engine and real retrieval: an uploaded
document is retrieved, cited and used in the answer."""

from __future__ import annotations

from pathlib import Path

import pytest
from starlette.testclient import TestClient

from app.main import create_app
from app.rag.service import RetrievalService
from app.settings import Settings
from tests.app.conftest import signup
from tests.app.docutil import ask, upload_ready
from tests.app.test_e2e_real_model import _engine_available
from tests.app.wsutil import conversation, text_of

pytestmark = pytest.mark.slow

FESTIVAL = b"The Zorblax lantern festival is held every autumn in the harbour town of Quellhaven."


def test_the_real_model_answers_from_an_uploaded_document(tmp_path: Path, embedder) -> None:
    reason = _engine_available()
    if reason is not None:
        pytest.skip(f"engine.AsyncEngine or the default model is not available: {reason}")
    settings = Settings(
        _env_file=None, data_dir=tmp_path / "data", auth={"scrypt_n": 16},
        engine={"max_model_len": 2048, "num_kv_blocks": 256},
    )
    app = create_app(settings, services=[RetrievalService(embedder)])
    with TestClient(app) as client:
        token = signup(client, "alice")
        doc = upload_ready(client, token, "festival.txt", FESTIVAL)
        greedy = {"temperature": 0, "max_tokens": 32}
        with client.websocket_connect(f"/ws?token={token}") as ws:
            frames, cited = ask(ws, "Where is the Zorblax lantern festival held?", params=greedy)
            cid = frames[0]["conversation_id"]
            follow, _ = ask(ws, "Thank you!", cid, documents=False, params=greedy)
        assert cited == [doc["id"]]
        assert "Quellhaven" in text_of(frames)
        # The next turn reuses the first one (its sources included) from the prefix cache.
        usage = frames[-1]["usage"]
        assert follow[-1]["usage"]["cached_tokens"] == (
            usage["prompt_tokens"] + usage["completion_tokens"] - 1) // 16 * 16
        stored = conversation(client, token, cid)["messages"]
        assert stored[1]["citations"] == frames[1]["sources"]
