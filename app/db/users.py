"""Users and their tokens."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.auth import AuthUser, hash_token, new_token
from app.db.base import utcnow
from app.db.models import ApiToken, User
from app.errors import ConflictError


async def get_by_username(session: AsyncSession, username: str) -> User | None:
    return (
        await session.execute(select(User).where(User.username == username))
    ).scalar_one_or_none()


async def admin_exists(session: AsyncSession) -> bool:
    count = await session.scalar(select(func.count()).select_from(User).where(User.role == "admin"))
    return bool(count)


async def create_user(session: AsyncSession, username: str, password_hash: str, role: str) -> User:
    if await get_by_username(session, username) is not None:
        raise ConflictError(f"username {username!r} is taken")
    user = User(username=username, password_hash=password_hash, role=role)
    session.add(user)
    try:
        await session.flush()
    except IntegrityError as exc:
        raise ConflictError(f"username {username!r} is taken") from exc
    return user


async def issue_token(
    session: AsyncSession, user_id: str, ttl_hours: float
) -> tuple[str, ApiToken]:
    token = new_token()
    row = ApiToken(
        user_id=user_id,
        token_hash=hash_token(token),
        expires_at=utcnow() + timedelta(hours=ttl_hours),
    )
    session.add(row)
    await session.flush()
    return token, row


async def user_for_token(session: AsyncSession, token: str) -> AuthUser | None:
    """The user a live (unrevoked, unexpired) token belongs to."""
    row = (
        await session.execute(
            select(ApiToken, User)
            .join(User, User.id == ApiToken.user_id)
            .where(
                ApiToken.token_hash == hash_token(token),
                ApiToken.revoked_at.is_(None),
                ApiToken.expires_at > utcnow(),
            )
        )
    ).first()
    if row is None:
        return None
    api_token, user = row
    return AuthUser(id=user.id, username=user.username, role=user.role, token_id=api_token.id)


async def revoke_token(session: AsyncSession, token_id: str) -> None:
    await session.execute(
        update(ApiToken).where(ApiToken.id == token_id).values(revoked_at=utcnow())
    )
