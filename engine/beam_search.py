"""Beam search as a policy over one-token engine requests.

Each step, every live beam is one request (prompt + the beam's tokens, max_tokens=1, top-2k
logprobs). The requests share the prompt's KV blocks through the prefix cache, by reference
count, so k beams cost one prompt's blocks plus their own tails. The policy itself is plain
Python: `BeamSearch.step` takes each beam's top logprobs and returns the next beams.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.errors import InvalidSamplingParamsError
from engine.sampling_params import SamplingParams


@dataclass(slots=True)
class Beam:
    token_ids: list[int] = field(default_factory=list)
    cum_logprob: float = 0.0
    finished: bool = False

    def score(self, length_penalty: float) -> float:
        """Hugging Face's convention: sum of logprobs / length ** length_penalty."""
        return self.cum_logprob / max(len(self.token_ids), 1) ** length_penalty


class BeamSearch:
    """Keeps `width` live beams and the finished hypotheses.

    Invariant: `live` holds at most `width` unfinished beams, best first. Search ends when no
    live beam can beat the worst of the `width` best finished ones (its score can only fall as
    it grows when length_penalty >= 0, so that is checked with its current length), or at
    max_tokens.
    """

    def __init__(self, params: SamplingParams, eos_token_ids: tuple[int, ...]) -> None:
        if not params.use_beam_search:
            raise InvalidSamplingParamsError("BeamSearch needs use_beam_search=True")
        if 2 * params.beam_width > 20:
            raise InvalidSamplingParamsError(
                f"beam_width={params.beam_width} needs {2 * params.beam_width} logprobs; at most 10"
            )
        self.width = params.beam_width
        self.max_tokens = params.max_tokens
        self.length_penalty = params.length_penalty
        self.stop_ids = set(params.stop_token_ids) | (set() if params.ignore_eos else set(eos_token_ids))
        self.live: list[Beam] = [Beam()]
        self.finished: list[Beam] = []

    def step_params(self) -> SamplingParams:
        """Parameters of the one-token request each live beam runs this step."""
        return SamplingParams(max_tokens=1, temperature=0.0, logprobs=2 * self.width, ignore_eos=True)

    @property
    def done(self) -> bool:
        if not self.live:
            return True
        if len(self.live[0].token_ids) >= self.max_tokens:
            return True
        if len(self.finished) < self.width:
            return False
        worst_kept = sorted(b.score(self.length_penalty) for b in self.finished)[-self.width]
        best_live = max(b.score(self.length_penalty) for b in self.live)
        return self.length_penalty >= 0 and best_live < worst_kept

    def step(self, top_logprobs: list[dict[int, float]]) -> None:
        """Extend the live beams; top_logprobs[i] holds beam i's top-2k next tokens."""
        if len(top_logprobs) != len(self.live):
            raise ValueError(f"{len(top_logprobs)} logprob rows for {len(self.live)} beams")
        candidates = [
            (beam.cum_logprob + lp, i, token)
            for i, (beam, top) in enumerate(zip(self.live, top_logprobs, strict=True))
            for token, lp in top.items()
        ]
        # Stable tie-break on (beam index, token id) keeps the search deterministic.
        candidates.sort(key=lambda c: (-c[0], c[1], c[2]))
        nxt: list[Beam] = []
        for cum, i, token in candidates:
            beam = Beam(self.live[i].token_ids + [token], cum)
            if token in self.stop_ids:
                beam.finished = True
                self.finished.append(beam)
            else:
                nxt.append(beam)
            if len(nxt) == self.width:
                break
        self.live = nxt

    def results(self) -> list[Beam]:
        """The `width` best hypotheses, finished or not, best first."""
        pool = self.finished + self.live
        pool.sort(key=lambda b: -b.score(self.length_penalty))
        return pool[: self.width]
