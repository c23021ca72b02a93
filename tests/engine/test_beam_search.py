"""Beam search: the policy on hand-made logprobs, then on the real model."""

from __future__ import annotations

import math

import pytest

from engine import LLM, EngineConfig, InvalidSamplingParamsError, SamplingParams
from engine.beam_search import Beam, BeamSearch
from engine.core import EngineCore

EOS = 99


def params(width=2, max_tokens=5, lp=1.0) -> SamplingParams:
    return SamplingParams(use_beam_search=True, beam_width=width, max_tokens=max_tokens, length_penalty=lp)


def test_greedy_first_token_loses_to_a_better_pair():
    search = BeamSearch(params(width=2), (EOS,))
    search.step([{1: math.log(0.6), 2: math.log(0.4)}])
    assert [b.token_ids for b in search.live] == [[1], [2]]
    # After token 1 everything is flat; after token 2 one continuation is near certain.
    search.step([{3: math.log(0.3), 4: math.log(0.3)}, {5: math.log(0.95), 6: math.log(0.05)}])
    assert [b.token_ids for b in search.live] == [[2, 5], [1, 3]]
    assert search.live[0].cum_logprob == pytest.approx(math.log(0.4 * 0.95))


def test_finished_beams_leave_the_live_set_and_search_stops():
    search = BeamSearch(params(width=2, lp=1.0), (EOS,))
    search.step([{EOS: math.log(0.5), 7: math.log(0.3), 8: math.log(0.2)}])
    assert [b.token_ids for b in search.finished] == [[EOS]]
    assert [b.token_ids for b in search.live] == [[7], [8]]
    search.step([{EOS: math.log(0.9), 1: math.log(0.1)}, {EOS: math.log(0.9), 2: math.log(0.1)}])
    assert len(search.finished) == 3
    assert search.done  # the live beams can no longer beat the two best finished ones
    # With length_penalty 1 the scores are mean logprobs: [7, EOS] = log(0.27)/2 beats
    # [EOS] = log(0.5)/1.
    best = search.results()
    assert [b.token_ids for b in best] == [[7, EOS], [EOS]]


def test_length_penalty_prefers_longer_hypotheses():
    short = Beam([1, EOS], math.log(0.5))
    long = Beam([1, 2, 3, EOS], math.log(0.3))
    # 0 ranks by total logprob; 1 by mean logprob per token, which favours the longer one.
    assert short.score(0.0) > long.score(0.0)
    assert long.score(1.0) > short.score(1.0)


def test_beam_width_is_validated():
    with pytest.raises(InvalidSamplingParamsError, match="beam_width"):
        SamplingParams(use_beam_search=True, beam_width=1)
    with pytest.raises(InvalidSamplingParamsError, match="beam_width=11"):
        BeamSearch(params(width=11), (EOS,))


def test_beam_search_on_the_model_beats_or_ties_greedy(loaded_model):
    llm = LLM(core=EngineCore(EngineConfig(dtype="float32", device="cpu"), loaded_model))
    prompt = [{"role": "user", "content": "Name a color."}]
    greedy = llm.generate([prompt], SamplingParams(max_tokens=6, temperature=0.0, logprobs=1, ignore_eos=True))[0]
    greedy_logprob = sum(lp.logprob for lp in greedy.logprobs)
    beams = llm.beam_search(prompt, SamplingParams(use_beam_search=True, beam_width=3, max_tokens=6, length_penalty=0.0, ignore_eos=True))
    assert len(beams) == 3
    assert [len(b.token_ids) for b in beams] == [6, 6, 6]
    assert beams[0].cum_logprob >= greedy_logprob - 1e-4
    assert beams[0].cum_logprob >= beams[1].cum_logprob >= beams[2].cum_logprob
    # The beams ran as prefix-cache hits on the prompt's blocks: nothing is left allocated.
    pool = llm.core.kv_cache.pool
    assert pool.num_free_blocks == pool.num_blocks
    assert llm.core.kv_cache.num_hit_tokens > 0
