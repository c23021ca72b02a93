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
  harmful_holdout.jsonl), "validation-authored" and "validation-authored-2" (the harmful rows of
  data/validation_requests.jsonl and validation_requests_2.jsonl);
- benign: "s-labs" and "neuralchemy" (the benign rows of their `validation` splits, less those
  close to a harmful training row: train_harmful_head.py's filter), "authored" (our benign
  files' validation share and harmful_holdout.jsonl's benign rows), "validation-authored"
  and "validation-authored-2" (their benign look-alikes), "followups" and "chitchat" (the
  validation shares of benign_followups*.txt and benign_chitchat.txt: short chat turns),
  "multilingual", "pasted", "continuation", "overblock" and "everyday" (the benign rows of
  harmful_data.WRITTEN_SETS' validation shares: messages in 26 languages; pasted text to
  rewrite and careless typing; asking to continue or redo; messages that only look dangerous;
  homework and everyday requests; their harmful requests count with "harmful" and their
  injections with "injection");
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
prints each group's rates at the thresholds the files hold. Under HEARTH_GUARDRAILS_BF16=1
(models/bf16_linear.py) a CPU without bf16 chooses or reports for the bf16 path.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from guardrails.base import Action, Verdict
from guardrails.training.fit import JointChoice, joint_thresholds
from guardrails.training.framing import framed_splits
from guardrails.training.harmful_data import (
    CHITCHAT,
    FOLLOWUPS,
    WRITTEN_SETS,
    load_validation_requests,
)
from guardrails.training.public_data import load_split, text_key
from guardrails.training.train_harmful_head import (
    add_split_arguments,
    chat_turn_splits,
    harmful_splits,
    written_splits,
)

OTHER_RAILS = ("deny_list", "injection_rules", "harmful", "injection_model")
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
class ValidationRow:
    text: str
    label: int  # 1 = should be blocked
    group: str


def validation_rows(
    seed: int, val_share: float, dup_cosine: float, cache: Path | None
) -> list[ValidationRow]:
    h = harmful_splits(seed, val_share, dup_cosine, cache)
    seen = {text_key(r.text) for r in h.harmful_train + h.authored + h.benign_train}
    seen |= {text_key(r.text) for r in load_split("train")}
    kept_benign = {text_key(r.text) for r in h.benign_val}
    rows: dict[str, ValidationRow] = {}

    def put(text: str, label: int, group: str) -> None:
        key = text_key(text)
        if key not in seen and key not in rows:
            rows[key] = ValidationRow(text, label, group)

    for r in h.harmful_val:
        put(r.text, 1, "harmful")
    for r in h.holdout:
        put(r.text, r.label, "harmful" if r.label else "authored")
    for r in h.authored_val:
        put(r.text, 0, "authored")
    for r in load_validation_requests():
        put(r.text, r.label, r.source)
    for r in framed_splits(seed, val_share)[1]:
        put(r.text, r.label, f"framed-{r.category}")
    for paths, name in ((FOLLOWUPS, "followups"), (CHITCHAT, "chitchat")):
        for r in chat_turn_splits(paths, seed, val_share)[1]:
            put(r.text, 0, name)
    for name in WRITTEN_SETS:
        for r in written_splits(name, seed, val_share)[1]:
            if r.label:
                put(r.text, 1, "injection" if r.category == "injection" else "harmful")
            else:
                put(r.text, 0, name)
    for r in load_split("validation"):
        if r.label == 1:
            put(r.text, 1, "injection")
        elif r.category not in ("", "benign") or text_key(r.text) in kept_benign:
            # A benign-category row missing from h.benign_val was close to a harmful training
            # row (an AdvBench behaviour with a suffix, say): not counted either way.
            put(r.text, 0, r.source)
    return list(rows.values())


def rail_scores(
    rows: list[ValidationRow], adapter: Path
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(injection scores, harmful scores, blocked by another input rail), each (n,), as the
    deployed rails compute them (pieces, bf16 encoder, NanoGuard behind its gate)."""
    from guardrails.memo_embed import MemoEmbed
    from guardrails.models.tuned_minilm import TunedMiniLM
    from guardrails.pipeline import GuardrailPipeline
    from guardrails.rails.harmful_classifier import HarmfulClassifierRail
    from guardrails.rails.injection_classifier import InjectionClassifierRail
    from guardrails.settings import GuardrailSettings

    model = TunedMiniLM.load(adapter)
    embed = MemoEmbed(model.embed)  # one encoder forward per text for both heads, as deployed
    injection = InjectionClassifierRail(embed, model.heads[0], threshold=0.5)
    harmful = HarmfulClassifierRail(embed, model.heads[1], threshold=0.5)
    # The deployed pipeline's other rails, and its gates: whether NanoGuard runs depends on the
    # injection score, so each row's verdict from this adapter's injection head is handed in.
    names = tuple(n for n in GuardrailSettings().input_rails if n != "harmful_judge")
    deployed = GuardrailPipeline.from_settings(GuardrailSettings(input_rails=names))
    others = [r for r in deployed.input_rails if r.name in OTHER_RAILS]
    n = len(rows)
    s_inj, s_harm, other = np.empty(n), np.empty(n), np.zeros(n, dtype=bool)
    for i, row in enumerate(rows):
        s_inj[i], s_harm[i] = injection.score(row.text), harmful.score(row.text)
        earlier = [Verdict(Action.ALLOW, injection.name, "", float(s_inj[i]), "")]
        for rail in others:
            if not deployed.should_run(rail.name, earlier):
                continue
            if rail.check(row.text).action is Action.BLOCK:
                other[i] = True
                break
    return s_inj, s_harm, other


def judge_scores(rows: list[ValidationRow], judge: Path) -> np.ndarray:
    """(n,) scores of the harmful-request judge in `judge`, as the deployed rail computes them
    (the message's tail, in the matmuls load_judge picks on this CPU)."""
    from guardrails.models.judge import load_judge
    from guardrails.rails.harmful_judge import HarmfulJudgeRail

    encoder, head, _ = load_judge(judge)
    rail = HarmfulJudgeRail(encoder.embed, head, threshold=0.5)
    return np.array([rail.score(row.text) for row in rows])


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
    rows: list[ValidationRow], adapter: Path, max_fpr: float, judge: Path | None = None
) -> GatedChoice:
    """The adapter's two thresholds, and with `judge` the judge's threshold and gate too,
    chosen together."""
    s_inj, s_harm, other = rail_scores(rows, adapter)
    label = np.array([r.label for r in rows])
    group = np.array([r.group for r in rows])
    if judge is None:
        choice = joint_thresholds(
            s_inj, s_harm, other, label, group, max_fpr, RECALL_SLACK, MEASURED_ONLY
        )
        gated = None if choice is None else GatedChoice(choice, 0.0, 0.0)
    else:
        s_judge = judge_scores(rows, judge)
        gated = choose_gate(s_inj, s_harm, other, s_judge, label, group, max_fpr)
    if gated is None:
        raise SystemExit(f"no thresholds keep every benign group at or below {max_fpr}")
    if judge is not None and gated.thresholds.extra is None:
        raise SystemExit(f"{judge}: the judge adds no recall within the caps; not shipped")
    return gated


def matmuls_here() -> str:
    """What the rails' matmuls run in on this CPU, for the card of thresholds chosen here."""
    from guardrails.models.bf16_linear import cpu_bf16_flags, float32_forced, native_bf16

    if native_bf16():
        return "bf16" if cpu_bf16_flags() else "bf16, emulated in float32 (HEARTH_GUARDRAILS_BF16)"
    if float32_forced():
        return "float32 (HEARTH_GUARDRAILS_FLOAT32)"
    return "without bf16: float16 weights and int8 where fbgemm runs them, else float32"


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
    rows: list[ValidationRow], adapter: Path, judge: Path | None = None
) -> dict[str, dict[str, float]]:
    """Each group's recall and false-positive rate at the thresholds (and the judge's gate)
    the files hold now: what a choice made on another CPU or in other matmuls gives here."""
    from guardrails.models.judge import JudgeFile
    from guardrails.models.tuned_minilm import Adapter

    s_inj, s_harm, other = rail_scores(rows, adapter)
    t_inj, t_harm = (h.threshold for h in Adapter.load(adapter).heads)
    blocked = other | (s_inj >= t_inj) | (s_harm >= t_harm)
    if judge is not None:
        j = JudgeFile.load(judge)
        blocked |= (s_harm >= j.gate) & (judge_scores(rows, judge) >= j.threshold)
    label = np.array([r.label for r in rows])
    group = np.array([r.group for r in rows])
    recall, fpr = group_rates(blocked, label, group)
    return {"validation_recall": recall, "validation_fpr": fpr}


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
    gated = choose(rows, adapter, max_fpr, judge)
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
        report = stored_rates(rows, args.adapter, None if args.no_judge else judge)
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
