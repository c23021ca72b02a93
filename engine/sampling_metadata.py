"""SamplingMetadata: the per-row sampling settings of one step, as tensors for the sampler.

The engine hands one SamplingRow per request that needs a token this step; `build` turns them
into (B,) tensors on the device plus a few host-side facts (which rows are random, the largest
top-k, ...) so that the sampler never has to read a device tensor back to decide what to do.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import torch

from engine.errors import EngineError
from engine.sampling_params import SamplingParams

# Below this temperature the scaled logits overflow float32 long before sampling could differ
# from the argmax, so such rows are treated as greedy.
MIN_TEMPERATURE = 1e-5


class SamplerInputError(EngineError, ValueError):
    """Logits or sampling rows the sampler cannot work with (shape, device, missing generator)."""


@dataclass(slots=True)
class SamplingRow:
    """One request at this step: its settings, its tokens so far and its own generator."""

    params: SamplingParams
    prompt_token_ids: Sequence[int]
    output_token_ids: Sequence[int]
    generator: torch.Generator | None  # created once per seeded request, kept across steps
    eos_token_ids: Sequence[int]  # masked, with stop_token_ids, until min_tokens are out


@dataclass(slots=True)
class SamplingPlan:
    """Host-side facts derived by `SamplingMetadata.build`, so the sampler never syncs.

    `random_rows` are the batch rows that sample (None when every row does or none does);
    positions below ("sub-batch positions") index into those rows in order.
    """

    random_rows: torch.Tensor | None  # (R,) int64 batch rows of the random sub-batch
    random_generators: dict[int, torch.Generator]  # sub-batch position -> seeded generator
    num_unseeded_random: int  # random rows drawing from the sampler's shared generator
    max_top_k: int  # largest active top-k among random rows; 0 when none
    top_p_rows: torch.Tensor | None  # (P,) int64 sub-batch positions with top_p < 1; None = all
    top_p_within_top_k: bool  # every top-p row also has an active top-k
    has_penalties: bool


@dataclass(slots=True)
class SamplingMetadata:
    """Sampling settings of a batch of B rows (one row = one request this step).

    Filter tensors are None when no random row uses that filter; penalty tensors are None
    when no row (greedy rows included) uses that penalty. `prompt_token_ids` and
    `output_token_ids` are the penalty inputs: a row whose penalties are all off gets empty
    sequences there, so the penalty pass costs nothing for it. `min_tokens_masks` holds, for
    rows that have produced fewer than min_tokens tokens, the EOS and stop token ids to forbid.
    Temperatures below MIN_TEMPERATURE are stored as 0 (greedy).
    """

    temperature: torch.Tensor  # (B,) float32; 0 = greedy row
    top_k: torch.Tensor | None  # (B,) int64, V where disabled
    top_p: torch.Tensor | None  # (B,) float32, 1 where disabled
    min_p: torch.Tensor | None  # (B,) float32, 0 where disabled
    repetition_penalty: torch.Tensor | None  # (B,) float32, 1 where disabled
    presence_penalty: torch.Tensor | None  # (B,) float32, 0 where disabled
    frequency_penalty: torch.Tensor | None  # (B,) float32, 0 where disabled
    prompt_token_ids: list[Sequence[int]]
    output_token_ids: list[Sequence[int]]
    generators: dict[int, torch.Generator]  # row -> the request's own generator
    min_tokens_masks: dict[int, Sequence[int]]  # row -> token ids to forbid this step
    max_num_logprobs: int | None  # largest `logprobs` asked for; None when no row asks
    all_greedy: bool
    all_random: bool
    vocab_size: int
    num_logprobs: list[int | None]  # each row's own `logprobs`
    plan: SamplingPlan

    @property
    def batch_size(self) -> int:
        return len(self.num_logprobs)

    @classmethod
    def build(
        cls, rows: Sequence[SamplingRow], vocab_size: int, device: torch.device
    ) -> SamplingMetadata:
        if not isinstance(vocab_size, int) or vocab_size < 1:
            raise SamplerInputError(f"vocab_size must be an integer >= 1, got {vocab_size!r}")
        device = torch.device(device)
        params = [row.params for row in rows]
        temperatures = [0.0 if p.temperature < MIN_TEMPERATURE else p.temperature for p in params]
        is_random = [t > 0.0 for t in temperatures]
        random_ids = [i for i, r in enumerate(is_random) if r]
        position = {row_id: pos for pos, row_id in enumerate(random_ids)}

        generators: dict[int, torch.Generator] = {}
        for i, row in enumerate(rows):
            if row.generator is not None:
                if row.generator.device.type != device.type:
                    raise SamplerInputError(
                        f"row {i}: generator on {row.generator.device}, logits on {device}"
                    )
                generators[i] = row.generator
            elif row.params.seed is not None and is_random[i]:
                raise SamplerInputError(
                    f"row {i}: seed={row.params.seed} but no generator; create one with "
                    "make_generator once per request and pass it at every step"
                )
        random_generators = {position[i]: g for i, g in generators.items() if is_random[i]}

        top_ks = [p.top_k if 0 < p.top_k < vocab_size else vocab_size for p in params]
        active_k = [k for k, r in zip(top_ks, is_random, strict=True) if r and k < vocab_size]
        top_p_pos = [position[i] for i in random_ids if params[i].top_p < 1.0]
        uses_min_p = any(params[i].min_p > 0.0 for i in random_ids)

        rep_on = [p.repetition_penalty != 1.0 for p in params]
        out_on = [
            r or p.presence_penalty != 0.0 or p.frequency_penalty != 0.0
            for r, p in zip(rep_on, params, strict=True)
        ]

        def floats(values: list[float]) -> torch.Tensor:
            return torch.tensor(values, dtype=torch.float32, device=device)

        def positions(values: list[int]) -> torch.Tensor:
            return torch.tensor(values, dtype=torch.int64, device=device)

        def penalty(name: str, neutral: float) -> torch.Tensor | None:
            values = [getattr(p, name) for p in params]
            return floats(values) if any(v != neutral for v in values) else None

        num_logprobs = [p.logprobs for p in params]
        asked = [n for n in num_logprobs if n is not None]
        mixed = bool(random_ids) and len(random_ids) < len(rows)
        plan = SamplingPlan(
            random_rows=positions(random_ids) if mixed else None,
            random_generators=random_generators,
            num_unseeded_random=len(random_ids) - len(random_generators),
            max_top_k=max(active_k, default=0),
            top_p_rows=positions(top_p_pos) if 0 < len(top_p_pos) < len(random_ids) else None,
            top_p_within_top_k=all(top_ks[random_ids[pos]] < vocab_size for pos in top_p_pos),
            has_penalties=any(out_on),
        )
        return cls(
            temperature=floats(temperatures),
            top_k=positions(top_ks) if active_k else None,
            top_p=floats([p.top_p for p in params]) if top_p_pos else None,
            min_p=floats([p.min_p for p in params]) if uses_min_p else None,
            repetition_penalty=penalty("repetition_penalty", 1.0),
            presence_penalty=penalty("presence_penalty", 0.0),
            frequency_penalty=penalty("frequency_penalty", 0.0),
            prompt_token_ids=[
                row.prompt_token_ids if on else () for row, on in zip(rows, rep_on, strict=True)
            ],
            output_token_ids=[
                row.output_token_ids if on else () for row, on in zip(rows, out_on, strict=True)
            ],
            generators=generators,
            min_tokens_masks=_min_tokens_masks(rows, vocab_size),
            max_num_logprobs=max(asked) if asked else None,
            all_greedy=not random_ids,
            all_random=len(random_ids) == len(rows),
            vocab_size=vocab_size,
            num_logprobs=num_logprobs,
            plan=plan,
        )


def _min_tokens_masks(rows: Sequence[SamplingRow], vocab_size: int) -> dict[int, Sequence[int]]:
    """Row -> the EOS and stop token ids it may not produce yet.

    Ids outside the vocabulary can never be sampled, so they need no mask and are left out.
    """
    masks: dict[int, Sequence[int]] = {}
    for i, row in enumerate(rows):
        if len(row.output_token_ids) >= row.params.min_tokens:
            continue
        ids = sorted(
            {t for t in (*row.eos_token_ids, *row.params.stop_token_ids) if 0 <= t < vocab_size}
        )
        if ids:
            masks[i] = ids
    return masks
