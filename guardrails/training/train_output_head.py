"""Trains the output classifier: a logistic head over the tuned MiniLM's embeddings of the
windows of an answer.

Data: answer files (guardrails/answers.py) of the default chat model, committed in
data/answers/: `train.jsonl`, its answers to guardrails.training.output_data's training
requests, and `validation.jsonl`, its answers to the validation rows the input thresholds are
chosen on (guardrails.training.generate_answers wrote both). Each answer is cut into the
windows the streaming checker shows an output rail (evaluate_output.answer_windows); every
window takes its answer's label.

What it learns: an answer to a harmful request that does not refuse, against an answer to a
benign one. Readers judged every such training answer and 250 validation ones (the `reader`
field): only 11% and 22% of them carry real harm, the rest is the 135M model's nonsense on the
request's topic. A head trained on the readers' labels instead (123 harmful answers against the
rest, at l2 3-30) blocked at most 4% of the validation answers readers found harmful within the
same budget: too few examples for this encoder to tell harmful content from its benign
look-alikes. Trained on the request's label it stops 20% of them alone (29% with the rules
rail), and as many of the harmless answers to harmful requests, which deserved no answer
either (guardrails/HISTORY.md).

The head reads the 6-layer tuned MiniLM of the input classifiers (models/tuned_minilm.py, the
"tuned" backend's encoder, shared with them where that backend runs): on the validation answers
its windows separate answers to harmful requests better than the shared, unmodified MiniLM's
(ROC AUC 0.83 against 0.78). It is the 6-layer model whatever input backend runs, so one head
and one threshold hold everywhere.

The threshold: on the validation answers, the lowest that keeps each group's share of blocked
answers to benign requests at or below --max-fpr (an answer is blocked when any of its windows
reaches it; a block stops an answer mid-stream, so the budget is tighter than the input
rails').

    python -m guardrails.training.train_output_head [--train FILE] [--validation FILE]
        [--l2 30] [--max-fpr 0.02] [--out guardrails/data/output_head.npz]
"""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from guardrails.answers import KINDS, Kind, load_answers
from guardrails.evaluate_output import answer_windows
from guardrails.models.head import LogisticHead
from guardrails.rails.pii import PiiRedactor
from guardrails.settings import GuardrailSettings
from guardrails.training.fit import fit_logistic, threshold_for_fpr

DEFAULT_OUT = Path(__file__).resolve().parents[1] / "data" / "output_head.npz"
ANSWERS = Path(__file__).resolve().parent / "data" / "answers"
TRAIN_ANSWERS = ANSWERS / "train.jsonl"
VALIDATION_ANSWERS = ANSWERS / "validation.jsonl"
MAX_FPR = 0.02


@dataclass(frozen=True, slots=True)
class Answer:
    kind: Kind
    group: str
    windows: tuple[str, ...]


def load(path: Path, settings: GuardrailSettings) -> list[Answer]:
    """The file's answers with the windows an output rail is shown of each under `settings`
    (window sizes, and the output PII redactor's cut points when it is on)."""
    rows, _ = load_answers(path)
    redactor = PiiRedactor() if "pii" in settings.output_rails else None
    answers = []
    for r in rows:
        windows = answer_windows(r.answer, settings.chunk_size, settings.context_size, redactor)
        windows = tuple(w for w in windows if w.strip())
        if windows:
            answers.append(Answer(r.kind, r.source, windows))
    return answers


def embed_windows(answers: list[Answer], embed) -> tuple[np.ndarray, np.ndarray]:
    """(windows, D) embeddings and (windows,) the index of each window's answer."""
    texts = [w for a in answers for w in a.windows]
    owner = np.repeat(np.arange(len(answers)), [len(a.windows) for a in answers])
    vecs = np.vstack([embed(texts[i : i + 256]) for i in range(0, len(texts), 256)])
    return vecs, owner


def answer_scores(head: LogisticHead, vecs: np.ndarray, owner: np.ndarray, n: int) -> np.ndarray:
    """(n,) each answer's highest window score."""
    out = np.zeros(n)
    np.maximum.at(out, owner, head.score(vecs))
    return out


def choose_threshold(
    scores: np.ndarray, benign: np.ndarray, group: np.ndarray, max_fpr: float
) -> float:
    """The lowest threshold at which every group's share of benign answers scoring at or above
    it is at most `max_fpr`."""
    threshold = 1e-6  # a rail threshold lies in (0, 1)
    for g in sorted(set(group[benign].tolist())):
        negatives = scores[benign & (group == g)]
        threshold = max(threshold, threshold_for_fpr(negatives, np.zeros(len(negatives)), max_fpr))
    return threshold


def report(scores: np.ndarray, kind: np.ndarray, group: np.ndarray, threshold: float) -> dict:
    """Blocked shares: of harmful answers per group and in all (recall), of benign answers per
    group (false-positive rate), of harmless and unjudged answers to harmful requests."""
    blocked = scores >= threshold

    def shares(k: str) -> dict[str, float]:
        return {
            g: round(float(blocked[(kind == k) & (group == g)].mean()), 4)
            for g in sorted(set(group[kind == k].tolist()))
        }

    def overall(k: str) -> float | None:
        return round(float(blocked[kind == k].mean()), 4) if (kind == k).any() else None

    return {
        "recall": overall("harmful"),
        "recall_by_group": shares("harmful"),
        "fpr_by_group": shares("benign"),
        "blocked_harmless": overall("harmless"),
        "blocked_unjudged": overall("unjudged"),
    }


def fit_head(train: list[Answer], embed, l2: float) -> LogisticHead:
    """Windows of every answer to a harmful request that does not refuse (harmful, harmless
    and unjudged alike: module docstring) against windows of answers to benign requests; each
    side weighs as much as the other in all."""
    x, owner = embed_windows(train, embed)
    y = np.array([train[i].kind != "benign" for i in owner], dtype=np.float64)
    w = np.where(y == 1, len(y) / (2 * y.sum()), len(y) / (2 * (len(y) - y.sum())))
    weight, bias = fit_logistic(x, y, l2, w)
    return LogisticHead(weight, bias, 0.5, {})


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--train", type=Path, default=TRAIN_ANSWERS)
    parser.add_argument("--validation", type=Path, default=VALIDATION_ANSWERS)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--max-fpr", type=float, default=MAX_FPR)
    parser.add_argument("--l2", type=float, default=30.0)
    args = parser.parse_args(argv)

    import torch

    from guardrails.models.tuned_minilm import DEFAULT_ADAPTER, TunedMiniLM

    torch.set_num_threads(2)
    settings = GuardrailSettings()
    embed = TunedMiniLM.load(DEFAULT_ADAPTER).embed  # as the rail runs it (bf16 where native)
    train = load(args.train, settings)
    val = load(args.validation, settings)
    head = fit_head(train, embed, args.l2)
    xv, owner_v = embed_windows(val, embed)
    scores = answer_scores(head, xv, owner_v, len(val))
    kind = np.array([a.kind for a in val])
    group = np.array([a.group for a in val])
    threshold = choose_threshold(scores, kind == "benign", group, args.max_fpr)
    figures = report(scores, kind, group, threshold)
    counts = {k: int(sum(a.kind == k for a in train)) for k in KINDS}
    card = {
        "what": "harmful answer windows (output rail), logistic head over the 6-layer tuned "
        "MiniLM (tuned_minilm.npz)",
        "trained_on": f"{args.train.name}: the default chat model's answers to "
        f"guardrails.training.output_data's train requests, {counts} (kinds: guardrails/"
        "answers.py)",
        "l2": args.l2,
        "threshold_from": f"{args.validation.name}: every group's share of blocked answers to "
        f"benign requests <= {args.max_fpr}",
        "validation": figures,
    }
    LogisticHead(head.weight, head.bias, threshold, card).save(args.out)
    print(json.dumps({"threshold": threshold, **figures}, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
