from __future__ import annotations

import pytest

from guardrails.rails.pii import PiiRedactor, iban_valid, luhn_valid

R = PiiRedactor()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("write to jane.doe+news@mail.example.org today", "write to [EMAIL] today"),
        ("call +44 20 7946 0958 now", "call [PHONE] now"),
        ("call (555) 123-4567 now", "call [PHONE] now"),
        ("ring 030 1234567.", "ring [PHONE]."),
        ("card 4111 1111 1111 1111 ok", "card [CARD] ok"),
        ("card 4111-1111-1111-1111 ok", "card [CARD] ok"),
        ("card 5500005555555559 ok", "card [CARD] ok"),
        ("iban DE89 3704 0044 0532 0130 00 ok", "iban [IBAN] ok"),
        ("iban GB82WEST12345698765432 ok", "iban [IBAN] ok"),
        ("host 192.168.10.20 up", "host [IP_ADDRESS] up"),
        ("host 2001:db8::8a2e:370:7334 up", "host [IP_ADDRESS] up"),
        ("key sk-abcdefghijklmnopqrstuvwxyz0123 here", "key [SECRET] here"),
        ("aws AKIAIOSFODNN7EXAMPLE here", "aws [SECRET] here"),
        ("password = hunter2secret", "password = [SECRET]"),
    ],
)
def test_redacts_each_kind_with_its_placeholder(text: str, expected: str) -> None:
    assert R.redact(text).text == expected


@pytest.mark.parametrize(
    "text",
    [
        "card 4111 1111 1111 1112 fails Luhn",
        "iban DE89 3704 0044 0532 0130 01 fails mod 97",
        "version 1.2.3 and 999.1.1.1 are not addresses",
        "on 2024-01-15 at 10:30 we shipped order 12345",
        "pi is 3.14159 and e is 2.71828",
    ],
)
def test_leaves_invalid_numbers_and_lookalikes_alone(text: str) -> None:
    assert R.redact(text).text == text


def test_luhn_and_mod97_checks() -> None:
    assert luhn_valid("4111111111111111")
    assert not luhn_valid("4111111111111112")
    assert luhn_valid("378282246310005")
    assert iban_valid("DE89370400440532013000")
    assert not iban_valid("DE89370400440532013001")
    assert not iban_valid("DE8937040044053201300")  # one char short for DE


def test_matches_keep_original_spans_in_order() -> None:
    text = "a@b.io then 4111111111111111"
    kinds = [(m.kind, text[m.start : m.end]) for m in R.redact(text).matches]
    assert kinds == [("EMAIL", "a@b.io"), ("CARD", "4111111111111111")]


@pytest.mark.parametrize(
    ("pending", "cut", "expected"),
    [
        ("pay with 4111 1111 1111", 23, "pay with "),  # digit groups may go on
        ("my mail is john.do", 18, "my mail is "),  # a token may go on
        ("plain words and more ", 21, "plain words and more "),
        ("the year 2024 was good and ", 27, "the year 2024 was good and "),
        ("split inside a word here", 10, "split "),
    ],
)
def test_safe_cut_never_splits_a_token_or_digit_run(pending: str, cut: int, expected: str) -> None:
    assert pending[: R.safe_cut(pending, cut)] == expected
