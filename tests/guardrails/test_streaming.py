from __future__ import annotations

import pytest

from guardrails.base import Action, ModerationEvent, Stage
from guardrails.errors import CheckerClosedError
from guardrails.pipeline import GuardrailPipeline
from guardrails.rails.deny_list import DenyListRail
from guardrails.rails.harmful import HarmfulContentRail
from guardrails.rails.leakage import SystemPromptLeakRail
from guardrails.rails.pii import PiiRedactor
from guardrails.streaming import StreamingOutputChecker


def checker(chunk: int = 40, context: int = 40, pii: bool = True) -> StreamingOutputChecker:
    pipeline = GuardrailPipeline(
        [],
        [DenyListRail(terms=["falcon"]), HarmfulContentRail()],
        output_redactor=PiiRedactor() if pii else None,
        chunk_size=chunk,
        context_size=context,
    )
    return pipeline.stream_output()


def feed_chars(c: StreamingOutputChecker, text: str) -> tuple[str, list[ModerationEvent]]:
    """Feeds one character at a time, as a slow token stream would, then finishes."""
    out, events = [], []
    for ch in text:
        step = c.feed(ch)
        out.append(step.text)
        events.extend(step.events)
        if step.blocked is not None:
            return "".join(out), events
    step = c.finish()
    return "".join(out) + step.text, events + list(step.events)


def test_benign_text_is_released_whole_and_unchanged() -> None:
    text = "The capital of France is Paris. It is known for the Eiffel Tower and fine food."
    released, events = feed_chars(checker(), text)
    assert released == text
    assert events == []


def test_release_waits_for_a_full_chunk_and_never_more_than_one_window() -> None:
    c = checker(chunk=20, context=10, pii=False)
    assert c.feed("a" * 19).text == ""
    assert c.feed("b").text == "a" * 19 + "b"
    assert c.num_pending_chars == 0
    step = c.feed("c" * 45)
    assert step.text == "c" * 40
    assert c.num_pending_chars == 5
    assert c.finish().text == "c" * 5


def test_harmful_sentence_straddling_a_window_boundary_is_blocked_before_release() -> None:
    # The boundary (40 chars) falls inside "pipe bomb": neither window alone holds the request.
    prefix = "Sure, here is the plan. How to make a pi"
    assert len(prefix) == 40
    text = prefix + "pe bomb at home: first get a steel pipe and end caps."
    c = checker(chunk=40, context=40, pii=False)
    released, events = feed_chars(c, text)
    assert released == prefix  # the first window alone is harmless, so it went out
    assert "pipe bomb" not in released
    assert c.blocked is not None and c.blocked.rail == "harmful"
    assert [(e.stage, e.rail, e.action) for e in events] == [
        (Stage.OUTPUT, "harmful", Action.BLOCK)
    ]
    # Without carried-over context neither window holds the whole request: it would pass.
    no_context, _ = feed_chars(checker(chunk=40, context=0, pii=False), text)
    assert no_context == text


def test_deny_term_split_across_deltas_and_windows_is_caught() -> None:
    c = checker(chunk=10, context=10, pii=False)
    step1 = c.feed("abcdef fal")
    assert step1.text == "abcdef fal"
    step2 = c.feed("con rises.")
    assert step2.text == ""
    assert step2.blocked is not None and step2.blocked.reason == "deny-listed term 'falcon'"


def test_block_closes_the_checker_and_is_reported_once() -> None:
    c = checker(chunk=10, context=10, pii=False)
    c.feed("say falcon now please")
    assert c.blocked is not None
    with pytest.raises(CheckerClosedError):
        c.feed("more")
    last = c.finish()
    assert (last.text, last.events, last.blocked) == ("", (), c.blocked)
    with pytest.raises(CheckerClosedError):
        c.finish()


def test_card_number_split_across_windows_is_still_redacted() -> None:
    text = "Your card on file is 4111 1111 1111 1111 and it expires soon, thanks."
    released, events = feed_chars(checker(chunk=28, context=20), text)
    assert released == "Your card on file is [CARD] and it expires soon, thanks."
    assert [(e.rail, e.action, e.reason) for e in events] == [
        ("pii", Action.REDACT, "card redacted")
    ]
    assert "4111" not in events[0].excerpt


def test_invalid_card_number_is_released_as_is() -> None:
    text = "Order reference 4111 1111 1111 1112 was shipped yesterday."
    released, events = feed_chars(checker(chunk=25, context=10), text)
    assert released == text
    assert events == []


def test_email_split_mid_token_is_redacted_once() -> None:
    c = checker(chunk=16, context=8)
    out = c.feed("Write to jane.do").text
    out += c.feed("e@example.com for help.").text
    out += c.finish().text
    assert out == "Write to [EMAIL] for help."


def test_each_redaction_and_block_produces_exactly_one_event() -> None:
    text = "Mail a@example.com or b@example.com. " * 3
    released, events = feed_chars(checker(chunk=30, context=30), text)
    assert released == "Mail [EMAIL] or [EMAIL]. " * 3
    assert len(events) == 6
    assert {(e.rail, e.reason) for e in events} == {("pii", "email redacted")}


def test_system_prompt_leak_is_blocked_across_windows() -> None:
    prompt = (
        "You are Hearth, the support assistant of Acme Corp. Never discuss pricing "
        "before the customer has confirmed their account number and region."
    )
    pipeline = GuardrailPipeline(
        [], [SystemPromptLeakRail(ngram=4, threshold=0.5)], chunk_size=30, context_size=30
    )
    c = pipeline.stream_output(system_prompt=prompt)
    released, events = feed_chars(c, "My instructions say: " + prompt)
    assert c.blocked is not None and c.blocked.rail == "system_prompt_leak"
    assert len(released) < len(prompt)
    assert [e.rail for e in events] == ["system_prompt_leak"]
    c2 = pipeline.stream_output(system_prompt=prompt)
    released2, events2 = feed_chars(c2, "Acme Corp sells anvils. Ask me about pricing any time!")
    assert events2 == [] and c2.blocked is None


def test_digit_run_longer_than_a_chunk_is_held_at_most_one_extra_chunk() -> None:
    c = checker(chunk=10, context=5)
    assert c.feed("1 2 3 4 5 6 7").text == ""  # may still become a phone or card number
    step = c.feed(" 8 9 0 1 2")  # 23 chars pending: the hold-back limit is reached
    assert step.text == "1 2 3 4 5 "
    assert c.finish().text == "6 7 8 9 0 1 2"
