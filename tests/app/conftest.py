"""App test fixtures: a database per test on SQLite and (when it answers) PostgreSQL, settings,
the fake engine, and a TestClient running the real app with its lifespan."""

from __future__ import annotations

import asyncio
import os
import shutil
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from app.db.session import Database
from app.main import create_app
from app.settings import Settings
from tests.app.fakes import FakeEngine

PG_URL = "postgresql+asyncpg://postgres@127.0.0.1:5432/test"
TABLES = ("moderation_events", "chunks", "documents", "messages", "conversations", "tokens",
          "users")


@dataclass(frozen=True)
class DbTarget:
    kind: str
    url: str
    schema: str | None = None


def _pg_error() -> str | None:
    async def probe() -> None:
        import asyncpg

        conn = await asyncpg.connect("postgresql://postgres@127.0.0.1:5432/test", timeout=3)
        await conn.close()

    try:
        asyncio.run(probe())
    except Exception as exc:  # any failure means: not usable here
        return f"{type(exc).__name__}: {exc}"
    return None


async def _pg_exec(sql: str) -> None:
    import asyncpg

    conn = await asyncpg.connect("postgresql://postgres@127.0.0.1:5432/test", timeout=5)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


async def _drop_orphan_schemas() -> None:
    """Drop test schemas left by sessions that were killed (their pid no longer runs)."""
    import asyncpg

    conn = await asyncpg.connect("postgresql://postgres@127.0.0.1:5432/test", timeout=5)
    try:
        rows = await conn.fetch(
            "SELECT nspname FROM pg_namespace WHERE nspname LIKE 'hearth\\_test\\_%'")
        for row in rows:
            pid = row["nspname"].split("_")[2]
            if pid.isdigit() and not Path(f"/proc/{pid}").exists():
                await conn.execute(f'DROP SCHEMA "{row["nspname"]}" CASCADE')
    finally:
        await conn.close()


async def _migrate(url: str, schema: str | None) -> None:
    db = Database(url, schema)
    try:
        await db.migrate()
    finally:
        await db.dispose()


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("db") / "template.db"
    asyncio.run(_migrate(f"sqlite+aiosqlite:///{path}", None))
    return path


@pytest.fixture(scope="session")
def pg_schema() -> Iterator[str]:
    """A fresh schema for this test session, migrated once, dropped at the end."""
    error = _pg_error()
    if error is not None:
        pytest.skip(f"PostgreSQL at 127.0.0.1:5432 (database test) is not answering: {error}")
    asyncio.run(_drop_orphan_schemas())
    schema = f"hearth_test_{os.getpid()}_{uuid.uuid4().hex[:8]}"
    asyncio.run(_pg_exec(f"CREATE SCHEMA {schema}"))
    asyncio.run(_migrate(PG_URL, schema))
    yield schema
    asyncio.run(_pg_exec(f"DROP SCHEMA {schema} CASCADE"))


@pytest.fixture(params=["sqlite", "postgresql"])
def db_target(request: pytest.FixtureRequest, tmp_path: Path) -> DbTarget:
    """An empty, migrated database for one test."""
    if request.param == "sqlite":
        template = request.getfixturevalue("sqlite_template")
        path = tmp_path / "hearth.db"
        shutil.copy(template, path)
        return DbTarget("sqlite", f"sqlite+aiosqlite:///{path}")
    schema = request.getfixturevalue("pg_schema")
    asyncio.run(_pg_exec(f"SET search_path TO {schema}; TRUNCATE {', '.join(TABLES)} CASCADE"))
    return DbTarget("postgresql", PG_URL, schema)


@pytest.fixture
def make_settings(tmp_path: Path, db_target: DbTarget):
    def make(**overrides: object) -> Settings:
        values: dict[str, object] = {
            "data_dir": tmp_path / "data",
            "database_url": db_target.url,
            "database_schema": db_target.schema,
            "auth": {"scrypt_n": 16},
            "chat": {"flush_interval_seconds": 0.05},
        }
        for key, value in overrides.items():
            if isinstance(value, dict) and isinstance(values.get(key), dict):
                values[key] = {**values[key], **value}  # type: ignore[dict-item]
            else:
                values[key] = value
        return Settings(_env_file=None, **values)  # type: ignore[call-arg]

    return make


@pytest.fixture
def fake_engine() -> FakeEngine:
    return FakeEngine()


@pytest.fixture
def client(make_settings, fake_engine: FakeEngine) -> Iterator[TestClient]:
    app = create_app(make_settings(), engine_factory=lambda s: fake_engine)
    with TestClient(app) as test_client:
        yield test_client


def signup(client: TestClient, username: str, password: str = "correct horse") -> str:
    response = client.post("/api/auth/signup", json={"username": username, "password": password})
    assert response.status_code == 201, response.text
    return response.json()["token"]


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def live_server(make_settings, fake_engine: FakeEngine):
    """Start the real app under uvicorn on 127.0.0.1 (a free port) in a thread."""
    import threading

    import uvicorn

    servers: list[uvicorn.Server] = []
    threads: list[threading.Thread] = []

    def start(settings: Settings | None = None, hooks=None) -> str:
        app = create_app(settings or make_settings(), engine_factory=lambda s: fake_engine,
                         hooks=hooks)
        config = uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning",
                                lifespan="on")
        server = uvicorn.Server(config)
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        for _ in range(500):
            if server.started:
                break
            thread.join(0.01)
        assert server.started, "uvicorn did not start"
        port = server.servers[0].sockets[0].getsockname()[1]
        servers.append(server)
        threads.append(thread)
        return f"http://127.0.0.1:{port}"

    yield start
    for server in servers:
        server.should_exit = True
    for thread in threads:
        thread.join(10)


@pytest.fixture(scope="session")
def embedder():
    """The real MiniLM embedder, loaded once: it is immutable and thread-safe, so the apps of
    every test share it."""
    from retrieval.embedder import Embedder
    from retrieval.errors import EmbedderLoadError

    try:
        return Embedder.load()
    except EmbedderLoadError as exc:
        pytest.skip(f"the embedding model package is not installed: {exc}")


@dataclass
class RagApp:
    client: TestClient  # enter it (`with app.client as client`) to run the lifespan
    service: object  # app.rag.service.RetrievalService
    engine: FakeEngine


@pytest.fixture
def rag_app(make_settings, embedder):
    """Build the real app with real retrieval (embedder, FAISS index in the test's data
    folder) and a fake engine answering "ok". Call it again to restart on the same data."""
    from app.rag.service import RetrievalService

    def make(engine: FakeEngine | None = None, **overrides: object) -> RagApp:
        engine = engine or FakeEngine(reply=lambda prompt: "ok")
        service = RetrievalService(embedder)
        app = create_app(make_settings(**overrides), engine_factory=lambda s: engine,
                         services=[service])
        return RagApp(TestClient(app), service, engine)

    return make


@pytest.fixture
def guarded_app(make_settings, embedder):
    """Build the real app with the real guardrails (the GuardrailService, sharing the
    session's embedder) and a fake engine: `make(engine, hooks, **settings) -> TestClient`."""
    from app.guard.service import GuardrailService

    def make(engine: FakeEngine | None = None, hooks=None, **overrides: object) -> TestClient:
        engine = engine if engine is not None else FakeEngine()
        app = create_app(make_settings(**overrides), engine_factory=lambda s: engine,
                         hooks=hooks, services=[GuardrailService(embedder=embedder)])
        return TestClient(app)

    return make
