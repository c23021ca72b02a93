"""Upload file names are shown to people, never used as paths."""

from __future__ import annotations

import unicodedata

MAX_NAME_CHARS = 255
FALLBACK_NAME = "document"


def safe_display_name(filename: str | None) -> str:
    """A printable, path-free version of an uploaded file's name.

    Keeps only the last path component (either slash style), drops control and format
    characters (NUL, newlines, bidi overrides), leading dots and surrounding spaces, and
    shortens the stem so the extension survives. Never empty.
    """
    if not filename:
        return FALLBACK_NAME
    name = unicodedata.normalize("NFC", str(filename))
    name = name.replace("\\", "/").rsplit("/", 1)[-1]
    name = "".join(_display_char(ch) for ch in name)
    name = " ".join(name.split()).lstrip(". ").rstrip(" ")
    if not name or set(name) <= {"."}:
        return FALLBACK_NAME
    if len(name) > MAX_NAME_CHARS:
        stem, dot, ext = name.rpartition(".")
        if dot and 0 < len(ext) <= 16:
            name = stem[: MAX_NAME_CHARS - len(ext) - 1] + "." + ext
        else:
            name = name[:MAX_NAME_CHARS]
    return name


def _display_char(ch: str) -> str:
    category = unicodedata.category(ch)
    if category == "Zs":
        return " "
    if category[0] == "C" or category in ("Zl", "Zp"):
        return ""
    return ch


def extension_of(display_name: str) -> str:
    """Lower-case extension without the dot ('' when there is none)."""
    stem, dot, ext = display_name.rpartition(".")
    return ext.lower() if dot and stem else ""
