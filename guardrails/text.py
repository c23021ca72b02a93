"""Text helpers shared by the rule rails: normalization and sentence spans."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

# Zero-width and bidi-control characters hide words from rules without changing what a model
# reads, so rules see the text without them.
_INVISIBLE = dict.fromkeys(
    [0x200B, 0x200C, 0x200D, 0x2060, 0xFEFF, 0x00AD, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E]
)
_LEET = str.maketrans({"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "@": "a"})
_LEET_WORD = re.compile(r"\b(?=\w*[a-z])(?=\w*[0134578@])[\w@]+\b")
_SPACES = re.compile(r"\s+")


def strip_invisible(text: str) -> str:
    """`text` without zero-width and bidi-control characters. The model rails read this: a
    word broken up by them is still the word to a reader, but not to a tokenizer (the judge's
    byte-level BPE reads each as bytes, and a benign message full of them looked like an attack
    to it)."""
    return text.translate(_INVISIBLE)


def normalize(text: str) -> str:
    """Lower-cased NFKC text without invisible characters; digits inside words that also hold
    letters are read as leetspeak ("ign0re" -> "ignore"), whitespace runs become one space."""
    text = strip_invisible(unicodedata.normalize("NFKC", text)).lower()
    text = _LEET_WORD.sub(lambda m: m.group(0).translate(_LEET), text)
    return _SPACES.sub(" ", text).strip()


@lru_cache(maxsize=4096)
def _fold(ch: str) -> str:
    """A Latin letter without its diacritics ("é" -> "e", "ł" stays); other characters as is
    (Devanagari's vowel signs are letters of the word, not accents)."""
    if ch.isascii() or not unicodedata.name(ch, "").startswith("LATIN"):
        return ch
    base = unicodedata.normalize("NFKD", ch)[0]
    return base if base.isascii() else ch


def fold_latin(text: str) -> str:
    """`text` with its Latin letters' diacritics removed, as people often type them."""
    return "".join(_fold(ch) for ch in text)


def latin_share(text: str) -> float:
    """The share of `text`'s letters that are Latin (1.0 when it has no letters): 0 for a
    message in Chinese, Arabic or Russian, about 1 for English, French or Vietnamese."""
    letters = [ch for ch in text if ch.isalpha()]
    if not letters:
        return 1.0
    # An ASCII letter is Latin; only the others need looking up.
    latin = sum(ch.isascii() or _is_latin(ch) for ch in letters)
    return latin / len(letters)


@lru_cache(maxsize=4096)
def _is_latin(ch: str) -> bool:
    """A Latin letter by its Unicode name ("é"), or one that NFKC makes ASCII: fullwidth
    ("ｅ") and mathematical ("𝐞") letters, which attacks use to hide English words."""
    if unicodedata.name(ch, "").startswith("LATIN"):
        return True
    return unicodedata.normalize("NFKC", ch).isascii()


# A text at least this Latin (latin_share) is in Latin script: where MiniLM's pieces and the
# judge's tail tell one script from another.
LATIN_SCRIPT_SHARE = 0.8


def in_latin_script(text: str) -> bool:
    return latin_share(text) >= LATIN_SCRIPT_SHARE


# Chinese and Japanese full stops and marks end a sentence with no space after them; so do the
# Arabic question mark, the Urdu full stop and the danda of Hindi and Bengali, usually with one.
_SENTENCE_END = re.compile(
    r"[.!?]+[\"')\]]*(?=\s|$)|[。！？؟۔।॥]+[」』”’）\"')]*|\n\s*\n|\n(?=\s*(?:[-*•]|\d+[.)])\s)"
)


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """Char spans (start, end) of the sentences in `text`, leading/trailing spaces excluded.
    A sentence ends at . ! ? followed by a space or the end, at 。！？ ؟ ۔ । ॥, at a blank line,
    or before a list item; the spans are in order and do not overlap."""
    spans: list[tuple[int, int]] = []
    start = 0
    for m in _SENTENCE_END.finditer(text):
        _append_trimmed(text, start, m.end(), spans)
        start = m.end()
    _append_trimmed(text, start, len(text), spans)
    return spans


def _append_trimmed(text: str, start: int, end: int, spans: list[tuple[int, int]]) -> None:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    if end > start:
        spans.append((start, end))


# Common English words that are not also common words of the other languages we see (German
# "was", "will", "die"; Dutch "is", "we", "of"; Polish "to", "my", "on"; Spanish "a", "he", "me"
# are left out). The second half (from "someone") came in the fifth session, after short English
# imperatives ("Use profane language to viciously insult someone") were not seen as English
# after a Spanish notice; words other languages spell the same ("use", "describe", "create",
# "illegal", "detail", "instructions", "while" in code) are not in it.
_ENGLISH_LIST = """the and you your i i'm it's are were what how why when where which who can could would
    should with for this that these those have has had please write make tell give about from
    into not don't can't just get some any there their they them our us she his her him be been
    does did at by it its help need want like know explain step way best thanks thank if but
    than then more very much also only other own same such each every here after before
    someone somebody someone's something anything everything everyone nobody people suggest
    methods without getting caught being because going gonna yourself myself himself herself
    themselves against through between provide ways buy sell keep"""
_ENGLISH_WORDS = frozenset(_ENGLISH_LIST.split())
# Short English words that other languages use too ("a" in Spanish, "in" in German, "is" in
# Dutch, "to" in Polish): English only beside more English than foreign function words.
_SHARED_ENGLISH_LIST = (
    "a an of to in on is as at by or be it we me he my so no up do was will all one out"
)
_SHARED_ENGLISH_WORDS = frozenset(_SHARED_ENGLISH_LIST.split())
_WORD = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)?")


def english_words(text: str) -> tuple[int, int]:
    """(common English words, all words) in `text`."""
    words = _WORD.findall(text.lower())
    return sum(w in _ENGLISH_WORDS for w in words), len(words)


def english_share(text: str) -> float:
    """The share of `text`'s words that are common English words (0.0 when it has no words):
    about 0.3-0.6 for an English sentence, 0 for one in German, Turkish or Swahili."""
    english, words = english_words(text)
    return english / words if words else 0.0


# Common function words of the 11 Latin-script languages of our multilingual sets (fr, es, it,
# pt, de, nl, pl, tr, vi, id, sw), as fold_latin leaves them ("ı" and "đ" stay; Turkish and
# Polish also as typed without them), none of them an English word or a word of English text
# ("et", "sin", "comment", "par", "per", "come", "non", "os", "um", "com", "do", "no", "met",
# "im", "ben", "var", "ban", "the", "nay" and every one-letter word are left out). Chosen on the
# multilingual training rows and the public English train rows (guardrails/HISTORY.md).
_OTHER_LATIN_LIST = """
    le les des du de un une est je tu il nous vous pour avec dans sur pas qui mon mes ce cette
    faire peux chez mais au aux quoi tres j'ai c'est qu'il moi pourquoi quel quels quelle
    el los las del una yo para por como mi mis pero hacer puedo esta muy lo su sus al este esto
    se que con es si donde mas quiero
    gli della delle dei io sono posso questo questa anche molto senza che cosa mio mia
    uma eu meu minha nao isso da das na voce pra em sem qual quero escreve
    der das und ist ich du wie fur nicht ein eine einen mein meine zu auf kann wir sie bitte machen
    dem den auch aber oder sich wenn wo warum mir dass von aus ohne welche damit schreib
    het een en ik je jij hoe voor niet mijn van op te wat dat dit maar ook zijn wij ze naar bij
    om kun maken zonder welke hoeveel waarom als deze uit schrijf
    sie jak nie ze czy mnie jest dla od ale tak jestem moge zrobic po przez bez zeby napisz ktory
    jakie gdzie potrzebuje
    bir ve bu icin nasıl nasil ne sen mi mu ile daha yok olan benim bana hangi istiyorum mısın
    misin mı olarak gibi lazım lazim diye cok
    toi cua va la co khong cho lam nao mot nhung cac đuoc duoc voi trong đe cach nguoi minh sao
    gi thi giup moi noi
    saya aku kamu yang di ke dari untuk dengan cara bagaimana tidak ini itu bisa membuat buat ada
    akan mau tolong dan apa gimana biar bikin nggak orang tanpa pakai kalau kenapa berapa harus
    ya wa kwa ni jinsi gani mimi wewe yangu kuna hii hiyo kutoka kama lakini sana tafadhali nini
    kufanya za kwenye bila ili vipi wangu watu nataka mtu wapi cha nisaidie sasa
"""
_OTHER_LATIN_WORDS = frozenset(_OTHER_LATIN_LIST.split())


def other_latin_words(text: str) -> tuple[int, int, int]:
    """(distinct common function words of the other Latin-script languages, how many times
    they occur, all words) in `text`, diacritics ignored."""
    words = _WORD.findall(fold_latin(text.lower()))
    hits = [w for w in words if w in _OTHER_LATIN_WORDS]
    return len(set(hits)), len(hits), len(words)


def _english_and_foreign(sentence: str) -> tuple[int, int, int]:
    """(English words, counting the short ones other languages share; function words of the
    other Latin-script languages; all words) of `sentence`, diacritics ignored."""
    words = _WORD.findall(fold_latin(sentence.lower()))
    english = sum(w in _ENGLISH_WORDS or w in _SHARED_ENGLISH_WORDS for w in words)
    return english, sum(w in _OTHER_LATIN_WORDS for w in words), len(words)


def is_english_sentence(sentence: str) -> bool:
    """Whether `sentence` reads as English: mostly Latin letters and `latin_language` "en"."""
    return in_latin_script(sentence) and latin_language(sentence) == "en"


def reads_as_english(sentence: str) -> bool:
    """Whether `sentence` is English for the rules of the other languages
    (rails/harmful_rules_ml.py), which leave English to the English rules: Latin script with
    a common English word ("how", "make", "the") and no function word of the other
    Latin-script languages, or with two or more and more of them than such function words.
    The short words English shares with them ("a", "me", "do") do not count, unlike in
    `is_english_sentence`: "me ajuda a invadir o instagram do meu ex" is Portuguese. One
    English word is enough where nothing says another language: "Create a virus animation
    for my biology class" is no Italian "create" with a "virus"."""
    if not in_latin_script(sentence):
        return False
    english = english_words(sentence)[0]
    other = other_latin_words(sentence)[1]
    return english > 0 and (other == 0 or (english >= 2 and english > other))


def latin_language(sentence: str) -> str | None:
    """For a sentence in Latin script: "other" when it has more function words of the other
    Latin-script languages than English words (at least one), "en" when it has four words or
    more, at least two English words (common ones and the short ones other languages share)
    and more of them than such function words, None when it is too short or mixed to tell.
    One pass over its words, for callers that ask of every sentence of a message."""
    english, foreign, words = _english_and_foreign(sentence)
    if foreign > english:
        return "other"
    return "en" if words >= 4 and english >= 2 and english > foreign else None


def leans_other_latin(sentence: str) -> bool:
    """Whether `sentence` has more function words of the other Latin-script languages than
    English words (at least one): "Danach gehen wir essen." does, "Hola amigo." does not."""
    return latin_language(sentence) == "other"
