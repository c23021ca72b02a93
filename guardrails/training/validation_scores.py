"""The validation rows the input thresholds are chosen on (thresholds.py: the groups), and each
row's scores from the deployed rails: the tuned classifier's two heads, whether another input
rail blocks it, and the harmful-request judge's score.

Scoring is the slow part (a few thousand rows through the 6-layer encoder, the rules, NanoGuard
behind its gate and the judge: ~10 minutes on two cores). With a cache folder the scores are
kept there under a fingerprint of what they depend on (the adapter's and the judge's weights,
not their thresholds; the rails' code and data files; the matmuls this CPU runs), so a second
pass (a report, then a choice; or a validation file added) scores only rows it has not seen.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from guardrails.base import Action, Verdict
from guardrails.training.framing import framed_splits
from guardrails.training.harmful_data import (
    CHITCHAT,
    FOLLOWUPS,
    WRITTEN_SETS,
    load_validation_requests,
)
from guardrails.training.public_data import load_split, text_key
from guardrails.training.train_harmful_head import (
    chat_turn_splits,
    harmful_splits,
    written_splits,
)

OTHER_RAILS = ("deny_list", "injection_rules", "harmful", "injection_model")
PACKAGE = Path(__file__).resolve().parents[1]  # guardrails/


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
class Scores:
    """Per validation row, (n,) each: the injection and harmful-request heads' scores, whether
    another input rail blocks it, and the judge's score (None without a judge)."""

    injection: np.ndarray
    harmful: np.ndarray
    other: np.ndarray
    judge: np.ndarray | None


def fingerprint(adapter: Path, judge: Path | None) -> str:
    """What the rows' scores depend on: the adapter's and the judge's weights (their thresholds,
    gate and cards are left out: rethreshold rewrites those), the code and data files of the
    rails and models (the two files themselves excepted), and the matmuls of this CPU."""
    from guardrails.models.judge import JudgeFile
    from guardrails.models.tuned_minilm import Adapter

    h = hashlib.sha256(matmuls_here().encode())
    a = Adapter.load(adapter)
    for name in sorted(a.lora):
        h.update(name.encode() + np.ascontiguousarray(a.lora[name]).tobytes())
    for head in a.heads:
        h.update(np.ascontiguousarray(head.weight).tobytes() + repr(float(head.bias)).encode())
    h.update(repr((a.scale, a.layers)).encode())
    if judge is not None:
        j = JudgeFile.load(judge)
        for name in sorted(j.lora):
            for m in j.lora[name]:
                h.update(name.encode() + np.ascontiguousarray(m).tobytes())
        h.update(np.ascontiguousarray(j.weight).tobytes())
        h.update(repr((float(j.bias), j.scale, j.layers)).encode())
    skip = {adapter.resolve(), None if judge is None else judge.resolve()}
    files = [p for p in sorted(PACKAGE.rglob("*")) if p.is_file() and "training" not in p.parts]
    for p in files:
        if p.resolve() not in skip and "__pycache__" not in p.parts:
            h.update(str(p.relative_to(PACKAGE)).encode() + p.read_bytes())
    return h.hexdigest()[:16]


def scores(
    rows: list[ValidationRow], adapter: Path, judge: Path | None, cache: Path | None
) -> Scores:
    """Every row's scores; with `cache`, those of rows scored before under the same
    fingerprint are read from it, and the rest are added to it."""
    memo: dict[str, list] = {}
    path = None
    if cache is not None:
        path = cache / f"scores-{fingerprint(adapter, judge)}.json"
        if path.is_file():
            memo = json.loads(path.read_text())
    todo = [r for r in rows if text_key(r.text) not in memo]
    if todo:
        s_inj, s_harm, other = rail_scores(todo, adapter)
        s_judge = judge_scores(todo, judge) if judge is not None else [None] * len(todo)
        for r, i, h, o, j in zip(todo, s_inj, s_harm, other, s_judge, strict=True):
            memo[text_key(r.text)] = [
                float(i), float(h), bool(o), None if j is None else float(j)
            ]
        if path is not None:
            tmp = path.with_suffix(".tmp")
            tmp.write_text(json.dumps(memo))
            os.replace(tmp, path)
    got = [memo[text_key(r.text)] for r in rows]
    return Scores(
        np.array([g[0] for g in got]),
        np.array([g[1] for g in got]),
        np.array([g[2] for g in got], dtype=bool),
        None if judge is None else np.array([g[3] for g in got]),
    )


def matmuls_here() -> str:
    """What the rails' matmuls run in on this CPU, for the card of thresholds chosen here."""
    from guardrails.models.bf16_linear import cpu_bf16_flags, float32_forced, native_bf16

    if native_bf16():
        return "bf16" if cpu_bf16_flags() else "bf16, emulated in float32 (HEARTH_GUARDRAILS_BF16)"
    if float32_forced():
        return "float32 (HEARTH_GUARDRAILS_FLOAT32)"
    return "without bf16: float16 weights and int8 where fbgemm runs them, else float32"
