"""What the thresholds the model files hold give on each validation group, choosing nothing
(`python -m guardrails.training.thresholds --report`): a choice made on another CPU, or in other
matmuls (HEARTH_GUARDRAILS_BF16 on a CPU without bf16), checked here."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from guardrails.training.validation_scores import ValidationRow, scores


def group_rates(
    blocked: np.ndarray, label: np.ndarray, group: np.ndarray
) -> tuple[dict[str, float], dict[str, float]]:
    """(recall per group with rows to block, false-positive rate per group with benign rows),
    from (n,) arrays: whether each row was blocked, its label, its group."""
    recall, fpr = {}, {}
    for g in sorted(set(group.tolist())):
        rows = group == g
        if (rows & (label == 1)).any():
            recall[g] = round(float(blocked[rows & (label == 1)].mean()), 4)
        if (rows & (label == 0)).any():
            fpr[g] = round(float(blocked[rows & (label == 0)].mean()), 4)
    return recall, fpr


def stored_rates(
    rows: list[ValidationRow], adapter: Path, judge: Path | None = None, cache: Path | None = None
) -> dict[str, dict[str, float]]:
    """Each group's recall and false-positive rate at the thresholds (and the judge's gate)
    the files hold now: what a choice made on another CPU or in other matmuls gives here."""
    from guardrails.models.judge import JudgeFile
    from guardrails.models.tuned_minilm import Adapter

    s = scores(rows, adapter, judge, cache)
    s_inj, s_harm, other = s.injection, s.harmful, s.other
    t_inj, t_harm = (h.threshold for h in Adapter.load(adapter).heads)
    blocked = other | (s_inj >= t_inj) | (s_harm >= t_harm)
    if judge is not None:
        j = JudgeFile.load(judge)
        assert s.judge is not None
        blocked |= (s_harm >= j.gate) & (s.judge >= j.threshold)
    label = np.array([r.label for r in rows])
    group = np.array([r.group for r in rows])
    recall, fpr = group_rates(blocked, label, group)
    return {"validation_recall": recall, "validation_fpr": fpr}
