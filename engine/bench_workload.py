"""The offline-throughput workload of nano-vllm's bench.py, reproduced draw for draw.

nano-vllm seeds Python's `random` with 0, then draws, for each of 256 requests, an input
length uniform in [100, 1024] followed by that many token ids uniform in [0, 10000]; only after
all prompts, one output length uniform in [100, 1024] per request. It samples at temperature
0.6 with EOS ignored, so every request yields exactly its output length, and throughput is the
sum of output lengths over the wall time of one `generate` call. With the same seed and draw
order `random.Random` gives the same numbers: 142,827 prompt and 133,966 output tokens, the
totals its README reports.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

NANO_VLLM_NUM_REQUESTS = 256
NANO_VLLM_MIN_LEN = 100
NANO_VLLM_MAX_LEN = 1024
NANO_VLLM_MAX_TOKEN_ID = 10000
NANO_VLLM_TEMPERATURE = 0.6


@dataclass(slots=True)
class Work:
    prompt_token_ids: list[int]
    max_tokens: int


def nano_vllm_workload(
    num_requests: int = NANO_VLLM_NUM_REQUESTS,
    min_len: int = NANO_VLLM_MIN_LEN,
    max_len: int = NANO_VLLM_MAX_LEN,
    seed: int = 0,
    max_token_id: int = NANO_VLLM_MAX_TOKEN_ID,
) -> list[Work]:
    """Requests with input and output lengths uniform in [min_len, max_len] (inclusive) and
    token ids uniform in [0, max_token_id]; the same list for the same arguments."""
    if num_requests < 1:
        raise ValueError(f"num_requests must be >= 1, got {num_requests}")
    if not 1 <= min_len <= max_len:
        raise ValueError(f"need 1 <= min_len <= max_len, got min_len={min_len}, max_len={max_len}")
    if max_token_id < 0:
        raise ValueError(f"max_token_id must be >= 0, got {max_token_id}")
    rng = random.Random(seed)
    prompts = [
        [rng.randint(0, max_token_id) for _ in range(rng.randint(min_len, max_len))]
        for _ in range(num_requests)
    ]
    outputs = [rng.randint(min_len, max_len) for _ in range(num_requests)]
    return [Work(p, n) for p, n in zip(prompts, outputs, strict=True)]


def random_prompt(length: int, max_token_id: int, seed: int) -> list[int]:
    """A prompt of random token ids for the batch-1 latency rows."""
    if length < 1:
        raise ValueError(f"prompt length must be >= 1, got {length}")
    rng = random.Random(seed)
    return [rng.randint(0, max_token_id) for _ in range(length)]
