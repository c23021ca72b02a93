"""PII redaction: e-mail addresses, phone numbers, card numbers (Luhn-checked), IBANs
(mod-97-checked), IP addresses and API keys / secrets, replaced by typed placeholders.

Streaming: `safe_cut` moves a proposed release point back so that no token, and no run of
digit-bearing tokens (a card or phone number written in groups), is split between what is
released now and what arrives later; the held-back part is redacted once it is whole.
"""

from __future__ import annotations

import ipaddress
import re
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class PiiMatch:
    kind: str  # the placeholder name: EMAIL, PHONE, CARD, IBAN, IP_ADDRESS, SECRET
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Redaction:
    text: str
    matches: tuple[PiiMatch, ...]  # spans refer to the original text


def luhn_valid(digits: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = ord(ch) - 48
        if i % 2 == 1:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return total % 10 == 0


# ISO 13616 lengths for the countries most often seen; others are accepted at 15..34 chars.
_IBAN_LENGTHS = {
    "AT": 20, "BE": 16, "CH": 21, "CZ": 24, "DE": 22, "DK": 18, "ES": 24, "FI": 18, "FR": 27,
    "GB": 22, "IE": 22, "IT": 27, "LU": 20, "NL": 18, "NO": 15, "PL": 28, "PT": 25, "SE": 24,
}  # fmt: skip


def iban_valid(raw: str) -> bool:
    iban = raw.replace(" ", "").upper()
    expected = _IBAN_LENGTHS.get(iban[:2])
    if expected is not None and len(iban) != expected:
        return False
    if not 15 <= len(iban) <= 34:
        return False
    rearranged = iban[4:] + iban[:4]
    return int("".join(str(int(c, 36)) for c in rearranged)) % 97 == 1


def _ip_valid(raw: str) -> bool:
    try:
        ipaddress.ip_address(raw)
    except ValueError:
        return False
    return True


_SECRET_PATTERNS = [
    re.compile(r"-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)"),
    re.compile(r"\bsk-(?:proj-|ant-)?[A-Za-z0-9_-]{20,}"),
    re.compile(r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b"),
    re.compile(r"\bgh[pousr]_[A-Za-z0-9]{30,}\b"),
    re.compile(r"\bgithub_pat_[A-Za-z0-9_]{30,}"),
    re.compile(r"\bxox[abposr]-[A-Za-z0-9-]{10,}"),
    re.compile(r"\bAIza[0-9A-Za-z_-]{35}\b"),
    re.compile(r"\b(?:sk|pk|rk)_(?:live|test)_[A-Za-z0-9]{16,}\b"),
    re.compile(r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}"),
]
# `password = hunter22` and friends: only the value is secret, the name stays readable.
_ASSIGNED_SECRET = re.compile(
    r"(?i)\b(?:api[_-]?key|secret(?:[_-]?key)?|access[_-]?token|auth[_-]?token|token|"
    r"password|passwd|pwd)\b\s*[:=]\s*[\"']?(?P<value>[^\s\"',;]{6,})"
)
_EMAIL = re.compile(r"\b[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}\b")
_IBAN = re.compile(r"\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4})*(?: ?[A-Z0-9]{1,4})\b")
_CARD = re.compile(r"(?<![\d-])\d(?:[ -]?\d){12,18}(?![\d-])")
_IPV4 = re.compile(r"(?<![\d.])(?:\d{1,3}\.){3}\d{1,3}(?![\d.])")
_IPV6 = re.compile(
    r"(?<![\w:])(?:[0-9A-Fa-f]{1,4}:){7}[0-9A-Fa-f]{1,4}(?![\w:])|"
    r"(?<![\w:])(?:[0-9A-Fa-f]{1,4}:){1,6}:(?:[0-9A-Fa-f]{1,4}(?::[0-9A-Fa-f]{1,4}){0,5})?(?![\w:])"
)
_PHONE = re.compile(
    r"(?<![\w+])\+\d{1,3}(?:[ .-]?\(?\d{1,4}\)?){2,5}(?![\w])|"  # international
    r"(?<![\w(])\(?\d{3}\)?[ .-]\d{3}[ .-]\d{4}(?!\w)|"  # North American
    # national, leading 0; not the middle of a longer run of digit groups (an IBAN, a table)
    r"(?<![\w])(?<!\d )0\d{1,4}[ /.-]\d{3,8}(?:[ .-]\d{2,6})?(?![ .-]?\d)(?!\w)"
)
_DIGIT_RUN_TOKEN = re.compile(r"[\d()+./-]*\d[\d()+./-]*|[A-Z]{2}\d{2}|[A-Z0-9]{1,4}")


class PiiRedactor:
    name = "pii"

    def find(self, text: str) -> list[PiiMatch]:
        """Validated matches, non-overlapping, in order; earlier kinds win overlaps."""
        found: list[PiiMatch] = []

        def add(kind: str, start: int, end: int) -> None:
            if all(end <= m.start or start >= m.end for m in found):
                found.append(PiiMatch(kind, start, end))

        for rx in _SECRET_PATTERNS:
            for m in rx.finditer(text):
                add("SECRET", m.start(), m.end())
        for m in _ASSIGNED_SECRET.finditer(text):
            add("SECRET", m.start("value"), m.end("value"))
        for m in _EMAIL.finditer(text):
            add("EMAIL", m.start(), m.end())
        for m in _IBAN.finditer(text):
            if iban_valid(m[0]):
                add("IBAN", m.start(), m.end())
        for m in _CARD.finditer(text):
            digits = re.sub(r"\D", "", m[0])
            if 13 <= len(digits) <= 19 and luhn_valid(digits):
                add("CARD", m.start(), m.end())
        for rx in (_IPV4, _IPV6):
            for m in rx.finditer(text):
                if _ip_valid(m[0]):
                    add("IP_ADDRESS", m.start(), m.end())
        for m in _PHONE.finditer(text):
            if 7 <= sum(c.isdigit() for c in m[0]) <= 15:
                add("PHONE", m.start(), m.end())
        return sorted(found, key=lambda m: m.start)

    def redact(self, text: str) -> Redaction:
        matches = self.find(text)
        if not matches:
            return Redaction(text, ())
        parts: list[str] = []
        pos = 0
        for m in matches:
            parts.append(text[pos : m.start])
            parts.append(f"[{m.kind}]")
            pos = m.end
        parts.append(text[pos:])
        return Redaction("".join(parts), tuple(matches))

    def safe_cut(self, text: str, cut: int) -> int:
        """The largest release point <= `cut` that splits no token and no run of digit-bearing
        tokens; `text` is everything not yet released, and more may follow it."""
        cut = min(cut, len(text))
        # Inside a token (or at the end of one that may go on): back up to its start.
        while cut > 0 and not text[cut - 1].isspace():
            if cut < len(text) and text[cut].isspace():
                break
            cut -= 1
        # A card, phone number or IBAN written in groups: back up over the whole run.
        while cut > 0:
            end = cut
            while end > 0 and text[end - 1] in " \t":
                end -= 1
            start = end
            while start > 0 and not text[start - 1].isspace():
                start -= 1
            if start == end or not _DIGIT_RUN_TOKEN.fullmatch(text[start:end]):
                break
            if not any(c.isdigit() for c in text[start:end]) and not _next_has_digit(text, cut):
                break
            cut = start
        return cut

    def check(self, text: str) -> Redaction:
        return self.redact(text)


def _next_has_digit(text: str, pos: int) -> bool:
    m = re.compile(r"\s*(\S+)").match(text, pos)
    return bool(m and any(c.isdigit() for c in m[1]))
