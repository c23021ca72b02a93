"""`hearth users create --admin` and `hearth serve --help` (through `python -m app`)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from starlette.testclient import TestClient

from app.main import create_app
from app.settings import Settings
from tests.app.conftest import auth
from tests.app.fakes import FakeEngine

ROOT = Path(__file__).resolve().parents[2]


def _run(args: list[str], data_dir: Path, stdin: str = "") -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("HEARTH_")}
    env.update({"HEARTH_DATA_DIR": str(data_dir), "HEARTH_AUTH__SCRYPT_N": "16",
                "PYTHONPATH": str(ROOT)})
    return subprocess.run([sys.executable, "-m", "app", *args], input=stdin, text=True,
                          capture_output=True, env=env, cwd=data_dir.parent, timeout=60)


def test_serve_help_lists_the_settings(tmp_path: Path) -> None:
    out = _run(["serve", "--help"], tmp_path / "data")
    assert out.returncode == 0
    for name in ("--host", "--port", "HEARTH_DATABASE_URL", "HEARTH_DATA_DIR",
                 "HEARTH_ENGINE__MODEL", "HEARTH_SERVER__ALLOWED_ORIGINS",
                 "HEARTH_SERVER__DRAIN_SECONDS", "HEARTH_LIMITS__MESSAGES_PER_MINUTE"):
        assert name in out.stdout, name


def test_users_create_admin_then_signup_is_a_user(tmp_path: Path) -> None:
    data = tmp_path / "data"
    out = _run(["users", "create", "root_admin", "--admin", "--password-stdin"], data,
               "a long password\n")
    assert out.returncode == 0, out.stderr
    token = out.stdout.strip().rsplit(" ", 1)[-1]
    assert token.startswith("hth_")
    again = _run(["users", "create", "root_admin", "--password-stdin"], data, "another one\n")
    assert again.returncode == 1 and "taken" in again.stderr
    weak = _run(["users", "create", "someone", "--password-stdin"], data, "short\n")
    assert weak.returncode == 1 and "password" in weak.stderr
    settings = Settings(_env_file=None, data_dir=data, auth={"scrypt_n": 16})
    with TestClient(create_app(settings, engine_factory=lambda s: FakeEngine())) as client:
        assert client.get("/api/admin/moderation", headers=auth(token)).status_code == 200
        r = client.post("/api/auth/signup", json={"username": "bob", "password": "longenough"})
        assert r.json()["user"]["role"] == "user"  # an admin exists already
        r = client.post("/api/auth/login", json={"username": "root_admin",
                                                 "password": "a long password"})
        assert r.status_code == 200 and r.json()["user"]["role"] == "admin"


def test_tokens_in_websocket_urls_are_redacted_from_logs(caplog) -> None:
    import logging

    from app import logredact

    logredact.install(("hearth.test",))
    logger = logging.getLogger("hearth.test")
    with caplog.at_level(logging.INFO, logger="hearth.test"):
        logger.info('%s - "WebSocket %s" [accepted]', "127.0.0.1:5", "/ws?token=hth_SECRET&x=1")
        logger.info("plain /ws?a=1&token=hth_OTHER")
    assert "hth_SECRET" not in caplog.text and "hth_OTHER" not in caplog.text
    assert "/ws?token=[redacted]&x=1" in caplog.text
