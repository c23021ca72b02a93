"""Runs one scheduled step on the device: builds the flat batch, runs the model, samples.

The only module (with models/, layers/, kernels/) that touches tensors for the engine core.
"""

from __future__ import annotations

import importlib.util
import itertools
from dataclasses import dataclass

import torch

from engine.config import EngineConfig, ModelConfig
from engine.cuda_graphs import DecodeGraphs
from engine.layers.attention import AttentionMetadata, DecodeGroup, KernelBatch, PrefillSeq
from engine.layers.ops import layer_ops
from engine.loader.quantized import packed_weights, resolve_quantization
from engine.models.llama import KVCache, LlamaForCausalLM
from engine.sampler import Sampler, SamplerOutput
from engine.sampling_metadata import SamplingMetadata, SamplingRow
from engine.scheduler import ScheduledRequest, SchedulerOutput

# Decodes per attention group: small enough that lengths within a group are close, large
# enough that the per-group ops stay few.
DECODE_GROUP_SIZE = 16

_DTYPES = {"float32": torch.float32, "bfloat16": torch.bfloat16, "float16": torch.float16}


def resolve_device(name: str) -> torch.device:
    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    return torch.device(name)


def resolve_dtype(name: str, device: torch.device) -> torch.dtype:
    if name == "auto":
        # bf16 on GPUs. On CPUs float32: bf16 is faster where the CPU computes it natively
        # (`dtype="bfloat16"`, `cpu_has_native_bf16()`), but with the default 135M Q4 model it
        # changed greedy answers for the worse ("capital of France?" lost "Paris").
        return torch.bfloat16 if device.type == "cuda" else torch.float32
    try:
        return _DTYPES[name]
    except KeyError:
        raise ValueError(f"dtype must be one of auto, {', '.join(_DTYPES)}; got {name!r}") from None


def resolve_attention_backend(name: str, device: torch.device) -> str:
    """The one place "auto" is resolved: the Triton kernels on CUDA, the torch path elsewhere.

    "triton" off CUDA runs only in Triton's interpreter (TRITON_INTERPRET=1, as the tests set
    it); anything else gets a ValueError here rather than a failure inside the first step.
    """
    if name == "torch":
        return "torch"
    if name == "auto":
        return "triton" if device.type == "cuda" and _triton_installed() else "torch"
    if name != "triton":
        raise ValueError(f"attention_backend must be auto, torch or triton; got {name!r}")
    if not _triton_installed():
        raise ValueError("attention_backend='triton' needs the triton package (not installed)")
    if device.type != "cuda":
        from engine.kernels import interpreter_enabled

        if not interpreter_enabled():
            raise ValueError(
                f"attention_backend='triton' needs a CUDA device, got {device}; on a CPU the kernels "
                "run only in Triton's interpreter (TRITON_INTERPRET=1 set before engine.kernels "
                "is imported), which is for tests. Use attention_backend='torch' or 'auto'."
            )
    return "triton"


def resolve_layer_kernels(name: str, attention_backend: str, device: torch.device) -> str:
    """"auto": the Triton kernels where the Triton attention runs on CUDA. On a CPU (Triton's
    interpreter, in tests) only when asked for: interpreted, they would slow every engine
    test that runs the attention kernels."""
    if name == "auto":
        return "triton" if attention_backend == "triton" and device.type == "cuda" else "torch"
    if name == "triton":
        try:  # the attention kernels' conditions: Triton installed, and CUDA or its interpreter
            resolve_attention_backend("triton", device)
        except ValueError as exc:
            raise ValueError(f"layer_kernels='triton' runs Triton kernels too: {exc}") from None
    elif name != "torch":
        raise ValueError(f"layer_kernels must be auto, torch or triton; got {name!r}")
    return name


def _triton_installed() -> bool:
    return importlib.util.find_spec("triton") is not None


def cpu_has_native_bf16() -> bool:
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as f:
            for line in f:
                if line.startswith("flags"):
                    flags = set(line.split(":", 1)[1].split())
                    return bool(flags & {"avx512_bf16", "amx_bf16"})
    except OSError:
        pass
    return False


@dataclass(slots=True)
class StepResult:
    """Sampled tokens of the requests that reached their last known token this step."""

    request_ids: list[str]
    sampler_output: SamplerOutput


class ModelRunner:
    def __init__(
        self,
        config: EngineConfig,
        model_config: ModelConfig,
        weights: dict[str, torch.Tensor],
        max_model_len: int,
    ) -> None:
        self.config = config
        self.model_config = model_config
        self.device = resolve_device(config.device)
        self.dtype = resolve_dtype(config.dtype, self.device)
        self.block_size = config.block_size
        self.attention_backend = resolve_attention_backend(config.attention_backend, self.device)
        if config.num_threads and self.device.type == "cpu":
            torch.set_num_threads(config.num_threads)
        self.model = self._build_model(weights, max_model_len)
        self.layer_kernels = resolve_layer_kernels(
            config.layer_kernels, self.attention_backend, self.device
        )
        self.model.ops = layer_ops(self.layer_kernels)
        self.num_blocks = self._num_kv_blocks()
        self.kv_caches = self._allocate_kv_caches(self.num_blocks)
        self.sampler = Sampler()
        self.graphs = self._decode_graphs(max_model_len)

    # ----------------------------------------------------------------------------- set-up
    def _build_model(self, weights: dict[str, torch.Tensor], max_model_len: int) -> LlamaForCausalLM:
        cfg = self.model_config
        spec = self.config.model
        self.quantization = resolve_quantization(self.config.quantization, spec, self.device)
        packed = packed_weights(self.quantization, spec, cfg, weights, self.device)
        # Quantized matmuls run the Triton kernels on CUDA ("auto"), and on a CPU only with the
        # triton attention backend (interpreter, tests); else the torch reference.
        backend = "triton" if self.attention_backend == "triton" else "auto"
        with torch.device("meta"):
            model = LlamaForCausalLM(cfg, max_model_len)
            model.use_packed_weights(packed, backend, self.dtype)
        model = model.to_empty(device=self.device)
        for name, param in model.named_parameters():
            if not name.endswith("norm.weight"):  # norms stay float32 (see RMSNorm)
                param.data = param.data.to(self.dtype)
        # copy_ moves each tensor to the device itself: the float copies of packed weights
        # are dropped without ever reaching it.
        model.load_hf_weights(weights, packed)
        # Rotary tables were built on the meta device: rebuild them for real, in float32.
        model.rope = type(model.rope)(cfg.head_dim, max_model_len, cfg.rope_theta).to(self.device)
        return model.eval()

    def _decode_graphs(self, max_model_len: int) -> DecodeGraphs | None:
        mode = self.config.cuda_graphs
        triton = self.attention_backend == "triton"
        if mode == "static" and not triton:
            raise ValueError(
                "cuda_graphs='static' needs the triton attention backend (the torch path's "
                "decode groups change shape every step)"
            )
        capture = mode == "auto" and triton and self.device.type == "cuda"
        if not (capture or mode == "static"):
            return None
        graphs = DecodeGraphs(
            lambda ids, pos, meta: self.model(ids, pos, self.kv_caches, meta),
            max_num_seqs=self.config.max_num_seqs,
            max_blocks=-(-max_model_len // self.block_size),
            device=self.device,
            capture=capture,
        )
        with torch.inference_mode():
            graphs.capture_all()
        return graphs

    def kv_bytes_per_block(self) -> int:
        cfg = self.model_config
        elem = torch.empty((), dtype=self.dtype).element_size()
        return 2 * cfg.num_layers * self.block_size * cfg.num_kv_heads * cfg.head_dim * elem

    def _num_kv_blocks(self) -> int:
        if self.config.num_kv_blocks is not None:
            return self.config.num_kv_blocks
        num = self.config.kv_cache_memory_bytes // self.kv_bytes_per_block()
        if num < 2:
            raise ValueError(
                f"kv_cache_memory_bytes={self.config.kv_cache_memory_bytes} holds fewer than 2 "
                f"blocks of {self.kv_bytes_per_block()} bytes"
            )
        return int(num)

    def _allocate_kv_caches(self, num_blocks: int) -> list[KVCache]:
        cfg = self.model_config
        shape = (cfg.num_kv_heads, num_blocks, self.block_size, cfg.head_dim)
        return [
            (
                torch.zeros(shape, dtype=self.dtype, device=self.device),
                torch.zeros(shape, dtype=self.dtype, device=self.device),
            )
            for _ in range(cfg.num_layers)
        ]

    # ----------------------------------------------------------------------------- a step
    @torch.inference_mode()
    def execute(self, sched: SchedulerOutput) -> StepResult:
        kernels = self.attention_backend == "triton"
        # Decodes (one new token) first, then prefill chunks. The torch path sorts decodes by
        # context length so that groups of similar length share one padded gather.
        decodes = [s for s in sched.scheduled if s.num_new_tokens == 1]
        if not kernels:
            decodes.sort(key=lambda s: s.request.num_computed_tokens)
        prefills = [s for s in sched.scheduled if s.num_new_tokens > 1]
        ordered = decodes + prefills
        bs = self.block_size
        input_ids: list[int] = []
        positions: list[int] = []
        slots: list[int] = []
        sample_rows: list[int] = []
        sampled: list[ScheduledRequest] = []
        prefill_seqs: list[PrefillSeq] = []
        for s in ordered:
            r = s.request
            start, n = r.num_computed_tokens, s.num_new_tokens
            row = len(input_ids)
            input_ids.extend(r.all_token_ids[start : start + n])
            pos = range(start, start + n)
            positions.extend(pos)
            slots.extend(s.block_ids[p // bs] * bs + p % bs for p in pos)
            if n > 1 and not kernels:
                table = None
                if start > 0:
                    table = self._block_tables([s.block_ids], [start + n])[0]
                prefill_seqs.append(PrefillSeq(row, n, start, table))
            if s.samples:
                sample_rows.append(row + n - 1)
                sampled.append(s)

        dev = self.device
        # Everything the step copies to the device is copied before its first kernel, so on a
        # GPU no copy waits for the forward pass: the one sync is the sampled tokens' return.
        smeta = sample_index = None
        if sampled:
            rows = [
                SamplingRow(
                    params=s.request.sampling_params,
                    prompt_token_ids=s.request.prompt_token_ids,
                    output_token_ids=s.request.output_token_ids,
                    generator=s.request.generator,
                    eos_token_ids=s.request.eos_token_ids,
                )
                for s in sampled
            ]
            smeta = SamplingMetadata.build(rows, self.model_config.vocab_size, dev)
            sample_index = torch.tensor(sample_rows, dtype=torch.long, device=dev)
        hidden = None
        if self.graphs is not None and not prefills:
            context_lens = [p + 1 for p in positions]
            tables = [s.block_ids[: -(-n // bs)] for s, n in zip(decodes, context_lens, strict=True)]
            hidden = self.graphs.run(input_ids, positions, slots, context_lens, tables)
        if hidden is None:
            slot_mapping = torch.tensor(slots, dtype=torch.long, device=dev)
            if kernels:
                batch = self._kernel_batch(decodes, prefills)
                meta = AttentionMetadata(slot_mapping, [], [], batch)
            else:
                meta = AttentionMetadata(slot_mapping, self._decode_groups(decodes), prefill_seqs)
            hidden = self.model(
                torch.tensor(input_ids, dtype=torch.long, device=dev),
                torch.tensor(positions, dtype=torch.long, device=dev),
                self.kv_caches,
                meta,
            )
        if smeta is None:
            return StepResult([], SamplerOutput([], None, None))
        logits = self.model.compute_logits(hidden.index_select(0, sample_index))  # (B, V) fp32
        out = self.sampler(logits, smeta)  # its copy of the tokens to the host ends the step
        return StepResult([s.request.request_id for s in sampled], out)

    def _decode_groups(self, decodes: list[ScheduledRequest]) -> list[DecodeGroup]:
        groups = []
        bs = self.block_size
        for start in range(0, len(decodes), DECODE_GROUP_SIZE):
            chunk = decodes[start : start + DECODE_GROUP_SIZE]
            ctx_lens = [s.request.num_computed_tokens + 1 for s in chunk]
            tables = self._block_tables([s.block_ids for s in chunk], ctx_lens)
            lens = torch.tensor(ctx_lens, device=self.device)
            span = torch.arange(tables.shape[1] * bs, device=self.device)
            mask = (span[None, :] < lens[:, None])[None, :, None, :]  # (1, b, 1, L)
            groups.append(DecodeGroup(start, start + len(chunk), tables, mask))
        return groups

    def _kernel_batch(
        self, decodes: list[ScheduledRequest], prefills: list[ScheduledRequest]
    ) -> KernelBatch:
        """The flat int32 tensors of the triton backend, sent to the device in one copy."""
        decode_lens = [s.request.num_computed_tokens + 1 for s in decodes]
        num_query = [s.num_new_tokens for s in prefills]
        num_computed = [s.request.num_computed_tokens for s in prefills]
        decode_rows = self._block_table_rows([s.block_ids for s in decodes], decode_lens)
        prefill_lens = [c + n for c, n in zip(num_computed, num_query, strict=True)]
        prefill_rows = self._block_table_rows([s.block_ids for s in prefills], prefill_lens)
        cu_query_starts = [0, *itertools.accumulate(num_query)]
        parts = [
            [b for row in decode_rows for b in row],
            decode_lens,
            [b for row in prefill_rows for b in row],
            cu_query_starts,
            num_computed,
        ]
        flat = torch.tensor(
            [x for part in parts for x in part],
            dtype=torch.int32,
            pin_memory=self.device.type == "cuda",
        ).to(self.device, non_blocking=True)
        dt, dl, pt, cu, nc = flat.split([len(p) for p in parts])
        return KernelBatch(
            num_decodes=len(decodes),
            decode_block_tables=dt.view(len(decodes), -1 if decodes else 0),
            decode_context_lens=dl,
            prefill_block_tables=pt.view(len(prefills), -1 if prefills else 0),
            prefill_cu_query_starts=cu,
            prefill_num_computed=nc,
            prefill_max_query_len=max(num_query, default=0),
        )

    def _block_tables(self, block_tables: list[list[int]], ctx_lens: list[int]) -> torch.Tensor:
        """The blocks covering each context, padded with block 0: (B, max_blocks)."""
        rows = self._block_table_rows(block_tables, ctx_lens)
        return torch.tensor(rows, dtype=torch.long, device=self.device)

    def _block_table_rows(
        self, block_tables: list[list[int]], ctx_lens: list[int]
    ) -> list[list[int]]:
        num = [-(-n // self.block_size) for n in ctx_lens]
        width = max(num, default=0)
        return [bt[:k] + [0] * (width - k) for bt, k in zip(block_tables, num, strict=True)]
