"""End to end with the real default model (SmolLM2-135M-Instruct) and the real engine."""

from __future__ import annotations

from pathlib import Path

import pytest
from starlette.testclient import TestClient

from app.main import create_app
from app.settings import Settings
from tests.app.conftest import auth, signup
from tests.app.wsutil import chat, conversation, text_of

pytestmark = pytest.mark.slow


def _engine_available() -> str | None:
    try:
        from engine import AsyncEngine  # noqa: F401
        from engine.loader import default_model_path

        default_model_path()
    except Exception as exc:  # import error or the model package missing
        return f"{type(exc).__name__}: {exc}"
    return None


def test_two_turns_reuse_the_prefix_cache_and_v1_answers(tmp_path: Path) -> None:
    reason = _engine_available()
    if reason is not None:
        pytest.skip(f"engine.AsyncEngine or the default model is not available: {reason}")
    settings = Settings(
        _env_file=None, data_dir=tmp_path / "data", auth={"scrypt_n": 16},
        engine={"max_model_len": 1024, "num_kv_blocks": 256},
    )
    with TestClient(create_app(settings)) as client:
        token = signup(client, "alice")
        greedy = {"temperature": 0, "max_tokens": 24}
        with client.websocket_connect(f"/ws?token={token}") as ws:
            first = chat(ws, "What is the capital of France?", params=greedy)
            cid = first[0]["conversation_id"]
            second = chat(ws, "And of Germany?", cid, params=greedy)
        assert "Paris" in text_of(first) and "Berlin" in text_of(second)
        u1, u2 = first[-1]["usage"], second[-1]["usage"]
        assert first[-1]["finish_reason"] == "stop" and u1["cached_tokens"] == 0
        # Everything the engine computed in turn 1 (prompt + answer minus its last sampled
        # token), in whole 16-token blocks, is served from the prefix cache in turn 2.
        assert u2["cached_tokens"] == (u1["prompt_tokens"] + u1["completion_tokens"] - 1) // 16 * 16
        assert u2["cached_tokens"] >= 16
        stored = conversation(client, token, cid)["messages"]
        assert [m["status"] for m in stored] == ["complete"] * 4
        assert stored[1]["content"] == text_of(first) and stored[1]["usage"] == u1
        r = client.post("/v1/chat/completions", headers=auth(token), json={
            "messages": [{"role": "user", "content": "What is the capital of France?"}],
            "temperature": 0, "max_tokens": 24})
        assert r.status_code == 200
        body = r.json()
        assert "Paris" in body["choices"][0]["message"]["content"]
        assert body["usage"]["prompt_tokens_details"]["cached_tokens"] >= 16
        metrics = client.get("/metrics").text
        assert "hearth_prefix_cache_hits_total 0.0" not in metrics
