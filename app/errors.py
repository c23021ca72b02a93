"""Typed errors the app raises on purpose, each mapped to a status code and an error code.

HTTP routes answer them as `{"error": {"code", "message"}}`; the WebSocket sends them as
`error` frames. The message always names the offending value and never carries a traceback.
"""

from __future__ import annotations


class AppError(Exception):
    status: int = 400
    code: str = "bad_request"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class InvalidJsonError(AppError):
    status, code = 400, "invalid_json"


class InvalidRequestError(AppError):
    status, code = 422, "invalid_request"


class UnauthorizedError(AppError):
    status, code = 401, "unauthorized"


class ForbiddenError(AppError):
    status, code = 403, "forbidden"


class NotFoundError(AppError):
    status, code = 404, "not_found"


class ConflictError(AppError):
    status, code = 409, "conflict"


class PayloadTooLargeError(AppError):
    status, code = 413, "payload_too_large"


class UnsupportedMediaTypeError(AppError):
    status, code = 415, "unsupported_media_type"


class UnreadableDocumentError(AppError):
    """An upload of a supported type from which no text can be taken (empty, broken, ...)."""

    status, code = 422, "unreadable_document"


class RateLimitedError(AppError):
    status, code = 429, "rate_limited"


class OverloadedError(AppError):
    status, code = 503, "overloaded"


class ContextLengthError(AppError):
    status, code = 400, "context_length_exceeded"


class UnavailableError(AppError):
    status, code = 503, "unavailable"
