"""Typed errors of the guardrails package; each message names the offending value."""

from __future__ import annotations


class GuardrailError(Exception):
    """Base class of every error the guardrails package raises on purpose."""


class InvalidSettingError(GuardrailError, ValueError):
    """A guardrail setting outside its allowed range, or an unknown rail name."""


class ModelLoadError(GuardrailError):
    """A packaged model or classifier head is missing or does not have the expected shape."""


class CheckerClosedError(GuardrailError):
    """A streaming checker was fed after it finished or after it blocked."""


class DatasetError(GuardrailError, ValueError):
    """An evaluation dataset row that is not `{text: str, label: 0|1}`."""


class InvalidInputError(GuardrailError, TypeError):
    """A check called with something that is not text."""
