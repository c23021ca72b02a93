"""`hearth serve` and `hearth users create` (also `python -m app ...`)."""

from __future__ import annotations

import argparse
import asyncio
import getpass
import sys
import time
from collections.abc import Sequence
from types import FrameType
from typing import TYPE_CHECKING

import uvicorn
from pydantic import BaseModel
from pydantic_core import PydanticUndefined
from starlette.applications import Starlette

from app import logredact
from app.settings import Settings

if TYPE_CHECKING:
    from app.main import EngineFactory
    from app.state import AppState


def _settings_help() -> str:
    """Every setting as its environment variable, with its default and meaning."""
    lines = ["settings (environment variables; also read from ./.env):"]

    def walk(model: type[BaseModel], prefix: str) -> None:
        for name, field in model.model_fields.items():
            annotation = field.annotation
            if isinstance(annotation, type) and issubclass(annotation, BaseModel):
                walk(annotation, f"{prefix}{name.upper()}__")
                continue
            default = field.default
            if default is PydanticUndefined and field.default_factory is not None:
                default = field.default_factory()  # type: ignore[call-arg]
            doc = f"  {field.description}" if field.description else ""
            lines.append(f"  {prefix}{name.upper()}={default!s}{doc}")

    walk(Settings, "HEARTH_")
    return "\n".join(lines)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="hearth", description="Hearth: a self-hosted LLM chat server")
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser(
        "serve", help="run the server", epilog=_settings_help(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Run Hearth under uvicorn. With no settings it uses ./data (SQLite), "
        "the default model, 127.0.0.1:8000.",
    )
    serve.add_argument("--host", help="address to listen on (HEARTH_SERVER__HOST)")
    serve.add_argument("--port", type=int, help="TCP port (HEARTH_SERVER__PORT)")
    users = sub.add_parser("users", help="manage accounts")
    users_sub = users.add_subparsers(dest="users_command", required=True)
    create = users_sub.add_parser("create", help="create an account (prints an API token)")
    create.add_argument("username")
    create.add_argument("--admin", action="store_true", help="give the account the admin role")
    create.add_argument(
        "--password-stdin", action="store_true",
        help="read the password from standard input instead of prompting",
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        settings = Settings()
    except ValueError as exc:
        print(f"hearth: invalid settings: {exc}", file=sys.stderr)
        return 2
    if args.command == "serve":
        server = settings.server.model_copy(
            update={k: v for k, v in (("host", args.host), ("port", args.port)) if v is not None}
        )
        return serve(settings.model_copy(update={"server": server}))
    return create_user_command(settings, args.username, args.admin, args.password_stdin)


def serve(settings: Settings, engine_factory: EngineFactory | None = None) -> int:
    from app.main import create_app, default_engine_factory, default_services

    app = create_app(settings, engine_factory or default_engine_factory,
                     services=default_services(settings))
    config = uvicorn.Config(
        app, host=settings.server.host, port=settings.server.port,
        log_level=settings.server.log_level, ws_max_size=settings.limits.max_frame_bytes,
        lifespan="on",
    )
    server = DrainingServer(config, app, settings.server.drain_seconds)
    logredact.install()  # after uvicorn.Config has configured its loggers
    server.run()
    # uvicorn returns without raising when startup fails (e.g. the port is taken).
    return 0 if server.started else 1


class DrainingServer(uvicorn.Server):
    """uvicorn's Server, with a graceful drain on the first SIGTERM/SIGINT.

    The first signal stops new generations (they get `overloaded`) while sockets stay open so
    running answers reach their clients; the server exits once nothing is generating or the
    drain window ends (the lifespan then interrupts the rest). A second signal exits at once.
    The signal is not re-raised afterwards, so the process exits 0.
    """

    def __init__(self, config: uvicorn.Config, app: Starlette, drain_seconds: float) -> None:
        super().__init__(config)
        self.app = app
        self.drain_seconds = drain_seconds
        self.drain_deadline: float | None = None

    def _state(self) -> AppState | None:
        return getattr(self.app.state, "hearth", None)

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        if self.drain_deadline is None and not self.should_exit:
            self.drain_deadline = time.monotonic() + self.drain_seconds
            state = self._state()
            if state is not None:
                state.hub.begin_drain(self.drain_seconds)
        else:
            self.should_exit = True

    async def on_tick(self, counter: int) -> bool:
        if self.drain_deadline is not None and not self.should_exit:
            state = self._state()
            idle = state is None or state.hub.num_active == 0
            if idle or time.monotonic() >= self.drain_deadline:
                self.should_exit = True
        return await super().on_tick(counter)


def create_user_command(settings: Settings, username: str, admin: bool, from_stdin: bool) -> int:
    from app.auth import hash_password, validate_password, validate_username
    from app.errors import AppError

    try:
        validate_username(username)
        if from_stdin:
            password = sys.stdin.readline().rstrip("\n")
        else:
            password = getpass.getpass(f"password for {username}: ")
        validate_password(password)
        token = asyncio.run(_create_user(settings, username, hash_password(
            password, settings.auth.scrypt_n), "admin" if admin else "user"))
    except AppError as exc:
        print(f"hearth: {exc.message}", file=sys.stderr)
        return 1
    print(f"created {'admin' if admin else 'user'} {username}; API token: {token}")
    return 0


async def _create_user(settings: Settings, username: str, password_hash: str, role: str) -> str:
    from app.db import users
    from app.db.session import Database

    settings.data_dir.mkdir(parents=True, exist_ok=True)
    db = Database(settings.resolved_database_url, settings.database_schema)
    try:
        await db.migrate()
        async with db.session() as s:
            user = await users.create_user(s, username, password_hash, role)
            token, _ = await users.issue_token(s, user.id, settings.auth.token_ttl_hours)
        return token
    finally:
        await db.dispose()


if __name__ == "__main__":
    raise SystemExit(main())
