"""Bounds on what an upload may cost to parse; the app sets them from its settings."""

from __future__ import annotations

from dataclasses import dataclass

from retrieval.errors import InvalidSettingError


@dataclass(frozen=True, slots=True)
class ParseLimits:
    """Checked before the expensive step they protect (a ZIP's entries are checked from its
    central directory before anything is inflated)."""

    max_bytes: int = 20 * 1024 * 1024
    max_pages: int = 2_000
    max_zip_entries: int = 1_000
    max_uncompressed_bytes: int = 200 * 1024 * 1024
    # DOCX XML typically deflates 5-20x; a far higher ratio on a big entry is a bomb.
    max_compression_ratio: float = 200.0
    max_text_chars: int = 10_000_000

    def __post_init__(self) -> None:
        for name in (
            "max_bytes",
            "max_pages",
            "max_zip_entries",
            "max_uncompressed_bytes",
            "max_text_chars",
        ):
            value = getattr(self, name)
            if value <= 0:
                raise InvalidSettingError(f"{name} must be positive, got {value}")
        if self.max_compression_ratio <= 1:
            raise InvalidSettingError(
                f"max_compression_ratio must exceed 1, got {self.max_compression_ratio}"
            )
