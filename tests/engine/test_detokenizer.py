"""IncrementalDetokenizer: deltas add up to the full decode, never leak U+FFFD or stop strings.

The tokenizers are built here with the `tokenizers` library, so these tests depend on no
other part of the engine:
- "bytelevel_bpe": a byte-level BPE (GPT-2 / SmolLM2 style) trained on a small mixed corpus,
  whose merges cut CJK characters and emoji between tokens;
- "bytefallback_bpe": a BPE with <0xNN> byte tokens and the Llama/Mistral decoder
  (Replace ▁, ByteFallback, Fuse, Strip one leading space);
- "single_byte_fallback" / "single_byte_level": nothing but single-byte tokens, so every
  multi-byte character is split.
"""

from __future__ import annotations

import functools
import importlib.util
import json
from collections.abc import Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

from engine.detokenizer import DetokenizerUpdate, IncrementalDetokenizer, TokenDecoder
from engine.errors import (
    EngineError,
    InvalidRequestError,
    InvalidSamplingParamsError,
    ModelLoadError,
)

FFFD = "\ufffd"
SPECIALS = ["<|im_start|>", "<|im_end|>"]
CORPUS = [
    "The quick brown fox jumps over the lazy dog. Streaming tokens arrive one at a time!",
    "def decode(ids: list[int]) -> str:\n    return ''.join(map(chr, ids))  # 👍\n",
    "for (int i = 0; i < n; ++i) { total += x[i]; }  // C++ loop",
    "café naïve résumé façade Ångström crème brûlée São Paulo Zürich",
    "机器学习是人工智能的一个分支。我们今天去图书馆看书吧。",
    "東京の天気は晴れです。ありがとうございます。",
    "한국어 텍스트도 섞어 봅시다.",
    "👨‍👩‍👧‍👦 family, 👍🏽 thumbs, 🏳️‍🌈 flag, 🧑🏿‍💻 coder, ❤️ heart 😀😃😄",
    "Ελληνικά και русский текст, עברית, العربية",
    "e\u0301 a\u0308 n\u0303 combining marks",
]


# --------------------------------------------------------------------------- tokenizers
def _bytelevel_bpe() -> Tokenizer:
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=500,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        special_tokens=SPECIALS,
        show_progress=False,
    )
    tok.train_from_iterator(CORPUS * 8, trainer)
    return tok


def _llama_decoder() -> decoders.Decoder:
    return decoders.Sequence(
        [
            decoders.Replace("▁", " "),
            decoders.ByteFallback(),
            decoders.Fuse(),
            decoders.Strip(" ", 1, 0),
        ]
    )


def _bytefallback_bpe() -> Tokenizer:
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.Metaspace(replacement="▁", prepend_scheme="first")
    # A small alphabet: rarer characters (most CJK, emoji) fall back to byte tokens.
    trainer = trainers.BpeTrainer(
        vocab_size=400, limit_alphabet=70, special_tokens=SPECIALS, show_progress=False
    )
    tok.train_from_iterator(CORPUS * 8, trainer)
    spec = json.loads(tok.to_str())
    vocab = spec["model"]["vocab"]
    next_id = max(vocab.values()) + 1
    for byte in range(256):
        vocab[f"<0x{byte:02X}>"] = next_id + byte
    spec["model"]["byte_fallback"] = True
    tok = Tokenizer.from_str(json.dumps(spec))
    tok.decoder = _llama_decoder()
    return tok


def _single_byte_fallback() -> Tokenizer:
    vocab = {f"<0x{byte:02X}>": byte for byte in range(256)}
    tok = Tokenizer(models.BPE(vocab=vocab, merges=[], byte_fallback=True))
    tok.decoder = decoders.Sequence([decoders.ByteFallback(), decoders.Fuse()])
    tok.add_special_tokens(SPECIALS)
    return tok


def _single_byte_level() -> Tokenizer:
    alphabet = sorted(pre_tokenizers.ByteLevel.alphabet())
    tok = Tokenizer(models.BPE(vocab={c: i for i, c in enumerate(alphabet)}, merges=[]))
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    tok.add_special_tokens(SPECIALS)
    return tok


TOKENIZERS = {
    "bytelevel_bpe": _bytelevel_bpe(),
    "bytefallback_bpe": _bytefallback_bpe(),
    "single_byte_fallback": _single_byte_fallback(),
    "single_byte_level": _single_byte_level(),
}
BYTE_LEVEL = ["bytelevel_bpe", "single_byte_level"]
ALL = list(TOKENIZERS)


class CountingDecoder:
    """Wraps a tokenizer and records how many ids each decode call was given."""

    def __init__(self, tok: Tokenizer) -> None:
        self.tok = tok
        self.sizes: list[int] = []

    def decode(self, token_ids: Sequence[int], skip_special_tokens: bool = True) -> str:
        self.sizes.append(len(token_ids))
        return self.tok.decode(list(token_ids), skip_special_tokens=skip_special_tokens)


# --------------------------------------------------------------------------- strategies
CHARS = st.one_of(
    st.characters(min_codepoint=0x20, max_codepoint=0x7E),
    st.characters(min_codepoint=0x4E00, max_codepoint=0x9FFF),  # CJK
    st.characters(min_codepoint=0xAC00, max_codepoint=0xD7A3),  # Hangul
    st.characters(min_codepoint=0x1F300, max_codepoint=0x1FAFF),  # emoji
    st.sampled_from(["\u200d", "\ufe0f", "\U0001f3fb", "\U0001f3ff", "\u0301", "\u0308", "\n"]),
    st.characters(codec="utf-8"),  # anything encodable: no surrogates
)
FRAGMENTS = st.sampled_from(
    [
        "👨‍👩‍👧‍👦",
        "👍🏽",
        "🏳️‍🌈",
        " the",
        "机器学习",
        "ありがとう",
        "café",
        "    return",
        " ",
        "€",
        "𝔘",
    ]
)
TEXTS = st.lists(st.one_of(FRAGMENTS, st.text(CHARS, min_size=1, max_size=6)), max_size=12).map(
    "".join
)
FAST = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def split_into_steps(data: st.DataObject, ids: list[int]) -> list[list[int]]:
    """Cuts `ids` at arbitrary points (repeated cuts give empty steps)."""
    cuts = sorted(data.draw(st.lists(st.integers(0, len(ids)), max_size=len(ids) + 2)))
    bounds = [0, *cuts, len(ids)]
    return [ids[a:b] for a, b in zip(bounds, bounds[1:], strict=False)]


def with_specials(
    data: st.DataObject, tok: Tokenizer, ids: list[int], *, anywhere: bool
) -> list[int]:
    """Inserts special tokens; between characters only unless `anywhere`."""
    special_ids = [tok.token_to_id(s) for s in SPECIALS]
    places = [k for k in range(len(ids) + 1) if anywhere or not tok.decode(ids[:k]).endswith(FFFD)]
    inserts = data.draw(
        st.lists(st.tuples(st.sampled_from(places), st.sampled_from(special_ids)), max_size=3)
    )
    out = list(ids)
    for pos, sid in sorted(inserts, reverse=True):
        out.insert(pos, sid)
    return out


def expected_stop(text: str, stops: list[str]) -> tuple[int, int, str] | None:
    """The stop that completes first in the character stream: (end, start, stop)."""
    found = [(text.find(s) + len(s), text.find(s), s) for s in stops if s in text]
    return min(found, key=lambda f: f[:2]) if found else None


# --------------------------------------------------------------------------- the tokenizers
@pytest.mark.parametrize("name", ALL)
def test_tokenizer_splits_characters_across_tokens(name: str) -> None:
    tok = TOKENIZERS[name]
    text = "龍が如く 🧑🏿‍💻 ẞtraße 𝔘𝔫𝔦𝔠𝔬𝔡𝔢"
    ids = tok.encode(text).ids
    cut_inside_char = [k for k in range(1, len(ids)) if tok.decode(ids[:k]).endswith(FFFD)]
    assert cut_inside_char, f"{name} never splits a character: the tests would prove nothing"


# --------------------------------------------------------------------------- properties
def run_steps(
    detok: IncrementalDetokenizer, steps: list[list[int]]
) -> tuple[list[DetokenizerUpdate], str]:
    updates = []
    for step in steps:
        updates.append(detok.update(step))
        if updates[-1].stopped:
            break
    return updates, detok.flush()


@pytest.mark.parametrize("name", ALL)
@pytest.mark.parametrize("skip_special_tokens", [True, False])
@FAST
@given(text=TEXTS, data=st.data())
def test_deltas_add_up_to_full_decode(
    name: str, skip_special_tokens: bool, text: str, data: st.DataObject
) -> None:
    tok = TOKENIZERS[name]
    # A special token kept between the byte tokens of one character cuts a byte-fallback run
    # into invalid halves, which the full decode blanks out as a whole (see the divergence
    # test below); byte-level decoding and skipped specials are fine anywhere.
    anywhere = skip_special_tokens or name in BYTE_LEVEL
    ids = with_specials(data, tok, tok.encode(text).ids, anywhere=anywhere)
    full = tok.decode(ids, skip_special_tokens=skip_special_tokens)
    detok = IncrementalDetokenizer(tok, skip_special_tokens=skip_special_tokens)
    released = ""
    seen: list[int] = []
    for step in split_into_steps(data, ids):
        update = detok.update(step)
        seen += step
        assert not update.stopped and update.stop_reason is None
        if FFFD not in full:
            assert FFFD not in update.text
        released += update.text
        assert detok.output_text == released
        assert full.startswith(released)
        # Nothing complete is held back longer than needed: every character the decode of
        # the ids so far ends with (U+FFFD of a split character aside) is out.
        complete = tok.decode(seen, skip_special_tokens=skip_special_tokens).rstrip(FFFD)
        assert len(released) >= len(complete)
    released += detok.flush()
    assert released == full
    assert detok.output_text == full
    if skip_special_tokens:
        assert not any(s in released for s in SPECIALS)
    else:
        assert released.count(SPECIALS[1]) == ids.count(tok.token_to_id(SPECIALS[1]))


@pytest.mark.parametrize("name", BYTE_LEVEL)
@FAST
@given(data=st.data())
def test_arbitrary_ids_including_invalid_bytes_add_up_to_full_decode(
    name: str, data: st.DataObject
) -> None:
    # Byte-level decoding replaces invalid bytes locally, so even ids no text encodes to
    # (stray continuation bytes, truncated characters) stream exactly as the full decode.
    tok = TOKENIZERS[name]
    ids = data.draw(st.lists(st.integers(0, tok.get_vocab_size() - 1), max_size=40))
    detok = IncrementalDetokenizer(tok)
    updates, tail = run_steps(detok, split_into_steps(data, ids))
    assert "".join(u.text for u in updates) + tail == tok.decode(ids)


@pytest.mark.parametrize("name", ALL)
@pytest.mark.parametrize("include", [False, True])
@FAST
@given(text=TEXTS, data=st.data())
def test_stop_string_cuts_output_and_never_leaks(
    name: str, include: bool, text: str, data: st.DataObject
) -> None:
    tok = TOKENIZERS[name]
    ids = tok.encode(text).ids
    full = tok.decode(ids)
    if not full:
        return
    spans = st.tuples(st.integers(0, len(full) - 1), st.integers(1, 6))
    stops = [full[a : a + n] for a, n in data.draw(st.lists(spans, min_size=1, max_size=3))]
    stops += data.draw(st.lists(st.text(CHARS, min_size=1, max_size=4), max_size=1))
    end, start, stop = expected_stop(full, stops)
    expected = full[:end] if include else full[:start]
    longest = max(map(len, stops))

    detok = IncrementalDetokenizer(tok, stop=stops, include_stop_str_in_output=include)
    released = ""
    seen: list[int] = []
    stopped_by: str | None = None
    for step in split_into_steps(data, ids):
        update = detok.update(step)
        seen += step
        released += update.text
        # No character of the matching stop string is out before the match completes.
        assert len(released) <= start or released == expected
        if update.stopped:
            stopped_by = update.stop_reason
            break
        assert update.stop_reason is None
        complete = tok.decode(seen).rstrip(FFFD)
        assert len(released) >= len(complete) - (longest - 1)
    tail = detok.flush()
    if stopped_by is not None:
        assert tail == ""
    else:
        # Only a stop string ending in U+FFFD can complete with the text flushed at the end.
        assert stop.endswith(FFFD)
        stopped_by = detok.stop_reason
    assert released + tail == expected
    assert detok.output_text == expected
    assert stopped_by == stop == detok.stop_reason


# --------------------------------------------------------------------------- scenarios
def feed_one_by_one(detok: IncrementalDetokenizer, ids: list[int]) -> list[str]:
    return [detok.update([i]).text for i in ids]


def test_split_character_is_released_whole_when_its_last_byte_arrives() -> None:
    tok = TOKENIZERS["single_byte_fallback"]
    ids = tok.encode("a中b").ids
    assert ids == [0x61, 0xE4, 0xB8, 0xAD, 0x62]
    detok = IncrementalDetokenizer(tok)
    assert feed_one_by_one(detok, ids) == ["a", "", "", "中", "b"]
    assert detok.flush() == ""


def test_emoji_zwj_sequence_over_byte_level_tokens() -> None:
    tok = TOKENIZERS["single_byte_level"]
    family = "👨‍👩‍👧"  # man ZWJ woman ZWJ girl: 4 + 3 + 4 + 3 + 4 bytes
    detok = IncrementalDetokenizer(tok)
    deltas = feed_one_by_one(detok, tok.encode(family).ids)
    assert [d for d in deltas if d] == ["👨", "\u200d", "👩", "\u200d", "👧"]
    assert [i for i, d in enumerate(deltas) if d] == [3, 6, 10, 13, 17]


def test_truncated_character_at_finish_flushes_one_replacement_char() -> None:
    tok = TOKENIZERS["single_byte_level"]
    ids = tok.encode("ok中").ids[:-1]  # max_tokens cut the character after two of its bytes
    detok = IncrementalDetokenizer(tok)
    assert feed_one_by_one(detok, ids) == ["o", "k", "", ""]
    assert detok.flush() == FFFD
    assert detok.output_text == tok.decode(ids) == "ok" + FFFD


def test_byte_fallback_run_ending_invalid_keeps_the_characters_already_streamed() -> None:
    # Documented divergence: the full decode of a byte run that ends invalid is one U+FFFD
    # per byte ("����"); the stream had already sent "中", which it keeps.
    tok = TOKENIZERS["single_byte_fallback"]
    ids = [0xE4, 0xB8, 0xAD, 0xE4]
    detok = IncrementalDetokenizer(tok)
    assert feed_one_by_one(detok, ids) == ["", "", "中", ""]
    assert detok.flush() == FFFD
    assert detok.output_text == "中" + FFFD
    assert tok.decode(ids) == FFFD * 4


def test_stop_string_split_across_tokens_is_not_released() -> None:
    tok = TOKENIZERS["single_byte_fallback"]
    detok = IncrementalDetokenizer(tok, stop=["END"])
    deltas = feed_one_by_one(detok, tok.encode("Hi ENx END!").ids[:9])
    # "E", "EN" are held while they could start "END"; "x" shows they did not.
    assert deltas == ["H", "i", " ", "", "", "ENx", " ", "", ""]
    update = detok.update(tok.encode("D").ids)
    assert update == DetokenizerUpdate("", True, "END")
    assert detok.output_text == "Hi ENx "
    assert detok.flush() == ""
    assert detok.update([0x21]) == DetokenizerUpdate("", True, "END")


def test_stop_string_kept_with_include_stop_str_in_output() -> None:
    tok = TOKENIZERS["single_byte_fallback"]
    detok = IncrementalDetokenizer(tok, stop=["END"], include_stop_str_in_output=True)
    update = detok.update(tok.encode("Hi END and more").ids)
    assert update == DetokenizerUpdate("Hi END", True, "END")


def test_first_completed_stop_wins_then_earliest_start() -> None:
    tok = TOKENIZERS["single_byte_fallback"]
    # "bcd" completes before "abcde" although it starts later.
    detok = IncrementalDetokenizer(tok, stop=["abcde", "bcd"])
    assert detok.update(tok.encode("xabcdef").ids) == DetokenizerUpdate("xa", True, "bcd")
    # "cd" and "bcd" complete on the same character: the one starting earlier wins.
    detok = IncrementalDetokenizer(tok, stop=["cd", "bcd"])
    assert detok.update(tok.encode("xabcdef").ids) == DetokenizerUpdate("xa", True, "bcd")


def test_held_stop_prefix_is_released_at_finish() -> None:
    tok = TOKENIZERS["single_byte_fallback"]
    detok = IncrementalDetokenizer(tok, stop=["STOP", "\n\n"])
    assert detok.update(tok.encode("go ST").ids) == DetokenizerUpdate("go ", False, None)
    assert detok.update(tok.encode("\n").ids) == DetokenizerUpdate("ST", False, None)
    assert detok.flush() == "\n"
    assert detok.output_text == "go ST\n"


def test_special_tokens_skipped_or_kept() -> None:
    tok = TOKENIZERS["bytelevel_bpe"]
    end = tok.token_to_id("<|im_end|>")
    ids = tok.encode("Hello").ids + [end]
    skipped = IncrementalDetokenizer(tok)
    assert skipped.update(ids).text + skipped.flush() == "Hello"
    kept = IncrementalDetokenizer(tok, skip_special_tokens=False)
    assert kept.update(ids).text + kept.flush() == "Hello<|im_end|>"


def test_sentencepiece_leading_space_matches_decode_of_output_ids() -> None:
    tok = TOKENIZERS["bytefallback_bpe"]
    ids = tok.encode("fox jumps").ids
    prompt = tok.encode("The quick brown").ids
    detok = IncrementalDetokenizer(tok, prompt_token_ids=prompt)
    text = "".join(feed_one_by_one(detok, ids)) + detok.flush()
    assert text == tok.decode(ids) == "fox jumps"


@pytest.mark.parametrize("name", ALL)
def test_each_step_decodes_a_small_window_not_the_whole_output(name: str) -> None:
    tok = TOKENIZERS[name]
    text = ("机器学习 the lazy dog 👨‍👩‍👧‍👦 ありがとう façade. " * 40)[:1500]
    ids = tok.encode(text).ids
    counting = CountingDecoder(tok)
    detok = IncrementalDetokenizer(counting)
    assert "".join(feed_one_by_one(detok, ids)) + detok.flush() == tok.decode(ids)
    assert len(ids) > 500
    assert max(counting.sizes) <= 16
    assert sum(counting.sizes) <= 12 * len(ids)


# --------------------------------------------------------------------------- bad input
@pytest.mark.parametrize(
    ("step", "message"),
    [
        ([-1], "new_token_ids must hold token ids >= 0, got -1"),
        ([1.5], "new_token_ids must hold integer token ids, got 1.5"),
        ("ab", "new_token_ids must be a sequence of token ids, got 'ab'"),
        (7, "new_token_ids must be a sequence of token ids, got 7"),
    ],
)
def test_bad_token_ids_raise_a_typed_error(step: object, message: str) -> None:
    detok = IncrementalDetokenizer(TOKENIZERS["single_byte_level"])
    with pytest.raises(InvalidRequestError) as info:
        detok.update(step)  # type: ignore[arg-type]
    assert str(info.value) == message


def test_empty_stop_string_is_refused() -> None:
    with pytest.raises(InvalidSamplingParamsError, match=r"got \['ok', ''\]"):
        IncrementalDetokenizer(TOKENIZERS["single_byte_level"], stop=["ok", ""])


def test_update_after_flush_is_an_engine_error() -> None:
    detok = IncrementalDetokenizer(TOKENIZERS["single_byte_level"])
    detok.flush()
    with pytest.raises(EngineError, match="update\\(\\) after flush\\(\\)"):
        detok.update([5])


# --------------------------------------------------------------------------- real model
@functools.cache
def _load_default_model_tokenizer() -> TokenDecoder:
    # The loader's tokenizer cache shares this with other tests of the session.
    from engine import loader
    from engine.loader.gguf import gguf_tokenizer

    return gguf_tokenizer(loader.default_model_path())


def _default_model_tokenizer() -> TokenDecoder:
    if importlib.util.find_spec("engine.tokenizer") is None:
        pytest.skip("engine.tokenizer (written by another helper) does not exist yet")
    try:
        return _load_default_model_tokenizer()
    except ModelLoadError as exc:
        pytest.skip(f"the default model package is not installed: {exc}")


@settings(FAST, max_examples=60)
@given(text=TEXTS, data=st.data())
def test_default_model_tokenizer_streams_its_full_decode(text: str, data: st.DataObject) -> None:
    tokenizer = _default_model_tokenizer()
    ids = tokenizer.encode(text)  # type: ignore[attr-defined]
    detok = IncrementalDetokenizer(tokenizer, stop=["\n\n"])
    updates, tail = run_steps(detok, split_into_steps(data, list(ids)))
    full = tokenizer.decode(ids)
    expected = full.split("\n\n")[0]
    assert "".join(u.text for u in updates) + tail == expected
    assert detok.stop_reason == ("\n\n" if "\n\n" in full else None)
