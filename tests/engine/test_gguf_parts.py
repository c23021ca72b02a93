"""tests/gpu/gguf_parts.py: the default model cut in two for the GPU tool, rebuilt exactly when
both parts arrive, and as a same-layout stand-in when only the prefix does."""

from __future__ import annotations

import json

import gguf
import numpy as np
import pytest

from tests.gpu.gguf_parts import build, split

LAYERS = 4
NAMES = ("attn_norm.weight", "ffn_down.weight")


def write_model(path) -> None:
    """A small GGUF with llama.cpp's tensor order: blk.0, blk.1, blk.10, ... as text."""
    rng = np.random.default_rng(0)
    w = gguf.GGUFWriter(str(path), "llama")
    w.add_block_count(LAYERS)
    w.add_tensor("token_embd.weight", rng.standard_normal((64, 32), dtype=np.float32))
    for i in sorted(range(LAYERS), key=str):
        w.add_tensor(f"blk.{i}.attn_norm.weight", rng.standard_normal(32, dtype=np.float32))
        w.add_tensor(f"blk.{i}.ffn_down.weight", rng.standard_normal((32, 32), dtype=np.float32))
    w.add_tensor("output_norm.weight", rng.standard_normal(32, dtype=np.float32))
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()


def tensor_bytes(path) -> dict[str, bytes]:
    return {t.name: bytes(t.data.tobytes()) for t in gguf.GGUFReader(str(path)).tensors}


@pytest.fixture()
def parts(tmp_path):
    model = tmp_path / "m.gguf"
    write_model(model)
    offsets = {t.name: int(t.data_offset) for t in gguf.GGUFReader(str(model)).tensors}
    # Room for the header, the embedding and the first two layers in file order (0 and 1).
    limit = offsets["blk.2.attn_norm.weight"]
    split(model, tmp_path / "prefix", limit, tmp_path / "suffix")
    return model, tmp_path


def test_prefix_and_suffix_rebuild_the_file_exactly(parts):
    model, tmp = parts
    out = tmp / "out.gguf"
    assert build(tmp / "prefix", out, tmp / "suffix") == "real"
    assert out.read_bytes() == model.read_bytes()


def test_stand_in_keeps_the_layout_and_copies_kept_layers(parts):
    model, tmp = parts
    out = tmp / "out.gguf"
    assert build(tmp / "prefix", out, tmp / "nowhere") == "stand-in"
    recipe = json.loads((tmp / "prefix" / "recipe.json").read_text())
    assert recipe["kept_layers"] == 2
    assert out.stat().st_size == model.stat().st_size
    assert out.read_bytes()[: recipe["cut"]] == model.read_bytes()[: recipe["cut"]]
    real, stand_in = tensor_bytes(model), tensor_bytes(out)
    assert stand_in.keys() == real.keys()
    for name in ("token_embd.weight", *(f"blk.{i}.{n}" for i in (0, 1) for n in NAMES)):
        assert stand_in[name] == real[name]
    # Layers 2 and 3 are past the cut: layer i takes the (i mod 2)-th kept layer, 0 or 1.
    for i in (2, 3):
        for n in NAMES:
            assert stand_in[f"blk.{i}.{n}"] == real[f"blk.{i % 2}.{n}"]
            assert stand_in[f"blk.{i}.{n}"] != real[f"blk.{i}.{n}"]
    assert len(stand_in["output_norm.weight"]) == len(real["output_norm.weight"])


def test_a_wrong_suffix_is_refused_and_leaves_no_file(parts):
    _, tmp = parts
    suffix = tmp / "suffix" / "suffix.bin"
    data = bytearray(suffix.read_bytes())
    data[-1] ^= 0xFF
    suffix.write_bytes(bytes(data))
    out = tmp / "out.gguf"
    with pytest.raises(SystemExit, match="SHA-256"):
        build(tmp / "prefix", out, tmp / "suffix")
    assert not out.exists() and not out.with_suffix(".part").exists()


def test_no_whole_layer_in_the_limit_is_an_error(tmp_path):
    model = tmp_path / "m.gguf"
    write_model(model)
    with pytest.raises(SystemExit, match="no whole layer"):
        split(model, tmp_path / "p", 100, tmp_path / "s")
