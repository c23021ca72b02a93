"""Measures whether the chat model's own layers (SmolLM2-135M, models/llama_encoder.py) would
judge harmful requests better than the tuned MiniLM: frozen features, logistic probes, the
same training rows and validation rows as the tuned MiniLM; nothing is written.

Two probes over the layer-`--layers` mean-pool, standardised (a decoder's residual stream has a
few dimensions hundreds of times larger than the rest; unstandardised, a probe sees little else):
- general: trained on the tuned head's harmful-task rows and weights (build_data). Reported:
  AUC per validation group beside the tuned MiniLM's harmful head, and the capped mean recall
  of thresholds.py's joint choice with the probe as a third rail against MiniLM's alone;
- claims: trained on the framed claims' training items only, and added to MiniLM's rails at
  their own jointly chosen thresholds. Reported: recall and false-positive rate on the framed claims'
  validation items for a few probe thresholds, beside the MiniLM head alone at the same
  false-positive rate. Trained on claims alone, it blocks most other text, so it could only run
  behind a gate that recognises requests for persuasive writing.

Then the encoder's latency on one thread. Run on the held-out sets: never.

    OMP_NUM_THREADS=2 python -m guardrails.training.judge_probe --cache DIR [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np
import torch

from guardrails.training.fit import fit_logistic, joint_thresholds
from guardrails.training.framing import framed_splits
from guardrails.training.thresholds import MEASURED_ONLY, RECALL_SLACK
from guardrails.training.train_tuned_classifier import add_data_arguments, build_data
from guardrails.training.validation_scores import rail_scores
from guardrails.training.validation_scores import validation_rows as threshold_rows

CLAIM_THRESHOLDS = (0.5, 0.7, 0.9, 0.95)
LATENCY_TOKENS = (16, 32, 64, 128, 256)


def auc(y: np.ndarray, s: np.ndarray) -> float:
    """Area under the ROC curve (Mann-Whitney; ties count half)."""
    pos, neg = s[y == 1], s[y == 0]
    below = np.searchsorted(np.sort(neg), pos, side="left")
    ties = np.searchsorted(np.sort(neg), pos, side="right") - below
    return float((below + 0.5 * ties).sum() / (len(pos) * len(neg)))


def features(encoder, texts: list[str], batch: int = 32) -> np.ndarray:  # type: ignore[no-untyped-def]
    """(n, H) unit vectors, batched by length (padding costs time, not results)."""
    order = np.argsort([len(t) for t in texts])
    x = np.zeros((len(texts), encoder.embed_tokens.shape[1]), dtype=np.float32)
    for start in range(0, len(texts), batch):
        idx = order[start : start + batch]
        x[idx] = encoder.embed([texts[i] for i in idx])
    return x


def standardised_probe(
    x: np.ndarray, y: np.ndarray, l2: float, weight: np.ndarray | None = None
) -> tuple[np.ndarray, float]:
    """A logistic probe on standardised features, folded back into (weight (H,), bias) over
    the raw features."""
    mu, sd = x.mean(0), x.std(0) + 1e-6
    w, b = fit_logistic((x - mu) / sd, y, l2, weight)
    w = w / sd
    return w, b - float(w @ mu)


def probability(x: np.ndarray, w: np.ndarray, b: float) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-np.clip(x @ w + b, -60, 60)))


def capped_mean(recall: dict[str, float]) -> float:
    return float(np.mean([v for k, v in recall.items() if k not in MEASURED_ONLY]))


def main(argv: list[str] | None = None) -> int:
    from guardrails.models.llama_encoder import DEFAULT_LAYERS, LlamaEncoder
    from guardrails.models.tuned_minilm import DEFAULT_ADAPTER

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_data_arguments(parser)
    parser.add_argument("--layers", type=int, default=DEFAULT_LAYERS)
    parser.add_argument("--l2", type=float, default=1.0, help="general probe")
    parser.add_argument("--claims-l2", type=float, default=10.0, help="claims probe")
    parser.add_argument("--json", type=Path, default=None, help="also write the figures here")
    args = parser.parse_args(argv)

    encoder = LlamaEncoder.load(num_layers=args.layers)
    train = [r for r in build_data(args).train if r.y[1] != -1]
    x_train = features(encoder, [r.text for r in train])
    y_train = np.array([r.y[1] for r in train])
    w_train = np.array([r.w[1] for r in train])
    rows = threshold_rows(args.seed, args.val_share, args.dup_cosine, args.cache)
    x_val = features(encoder, [r.text for r in rows])
    label = np.array([r.label for r in rows])
    group = np.array([r.group for r in rows])
    s_inj, s_harm, other = rail_scores(rows, DEFAULT_ADAPTER)

    def choose(extra: np.ndarray | None = None):  # type: ignore[no-untyped-def]
        return joint_thresholds(
            s_inj, s_harm, other, label, group, args.max_fpr, RECALL_SLACK, MEASURED_ONLY, extra
        )

    minilm = choose()
    assert minilm is not None  # the tuned adapter's thresholds come from this search
    out: dict = {
        "layers": args.layers,
        "minilm_only": {
            "capped_mean_recall": capped_mean(minilm.recall),
            "recall": minilm.recall,
            "fpr": minilm.fpr,
        },
    }

    # General probe: per-group AUC, then the best joint choice with it as one more rail.
    s_gen = probability(x_val, *standardised_probe(x_train, y_train, args.l2, w_train))
    out["general_auc"] = {
        g: {
            "probe": auc(label[group == g], s_gen[group == g]),
            "minilm_harmful_head": auc(label[group == g], s_harm[group == g]),
        }
        for g in sorted(set(group.tolist()))
        if len(set(label[group == g].tolist())) == 2
    }
    # As a third rail, its threshold chosen with the MiniLM pair (None: it buys nothing).
    with_probe = choose(s_gen)
    if with_probe is not None:
        out["general_as_rail"] = {
            "threshold": with_probe.extra,
            "capped_mean_recall": capped_mean(with_probe.recall),
            "recall": with_probe.recall,
            "fpr": with_probe.fpr,
        }

    # Claims probe, added to MiniLM's rails at their thresholds.
    claims_train = [r for r in framed_splits(args.seed, args.val_share)[0] if r.category == "claim"]
    x_claims = features(encoder, [r.text for r in claims_train])
    s_claim = probability(
        x_val,
        *standardised_probe(x_claims, np.array([r.label for r in claims_train]), args.claims_l2),
    )
    pipeline = other | (s_inj >= minilm.injection) | (s_harm >= minilm.harmful)
    pos = (group == "framed-claim") & (label == 1)
    neg = (group == "framed-claim") & (label == 0)
    out["claims"] = []
    for t in CLAIM_THRESHOLDS:
        union = pipeline | (s_claim >= t)
        fpr = float(union[neg].mean())
        # The MiniLM harmful head alone, its threshold moved to the same false-positive rate.
        t_harm = float(np.quantile(s_harm[neg], 1.0 - fpr))
        alone = other | (s_inj >= minilm.injection) | (s_harm > t_harm)
        out["claims"].append(
            {
                "threshold": t,
                "recall": float(union[pos].mean()),
                "fpr": fpr,
                "minilm_recall_at_same_fpr": float(alone[pos].mean()),
            }
        )

    torch.set_num_threads(1)
    out["latency_ms_one_thread"] = {}
    for n in LATENCY_TOKENS:
        ids = [[1] * n]
        encoder.forward(ids)
        start = time.perf_counter()
        for _ in range(10):
            encoder.forward(ids)
        out["latency_ms_one_thread"][n] = round((time.perf_counter() - start) * 100, 1)

    text = json.dumps(out, indent=1, sort_keys=True)
    print(text)
    if args.json is not None:
        args.json.write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
