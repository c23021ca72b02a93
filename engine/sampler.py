"""The sampler: one token per row from last-position logits, with per-request settings.

Order of operations for a batch of B rows over a vocabulary of V tokens:

1. Logprobs (only when a row asks) are taken from the raw model logits: log_softmax before any
   penalty, mask or temperature.
2. Penalties on the raw logits (float32): repetition first (HF/vLLM convention: a token seen in
   the prompt or the output has logit / p when its logit is > 0, logit * p otherwise), then
   frequency (minus f * its count in the output), then presence (minus p if it is in the output).
3. min_tokens: a row with fewer than min_tokens output tokens gets -inf on its EOS and stop ids.
4. Greedy rows (temperature 0) take the argmax of those logits.
5. Random rows divide by their temperature, then filter, each filter seeing the survivors of the
   one before: top-k (the k largest logits), top-p (the smallest set of most likely tokens whose
   probability reaches top_p; never empty), min-p (drop tokens whose probability is below
   min_p times the largest). Tokens tied with a filter's cut-off value are all kept.
6. They then sample with the exponential race: argmax(probs / q), q ~ Exp(1) per token, which
   picks each token with its probability. A seeded row's q comes only from its own generator,
   one (V,) draw per step, so its tokens do not depend on the rest of the batch or its order;
   unseeded rows share the sampler's generator.

The only device -> host copy is the final one; when every row is greedy and nothing changes
the logits, the sampler does a plain argmax.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import torch

from engine.sampling_metadata import SamplerInputError, SamplingMetadata, SamplingPlan

_U_MIN = torch.finfo(torch.float32).tiny  # lower bound of the uniform draws behind q


@dataclass(slots=True)
class SamplerOutput:
    token_ids: list[int]  # (B,) sampled ids
    logprobs: list[float] | None  # raw logprob of each sampled token; None if no row asked
    top_logprobs: list[list[tuple[int, float]]] | None  # per row its own top-N, descending


def make_generator(seed: int, device: torch.device | str) -> torch.Generator:
    """A generator for one seeded request; the engine keeps it for the request's lifetime.

    Any integer seed is accepted: it is reduced modulo 2**64, the range torch takes.
    """
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise SamplerInputError(f"seed must be an integer, got {seed!r}")
    generator = torch.Generator(device=torch.device(device))
    generator.manual_seed(seed % 2**64)
    return generator


class Sampler:
    """Turns (B, V) logits and a SamplingMetadata into one token per row (see module doc).

    `seed` fixes the generator shared by unseeded rows (one per device), for reproducible runs;
    None seeds it from the operating system.
    """

    def __init__(self, seed: int | None = None) -> None:
        self._seed = seed
        self._shared: dict[torch.device, torch.Generator] = {}

    @torch.no_grad()
    def __call__(self, logits: torch.Tensor, meta: SamplingMetadata) -> SamplerOutput:
        _check_logits(logits, meta)
        if meta.batch_size == 0:
            return SamplerOutput([], None, None)
        raw_logprobs = None
        if meta.max_num_logprobs is not None:
            raw_logprobs = torch.log_softmax(logits.float(), dim=-1)  # (B, V)
        if meta.all_greedy and not meta.plan.has_penalties and not meta.min_tokens_masks:
            token_ids = logits.argmax(dim=-1)  # (B,)
        else:
            token_ids = self._sample(logits, meta)
        return _to_host(token_ids, raw_logprobs, meta)

    def _sample(self, logits: torch.Tensor, meta: SamplingMetadata) -> torch.Tensor:
        plan = meta.plan
        scores = logits.float()  # (B, V)
        if plan.has_penalties:
            scores = apply_penalties(
                scores,
                meta.prompt_token_ids,
                meta.output_token_ids,
                meta.repetition_penalty,
                meta.presence_penalty,
                meta.frequency_penalty,
            )
        if meta.min_tokens_masks:
            if scores is logits:
                scores = scores.clone()  # never write into the caller's tensor
            forbid_tokens_(scores, meta.min_tokens_masks)
        if meta.all_greedy:
            return scores.argmax(dim=-1)
        if meta.all_random:
            return self._sample_random(scores, meta)
        assert plan.random_rows is not None
        greedy = scores.argmax(dim=-1)  # (B,)
        # Advanced indexing, not index_select: torch's CPU index_select of whole rows is slow.
        sampled = self._sample_random(scores[plan.random_rows], meta)  # (R,)
        return greedy.index_copy(0, plan.random_rows, sampled)

    def _sample_random(self, scores: torch.Tensor, meta: SamplingMetadata) -> torch.Tensor:
        """Samples the random sub-batch: scores (R, V) -> token ids (R,). Never writes scores.

        The race argmax(probs / q) is run in log space and scaled by the temperature T > 0:
        argmax(scores - T * log q) picks the same token without dividing the whole (R, V)
        tensor by T. The filters become one cut-off logit per row; tokens below it are out.
        """
        plan = meta.plan

        def pick(values: torch.Tensor) -> torch.Tensor:  # (B,) -> (R,)
            return values if plan.random_rows is None else values[plan.random_rows]

        temperature = pick(meta.temperature)[:, None]  # (R, 1)
        cutoffs: list[torch.Tensor] = []  # each (R, 1)
        top_k = None if meta.top_k is None else pick(meta.top_k)
        top_values = None
        if top_k is not None:
            top_values = _top_k_values(scores, top_k, plan.max_top_k)  # (R, K)
            kth = top_values.gather(1, (top_k.clamp(max=plan.max_top_k) - 1)[:, None])
            cutoffs.append(torch.where(top_k[:, None] < meta.vocab_size, kth, -math.inf))
        if meta.top_p is not None:
            candidates = top_values if plan.top_p_within_top_k else None
            cutoffs.append(
                _top_p_cutoff(scores, temperature, pick(meta.top_p), top_k, plan, candidates)
            )
        if meta.min_p is not None:
            # p_i < min_p * p_max  <=>  logit_i < max logit + T * log(min_p); log(0) = -inf.
            top = scores.amax(dim=-1, keepdim=True) if top_values is None else top_values[:, :1]
            cutoffs.append(top + temperature * pick(meta.min_p).log()[:, None])
        log_q = self._log_exponentials(scores, plan)  # (R, V)
        race = torch.addcmul(scores, temperature, log_q, value=-1.0)  # (R, V)
        if cutoffs:
            cutoff = functools.reduce(torch.maximum, cutoffs)  # (R, 1)
            race.masked_fill_(scores < cutoff, -math.inf)
        return race.argmax(dim=-1)

    def _log_exponentials(self, scores: torch.Tensor, plan: SamplingPlan) -> torch.Tensor:
        """log q for q ~ Exp(1), one per token: (R, V). Seeded rows draw from their own generator.

        u ~ U[tiny, 1) keeps q = -log(u) finite and > 0, so log q is finite: a token with a
        -inf score stays -inf (never NaN) and every allowed token has a finite score.
        """
        u = torch.empty_like(scores, dtype=torch.float32)  # (R, V)
        if plan.num_unseeded_random:
            u.uniform_(_U_MIN, 1.0, generator=self._shared_generator(scores.device))
        for position, generator in plan.random_generators.items():
            u[position].uniform_(_U_MIN, 1.0, generator=generator)
        return u.log_().neg_().log_()

    def _shared_generator(self, device: torch.device) -> torch.Generator:
        generator = self._shared.get(device)
        if generator is None:
            generator = torch.Generator(device=device)
            if self._seed is None:
                generator.seed()
            else:
                generator.manual_seed(self._seed % 2**64)
            self._shared[device] = generator
        return generator


def apply_penalties(
    logits: torch.Tensor,
    prompt_token_ids: Sequence[Sequence[int]],
    output_token_ids: Sequence[Sequence[int]],
    repetition_penalty: torch.Tensor | None,
    presence_penalty: torch.Tensor | None,
    frequency_penalty: torch.Tensor | None,
) -> torch.Tensor:
    """Penalized copy of logits (B, V): repetition, then frequency, then presence.

    Repetition covers tokens in the prompt or the output; frequency and presence only the
    output. A None penalty is off for every row. Only the (row, token) entries that occur are
    read and written, so the cost follows the number of tokens, not B * V.
    """
    batch_size, vocab_size = logits.shape
    out = logits.clone()
    flat = out.view(-1)  # (B * V,)
    output_index, output_counts = _flat_token_index(output_token_ids, batch_size, vocab_size)
    if repetition_penalty is not None:
        prompt_index, _ = _flat_token_index(prompt_token_ids, batch_size, vocab_size)
        index = torch.from_numpy(np.union1d(prompt_index, output_index)).to(out.device)  # (N,)
        values = flat.index_select(0, index)
        penalty = repetition_penalty.index_select(0, index // vocab_size)
        flat.index_copy_(0, index, torch.where(values > 0, values / penalty, values * penalty))
    if output_index.size and (frequency_penalty is not None or presence_penalty is not None):
        index = torch.from_numpy(output_index).to(out.device)  # (M,)
        rows = index // vocab_size
        values = flat.index_select(0, index)
        if frequency_penalty is not None:
            counts = torch.from_numpy(output_counts).to(out.device, torch.float32)
            values = values - frequency_penalty.index_select(0, rows) * counts
        if presence_penalty is not None:
            values = values - presence_penalty.index_select(0, rows)
        flat.index_copy_(0, index, values)
    return out


def _flat_token_index(
    token_ids: Sequence[Sequence[int]], batch_size: int, vocab_size: int
) -> tuple[np.ndarray, np.ndarray]:
    """The distinct (row, token) pairs as row * V + token, with how often each occurs (host)."""
    if len(token_ids) != batch_size:
        raise SamplerInputError(f"{len(token_ids)} token id sequences for {batch_size} rows")
    lengths = np.fromiter(map(len, token_ids), dtype=np.int64, count=batch_size)
    flat = np.fromiter(
        itertools.chain.from_iterable(token_ids), dtype=np.int64, count=int(lengths.sum())
    )
    if flat.size:
        low, high = int(flat.min()), int(flat.max())
        if low < 0 or high >= vocab_size:
            bad = low if low < 0 else high
            raise SamplerInputError(f"token id {bad} outside the vocabulary of {vocab_size}")
    rows = np.repeat(np.arange(batch_size, dtype=np.int64) * vocab_size, lengths)
    return np.unique(flat + rows, return_counts=True)


def forbid_tokens_(logits: torch.Tensor, token_ids: Mapping[int, Sequence[int]]) -> None:
    """Sets logits[row, id] = -inf in place for each row -> ids."""
    rows = [row for row, ids in token_ids.items() for _ in ids]
    cols = [t for ids in token_ids.values() for t in ids]
    index = torch.tensor([rows, cols], dtype=torch.int64).to(logits.device)  # (2, N)
    logits.index_put_((index[0], index[1]), torch.tensor(-math.inf, device=logits.device))


def _top_k_values(scores: torch.Tensor, top_k: torch.Tensor, max_top_k: int) -> torch.Tensor:
    """Each row's top-k logits, descending, -inf past its own k: (R, max_top_k)."""
    values = scores.topk(max_top_k, dim=-1).values  # (R, K)
    ranks = torch.arange(max_top_k, device=scores.device)  # (K,)
    return values.masked_fill_(ranks[None, :] >= top_k[:, None], -math.inf)


def _top_p_cutoff(
    scores: torch.Tensor,
    temperature: torch.Tensor,
    top_p: torch.Tensor,
    top_k: torch.Tensor | None,
    plan: SamplingPlan,
    candidates: torch.Tensor | None,
) -> torch.Tensor:
    """Per row the logit of the last token of the smallest most-likely set reaching top_p.

    The set is taken among the top-k survivors, renormalized. Rows without top-p get -inf.
    `candidates` (the top-k values, when every top-p row has a top-k) save a full sort; without
    them the `TOP_P_CANDIDATES` largest logits usually hold the set (a sampled distribution puts
    its mass on few tokens), and only rows whose set reaches past them are sorted whole.
    Returns (R, 1).
    """
    rows = plan.top_p_rows

    def pick(values: torch.Tensor) -> torch.Tensor:  # (R, ...) -> (P, ...)
        return values if rows is None else values[rows]

    temp, p = pick(temperature), pick(top_p)[:, None]  # (P, 1) each
    if candidates is not None:
        cutoff, _ = _cutoff_in_ranked(pick(candidates), temp, p, None)
    else:
        row_scores = pick(scores)  # (P, V)
        row_k = None if top_k is None else pick(top_k)
        cutoff = _top_p_from_candidates(row_scores, temp, p, row_k)
    if rows is None:
        return cutoff
    full = torch.full((scores.shape[0], 1), -math.inf, device=scores.device)
    return full.index_copy_(0, rows, cutoff)  # (R, 1)


TOP_P_CANDIDATES = 512


def _top_p_from_candidates(
    scores: torch.Tensor, temperature: torch.Tensor, top_p: torch.Tensor, top_k: torch.Tensor | None
) -> torch.Tensor:
    """Top-p cut-offs (P, 1) from the largest logits, sorting a row whole only when needed.

    The total mass a row's set is measured against is summed over the whole row (or over its
    top-k survivors when k fits among the candidates), so a set found among the candidates is
    the same set a full sort would give.
    """
    vocab_size = scores.shape[-1]
    width = min(vocab_size, TOP_P_CANDIDATES)
    ranked = scores.topk(width, dim=-1).values  # (P, W), descending
    if top_k is not None:
        ranks = torch.arange(width, device=scores.device)
        ranked.masked_fill_(ranks[None, :] >= top_k[:, None], -math.inf)
    total = (scores - ranked[:, :1]).div_(temperature).exp_().sum(dim=-1, keepdim=True)  # (P, 1)
    if top_k is not None:
        # A row whose k fits among the candidates has all its survivors' mass in `ranked` (NaN:
        # use it); one whose k lies between the candidates and V is sent to the full sort (inf).
        k = top_k[:, None]
        total = torch.where(k <= width, math.nan, torch.where(k < vocab_size, math.inf, total))
    cutoff, found = _cutoff_in_ranked(ranked, temperature, top_p, total)
    missing = (~found).nonzero().flatten()  # (M,) rows whose set reaches past the candidates
    if width < vocab_size and missing.numel():
        whole = _sorted_descending(scores[missing])  # (M, V)
        if top_k is not None:
            ranks = torch.arange(vocab_size, device=scores.device)
            whole.masked_fill_(ranks[None, :] >= top_k[missing][:, None], -math.inf)
        rest, _ = _cutoff_in_ranked(whole, temperature[missing], top_p[missing], None)
        cutoff = cutoff.index_copy_(0, missing, rest)
    return cutoff


def _cutoff_in_ranked(
    ranked: torch.Tensor,
    temperature: torch.Tensor,
    top_p: torch.Tensor,
    total: torch.Tensor | None,
) -> tuple[torch.Tensor, torch.Tensor]:
    """Cut-off logit (P, 1) of the smallest prefix of `ranked` (P, W) (descending) whose mass
    reaches top_p * total, and whether one does (P,). `total` None (or NaN in a row): the mass
    of the whole of `ranked`, which then always suffices."""
    # Unnormalized probabilities in rank order; their running sum is non-decreasing, so the
    # rank j is kept iff the mass ranked above it, mass[j - 1], is below top_p * total.
    weights = (ranked - ranked[:, :1]).div_(temperature).exp_()  # (P, W)
    mass = weights.cumsum_(dim=-1)  # (P, W)
    total = mass[:, -1:] if total is None else torch.where(total.isnan(), mass[:, -1:], total)
    target = top_p * total  # (P, 1)
    num_kept = torch.searchsorted(mass, target) + 1  # (P, 1): ranks with mass[j - 1] < target
    found = (num_kept <= ranked.shape[-1]).flatten()  # (P,)
    cutoff = ranked.gather(1, num_kept.clamp_(max=ranked.shape[-1]) - 1)  # (P, 1)
    return cutoff, found


def _sorted_descending(x: torch.Tensor) -> torch.Tensor:
    """Each row of x sorted descending (values only)."""
    if x.device.type == "cpu":
        # torch's CPU sort always builds indices and is several times slower than numpy's
        # vectorized sort; top-p needs only the values.
        return torch.from_numpy(-np.sort(-x.numpy(), axis=-1))
    return x.sort(dim=-1, descending=True).values


def _to_host(
    token_ids: torch.Tensor, raw_logprobs: torch.Tensor | None, meta: SamplingMetadata
) -> SamplerOutput:
    if raw_logprobs is None:
        return SamplerOutput(token_ids.tolist(), None, None)
    n = meta.max_num_logprobs or 0
    parts = [token_ids[:, None], raw_logprobs.gather(1, token_ids[:, None])]  # (B, 1) each
    if n:
        top = raw_logprobs.topk(n, dim=-1)  # (B, n), descending
        parts += [top.indices, top.values]
    # One copy: float64 holds both the ids and the float32 logprobs exactly.
    host = torch.cat([p.to(torch.float64) for p in parts], dim=1).tolist()  # (B, 2 + 2n)
    top_logprobs = [
        [(int(row[2 + j]), row[2 + n + j]) for j in range(num or 0)]
        for row, num in zip(host, meta.num_logprobs, strict=True)
    ]
    return SamplerOutput([int(row[0]) for row in host], [row[1] for row in host], top_logprobs)


def _check_logits(logits: torch.Tensor, meta: SamplingMetadata) -> None:
    if not isinstance(logits, torch.Tensor) or logits.dim() != 2:
        shape = tuple(logits.shape) if isinstance(logits, torch.Tensor) else type(logits)
        raise SamplerInputError(f"logits must be a (B, V) tensor, got {shape}")
    if not logits.is_floating_point():
        raise SamplerInputError(f"logits must be floating point, got {logits.dtype}")
    if tuple(logits.shape) != (meta.batch_size, meta.vocab_size):
        raise SamplerInputError(
            f"logits of shape {tuple(logits.shape)} for {meta.batch_size} rows over a "
            f"vocabulary of {meta.vocab_size}"
        )
    if logits.device != meta.temperature.device:
        raise SamplerInputError(
            f"logits on {logits.device}, sampling metadata on {meta.temperature.device}"
        )
