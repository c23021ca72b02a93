"""Render a model's Jinja chat template into the prompt text it was trained on."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any, NoReturn

import jinja2
from jinja2.ext import loopcontrols
from jinja2.sandbox import ImmutableSandboxedEnvironment

from engine.errors import InvalidRequestError, ModelLoadError

# Used when a model ships no template (base models, dummy weights). ChatML is the format the
# default model (SmolLM2) and Qwen2 were tuned on, and its markers are special tokens in their
# vocabularies (and in the byte-level dummy tokenizer), so it is the least surprising default.
CHATML_TEMPLATE = (
    "{% for message in messages %}"
    "{{ '<|im_start|>' + message['role'] + '\n' + message['content'] + '<|im_end|>\n' }}"
    "{% endfor %}"
    "{% if add_generation_prompt %}{{ '<|im_start|>assistant\n' }}{% endif %}"
)


class ChatTemplateError(InvalidRequestError):
    """The chat template refused the messages, or failed while rendering them."""


def _raise_exception(message: str) -> NoReturn:
    # Templates call raise_exception("...") to reject conversations they cannot format.
    raise ChatTemplateError(f"chat template rejected the messages: {message}")


def _tojson(
    value: Any, ensure_ascii: bool = False, indent: int | None = None, sort_keys: bool = False
) -> str:
    # Jinja's own tojson escapes HTML characters, which would change the prompt's bytes.
    return json.dumps(value, ensure_ascii=ensure_ascii, indent=indent, sort_keys=sort_keys)


def _strftime_now(fmt: str) -> str:
    return datetime.now().strftime(fmt)


def _make_environment() -> ImmutableSandboxedEnvironment:
    # trim_blocks/lstrip_blocks as transformers sets them: templates are written for that, and
    # byte-identical prompts matter for the prefix cache and for parity with the reference.
    env = ImmutableSandboxedEnvironment(
        trim_blocks=True, lstrip_blocks=True, extensions=[loopcontrols]
    )
    env.filters["tojson"] = _tojson
    env.globals["raise_exception"] = _raise_exception
    env.globals["strftime_now"] = _strftime_now
    return env


_ENVIRONMENT = _make_environment()


class ChatTemplate:
    """A compiled chat template; safe to share between threads (rendering keeps no state)."""

    def __init__(
        self, source: str, *, bos_token: str | None = None, eos_token: str | None = None
    ) -> None:
        try:
            self._template = _ENVIRONMENT.from_string(source)
        except jinja2.TemplateSyntaxError as exc:
            raise ModelLoadError(
                f"chat template does not compile (line {exc.lineno}): {exc.message}"
            ) from exc
        self.source = source
        # Templates see only the tokens that exist, as transformers does: an unset token is
        # undefined (renders as "") rather than the string "None".
        self._special_tokens = {
            name: token
            for name, token in (("bos_token", bos_token), ("eos_token", eos_token))
            if token is not None
        }

    def render(
        self, messages: Sequence[Mapping[str, Any]], add_generation_prompt: bool = True
    ) -> str:
        checked = _check_messages(messages)
        try:
            return self._template.render(
                messages=checked,
                add_generation_prompt=add_generation_prompt,
                **self._special_tokens,
            )
        except ChatTemplateError:
            raise
        except (jinja2.TemplateError, TypeError, ValueError, KeyError, IndexError) as exc:
            raise ChatTemplateError(f"chat template failed to render: {exc!r}") from exc


def _check_messages(messages: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    if isinstance(messages, str | bytes) or not isinstance(messages, Sequence):
        raise ChatTemplateError(f"messages must be a list of dicts, got {type(messages).__name__}")
    checked: list[dict[str, Any]] = []
    for index, message in enumerate(messages):
        if not isinstance(message, Mapping):
            raise ChatTemplateError(f"message {index} is not a dict: {message!r}")
        role, content = message.get("role"), message.get("content")
        if not isinstance(role, str) or not role:
            raise ChatTemplateError(f"message {index} has no string 'role': {role!r}")
        if not isinstance(content, str):
            raise ChatTemplateError(f"message {index} has no string 'content': {content!r}")
        checked.append(dict(message))
    return checked
