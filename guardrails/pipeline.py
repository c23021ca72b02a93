"""GuardrailPipeline: input rails before retrieval, output rails on the stream, grounding at
the end. Sync and free of asyncio: the app calls `check_input` and `check_grounding` (which
run models) in a worker thread; the streaming checker is pure CPU.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from guardrails.base import (
    Action,
    InputRail,
    ModerationEvent,
    OutputRail,
    Stage,
    Verdict,
    clip,
)
from guardrails.embedding import EmbedFn
from guardrails.errors import InvalidInputError
from guardrails.memo_embed import MemoEmbed
from guardrails.rails.deny_list import DenyListRail
from guardrails.rails.grounding import GroundingChecker, GroundingReport
from guardrails.rails.harmful import HarmfulContentRail
from guardrails.rails.injection_rules import InjectionRulesRail
from guardrails.rails.leakage import SystemPromptLeakRail
from guardrails.rails.output_classifier import OUTPUT_HEAD, HarmfulOutputRail
from guardrails.rails.pii import PiiRedactor
from guardrails.settings import GuardrailSettings
from guardrails.streaming import StreamingOutputChecker

if TYPE_CHECKING:
    from guardrails.models.tuned_minilm import TunedMiniLM


def resolve_backend(name: str) -> str:
    """The classifier backend that `name` stands for on this machine: "auto" is "tuned" on a
    CPU that multiplies bf16 natively (the 6-layer model fits the latency budget there) and
    "tuned_l3" elsewhere (float32 only: half the layers, half the time)."""
    if name != "auto":
        return name
    from guardrails.models.bf16_linear import native_bf16

    return "tuned" if native_bf16() else "tuned_l3"


@dataclass(frozen=True, slots=True)
class InputResult:
    """`blocked` is the verdict that stopped the message (None when allowed); `verdicts` has
    one entry per rail that ran, in order; `stored_text` is what to persist (PII-redacted when
    the input "pii" rail is on)."""

    blocked: Verdict | None
    verdicts: tuple[Verdict, ...]
    events: tuple[ModerationEvent, ...]
    stored_text: str

    @property
    def allowed(self) -> bool:
        return self.blocked is None


@dataclass(frozen=True, slots=True)
class GroundingResult:
    report: GroundingReport
    events: tuple[ModerationEvent, ...]  # one flag per unsupported sentence


class GuardrailPipeline:
    def __init__(
        self,
        input_rails: Sequence[InputRail],
        output_rails: Sequence[OutputRail],
        *,
        input_redactor: PiiRedactor | None = None,
        output_redactor: PiiRedactor | None = None,
        grounding: GroundingChecker | None = None,
        chunk_size: int = 120,
        context_size: int = 100,
        gates: dict[str, tuple[str, float]] | None = None,
        memo: MemoEmbed | None = None,
        matmuls: dict[str, str] | None = None,
    ) -> None:
        """`gates` maps a rail name to (earlier rail, minimum score): the rail runs only when
        that earlier rail ran and scored at least the minimum (a cascade that skips a costly
        model on inputs a cheaper one found clearly benign). `matmuls` says, per rail name,
        what its model's matmuls run in on this CPU (bf16, fp16-weights, int8, float32), for
        reports."""
        self.input_rails = list(input_rails)
        self.gates = dict(gates or {})
        self.output_rails = list(output_rails)
        self.input_redactor = input_redactor
        self.output_redactor = output_redactor
        self.grounding = grounding
        self.chunk_size = chunk_size
        self.context_size = context_size
        self.memo = memo  # the classifier heads' shared embedding memo, if any
        self.matmuls = dict(matmuls or {})

    @property
    def output_runs_models(self) -> bool:
        """Whether an output rail runs a model on each window: then the app checks windows off
        the event loop, as it runs the input rails."""
        return any(isinstance(rail, HarmfulOutputRail) for rail in self.output_rails)

    def forget_embeddings(self) -> None:
        """Empties the classifier heads' embedding memo, so that the next check of a text runs
        the encoder again (benchmarks that repeat messages)."""
        if self.memo is not None:
            self.memo.clear()

    @classmethod
    def from_settings(
        cls, settings: GuardrailSettings, *, embed: EmbedFn | None = None
    ) -> GuardrailPipeline:
        """Builds the named rails. Models load only for rails that are enabled; `embed` lets
        the app share its retrieval embedder (otherwise MiniLM is loaded here when needed).
        The two classifier heads share one `MemoEmbed`, so a message is embedded once; with
        `classifier_backend="tuned"` both read the fine-tuned MiniLM (models/tuned_minilm.py)
        instead of the shared embedder."""
        heads = {"injection_classifier", "harmful_classifier"} & set(settings.input_rails)
        backend = resolve_backend(settings.classifier_backend)
        tuned = bool(heads) and backend != "frozen"
        needs_embed = (bool(heads) and not tuned) or "grounding" in settings.output_rails
        if needs_embed and embed is None:
            from retrieval.embedder import Embedder

            embed = Embedder.load().embed
        head_embed: MemoEmbed | None = None
        tuned_heads = None
        tuned_model: TunedMiniLM | None = None
        if tuned:
            # One fine-tuned encoder feeds both heads: its embeddings are not MiniLM's.
            from guardrails.models.tuned_minilm import DEFAULT_ADAPTER, STUDENT_ADAPTER, TunedMiniLM

            tuned_model = TunedMiniLM.load(
                STUDENT_ADAPTER if backend == "tuned_l3" else DEFAULT_ADAPTER
            )
            head_embed, tuned_heads = MemoEmbed(tuned_model.embed), tuned_model.heads
        elif heads:
            assert embed is not None
            head_embed = MemoEmbed(embed)
        deny = DenyListRail(settings.deny_terms, settings.deny_patterns)
        judge_gate = 0.0  # the judge's, if it is built
        matmuls: dict[str, str] = {}
        if tuned_model is not None:
            matmuls |= {name: tuned_model.matmuls for name in sorted(heads)}
        # MiniLM's heads, the judge and NanoGuard leave messages plainly in other languages to
        # the multilingual rail when it runs.
        defers_to = None
        if "multilingual_classifier" in settings.input_rails:
            from guardrails.rails.multilingual_classifier import decides_alone

            defers_to = decides_alone
        inputs: list[InputRail] = []
        for name in settings.input_rails:
            if name == "deny_list":
                inputs.append(deny)
            elif name == "injection_rules":
                inputs.append(InjectionRulesRail())
            elif name == "harmful":
                inputs.append(HarmfulContentRail())
            elif name == "multilingual_classifier":
                from guardrails.models.char_ngram import CharNgramModel
                from guardrails.rails.multilingual_classifier import (
                    DEFAULT_MODEL as NGRAM_MODEL,
                )
                from guardrails.rails.multilingual_classifier import (
                    MultilingualClassifierRail,
                )

                inputs.append(
                    MultilingualClassifierRail(
                        CharNgramModel.load(NGRAM_MODEL),
                        settings.multilingual_classifier_threshold,
                        settings.multilingual_classifier_script_threshold,
                        settings.multilingual_classifier_latin_threshold,
                    )
                )
            elif name == "injection_classifier":
                from guardrails.models.head import LogisticHead
                from guardrails.rails.injection_classifier import (
                    DEFAULT_HEAD,
                    InjectionClassifierRail,
                )

                assert head_embed is not None
                head = tuned_heads[0] if tuned_heads else LogisticHead.load(DEFAULT_HEAD)
                inputs.append(
                    InjectionClassifierRail(
                        head_embed, head, settings.injection_classifier_threshold, defers_to
                    )
                )
            elif name == "harmful_classifier":
                from guardrails.models.head import LogisticHead
                from guardrails.rails.harmful_classifier import (
                    DEFAULT_HEAD as HARMFUL_HEAD,
                )
                from guardrails.rails.harmful_classifier import (
                    HarmfulClassifierRail,
                )

                assert head_embed is not None
                inputs.append(
                    HarmfulClassifierRail(
                        head_embed,
                        tuned_heads[1] if tuned_heads else LogisticHead.load(HARMFUL_HEAD),
                        settings.harmful_classifier_threshold,
                        defers_to,
                    )
                )
            elif name == "harmful_judge":
                if backend == "tuned":  # see GuardrailSettings.harmful_judge_threshold
                    from guardrails.models.judge import load_judge
                    from guardrails.rails.harmful_judge import HarmfulJudgeRail

                    encoder, head, stored_gate = load_judge()
                    matmuls[name] = encoder.matmuls
                    inputs.append(
                        HarmfulJudgeRail(
                            encoder.embed, head, settings.harmful_judge_threshold, defers_to
                        )
                    )
                    judge_gate = (
                        stored_gate
                        if settings.harmful_judge_gate is None
                        else settings.harmful_judge_gate
                    )
            elif name == "injection_model":
                from guardrails.models.nanoguard import NanoGuard
                from guardrails.rails.injection_model import InjectionModelRail

                nanoguard = NanoGuard.load()
                matmuls[name] = nanoguard.matmuls
                inputs.append(
                    InjectionModelRail(
                        nanoguard, settings.injection_model_threshold, defers_to=defers_to
                    )
                )
        outputs: list[OutputRail] = []
        for name in settings.output_rails:
            if name == "deny_list":
                outputs.append(deny)
            elif name == "harmful":
                outputs.append(HarmfulContentRail())
            elif name == "system_prompt_leak":
                outputs.append(SystemPromptLeakRail(settings.leak_ngram, settings.leak_threshold))
            elif name == "harmful_output":
                from guardrails.models.head import LogisticHead
                from guardrails.models.tuned_minilm import DEFAULT_ADAPTER, TunedMiniLM

                # The 6-layer tuned encoder the head was trained over: the input heads' own
                # where the "tuned" backend runs, loaded for this rail elsewhere. Not through
                # their memo: windows are seen once.
                if tuned_model is None or backend != "tuned":
                    tuned_model = TunedMiniLM.load(DEFAULT_ADAPTER)
                matmuls[name] = tuned_model.matmuls
                outputs.append(
                    HarmfulOutputRail(
                        tuned_model.embed,
                        LogisticHead.load(OUTPUT_HEAD),
                        settings.harmful_output_threshold,  # None: the head's own
                    )
                )
        gates = {}
        names = [rail.name for rail in inputs]  # the rails built, in order
        for rail, source, minimum in (
            ("injection_model", "injection_classifier", settings.injection_model_gate),
            ("harmful_judge", "harmful_classifier", judge_gate),
        ):
            # A gate reads a rail that ran before: otherwise the gated rail would never run.
            listed = {rail, source} <= set(names)
            if minimum > 0 and listed and names.index(source) < names.index(rail):
                gates[rail] = (source, minimum)
        grounding = None
        if "grounding" in settings.output_rails:
            grounding = GroundingChecker(
                embed, settings.grounding_min_similarity, settings.grounding_min_overlap
            )
        return cls(
            inputs,
            outputs,
            input_redactor=PiiRedactor() if "pii" in settings.input_rails else None,
            output_redactor=PiiRedactor() if "pii" in settings.output_rails else None,
            grounding=grounding,
            chunk_size=settings.chunk_size,
            context_size=settings.context_size,
            gates=gates,
            memo=head_embed,
            matmuls=matmuls,
        )

    def check_input(self, text: str) -> InputResult:
        """Runs the input rails in order and stops at the first block. Sync; may run models."""
        if not isinstance(text, str):
            raise InvalidInputError(f"input must be str, got {type(text).__name__}")
        events: list[ModerationEvent] = []
        stored = text
        if self.input_redactor is not None:
            redaction = self.input_redactor.redact(text)
            stored = redaction.text
            if redaction.matches:
                kinds = sorted({m.kind for m in redaction.matches})
                reason = f"{', '.join(kinds)} redacted before storage"
                events.append(
                    ModerationEvent.from_verdict(
                        Stage.INPUT, Verdict(Action.REDACT, "pii", reason, 1.0, stored)
                    )
                )
        verdicts: list[Verdict] = []
        for rail in self.input_rails:
            if not self.should_run(rail.name, verdicts):
                continue
            verdict = rail.check(text)
            verdicts.append(verdict)
            if verdict.action is Action.ALLOW:
                continue
            if self.input_redactor is not None:
                excerpt = self.input_redactor.redact(verdict.excerpt).text
                verdict = Verdict(
                    verdict.action, verdict.rail, verdict.reason, verdict.score, excerpt
                )
            events.append(ModerationEvent.from_verdict(Stage.INPUT, verdict))
            if verdict.action is Action.BLOCK:
                return InputResult(verdict, tuple(verdicts), tuple(events), stored)
        return InputResult(None, tuple(verdicts), tuple(events), stored)

    def should_run(self, name: str, earlier: Sequence[Verdict]) -> bool:
        """Whether input rail `name` runs, given the verdicts of the rails before it."""
        gate = self.gates.get(name)
        if gate is None:
            return True
        source, minimum = gate
        return any(v.rail == source and v.score >= minimum for v in earlier)

    def stream_output(self, system_prompt: str = "") -> StreamingOutputChecker:
        """A checker for one streamed answer; `system_prompt` feeds the leakage rail."""
        if not isinstance(system_prompt, str):
            raise InvalidInputError(
                f"system_prompt must be str, got {type(system_prompt).__name__}"
            )
        checkers = [rail.open(system_prompt) for rail in self.output_rails]
        return StreamingOutputChecker(
            checkers, self.output_redactor, self.chunk_size, self.context_size
        )

    def check_grounding(self, answer: str, chunks: Sequence[str]) -> GroundingResult:
        """Scores the final answer against the retrieved chunks (empty when grounding is off or
        no chunks were used). Sync; runs the embedder."""
        if not isinstance(answer, str):
            raise InvalidInputError(f"answer must be str, got {type(answer).__name__}")
        if self.grounding is None:
            return GroundingResult(GroundingReport(()), ())
        report = self.grounding.check(answer, chunks)
        events = tuple(
            ModerationEvent(
                Stage.OUTPUT,
                self.grounding.name,
                Action.FLAG,
                f"sentence not supported by the retrieved documents (chars {s.start}-{s.end})",
                clip(s.text),
            )
            for s in report.unsupported
        )
        return GroundingResult(report, events)
