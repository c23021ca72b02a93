"""The MiniLM embedder the rails run: the retrieval embedder's encoder with bf16 linear layers.

Why a sibling and not the retrieval embedder itself: the rails' latency budget is a few tens of
milliseconds per message, and at chat-message lengths MiniLM's matmuls are bound by reading
their float32 weights (~2x faster in bf16, prepacked). Retrieval keeps float32, so the vectors
already in its indexes stay comparable with new queries. The sibling shares the tokenizer and
the token-embedding tables (the largest tensors) with the embedder it was made from and adds
~21 MB of bf16 weights. Measured against float32: embeddings agree to a cosine of at least
0.9999, and no decision of the default input rails changed on the dev set, the S-Labs and
neuralchemy test splits or the harmful hold-out v2 (3,406 rows); MiniLM runs ~1.5-2x faster.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING

from guardrails.models.bf16_linear import native_bf16, swap_linears

if TYPE_CHECKING:
    from retrieval.embedder import Embedder


def rail_embedder(embedder: Embedder, bf16: bool | None = None) -> Embedder:
    """`bf16`: None picks bf16 when the CPU multiplies it natively; False returns `embedder`."""
    if bf16 is None:
        bf16 = native_bf16()
    if not bf16:
        return embedder
    encoder = embedder.encoder
    # Copies the modules, not the tensors: every parameter and buffer is shared through the
    # memo, then the clone's linear layers are replaced by bf16 copies of their weights.
    tensors = [*encoder.parameters(), *encoder.buffers()]
    clone = copy.deepcopy(encoder, memo={id(t): t for t in tensors})
    swap_linears(clone.encoder)
    return embedder.with_encoder(clone)
