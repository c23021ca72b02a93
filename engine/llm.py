"""LLM: the engine used synchronously, for offline batches, scripts and tests."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from engine.beam_search import Beam, BeamSearch
from engine.config import EngineConfig
from engine.core import EngineCore
from engine.errors import InvalidRequestError
from engine.outputs import RequestOutput, TokenLogprob
from engine.prompt_input import Prompt, encode_prompt
from engine.sampling_params import SamplingParams


@dataclass(slots=True)
class CompletionResult:
    """A finished request: the concatenation of its streamed outputs."""

    request_id: str
    prompt_token_ids: list[int]
    text: str = ""
    token_ids: list[int] = field(default_factory=list)
    finish_reason: str | None = None
    stop_reason: str | int | None = None
    num_cached_tokens: int = 0
    logprobs: list[TokenLogprob] = field(default_factory=list)

    def add(self, out: RequestOutput) -> None:
        self.text += out.text
        self.token_ids.extend(out.token_ids)
        self.num_cached_tokens = out.num_cached_tokens
        if out.logprobs:
            self.logprobs.extend(out.logprobs)
        if out.finished:
            self.finish_reason = out.finish_reason
            self.stop_reason = out.stop_reason


class LLM:
    def __init__(self, config: EngineConfig | None = None, *, core: EngineCore | None = None):
        self.core = core if core is not None else EngineCore(config or EngineConfig())
        self.tokenizer = self.core.tokenizer

    def encode(self, prompt: Prompt) -> list[int]:
        return encode_prompt(self.tokenizer, prompt)

    def generate(
        self,
        prompts: Sequence[Prompt],
        params: SamplingParams | Sequence[SamplingParams] | None = None,
        on_output: Callable[[RequestOutput], None] | None = None,
    ) -> list[CompletionResult]:
        """Run all prompts together (continuous batching) and return them in input order."""
        if params is None or isinstance(params, SamplingParams):
            param_list = [params or SamplingParams()] * len(prompts)
        else:
            param_list = list(params)
            if len(param_list) != len(prompts):
                raise InvalidRequestError(
                    f"{len(param_list)} SamplingParams for {len(prompts)} prompts"
                )
        # Validate every prompt before adding any: a bad one leaves nothing half-submitted.
        encoded = [self.encode(prompt) for prompt in prompts]
        for ids, p in zip(encoded, param_list, strict=True):
            self.core.validate(ids, p)
        results: dict[str, CompletionResult] = {}
        order = []
        decode_at_end: dict[str, SamplingParams] = {}
        for ids, p in zip(encoded, param_list, strict=True):
            rid = self.core.new_request_id()
            if on_output is None and p.detokenize and not p.stop:
                # Nobody reads the text before the end, and no stop string needs it: one
                # decode of the output at the end gives the same text (IncrementalDetokenizer)
                # without a decode per token and step.
                decode_at_end[rid] = p
                p = dataclasses.replace(p, detokenize=False)
            self.core.add_request(rid, ids, p)
            results[rid] = CompletionResult(rid, ids)
            order.append(rid)
        while self.core.has_unfinished():
            for out in self.core.step():
                results[out.request_id].add(out)
                if on_output is not None:
                    on_output(out)
        for rid, p in decode_at_end.items():
            result = results[rid]
            # A stop token or EOS ends the request without adding its text.
            ids = result.token_ids[:-1] if result.finish_reason == "stop" else result.token_ids
            result.text = self.tokenizer.decode(ids, skip_special_tokens=p.skip_special_tokens)
        return [results[rid] for rid in order]

    def beam_search(self, prompt: Prompt, params: SamplingParams) -> list[Beam]:
        """Beam search (params.use_beam_search, beam_width, length_penalty); best first."""
        prompt_ids = self.encode(prompt)
        self.core.validate(prompt_ids, params)
        search = BeamSearch(params, self.core.model_config.eos_token_ids)
        while not search.done:
            step = search.step_params()
            rids = []
            for beam in search.live:
                rid = self.core.new_request_id()
                self.core.add_request(rid, prompt_ids + beam.token_ids, step)
                rids.append(rid)
            tops: dict[str, dict[int, float]] = {}
            while len(tops) < len(rids):
                for out in self.core.step():
                    assert out.logprobs is not None
                    tops[out.request_id] = out.logprobs[0].top
            search.step([tops[rid] for rid in rids])
        return search.results()

    def chat(
        self, messages: list[dict[str, str]], params: SamplingParams | None = None
    ) -> CompletionResult:
        return self.generate([messages], params)[0]
