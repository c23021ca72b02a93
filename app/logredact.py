"""Keep bearer tokens out of logs: uvicorn logs WebSocket paths with their query string,
and the protocol lets clients put `?token=` there."""

from __future__ import annotations

import logging
import re

_TOKEN_RE = re.compile(r"(?<=[?&]token=)[^&\s\"']+")


def redact(text: str) -> str:
    return _TOKEN_RE.sub("[redacted]", text)


class RedactTokens(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(redact(a) if isinstance(a, str) else a for a in record.args)
        return True


def install(logger_names: tuple[str, ...] = ("uvicorn.error", "uvicorn.access")) -> None:
    for name in logger_names:
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactTokens) for f in logger.filters):
            logger.addFilter(RedactTokens())
