"""The whole engine on the real default model (float32, CPU): batching invariance, prefix
caching, preemption, aborts, stop conditions, seeds and validation."""

from __future__ import annotations

import asyncio
import random

import pytest

from engine import (
    LLM,
    AsyncEngine,
    ContextLengthExceededError,
    EngineConfig,
    InvalidRequestError,
    SamplingParams,
)
from engine.core import EngineCore
from engine.errors import InvalidSamplingParamsError

QUESTIONS = [
    "What is the capital of France?",
    "Write a haiku about the sea.",
    "Explain photosynthesis in one sentence.",
    "List three prime numbers.",
    "What does a compiler do?",
    "Give me a synonym for happy.",
    "How many legs does a spider have?",
    "Translate 'good morning' to Spanish.",
    "What is 12 times 12?",
    "Name a famous painter.",
    "Why is the sky blue?",
    "What is Python used for?",
    "Describe a cat in five words.",
    "What is the boiling point of water?",
    "Who wrote Romeo and Juliet?",
    "Suggest a name for a dog.",
]
GREEDY = SamplingParams(max_tokens=20, temperature=0.0)


def make_llm(loaded, **overrides) -> LLM:
    config = EngineConfig(dtype="float32", device="cpu", **overrides)
    return LLM(core=EngineCore(config, loaded))


def chat(q: str) -> list[dict[str, str]]:
    return [{"role": "user", "content": q}]


def assert_all_blocks_free(core: EngineCore) -> None:
    pool = core.kv_cache.pool
    assert pool.num_free_blocks == pool.num_blocks
    assert all(b.ref_cnt == 0 for b in pool.blocks)
    assert core.kv_cache.req_to_blocks == {}


@pytest.fixture(scope="module")
def reference(loaded_model):
    """Each question answered alone, greedily."""
    llm = make_llm(loaded_model)
    return {q: llm.generate([chat(q)], GREEDY)[0] for q in QUESTIONS}


def test_greedy_alone_is_sensible_text(reference):
    answer = reference["What is the capital of France?"]
    assert "Paris" in answer.text
    assert answer.finish_reason in ("stop", "length")


def test_greedy_identical_batched_with_fifteen_others(loaded_model, reference):
    llm = make_llm(loaded_model)
    results = llm.generate([chat(q) for q in QUESTIONS], GREEDY)
    for q, r in zip(QUESTIONS, results, strict=True):
        assert r.token_ids == reference[q].token_ids, q
        assert r.text == reference[q].text
    assert_all_blocks_free(llm.core)


def test_greedy_identical_after_prefix_cache_hit(loaded_model, reference):
    llm = make_llm(loaded_model)
    q = QUESTIONS[2]
    first = llm.generate([chat(q)], GREEDY)[0]
    second = llm.generate([chat(q)], GREEDY)[0]
    assert first.num_cached_tokens == 0
    prompt_len = len(llm.encode(chat(q)))
    # Every full block of the prompt but the one holding the last token is reused.
    assert second.num_cached_tokens == (prompt_len - 1) // 16 * 16 > 0
    assert second.token_ids == first.token_ids == reference[q].token_ids


def test_greedy_identical_under_forced_preemption(loaded_model, reference):
    # 12 blocks of 16 tokens cannot hold 16 running requests: the scheduler must preempt.
    llm = make_llm(loaded_model, num_kv_blocks=12)
    results = llm.generate([chat(q) for q in QUESTIONS], GREEDY)
    assert llm.core.scheduler.num_preemptions > 0
    for q, r in zip(QUESTIONS, results, strict=True):
        assert r.token_ids == reference[q].token_ids, q
    assert_all_blocks_free(llm.core)


def test_chunked_prefill_gives_the_same_answer(loaded_model, reference):
    llm = make_llm(loaded_model, max_num_batched_tokens=7)
    q = QUESTIONS[0]
    assert llm.generate([chat(q)], GREEDY)[0].token_ids == reference[q].token_ids


def test_next_turn_hits_the_previous_prompt_and_answer(loaded_model):
    llm = make_llm(loaded_model)
    params = SamplingParams(max_tokens=40, temperature=0.0)
    messages = chat("Tell me about the moon.")
    turn1 = llm.generate([messages], params)[0]
    prompt1 = llm.encode(messages)
    messages += [{"role": "assistant", "content": turn1.text}, {"role": "user", "content": "More."}]
    prompt2 = llm.encode(messages)
    turn2 = llm.generate([messages], params)[0]
    # The template renders turn 1 byte-identically, so the whole of prompt 1 + answer is reused
    # in whole blocks (except what the re-tokenized answer changes).
    common = 0
    for a, b in zip(prompt1 + turn1.token_ids, prompt2, strict=False):
        if a != b:
            break
        common += 1
    assert common >= len(prompt1)
    # The last sampled token of turn 1 was never fed to the model, so its KV does not exist.
    computed = len(prompt1) + len(turn1.token_ids) - 1
    assert turn2.num_cached_tokens == min(common, computed) // 16 * 16
    assert turn2.num_cached_tokens >= len(prompt1) // 16 * 16


def test_stop_string_truncates_and_reports_it(loaded_model, reference):
    q = QUESTIONS[2]
    full = reference[q].text
    stop = full[len(full) // 2 : len(full) // 2 + 3]
    llm = make_llm(loaded_model)
    r = llm.generate([chat(q)], SamplingParams(max_tokens=20, temperature=0.0, stop=[stop]))[0]
    assert r.text == full[: full.index(stop)]
    assert r.finish_reason == "stop" and r.stop_reason == stop
    kept = llm.generate(
        [chat(q)],
        SamplingParams(max_tokens=20, temperature=0.0, stop=[stop], include_stop_str_in_output=True),
    )[0]
    assert kept.text == full[: full.index(stop) + len(stop)]


def test_stop_token_ids_max_tokens_and_min_tokens(loaded_model, reference):
    q = QUESTIONS[0]
    ref = reference[q].token_ids
    llm = make_llm(loaded_model)
    r = llm.generate([chat(q)], SamplingParams(max_tokens=20, temperature=0.0, stop_token_ids=[ref[3]]))[0]
    assert r.token_ids == ref[:4] and r.finish_reason == "stop" and r.stop_reason == ref[3]
    r = llm.generate([chat(q)], SamplingParams(max_tokens=5, temperature=0.0))[0]
    assert r.token_ids == ref[:5] and r.finish_reason == "length"
    eos = llm.core.model_config.eos_token_ids
    r = llm.generate([chat(q)], SamplingParams(max_tokens=30, min_tokens=30, temperature=0.0))[0]
    assert len(r.token_ids) == 30 and not set(r.token_ids) & set(eos)


def test_text_decoded_at_the_end_equals_the_streamed_text(loaded_model, reference):
    # Without a callback and without stop strings, generate decodes each output once at the
    # end; with a callback it streams through the incremental detokenizer. Same text.
    llm = make_llm(loaded_model)
    first = reference[QUESTIONS[0]].token_ids
    prompts = [chat(q) for q in QUESTIONS[:6]]
    params = [
        SamplingParams(max_tokens=64, temperature=0.0),  # long enough to end at EOS
        SamplingParams(max_tokens=7, temperature=0.0),  # cut by length, mid-word maybe
        SamplingParams(max_tokens=40, temperature=1.0, seed=7),
        SamplingParams(max_tokens=20, temperature=0.0, stop_token_ids=[first[2]]),
        SamplingParams(max_tokens=64, temperature=0.0, skip_special_tokens=False),
        SamplingParams(max_tokens=30, temperature=0.8, top_k=20, seed=3),
    ]
    prompts[3] = chat(QUESTIONS[0])
    streamed = llm.generate(prompts, params, on_output=lambda out: None)
    at_end = llm.generate(prompts, params)
    assert [r.token_ids for r in at_end] == [r.token_ids for r in streamed]
    assert [r.text for r in at_end] == [r.text for r in streamed]
    assert {r.finish_reason for r in at_end} == {"stop", "length"}
    assert at_end[3].stop_reason == first[2] and at_end[3].token_ids == first[:3]
    assert all(r.text for r in at_end)


def test_detokenize_false_returns_token_ids_only(loaded_model, reference):
    llm = make_llm(loaded_model)
    q = QUESTIONS[0]
    r = llm.generate([chat(q)], SamplingParams(max_tokens=20, temperature=0.0, detokenize=False))[0]
    assert r.token_ids == reference[q].token_ids and r.text == ""
    with pytest.raises(InvalidSamplingParamsError, match="detokenize"):
        SamplingParams(stop=["."], detokenize=False)


def test_seed_gives_the_same_text_alone_and_batched(loaded_model):
    llm = make_llm(loaded_model)
    seeded = SamplingParams(max_tokens=16, temperature=1.0, top_p=0.95, seed=1234)
    alone = llm.generate([chat(QUESTIONS[1])], seeded)[0]
    others = [SamplingParams(max_tokens=16, temperature=1.0, seed=i) for i in range(5)]
    batch = llm.generate(
        [chat(q) for q in QUESTIONS[2:7]] + [chat(QUESTIONS[1])], others + [seeded]
    )
    assert batch[-1].token_ids == alone.token_ids
    other_seed = llm.generate([chat(QUESTIONS[1])], SamplingParams(max_tokens=16, temperature=1.0, top_p=0.95, seed=99))[0]
    assert other_seed.token_ids != alone.token_ids


def test_logprobs_are_returned_per_token(loaded_model):
    llm = make_llm(loaded_model)
    r = llm.generate([chat(QUESTIONS[0])], SamplingParams(max_tokens=4, temperature=0.0, logprobs=3))[0]
    assert len(r.logprobs) == 4
    for token, lp in zip(r.token_ids, r.logprobs, strict=True):
        assert lp.token_id == token and lp.logprob <= 0.0
        assert len(lp.top) == 3 and max(lp.top.values()) == pytest.approx(lp.logprob)


def test_context_length_is_refused_before_allocation(loaded_model):
    llm = make_llm(loaded_model, max_model_len=64)
    with pytest.raises(ContextLengthExceededError) as err:
        llm.generate([list(range(1, 41))], SamplingParams(max_tokens=30))
    msg = str(err.value)
    assert "40 tokens" in msg and "max_tokens=30" in msg and "64" in msg
    assert_all_blocks_free(llm.core)
    with pytest.raises(InvalidRequestError, match="empty"):
        llm.generate([[]], SamplingParams())
    with pytest.raises(InvalidRequestError, match="49152"):
        llm.generate([[49152]], SamplingParams())
    # A bad prompt after a good one: nothing of the batch is submitted.
    with pytest.raises(ContextLengthExceededError):
        llm.generate([[1, 2, 3], list(range(1, 61))], SamplingParams(max_tokens=30))
    assert not llm.core.has_unfinished()


def test_hundred_streams_half_aborted(loaded_model):
    rng = random.Random(7)
    prompts = [[1, 9690, 198] + [rng.randrange(200, 40000) for _ in range(rng.randint(3, 40))] for _ in range(100)]
    params = SamplingParams(max_tokens=12, temperature=0.0, ignore_eos=True)
    expected = make_llm(loaded_model).generate(prompts, params)
    engine = AsyncEngine(core=EngineCore(EngineConfig(dtype="float32", device="cpu"), loaded_model))
    engine.start()
    abort_at = {i: rng.randint(0, 10) for i in rng.sample(range(100), 50)}

    async def consume(i: int) -> tuple[int, list[int], str | None]:
        tokens: list[int] = []
        reason = None
        async for out in engine.generate(prompts[i], params):
            tokens.extend(out.token_ids)
            reason = out.finish_reason
            if i in abort_at and len(tokens) > abort_at[i]:
                break  # leaving the loop aborts the request
        return i, tokens, reason

    async def run_all():
        results = await asyncio.gather(*(consume(i) for i in range(100)))
        # Give the loop a moment to process the aborts, then stop it.
        for _ in range(100):
            if not engine.core.has_unfinished():
                break
            await asyncio.sleep(0.05)
        await engine.shutdown()
        return results

    results = asyncio.run(run_all())
    for i, tokens, reason in results:
        if i in abort_at:
            assert tokens == expected[i].token_ids[: len(tokens)]
        else:
            assert tokens == expected[i].token_ids and reason == "length", i
    assert_all_blocks_free(engine.core)
