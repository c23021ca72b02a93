"""Settings: one tree, HEARTH_ prefix, nested with __, optional .env, frozen."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from app.settings import Settings


def test_defaults_need_nothing(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    s = Settings(_env_file=None)
    assert s.server.host == "127.0.0.1" and s.server.port == 8000
    assert s.data_dir == Path("data")
    assert s.resolved_database_url == "sqlite+aiosqlite:///data/hearth.db"
    assert s.engine.model == "default"
    assert s.limits.max_frame_bytes == 1024 * 1024
    assert s.limits.max_message_chars == 32_000


def test_environment_prefix_and_nesting(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HEARTH_DATA_DIR", "/srv/hearth")
    monkeypatch.setenv("HEARTH_SERVER__PORT", "9123")
    monkeypatch.setenv("HEARTH_SERVER__ALLOWED_ORIGINS", '["https://chat.example"]')
    monkeypatch.setenv("HEARTH_LIMITS__MESSAGES_PER_MINUTE", "7")
    monkeypatch.setenv("HEARTH_ENGINE__MAX_MODEL_LEN", "1024")
    s = Settings(_env_file=None)
    assert s.data_dir == Path("/srv/hearth")
    assert s.resolved_database_url == "sqlite+aiosqlite:////srv/hearth/hearth.db"
    assert s.server.port == 9123
    assert s.server.allowed_origins == ["https://chat.example"]
    assert s.limits.messages_per_minute == 7
    assert s.engine.to_engine_config().max_model_len == 1024


def test_dotenv_file_is_read(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("HEARTH_DATABASE_URL=postgresql+asyncpg://u@h/db\n")
    monkeypatch.chdir(tmp_path)
    assert Settings().resolved_database_url == "postgresql+asyncpg://u@h/db"


def test_settings_are_frozen_and_validated(monkeypatch: pytest.MonkeyPatch) -> None:
    s = Settings(_env_file=None)
    with pytest.raises(ValidationError):
        s.server.port = 1  # type: ignore[misc]
    monkeypatch.setenv("HEARTH_SERVER__PORT", "99999")
    with pytest.raises(ValidationError, match="port"):
        Settings(_env_file=None)
