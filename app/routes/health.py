"""/health (the process lives), /ready (the engine makes progress), /metrics."""

from __future__ import annotations

import time

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from app.auth import bearer_token
from app.errors import UnauthorizedError
from app.http import error_response, json_response, state_of


async def health(request: Request) -> Response:
    return json_response({"status": "ok"})


async def ready(request: Request) -> Response:
    state = state_of(request)
    stats = state.engine.stats()
    if not stats.is_alive:
        return error_response(503, "unavailable", "the inference engine is not running")
    busy = stats.num_running + stats.num_waiting > 0
    stall = state.settings.server.ready_stall_seconds
    last = stats.last_step_monotonic
    if busy and (last is None or time.monotonic() - last > stall):
        return error_response(503, "unavailable", f"the engine made no step for over {stall} s")
    if state.hub.draining:
        return error_response(503, "unavailable", "the server is shutting down")
    return json_response({"status": "ready"})


async def metrics(request: Request) -> Response:
    state = state_of(request)
    expected = state.settings.auth.metrics_token
    if expected and bearer_token(request.headers.get("authorization")) != expected:
        raise UnauthorizedError("the metrics token is required")
    return Response(state.metrics.render(), media_type="text/plain; version=0.0.4")


routes = [
    Route("/health", health, methods=["GET"]),
    Route("/ready", ready, methods=["GET"]),
    Route("/metrics", metrics, methods=["GET"]),
]
