"""How a `Tokenizer` is built: from a GGUF file's metadata (byte-level BPE rebuilt with
`tokenizers`), from a Hugging Face folder's tokenizer.json, or as a plain byte-level tokenizer
for dummy weights. Each source yields the same `TokenizerParts`; engine/tokenizer.py is the
runtime side (encode, decode, chat).
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import tokenizers
from tokenizers import AddedToken, Regex, decoders, models, pre_tokenizers, processors

from engine.chat_template import CHATML_TEMPLATE
from engine.errors import ModelLoadError

# Chat end-of-turn markers: when one of these is a special token the chat template writes, the
# model ends its reply with it, so generation must stop there even if the file's eos differs.
_END_OF_TURN_TOKENS = ("<|im_end|>", "<|eot_id|>", "<|end|>", "<end_of_turn>")
# Extra stop tokens an architecture's reference generation config lists beside its eos, which
# GGUF metadata (one eos id) cannot carry: Qwen2 stops at <|im_end|> and at <|endoftext|>.
_EXTRA_EOS_BY_ARCHITECTURE = {"qwen2": ("<|endoftext|>",)}

# llama.cpp token types (tokenizer.ggml.token_type).
_TOKEN_TYPE_CONTROL = 3
_TOKEN_TYPE_USER_DEFINED = 4

# Split patterns of the vocabularies whose llama.cpp `pre` name we accept. Numbers: Qwen2 splits
# single digits, Llama 3 groups of up to three.
_QWEN2_SPLIT = (
    r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}"
    r"| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"
)
_LLAMA3_SPLIT = (
    r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}"
    r"| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"
)

# Special tokens of the byte-level tokenizer that dummy models get (ChatML markers + a document
# end), placed right after the 256 byte tokens.
_BYTE_LEVEL_SPECIALS = ("<|endoftext|>", "<|im_start|>", "<|im_end|>")


def _byte_alphabet() -> dict[int, str]:
    """GPT-2's byte -> printable character map that byte-level BPE vocabularies are spelled in.

    Printable Latin-1 bytes stand for themselves; the others (controls, space, ...) are moved to
    code points from 256 up, in byte order, so every token is a visible string.
    """
    kept = [*range(ord("!"), ord("~") + 1), *range(ord("¡"), ord("¬") + 1)]
    kept += range(ord("®"), ord("ÿ") + 1)
    mapping = {b: chr(b) for b in kept}
    next_code = 256
    for b in range(256):
        if b not in mapping:
            mapping[b] = chr(next_code)
            next_code += 1
    return mapping


_BYTE_ALPHABET = _byte_alphabet()
_BYTE_CHARS = frozenset(_BYTE_ALPHABET.values())


def _pre_tokenizer(pre: str) -> pre_tokenizers.PreTokenizer:
    if pre == "smollm":
        return pre_tokenizers.Sequence(
            [
                pre_tokenizers.Digits(individual_digits=True),
                pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True),
            ]
        )
    split = {"qwen2": _QWEN2_SPLIT, "llama-bpe": _LLAMA3_SPLIT, "llama3": _LLAMA3_SPLIT}.get(pre)
    if split is not None:
        return pre_tokenizers.Sequence(
            [
                pre_tokenizers.Split(Regex(split), behavior="isolated", invert=False),
                pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False),
            ]
        )
    if pre in ("gpt2", "default"):
        return pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
    raise ModelLoadError(
        f"unsupported GGUF pre-tokenizer {pre!r} "
        "(supported: smollm, qwen2, llama-bpe, llama3, gpt2, default)"
    )


def _field(reader: Any, key: str, default: Any = None) -> Any:
    field = reader.fields.get(key)
    return default if field is None else field.contents()


@dataclass(frozen=True, slots=True)
class TokenizerParts:
    """What a tokenizer source describes; `Tokenizer.from_parts` assembles it."""

    backend: tokenizers.Tokenizer
    bos_token_id: int | None
    eos_token_ids: Sequence[int]
    chat_template: str | None
    vocab_size: int


def gguf_parts(reader: Any) -> TokenizerParts:
    """Rebuild the byte-level BPE tokenizer described by a GGUF file's metadata.

    `reader` is a `gguf.GGUFReader` (or a path to open with one).
    """
    if isinstance(reader, str | os.PathLike):
        import gguf

        reader = gguf.GGUFReader(os.fspath(reader))
    kind = _field(reader, "tokenizer.ggml.model")
    if kind != "gpt2":
        raise ModelLoadError(
            f"unsupported GGUF tokenizer model {kind!r} (only byte-level BPE 'gpt2')"
        )
    pre = _field(reader, "tokenizer.ggml.pre", "default")
    tokens: list[str] = _field(reader, "tokenizer.ggml.tokens") or []
    merges: list[str] = _field(reader, "tokenizer.ggml.merges") or []
    token_types: list[int] = _field(reader, "tokenizer.ggml.token_type") or []
    if not tokens:
        raise ModelLoadError("GGUF file has no tokenizer.ggml.tokens")
    backend = _byte_level_bpe(tokens, merges, pre)
    _add_marked_tokens(backend, tokens, token_types)

    bos_id = _field(reader, "tokenizer.ggml.bos_token_id")
    eos_id = _field(reader, "tokenizer.ggml.eos_token_id")
    if eos_id is None:
        raise ModelLoadError("GGUF file has no tokenizer.ggml.eos_token_id")
    add_bos = bool(_field(reader, "tokenizer.ggml.add_bos_token", False))
    add_eos = bool(_field(reader, "tokenizer.ggml.add_eos_token", False))
    backend.post_processor = _edge_tokens_processor(
        backend, bos_id if add_bos else None, eos_id if add_eos else None
    )
    template = _field(reader, "tokenizer.chat_template")
    architecture = _field(reader, "general.architecture", "")
    eos_ids = [eos_id, *_end_of_turn_ids(backend, template, architecture)]
    return TokenizerParts(
        backend,
        bos_token_id=bos_id,
        eos_token_ids=eos_ids,
        chat_template=template,
        vocab_size=len(tokens),
    )

def hf_folder_parts(
path: str | os.PathLike[str], architecture: str = "", vocab_size: int | None = None
) -> TokenizerParts:
    """Load tokenizer.json + tokenizer_config.json (+ generation_config.json) of a folder.

    `vocab_size`: the model's vocabulary when it is larger than the tokenizer's (padded
    embeddings), so that every id the model can emit is accepted by `decode`.
    """
    folder = os.fspath(path)
    tokenizer_file = os.path.join(folder, "tokenizer.json")
    if not os.path.isfile(tokenizer_file):
        raise ModelLoadError(f"no tokenizer.json in {folder!r}")
    try:
        backend = tokenizers.Tokenizer.from_file(tokenizer_file)
    except Exception as exc:  # the Rust side raises plain Exception on malformed JSON
        raise ModelLoadError(f"cannot read {tokenizer_file!r}: {exc}") from exc
    config = _read_json(os.path.join(folder, "tokenizer_config.json"))
    model_config = _read_json(os.path.join(folder, "config.json"))
    generation = _read_json(os.path.join(folder, "generation_config.json"))

    def token_id(token: Any) -> int | None:
        if isinstance(token, Mapping):  # older configs store AddedToken dicts
            token = token.get("content")
        return backend.token_to_id(token) if isinstance(token, str) else None

    bos_id = token_id(config.get("bos_token"))
    if bos_id is None:
        bos_id = _first_id(model_config.get("bos_token_id"))
    eos_ids: list[int] = []
    for source in (generation.get("eos_token_id"), model_config.get("eos_token_id")):
        eos_ids += _id_list(source)
    config_eos = token_id(config.get("eos_token"))
    if config_eos is not None:
        eos_ids.append(config_eos)
    template = _hf_chat_template(folder, config)
    eos_ids += _end_of_turn_ids(backend, template, architecture)
    num_ids = max(backend.get_vocab_size(), vocab_size or 0)
    return TokenizerParts(
        backend,
        bos_token_id=bos_id,
        eos_token_ids=eos_ids,
        chat_template=template,
        vocab_size=num_ids,
    )

def byte_level_parts(vocab_size: int) -> TokenizerParts:
    """A tokenizer with one token per byte plus ChatML specials, for dummy weights.

    Ids are 0..255 for bytes, then the specials; `vocab_size` (the model's) must leave room.
    """
    num_ids = 256 + len(_BYTE_LEVEL_SPECIALS)
    if vocab_size < num_ids:
        raise ModelLoadError(
            f"vocab_size {vocab_size} is too small for a byte-level tokenizer "
            f"(needs at least {num_ids})"
        )
    vocab = {_BYTE_ALPHABET[b]: b for b in range(256)}
    backend = _byte_level_backend(vocab, [], pre_tokenizers.ByteLevel(add_prefix_space=False))
    backend.add_special_tokens(
        [AddedToken(t, special=True, normalized=False) for t in _BYTE_LEVEL_SPECIALS]
    )
    ids = {t: backend.token_to_id(t) for t in _BYTE_LEVEL_SPECIALS}
    return TokenizerParts(
        backend,
        bos_token_id=None,
        eos_token_ids=(ids["<|im_end|>"], ids["<|endoftext|>"]),
        chat_template=None,
        vocab_size=vocab_size,
    )


def _byte_level_backend(
    vocab: dict[str, int], merges: list[tuple[str, str]], pre: pre_tokenizers.PreTokenizer
) -> tokenizers.Tokenizer:
    backend = tokenizers.Tokenizer(models.BPE(vocab=vocab, merges=merges, fuse_unk=False))
    backend.pre_tokenizer = pre
    backend.decoder = decoders.ByteLevel()
    return backend


def _byte_level_bpe(tokens: list[str], merges: list[str], pre: str) -> tokenizers.Tokenizer:
    pre_tokenizer = _pre_tokenizer(pre)
    vocab: dict[str, int] = {}
    for index, token in enumerate(tokens):
        # Some converters store a token in plain UTF-8 rather than the byte alphabet; respell it
        # so that BPE can reach it from bytes.
        if not set(token) <= _BYTE_CHARS:
            token = "".join(_BYTE_ALPHABET[b] for b in token.encode("utf-8"))
        vocab.setdefault(token, index)
    pairs: list[tuple[str, str]] = []
    for merge in merges:
        left, sep, right = merge.partition(" ")
        if not sep:
            raise ModelLoadError(f"malformed GGUF merge {merge!r}")
        pairs.append((left, right))
    try:
        return _byte_level_backend(vocab, pairs, pre_tokenizer)
    except Exception as exc:  # tokenizers rejects merges whose parts are not in the vocabulary
        raise ModelLoadError(f"GGUF vocabulary and merges do not fit together: {exc}") from exc


def _add_marked_tokens(
    backend: tokenizers.Tokenizer, tokens: list[str], token_types: list[int]
) -> None:
    """Make control tokens special (one id, skipped on decode) and user-defined ones whole."""
    control = [
        AddedToken(token, special=True, normalized=False)
        for token, kind in zip(tokens, token_types, strict=False)
        if kind == _TOKEN_TYPE_CONTROL and set(token) <= _BYTE_CHARS
    ]
    user = [
        AddedToken(token, special=False, normalized=False)
        for token, kind in zip(tokens, token_types, strict=False)
        if kind == _TOKEN_TYPE_USER_DEFINED and set(token) <= _BYTE_CHARS
    ]
    if control:
        backend.add_special_tokens(control)
    if user:
        backend.add_tokens(user)


def _edge_tokens_processor(
    backend: tokenizers.Tokenizer, bos_id: int | None, eos_id: int | None
) -> processors.PostProcessor | None:
    if bos_id is None and eos_id is None:
        return None
    head = [] if bos_id is None else [backend.id_to_token(bos_id)]
    tail = [] if eos_id is None else [backend.id_to_token(eos_id)]
    single = [*head, "$A", *tail]
    pair = [*head, "$A", *tail, *head, "$B:1", *tail]
    specials = [(backend.id_to_token(i), i) for i in (bos_id, eos_id) if i is not None]
    return processors.TemplateProcessing(single=single, pair=pair, special_tokens=specials)


def _end_of_turn_ids(
    backend: tokenizers.Tokenizer, chat_template: str | None, architecture: str
) -> list[int]:
    specials = {
        token.content: token_id
        for token_id, token in backend.get_added_tokens_decoder().items()
        if token.special
    }
    # With no template of its own the model is prompted in ChatML (see chat_template.py).
    template = chat_template if chat_template is not None else CHATML_TEMPLATE
    found = [specials[t] for t in _END_OF_TURN_TOKENS if t in specials and t in template]
    found += [
        specials[t] for t in _EXTRA_EOS_BY_ARCHITECTURE.get(architecture, ()) if t in specials
    ]
    return found


def _read_json(path: str) -> dict[str, Any]:
    if not os.path.isfile(path):
        return {}
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError) as exc:
        raise ModelLoadError(f"cannot read {path!r}: {exc}") from exc
    if not isinstance(data, dict):
        raise ModelLoadError(f"{path!r} does not hold a JSON object")
    return data


def _id_list(value: Any) -> list[int]:
    if isinstance(value, int):
        return [value]
    if isinstance(value, list):
        return [v for v in value if isinstance(v, int)]
    return []


def _first_id(value: Any) -> int | None:
    ids = _id_list(value)
    return ids[0] if ids else None


def _hf_chat_template(folder: str, config: Mapping[str, Any]) -> str | None:
    # Newer transformers save the template beside the config as chat_template.jinja.
    jinja_file = os.path.join(folder, "chat_template.jinja")
    if os.path.isfile(jinja_file):
        with open(jinja_file, encoding="utf-8") as f:
            return f.read()
    template = config.get("chat_template")
    if isinstance(template, list):  # named templates: [{"name": ..., "template": ...}]
        named = {t.get("name"): t.get("template") for t in template if isinstance(t, Mapping)}
        template = named.get("default")
    return template if isinstance(template, str) else None
