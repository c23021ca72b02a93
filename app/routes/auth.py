"""POST /api/auth/signup, /api/auth/login, /api/auth/logout."""

from __future__ import annotations

import asyncio

from pydantic import BaseModel
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from app.auth import (
    USERNAME_RE,
    dummy_verify,
    hash_password,
    validate_password,
    validate_username,
    verify_password,
)
from app.db import users
from app.errors import ForbiddenError, UnauthorizedError
from app.http import connection_token, read_json, require_user, state_of
from app.views import user_json


class Credentials(BaseModel):
    username: str
    password: str


def _with_cookie(request: Request, response: JSONResponse, token: str) -> JSONResponse:
    auth = state_of(request).settings.auth
    response.set_cookie(
        auth.cookie_name, token, max_age=int(auth.token_ttl_hours * 3600), httponly=True,
        samesite="strict", secure=auth.cookie_secure, path="/",
    )
    return response


async def signup(request: Request) -> Response:
    state = state_of(request)
    body = await read_json(request, Credentials)
    username = validate_username(body.username)
    password = validate_password(body.password)
    if not state.settings.auth.signup_open:
        raise ForbiddenError("signup is closed on this server")
    # scrypt is deliberately slow: keep it off the event loop.
    password_hash = await asyncio.to_thread(hash_password, password, state.settings.auth.scrypt_n)
    async with state.db.session() as s:
        role = "user" if await users.admin_exists(s) else "admin"
        user = await users.create_user(s, username, password_hash, role)
        token, _ = await users.issue_token(s, user.id, state.settings.auth.token_ttl_hours)
        data = {"user": user_json(user), "token": token}
    return _with_cookie(request, JSONResponse(data, status_code=201), token)


async def login(request: Request) -> Response:
    state = state_of(request)
    body = await read_json(request, Credentials)
    user = None
    if USERNAME_RE.fullmatch(body.username):
        async with state.db.session() as s:
            user = await users.get_by_username(s, body.username)
    if user is None:
        await asyncio.to_thread(dummy_verify, state.settings.auth.scrypt_n)
        raise UnauthorizedError("wrong username or password")
    if not await asyncio.to_thread(verify_password, body.password, user.password_hash):
        raise UnauthorizedError("wrong username or password")
    async with state.db.session() as s:
        token, _ = await users.issue_token(s, user.id, state.settings.auth.token_ttl_hours)
    return _with_cookie(request, JSONResponse({"user": user_json(user), "token": token}), token)


async def logout(request: Request) -> Response:
    user = await require_user(request)
    state = state_of(request)
    assert connection_token(request) is not None
    async with state.db.session() as s:
        await users.revoke_token(s, user.token_id)
    response = Response(status_code=204)
    response.delete_cookie(state.settings.auth.cookie_name, path="/")
    return response


routes = [
    Route("/api/auth/signup", signup, methods=["POST"]),
    Route("/api/auth/login", login, methods=["POST"]),
    Route("/api/auth/logout", logout, methods=["POST"]),
]
