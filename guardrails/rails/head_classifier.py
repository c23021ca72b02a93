"""A rail that blocks when a logistic head over sentence embeddings scores a message high: the
shared logic of the injection and harmful-request classifier rails.

Long texts are cut into pieces at sentence ends (MiniLM reads 256 tokens) and the highest
piece score counts. Both rails cut a message the same way, so with one `MemoEmbed` in front of
the encoder the two heads cost one embedding.

With `defers_to` a rail scores every message but leaves those it names to another rail: the
pipeline passes the multilingual rail's test for messages plainly in another language
(`decides_alone`). The score still counts for the rails gated on it.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from guardrails.base import Action, Verdict
from guardrails.embedding import EmbedFn
from guardrails.errors import InvalidSettingError
from guardrails.models.head import LogisticHead
from guardrails.text import in_latin_script, latin_language, sentence_spans, strip_invisible

PIECE_CHARS = 800
# MiniLM's cost grows with the tokens it reads (~0.1-0.3 ms a token on one core of this CPU),
# so a long message is read at its head and tail only: at most 4 pieces (~1,000 tokens).
# Measured against 8 pieces: no decision changed on the dev set or the held-out splits.
MAX_PIECES = 4


# An English sentence starts a new piece after at least this many sentences that lean to
# another Latin-script language: a paragraph, not one sentence, since single short sentences
# are often misread ("Ich bin IT-Admin in einer kleinen Firma." reads as English).
MIN_OTHER_SENTENCES = 2


def split_pieces(
    text: str, limit: int = PIECE_CHARS, max_pieces: int = MAX_PIECES, paragraphs: bool = True
) -> list[str]:
    """Consecutive sentence groups of at most `limit` chars (a longer sentence is cut hard),
    with `paragraphs` never across a blank line, a change of script (a sentence mostly in
    Latin letters after one mostly not, or the reverse), nor before an English sentence that
    follows MIN_OTHER_SENTENCES or more in another Latin-script language
    (text.latin_language): a request after a pasted paragraph, or after a paragraph in another
    script or language, even on the same line, is read on its own, not drowned in it. Beyond
    `max_pieces`, the first and last pieces are kept."""
    pieces: list[str] = []
    current = ""
    end = 0
    was_latin = None
    other_run = 0  # sentences leaning to another Latin-script language since an English one
    for a, b in sentence_spans(text) or [(0, len(text))]:
        sentence = text[a:b]
        latin = in_latin_script(sentence)
        # Only pieces that end at paragraphs ask a sentence's language.
        language = latin_language(sentence) if paragraphs and latin else None
        english = language == "en"
        new_paragraph = text.count("\n", end, a) >= 2
        after_other = latin == was_latin and english and other_run >= MIN_OTHER_SENTENCES
        if paragraphs and current and (new_paragraph or latin != was_latin or after_other):
            pieces.append(current)
            current = ""
        if latin != was_latin or english:
            other_run = 0
        if language == "other":
            other_run += 1
        end, was_latin = b, latin
        while len(sentence) > limit:
            pieces.append(sentence[:limit])
            sentence = sentence[limit:]
        if current and len(current) + 1 + len(sentence) > limit:
            pieces.append(current)
            current = sentence
        else:
            current = f"{current} {sentence}" if current else sentence
    if current:
        pieces.append(current)
    if len(pieces) > max_pieces:
        half = max_pieces // 2
        pieces = pieces[:half] + pieces[-(max_pieces - half) :]
    return pieces or [text]


class HeadClassifierRail:
    """Blocks when the highest piece score reaches `threshold` (default: the head's own)."""

    name = "head_classifier"
    what = "flagged content"  # the block reason's wording
    # Whether a piece ends at a blank line (split_pieces); the output head's threshold was
    # chosen on windows read across them.
    paragraph_pieces = True

    def __init__(
        self,
        embed: EmbedFn,
        head: LogisticHead,
        threshold: float | None = None,
        defers_to: Callable[[str], bool] | None = None,
    ) -> None:
        threshold = head.threshold if threshold is None else threshold
        if not 0.0 < threshold < 1.0:
            raise InvalidSettingError(f"{self.name} threshold must be in (0, 1), got {threshold}")
        self._embed = embed
        self.head = head
        self.threshold = threshold
        self.defers_to = defers_to

    def pieces(self, text: str) -> list[str]:
        """What the encoder reads of a message: one or more pieces, the highest score counts
        (invisible characters left out)."""
        return split_pieces(strip_invisible(text), paragraphs=self.paragraph_pieces)

    def score(self, text: str) -> float:
        vecs = self._embed(self.pieces(text))  # (P, D)
        return float(np.max(self.head.score(vecs)))

    def defers(self, text: str) -> bool:
        """Whether the rail leaves `text` to another (`defers_to`)."""
        return self.defers_to is not None and self.defers_to(text)

    def check(self, text: str) -> Verdict:
        score = self.score(text)
        if score >= self.threshold and not self.defers(text):
            reason = f"{self.what} (classifier score {score:.3f})"
            return Verdict(Action.BLOCK, self.name, reason, score, text)
        return Verdict.allow(self.name, score)
