"""The WebSocket frames of PROTOCOL.md as pydantic models (client -> server and back)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from app.errors import InvalidRequestError
from app.textcheck import reject_nul

ID_PATTERN = r"^[A-Za-z0-9_-]{1,64}$"


class _Frame(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ChatParams(_Frame):
    temperature: float | None = Field(None, ge=0, le=100)
    top_p: float | None = Field(None, gt=0, le=1)
    top_k: int | None = Field(None, ge=-1)
    max_tokens: int | None = Field(None, ge=1)
    seed: int | None = Field(None, ge=0, le=2**63 - 1)
    stop: list[Annotated[str, Field(min_length=1, max_length=200)]] | None = Field(
        None, max_length=16
    )


class ChatFrame(_Frame):
    type: Literal["chat"]
    conversation_id: str | None = Field(None, pattern=ID_PATTERN)
    content: str = Field(min_length=1)
    params: ChatParams | None = None
    documents: bool = True
    # Added field (edit and resend): the id of the conversation's last user message, which
    # this one replaces; the old message and its answers leave the prompt history.
    replaces: str | None = Field(None, pattern=ID_PATTERN)


class CancelFrame(_Frame):
    type: Literal["cancel"]
    message_id: str = Field(pattern=ID_PATTERN)


class RegenerateFrame(_Frame):
    type: Literal["regenerate"]
    conversation_id: str = Field(pattern=ID_PATTERN)
    params: ChatParams | None = None


class ResumeFrame(_Frame):
    type: Literal["resume"]
    message_id: str = Field(pattern=ID_PATTERN)
    after: int = Field(0, ge=0)


class PingFrame(_Frame):
    type: Literal["ping"]


ClientFrame = Annotated[
    ChatFrame | CancelFrame | RegenerateFrame | ResumeFrame | PingFrame,
    Field(discriminator="type"),
]
_client_frame: TypeAdapter[ClientFrame] = TypeAdapter(ClientFrame)


class InvalidFrameError(InvalidRequestError):
    code = "invalid_frame"


def parse_client_frame(data: Any) -> ClientFrame:
    """Validate decoded JSON as a client frame; a typed error says which field is wrong."""
    if not isinstance(data, dict):
        raise InvalidFrameError(f"a frame must be a JSON object, got {type(data).__name__}")
    try:
        reject_nul(data, "frame")
    except InvalidRequestError as exc:
        raise InvalidFrameError(exc.message) from None
    kind = data.get("type")
    if kind not in ("chat", "cancel", "regenerate", "resume", "ping"):
        raise InvalidFrameError(f"unknown frame type {kind!r}")
    try:
        return _client_frame.validate_python(data)
    except ValidationError as exc:
        raise InvalidFrameError(_describe(exc)) from None


def _describe(exc: ValidationError) -> str:
    first = exc.errors(include_url=False, include_input=False)[0]
    where = ".".join(str(p) for p in first["loc"][1:]) or "frame"
    return f"{where}: {first['msg']}"


# --------------------------------------------------------------------------- server -> client


class Usage(_Frame):
    prompt_tokens: int
    completion_tokens: int
    cached_tokens: int


class Source(_Frame):
    document_id: str
    chunk_id: str  # the chunk's database id, as a string like every id in the protocol
    filename: str
    score: float
    text: str


class StartFrame(_Frame):
    type: Literal["start"] = "start"
    conversation_id: str
    user_message_id: str
    message_id: str


class DeltaFrame(_Frame):
    type: Literal["delta"] = "delta"
    message_id: str
    index: int
    text: str


class CitationsFrame(_Frame):
    type: Literal["citations"] = "citations"
    message_id: str
    sources: list[Source]


class BlockedFrame(_Frame):
    type: Literal["blocked"] = "blocked"
    message_id: str
    stage: Literal["input", "output"]
    rail: str
    reason: str


FinishReason = Literal["stop", "length", "cancelled", "blocked", "error"]


class UnsupportedSentence(_Frame):
    """A sentence of an answer that the retrieved sources do not support (grounding check);
    `start`/`end` are character offsets into the answer's stored text."""

    start: int
    end: int
    text: str
    reason: str


class DoneFrame(_Frame):
    type: Literal["done"] = "done"
    message_id: str
    finish_reason: FinishReason
    usage: Usage
    # Added field: how many of the oldest turns were left out to fit the model's context.
    dropped_turns: int = 0
    # Added field, sent only when not empty: sentences the grounding check flagged.
    unsupported: list[UnsupportedSentence] = Field(default_factory=list)


class ErrorFrame(_Frame):
    type: Literal["error"] = "error"
    code: str
    message: str
    message_id: str | None = None


class PongFrame(_Frame):
    type: Literal["pong"] = "pong"


ServerFrame = (
    StartFrame | DeltaFrame | CitationsFrame | BlockedFrame | DoneFrame | ErrorFrame | PongFrame
)


def frame_json(frame: ServerFrame) -> dict[str, Any]:
    data = frame.model_dump()
    if isinstance(frame, ErrorFrame) and frame.message_id is None:
        del data["message_id"]
    if isinstance(frame, DoneFrame) and not frame.unsupported:
        del data["unsupported"]
    return data
