"""The MiniLM embedder the rails run: the retrieval embedder's encoder in bf16 (bf16_bert.py).

Why a sibling and not the retrieval embedder itself: the rails' latency budget is a few tens of
milliseconds per message, and MiniLM runs ~1.5-3x faster in bf16 on a CPU that multiplies it
natively. Retrieval keeps float32, so the vectors already in its indexes stay comparable with
new queries. The sibling shares the tokenizer, the embedding tables (the largest tensors) and
the LayerNorms with the embedder it was made from and adds ~21 MB of bf16 weights. Measured
against float32: embeddings agree to a cosine of at least 0.9999 and no decision of the default
input rails changed on the dev set and the held-out sets (guardrails/HISTORY.md).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from guardrails.models.bf16_bert import Bf16Bert
from guardrails.models.bf16_linear import native_bf16

if TYPE_CHECKING:
    from retrieval.embedder import Embedder


def rail_embedder(embedder: Embedder, bf16: bool | None = None) -> Embedder:
    """`bf16`: None picks bf16 when the CPU multiplies it natively; False returns `embedder`."""
    if bf16 is None:
        bf16 = native_bf16()
    if not bf16:
        return embedder
    encoder = Bf16Bert(embedder.encoder)  # type: ignore[arg-type]
    encoder.warm_up(embedder.max_seq_length)
    return embedder.with_encoder(encoder)  # type: ignore[arg-type]
