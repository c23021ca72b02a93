"""Deterministic L2-regularised logistic regression (Newton's method) and threshold choice."""

from __future__ import annotations

import numpy as np


def fit_logistic(
    x: np.ndarray, y: np.ndarray, l2: float, sample_weight: np.ndarray | None = None
) -> tuple[np.ndarray, float]:
    """x (n, D), y (n,) in {0,1} -> (weight (D,), bias). Newton steps on the exact Hessian:
    D is a few hundred, so each step is one small solve and the result does not depend on a
    learning rate or on data order."""
    n, d = x.shape
    sw = np.ones(n) if sample_weight is None else sample_weight
    xb = np.hstack([x.astype(np.float64), np.ones((n, 1))])  # (n, D+1)
    theta = np.zeros(d + 1)
    reg = np.full(d + 1, l2)
    reg[-1] = 0.0  # the bias is not shrunk
    for _ in range(50):
        p = 1.0 / (1.0 + np.exp(-(xb @ theta)))  # (n,)
        grad = xb.T @ (sw * (p - y)) + reg * theta  # (D+1,)
        hess = (xb * (sw * p * (1 - p))[:, None]).T @ xb + np.diag(reg)  # (D+1, D+1)
        step = np.linalg.solve(hess, grad)
        theta -= step
        if np.max(np.abs(step)) < 1e-8:
            break
    return theta[:-1].astype(np.float32), float(theta[-1])


def threshold_for_fpr(scores: np.ndarray, y: np.ndarray, max_fpr: float) -> float:
    """The lowest threshold whose false-positive rate on (scores, y) is at most `max_fpr`."""
    negatives = np.sort(scores[y == 0])[::-1]
    allowed = int(np.floor(max_fpr * len(negatives)))
    if allowed >= len(negatives):
        return 0.0
    # Strictly above the (allowed+1)-th highest negative score.
    return float(np.nextafter(negatives[allowed], np.float64(np.inf)))


def rates(scores: np.ndarray, y: np.ndarray, threshold: float) -> dict[str, float]:
    pred = scores >= threshold
    tp = int((pred & (y == 1)).sum())
    fp = int((pred & (y == 0)).sum())
    fn = int((~pred & (y == 1)).sum())
    tn = int((~pred & (y == 0)).sum())
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {
        "precision": round(precision, 4),
        "recall": round(recall, 4),
        "f1": round(f1, 4),
        "fpr": round(fp / (fp + tn) if fp + tn else 0.0, 4),
    }
