"""Hearth guardrails: input rails before retrieval, output rails on the stream, grounding.

The app builds a `GuardrailSettings` from its settings, then
`GuardrailPipeline.from_settings(settings, embed=embedder.embed)` once at start-up.
"""

from guardrails.base import Action, ModerationEvent, Stage, Verdict, Window
from guardrails.errors import (
    CheckerClosedError,
    DatasetError,
    GuardrailError,
    InvalidInputError,
    InvalidSettingError,
    ModelLoadError,
)
from guardrails.pipeline import GroundingResult, GuardrailPipeline, InputResult
from guardrails.rails.grounding import GroundingReport, SentenceSupport
from guardrails.settings import GuardrailSettings
from guardrails.streaming import OutputStep, StreamingOutputChecker

__all__ = [
    "Action",
    "CheckerClosedError",
    "DatasetError",
    "GroundingReport",
    "GroundingResult",
    "GuardrailError",
    "GuardrailPipeline",
    "GuardrailSettings",
    "InputResult",
    "InvalidInputError",
    "InvalidSettingError",
    "ModelLoadError",
    "ModerationEvent",
    "OutputStep",
    "SentenceSupport",
    "Stage",
    "StreamingOutputChecker",
    "Verdict",
    "Window",
]
