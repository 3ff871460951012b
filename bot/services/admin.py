"""Use cases of the administrator: users, the offices they hold, and invites."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from datetime import timedelta

from bot.services.base import Deps
from bot.store.models import Invite, User
from bot.store.port import UserStore
from bot.support.caller import ADMIN, KEEPER, OFFICER, ROLES, Caller
from bot.support.errors import BadInputError, InviteInvalidError, NotAllowedError, UnknownUserError
from bot.support.offices import office_of, offices_text, refused_office
from bot.support.phones import normalize_phone

__all__ = [
    "accept_invite",
    "add_user",
    "create_invite",
    "find_user",
    "list_users",
    "remove_user",
    "set_offices",
]

LANGS = ("ml", "en", "ta", "kn")
INVITE_DAYS = 7


def _require_admin(caller: Caller) -> None:
    if caller.role not in (ADMIN, "system"):
        raise NotAllowedError("only an administrator manages users")


def _check_place(deps: Deps, role: str, pound: str | None, authority: str | None) -> None:
    if role not in ROLES:
        raise BadInputError("unknown role", role=role)
    if role == KEEPER and (pound is None or pound not in deps.config.pounds):
        raise BadInputError("a keeper needs a known pound", pound=pound)
    if role == OFFICER and (authority is None or authority not in deps.config.authorities):
        raise BadInputError("an officer needs a known authority", authority=authority)


def _offices(role: str, offices: Sequence[str]) -> str:
    """The offices named (``domain.profiles.Office`` values) as they are stored, each one
    the role may hold (``bot.support.offices.refused_office``); a keeper who is given
    none holds the pound-keeper's all the same."""
    held = []
    for value in offices:
        try:
            office = office_of(value)
        except ValueError as exc:
            raise BadInputError(str(exc), office=value) from None
        refused = refused_office(role, office)
        if refused is not None:
            raise BadInputError(refused, office=office.value)
        held.append(office)
    return offices_text(held)


async def add_user(
    tx: UserStore,
    deps: Deps,
    caller: Caller,
    *,
    role: str,
    pound: str | None = None,
    authority: str | None = None,
    phone: str | None = None,
    telegram_id: int | None = None,
    name: str = "",
    lang: str | None = None,
    offices: Sequence[str] = (),
) -> User:
    """Register a keeper of a pound, an officer of an authority, or an admin; an officer
    with the ``offices`` they hold (``domain.profiles.Office`` values; none: the local
    authority's)."""
    _require_admin(caller)
    _check_place(deps, role, pound, authority)
    held = _offices(role, offices)
    if lang is not None and lang not in LANGS:
        raise BadInputError("unknown language", lang=lang)
    if phone is not None:
        phone = normalize_phone(phone, deps.config.phone_region)  # PhoneError names the fault
    if pound is not None and authority is None:
        authority = deps.authority_of(pound)
    if phone is not None and await tx.is_registered(phone=phone):
        raise BadInputError("already registered", value=phone)
    if telegram_id is not None and await tx.is_registered(telegram_id=telegram_id):
        raise BadInputError("already registered", value=str(telegram_id))
    user = User(
        role=role,
        pound_code=pound if role == KEEPER else None,
        authority_code=authority if role in (KEEPER, OFFICER) else None,
        phone=phone,
        telegram_id=telegram_id,
        name=name,
        lang=lang,
        offices=held,
        active=True,
        created_at=tx.now,
    )
    await tx.add_user(user)
    return user


async def set_offices(
    tx: UserStore, deps: Deps, caller: Caller, user_id: int, offices: Sequence[str]
) -> User:
    """Declare the offices an active user holds (``add_user``), in place of those
    declared before; none: an officer stands for the local authority again."""
    _require_admin(caller)
    user = await tx.user_by_id(user_id)
    if user is None or not user.active:
        raise UnknownUserError("no such user", user_id=user_id)
    await tx.set_offices(user, _offices(user.role, offices))
    return user


async def list_users(tx: UserStore, deps: Deps, caller: Caller) -> list[User]:
    """All active users."""
    _require_admin(caller)
    return await tx.active_users()


async def remove_user(tx: UserStore, deps: Deps, caller: Caller, user_id: int) -> User:
    """Deactivate a user (kept for the audit log); their phone and Telegram id are freed."""
    _require_admin(caller)
    user = await tx.user_by_id(user_id)
    if user is None or not user.active:
        raise UnknownUserError("no such user", user_id=user_id)
    await tx.deactivate_user(user)
    return user


async def find_user(
    tx: UserStore, *, phone: str | None = None, telegram_id: int | None = None
) -> User | None:
    """The active user with this phone number or Telegram id."""
    if phone is not None:
        return await tx.user_by_phone(phone)
    if telegram_id is not None:
        return await tx.user_by_telegram(telegram_id)
    return None


async def create_invite(
    tx: UserStore,
    deps: Deps,
    caller: Caller,
    *,
    role: str,
    pound: str | None = None,
    authority: str | None = None,
    name: str = "",
    days: int = INVITE_DAYS,
    offices: Sequence[str] = (),
) -> Invite:
    """A single-use invite code for a Telegram deep link, valid for ``days`` days, that
    makes a user holding ``offices`` (``add_user``)."""
    _require_admin(caller)
    _check_place(deps, role, pound, authority)
    held = _offices(role, offices)
    if pound is not None and authority is None:
        authority = deps.authority_of(pound)
    invite = Invite(
        code=secrets.token_urlsafe(12),
        role=role,
        pound_code=pound,
        authority_code=authority,
        name=name,
        offices=held,
        created_at=tx.now,
        expires_at=tx.now + timedelta(days=days),
    )
    await tx.add_invite(invite)
    return invite


async def accept_invite(
    tx: UserStore, deps: Deps, code: str, *, telegram_id: int, name: str, lang: str | None
) -> User:
    """Bind a Telegram account to the role of an unused, unexpired invite."""
    invite = await tx.invite_to_use(code)
    if invite is None or invite.used_at is not None or invite.expires_at <= tx.now:
        raise InviteInvalidError("invite unknown, used or expired")
    existing = await find_user(tx, telegram_id=telegram_id)
    if existing is not None:  # the account this Telegram id had: its number kept
        await tx.deactivate_user(existing, keep_phone=True)
    user = User(
        role=invite.role,
        pound_code=invite.pound_code,
        authority_code=invite.authority_code,
        telegram_id=telegram_id,
        name=invite.name or name,
        lang=lang if lang in LANGS else None,
        offices=invite.offices or "",
        active=True,
        created_at=tx.now,
    )
    await tx.add_user(user)
    await tx.use_invite(invite, user.id)
    return user
