"""The web desk's read side of the users, for administrators: a page of the users in the
caller's scope, filtered; one user with the audit of the changes to them. What is
changed goes through the use cases of ``bot.services.admin``, which refuse what the
caller may not do; these reads show what ``Caller.administers`` gives the caller and
nothing else."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from bot.services.admin import user_history
from bot.services.base import Deps
from bot.store.models import User, UserChange
from bot.store.port import UserStore
from bot.support.caller import ADMIN, KEEPER, OFFICER, Caller
from bot.support.errors import NotAllowedError, UnknownUserError

__all__ = [
    "PAGE",
    "ROLE_CHOICES",
    "STATE_ADMIN",
    "UserDetail",
    "UserFilter",
    "UserLine",
    "UserListing",
    "UserReads",
    "user_detail",
    "user_listing",
]

#: Users a page.
PAGE = 50
#: The role filter's choice of an admin of no authority.
STATE_ADMIN = "state_admin"
#: The choices of the role filter.
ROLE_CHOICES = (STATE_ADMIN, ADMIN, OFFICER, KEEPER)


class UserReads(UserStore, Protocol):
    """What the page of users reads besides the port of the users."""

    async def every_user(self) -> list[User]:
        """Every user, active or disabled, by id."""
        ...

    async def disabled_at(self) -> dict[int, datetime]:
        """When each user was last disabled."""
        ...


@dataclass(frozen=True, slots=True)
class UserFilter:
    """What the page of users is narrowed to: an authority, a pound, a role (one of
    ``ROLE_CHOICES``), words of the name, the phone number or the id; the page."""

    authority: str = ""
    pound: str = ""
    role: str = ""
    text: str = ""
    page: int = 1


@dataclass(frozen=True, slots=True)
class UserLine:
    """A user, and since when they are disabled (None: enabled, or not recorded)."""

    user: User
    disabled_since: datetime | None


@dataclass(frozen=True, slots=True)
class UserListing:
    """A page of the users found, how many there are, the authorities and pounds the
    caller may narrow the page to."""

    items: list[UserLine]
    total: int
    page: int
    more: bool
    authorities: list[str]
    pounds: list[str]


@dataclass(frozen=True, slots=True)
class UserDetail:
    """One user, since when disabled, and the changes to them, newest first."""

    line: UserLine
    history: list[UserChange]


def _require_admin(caller: Caller) -> None:
    if not caller.is_admin and not caller.is_state_admin:
        raise NotAllowedError("only an administrator manages users")


def _matches(user: User, deps: Deps, wanted: UserFilter) -> bool:
    if wanted.authority and user.authority_code != wanted.authority:
        return False
    if wanted.pound and user.pound_code != wanted.pound:
        return False
    if wanted.role == STATE_ADMIN:
        if user.role != ADMIN or user.authority_code is not None:
            return False
    elif wanted.role and user.role != wanted.role:
        return False
    words = wanted.text.casefold().split()
    if words:
        digits = "".join(ch for ch in wanted.text if ch.isdigit())
        haystack = f"{user.name} #{user.id}".casefold()
        by_words = all(word in haystack for word in words)
        by_phone = len(digits) >= 4 and digits in (user.phone or "")
        by_id = wanted.text.strip().lstrip("#") == str(user.id)
        if not (by_words or by_phone or by_id):
            return False
    return True


async def user_listing(
    tx: UserReads, deps: Deps, caller: Caller, wanted: UserFilter
) -> UserListing:
    """A page of the users the caller administers (a state admin every user, an
    authority admin their authority's), active and disabled, by id, narrowed by
    ``wanted``; a keeper or an officer is refused."""
    _require_admin(caller)
    authorities = [code for code in deps.config.authorities if caller.administers(code)]
    pounds = [
        code for code, pound in deps.config.pounds.items() if caller.administers(pound.authority)
    ]
    if wanted.authority and wanted.authority not in authorities:
        raise NotAllowedError("a user of another authority", authority=wanted.authority)
    mine = [u for u in await tx.every_user() if caller.administers(u.authority_code)]
    found = [u for u in mine if _matches(u, deps, wanted)]
    page = max(1, wanted.page)
    shown = found[(page - 1) * PAGE : page * PAGE]
    since = await tx.disabled_at() if shown else {}
    items = [UserLine(u, None if u.active else since.get(u.id)) for u in shown]
    return UserListing(items, len(found), page, len(found) > page * PAGE, authorities, pounds)


async def user_detail(tx: UserReads, deps: Deps, caller: Caller, user_id: int) -> UserDetail:
    """User ``user_id`` with the audit of the changes to them, newest first (as
    ``bot.services.admin.user_history`` gives the caller); one the caller does not
    administer is refused, as is a keeper or an officer."""
    _require_admin(caller)
    user = await tx.user_by_id(user_id)
    if user is None:
        raise UnknownUserError("no such user", user_id=user_id)
    if not caller.administers(user.authority_code):
        raise NotAllowedError("a user of another authority", authority=user.authority_code or "")
    since = None if user.active else (await tx.disabled_at()).get(user.id)
    changes: Sequence[UserChange] = await user_history(tx, deps, caller, user_id=user_id)
    return UserDetail(UserLine(user, since), sorted(changes, key=lambda c: (c.at, c.id))[::-1])
