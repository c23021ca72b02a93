"""A deterministic stand-in for `engine.AsyncEngine`, for tests about the app, not the model.

FakeTokenizer: one id per character (plus ChatML's two special tokens), a ChatML template.
FakeEngine: answers with a scripted text token by token, honours max_tokens, stop strings and
abort, and reports cached tokens as a prefix cache would: whole blocks of the longest prefix
shared with a sequence it computed before.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass

from engine.errors import ContextLengthExceededError, EngineDeadError
from engine.outputs import RequestOutput
from engine.sampling_params import SamplingParams

IM_START, IM_END = 1, 2
_SPECIAL = {"<|im_start|>": IM_START, "<|im_end|>": IM_END}
_OFFSET = 16  # character ids start here
DEFAULT_SYSTEM = "You are a helpful AI assistant named SmolLM, trained by Hugging Face"


class FakeTokenizer:
    eos_token_ids = (IM_END,)
    special_token_ids = frozenset({IM_START, IM_END})

    def encode(
        self, text: str, add_special_tokens: bool = False, *, split_special_tokens: bool = False
    ) -> list[int]:
        ids: list[int] = []
        i = 0
        while i < len(text):
            for name, tid in _SPECIAL.items():
                if not split_special_tokens and text.startswith(name, i):
                    ids.append(tid)
                    i += len(name)
                    break
            else:
                ids.append(ord(text[i]) + _OFFSET)
                i += 1
        return ids

    def decode(self, token_ids: Sequence[int], skip_special_tokens: bool = True) -> str:
        names = {v: k for k, v in _SPECIAL.items()}
        out = []
        for t in token_ids:
            if t in names:
                if not skip_special_tokens:
                    out.append(names[t])
            else:
                out.append(chr(t - _OFFSET))
        return "".join(out)

    def apply_chat_template(
        self, messages: list[dict[str, str]], add_generation_prompt: bool = True
    ) -> str:
        parts = []
        if messages and messages[0]["role"] != "system":
            parts.append(f"<|im_start|>system\n{DEFAULT_SYSTEM}<|im_end|>\n")
        for m in messages:
            parts.append(f"<|im_start|>{m['role']}\n{m['content']}<|im_end|>\n")
        if add_generation_prompt:
            parts.append("<|im_start|>assistant\n")
        return "".join(parts)

    def encode_chat(self, messages: list[dict[str, str]], add_generation_prompt: bool = True):
        return self.encode(self.apply_chat_template(messages, add_generation_prompt))


@dataclass
class FakeStats:
    num_running: int = 0
    num_waiting: int = 0
    kv_cache_usage: float = 0.0
    prefix_cache_queries: int = 0
    prefix_cache_hits: int = 0
    num_preemptions: int = 0
    prompt_tokens_total: int = 0
    generation_tokens_total: int = 0
    last_step_monotonic: float | None = None
    is_alive: bool = True


def echo_reply(prompt_text: str) -> str:
    """The default script: repeat the last user message."""
    last = prompt_text.rsplit("<|im_start|>user\n", 1)[-1].split("<|im_end|>", 1)[0]
    return f"You said: {last}"


class FakeEngine:
    def __init__(
        self,
        reply: Callable[[str], str] = echo_reply,
        token_delay: float = 0.0,
        max_model_len: int = 4096,
        block_size: int = 16,
    ) -> None:
        self.tokenizer = FakeTokenizer()
        self.model_name = "fake-model"
        self.max_model_len = max_model_len
        self.block_size = block_size
        self.reply = reply
        self.token_delay = token_delay
        self.started = False
        self.dead = False
        # Tokens after the first `hold_after` wait until a test sets `gate` (thread-safe:
        # the app's event loop runs in another thread under TestClient).
        self.hold_after: int | None = None
        self.gate = threading.Event()
        self.fail_after: int | None = None  # raise EngineDeadError after this many tokens
        self.extra_waiting = 0  # lets a test pretend the queue is full
        self.prompts: list[list[int]] = []
        self.params: list[SamplingParams] = []
        self.aborted: list[str] = []
        self._computed: list[list[int]] = []
        self._stats = FakeStats()

    def start(self) -> None:
        self.started = True
        self._stats.last_step_monotonic = time.monotonic()

    async def shutdown(self) -> None:
        self.dead = True

    def stats(self) -> FakeStats:
        s = self._stats
        return FakeStats(
            num_running=s.num_running, num_waiting=s.num_waiting + self.extra_waiting,
            kv_cache_usage=min(1.0, s.num_running * 0.1),
            prefix_cache_queries=s.prefix_cache_queries, prefix_cache_hits=s.prefix_cache_hits,
            num_preemptions=0, prompt_tokens_total=s.prompt_tokens_total,
            generation_tokens_total=s.generation_tokens_total,
            last_step_monotonic=time.monotonic(), is_alive=self.started and not self.dead,
        )

    def abort(self, request_id: str) -> None:
        self.aborted.append(request_id)

    def cached_tokens(self, prompt: list[int]) -> int:
        best = 0
        for seq in self._computed:
            n = 0
            for a, b in zip(seq, prompt, strict=False):
                if a != b:
                    break
                n += 1
            best = max(best, n)
        # Whole blocks only, and the last prompt token is always computed.
        best = min(best, len(prompt) - 1)
        return best // self.block_size * self.block_size

    async def generate(
        self, prompt: str | Sequence[int], params: SamplingParams, request_id: str | None = None
    ) -> AsyncIterator[RequestOutput]:
        if self.dead or not self.started:
            raise EngineDeadError("the engine is not running")
        ids = self.tokenizer.encode(prompt) if isinstance(prompt, str) else list(prompt)
        if len(ids) + params.max_tokens > self.max_model_len:
            raise ContextLengthExceededError(len(ids), params.max_tokens, self.max_model_len)
        rid = request_id or f"req-{len(self.prompts)}"
        self.prompts.append(ids)
        self.params.append(params)
        cached = self.cached_tokens(ids)
        s = self._stats
        s.prefix_cache_queries += len(ids)
        s.prefix_cache_hits += cached
        s.prompt_tokens_total += len(ids) - cached
        full = self.reply(self.tokenizer.decode(ids, False))
        # A stop string ends the answer where it starts; the token that completes it (here:
        # its first character) is sampled but its text never released, as the detokenizer does.
        cuts = [full.find(st) for st in params.stop if st in full]
        if cuts:
            cut = min(cuts)
            answer = self.tokenizer.encode(full[:cut]) + self.tokenizer.encode(full[cut])
        else:
            answer = self.tokenizer.encode(full) + [IM_END]
        output: list[int] = []
        finished = False
        s.num_running += 1
        try:
            for i, tid in enumerate(answer):
                if self.hold_after is not None and len(output) >= self.hold_after:
                    while not self.gate.is_set():
                        await asyncio.sleep(0.005)
                if self.fail_after is not None and len(output) >= self.fail_after:
                    raise EngineDeadError("engine loop crashed: simulated")
                await asyncio.sleep(self.token_delay)
                output.append(tid)
                s.generation_tokens_total += 1
                last = i == len(answer) - 1
                delta = "" if last else self.tokenizer.decode([tid])
                if last:
                    reason: str | None = "stop"
                elif len(output) >= params.max_tokens:
                    reason = "length"
                else:
                    reason = None
                finished = reason is not None
                yield RequestOutput(
                    request_id=rid, text=delta, token_ids=[tid], finished=finished,
                    finish_reason=reason, num_prompt_tokens=len(ids), num_cached_tokens=cached,
                    num_output_tokens=len(output),
                )
                if finished:
                    break
        finally:
            s.num_running -= 1
            # What a real engine would have computed KV for: the prompt and all but the last
            # sampled token.
            self._computed.append(ids + output[:-1])
            if not finished:
                self.aborted.append(rid)
