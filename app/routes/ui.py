"""The browser UI: `/` (the page) and `/static/*` (its modules, styles and vendored libraries).

Every UI answer carries a Content-Security-Policy that allows only this server's own scripts,
styles and connections. With DOMPurify in the page this is the second wall against text from the
model, users or file names ever running as script: even sanitized-away markup could not load or
execute anything inline or from elsewhere.
"""

from __future__ import annotations

from pathlib import Path

from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import Receive, Scope, Send

from app.errors import NotFoundError

FRONTEND_DIR = Path(__file__).resolve().parents[2] / "frontend"

# 'self' in connect-src also admits ws:/wss: to the same host (CSP Level 3).
CSP = "; ".join((
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
))
SECURITY_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-cache",
}


def _with_headers(response: Response) -> Response:
    response.headers.update(SECURITY_HEADERS)
    return response


async def index(request: Request) -> Response:
    page = FRONTEND_DIR / "index.html"
    if not page.is_file():
        raise NotFoundError(f"the browser UI is not installed (no {page})")
    return _with_headers(FileResponse(page, media_type="text/html; charset=utf-8"))


class UIStaticFiles(StaticFiles):
    """StaticFiles with the UI's security headers; `no-cache` still allows 304 answers."""

    async def get_response(self, path: str, scope: Scope) -> Response:
        return _with_headers(await super().get_response(path, scope))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if not FRONTEND_DIR.is_dir():
            raise NotFoundError("the browser UI is not installed")
        await super().__call__(scope, receive, send)


routes = [
    Route("/", index, methods=["GET", "HEAD"]),
    Mount("/static", app=UIStaticFiles(directory=FRONTEND_DIR, check_dir=False), name="static"),
]
