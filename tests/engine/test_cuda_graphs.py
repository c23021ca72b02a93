"""The static-buffer decode path behind CUDA graphs, run uncaptured on a CPU."""

from __future__ import annotations

import dataclasses

import pytest
import torch

from engine.config import EngineConfig
from engine.core import EngineCore
from engine.cuda_graphs import DecodeGraphs, graph_batch_sizes, padded_batch_size
from engine.layers.attention import AttentionMetadata
from engine.llm import LLM
from engine.loader import load_model
from engine.sampling_params import SamplingParams


def test_ladder_covers_every_batch_up_to_max_num_seqs() -> None:
    assert graph_batch_sizes(1) == [1]
    assert graph_batch_sizes(10) == [1, 2, 4, 8, 10]
    assert graph_batch_sizes(64) == [1, 2, 4, 8, 12, 16, 24, 32, 40, 48, 56, 64]
    assert graph_batch_sizes(200)[-4:] == [128, 160, 192, 200]
    sizes = graph_batch_sizes(200)
    assert all(padded_batch_size(n, sizes) >= n for n in range(1, 201))
    assert padded_batch_size(9, sizes) == 12
    assert padded_batch_size(201, sizes) is None
    with pytest.raises(ValueError, match="max_num_seqs must be positive"):
        graph_batch_sizes(0)


class Recorder:
    """A forward pass that keeps what it was given and returns (T, 2) = (id, position)."""

    def __init__(self) -> None:
        self.calls: list[tuple[torch.Tensor, ...]] = []

    def __call__(
        self, ids: torch.Tensor, positions: torch.Tensor, meta: AttentionMetadata
    ) -> torch.Tensor:
        kb = meta.kernel_batch
        assert kb is not None and kb.num_decodes == ids.shape[0]
        self.calls.append(
            (ids.clone(), positions.clone(), meta.slot_mapping.clone(),
             kb.decode_context_lens.clone(), kb.decode_block_tables.clone())
        )  # fmt: skip
        return torch.stack([ids, positions], dim=1).float()


def test_a_step_is_padded_to_its_ladder_size_with_inert_rows() -> None:
    forward = Recorder()
    graphs = DecodeGraphs(
        forward, max_num_seqs=16, max_blocks=3, device=torch.device("cpu"), capture=False
    )
    hidden = graphs.run([7, 8, 9], [20, 5, 33], [41, 82, 130], [21, 6, 34], [[2, 5], [5], [1, 4, 8]])
    assert hidden is not None and hidden.tolist() == [[7, 20], [8, 5], [9, 33]]
    ids, pos, slots, lens, tables = forward.calls[-1]
    assert ids.tolist() == [7, 8, 9, 0]  # padded to 4
    assert pos.tolist() == [20, 5, 33, 0]
    assert slots.tolist() == [41, 82, 130, -1]  # the padding row stores nothing
    assert lens.tolist() == [21, 6, 34, 0]  # and attends to nothing
    assert tables[:3].tolist() == [[2, 5, 0], [5, 0, 0], [1, 4, 8]]

    # A smaller step after a larger one: the rows it no longer uses become padding again.
    hidden = graphs.run([3], [4], [5], [5], [[0]])
    assert hidden is not None and hidden.tolist() == [[3, 4]]
    ids, pos, slots, lens, _ = forward.calls[-1]
    assert (ids.tolist(), slots.tolist(), lens.tolist()) == ([3], [5], [5])
    hidden = graphs.run([1, 2], [1, 2], [1, 2], [2, 3], [[0], [1]])
    _, _, slots, lens, _ = forward.calls[-1]
    assert (slots.tolist(), lens.tolist()) == ([1, 2], [2, 3])


def test_steps_the_graphs_cannot_hold_are_left_to_the_caller() -> None:
    graphs = DecodeGraphs(
        Recorder(), max_num_seqs=2, max_blocks=2, device=torch.device("cpu"), capture=False
    )
    assert graphs.run([1, 2, 3], [0, 0, 0], [0, 1, 2], [1, 1, 1], [[0], [1], [2]]) is None
    assert graphs.run([1], [40], [40], [41], [[0, 1, 2]]) is None  # wider than the tables
    assert graphs.run([], [], [], [], []) is None


def test_capture_needs_a_cuda_device() -> None:
    with pytest.raises(ValueError, match="CUDA graphs need a CUDA device"):
        DecodeGraphs(Recorder(), max_num_seqs=2, max_blocks=2, device=torch.device("cpu"), capture=True)


def test_engine_decodes_through_the_static_graph_path_match_eager_steps() -> None:
    """The tiny dummy model with the triton backend (interpreted): decode steps through the
    padded static buffers (cuda_graphs="static") give the tokens and logprobs of eager steps.
    Three requests finishing at different steps make the decode batch 3, then 2, then 1, so
    padding rows (3 -> 4) and shrinking batches are exercised."""
    loaded = load_model("dummy:llama-tiny", dtype=torch.float32)
    g = torch.Generator().manual_seed(3)
    prompts = [torch.randint(3, 500, (n,), generator=g).tolist() for n in (5, 17, 33)]
    params = [
        SamplingParams(max_tokens=n, temperature=0.0, ignore_eos=True, logprobs=0)
        for n in (3, 5, 7)
    ]
    results = {}
    for mode in ("off", "static"):
        config = EngineConfig(
            model="dummy:llama-tiny", dtype="float32", device="cpu", num_kv_blocks=32,
            max_num_seqs=8, max_model_len=128, attention_backend="triton", cuda_graphs=mode,
        )  # fmt: skip
        llm = LLM(core=EngineCore(config, dataclasses.replace(loaded)))
        graphs = llm.core.runner.graphs
        assert (graphs is not None) == (mode == "static")
        replayed: list[int] = []
        if graphs is not None:
            run = graphs.run

            def counting_run(
                *args: list, run=run, replayed=replayed
            ) -> torch.Tensor | None:
                hidden = run(*args)
                if hidden is not None:
                    replayed.append(hidden.shape[0])
                return hidden

            graphs.run = counting_run  # type: ignore[method-assign]
        results[mode] = llm.generate(prompts, params)
        if graphs is not None:
            # Every step after the first (the three prefills) was a decode-only step.
            assert replayed == [3, 3, 2, 2, 1, 1]
    for ours, reference in zip(results["static"], results["off"], strict=True):
        assert ours.token_ids == reference.token_ids
        torch.testing.assert_close(
            [t.logprob for t in ours.logprobs], [t.logprob for t in reference.logprobs],
            atol=1e-5, rtol=1e-5,
        )  # fmt: skip
    assert [len(r.token_ids) for r in results["static"]] == [3, 5, 7]


def test_static_graphs_need_the_triton_backend() -> None:
    config = EngineConfig(
        model="dummy:llama-tiny", device="cpu", attention_backend="torch", cuda_graphs="static"
    )
    with pytest.raises(ValueError, match="needs the triton attention backend"):
        EngineCore(config)
    with pytest.raises(ValueError, match="cuda_graphs must be one of"):
        EngineConfig(cuda_graphs="always")
