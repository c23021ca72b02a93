"""Deterministic L2-regularised logistic regression (Newton's method) and threshold choice."""

from __future__ import annotations

from dataclasses import dataclass

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


@dataclass(frozen=True)
class JointChoice:
    """Thresholds for the two classifier rails and what they give on the validation rows."""

    injection: float
    harmful: float
    recall: dict[str, float]  # per group of rows to block
    fpr: dict[str, float]  # per group of benign rows
    extra: float | None = None  # the third rail's threshold; None: not given, or best off


def joint_thresholds(
    s_inj: np.ndarray,
    s_harm: np.ndarray,
    other: np.ndarray,
    label: np.ndarray,
    group: np.ndarray,
    max_fpr: float,
    recall_slack: float = 0.0,
    measured: tuple[str, ...] = (),
    s_extra: np.ndarray | None = None,
) -> JointChoice | None:
    """Thresholds for two rails that block together: a row is blocked when s_inj >= t_inj, or
    s_harm >= t_harm, or `other` (another rail blocks it). Every group of benign rows (label 0,
    `group` names the source) keeps a false-positive rate <= max_fpr; the pair with the highest
    mean recall over the groups of rows to block is the reference, the pairs whose recall on
    every one of those groups is within `recall_slack` of the reference's are kept, and of them
    the one with the fewest false positives wins (then the higher mean recall). A slack of half
    a point stops the search from spending a whole budget on a recall gain too small to carry
    over to new rows; holding each group to it, not only the mean, stops one group's loss from
    being paid for by another's gain (a slack on the mean once let injection recall fall
    0.968 -> 0.945 on validation, and S-Labs' test split 0.925 -> 0.873). The `measured`
    groups take no part in the choice (no cap, no recall to win); their recall and
    false-positive rate at the chosen pair are reported with the rest. All arrays are (n,).
    None when no pair keeps every cap.

    The candidates for t_inj are the points just above each of the highest benign injection
    scores, as many as the caps could let through (between two benign scores, the lowest
    threshold blocks most); for each, the lowest t_harm that keeps every cap comes straight from
    the sorted benign harmful scores, and the points just above each benign row it still blocks
    are the higher candidates (each one false positive fewer): at most (budget + 1)^2 pairs.

    With `s_extra` a third rail's threshold is chosen with the pair, by the same rule: its
    candidates are found the way t_inj's are, and "off" (None) is one of them."""
    s_inj, s_harm = s_inj.astype(np.float64), s_harm.astype(np.float64)
    chosen_on = ~np.isin(group, measured)  # (n,)
    benign, to_block = (label == 0) & chosen_on, label == 1
    pos_groups = sorted(set(group[to_block & chosen_on].tolist()))
    ben_groups = sorted(set(group[benign].tolist()))
    budget = sum(int(np.floor(max_fpr * (benign & (group == g)).sum())) for g in ben_groups)

    def above_highest(scores: np.ndarray) -> list[float]:
        highest = np.sort(scores.astype(np.float64)[benign])[::-1][: budget + 1]
        return [float(t) for t in np.unique(np.nextafter(highest, np.inf))]

    t_injs = above_highest(s_inj)
    t_extras: list[float | None] = [None]
    if s_extra is not None:
        t_extras += [t for t in above_highest(s_extra) if t < 1.0]
    # (per-group recall, mean recall, false positives, t_inj, t_harm, t_extra)
    found: list[tuple[np.ndarray, float, int, float, float, float | None]] = []
    for t_extra in t_extras:
        before = other if t_extra is None else other | (s_extra >= t_extra)  # type: ignore[operator]
        for t_inj in t_injs:
            base = before | (s_inj >= t_inj)  # (n,)
            t_harm = 1e-6  # a rail threshold lies in (0, 1)
            for g in ben_groups:
                rows = benign & (group == g)
                allowed = int(np.floor(max_fpr * rows.sum())) - int((base & rows).sum())
                if allowed < 0:
                    break
                rest = np.sort(s_harm[rows & ~base])[::-1]
                if allowed < len(rest):
                    t_harm = max(t_harm, float(np.nextafter(rest[allowed], np.inf)))
            else:
                left = s_harm[benign & ~base]
                higher = np.nextafter(np.unique(left[left >= t_harm]), np.inf)
                for t in [t_harm, *(float(h) for h in higher if h < 1.0)]:
                    blocked = base | (s_harm >= t)
                    per = np.array([blocked[to_block & (group == g)].mean() for g in pos_groups])
                    fp = int((blocked & benign).sum())
                    found.append((per, float(per.mean()), fp, t_inj, t, t_extra))
    if not found:
        return None
    reference = max(found, key=lambda f: (f[1], -f[2]))[0]  # (groups,)
    near = [f for f in found if (f[0] >= reference - recall_slack - 1e-12).all()]
    *_, t_inj, t_harm, t_extra = min(near, key=lambda f: (f[2], -f[1]))
    blocked = other | (s_inj >= t_inj) | (s_harm >= t_harm)
    if t_extra is not None:
        blocked |= s_extra >= t_extra  # type: ignore[operator]
    benign = label == 0  # the measured groups' rows too, from here on
    return JointChoice(
        injection=t_inj,
        harmful=t_harm,
        recall={
            g: round(float(blocked[to_block & (group == g)].mean()), 4)
            for g in [*pos_groups, *measured]
        },
        fpr={
            g: round(float(blocked[benign & (group == g)].mean()), 4)
            for g in [*ben_groups, *measured]
        },
        extra=t_extra,
    )
