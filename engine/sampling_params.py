"""SamplingParams: how one request picks its tokens and when it stops."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.errors import InvalidSamplingParamsError


@dataclass(slots=True)
class SamplingParams:
    """Decoding settings of one request.

    temperature == 0 means greedy. top_k <= 0 disables top-k; top_p == 1 and min_p == 0
    disable those filters. Penalties follow the usual conventions: repetition_penalty
    (multiplicative, 1 = off, applies to prompt and output tokens), presence_penalty and
    frequency_penalty (additive, 0 = off, output tokens only). `best_of`/`n` are not
    offered; beam search is `use_beam_search` with `beam_width` beams.
    """

    max_tokens: int = 256
    min_tokens: int = 0
    temperature: float = 1.0
    top_k: int = 0
    top_p: float = 1.0
    min_p: float = 0.0
    repetition_penalty: float = 1.0
    presence_penalty: float = 0.0
    frequency_penalty: float = 0.0
    seed: int | None = None
    stop: list[str] = field(default_factory=list)
    stop_token_ids: list[int] = field(default_factory=list)
    ignore_eos: bool = False
    include_stop_str_in_output: bool = False
    logprobs: int | None = None  # number of top logprobs to return per token
    skip_special_tokens: bool = True
    use_beam_search: bool = False
    beam_width: int = 1
    length_penalty: float = 1.0
    # False: no text, token ids only (as vLLM's flag). Saves the per-token incremental decode,
    # which an offline batch pays for nothing; needs no stop strings (they are matched in text).
    detokenize: bool = True

    def __post_init__(self) -> None:
        if isinstance(self.stop, str):
            self.stop = [self.stop]
        self.validate()

    @property
    def greedy(self) -> bool:
        return self.temperature == 0.0

    def validate(self) -> None:
        def bad(name: str, value: object, rule: str) -> InvalidSamplingParamsError:
            return InvalidSamplingParamsError(f"{name} must be {rule}, got {value!r}")

        if not isinstance(self.max_tokens, int) or self.max_tokens < 1:
            raise bad("max_tokens", self.max_tokens, "an integer >= 1")
        if not isinstance(self.min_tokens, int) or not 0 <= self.min_tokens <= self.max_tokens:
            raise bad("min_tokens", self.min_tokens, f"an integer in [0, max_tokens={self.max_tokens}]")
        if not 0.0 <= self.temperature <= 100.0:
            raise bad("temperature", self.temperature, "in [0, 100]")
        if not isinstance(self.top_k, int) or self.top_k < -1:
            raise bad("top_k", self.top_k, "an integer >= -1 (0 or -1 disables it)")
        if not 0.0 < self.top_p <= 1.0:
            raise bad("top_p", self.top_p, "in (0, 1]")
        if not 0.0 <= self.min_p <= 1.0:
            raise bad("min_p", self.min_p, "in [0, 1]")
        if not 0.0 < self.repetition_penalty <= 10.0:
            raise bad("repetition_penalty", self.repetition_penalty, "in (0, 10]")
        if not -2.0 <= self.presence_penalty <= 2.0:
            raise bad("presence_penalty", self.presence_penalty, "in [-2, 2]")
        if not -2.0 <= self.frequency_penalty <= 2.0:
            raise bad("frequency_penalty", self.frequency_penalty, "in [-2, 2]")
        if self.seed is not None and not isinstance(self.seed, int):
            raise bad("seed", self.seed, "an integer or None")
        if any(not isinstance(s, str) or not s for s in self.stop):
            raise bad("stop", self.stop, "a list of non-empty strings")
        if len(self.stop) > 16:
            raise bad("stop", self.stop, "at most 16 strings")
        if not self.detokenize and self.stop:
            raise bad("stop", self.stop, "empty when detokenize is False (stop strings are "
                      "matched in the text)")
        if any(not isinstance(t, int) or t < 0 for t in self.stop_token_ids):
            raise bad("stop_token_ids", self.stop_token_ids, "a list of token ids >= 0")
        if self.logprobs is not None and not 0 <= self.logprobs <= 20:
            raise bad("logprobs", self.logprobs, "in [0, 20]")
        if self.use_beam_search:
            if not 2 <= self.beam_width <= 16:
                raise bad("beam_width", self.beam_width, "in [2, 16] with beam search")
        elif self.beam_width != 1:
            raise bad("beam_width", self.beam_width, "1 unless use_beam_search is set")
