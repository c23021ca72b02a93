"""GuardrailSettings: which rails run, and how each is tuned, by name.

The app builds one from its own settings (app/settings.py is the only reader of the
environment) and hands it to `GuardrailPipeline.from_settings`.
"""

from __future__ import annotations

from dataclasses import dataclass

from guardrails.errors import InvalidSettingError

INPUT_RAILS = frozenset(
    {
        "deny_list",
        "injection_rules",
        "harmful",
        "multilingual_classifier",
        "injection_classifier",
        "harmful_classifier",
        "injection_model",
        "harmful_judge",
        "pii",
    }
)
CLASSIFIER_BACKENDS = ("auto", "tuned", "tuned_l3", "frozen")
OUTPUT_RAILS = frozenset(
    {"deny_list", "harmful", "harmful_output", "system_prompt_leak", "pii", "grounding"}
)


@dataclass(frozen=True)
class GuardrailSettings:
    """Input rails run in the listed order and stop at the first block; put cheap ones first.
    Input "pii" never blocks: it yields a redacted copy of the message for storage.
    Output "grounding" runs once per answer, on `check_grounding`, when chunks were used."""

    # The judge before NanoGuard: each is gated on a classifier that runs before both, and a
    # message is blocked when any rail blocks it, so the order changes no decision, only what
    # a blocked message pays. Most harmful requests that reach the two are blocked by the
    # judge, seldom by NanoGuard first, and then skip NanoGuard (guardrails/HISTORY.md).
    input_rails: tuple[str, ...] = (
        "deny_list",
        "injection_rules",
        "harmful",
        "multilingual_classifier",
        "injection_classifier",
        "harmful_classifier",
        "harmful_judge",
        "injection_model",
    )
    # "harmful_output" (a classifier over each window of the answer) is off by default: alone
    # it stops a quarter of the harmful answers, but behind the input rails it stopped none of
    # the 11 harmful answers to requests they let through, for 0.8% of benign answers stopped
    # mid-stream (guardrails/HISTORY.md). It serves where the input rails are off.
    output_rails: tuple[str, ...] = ("deny_list", "harmful", "system_prompt_leak", "pii")
    deny_terms: tuple[str, ...] = ()
    deny_patterns: tuple[str, ...] = ()
    # NanoGuard fires on many benign texts that merely mention its trigger words at 0.5; at
    # 0.999 it adds recall on paraphrased attacks while staying quiet on our benign dev rows.
    injection_model_threshold: float = 0.999
    # Cascade: NanoGuard runs only on inputs the classifier scored at least this high (0: always).
    # On the validation splits 0.1 skips it for ~75% of allowed inputs with no loss of recall.
    injection_model_gate: float = 0.1
    # What the two classifier rails read: "tuned", heads over a LoRA-fine-tuned MiniLM
    # (guardrails/data/tuned_minilm.npz, its own copy of the encoder); "tuned_l3", the same
    # distilled into 3 layers (tuned_minilm_l3.npz: half the time, for CPUs without native
    # bf16); "frozen", logistic heads over the shared MiniLM embeddings
    # (guardrails/data/*_head.npz); "auto", "tuned" where the CPU multiplies bf16 natively, else
    # "tuned_l3" (the rails run on the CPU). Either way one encoder forward per message. On held-out
    # data the tuned ones find more (guardrails/HISTORY.md).
    classifier_backend: str = "auto"
    # None: the threshold stored with the head (chosen on its validation split).
    injection_classifier_threshold: float | None = None
    # None: the threshold stored with the harmful-request head (chosen on its validation rows).
    harmful_classifier_threshold: float | None = None
    # The multilingual rail's character n-gram classifier (messages not in English only;
    # guardrails/data/multilingual_ngram.npz). None: the threshold stored with it, chosen on
    # its validation rows (training/train_multilingual.py).
    multilingual_classifier_threshold: float | None = None
    # Its thresholds where MiniLM's heads leave the decision to it: messages in other scripts, and
    # Latin-script messages in other languages. None: those stored with it, chosen on its
    # validation rows of each group.
    multilingual_classifier_script_threshold: float | None = None
    multilingual_classifier_latin_threshold: float | None = None
    # The harmful-request judge (the chat model's first 16 layers, LoRA-tuned;
    # guardrails/data/judge_smollm2.npz) runs with the "tuned" backend only: its threshold was
    # chosen together with that model's two, and in float32 (where "auto" picks "tuned_l3") it
    # would cost 45-200 ms a message. None: the threshold stored with the judge.
    harmful_judge_threshold: float | None = None
    # Cascade: the judge runs only on inputs the harmful-request classifier scored at least this
    # high (0: always). None: the gate stored with the judge, chosen with its threshold on the
    # validation rows (training/thresholds.py): the highest that costs no validation recall.
    harmful_judge_gate: float | None = None
    # The output rail "harmful_output" (a head over the 6-layer tuned MiniLM on each streamed
    # window of the answer; guardrails/data/output_head.npz). None: the threshold stored with
    # it, chosen on the chat model's answers to validation requests.
    harmful_output_threshold: float | None = None
    # Streaming output: a window checks `chunk_size` new chars plus `context_size` chars of
    # already-released text carried over, so a sentence split across windows is seen whole.
    chunk_size: int = 120
    context_size: int = 100
    leak_ngram: int = 6
    leak_threshold: float = 0.4
    grounding_min_similarity: float = 0.55
    grounding_min_overlap: float = 0.6

    def __post_init__(self) -> None:
        for stage, names, known in (
            ("input", self.input_rails, INPUT_RAILS),
            ("output", self.output_rails, OUTPUT_RAILS),
        ):
            for name in names:
                if name not in known:
                    raise InvalidSettingError(
                        f"unknown {stage} rail {name!r}; known: {', '.join(sorted(known))}"
                    )
            if len(set(names)) != len(names):
                raise InvalidSettingError(f"{stage} rails listed twice: {names!r}")
        if self.classifier_backend not in CLASSIFIER_BACKENDS:
            raise InvalidSettingError(
                f"unknown classifier_backend {self.classifier_backend!r}; "
                f"known: {', '.join(CLASSIFIER_BACKENDS)}"
            )
        if self.chunk_size < 1:
            raise InvalidSettingError(f"chunk_size must be >= 1, got {self.chunk_size}")
        if self.context_size < 0:
            raise InvalidSettingError(f"context_size must be >= 0, got {self.context_size}")
        for label, gate in (
            ("injection_model_gate", self.injection_model_gate),
            ("harmful_judge_gate", self.harmful_judge_gate),
        ):
            if gate is not None and not 0.0 <= gate < 1.0:
                raise InvalidSettingError(f"{label} must be in [0, 1), got {gate}")
        for label, value in (
            ("injection_model_threshold", self.injection_model_threshold),
            ("leak_threshold", self.leak_threshold),
        ):
            if not 0.0 < value <= 1.0:
                raise InvalidSettingError(f"{label} must be in (0, 1], got {value}")
        for label, t in (
            ("injection_classifier_threshold", self.injection_classifier_threshold),
            ("harmful_classifier_threshold", self.harmful_classifier_threshold),
            ("multilingual_classifier_threshold", self.multilingual_classifier_threshold),
            (
                "multilingual_classifier_script_threshold",
                self.multilingual_classifier_script_threshold,
            ),
            (
                "multilingual_classifier_latin_threshold",
                self.multilingual_classifier_latin_threshold,
            ),
            ("harmful_judge_threshold", self.harmful_judge_threshold),
            ("harmful_output_threshold", self.harmful_output_threshold),
        ):
            if t is not None and not 0.0 < t < 1.0:
                raise InvalidSettingError(f"{label} must be in (0, 1), got {t}")
        if isinstance(self.deny_terms, str) or isinstance(self.deny_patterns, str):
            raise InvalidSettingError("deny_terms and deny_patterns must be tuples of strings")
