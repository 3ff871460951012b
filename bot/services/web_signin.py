"""Signing in to the web desk without a password: single-use links and sessions.

A registered keeper, officer or admin asks for a link (``WEB`` by SMS, ``/web`` in
Telegram, ``poundbot web-link --user N``). The link carries a random token valid for
15 minutes and usable once; following it opens a session valid for 12 hours. Only the
SHA-256 of each token is stored, so a copy of the database opens nothing. A session
ends at sign-out, at its expiry, or at once when its user is removed (the user must be
active at every request).
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta
from typing import Any

from bot.store import users, web_sessions
from bot.store.models import User
from bot.store.tx import Tx
from bot.support.caller import ROLES, Caller
from bot.support.errors import NotAllowedError, UnknownUserError

__all__ = [
    "LINK_VALID",
    "SESSION_VALID",
    "LinkRefusedError",
    "end_session",
    "issue_link",
    "issue_link_for",
    "redeem_link",
    "session_user",
    "token_hash",
]

LINK_VALID = timedelta(minutes=15)
SESSION_VALID = timedelta(hours=12)


class LinkRefusedError(NotAllowedError):
    """The sign-in link is unknown, already used, expired, or its user was removed."""

    code = "web_link_refused"


def token_hash(token: str) -> str:
    """What the database keeps of a token: its SHA-256, in hex."""
    return hashlib.sha256(token.encode()).hexdigest()


async def issue_link(tx: Tx, caller: Caller) -> str:
    """A new sign-in token for the registered caller (a keeper, officer or admin)."""
    if caller.role not in ROLES or caller.user_id is None:
        raise NotAllowedError("only a registered keeper, officer or admin signs in to the web")
    return await issue_link_for(tx, caller.user_id)


async def issue_link_for(tx: Tx, user_id: int) -> str:
    """A new sign-in token for user ``user_id`` (the administrator's CLI)."""
    user = await users.user(tx, user_id)
    if user is None or not user.active or user.role not in ROLES:
        raise UnknownUserError("no such user", user_id=user_id)
    token = secrets.token_urlsafe(32)
    await web_sessions.add_link(tx, token_hash(token), user.id, tx.now, tx.now + LINK_VALID)
    return token


async def redeem_link(tx: Tx, token: str) -> tuple[str, User]:
    """Use a sign-in token once: a new session token and its user; else LinkRefusedError."""
    link = await web_sessions.link_to_use(tx, token_hash(token))
    if link is None or link.used_at is not None or link.expires_at <= tx.now:
        raise LinkRefusedError("sign-in link unknown, used or expired")
    link.used_at = tx.now
    user = await users.user(tx, link.user_id)
    if user is None or not user.active:
        raise LinkRefusedError("sign-in link of a removed user")
    session = secrets.token_urlsafe(32)
    await web_sessions.add_session(tx, token_hash(session), user.id, tx.now, tx.now + SESSION_VALID)
    return session, user


async def session_user(tx: Tx, session: str) -> Any:
    """The active user of a live session, or None (unknown, ended, expired, removed): a
    row of the user's id, role, pound_code, authority_code, phone, telegram_id, name and
    lang (a row, not loaded as a ``User``)."""
    return await web_sessions.session_user(tx, token_hash(session), tx.now)


async def end_session(tx: Tx, session: str) -> None:
    """Sign out: the session opens nothing from now on."""
    await web_sessions.end_session(tx, token_hash(session), tx.now)
