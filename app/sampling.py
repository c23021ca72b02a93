"""Client sampling parameters -> engine SamplingParams, with the server's defaults and caps."""

from __future__ import annotations

from app.errors import InvalidRequestError
from app.protocol import ChatParams
from app.settings import ChatSettings
from engine.errors import InvalidSamplingParamsError
from engine.sampling_params import SamplingParams


def to_sampling_params(params: ChatParams | None, chat: ChatSettings) -> SamplingParams:
    p = params or ChatParams()
    max_tokens = p.max_tokens if p.max_tokens is not None else chat.default_max_tokens
    if max_tokens > chat.max_tokens_limit:
        raise InvalidRequestError(
            f"max_tokens must be at most {chat.max_tokens_limit}, got {max_tokens}"
        )
    return build_sampling_params(
        max_tokens=max_tokens,
        temperature=p.temperature if p.temperature is not None else chat.default_temperature,
        top_p=p.top_p if p.top_p is not None else 1.0,
        top_k=p.top_k if p.top_k is not None else 0,
        seed=p.seed,
        stop=list(p.stop or []),
    )


def build_sampling_params(**values: object) -> SamplingParams:
    """SamplingParams, with the engine's range errors turned into the app's typed error."""
    try:
        return SamplingParams(**values)  # type: ignore[arg-type]
    except InvalidSamplingParamsError as exc:
        raise InvalidRequestError(str(exc)) from None
