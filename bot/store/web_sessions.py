"""The SQL of signing in to the web desk (``bot.services.web_signin``): the sign-in links
and the sessions, each found by the SHA-256 of its token; the user of a live session read
as the columns that make a Caller. Who may sign in and the tokens stay in the service."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import bindparam, select, update
from sqlalchemy.engine import Row

from bot.store.models import User, WebLink, WebSession
from bot.store.rows import add
from bot.store.tx import Tx

__all__ = ["add_link", "add_session", "end_session", "link_to_use", "session_user"]


async def add_link(
    tx: Tx, token_hash: str, user_id: int, created_at: datetime, expires_at: datetime
) -> None:
    """Write a sign-in link of user ``user_id``, by its token's hash."""
    await add(
        tx,
        WebLink(
            token_hash=token_hash, user_id=user_id, created_at=created_at, expires_at=expires_at
        ),
    )


async def link_to_use(tx: Tx, token_hash: str) -> WebLink | None:
    """The sign-in link of this token's hash, locked until the transaction ends."""
    found = await tx.session.execute(
        select(WebLink).where(WebLink.token_hash == token_hash).with_for_update()
    )
    return found.scalar_one_or_none()


async def add_session(
    tx: Tx, token_hash: str, user_id: int, created_at: datetime, expires_at: datetime
) -> None:
    """Write a session of user ``user_id`` (and what the transaction changed), by its hash."""
    await add(
        tx,
        WebSession(
            token_hash=token_hash, user_id=user_id, created_at=created_at, expires_at=expires_at
        ),
    )


#: Built once (every page of the desk runs it; SQLAlchemy compiles it once, then finds
#: it in its cache). The columns of the user that make a Caller (``bot.channels.identity``).
_SESSION_USER = (
    select(
        User.id,
        User.role,
        User.pound_code,
        User.authority_code,
        User.phone,
        User.telegram_id,
        User.name,
        User.lang,
    )
    .join(WebSession, WebSession.user_id == User.id)
    .where(
        User.active.is_(True),
        WebSession.token_hash == bindparam("hash"),
        WebSession.ended_at.is_(None),
        WebSession.expires_at > bindparam("now"),
    )
)


async def session_user(tx: Tx, token_hash: str, now: datetime) -> Row[*tuple[Any, ...]] | None:
    """The active user of the session of this token's hash, live at ``now``, or None: a
    row of id, role, pound_code, authority_code, phone, telegram_id, name and lang."""
    found = await tx.session.execute(_SESSION_USER, {"hash": token_hash, "now": now})
    return found.first()


async def end_session(tx: Tx, token_hash: str, now: datetime) -> None:
    """End at ``now`` the session of this token's hash, if not ended already."""
    await tx.session.execute(
        update(WebSession)
        .where(WebSession.token_hash == token_hash, WebSession.ended_at.is_(None))
        .values(ended_at=now)
    )
