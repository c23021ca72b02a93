"""Text <-> token ids for one model, plus its chat template.

The runtime side: encoding, decoding and chat rendering over a `tokenizers` backend. How the
backend is built from a GGUF file, a Hugging Face folder or for dummy weights is in
engine/tokenizer_sources.py.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from typing import Any

import tokenizers

from engine.chat_template import CHATML_TEMPLATE, ChatTemplate
from engine.errors import InvalidRequestError, ModelLoadError
from engine.tokenizer_sources import (
    TokenizerParts,
    byte_level_parts,
    gguf_parts,
    hf_folder_parts,
)


class Tokenizer:
    """One model's tokenizer: ids, special tokens, stop tokens and chat template.

    `vocab_size` is the number of ids this tokenizer accepts in `decode` (for dummy models the
    model's vocabulary, which may be larger than the tokens it can spell; those decode to "").
    Bytes the vocabulary has no token for (SmolLM2 lacks a few control bytes, and the lead
    bytes of code points U+40000..U+BFFFF) are dropped by `encode`, as by the reference
    tokenizers built from the same vocabulary.
    Encoding and decoding are thread-safe: the `tokenizers` backend is only read.
    """

    def __init__(
        self,
        backend: tokenizers.Tokenizer,
        *,
        bos_token_id: int | None,
        eos_token_ids: Sequence[int],
        chat_template: str | None,
        vocab_size: int | None = None,
    ) -> None:
        self._backend = backend
        self.vocab_size = vocab_size if vocab_size is not None else backend.get_vocab_size()
        self.bos_token_id = bos_token_id
        self.eos_token_ids = tuple(dict.fromkeys(eos_token_ids))
        if not self.eos_token_ids:
            raise ModelLoadError("tokenizer has no end-of-sequence token")
        self.special_token_ids = frozenset(
            token_id
            for token_id, token in backend.get_added_tokens_decoder().items()
            if token.special
        )
        self.chat_template = chat_template
        bos = None if bos_token_id is None else backend.id_to_token(bos_token_id)
        self._template = ChatTemplate(
            chat_template if chat_template is not None else CHATML_TEMPLATE,
            bos_token=bos,
            eos_token=backend.id_to_token(self.eos_token_ids[0]),
        )
        self._literal_backend: tokenizers.Tokenizer | None = None
        self._literal_lock = threading.Lock()

    # ---- encoding / decoding -------------------------------------------------------------

    def encode(
        self, text: str, add_special_tokens: bool = False, *, split_special_tokens: bool = False
    ) -> list[int]:
        """Token ids of `text`.

        Special-token strings in the text (e.g. "<|im_start|>") encode as their single id, as the
        reference tokenizers do; with `split_special_tokens=True` they are tokenized as plain
        text instead, so that untrusted text cannot forge chat markers.
        """
        if not isinstance(text, str):
            raise InvalidRequestError(f"text to encode must be a str, got {type(text).__name__}")
        backend = self._literal() if split_special_tokens else self._backend
        return backend.encode(text, add_special_tokens=add_special_tokens).ids

    def decode(self, token_ids: Sequence[int], skip_special_tokens: bool = True) -> str:
        ids = list(token_ids)
        for token_id in ids:
            if not isinstance(token_id, int) or not 0 <= token_id < self.vocab_size:
                raise InvalidRequestError(
                    f"token id {token_id!r} is outside the vocabulary [0, {self.vocab_size})"
                )
        return self._backend.decode(ids, skip_special_tokens=skip_special_tokens)

    def id_to_token(self, token_id: int) -> str | None:
        """The vocabulary entry (byte-level spelling) of one id; None if the id has none."""
        return self._backend.id_to_token(token_id)

    def _literal(self) -> tokenizers.Tokenizer:
        # A second backend with special-token matching off; `encode_special_tokens` is a
        # mutable flag, so toggling it on the shared backend would race with other threads.
        with self._literal_lock:
            if self._literal_backend is None:
                literal = tokenizers.Tokenizer.from_str(self._backend.to_str())
                literal.encode_special_tokens = True
                self._literal_backend = literal
            return self._literal_backend

    # ---- chat ----------------------------------------------------------------------------

    def apply_chat_template(
        self, messages: list[dict[str, str]], add_generation_prompt: bool = True
    ) -> str:
        return self._template.render(messages, add_generation_prompt=add_generation_prompt)

    def encode_chat(
        self, messages: list[dict[str, str]], add_generation_prompt: bool = True
    ) -> list[int]:
        # The rendered template already holds the markers (and BOS if the template writes it).
        return self.encode(self.apply_chat_template(messages, add_generation_prompt))

    # ---- construction --------------------------------------------------------------------

    @classmethod
    def from_parts(cls, parts: TokenizerParts) -> Tokenizer:
        return cls(
            parts.backend,
            bos_token_id=parts.bos_token_id,
            eos_token_ids=parts.eos_token_ids,
            chat_template=parts.chat_template,
            vocab_size=parts.vocab_size,
        )

    @classmethod
    def from_gguf(cls, reader: Any) -> Tokenizer:
        """Rebuild the byte-level BPE tokenizer described by a GGUF file's metadata.

        `reader` is a `gguf.GGUFReader` (or a path to open with one).
        """
        return cls.from_parts(gguf_parts(reader))

    @classmethod
    def from_hf_folder(
        cls, path: str | os.PathLike[str], architecture: str = "", vocab_size: int | None = None
    ) -> Tokenizer:
        """Load tokenizer.json + tokenizer_config.json (+ generation_config.json) of a folder.

        `vocab_size`: the model's vocabulary when it is larger than the tokenizer's (padded
        embeddings), so that every id the model can emit is accepted by `decode`.
        """
        return cls.from_parts(hf_folder_parts(path, architecture, vocab_size))

    @classmethod
    def byte_level(cls, vocab_size: int) -> Tokenizer:
        """A tokenizer with one token per byte plus ChatML specials, for dummy weights.

        Ids are 0..255 for bytes, then the specials; `vocab_size` (the model's) must leave room.
        """
        return cls.from_parts(byte_level_parts(vocab_size))
