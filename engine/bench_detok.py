"""What incremental detokenization costs a token, against one decode of the output at the end
(what `LLM.generate` does when nothing reads the text before the end).

    python -m engine.bench_detok [--model default] [--requests 64] [--tokens 256]
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from engine.detokenizer import IncrementalDetokenizer
from engine.loader import load_model


def measure(tokenizer, outputs: list[list[int]]) -> dict[str, float]:
    start = time.perf_counter()
    streamed = []
    for ids in outputs:
        detok = IncrementalDetokenizer(tokenizer, skip_special_tokens=True)
        streamed.append("".join(detok.update([t]).text for t in ids) + detok.flush())
    incremental = time.perf_counter() - start
    start = time.perf_counter()
    at_end = [tokenizer.decode(ids, skip_special_tokens=True) for ids in outputs]
    end = time.perf_counter() - start
    n = sum(map(len, outputs))
    return {"tokens": n, "incremental_us_per_token": incremental / n * 1e6,
            "at_end_us_per_token": end / n * 1e6,
            "same_text": sum(a == b for a, b in zip(streamed, at_end, strict=True)) / len(outputs)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m engine.bench_detok",
                                 description=__doc__.split("\n")[0])
    ap.add_argument("--model", default="default")
    ap.add_argument("--requests", type=int, default=64)
    ap.add_argument("--tokens", type=int, default=256)
    args = ap.parse_args(argv)
    if args.requests < 1 or args.tokens < 1:
        ap.error("--requests and --tokens must be at least 1")
    loaded = load_model(args.model)
    tokenizer = loaded.tokenizer
    rng = random.Random(0)
    # Random ids past the first hundred (where the special tokens are) of the vocabulary.
    top = min(40000, loaded.config.vocab_size)
    low = min(100, top // 2)
    outputs = [[rng.randrange(low, top) for _ in range(args.tokens)] for _ in range(args.requests)]
    r = measure(tokenizer, outputs)
    print(f"{r['tokens']} tokens: incremental {r['incremental_us_per_token']:.2f} us a token, "
          f"one decode at the end {r['at_end_us_per_token']:.2f} us a token; same text for "
          f"{r['same_text']:.0%} of the outputs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
