"""What the engine hands back: one RequestOutput per request per step."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(slots=True)
class TokenLogprob:
    token_id: int
    logprob: float
    top: dict[int, float] = field(default_factory=dict)  # top-N alternatives, id -> logprob


@dataclass(slots=True)
class RequestOutput:
    """A streaming update for one request.

    `text` and `token_ids` are the delta since the previous output of this request; the
    full answer is the concatenation of the deltas. `finish_reason` is set on the last
    output only: "stop" (EOS, stop token or stop string), "length" (max_tokens or the
    context), "abort" (cancelled).
    """

    request_id: str
    text: str
    token_ids: list[int]
    finished: bool
    finish_reason: str | None
    num_prompt_tokens: int
    num_cached_tokens: int
    num_output_tokens: int
    logprobs: list[TokenLogprob] | None = None
    stop_reason: str | int | None = None  # the stop string or stop token id that matched
