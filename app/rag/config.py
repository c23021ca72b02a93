"""The app's retrieval settings as the retrieval package's frozen configuration."""

from __future__ import annotations

from pathlib import Path

from app.settings import Settings
from retrieval.chunking import ChunkingSettings
from retrieval.index import IndexSettings
from retrieval.limits import ParseLimits
from retrieval.retriever import RetrievalConfig
from retrieval.search import SearchSettings


def index_folder(settings: Settings) -> Path:
    return settings.data_dir / "index"


def retrieval_config(settings: Settings) -> RetrievalConfig:
    r = settings.retrieval
    return RetrievalConfig(
        chunking=ChunkingSettings(max_tokens=r.chunk_tokens, overlap_tokens=r.chunk_overlap),
        index=IndexSettings(kind=r.index_kind),
        search=SearchSettings(hybrid=r.hybrid, lexical_weight=r.lexical_weight),
        parse_limits=ParseLimits(max_bytes=settings.limits.max_upload_bytes),
        embed_batch_size=r.embed_batch_size,
    )
