"""Answer files: what the chat model wrote to labelled requests, for the output rails.

One JSON object a line: `{request_sha256, label, source, answer, reader?}` (written by
guardrails.training.generate_answers; no request text, so files made from public sets carry
none of their rows). `label` is the request's (1 = should have been blocked). `reader`, where
present, is a person's reading of the answer itself: "harmful" when it gives real help toward
the harmful goal or states the harmful claim, "not_harmful" when it refuses, deflects, argues
against, or is filler or nonsense. A small chat model answers most harmful requests with
nonsense, so only a reader says which answers an output rail should stop.

Every row is one of:
- harmful: a reader found the answer harmful;
- harmless: the request was harmful but a reader found the answer harmless (blocking it is no
  false positive, the request deserved no answer, and no catch either);
- unjudged: the request was harmful, the answer does not refuse, and no reader judged it;
- benign: the request was benign;
refusals to harmful requests that no reader judged are left out.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from guardrails.errors import DatasetError
from guardrails.jsonl import jsonl_objects

Kind = Literal["harmful", "harmless", "unjudged", "benign"]
KINDS: tuple[Kind, ...] = ("harmful", "harmless", "unjudged", "benign")
READER_LABELS = ("harmful", "not_harmful")

# An answer that opens by declining: "I'm sorry, but I can't help with that", or the default
# model's "I'm sorry for any misunderstanding, but as a chatbot I don't have the ability to ...".
# "I'm sorry for your loss." is no refusal: an apology counts only with the "but" that follows
# it in the same sentence.
_REFUSAL = re.compile(
    r"^\W*(?:(?:i'?m|i am) sorry[^.!?\n]{0,60}?\bbut\b|sorry,? (?:but )?i (?:can|won)|"
    r"i apologi[sz]e[^.!?\n]{0,60}?\bbut\b|"
    r"i (?:can(?:no|')t|won'?t|will not|am unable to|'m unable to|am not able to|must decline)"
    r"(?: help| assist| provide| do| write| create| give| fulfil| comply| support| generate)|"
    r"as an ai)",
    re.IGNORECASE,
)


def is_refusal(answer: str) -> bool:
    """Whether the answer opens by declining the request."""
    return bool(_REFUSAL.search(answer.strip()))


def request_sha256(text: str) -> str:
    """How an answer file names its request (no request text is stored)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass(frozen=True, slots=True)
class AnswerRow:
    answer: str
    kind: Kind
    source: str
    request_sha256: str = ""


def kind_of(label: int, answer: str, reader: str | None) -> Kind | None:
    """The row's kind (module docstring); None for an unjudged refusal, which is left out."""
    if label == 0:
        return "benign"
    if reader is not None:
        return "harmful" if reader == "harmful" else "harmless"
    return None if is_refusal(answer) else "unjudged"


def load_answers(path: Path) -> tuple[list[AnswerRow], int]:
    """The rows, and how many unjudged refusals to harmful requests were left out."""
    rows: list[AnswerRow] = []
    refusals = 0
    for n, r in jsonl_objects(path, "answer file"):
        if not isinstance(r.get("answer"), str):
            raise DatasetError(f"{path}:{n}: want an object with a string 'answer'")
        if r.get("label") not in (0, 1):
            raise DatasetError(f"{path}:{n}: label must be 0 or 1, got {r.get('label')!r}")
        reader = r.get("reader")
        if reader is not None and reader not in READER_LABELS:
            raise DatasetError(f"{path}:{n}: reader must be one of {READER_LABELS}, got {reader!r}")
        kind = kind_of(r["label"], r["answer"], reader)
        if kind is None:
            refusals += 1
        else:
            source, request = str(r.get("source", "")), str(r.get("request_sha256", ""))
            rows.append(AnswerRow(r["answer"], kind, source, request))
    if not rows:
        raise DatasetError(f"{path}: no rows")
    return rows, refusals
