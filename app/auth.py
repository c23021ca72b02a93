"""Passwords (scrypt), bearer tokens (random, stored as SHA-256) and request authentication."""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass

from app.errors import InvalidRequestError

USERNAME_RE = re.compile(r"^[A-Za-z0-9_.-]{3,32}$")
MIN_PASSWORD_CHARS = 8
MAX_PASSWORD_CHARS = 1024
TOKEN_PREFIX = "hth_"
_SCRYPT_R, _SCRYPT_P, _SCRYPT_LEN = 8, 1, 32


@dataclass(frozen=True, slots=True)
class AuthUser:
    """The authenticated caller, as routes and the chat pipeline see it."""

    id: str
    username: str
    role: str
    token_id: str

    @property
    def is_admin(self) -> bool:
        return self.role == "admin"


def validate_username(username: object) -> str:
    if not isinstance(username, str) or not USERNAME_RE.fullmatch(username):
        raise InvalidRequestError(
            f"username must be 3-32 characters of A-Z a-z 0-9 _ . -, got {username!r}"
        )
    return username


def validate_password(password: object) -> str:
    if not isinstance(password, str) or len(password) < MIN_PASSWORD_CHARS:
        raise InvalidRequestError(f"password must be at least {MIN_PASSWORD_CHARS} characters")
    if len(password) > MAX_PASSWORD_CHARS:
        raise InvalidRequestError(f"password must be at most {MAX_PASSWORD_CHARS} characters")
    return password


def hash_password(password: str, n: int = 2**14) -> str:
    """`scrypt$n$r$p$salt$hash`, hex-encoded; the cost travels with the hash."""
    salt = secrets.token_bytes(16)
    digest = _scrypt(password, salt, n, _SCRYPT_R, _SCRYPT_P)
    return f"scrypt${n}${_SCRYPT_R}${_SCRYPT_P}${salt.hex()}${digest.hex()}"


def verify_password(password: str, stored: str) -> bool:
    try:
        scheme, n, r, p, salt_hex, digest_hex = stored.split("$")
        if scheme != "scrypt":
            return False
        digest = _scrypt(password, bytes.fromhex(salt_hex), int(n), int(r), int(p))
    except ValueError:
        return False
    return hmac.compare_digest(digest, bytes.fromhex(digest_hex))


def dummy_verify(n: int) -> None:
    """Spend a password check's time when the user does not exist, so timing reveals nothing."""
    _scrypt("x" * MIN_PASSWORD_CHARS, b"\0" * 16, n, _SCRYPT_R, _SCRYPT_P)


def _scrypt(password: str, salt: bytes, n: int, r: int, p: int) -> bytes:
    return hashlib.scrypt(
        password.encode(), salt=salt, n=n, r=r, p=p, dklen=_SCRYPT_LEN, maxmem=256 * 1024 * 1024
    )


def new_token() -> str:
    return TOKEN_PREFIX + secrets.token_urlsafe(32)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def bearer_token(authorization: str | None) -> str | None:
    """The token in an `Authorization: Bearer <token>` header, if any."""
    if not authorization:
        return None
    scheme, _, value = authorization.partition(" ")
    if scheme.lower() != "bearer" or not value.strip():
        return None
    return value.strip()
