"""Input text rules shared by every entry point.

PostgreSQL text cannot hold NUL characters, so a NUL anywhere in client input is refused up
front (a typed 422 / invalid_frame) instead of failing deep in the database. Ids have a fixed
alphabet; anything else cannot name a stored object.
"""

from __future__ import annotations

import re
from typing import Any

from app.errors import InvalidRequestError

ID_RE = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


def is_id(value: object) -> bool:
    return isinstance(value, str) and ID_RE.fullmatch(value) is not None


def reject_nul(data: Any, where: str = "body") -> None:
    """Raise if any string (or key) inside decoded JSON holds a NUL character."""
    if isinstance(data, str):
        if "\x00" in data:
            raise InvalidRequestError(f"{where}: text must not contain NUL characters")
    elif isinstance(data, dict):
        for key, value in data.items():
            reject_nul(key, where)
            reject_nul(value, f"{where}.{key}")
    elif isinstance(data, list):
        for i, value in enumerate(data):
            reject_nul(value, f"{where}[{i}]")
