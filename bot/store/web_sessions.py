"""The SQL of signing in to the web desk (``bot.services.web_signin``): the sign-in links
and the sessions, each found by the SHA-256 of its token; the user of a live session read
as the columns that make a Caller; and, as methods of the transaction (``SignIns``), what
the use case reads and writes of them (``bot.store.port.SignInStore``). Who may sign in
and the tokens stay in the service."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import bindparam, select, update
from sqlalchemy.engine import Row
from sqlalchemy.ext.asyncio import AsyncSession

from bot.store.models import User, WebLink, WebSession

__all__ = ["SignIns", "add_link", "add_session", "end_session", "link_to_use", "session_user"]


async def add_link(
    tx: SignIns, token_hash: str, user_id: int, created_at: datetime, expires_at: datetime
) -> None:
    """Write a sign-in link of user ``user_id``, by its token's hash."""
    tx.session.add(
        WebLink(
            token_hash=token_hash, user_id=user_id, created_at=created_at, expires_at=expires_at
        )
    )
    await tx.session.flush()


async def link_to_use(tx: SignIns, token_hash: str) -> WebLink | None:
    """The sign-in link of this token's hash, locked until the transaction ends."""
    found = await tx.session.execute(
        select(WebLink).where(WebLink.token_hash == token_hash).with_for_update()
    )
    return found.scalar_one_or_none()


async def add_session(
    tx: SignIns, token_hash: str, user_id: int, created_at: datetime, expires_at: datetime
) -> None:
    """Write a session of user ``user_id`` (and what the transaction changed), by its hash."""
    tx.session.add(
        WebSession(
            token_hash=token_hash, user_id=user_id, created_at=created_at, expires_at=expires_at
        )
    )
    await tx.session.flush()


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
        User.offices,
    )
    .join(WebSession, WebSession.user_id == User.id)
    .where(
        User.active.is_(True),
        WebSession.token_hash == bindparam("hash"),
        WebSession.ended_at.is_(None),
        WebSession.expires_at > bindparam("now"),
    )
)


async def session_user(tx: SignIns, token_hash: str, now: datetime) -> Row[*tuple[Any, ...]] | None:
    """The active user of the session of this token's hash, live at ``now``, or None: a
    row of id, role, pound_code, authority_code, phone, telegram_id, name, lang and
    offices."""
    found = await tx.session.execute(_SESSION_USER, {"hash": token_hash, "now": now})
    return found.first()


async def end_session(tx: SignIns, token_hash: str, now: datetime) -> None:
    """End at ``now`` the session of this token's hash, if not ended already."""
    await tx.session.execute(
        update(WebSession)
        .where(WebSession.token_hash == token_hash, WebSession.ended_at.is_(None))
        .values(ended_at=now)
    )


class SignIns:
    """What the functions above read in (a transaction: its session), and the sign-in
    links and sessions as methods of the transaction, each at the transaction's ``now``:
    ``bot.store.tx.Tx`` inherits them, and so is the port of signing in
    (``bot.store.port.SignInStore``)."""

    session: AsyncSession
    now: datetime

    async def add_link(self, token_hash: str, user_id: int, expires_at: datetime) -> None:
        """Write a sign-in link of user ``user_id``, by its token's hash."""
        await add_link(self, token_hash, user_id, self.now, expires_at)

    async def redeem_link(self, token_hash: str) -> int | None:
        """Use the sign-in link of this token's hash: its user's id, the link used from
        now on; None if it is unknown, used already or expired."""
        link = await link_to_use(self, token_hash)
        if link is None or link.used_at is not None or link.expires_at <= self.now:
            return None
        link.used_at = self.now
        await self.session.flush()
        return link.user_id

    async def add_session(self, token_hash: str, user_id: int, expires_at: datetime) -> None:
        """Write a session of user ``user_id``, by its token's hash."""
        await add_session(self, token_hash, user_id, self.now, expires_at)

    async def session_user(self, token_hash: str) -> Row[*tuple[Any, ...]] | None:
        """The active user of the live session of this token's hash (``session_user``)."""
        return await session_user(self, token_hash, self.now)

    async def end_session(self, token_hash: str) -> None:
        """End the session of this token's hash, if not ended already."""
        await end_session(self, token_hash, self.now)
