"""EngineCore: the synchronous heart — validate, schedule, run, post-process. Thread-agnostic;
AsyncEngine drives it from its own thread, LLM from the caller's."""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass

from engine.config import EngineConfig
from engine.detokenizer import IncrementalDetokenizer
from engine.errors import ContextLengthExceededError, InvalidRequestError
from engine.kv_cache.manager import KVCacheManager
from engine.loader import LoadedModel, load_model
from engine.model_runner import ModelRunner, resolve_device, resolve_dtype
from engine.outputs import RequestOutput, TokenLogprob
from engine.request import Request, RequestStatus
from engine.sampler import make_generator
from engine.sampling_params import SamplingParams
from engine.scheduler import Scheduler


@dataclass(slots=True)
class EngineStats:
    num_running: int
    num_waiting: int
    kv_cache_usage: float
    prefix_cache_queries: int  # tokens looked up
    prefix_cache_hits: int  # tokens found
    num_preemptions: int
    prompt_tokens_total: int
    generation_tokens_total: int
    last_step_monotonic: float | None
    is_alive: bool = True


class EngineCore:
    def __init__(self, config: EngineConfig, loaded: LoadedModel | None = None) -> None:
        self.config = config
        device = resolve_device(config.device)
        if loaded is None:
            loaded = load_model(config.model, dtype=resolve_dtype(config.dtype, device))
        self.model_config = loaded.config
        self.tokenizer = loaded.tokenizer
        self.max_model_len = min(
            config.max_model_len or loaded.config.max_position_embeddings,
            loaded.config.max_position_embeddings,
        )
        self.runner = ModelRunner(config, loaded.config, loaded.weights, self.max_model_len)
        self.kv_cache = KVCacheManager(
            self.runner.num_blocks, config.block_size, config.enable_prefix_caching
        )
        self.scheduler = Scheduler(self.kv_cache, config.max_num_seqs, config.max_num_batched_tokens)
        self._ids = itertools.count()
        self.prompt_tokens_total = 0
        self.generation_tokens_total = 0
        self.last_step_monotonic: float | None = None

    # ------------------------------------------------------------------------- requests
    def new_request_id(self) -> str:
        return f"req-{next(self._ids)}"

    def validate(self, prompt_token_ids: list[int], params: SamplingParams) -> None:
        """Refuse a request before anything is allocated for it."""
        if not prompt_token_ids:
            raise InvalidRequestError("the prompt is empty (0 tokens)")
        vocab = self.model_config.vocab_size
        bad = next((t for t in prompt_token_ids if not 0 <= t < vocab), None)
        if bad is not None:
            raise InvalidRequestError(f"token id {bad} is outside the vocabulary [0, {vocab})")
        params.validate()
        n = len(prompt_token_ids)
        if n + params.max_tokens > self.max_model_len:
            raise ContextLengthExceededError(n, params.max_tokens, self.max_model_len)
        need = -(-(n + params.max_tokens) // self.config.block_size)
        if need > self.runner.num_blocks:
            raise InvalidRequestError(
                f"prompt of {n} tokens plus max_tokens={params.max_tokens} needs {need} KV blocks; "
                f"the cache has {self.runner.num_blocks}"
            )

    def add_request(
        self, request_id: str, prompt_token_ids: list[int], params: SamplingParams
    ) -> None:
        self.validate(prompt_token_ids, params)
        eos = () if params.ignore_eos else self.model_config.eos_token_ids
        request = Request(request_id, list(prompt_token_ids), params, eos_token_ids=eos)
        if params.seed is not None:
            request.generator = make_generator(params.seed, self.runner.device)
        if params.detokenize:
            request.detokenizer = IncrementalDetokenizer(
                self.tokenizer,
                stop=params.stop,
                include_stop_str_in_output=params.include_stop_str_in_output,
                skip_special_tokens=params.skip_special_tokens,
                prompt_token_ids=prompt_token_ids,
            )
        self.scheduler.add_request(request)

    def abort(self, request_id: str) -> RequestOutput | None:
        """Finish a request now and free its blocks; returns its final output, if it existed."""
        request = self.scheduler.requests.get(request_id)
        if request is None:
            return None
        self.scheduler.finish_request(request, RequestStatus.FINISHED_ABORTED)
        return self._output(request, "", [], None)

    def has_unfinished(self) -> bool:
        return self.scheduler.num_unfinished > 0

    # ------------------------------------------------------------------------- a step
    def step(self) -> list[RequestOutput]:
        sched = self.scheduler.schedule()
        if sched.is_empty:
            return []
        for s in sched.scheduled:
            if s.request.first_scheduled_time is None:
                s.request.first_scheduled_time = time.monotonic()
                self.prompt_tokens_total += s.request.num_prompt_tokens
        result = self.runner.execute(sched)
        for s in sched.scheduled:
            s.request.num_computed_tokens += s.num_new_tokens
        outputs = []
        samp = result.sampler_output
        for i, rid in enumerate(result.request_ids):
            request = self.scheduler.requests[rid]
            token = samp.token_ids[i]
            logprob = None
            if samp.logprobs is not None and request.sampling_params.logprobs is not None:
                top = dict(samp.top_logprobs[i]) if samp.top_logprobs is not None else {}
                logprob = [TokenLogprob(token, samp.logprobs[i], top)]
            outputs.append(self._postprocess(request, token, logprob))
        self.last_step_monotonic = time.monotonic()
        return outputs

    def _postprocess(
        self, request: Request, token: int, logprobs: list[TokenLogprob] | None
    ) -> RequestOutput:
        request.append_output_token(token)
        self.generation_tokens_total += 1
        params = request.sampling_params
        status: RequestStatus | None = None
        text = ""
        if token in params.stop_token_ids:
            status, request.stop_reason = RequestStatus.FINISHED_STOPPED, token
        elif token in request.eos_token_ids:
            status = RequestStatus.FINISHED_STOPPED
        elif request.detokenizer is not None:
            update = request.detokenizer.update([token])
            text = update.text
            if update.stopped:
                status, request.stop_reason = RequestStatus.FINISHED_STOPPED, update.stop_reason
        if status is None and (
            request.num_output_tokens >= params.max_tokens
            or request.num_tokens >= self.max_model_len
        ):
            status = RequestStatus.FINISHED_LENGTH
        if status is not None:
            no_stop_string = request.stop_reason is None or not isinstance(request.stop_reason, str)
            if request.detokenizer is not None and no_stop_string:
                text += request.detokenizer.flush()
            self.scheduler.finish_request(request, status)
        return self._output(request, text, [token], logprobs)

    def _output(
        self,
        request: Request,
        text: str,
        token_ids: list[int],
        logprobs: list[TokenLogprob] | None,
    ) -> RequestOutput:
        finished = request.is_finished
        return RequestOutput(
            request_id=request.request_id,
            text=text,
            token_ids=token_ids,
            finished=finished,
            finish_reason=request.status.value if finished else None,
            num_prompt_tokens=request.num_prompt_tokens,
            num_cached_tokens=max(request.num_cached_tokens, 0),
            num_output_tokens=request.num_output_tokens,
            logprobs=logprobs,
            stop_reason=request.stop_reason,
        )

    # ------------------------------------------------------------------------- stats
    def stats(self) -> EngineStats:
        return EngineStats(
            num_running=len(self.scheduler.running),
            num_waiting=len(self.scheduler.waiting),
            kv_cache_usage=self.kv_cache.usage,
            prefix_cache_queries=self.kv_cache.num_queried_tokens,
            prefix_cache_hits=self.kv_cache.num_hit_tokens,
            num_preemptions=self.scheduler.num_preemptions,
            prompt_tokens_total=self.prompt_tokens_total,
            generation_tokens_total=self.generation_tokens_total,
            last_step_monotonic=self.last_step_monotonic,
        )
