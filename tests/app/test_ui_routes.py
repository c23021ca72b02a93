"""The browser UI's server side: `/` and `/static/*` with their security headers, the admin
status panel's JSON and the admin view of any user's conversation."""

from __future__ import annotations

import re

from starlette.testclient import TestClient

from app.hooks import GuardEvent, InputDecision, TurnContext, TurnHooks
from app.main import create_app
from app.routes.ui import CSP, FRONTEND_DIR
from tests.app.conftest import auth, signup
from tests.app.fakes import FakeEngine
from tests.app.wsutil import chat


def test_index_is_the_ui_page_with_a_strict_csp(client: TestClient) -> None:
    r = client.get("/")
    assert r.status_code == 200
    assert r.headers["content-type"] == "text/html; charset=utf-8"
    assert r.text == (FRONTEND_DIR / "index.html").read_text()
    assert r.headers["content-security-policy"] == CSP
    assert "script-src 'self';" in CSP and "unsafe" not in CSP
    assert r.headers["x-content-type-options"] == "nosniff"
    assert r.headers["referrer-policy"] == "no-referrer"
    assert client.head("/").status_code == 200


def test_static_files_carry_the_headers_and_missing_ones_are_json_404(client: TestClient) -> None:
    r = client.get("/static/js/main.js")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/javascript")
    assert r.headers["content-security-policy"] == CSP
    vendored = client.get("/static/vendor/dompurify/purify.es.js")
    assert vendored.status_code == 200 and vendored.headers["content-type"].startswith(
        "text/javascript")
    missing = client.get("/static/js/nope.js")
    assert missing.status_code == 404
    assert missing.json()["error"]["code"] == "not_found"
    outside = client.get("/static/../app/main.py")
    assert outside.status_code == 404


def test_index_html_has_no_inline_script_or_style() -> None:
    html = (FRONTEND_DIR / "index.html").read_text()
    assert "<script>" not in html and " style=" not in html and "<style" not in html
    assert re.search(r"\son[a-z]+\s*=", html) is None  # no inline handlers (onclick=...)


def test_admin_status_reports_the_engine(client: TestClient, fake_engine: FakeEngine) -> None:
    admin = signup(client, "root")
    user = signup(client, "eve")
    with client.websocket_connect(f"/ws?token={admin}") as ws:
        chat(ws, "hello there")
    r = client.get("/api/admin/status", headers=auth(admin))
    assert r.status_code == 200
    stats = fake_engine.stats()
    assert r.json() == {
        "model": "fake-model", "max_model_len": 4096, "is_alive": True,
        "num_running": 0, "num_waiting": 0, "kv_cache_usage": 0.0,
        "prefix_cache_queries": stats.prefix_cache_queries,
        "prefix_cache_hits": stats.prefix_cache_hits,
        "prefix_cache_hit_rate": stats.prefix_cache_hits / stats.prefix_cache_queries,
        "num_preemptions": 0, "prompt_tokens_total": stats.prompt_tokens_total,
        "generation_tokens_total": stats.generation_tokens_total,
        "num_active_generations": 0,
    }
    assert stats.prefix_cache_queries > 0
    assert client.get("/api/admin/status", headers=auth(user)).status_code == 403
    client.cookies.clear()  # signup set a session cookie
    assert client.get("/api/admin/status").status_code == 401


def test_admin_status_rate_is_null_before_any_lookup(client: TestClient) -> None:
    admin = signup(client, "root")
    r = client.get("/api/admin/status", headers=auth(admin))
    assert r.json()["prefix_cache_hit_rate"] is None


def test_admin_opens_any_users_conversation(client: TestClient) -> None:
    admin = signup(client, "root")
    user = signup(client, "eve")
    with client.websocket_connect(f"/ws?token={user}") as ws:
        frames = chat(ws, "my question")
    cid = frames[0]["conversation_id"]
    r = client.get(f"/api/admin/conversations/{cid}", headers=auth(admin))
    assert r.status_code == 200
    body = r.json()
    assert body["id"] == cid and body["user"]["username"] == "eve"
    assert [(m["role"], m["status"]) for m in body["messages"]] == [
        ("user", "complete"), ("assistant", "complete")]
    assert body["messages"][0]["content"] == "my question"
    # The owner's own route still hides it from the admin, and users cannot use this one.
    assert client.get(f"/api/conversations/{cid}", headers=auth(admin)).status_code == 404
    assert client.get(f"/api/admin/conversations/{cid}", headers=auth(user)).status_code == 403
    missing = client.get("/api/admin/conversations/nope", headers=auth(admin))
    assert missing.status_code == 404 and "'nope'" in missing.json()["error"]["message"]
    bad = client.get("/api/admin/conversations/bad%20id", headers=auth(admin))
    assert bad.status_code == 404


def test_moderation_events_name_their_user(make_settings, fake_engine: FakeEngine) -> None:
    async def block(text: str, ctx: TurnContext) -> InputDecision:
        return InputDecision(blocked=True, rail="test", reason="no",
                             events=(GuardEvent("input", "test", "block", "no", text),))

    app = create_app(make_settings(), engine_factory=lambda s: fake_engine,
                     hooks=TurnHooks(input_check=block))
    with TestClient(app) as client:
        admin = signup(client, "root")
        user = signup(client, "eve")
        with client.websocket_connect(f"/ws?token={user}") as ws:
            chat(ws, "anything")
        events = client.get("/api/admin/moderation", headers=auth(admin)).json()["events"]
    assert [(e["username"], e["rail"], e["excerpt"]) for e in events] == [
        ("eve", "test", "anything")]
