"""The training helpers' numerics: logistic fit, one threshold for a false-positive budget, and
the two classifier thresholds chosen together for the whole input pipeline."""

from __future__ import annotations

import numpy as np

from guardrails.training.fit import fit_logistic, joint_thresholds, threshold_for_fpr


def test_logistic_fit_separates_two_clusters() -> None:
    rng = np.random.default_rng(0)
    x = np.vstack([rng.normal(-2, 0.5, (50, 3)), rng.normal(2, 0.5, (50, 3))])
    y = np.array([0.0] * 50 + [1.0] * 50)
    w, b = fit_logistic(x, y, l2=0.1)
    assert (((x @ w + b) > 0) == (y == 1)).all()


def test_threshold_for_fpr_lets_through_the_allowed_benign_rows() -> None:
    scores = np.array([0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.99, 0.97])
    y = np.array([0] * 10 + [1, 1])
    t = threshold_for_fpr(scores, y, max_fpr=0.1)  # one benign row of ten may be blocked
    assert 0.9 < t <= np.nextafter(0.9, 1.0)
    assert ((scores >= t) & (y == 0)).sum() == 1


def _rows() -> dict[str, np.ndarray]:
    # Ten benign rows in each of two groups, and two groups of rows to block: "inj" rows score
    # high on the injection head only, "harm" rows on the harmful head only.
    s_inj = np.array([0.1] * 8 + [0.47, 0.5] + [0.1] * 10 + [0.9, 0.8, 0.45] + [0.1, 0.1, 0.1])
    s_harm = np.array([0.2] * 10 + [0.2] * 9 + [0.6] + [0.1, 0.1, 0.1] + [0.9, 0.7, 0.55])
    label = np.array([0] * 20 + [1] * 6)
    group = np.array(["a"] * 10 + ["b"] * 10 + ["inj"] * 3 + ["harm"] * 3)
    return {"s_inj": s_inj, "s_harm": s_harm, "label": label, "group": group}


def test_joint_thresholds_spend_each_groups_budget_where_it_buys_recall() -> None:
    d = _rows()
    other = np.zeros(26, dtype=bool)
    choice = joint_thresholds(d["s_inj"], d["s_harm"], other, d["label"], d["group"], max_fpr=0.1)
    assert choice is not None
    # Catching the 0.45 attack would block two of group a's rows (0.47, 0.5), one over its cap;
    # blocking the 0.5 row buys nothing, so the injection threshold goes just above it (the 0.8
    # and 0.9 attacks are caught). Group b's one allowed false positive goes to the harmful
    # head, which then catches every harmful row.
    assert choice.injection == np.nextafter(0.5, 1.0)
    assert choice.harmful == np.nextafter(0.2, 1.0)
    assert choice.recall == {"harm": 1.0, "inj": round(2 / 3, 4)}
    assert choice.fpr == {"a": 0.0, "b": 0.1}


def test_recall_slack_keeps_the_fewest_false_positives_among_near_ties() -> None:
    d = _rows()
    other = np.zeros(26, dtype=bool)
    args = (d["s_inj"], d["s_harm"], other, d["label"], d["group"])
    # Without slack, group b's allowed false positive buys the 0.55 harmful row (recall 5/6).
    # With a slack of 0.35, harm recall 2/3 (the 0.55 row missed, a loss of 1/3 in that group)
    # is near enough and blocks no benign row at all: the harmful threshold goes above b's 0.6
    # row.
    strict = joint_thresholds(*args, max_fpr=0.1)
    loose = joint_thresholds(*args, max_fpr=0.1, recall_slack=0.35)
    assert strict is not None and loose is not None
    assert strict.fpr == {"a": 0.0, "b": 0.1}
    assert loose.harmful == np.nextafter(0.6, 1.0)
    assert loose.recall == {"harm": round(2 / 3, 4), "inj": round(2 / 3, 4)}
    assert loose.fpr == {"a": 0.0, "b": 0.0}
    # A slack too small for the gap changes nothing. The slack holds each group, not the mean:
    # 0.2 covers the mean's loss (5/6 -> 4/6) but not the harm group's (1 -> 2/3).
    assert joint_thresholds(*args, max_fpr=0.1, recall_slack=0.1) == strict
    assert joint_thresholds(*args, max_fpr=0.1, recall_slack=0.2) == strict


def test_another_rails_false_positive_uses_up_the_budget() -> None:
    d = _rows()
    other = np.zeros(26, dtype=bool)
    other[10] = True  # a rule blocks one benign row of group b
    choice = joint_thresholds(d["s_inj"], d["s_harm"], other, d["label"], d["group"], max_fpr=0.1)
    assert choice is not None
    assert choice.harmful == np.nextafter(0.6, 1.0)  # b's 0.6 row may no longer be blocked
    assert choice.fpr["b"] == 0.1
    assert choice.recall["harm"] == round(2 / 3, 4)  # the 0.55 row is lost


def test_no_choice_when_other_rails_alone_break_a_cap() -> None:
    d = _rows()
    other = np.zeros(26, dtype=bool)
    other[[0, 1]] = True  # 2 of group a's 10 benign rows: over a 0.1 cap whatever we choose
    assert (
        joint_thresholds(d["s_inj"], d["s_harm"], other, d["label"], d["group"], max_fpr=0.1)
        is None
    )


def test_a_measured_only_group_is_reported_but_moves_no_threshold() -> None:
    # 20 benign rows and 10 to block in a capped group; harmful scores separate them at 0.5.
    s_harm = np.array([0.1] * 20 + [0.9] * 10)
    label = np.array([0] * 20 + [1] * 10)
    group = np.array(["a"] * 30)
    # framed-claim: 4 benign rows scored like harmful ones and 4 to block, half of them low.
    s_harm = np.concatenate([s_harm, [0.95, 0.95, 0.95, 0.05], [0.95, 0.95, 0.05, 0.05]])
    label = np.concatenate([label, [0, 0, 0, 0], [1, 1, 1, 1]])
    group = np.concatenate([group, ["framed-claim"] * 8])
    s_inj = np.zeros(len(label))
    other = np.zeros(len(label), dtype=bool)

    alone = joint_thresholds(s_inj[:30], s_harm[:30], other[:30], label[:30], group[:30], 0.05)
    got = joint_thresholds(s_inj, s_harm, other, label, group, 0.05, measured=("framed-claim",))
    assert alone is not None
    assert (got.injection, got.harmful) == (alone.injection, alone.harmful)
    assert got.recall == {"a": 1.0, "framed-claim": 0.5}
    assert got.fpr == {"a": 0.0, "framed-claim": 0.75}


def test_a_third_rail_is_chosen_with_the_pair_when_it_buys_recall_within_the_caps() -> None:
    d = _rows()
    other = np.zeros(26, dtype=bool)
    # The third rail sees the 0.45 attack (row 22) that the injection head cannot catch within
    # group a's cap, and scores every benign row 0.1.
    s_extra = np.full(26, 0.1)
    s_extra[22] = 0.95
    choice = joint_thresholds(
        d["s_inj"], d["s_harm"], other, d["label"], d["group"], max_fpr=0.1, s_extra=s_extra
    )
    assert choice is not None
    assert choice.extra == np.nextafter(0.1, 1.0)
    assert choice.recall == {"harm": 1.0, "inj": 1.0}
    assert choice.fpr == {"a": 0.0, "b": 0.1}


def test_a_third_rail_that_only_adds_false_positives_stays_off() -> None:
    d = _rows()
    other = np.zeros(26, dtype=bool)
    args = (d["s_inj"], d["s_harm"], other, d["label"], d["group"])
    s_extra = np.full(26, 0.05)
    s_extra[:10] = 0.9  # every benign row of group a, and none of the rows to block
    without = joint_thresholds(*args, max_fpr=0.1)
    choice = joint_thresholds(*args, max_fpr=0.1, s_extra=s_extra)
    assert choice is not None and without is not None
    assert choice.extra is None
    assert (choice.injection, choice.harmful, choice.recall, choice.fpr) == (
        without.injection,
        without.harmful,
        without.recall,
        without.fpr,
    )


def _gate_rows() -> dict[str, np.ndarray]:
    """20 benign rows (group b, none may be blocked), 10 harmful (8 the harmful head catches,
    2 only the judge does), a measured framed claim only the judge catches and its benign twin."""
    label = np.array([0] * 20 + [1] * 10 + [1, 0])
    group = np.array(["b"] * 20 + ["harm"] * 10 + ["framed-claim"] * 2)
    s_harm = np.zeros(32)
    s_harm[19] = 0.5  # a benign row the harmful head holds its threshold above
    s_harm[20:28] = 0.99
    s_harm[28], s_harm[29], s_harm[30] = 0.5, 0.02, 0.005
    s_judge = np.full(32, 0.1)
    s_judge[0] = 0.95  # the judge's one false positive, on a row the head scores 0
    s_judge[28:31] = 0.9
    return {"s_harm": s_harm, "s_judge": s_judge, "label": label, "group": group}


def test_the_judges_gate_rises_while_it_costs_no_recall() -> None:
    from guardrails.training.thresholds import choose_gate

    d = _gate_rows()
    zeros = np.zeros(32)
    got = choose_gate(
        zeros, d["s_harm"], zeros.astype(bool), d["s_judge"], d["label"], d["group"], 0.04
    )
    assert got is not None
    # Ungated, the false positive at 0.95 keeps the judge off (recall 0.8); from 1e-4 on it is
    # skipped and the judge catches all three; at 0.01 the framed claim (0.005) would be lost.
    assert got.gate == 3e-3
    assert got.thresholds.extra == np.nextafter(0.1, 1.0)
    assert got.thresholds.harmful == np.nextafter(0.5, 1.0)
    assert got.thresholds.recall == {"harm": 1.0, "framed-claim": 1.0}
    assert got.thresholds.fpr == {"b": 0.0, "framed-claim": 0.0}
    assert got.judge_share == 1 / 21  # of the benign rows, only the one at 0.5 runs the judge


def test_the_judges_gate_may_cost_less_than_the_recall_slack() -> None:
    from guardrails.training.thresholds import RECALL_SLACK, choose_gate

    d = _gate_rows()
    # 300 more framed claims the harmful head catches: losing the one only the judge catches
    # is now 1 in 301, under the half point, so the gate rises past 0.01; at 0.03 a harmful
    # row (0.02) would be lost, a tenth of its group.
    n = 32 + 300
    s_harm = np.concatenate([d["s_harm"], np.full(300, 0.99)])
    s_judge = np.concatenate([d["s_judge"], np.full(300, 0.1)])
    label = np.concatenate([d["label"], np.ones(300, dtype=int)])
    group = np.concatenate([d["group"], np.array(["framed-claim"] * 300)])
    zeros = np.zeros(n)
    got = choose_gate(zeros, s_harm, zeros.astype(bool), s_judge, label, group, 0.04)
    assert got is not None and RECALL_SLACK > 1 / 301
    assert got.gate == 1e-2
    assert got.thresholds.recall == {"harm": 1.0, "framed-claim": round(300 / 301, 4)}


def test_a_higher_gate_wins_when_it_skips_the_judges_false_positive_and_gains_recall() -> None:
    from guardrails.training.thresholds import choose_gate

    # 20 benign rows: one the harmful head scores 0.5 (its threshold stays above), one it
    # scores 0.05 that the judge takes for harmful (0.95). 10 harmful rows: 7 the head
    # catches, A (head 0, judge 0.99), B and C (head 0.2, judge 0.9). A measured framed claim
    # the head catches, and its benign twin.
    label = np.array([0] * 20 + [1] * 10 + [1, 0])
    group = np.array(["b"] * 20 + ["harm"] * 10 + ["framed-claim"] * 2)
    s_harm = np.zeros(32)
    s_harm[18], s_harm[19] = 0.05, 0.5
    s_harm[20:27] = 0.99
    s_harm[28:30] = 0.2
    s_harm[30] = 0.99
    s_judge = np.full(32, 0.1)
    s_judge[18], s_judge[27], s_judge[28:30] = 0.95, 0.99, 0.9
    zeros = np.zeros(32)
    got = choose_gate(zeros, s_harm, zeros.astype(bool), s_judge, label, group, 0.04)
    # Ungated the judge must stay over 0.95 and catches A (0.8); from 1e-4 to 0.03 it skips A
    # and still must stay over 0.95 (0.7); at 0.1 it skips the false positive and catches B
    # and C (0.9), the best of all gates.
    assert got is not None
    assert (got.gate, got.thresholds.recall) == (0.1, {"harm": 0.9, "framed-claim": 1.0})
    assert got.thresholds.extra == np.nextafter(0.1, 1.0)
    assert got.judge_share == 1 / 21  # of the benign rows (the twin too), only the one at 0.5


def test_the_gate_rule_has_an_answer_when_no_gate_is_near_every_groups_best() -> None:
    from guardrails.training.fit import JointChoice
    from guardrails.training.thresholds import GatedChoice, highest_near_best

    def tried(gate: float, a: float, b: float) -> GatedChoice:
        recall = {"a": a, "b": b}
        return GatedChoice(JointChoice(0.5, 0.5, recall, {}, 0.5), gate, 0.0)

    # Gate 0 is best on "a", 0.01 on "b", each a point ahead of the other: no gate is within
    # the half point of both bests. 0.01 has the best mean and is the reference; 0.1 is within
    # the half point of it on both groups and is the highest such gate; 0.3 loses "b".
    gates = [tried(0.0, 0.96, 0.90), tried(0.01, 0.95, 0.92), tried(0.1, 0.946, 0.916)]
    gates.append(tried(0.3, 0.97, 0.88))
    assert highest_near_best(gates).gate == 0.1
    # Equal means: the higher gate is the reference.
    assert highest_near_best([tried(0.0, 0.9, 0.9), tried(0.1, 0.9, 0.9)]).gate == 0.1


def test_group_rates_split_recall_and_false_positives_by_group() -> None:
    from guardrails.training.threshold_report import group_rates

    blocked = np.array([True, False, True, True, False, False, True])
    label = np.array([1, 1, 0, 0, 0, 1, 0])
    group = np.array(["harmful", "harmful", "s-labs", "s-labs", "s-labs", "framed", "framed"])
    recall, fpr = group_rates(blocked, label, group)
    assert recall == {"framed": 0.0, "harmful": 0.5}
    assert fpr == {"framed": 1.0, "s-labs": 0.6667}
