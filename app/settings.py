"""All of Hearth's settings in one pydantic-settings tree.

This is the only module that reads the environment (`HEARTH_` prefix, nested with `__`, plus an
optional `.env` file). Everything else receives the frozen `Settings` object or one of its parts.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from guardrails import settings as _rails

if TYPE_CHECKING:
    from engine.config import EngineConfig

MiB = 1024 * 1024


class _Part(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ServerSettings(_Part):
    host: str = Field("127.0.0.1", description="address to listen on")
    port: int = Field(8000, ge=0, le=65535, description="TCP port")
    allowed_origins: list[str] = Field(
        default_factory=list,
        description="extra browser origins allowed to open the WebSocket",
    )
    drain_seconds: float = Field(
        20.0, ge=0, description="on SIGTERM, how long running generations may take to finish"
    )
    log_level: str = "info"
    finished_generation_retention_seconds: float = Field(
        120.0, ge=0, description="how long a finished generation stays in memory for fast resume"
    )
    ready_stall_seconds: float = Field(
        30.0, gt=0, description="/ready fails when the engine has work but no step for this long"
    )


class EngineSettings(_Part):
    model: str = Field("default", description="GGUF file, Hugging Face folder or 'default'")
    dtype: str = "auto"
    device: str = "auto"
    block_size: int = 16
    num_kv_blocks: int | None = None
    kv_cache_memory_bytes: int = 512 * MiB
    max_model_len: int | None = None
    max_num_seqs: int = 64
    max_num_batched_tokens: int = 512
    enable_prefix_caching: bool = True
    num_threads: int | None = None
    seed: int = 0
    attention_backend: Literal["auto", "torch", "triton"] = Field(
        "auto", description="Triton kernels on CUDA ('auto'), or the torch path"
    )
    quantization: Literal["auto", "none", "gguf", "int8"] = Field(
        "none", description="keep GGUF weights packed ('gguf'), int8 weight-only, or dequantize"
    )
    cuda_graphs: Literal["auto", "off", "static"] = Field(
        "auto", description="decode steps under CUDA graphs on a GPU ('auto') or eager ('off')"
    )
    layer_kernels: Literal["auto", "torch", "triton"] = Field(
        "auto", description="norms, rotary and SiLU as Triton kernels on CUDA ('auto'), or torch"
    )

    def to_engine_config(self) -> EngineConfig:
        from engine.config import EngineConfig

        return EngineConfig(
            model=self.model,
            dtype=self.dtype,
            device=self.device,
            block_size=self.block_size,
            num_kv_blocks=self.num_kv_blocks,
            kv_cache_memory_bytes=self.kv_cache_memory_bytes,
            max_model_len=self.max_model_len,
            max_num_seqs=self.max_num_seqs,
            max_num_batched_tokens=self.max_num_batched_tokens,
            enable_prefix_caching=self.enable_prefix_caching,
            num_threads=self.num_threads,
            seed=self.seed,
            attention_backend=self.attention_backend,
            quantization=self.quantization,
            cuda_graphs=self.cuda_graphs,
            layer_kernels=self.layer_kernels,
        )


class LimitSettings(_Part):
    max_message_chars: int = Field(32_000, gt=0, description="longest chat message accepted")
    max_frame_bytes: int = Field(1 * MiB, gt=0, description="largest WebSocket frame accepted")
    max_upload_bytes: int = Field(20 * MiB, gt=0, description="largest document upload")
    max_request_bytes: int = Field(2 * MiB, gt=0, description="largest JSON request body")
    max_concurrent_generations_per_user: int = Field(4, gt=0)
    messages_per_minute: int = Field(30, gt=0, description="chat messages per user per minute")
    max_active_generations: int = Field(
        128, gt=0, description="generations admitted at once; more get 'overloaded'"
    )
    max_engine_waiting: int = Field(
        64, ge=0, description="requests allowed to wait in the engine queue before 'overloaded'"
    )


class AuthSettings(_Part):
    signup_open: bool = True
    token_ttl_hours: float = Field(24 * 30, gt=0)
    cookie_name: str = "hearth_session"
    cookie_secure: bool = False
    metrics_token: str | None = Field(None, description="if set, /metrics needs this bearer token")
    scrypt_n: int = Field(2**14, ge=2, description="scrypt cost (a power of two)")


class ChatSettings(_Part):
    default_system_prompt: str | None = None
    default_max_tokens: int = Field(512, gt=0)
    max_tokens_limit: int = Field(4096, gt=0)
    default_temperature: float = 0.7
    flush_interval_seconds: float = Field(
        0.5, gt=0, description="streaming answers are written to the database this often"
    )
    title_chars: int = 60


# The guardrails package's rail names and defaults (guardrails/settings.py), in one place:
# names are checked when settings load; the app adds grounding, since it shares an embedder.
INPUT_RAIL_NAMES = tuple(sorted(_rails.INPUT_RAILS))
OUTPUT_RAIL_NAMES = tuple(sorted(_rails.OUTPUT_RAILS))
_RAIL_DEFAULTS = _rails.GuardrailSettings()


class GuardrailSettings(_Part):
    """Which rails run and how each is tuned, by the guardrails package's names. Lists are
    JSON in the environment, e.g. HEARTH_GUARDRAILS__DENY_TERMS='["acme secret"]'."""

    enabled: bool = Field(True, description="check every chat turn and /v1 completion")
    input_rails: list[str] = Field(
        default_factory=lambda: list(_RAIL_DEFAULTS.input_rails),
        description="input rails, in order (cheap first; the first block stops the rest)",
    )
    output_rails: list[str] = Field(
        default_factory=lambda: [*_RAIL_DEFAULTS.output_rails, "grounding"],
        description="output rails on the stream; 'grounding' checks answers that used documents; "
        "'harmful_output' (a classifier on each window, off by default) can be added",
    )
    disabled_rails: list[str] = Field(
        default_factory=list, description="rail names taken out of both lists"
    )
    redact_input: bool = Field(
        False, description="store user messages with PII replaced (the model sees that text)"
    )
    refusal_text: str = Field(
        "Sorry, I can't help with that.", description="/v1 answer content when a rail blocks"
    )
    deny_terms: list[str] = Field(default_factory=list, description="words and phrases to block")
    deny_patterns: list[str] = Field(
        default_factory=list, description="regular expressions to block (case-insensitive)"
    )
    injection_classifier_threshold: float | None = Field(
        None, gt=0, lt=1, description="MiniLM injection head threshold; default the head's own"
    )
    harmful_classifier_threshold: float | None = Field(
        None, gt=0, lt=1,
        description="MiniLM harmful-request head threshold; default the head's own",
    )
    multilingual_classifier_threshold: float | None = Field(
        None, gt=0, lt=1,
        description="character n-gram classifier threshold (messages not in English); "
        "default the model's own",
    )
    multilingual_classifier_script_threshold: float | None = Field(
        None, gt=0, lt=1,
        description="character n-gram classifier threshold for messages in other scripts "
        "(MiniLM's heads leave those to it); default the model's own",
    )
    multilingual_classifier_latin_threshold: float | None = Field(
        None, gt=0, lt=1,
        description="character n-gram classifier threshold for Latin-script messages in other "
        "languages (MiniLM's heads leave those to it); default the model's own",
    )
    harmful_judge_threshold: float | None = Field(
        None, gt=0, lt=1,
        description="harmful-request judge threshold (runs with the 'tuned' backend only); "
        "default the judge's own",
    )
    harmful_judge_gate: float | None = Field(
        None, ge=0, lt=1,
        description="the judge runs only when the harmful-request classifier scored at least "
        "this (0: always); default the gate stored with the judge",
    )
    harmful_output_threshold: float | None = Field(
        None, gt=0, lt=1,
        description="threshold of the output rail 'harmful_output' (a head over the tuned "
        "MiniLM on each streamed window of the answer); default the head's own",
    )
    classifier_backend: Literal["auto", "tuned", "tuned_l3", "frozen"] = Field(
        _RAIL_DEFAULTS.classifier_backend,  # type: ignore[arg-type]
        description="classifier heads over the LoRA-tuned MiniLM ('tuned'), its 3-layer "
        "student ('tuned_l3'), the shared MiniLM ('frozen'); 'auto': 'tuned' on a CPU with "
        "native bf16, else 'tuned_l3'",
    )
    injection_model_threshold: float = Field(
        0.999, gt=0, le=1, description="NanoGuard block threshold"
    )
    injection_model_gate: float = Field(
        0.1, ge=0, lt=1,
        description="NanoGuard runs only when the classifier scored at least this (0: always)",
    )
    chunk_size: int = Field(120, ge=1, description="streamed characters checked per output window")
    context_size: int = Field(
        100, ge=0, description="released characters carried into the next output window"
    )
    leak_ngram: int = Field(6, ge=2, description="word n-gram size of the system-prompt leak rail")
    leak_threshold: float = Field(
        0.4, gt=0, le=1, description="share of the system prompt's n-grams that blocks an answer"
    )
    grounding_min_similarity: float = Field(
        0.55, ge=0, le=1, description="cosine similarity to a source that supports a sentence"
    )
    grounding_min_overlap: float = Field(
        0.6, ge=0, le=1,
        description="share of a sentence's content words found in the sources that supports",
    )

    @property
    def active_input_rails(self) -> tuple[str, ...]:
        names = [n for n in self.input_rails if n not in self.disabled_rails]
        if self.redact_input and "pii" not in names and "pii" not in self.disabled_rails:
            names.append("pii")
        return tuple(names)

    @property
    def active_output_rails(self) -> tuple[str, ...]:
        return tuple(n for n in self.output_rails if n not in self.disabled_rails)

    @model_validator(mode="after")
    def _known_rails(self) -> GuardrailSettings:
        for stage, names, known in (
            ("input", self.input_rails, INPUT_RAIL_NAMES),
            ("output", self.output_rails, OUTPUT_RAIL_NAMES),
            ("disabled", self.disabled_rails, (*INPUT_RAIL_NAMES, *OUTPUT_RAIL_NAMES)),
        ):
            for name in names:
                if name not in known:
                    raise ValueError(
                        f"unknown {stage} rail {name!r}; known: {', '.join(sorted(set(known)))}"
                    )
            if stage != "disabled" and len(set(names)) != len(names):
                raise ValueError(f"{stage} rails listed twice: {names!r}")
        for term in self.deny_terms:
            if not term.strip():
                raise ValueError(f"deny term {term!r} is blank")
        for pattern in self.deny_patterns:
            try:
                re.compile(pattern)
            except re.error as exc:
                raise ValueError(f"deny pattern {pattern!r} is invalid: {exc}") from None
        return self


class RetrievalSettings(_Part):
    enabled: bool = Field(True, description="documents and retrieval in chat turns")
    top_k: int = Field(4, gt=0, le=100, description="sources retrieved per chat turn")
    min_score: float = Field(0.3, description="least cosine similarity a source needs")
    hybrid: bool = Field(True, description="rescore semantic hits with BM25 keyword scores")
    lexical_weight: float = Field(0.3, ge=0, le=1, description="BM25's share in hybrid scores")
    context_tokens: int = Field(1024, gt=0, description="most prompt tokens sources may take")
    # Retrieval's measured default: 128-token chunks retrieve as well as 254-token ones and
    # leave room for more sources in the prompt.
    chunk_tokens: int = Field(128, ge=16)
    chunk_overlap: int = Field(24, ge=0)
    index_kind: Literal["flat", "hnsw"] = Field("flat", description="FAISS index type")
    embedding_model: str | None = Field(
        None, description="all-MiniLM-L6-v2 folder; default the installed package's"
    )
    embed_batch_size: int = Field(32, gt=0)
    max_concurrent_ingestions: int = Field(
        1, gt=0, description="uploads embedded at once (embedding shares the CPU with the model)"
    )

    @model_validator(mode="after")
    def _overlap_fits(self) -> RetrievalSettings:
        if self.chunk_overlap > self.chunk_tokens // 2:
            raise ValueError(
                f"chunk_overlap must be at most chunk_tokens/2 = {self.chunk_tokens // 2}, "
                f"got {self.chunk_overlap}"
            )
        return self


class OpenAISettings(_Part):
    store_conversations: bool = Field(
        False, description="store /v1/chat/completions exchanges as conversations"
    )


class Settings(BaseSettings):
    """The whole configuration. Immutable once built."""

    model_config = SettingsConfigDict(
        env_prefix="HEARTH_",
        env_nested_delimiter="__",
        env_file=".env",
        extra="ignore",
        frozen=True,
    )

    data_dir: Path = Field(Path("data"), description="data folder (database, indexes)")
    database_url: str | None = Field(
        None, description="SQLAlchemy async URL; default SQLite in the data folder"
    )
    database_schema: str | None = Field(
        None, description="PostgreSQL schema to use (search_path); default the server's"
    )
    server: ServerSettings = Field(default_factory=ServerSettings)
    engine: EngineSettings = Field(default_factory=EngineSettings)
    limits: LimitSettings = Field(default_factory=LimitSettings)
    auth: AuthSettings = Field(default_factory=AuthSettings)
    chat: ChatSettings = Field(default_factory=ChatSettings)
    guardrails: GuardrailSettings = Field(default_factory=GuardrailSettings)
    retrieval: RetrievalSettings = Field(default_factory=RetrievalSettings)
    openai: OpenAISettings = Field(default_factory=OpenAISettings)

    @property
    def resolved_database_url(self) -> str:
        if self.database_url:
            return self.database_url
        return f"sqlite+aiosqlite:///{(self.data_dir / 'hearth.db').as_posix()}"


def load_settings(**overrides: object) -> Settings:
    """Build the settings from the environment and `.env`, with explicit overrides on top."""
    return Settings(**overrides)  # type: ignore[arg-type]
