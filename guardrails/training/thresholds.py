"""Chooses the tuned classifier's two thresholds together, for the input pipeline as a whole.

A message is blocked when any input rail blocks it, so the false positives of the injection
head, the harmful-request head, the rules and NanoGuard add up. The thresholds are chosen on
validation rows only (never HarmBench, a `test` split or hold-outs v2/v3), by `joint_thresholds`:
on each group of benign rows the whole pipeline's false-positive rate stays <= --max-fpr, and
of the pairs whose recall on every group of rows to block is within RECALL_SLACK of the pair
with the highest mean recall, the one with the fewest false positives wins.

Groups (texts seen in training left out, as in the trainers):
- to block: "injection" (the attacks of both public `validation` splits), "harmful" (the
  harmful rows' validation share and the harmful rows of tests/guardrails/data/
  harmful_holdout.jsonl), "validation-authored", "validation-authored-2" and
  "validation-authored-3" (the harmful rows of data/validation_requests*.jsonl);
- benign: "s-labs" and "neuralchemy" (the benign rows of their `validation` splits, less those
  close to a harmful training row: train_harmful_head.py's filter), "authored" (our benign
  files' validation share and harmful_holdout.jsonl's benign rows), the three
  "validation-authored" groups (their benign look-alikes), "followups" and "chitchat" (the
  validation shares of benign_followups*.txt and benign_chitchat.txt: short chat turns),
  "multilingual", "pasted", "continuation", "overblock", "soundsviolent" and "everyday" (the
  benign rows of harmful_data.WRITTEN_SETS' validation shares: messages in 26 languages;
  pasted text to rewrite and careless typing; asking to continue or redo; messages that only
  look dangerous, twice; homework and everyday requests; their harmful requests count with
  "harmful" and their injections with "injection");
- both: "framed-task" (the tasks of framing.py's framed requests in the validation share, each
  in its three framings: harmful ones to block, benign ones a benign group).
- measured, not capped: "framed-claim", the framed claims (persuasive writing that spreads a
  falsehood, and its benign twins on the same topics: "...about how gas chambers at Auschwitz
  were used to murder a million people"). MiniLM scores a claim's topic, not its truth: held to
  the cap they would push the harmful threshold to 0.9997 and validation recall elsewhere from
  0.91 to 0.76. So they do not move the thresholds; what the chosen pair gives on them is
  reported beside the rest (guardrails/HISTORY.md).

    python -m guardrails.training.thresholds [--adapter PATH] [--judge PATH | --no-judge]
        [--max-fpr 0.045] [--cache DIR] [--report]

rewrites the adapter's thresholds (the trainer calls `rethreshold` on the file it writes), and
the harmful-request judge's (models/judge.py; by default the shipped one with the shipped
6-layer adapter, none with another, e.g. the student beside which it never runs), chosen
together with them: the judge is a third rail of `joint_thresholds`, "off" among its choices,
and behind a gate on the harmful-request classifier's score chosen in the same pass
(`choose_gate`), so that ordinary messages skip it. `--report` chooses and writes nothing: it
prints each group's rates at the thresholds the files hold (threshold_report.py). The rows and
their scores come from validation_scores.py; with --cache a second pass scores only new rows.
Under HEARTH_GUARDRAILS_BF16=1 (models/bf16_linear.py) a CPU without bf16 chooses or reports
for the bf16 path.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from guardrails.training.fit import JointChoice, joint_thresholds
from guardrails.training.threshold_report import stored_rates
from guardrails.training.train_harmful_head import add_split_arguments
from guardrails.training.validation_scores import (
    ValidationRow,
    matmuls_here,
    scores,
    validation_rows,
)

# The target is <= 0.05 on data not trained on. A threshold set at exactly 0.05 on a few hundred
# validation rows lands on either side of it on new rows; half a point is kept in hand.
MAX_FPR = 0.045
# Pairs whose validation recall on every group is within half a point of the best pair's are
# equal here: of them the one with the fewest false positives is kept (fit.joint_thresholds).
RECALL_SLACK = 0.005
# Groups whose figures are reported but do not move the thresholds (see the module docstring).
MEASURED_ONLY = ("framed-claim",)
# The harmful-request classifier scores the judge may be gated at (choose_gate), lowest first.
JUDGE_GATES = (0.0, 1e-4, 3e-4, 1e-3, 3e-3, 1e-2, 3e-2, 0.1)


@dataclass(frozen=True, slots=True)
class GatedChoice:
    """The thresholds, and the judge's gate (0 without a judge) with the share of the benign
    rows that pass every rail before the judge on which it still runs."""

    thresholds: JointChoice
    gate: float
    judge_share: float


def choose_gate(
    s_inj: np.ndarray,
    s_harm: np.ndarray,
    other: np.ndarray,
    s_judge: np.ndarray,
    label: np.ndarray,
    group: np.ndarray,
    max_fpr: float,
) -> GatedChoice | None:
    """The judge runs only on inputs the harmful-request classifier scored at or above a gate
    (pipeline.py). Every gate of JUDGE_GATES is tried, the three thresholds chosen afresh for
    each as if the judge had not run below it, and `highest_near_best` picks among them.
    Recall need not fall as the gate rises: a higher gate skips the judge's false positives
    below it, which no longer hold its threshold up. (Until the continuation round the gates
    rose only while no group fell more than the slack below the lower gates' best; the first
    gate, 1e-4, then cost one row of 178 in a validation file, and the judge would have run on
    every message, ~10 ms more on each, where a gate of 0.1 gave more recall on four groups of
    six and lost 0.005 on one.) None when no thresholds keep the caps."""
    tried: list[GatedChoice] = []
    for gate in JUDGE_GATES:
        runs = s_harm >= gate  # (n,)
        choice = joint_thresholds(
            s_inj, s_harm, other, label, group, max_fpr, RECALL_SLACK, MEASURED_ONLY,
            np.where(runs, s_judge, 0.0),
        )
        if choice is None:
            continue
        reach = (label == 0) & ~other & (s_inj < choice.injection) & (s_harm < choice.harmful)
        share = float((reach & runs).sum() / max(1, reach.sum()))
        tried.append(GatedChoice(choice, gate, share))
    return highest_near_best(tried) if tried else None


def highest_near_best(tried: list[GatedChoice]) -> GatedChoice:
    """Of the gates tried (lowest first), the reference is the one with the highest mean
    recall over the groups of rows to block (the measured framed claims included: HarmBench's
    misses are of their kind; of equals, the higher gate); the highest gate whose recall on
    every group is within RECALL_SLACK of the reference's wins: the rule the joint search
    applies to thresholds. The reference always qualifies. (In the continuation round each
    group was held to the best any gate gave on it; in the over-blocking round no gate was
    within the slack of every group's best, and the rule had no answer.)"""

    def mean(t: GatedChoice) -> float:
        return float(np.mean(list(t.thresholds.recall.values())))

    reference = max(reversed(tried), key=mean).thresholds.recall  # the first maximum wins
    return next(
        t
        for t in reversed(tried)  # the highest gate first
        if all(t.thresholds.recall[g] >= r - RECALL_SLACK - 1e-9 for g, r in reference.items())
    )


def choose(
    rows: list[ValidationRow],
    adapter: Path,
    max_fpr: float,
    judge: Path | None = None,
    cache: Path | None = None,
) -> GatedChoice:
    """The adapter's two thresholds, and with `judge` the judge's threshold and gate too,
    chosen together (the rows' scores kept in `cache`: validation_scores.scores)."""
    s = scores(rows, adapter, judge, cache)
    label = np.array([r.label for r in rows])
    group = np.array([r.group for r in rows])
    if s.judge is None:
        choice = joint_thresholds(
            s.injection, s.harmful, s.other, label, group, max_fpr, RECALL_SLACK, MEASURED_ONLY
        )
        gated = None if choice is None else GatedChoice(choice, 0.0, 0.0)
    else:
        gated = choose_gate(s.injection, s.harmful, s.other, s.judge, label, group, max_fpr)
    if gated is None:
        raise SystemExit(f"no thresholds keep every benign group at or below {max_fpr}")
    if judge is not None and gated.thresholds.extra is None:
        raise SystemExit(f"{judge}: the judge adds no recall within the caps; not shipped")
    return gated


def rethreshold(
    adapter: Path,
    max_fpr: float,
    seed: int,
    val_share: float,
    dup_cosine: float,
    cache: Path | None,
    judge: Path | None = None,
) -> dict:
    """Writes the chosen thresholds into the adapter file, and with `judge` into the judge's
    file too (the three are chosen together); returns what goes on their cards."""
    from guardrails.models.head import LogisticHead
    from guardrails.models.judge import JudgeFile
    from guardrails.models.tuned_minilm import Adapter

    rows = validation_rows(seed, val_share, dup_cosine, cache)
    gated = choose(rows, adapter, max_fpr, judge, cache)
    choice = gated.thresholds
    counts: dict[str, int] = {}
    for r in rows:
        counts[f"{r.group}/{r.label}"] = counts.get(f"{r.group}/{r.label}", 0) + 1
    report = {
        "threshold_from": f"validation rows, whole-pipeline FPR <= {max_fpr} on each benign "
        f"group, the fewest false positives with recall on each group to block within "
        f"{RECALL_SLACK} of the best pair's (guardrails/training/thresholds.py); "
        f"measured only, not capped: {', '.join(MEASURED_ONLY)}",
        "validation_rows": counts,
        "validation_recall": choice.recall,
        "validation_fpr": choice.fpr,
        "chosen_with_judge": None if judge is None else judge.name,
        "chosen_in": matmuls_here(),
    }
    if judge is not None:
        report["judge_gate"] = gated.gate
        report["judge_runs_on_benign_share"] = round(gated.judge_share, 3)
    a = Adapter.load(adapter)
    heads = tuple(
        LogisticHead(h.weight, h.bias, t, {})
        for h, t in zip(a.heads, (choice.injection, choice.harmful), strict=True)
    )
    card = {k: v for k, v in a.card.items() if k != "validation"} | report
    Adapter(a.lora, a.scale, (heads[0], heads[1]), card, a.layers).save(adapter)
    thresholds = [choice.injection, choice.harmful]
    if judge is not None:
        assert choice.extra is not None  # choose() refuses a judge that stays off
        j = JudgeFile.load(judge)
        card = {k: v for k, v in j.card.items() if k != "validation"} | report
        JudgeFile(
            j.layers, j.lora, j.scale, j.weight, j.bias, choice.extra, card, gated.gate
        ).save(judge)
        thresholds.append(choice.extra)
    return {"thresholds": thresholds, **report}


def main(argv: list[str] | None = None) -> int:
    from guardrails.models.judge import DEFAULT_JUDGE
    from guardrails.models.tuned_minilm import DEFAULT_ADAPTER

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--adapter", type=Path, default=DEFAULT_ADAPTER)
    parser.add_argument("--max-fpr", type=float, default=MAX_FPR)
    parser.add_argument(
        "--judge",
        type=Path,
        default=None,
        help="the harmful-request judge chosen with the adapter (default: the shipped judge "
        "with the shipped 6-layer adapter, none with any other: it runs beside that one only)",
    )
    parser.add_argument("--no-judge", action="store_true", help="the adapter alone")
    parser.add_argument(
        "--report",
        action="store_true",
        help="print each group's rates at the thresholds the files hold; choose and write nothing",
    )
    add_split_arguments(parser)
    args = parser.parse_args(argv)
    judge = args.judge
    if judge is None and args.adapter.resolve() == DEFAULT_ADAPTER and DEFAULT_JUDGE.is_file():
        judge = DEFAULT_JUDGE
    if args.report:
        rows = validation_rows(args.seed, args.val_share, args.dup_cosine, args.cache)
        report = stored_rates(
            rows, args.adapter, None if args.no_judge else judge, args.cache
        )
        print(json.dumps(report, indent=2))
        return 0
    out = rethreshold(
        args.adapter,
        args.max_fpr,
        args.seed,
        args.val_share,
        args.dup_cosine,
        args.cache,
        None if args.no_judge else judge,
    )
    print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
