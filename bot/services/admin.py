"""Use cases of the administrator: users (added, edited, disabled, enabled), the offices
they hold, and invites; every change to a user audited, one field a row
(``bot.store.models.UserChange``): who, when, the old and new value, why. A phone number
is kept whole in the audit (administrators read it) and never logged.

Who manages whom (``Caller.administers``): a state admin, and the command line (the
operator's), every user; an authority admin the keepers, officers and admins of their
own authority only, never a state admin nor a user of another authority, and never so as
to make one. An admin added with an authority is that authority's admin; without one, a
state admin.

Why it is long: each change to a user (added, edited, disabled, enabled, offices,
invited again) checks its own rules and writes its own rows of the audit; read side by
side, they are one set of rules."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from datetime import timedelta

from bot.services.base import Deps
from bot.store.models import Invite, User, UserChange
from bot.store.port import UserStore
from bot.support.caller import ADMIN, KEEPER, OFFICER, ROLES, Caller
from bot.support.errors import BadInputError, InviteInvalidError, NotAllowedError, UnknownUserError
from bot.support.offices import office_of, offices_text, refused_office
from bot.support.phones import normalize_phone

__all__ = [
    "EDITABLE",
    "accept_invite",
    "add_user",
    "create_invite",
    "disable_user",
    "edit_user",
    "enable_user",
    "find_user",
    "list_users",
    "reinvite_user",
    "remove_user",
    "set_offices",
    "user_history",
]

LANGS = ("ml", "en", "ta", "kn")
INVITE_DAYS = 7


#: The columns of a user an edit may change; a role is not among them (disable the
#: user and add one in the new role: what a keeper did stays a keeper's).
EDITABLE = ("name", "phone", "lang", "pound_code", "authority_code")


def _require_admin(caller: Caller) -> None:
    if not caller.is_admin and not caller.is_state_admin:
        raise NotAllowedError("only an administrator manages users")


def _require_scope(caller: Caller, authority: str | None) -> None:
    """Only an administrator of ``authority`` (None: a state admin, of no authority)
    manages a user of it."""
    _require_admin(caller)
    if not caller.administers(authority):
        raise NotAllowedError("a user of another authority", authority=authority or "")


def _required(reason: str) -> str:
    """The reason given for a change, which must be said."""
    if not reason.strip():
        raise BadInputError("a reason is required", reason="reason_required")
    return " ".join(reason.split())


def _text(value: object) -> str | None:
    """A value as the audit keeps it: None none, "true"/"false", else its text."""
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


async def _audit(
    tx: UserStore,
    caller: Caller,
    user: User,
    changes: Sequence[tuple[str, object, object]],
    reason: str,
) -> list[UserChange]:
    """Write a row of the audit for each (field, old, new) that changed a value: by the
    caller (None: the command line), at the transaction's time, with the authority the
    user is of now."""
    written = []
    for field, old, new in changes:
        if _text(old) == _text(new):
            continue
        change = UserChange(
            user_id=user.id,
            authority_code=user.authority_code,
            by_user_id=caller.user_id,
            at=tx.now,
            field=field,
            old=_text(old),
            new=_text(new),
            reason=reason,
        )
        await tx.add_user_change(change)
        written.append(change)
    return written


async def _active_user(tx: UserStore, user_id: int) -> User:
    user = await tx.user_by_id(user_id)
    if user is None or not user.active:
        raise UnknownUserError("no such user", user_id=user_id)
    return user


#: The columns of a new user, as its audit gives them.
_MADE: tuple[str, ...] = ("role", "pound_code", "authority_code", "phone", "telegram_id")
_MADE += ("name", "lang", "offices", "active")


def _made(user: User) -> list[tuple[str, object, object]]:
    """A new user's values as changes from none."""
    return [(field, None, getattr(user, field)) for field in _MADE]


def _check_place(deps: Deps, role: str, pound: str | None, authority: str | None) -> None:
    if role not in ROLES:
        raise BadInputError("unknown role", reason="unknown_role", role=role)
    if role == KEEPER and (pound is None or pound not in deps.config.pounds):
        raise BadInputError("a keeper needs a known pound", reason="keeper_pound", pound=pound)
    if role == OFFICER and (authority is None or authority not in deps.config.authorities):
        raise BadInputError(
            "an officer needs a known authority", reason="officer_authority", authority=authority
        )
    if role == ADMIN and authority is not None and authority not in deps.config.authorities:
        raise BadInputError(
            "an authority admin needs a known authority",
            reason="admin_authority",
            authority=authority,
        )


def _offices(role: str, offices: Sequence[str]) -> str:
    """The offices named (``domain.profiles.Office`` values) as they are stored, each one
    the role may hold (``bot.support.offices.refused_office``); a keeper who is given
    none holds the pound-keeper's all the same."""
    held = []
    for value in offices:
        try:
            office = office_of(value)
        except ValueError as exc:
            raise BadInputError(str(exc), reason="unknown_office", office=value) from None
        refused = refused_office(role, office)
        if refused is not None:
            raise BadInputError(refused, reason="office_refused", office=office.value)
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
    reason: str = "",
) -> User:
    """Register a keeper of a pound, an officer of an authority, or an admin (of
    ``authority``; without one, a state admin); an officer with the ``offices`` they hold
    (``domain.profiles.Office`` values; none: the local authority's). Audited, with
    ``reason`` if one is given. An authority admin registers users of their own
    authority only."""
    _require_admin(caller)
    pound = pound if role == KEEPER else None  # only a keeper has a pound
    _check_place(deps, role, pound, authority)
    if pound is not None:
        authority = deps.authority_of(pound)
    _require_scope(caller, authority)
    held = _offices(role, offices)
    if lang is not None and lang not in LANGS:
        raise BadInputError("unknown language", reason="unknown_language", lang=lang)
    if phone is not None:
        phone = normalize_phone(phone, deps.config.phone_region)  # PhoneError names the fault
    if phone is not None and await tx.is_registered(phone=phone):
        raise BadInputError("already registered", reason="already_registered", value=phone)
    if telegram_id is not None and await tx.is_registered(telegram_id=telegram_id):
        raise BadInputError(
            "already registered", reason="already_registered", value=str(telegram_id)
        )
    user = User(
        role=role,
        pound_code=pound,
        authority_code=authority,
        phone=phone,
        telegram_id=telegram_id,
        name=name,
        lang=lang,
        offices=held,
        active=True,
        created_at=tx.now,
    )
    await tx.add_user(user)
    await _audit(tx, caller, user, _made(user), " ".join(reason.split()))
    return user


async def set_offices(
    tx: UserStore,
    deps: Deps,
    caller: Caller,
    user_id: int,
    offices: Sequence[str],
    reason: str = "",
) -> User:
    """Declare the offices an active user holds (``add_user``), in place of those
    declared before; none: an officer stands for the local authority again. Audited."""
    user = await _active_user(tx, user_id)
    _require_scope(caller, user.authority_code)
    held, before = _offices(user.role, offices), user.offices
    await tx.set_offices(user, held)
    await _audit(tx, caller, user, [("offices", before, held)], " ".join(reason.split()))
    return user


async def edit_user(
    tx: UserStore,
    deps: Deps,
    caller: Caller,
    user_id: int,
    *,
    reason: str,
    name: str | None = None,
    phone: str | None = None,
    lang: str | None = None,
    pound: str | None = None,
    authority: str | None = None,
    state: bool = False,
) -> list[UserChange]:
    """Change what is given of an active user (None: kept): their name, phone number
    (normalised to E.164, no other user's), language, the pound of a keeper (its
    authority with it) or the authority of an officer; the changes, as audited. A role
    is not changed here (``EDITABLE``); an admin's authority is (``state``: made a state
    admin). An authority admin edits users of their authority, and within it."""
    _require_admin(caller)
    why = _required(reason)
    user = await _active_user(tx, user_id)
    _require_scope(caller, user.authority_code)
    moved_to = user.authority_code  # the authority they are of after the edit
    values: dict[str, object] = {}
    if name is not None:
        values["name"] = " ".join(name.split())
    if lang is not None:
        if lang not in LANGS:
            raise BadInputError("unknown language", reason="unknown_language", lang=lang)
        values["lang"] = lang
    if phone is not None:
        phone = normalize_phone(phone, deps.config.phone_region)  # PhoneError names the fault
        if phone != user.phone and await tx.is_registered(phone=phone):
            raise BadInputError("already registered", reason="already_registered", value=phone)
        values["phone"] = phone
    if pound is not None:
        if user.role != KEEPER:
            raise BadInputError(
                "only a keeper has a pound", reason="keeper_only_pound", role=user.role
            )
        _check_place(deps, KEEPER, pound, None)
        moved_to = deps.authority_of(pound)
        values["pound_code"], values["authority_code"] = pound, moved_to
    if authority is not None or state:
        if user.role not in (OFFICER, ADMIN):
            raise BadInputError(
                "only an officer has an authority of their own",
                reason="no_own_authority",
                role=user.role,
            )
        if state and (user.role != ADMIN or authority is not None):
            raise BadInputError(
                "only an admin without an authority is of the state", reason="state_admin_only"
            )
        _check_place(deps, user.role, None, authority)
        moved_to = values["authority_code"] = None if state else authority
    _require_scope(caller, moved_to)  # nowhere out of the caller's authority
    changed = {k: v for k, v in values.items() if _text(getattr(user, k)) != _text(v)}
    if not changed:
        raise BadInputError("nothing to change", reason="nothing_to_change", user_id=user_id)
    before = {k: getattr(user, k) for k in changed}
    await tx.update_user(user, **changed)
    return await _audit(tx, caller, user, [(k, before[k], v) for k, v in changed.items()], why)


async def disable_user(
    tx: UserStore, deps: Deps, caller: Caller, user_id: int, *, reason: str
) -> User:
    """Disable an active user, at once: their web sessions end and they are the public
    on every channel from now on; their phone number and Telegram id are freed (the
    audit keeps them), their unused invites expire. Kept, to be enabled again."""
    _require_admin(caller)
    why = _required(reason)
    user = await _active_user(tx, user_id)
    _require_scope(caller, user.authority_code)
    before = (user.phone, user.telegram_id)
    await tx.deactivate_user(user)
    await tx.end_sessions_of(user.id)
    await tx.expire_invites_for(user.id)
    changes: list[tuple[str, object, object]] = [
        ("active", True, False),
        ("phone", before[0], None),
        ("telegram_id", before[1], None),
    ]
    await _audit(tx, caller, user, changes, why)
    return user


async def enable_user(
    tx: UserStore, deps: Deps, caller: Caller, user_id: int, *, reason: str
) -> User:
    """Enable a disabled user again, in the role and place they had (a pound or an
    authority no longer configured is refused); without a phone number or Telegram id,
    to give again (``edit_user``, ``reinvite_user``)."""
    _require_admin(caller)
    why = _required(reason)
    user = await tx.user_by_id(user_id)
    if user is None:
        raise UnknownUserError("no such user", user_id=user_id)
    _require_scope(caller, user.authority_code)
    if user.active:
        raise BadInputError("already active", reason="already_active", user_id=user_id)
    _check_place(deps, user.role, user.pound_code, user.authority_code)
    await tx.update_user(user, active=True)
    await _audit(tx, caller, user, [("active", False, True)], why)
    return user


async def user_history(
    tx: UserStore,
    deps: Deps,
    caller: Caller,
    *,
    user_id: int | None = None,
    authority: str | None = None,
) -> list[UserChange]:
    """The audit of the changes to user ``user_id`` (None: every user), or to the users
    of ``authority``, oldest first. An authority admin reads their authority's alone."""
    _require_admin(caller)
    if authority is not None and authority not in deps.config.authorities:
        raise BadInputError("unknown authority", reason="unknown_authority", authority=authority)
    if not caller.is_state_admin:
        authority = authority or caller.authority
        _require_scope(caller, authority)
    return await tx.user_changes(user_id=user_id, authority=authority)


async def list_users(tx: UserStore, deps: Deps, caller: Caller) -> list[User]:
    """All active users (an authority admin's: of their authority)."""
    _require_admin(caller)
    return [u for u in await tx.active_users() if caller.administers(u.authority_code)]


async def remove_user(
    tx: UserStore, deps: Deps, caller: Caller, user_id: int, *, reason: str = "removed"
) -> User:
    """Disable a user (``disable_user``; kept for the audit log)."""
    return await disable_user(tx, deps, caller, user_id, reason=reason)


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
    makes a user holding ``offices`` (``add_user``: an admin's invite without an
    authority makes a state admin)."""
    _require_admin(caller)
    pound = pound if role == KEEPER else None  # only a keeper has a pound
    _check_place(deps, role, pound, authority)
    if pound is not None:
        authority = deps.authority_of(pound)
    _require_scope(caller, authority)
    held = _offices(role, offices)
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


async def reinvite_user(
    tx: UserStore,
    deps: Deps,
    caller: Caller,
    user_id: int,
    *,
    reason: str,
    days: int = INVITE_DAYS,
) -> Invite:
    """A new single-use invite code that binds a Telegram account to the active user
    ``user_id`` (a new telephone, a new account), valid ``days`` days; the unused ones
    given them before expire. Audited (the code is not: it is a secret)."""
    _require_admin(caller)
    why = _required(reason)
    user = await _active_user(tx, user_id)
    _require_scope(caller, user.authority_code)
    await tx.expire_invites_for(user.id)
    invite = Invite(
        code=secrets.token_urlsafe(12),
        role=user.role,
        pound_code=user.pound_code,
        authority_code=user.authority_code,
        name=user.name,
        offices=user.offices or "",
        for_user=user.id,
        created_at=tx.now,
        expires_at=tx.now + timedelta(days=days),
    )
    await tx.add_invite(invite)
    expires = f"valid until {invite.expires_at.isoformat(timespec='minutes')}"
    await _audit(tx, caller, user, [("invite", None, expires)], why)
    return invite


async def _bind(tx: UserStore, invite: Invite, telegram_id: int) -> User:
    """Bind a Telegram account to the user an invite is for (``reinvite_user``)."""
    user = await tx.user_by_id(invite.for_user or 0)
    if user is None or not user.active:
        raise InviteInvalidError("invite unknown, used or expired")
    existing = await find_user(tx, telegram_id=telegram_id)
    if existing is not None and existing.id != user.id:
        await tx.deactivate_user(existing, keep_phone=True)
    before = user.telegram_id
    await tx.update_user(user, telegram_id=telegram_id)
    by_invite = Caller(role=user.role, channel="telegram", user_id=user.id)
    await _audit(tx, by_invite, user, [("telegram_id", before, telegram_id)], "invite accepted")
    await tx.use_invite(invite, user.id)
    return user


async def accept_invite(
    tx: UserStore, deps: Deps, code: str, *, telegram_id: int, name: str, lang: str | None
) -> User:
    """Bind a Telegram account to the role of an unused, unexpired invite (or to the
    user it is for: ``reinvite_user``)."""
    invite = await tx.invite_to_use(code)
    if invite is None or invite.used_at is not None or invite.expires_at <= tx.now:
        raise InviteInvalidError("invite unknown, used or expired")
    if invite.for_user is not None:
        return await _bind(tx, invite, telegram_id)
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
    by_invite = Caller(role=user.role, channel="telegram", user_id=user.id)
    await _audit(tx, by_invite, user, _made(user), "invite accepted")
    await tx.use_invite(invite, user.id)
    return user
