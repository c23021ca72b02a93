"""Carry the default model's GGUF to a GPU machine whose transfer cap is under its size.

The device tool of our workplace sends at most 64 MiB per call; SmolLM2-135M-Instruct.Q4_1.gguf
is 98 MB. `split` cuts the file at a layer boundary into a prefix (header, tokenizer, token
embedding, the first layers) and a suffix, and writes a recipe. `build` on the GPU machine
writes the real file when the suffix has arrived too (its SHA-256 is checked), and otherwise a
stand-in of the same size and layout: every tensor past the cut takes the bytes of the same
tensor of a layer inside the prefix (layer i <- the (i mod k)-th of the k kept). The stand-in runs at exactly the real
model's speed (same formats, shapes and bytes) but is not the real model: its outputs are not
SmolLM2's, so only speed and kernel-vs-reference checks may be read from it.

    python tests/gpu/gguf_parts.py split MODEL.gguf DIR --max-prefix-bytes N [--suffix-dir D]
    python tests/gpu/gguf_parts.py build DIR OUT.gguf     # prints "real" or "stand-in"
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import shutil
import sys
from pathlib import Path

LAYER = re.compile(r"^blk\.(\d+)\.(.+)$")


def sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def split(model: Path, out: Path, max_prefix: int, suffix_dir: Path) -> None:
    import gguf

    tensors = [(t.name, int(t.data_offset), int(t.n_bytes)) for t in gguf.GGUFReader(model).tensors]
    size = model.stat().st_size
    # The cut: the end of the last layer whose tensors all lie inside max_prefix.
    ends: dict[int, int] = {}
    for name, off, n in tensors:
        m = LAYER.match(name)
        if m:
            ends[int(m.group(1))] = max(ends.get(int(m.group(1)), 0), off + n)
    kept = [i for i in sorted(ends) if ends[i] <= max_prefix]  # llama.cpp orders them as text
    if not kept:
        raise SystemExit(f"no whole layer fits in {max_prefix} bytes")
    cut = max(ends[i] for i in kept)
    by_name = {name: (off, n) for name, off, n in tensors}
    recipe = []
    for name, off, n in tensors:
        if off + n <= cut:
            continue
        m = LAYER.match(name)
        if m:
            src = by_name[f"blk.{kept[int(m.group(1)) % len(kept)]}.{m.group(2)}"]
        else:  # e.g. output_norm.weight: any kept tensor of the same size (a norm weight)
            src = next(by_name[s] for s, o, k in tensors if k == n and o + k <= cut)
        if src[1] != n:
            raise SystemExit(f"{name}: no same-size source tensor")
        recipe.append([off, n, src[0]])
    gaps = sorted((off, n) for off, n, _ in recipe)
    start = cut
    for off, n in gaps:  # every byte past the cut is some tensor's (alignment padding aside)
        if off - start >= 64:
            raise SystemExit(f"{off - start} unexplained bytes at {start}")
        start = off + n
    out.mkdir(parents=True, exist_ok=True)
    suffix_dir.mkdir(parents=True, exist_ok=True)
    with model.open("rb") as f:
        (out / "prefix.bin").write_bytes(f.read(cut))
        (suffix_dir / "suffix.bin").write_bytes(f.read())
    (out / "recipe.json").write_text(json.dumps(
        {"name": model.name, "size": size, "sha256": sha256(model), "cut": cut,
         "kept_layers": len(kept), "copies": recipe}))
    print(f"prefix {cut} bytes ({len(kept)} layers), suffix {size - cut} bytes")


def build(parts: Path, out: Path, suffix_dir: Path) -> str:
    recipe = json.loads((parts / "recipe.json").read_text())
    tmp = out.with_suffix(".part")
    suffix = suffix_dir / "suffix.bin"
    with tmp.open("wb") as f:
        with (parts / "prefix.bin").open("rb") as p:
            shutil.copyfileobj(p, f)
        if suffix.exists():
            with suffix.open("rb") as s:
                shutil.copyfileobj(s, f)
    if suffix.exists():
        if sha256(tmp) != recipe["sha256"]:
            tmp.unlink()
            raise SystemExit("prefix + suffix do not give the model's SHA-256")
        kind = "real"
    else:
        with tmp.open("r+b") as f:
            f.truncate(recipe["size"])
            for dst, n, src in recipe["copies"]:
                f.seek(src)
                data = f.read(n)
                f.seek(dst)
                f.write(data)
        kind = "stand-in"
    tmp.replace(out)
    return kind


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("split")
    s.add_argument("model", type=Path)
    s.add_argument("dir", type=Path)
    s.add_argument("--max-prefix-bytes", type=int, required=True)
    s.add_argument("--suffix-dir", type=Path, default=None)
    b = sub.add_parser("build")
    b.add_argument("dir", type=Path)
    b.add_argument("out", type=Path)
    b.add_argument("--suffix-dir", type=Path, default=None)
    args = ap.parse_args(argv)
    if args.cmd == "split":
        split(args.model, args.dir, args.max_prefix_bytes, args.suffix_dir or args.dir)
    else:
        print(build(args.dir, args.out, args.suffix_dir or args.dir))
    return 0


if __name__ == "__main__":
    sys.exit(main())
