"""The app's guardrail settings as the guardrails package's frozen configuration."""

from __future__ import annotations

from app.settings import GuardrailSettings as AppGuardrailSettings
from guardrails import GuardrailSettings


def guardrail_settings(g: AppGuardrailSettings) -> GuardrailSettings:
    return GuardrailSettings(
        input_rails=g.active_input_rails,
        output_rails=g.active_output_rails,
        deny_terms=tuple(g.deny_terms),
        deny_patterns=tuple(g.deny_patterns),
        injection_model_threshold=g.injection_model_threshold,
        injection_model_gate=g.injection_model_gate,
        injection_classifier_threshold=g.injection_classifier_threshold,
        harmful_classifier_threshold=g.harmful_classifier_threshold,
        multilingual_classifier_threshold=g.multilingual_classifier_threshold,
        multilingual_classifier_script_threshold=g.multilingual_classifier_script_threshold,
        multilingual_classifier_latin_threshold=g.multilingual_classifier_latin_threshold,
        harmful_judge_threshold=g.harmful_judge_threshold,
        harmful_judge_gate=g.harmful_judge_gate,
        harmful_output_threshold=g.harmful_output_threshold,
        classifier_backend=g.classifier_backend,
        chunk_size=g.chunk_size,
        context_size=g.context_size,
        leak_ngram=g.leak_ngram,
        leak_threshold=g.leak_threshold,
        grounding_min_similarity=g.grounding_min_similarity,
        grounding_min_overlap=g.grounding_min_overlap,
    )


def needs_embedder(settings: GuardrailSettings) -> bool:
    """Whether a rail that reads the shared MiniLM is on: a frozen classifier head (the tuned
    backend runs its own encoder, as does the harmful_output rail) or grounding."""
    heads = {"injection_classifier", "harmful_classifier"} & set(settings.input_rails)
    frozen = bool(heads) and settings.classifier_backend == "frozen"
    return frozen or "grounding" in settings.output_rails
