"""/health, /ready and /metrics (counters move with real chats)."""

from __future__ import annotations

import re

from starlette.testclient import TestClient

from app.main import create_app
from tests.app.conftest import signup
from tests.app.fakes import FakeEngine
from tests.app.wsutil import chat


def _value(text: str, name: str) -> float:
    match = re.search(rf"^{re.escape(name)} ([0-9.e+-]+)$", text, re.MULTILINE)
    assert match, f"{name} missing"
    return float(match.group(1))


def test_chat_moves_the_metrics(client: TestClient, fake_engine: FakeEngine) -> None:
    token = signup(client, "alice")
    before = client.get("/metrics").text
    assert _value(before, "hearth_generation_tokens_total") == 0
    assert _value(before, "hearth_time_to_first_token_seconds_count") == 0
    for name in ("hearth_inter_token_latency_seconds_count", "hearth_num_requests_running",
                 "hearth_num_requests_waiting", "hearth_kv_cache_usage_ratio",
                 "hearth_prefix_cache_hits_total", "hearth_num_preemptions_total",
                 "hearth_request_queue_time_seconds_count",
                 "hearth_e2e_request_latency_seconds_count"):
        _value(before, name)
    with client.websocket_connect(f"/ws?token={token}") as ws:
        first = chat(ws, "count me")
        chat(ws, "and me", first[0]["conversation_id"])
    after = client.get("/metrics").text
    assert _value(after, "hearth_generation_tokens_total") == 19 + 17
    assert _value(after, "hearth_time_to_first_token_seconds_count") == 2
    assert _value(after, "hearth_e2e_request_latency_seconds_count") == 2
    assert _value(after, "hearth_request_queue_time_seconds_count") == 2
    assert _value(after, "hearth_inter_token_latency_seconds_count") == 19 + 17 - 2
    assert _value(after, "hearth_prefix_cache_hits_total") > 0
    assert _value(after, "hearth_prompt_tokens_total") == (
        sum(len(p) for p in fake_engine.prompts) - _value(after, "hearth_prefix_cache_hits_total"))
    assert 'hearth_requests_total{api="ws",finish_reason="stop"} 2.0' in after


def test_metrics_token(make_settings, fake_engine: FakeEngine) -> None:
    app = create_app(make_settings(auth={"metrics_token": "s3cret"}),
                     engine_factory=lambda s: fake_engine)
    with TestClient(app) as client:
        assert client.get("/metrics").status_code == 401
        r = client.get("/metrics", headers={"Authorization": "Bearer s3cret"})
        assert r.status_code == 200 and "hearth_num_requests_running" in r.text


def test_each_app_has_its_own_registry(make_settings) -> None:
    engines = [FakeEngine(), FakeEngine()]
    apps = [create_app(make_settings(), engine_factory=lambda s, e=e: e) for e in engines]
    with TestClient(apps[0]) as a, TestClient(apps[1]) as b:
        token = signup(a, "alice")
        with a.websocket_connect(f"/ws?token={token}") as ws:
            chat(ws, "only here")
        assert _value(a.get("/metrics").text, "hearth_e2e_request_latency_seconds_count") == 1
        assert _value(b.get("/metrics").text, "hearth_e2e_request_latency_seconds_count") == 0


def test_health_and_ready(client: TestClient, fake_engine: FakeEngine) -> None:
    assert client.get("/health").json() == {"status": "ok"}
    assert client.get("/ready").status_code == 200
    fake_engine.dead = True
    r = client.get("/ready")
    assert r.status_code == 503 and r.json()["error"]["code"] == "unavailable"
    assert client.get("/health").status_code == 200
    token = signup(client, "alice")
    with client.websocket_connect(f"/ws?token={token}") as ws:
        ws.send_json({"type": "chat", "content": "anyone?"})
        assert ws.receive_json()["code"] == "overloaded"


def test_internal_errors_never_leak_a_traceback(make_settings, fake_engine: FakeEngine) -> None:
    def broken_stats():
        raise RuntimeError("secret internals /path/to/file.py line 3")

    app = create_app(make_settings(), engine_factory=lambda s: fake_engine)
    with TestClient(app, raise_server_exceptions=False) as client:
        fake_engine.stats = broken_stats  # type: ignore[method-assign]
        r = client.get("/ready")
    assert r.status_code == 500
    assert r.json() == {"error": {"code": "internal", "message": "internal server error"}}


def test_services_start_after_the_engine_and_stop_before_it(make_settings) -> None:
    events: list[str] = []

    class Index:
        async def start(self, state) -> None:
            events.append(f"start engine_started={state.engine.started}")

        async def stop(self) -> None:
            events.append(f"stop engine_dead={engine.dead}")

    engine = FakeEngine()
    app = create_app(make_settings(), engine_factory=lambda s: engine, services=[Index()])
    with TestClient(app) as client:
        assert client.get("/health").status_code == 200
    assert events == ["start engine_started=True", "stop engine_dead=False"]
    assert engine.dead
