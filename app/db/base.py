"""Declarative base, constraint naming convention, UTC timestamps and time-ordered ids."""

from __future__ import annotations

import os
import threading
import time
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import DateTime, MetaData
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import DeclarativeBase
from sqlalchemy.types import TypeDecorator

# Named constraints make migrations reproducible and let SQLite batch mode find them again.
NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


class UTCDateTime(TypeDecorator[datetime]):
    """Aware UTC datetimes on every backend (SQLite keeps no zone, so it is stored naive UTC)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: Any, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if not isinstance(value, datetime) or value.tzinfo is None:
            raise ValueError(f"timestamps must be timezone-aware datetimes, got {value!r}")
        value = value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: Any, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value.astimezone(UTC)


def utcnow() -> datetime:
    return datetime.now(UTC)


_id_lock = threading.Lock()
_last_ms = 0
_seq = 0


def new_id() -> str:
    """A 32-hex-char id that sorts by creation time within this process.

    48 bits of milliseconds, a 16-bit counter for ids made in the same millisecond, then 64
    random bits, so ids also order rows created in one transaction (where timestamps may tie).
    """
    global _last_ms, _seq
    with _id_lock:
        now_ms = time.time_ns() // 1_000_000
        if now_ms <= _last_ms:
            _seq += 1
            if _seq > 0xFFFF:
                _last_ms += 1
                _seq = 0
            now_ms = _last_ms
        else:
            _seq = 0
        _last_ms = now_ms
        seq = _seq
    return f"{now_ms:012x}{seq:04x}{os.urandom(8).hex()}"
