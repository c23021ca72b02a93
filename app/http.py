"""Helpers shared by the HTTP routes: JSON bodies, query values, auth, error answers."""

from __future__ import annotations

import json
from datetime import datetime
from typing import TYPE_CHECKING, Any, TypeVar

from pydantic import BaseModel, ValidationError
from starlette.exceptions import HTTPException
from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse, Response

from app.auth import AuthUser, bearer_token
from app.db import users
from app.errors import (
    AppError,
    ForbiddenError,
    InvalidJsonError,
    InvalidRequestError,
    PayloadTooLargeError,
    UnauthorizedError,
)
from app.textcheck import reject_nul

if TYPE_CHECKING:
    from app.state import AppState

M = TypeVar("M", bound=BaseModel)

_HTTP_CODES = {
    400: "bad_request", 401: "unauthorized", 403: "forbidden", 404: "not_found",
    405: "method_not_allowed", 409: "conflict", 413: "payload_too_large",
    415: "unsupported_media_type", 422: "invalid_request", 429: "rate_limited",
    503: "unavailable",
}


def state_of(conn: HTTPConnection) -> AppState:
    return conn.app.state.hearth  # type: ignore[no-any-return]


def error_response(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)


async def app_error_handler(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, AppError)
    return error_response(exc.status, exc.code, exc.message)


async def http_error_handler(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    code = _HTTP_CODES.get(exc.status_code, "error")
    message = exc.detail if isinstance(exc.detail, str) else code
    if exc.status_code == 404:
        message = f"no route for {request.method} {request.url.path}"
    return error_response(exc.status_code, code, message)


async def internal_error_handler(request: Request, exc: Exception) -> Response:
    # The traceback goes to the log (Starlette's server error middleware), never to the client.
    return error_response(500, "internal", "internal server error")


async def read_json(request: Request, model: type[M]) -> M:
    limit = state_of(request).settings.limits.max_request_bytes
    body = await request.body()
    if len(body) > limit:
        raise PayloadTooLargeError(f"request body of {len(body)} bytes exceeds {limit} bytes")
    try:
        data = json.loads(body) if body else {}
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise InvalidJsonError(f"request body is not valid JSON: {exc}") from None
    if not isinstance(data, dict):
        raise InvalidRequestError(f"request body must be a JSON object, got {type(data).__name__}")
    reject_nul(data)
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        first = exc.errors(include_url=False, include_input=False)[0]
        where = ".".join(str(p) for p in first["loc"]) or "body"
        raise InvalidRequestError(f"{where}: {first['msg']}") from None


def query_int(request: Request, name: str, default: int, low: int, high: int) -> int:
    raw = request.query_params.get(name)
    if raw is None:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise InvalidRequestError(f"{name} must be an integer, got {raw!r}") from None
    if not low <= value <= high:
        raise InvalidRequestError(f"{name} must be in [{low}, {high}], got {value}")
    return value


def query_time(request: Request, name: str) -> datetime | None:
    raw = request.query_params.get(name)
    if raw is None:
        return None
    try:
        value = datetime.fromisoformat(raw.replace("Z", "+00:00"))
    except ValueError:
        raise InvalidRequestError(f"{name} must be an ISO-8601 time, got {raw!r}") from None
    if value.tzinfo is None:
        raise InvalidRequestError(f"{name} must carry a time zone, got {raw!r}")
    return value


def query_text(request: Request, name: str) -> str | None:
    raw = request.query_params.get(name)
    if raw is not None:
        reject_nul(raw, name)
    return raw


def query_choice(request: Request, name: str, choices: tuple[str, ...]) -> str | None:
    raw = request.query_params.get(name)
    if raw is not None and raw not in choices:
        raise InvalidRequestError(f"{name} must be one of {', '.join(choices)}, got {raw!r}")
    return raw


def connection_token(conn: HTTPConnection, allow_query: bool = False) -> str | None:
    """An explicit token (header, or `?token=` where allowed) wins over the session cookie."""
    token = bearer_token(conn.headers.get("authorization"))
    if token is None and allow_query:
        token = conn.query_params.get("token")
    if token is None:
        token = conn.cookies.get(state_of(conn).settings.auth.cookie_name)
    return token or None


async def authenticate(conn: HTTPConnection, allow_query: bool = False) -> AuthUser | None:
    token = connection_token(conn, allow_query)
    if token is None:
        return None
    async with state_of(conn).db.session() as session:
        return await users.user_for_token(session, token)


async def require_user(request: Request) -> AuthUser:
    user = await authenticate(request)
    if user is None:
        raise UnauthorizedError("a valid token is required")
    return user


async def require_admin(request: Request) -> AuthUser:
    user = await require_user(request)
    if not user.is_admin:
        raise ForbiddenError("admin only")
    return user


def json_response(data: Any, status: int = 200) -> JSONResponse:
    return JSONResponse(data, status_code=status)
