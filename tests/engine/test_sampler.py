"""The sampler on hand-made logits with known answers."""

from __future__ import annotations

import math
from collections import Counter

import pytest
import torch
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from engine.sampler import (
    TOP_P_CANDIDATES,
    Sampler,
    _cutoff_in_ranked,
    _sorted_descending,
    _top_p_from_candidates,
    apply_penalties,
    make_generator,
)
from engine.sampling_metadata import SamplerInputError, SamplingMetadata, SamplingRow
from engine.sampling_params import SamplingParams

CPU = torch.device("cpu")
DEVICES = [
    "cpu",
    pytest.param(
        "cuda",
        marks=[
            pytest.mark.gpu,
            pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device"),
        ],
    ),
]


def row(
    prompt: list[int] | None = None,
    output: list[int] | None = None,
    eos: tuple[int, ...] = (),
    device: torch.device | str = CPU,
    **params: object,
) -> SamplingRow:
    sp = SamplingParams(**params)  # type: ignore[arg-type]
    generator = make_generator(sp.seed, device) if sp.seed is not None else None
    return SamplingRow(sp, prompt or [], output or [], generator, eos)


def sample(logits: torch.Tensor, rows: list[SamplingRow], seed: int = 0):
    meta = SamplingMetadata.build(rows, logits.shape[1], logits.device)
    return Sampler(seed=seed)(logits, meta)


def logits_of(probs: list[float], num_rows: int = 1, device: str = "cpu") -> torch.Tensor:
    return torch.tensor([probs] * num_rows, device=device).log()  # (num_rows, V)


# ------------------------------------------------------------------------------ greedy
def test_greedy_takes_the_argmax_of_each_row() -> None:
    logits = torch.tensor([[0.1, 2.0, -1.0, 0.5], [3.0, 2.0, 1.0, 0.0], [-5.0, -4.0, -6.0, -3.0]])
    rows = [row(temperature=0.0) for _ in range(3)]
    assert sample(logits, rows).token_ids == [1, 0, 3]
    assert sample(logits.to(torch.bfloat16), rows).token_ids == [1, 0, 3]


def test_an_all_greedy_batch_without_penalties_is_a_plain_argmax(monkeypatch) -> None:
    def no_full_path(*args: object) -> None:
        raise AssertionError("the all-greedy fast path went through the sampling path")

    monkeypatch.setattr(Sampler, "_sample", no_full_path)
    logits = torch.tensor([[0.0, 1.0], [1.0, 0.0]])
    assert sample(logits, [row(temperature=0.0), row(temperature=0.0)]).token_ids == [1, 0]


def test_a_very_low_temperature_picks_the_argmax() -> None:
    logits = torch.tensor([[1.0, 1.5, 0.2, 1.4]] * 500)
    out = sample(logits, [row(temperature=1e-3) for _ in range(500)])
    assert set(out.token_ids) == {1}
    # Below MIN_TEMPERATURE the row is greedy outright (no overflow to inf/NaN).
    meta = SamplingMetadata.build([row(temperature=1e-7)], 4, CPU)
    assert meta.all_greedy and meta.temperature.tolist() == [0.0]
    assert sample(logits[:1], [row(temperature=1e-7)]).token_ids == [1]


# ------------------------------------------------------------------------------ filters
def test_top_k_one_equals_greedy() -> None:
    logits = torch.randn(16, 50, generator=torch.Generator().manual_seed(3))
    for seed in range(10):
        out = sample(logits, [row(temperature=1.3, top_k=1) for _ in range(16)], seed=seed)
        assert out.token_ids == logits.argmax(dim=-1).tolist()


def test_top_k_keeps_exactly_the_k_largest() -> None:
    logits = torch.tensor([[0.0, 3.0, 1.0, 2.0, 2.5, -1.0]] * 2000)
    out = sample(logits, [row(temperature=5.0, top_k=3) for _ in range(2000)])
    assert set(out.token_ids) == {1, 3, 4}


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize(
    ("top_p", "kept"),
    [(0.45, {2}), (0.79, {2, 0}), (0.9, {2, 0, 3}), (1.0, {2, 0, 3, 1})],
)
def test_top_p_keeps_the_smallest_set_reaching_top_p(
    device: str, top_p: float, kept: set[int]
) -> None:
    logits = logits_of([0.3, 0.05, 0.5, 0.15], num_rows=3000, device=device)
    rows = [row(top_p=top_p, device=device) for _ in range(3000)]
    assert set(sample(logits, rows).token_ids) == kept


def test_top_p_samples_the_renormalized_distribution() -> None:
    n = 20000
    logits = logits_of([0.2, 0.5, 0.3], num_rows=n)
    counts = Counter(sample(logits, [row(top_p=0.7) for _ in range(n)]).token_ids)
    assert set(counts) == {1, 2}
    assert counts[1] / n == pytest.approx(0.5 / 0.8, abs=0.02)
    assert counts[2] / n == pytest.approx(0.3 / 0.8, abs=0.02)


def test_plain_sampling_follows_the_softmax() -> None:
    n = 20000
    logits = logits_of([0.2, 0.5, 0.3], num_rows=n)
    counts = Counter(sample(logits, [row() for _ in range(n)], seed=7).token_ids)
    for token, prob in enumerate([0.2, 0.5, 0.3]):
        assert counts[token] / n == pytest.approx(prob, abs=0.02)


def test_top_p_applies_to_the_top_k_survivors_renormalized() -> None:
    # top_k=2 leaves {0: 4/7, 1: 3/7}: top_p=0.5 keeps {0}, top_p=0.6 keeps {0, 1}.
    probs = [0.4, 0.3, 0.2, 0.1]
    for top_p, kept in [(0.5, {0}), (0.6, {0, 1})]:
        only_with_k = [row(top_k=2, top_p=top_p) for _ in range(1000)]
        assert set(sample(logits_of(probs, 1000), only_with_k).token_ids) == kept
        # Mixed with top-p rows lacking top-k: the full-sort path must agree.
        mixed = only_with_k[:500] + [row(top_p=0.99) for _ in range(500)]
        out = sample(logits_of(probs, 1000), mixed).token_ids
        assert set(out[:500]) == kept
        assert set(out[500:]) == {0, 1, 2, 3}


def test_top_p_beyond_the_candidates_falls_back_to_the_full_sort() -> None:
    # Row 0: a peaked distribution whose set lies among the first candidates. Row 1: flat over
    # 1500 tokens, so its set reaches past TOP_P_CANDIDATES. Row 2: peaked but with a top-k
    # between the candidates and V, which must be renormalized over its own k survivors.
    vocab = 2000
    assert TOP_P_CANDIDATES < 1000 < vocab
    gen = torch.Generator().manual_seed(0)
    peaked = torch.randn(vocab, generator=gen) * 4
    flat = torch.cat([torch.zeros(1500), torch.full((500,), -30.0)])
    flat = flat[torch.randperm(vocab, generator=gen)]
    scores = torch.stack([peaked, flat, peaked])  # (3, V)
    temperature = torch.tensor([[0.8], [1.0], [1.3]])
    top_p = torch.tensor([[0.9], [0.8], [0.95]])
    top_k = torch.tensor([vocab, vocab, 1000])
    got = _top_p_from_candidates(scores.clone(), temperature, top_p, top_k)
    whole = _sorted_descending(scores)
    whole[2, 1000:] = -math.inf
    want, found = _cutoff_in_ranked(whole, temperature, top_p, None)
    assert found.all()
    assert torch.equal(got, want)
    # The flat row keeps 0.8 * 1500 = 1200 tokens, all of logit 0.
    assert got[1, 0] == 0.0
    assert int((flat >= got[1, 0]).sum()) == 1500  # ties with the cut-off are all kept


def test_min_p_drops_tokens_below_min_p_times_the_top_probability() -> None:
    logits = logits_of([0.15, 0.5, 0.05, 0.3], num_rows=3000)
    for min_p, kept in [(0.2, {0, 1, 3}), (0.5, {1, 3}), (0.0, {0, 1, 2, 3})]:
        out = sample(logits, [row(min_p=min_p) for _ in range(3000)])
        assert set(out.token_ids) == kept


def reference_kept(
    logits: list[float], temperature: float, top_k: int, top_p: float, min_p: float
) -> set[int] | None:
    """The allowed set by the textbook recipe; None when a value sits too near a cut-off."""
    margin = 1e-3
    ranked = sorted(range(len(logits)), key=lambda i: -logits[i])
    if 0 < top_k < len(logits):
        ranked = ranked[:top_k]

    def probs(ids: list[int]) -> list[float]:
        weights = [math.exp((logits[i] - logits[ids[0]]) / temperature) for i in ids]
        return [w / sum(weights) for w in weights]

    if top_p < 1.0:
        mass, kept = 0.0, []
        for i, p in zip(ranked, probs(ranked), strict=True):
            if abs(mass - top_p) < margin:
                return None
            if mass < top_p:
                kept.append(i)
            mass += p
        ranked = kept
    ps = probs(ranked)
    if any(abs(p - min_p * ps[0]) < margin * ps[0] for p in ps):
        return None
    return {i for i, p in zip(ranked, ps, strict=True) if p >= min_p * ps[0]}


@settings(max_examples=40, deadline=None)
@given(
    logits=st.permutations([x * 0.37 for x in range(12)]),
    temperature=st.sampled_from([0.3, 1.0, 2.5]),
    top_k=st.integers(0, 12),
    top_p=st.sampled_from([0.2, 0.5, 0.83, 0.95, 1.0]),
    min_p=st.sampled_from([0.0, 0.05, 0.3, 0.7]),
    with_greedy_and_full_sort_rows=st.booleans(),
)
def test_sampled_tokens_stay_in_the_textbook_allowed_set(
    logits: list[float],
    temperature: float,
    top_k: int,
    top_p: float,
    min_p: float,
    with_greedy_and_full_sort_rows: bool,
) -> None:
    kept = reference_kept(logits, temperature, top_k, top_p, min_p)
    assume(kept is not None)
    params = dict(temperature=temperature, top_k=top_k, top_p=top_p, min_p=min_p)
    rows = [row(**params) for _ in range(300)]
    if with_greedy_and_full_sort_rows:  # other code paths: a sub-batch, top-p by full sort
        rows += [row(temperature=0.0), row(top_p=0.99)]
    out = sample(torch.tensor([logits] * len(rows)), rows).token_ids[:300]
    assert set(out) <= kept
    assert max(range(12), key=lambda i: logits[i]) in out


def test_sorted_descending_matches_torch_sort() -> None:
    x = torch.randn(5, 300, generator=torch.Generator().manual_seed(1))
    x[:, ::7] = -math.inf
    expected = x.sort(dim=-1, descending=True).values
    assert torch.equal(_sorted_descending(x), expected)


# ------------------------------------------------------------------------------ penalties
LOGITS = [2.0, -1.0, 0.5, 3.0, -2.0, 0.0]
PROMPT, OUTPUT = [0, 1, 5], [1, 3, 3]


def penalize(rep: float | None, pres: float | None, freq: float | None) -> list[float]:
    def col(value: float | None, neutral: float) -> torch.Tensor | None:
        return None if value is None else torch.tensor([value, neutral])

    logits = torch.tensor([LOGITS, LOGITS])
    prompts, outputs = [PROMPT, PROMPT], [OUTPUT, OUTPUT]
    out = apply_penalties(logits, prompts, outputs, col(rep, 1.0), col(pres, 0.0), col(freq, 0.0))
    assert out[1].tolist() == LOGITS  # second row: neutral penalties change nothing
    assert logits[0].tolist() == LOGITS  # the input is left alone
    return out[0].tolist()


def test_repetition_penalty_divides_positive_and_multiplies_negative_seen_logits() -> None:
    # Seen: 0, 1, 5 (prompt) and 1, 3 (output); 2 and 4 are untouched.
    assert penalize(2.0, None, None) == [1.0, -2.0, 0.5, 1.5, -2.0, 0.0]


def test_frequency_penalty_subtracts_per_output_occurrence() -> None:
    assert penalize(None, None, 0.5) == [2.0, -1.5, 0.5, 2.0, -2.0, 0.0]


def test_presence_penalty_subtracts_once_per_output_token() -> None:
    assert penalize(None, 0.25, None) == [2.0, -1.25, 0.5, 2.75, -2.0, 0.0]


def test_penalties_apply_repetition_then_frequency_then_presence() -> None:
    # Token 3: 3.0 / 2 = 1.5, - 0.5 * 2 = 0.5, - 0.25 = 0.25.
    assert penalize(2.0, 0.25, 0.5) == [1.0, -2.75, 0.5, 0.25, -2.0, 0.0]


def test_penalties_steer_greedy_decoding() -> None:
    logits = torch.tensor([[1.0, 3.0, 2.9]])
    greedy = dict(temperature=0.0)
    assert sample(logits, [row(output=[1], **greedy)]).token_ids == [1]
    assert sample(logits, [row(output=[1], presence_penalty=0.2, **greedy)]).token_ids == [2]
    assert sample(logits, [row(prompt=[1], repetition_penalty=1.1, **greedy)]).token_ids == [2]


def test_a_token_outside_the_vocabulary_is_a_typed_error() -> None:
    with pytest.raises(SamplerInputError, match="token id 9 outside the vocabulary of 3"):
        sample(torch.zeros(1, 3), [row(prompt=[9], repetition_penalty=1.2)])


# ------------------------------------------------------------------------------ min_tokens
def test_min_tokens_forbids_eos_and_stop_ids_then_allows_them() -> None:
    logits = torch.tensor([[0.0, 1.0, 5.0, 0.5, 4.0]])  # EOS=2 best, stop id 4 second
    args = dict(eos=(2,), temperature=0.0, min_tokens=3, stop_token_ids=[4, 99])
    assert sample(logits, [row(output=[0], **args)]).token_ids == [1]
    assert sample(logits, [row(output=[0, 0], **args)]).token_ids == [1]
    assert sample(logits, [row(output=[0, 0, 0], **args)]).token_ids == [2]
    assert logits.tolist() == [[0.0, 1.0, 5.0, 0.5, 4.0]]  # masks never touch the caller's logits


def test_min_tokens_applies_to_random_rows() -> None:
    logits = logits_of([0.6, 0.2, 0.2], num_rows=500)
    rows = [row(output=[1], eos=(0,), min_tokens=2) for _ in range(500)]
    assert set(sample(logits, rows).token_ids) == {1, 2}


# ------------------------------------------------------------------------------ seeds
def run_steps(
    make_rows, target: int, num_rows: int, num_steps: int = 12, device: str = "cpu"
) -> list[int]:
    """Decodes num_steps tokens; row `target` always sees the same logits whatever the batch."""
    vocab = 64
    rows = make_rows()
    sampler = Sampler()
    tokens: list[int] = []
    for step in range(num_steps):
        logits = torch.randn(num_rows, vocab, generator=torch.Generator().manual_seed(step + 99))
        logits[target] = torch.randn(vocab, generator=torch.Generator().manual_seed(step)) * 2
        logits = logits.to(device)
        out = sampler(logits, SamplingMetadata.build(rows, vocab, torch.device(device)))
        tokens.append(out.token_ids[target])
        for r, token in zip(rows, out.token_ids, strict=True):
            r.output_token_ids.append(token)  # type: ignore[attr-defined]
    return tokens


def seeded(seed: int, device: str = "cpu") -> SamplingRow:
    return row(seed=seed, temperature=0.9, top_p=0.95, repetition_penalty=1.1, device=device)


@pytest.mark.parametrize("device", DEVICES)
def test_same_seed_same_tokens_alone_or_in_a_mixed_batch(device: str) -> None:
    alone = run_steps(lambda: [seeded(1234, device)], target=0, num_rows=1, device=device)

    def batch() -> list[SamplingRow]:
        others = [
            seeded(1, device),
            row(device=device),
            row(temperature=0.0, device=device),
            row(top_k=5, seed=77, device=device),
            row(min_p=0.1, device=device),
            row(frequency_penalty=0.5, device=device),
            row(temperature=1.5, top_p=0.5, device=device),
        ]
        return others[:5] + [seeded(1234, device)] + others[5:]

    assert run_steps(batch, target=5, num_rows=8, device=device) == alone


def test_different_seeds_give_different_tokens() -> None:
    first = run_steps(lambda: [seeded(1)], target=0, num_rows=1)
    second = run_steps(lambda: [seeded(2)], target=0, num_rows=1)
    assert first != second
    assert run_steps(lambda: [seeded(1)], target=0, num_rows=1) == first


def test_unseeded_rows_follow_the_samplers_own_seed() -> None:
    logits = torch.zeros(16, 1000)
    rows = [row() for _ in range(16)]
    assert sample(logits, rows, seed=5).token_ids == sample(logits, rows, seed=5).token_ids
    assert sample(logits, rows, seed=5).token_ids != sample(logits, rows, seed=6).token_ids


def test_a_seed_without_its_generator_is_a_typed_error() -> None:
    bare = SamplingRow(SamplingParams(seed=3), [], [], None, ())
    with pytest.raises(SamplerInputError, match="seed=3 but no generator"):
        SamplingMetadata.build([bare], 8, CPU)


# ------------------------------------------------------------------------------ logprobs
def test_logprobs_are_raw_log_softmax_values_with_each_rows_own_top_n() -> None:
    logits = torch.randn(4, 30, generator=torch.Generator().manual_seed(5))
    rows = [
        row(logprobs=5, repetition_penalty=2.0, prompt=list(range(30))),
        row(temperature=0.0),
        row(logprobs=0, temperature=0.0),
        row(logprobs=2, temperature=0.5),
    ]
    out = sample(logits, rows)
    expected = torch.log_softmax(logits, dim=-1)
    assert out.logprobs == [expected[i, t].item() for i, t in enumerate(out.token_ids)]
    assert out.top_logprobs is not None
    assert [len(top) for top in out.top_logprobs] == [5, 0, 0, 2]
    for i in (0, 3):
        values = [lp for _, lp in out.top_logprobs[i]]
        assert values == sorted(values, reverse=True)
        assert out.top_logprobs[i] == [(t, expected[i, t].item()) for t, _ in out.top_logprobs[i]]
        assert values == expected[i].topk(len(values)).values.tolist()


def test_no_logprobs_unless_a_row_asks() -> None:
    out = sample(torch.randn(2, 10), [row(), row(temperature=0.0)])
    assert out.logprobs is None and out.top_logprobs is None


# ------------------------------------------------------------------------------ metadata
def test_build_leaves_out_unused_filters_and_marks_disabled_rows() -> None:
    meta = SamplingMetadata.build([row(temperature=0.0, top_k=3, top_p=0.5), row()], 10, CPU)
    assert meta.top_k is None and meta.top_p is None and meta.min_p is None
    assert meta.repetition_penalty is None and not meta.all_greedy and not meta.all_random
    meta = SamplingMetadata.build([row(top_k=3), row(top_k=0), row(top_k=50)], 10, CPU)
    assert meta.top_k is not None and meta.top_k.tolist() == [3, 10, 10]
    assert meta.plan.max_top_k == 3 and meta.all_random


def test_bad_logits_are_typed_errors() -> None:
    meta = SamplingMetadata.build([row(), row()], 10, CPU)
    with pytest.raises(SamplerInputError, match=r"shape \(2, 9\) for 2 rows"):
        Sampler()(torch.zeros(2, 9), meta)
    with pytest.raises(SamplerInputError, match="floating point"):
        Sampler()(torch.zeros(2, 10, dtype=torch.int64), meta)
    with pytest.raises(SamplerInputError, match=r"\(B, V\) tensor"):
        Sampler()(torch.zeros(20), meta)


def test_an_empty_batch_samples_nothing() -> None:
    out = Sampler()(torch.zeros(0, 10), SamplingMetadata.build([], 10, CPU))
    assert out.token_ids == [] and out.logprobs is None
