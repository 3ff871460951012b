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
from typing import Any, Protocol

from bot.store.models import User
from bot.store.port import SignInStore, UserStore
from bot.support.caller import ROLES, Caller
from bot.support.errors import NotAllowedError, UnknownUserError

__all__ = [
    "LINK_VALID",
    "SESSION_VALID",
    "LinkRefusedError",
    "SignIn",
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


class SignIn(UserStore, SignInStore, Protocol):
    """What signing in reads and writes: the users, the sign-in links and sessions."""


def token_hash(token: str) -> str:
    """What the database keeps of a token: its SHA-256, in hex."""
    return hashlib.sha256(token.encode()).hexdigest()


async def issue_link(tx: SignIn, caller: Caller) -> str:
    """A new sign-in token for the registered caller (a keeper, officer or admin)."""
    if caller.role not in ROLES or caller.user_id is None:
        raise NotAllowedError("only a registered keeper, officer or admin signs in to the web")
    return await issue_link_for(tx, caller.user_id)


async def issue_link_for(tx: SignIn, user_id: int) -> str:
    """A new sign-in token for user ``user_id`` (the administrator's CLI)."""
    user = await tx.user_by_id(user_id)
    if user is None or not user.active or user.role not in ROLES:
        raise UnknownUserError("no such user", user_id=user_id)
    token = secrets.token_urlsafe(32)
    await tx.add_link(token_hash(token), user.id, tx.now + LINK_VALID)
    return token


async def redeem_link(tx: SignIn, token: str) -> tuple[str, User]:
    """Use a sign-in token once: a new session token and its user; else LinkRefusedError."""
    user_id = await tx.redeem_link(token_hash(token))
    if user_id is None:
        raise LinkRefusedError("sign-in link unknown, used or expired")
    user = await tx.user_by_id(user_id)
    if user is None or not user.active:
        raise LinkRefusedError("sign-in link of a removed user")
    session = secrets.token_urlsafe(32)
    await tx.add_session(token_hash(session), user.id, tx.now + SESSION_VALID)
    return session, user


async def session_user(tx: SignIn, session: str) -> Any:
    """The active user of a live session, or None (unknown, ended, expired, removed): a
    row of the user's id, role, pound_code, authority_code, phone, telegram_id, name and
    lang (a row, not loaded as a ``User``)."""
    return await tx.session_user(token_hash(session))


async def end_session(tx: SignIn, session: str) -> None:
    """Sign out: the session opens nothing from now on."""
    await tx.end_session(token_hash(session))
