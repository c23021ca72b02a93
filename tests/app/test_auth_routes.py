"""Accounts: signup, login, logout, tokens, roles (PROTOCOL.md, Auth)."""

from __future__ import annotations

from starlette.testclient import TestClient

from app.main import create_app
from tests.app.conftest import auth, signup


def test_first_signup_is_admin_then_users(client: TestClient) -> None:
    r = client.post("/api/auth/signup", json={"username": "alice", "password": "longenough"})
    assert r.status_code == 201
    body = r.json()
    assert body["user"]["username"] == "alice" and body["user"]["role"] == "admin"
    assert body["token"].startswith("hth_")
    r = client.post("/api/auth/signup", json={"username": "bob", "password": "longenough"})
    assert r.json()["user"]["role"] == "user"


def test_signup_rejects_taken_weak_and_bad_names(client: TestClient) -> None:
    signup(client, "alice")
    r = client.post("/api/auth/signup", json={"username": "alice", "password": "longenough"})
    assert r.status_code == 409 and r.json()["error"]["code"] == "conflict"
    r = client.post("/api/auth/signup", json={"username": "carol", "password": "short"})
    assert r.status_code == 422 and "password" in r.json()["error"]["message"]
    r = client.post("/api/auth/signup", json={"username": "carol", "password": ""})
    assert r.status_code == 422
    for name in ("ab", "x" * 33, "bad name", "émile"):
        r = client.post("/api/auth/signup", json={"username": name, "password": "longenough"})
        assert r.status_code == 422, name
        assert repr(name) in r.json()["error"]["message"]
    r = client.post("/api/auth/signup", content=b"{not json")
    assert r.status_code == 400 and r.json()["error"]["code"] == "invalid_json"
    r = client.post("/api/auth/signup", json=["alice"])
    assert r.status_code == 422


def test_login_sets_strict_httponly_cookie_and_hides_which_part_was_wrong(
    client: TestClient,
) -> None:
    signup(client, "alice", "correct horse")
    client.cookies.clear()
    r = client.post("/api/auth/login", json={"username": "alice", "password": "correct horse"})
    assert r.status_code == 200 and r.json()["user"]["username"] == "alice"
    cookie = r.headers["set-cookie"]
    assert cookie.startswith("hearth_session=")
    assert "HttpOnly" in cookie and "SameSite=strict" in cookie and "Path=/" in cookie
    wrong_password = client.post("/api/auth/login",
                                 json={"username": "alice", "password": "wrong horse"})
    no_user = client.post("/api/auth/login", json={"username": "nobody", "password": "whatever1"})
    assert wrong_password.status_code == no_user.status_code == 401
    assert wrong_password.json() == no_user.json()


def test_cookie_authenticates_and_logout_revokes(client: TestClient) -> None:
    signup(client, "alice")
    client.cookies.clear()
    client.post("/api/auth/login", json={"username": "alice", "password": "correct horse"})
    assert client.get("/api/conversations").status_code == 200  # by cookie
    token = client.post(
        "/api/auth/login", json={"username": "alice", "password": "correct horse"}
    ).json()["token"]
    client.cookies.clear()
    assert client.get("/api/conversations", headers=auth(token)).status_code == 200
    assert client.post("/api/auth/logout", headers=auth(token)).status_code == 204
    r = client.get("/api/conversations", headers=auth(token))
    assert r.status_code == 401 and r.json()["error"]["code"] == "unauthorized"


def test_no_or_bad_token_is_401(client: TestClient) -> None:
    client.cookies.clear()
    assert client.get("/api/conversations").status_code == 401
    assert client.get("/api/conversations", headers=auth("hth_nope")).status_code == 401
    r = client.get("/api/conversations", headers={"Authorization": "Basic abc"})
    assert r.status_code == 401


def test_admin_routes_need_admin(client: TestClient) -> None:
    admin = signup(client, "alice")
    user = signup(client, "bob")
    assert client.get("/api/admin/moderation", headers=auth(admin)).json() == {"events": []}
    r = client.get("/api/admin/moderation", headers=auth(user))
    assert r.status_code == 403 and r.json()["error"]["code"] == "forbidden"
    r = client.get("/api/admin/moderation?stage=middle", headers=auth(admin))
    assert r.status_code == 422


def test_signup_can_be_closed(make_settings, fake_engine) -> None:
    app = create_app(make_settings(auth={"signup_open": False}), engine_factory=lambda s: fake_engine)
    with TestClient(app) as c:
        r = c.post("/api/auth/signup", json={"username": "alice", "password": "longenough"})
        assert r.status_code == 403


def test_passwords_and_tokens_are_not_stored_in_clear(client: TestClient, db_target) -> None:
    import asyncio

    from sqlalchemy import text

    from app.db.session import Database

    token = signup(client, "alice", "correct horse")

    async def read() -> tuple[str, list[str]]:
        db = Database(db_target.url, db_target.schema)
        try:
            async with db.engine.connect() as conn:
                pw = (await conn.execute(text("SELECT password_hash FROM users"))).scalar_one()
                hashes = list((await conn.execute(text("SELECT token_hash FROM tokens"))).scalars())
                return pw, hashes
        finally:
            await db.dispose()

    password_hash, token_hashes = asyncio.run(read())
    assert password_hash.startswith("scrypt$") and "correct horse" not in password_hash
    assert token not in token_hashes and len(token_hashes[0]) == 64
