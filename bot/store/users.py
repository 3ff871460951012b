"""The SQL of the users and invites: who is registered, the active users, a user by
their phone number or Telegram id, the staff of a place, the offices its officers hold,
an invite locked to be used;
and, as methods of the transaction (``UsersAndInvites``), what the administrator's use
cases read and write of them (``bot.store.port.UserStore``)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import bindparam, func, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from bot.store.models import Invite, User, UserChange, WebSession
from bot.support.caller import ADMIN, KEEPER, OFFICER
from bot.support.offices import declared_offices, held_offices
from domain.profiles import Office
from domain.s18_buyers import KnownPerson

__all__ = [
    "UsersAndInvites",
    "active_users",
    "admins",
    "admins_and_officers",
    "disabled_at",
    "every_user",
    "invite_to_use",
    "is_registered",
    "staff_of",
    "user",
    "user_by_phone",
    "user_by_telegram",
    "user_changes",
]

# Built once: every message looks up its sender.
_USER_BY_PHONE = select(User).where(User.phone == bindparam("value"), User.active.is_(True))
_USER_BY_TELEGRAM = select(User).where(
    User.telegram_id == bindparam("value"), User.active.is_(True)
)


async def is_registered(
    tx: UsersAndInvites, *, phone: str | None = None, telegram_id: int | None = None
) -> bool:
    """Whether a user (active or not) has this phone number, or this Telegram id."""
    column, value = (User.phone, phone) if phone is not None else (User.telegram_id, telegram_id)
    taken = await tx.session.execute(select(User.id).where(column == value))
    return taken.first() is not None


async def user(tx: UsersAndInvites, user_id: int) -> User | None:
    """The user ``user_id`` (active or not), as the transaction holds it."""
    return await tx.session.get(User, user_id)


async def active_users(tx: UsersAndInvites) -> list[User]:
    """All active users, by id."""
    rows = await tx.session.execute(select(User).where(User.active.is_(True)).order_by(User.id))
    return list(rows.scalars())


async def every_user(tx: UsersAndInvites) -> list[User]:
    """Every user, active or disabled, by id (the desk's page of users)."""
    return list(await tx.session.scalars(select(User).order_by(User.id)))


async def disabled_at(tx: UsersAndInvites) -> dict[int, datetime]:
    """When each user was last disabled, as the audit of users records it (a user
    disabled before the audit began has none)."""
    rows = await tx.session.execute(
        select(UserChange.user_id, func.max(UserChange.at))
        .where(UserChange.field == "active", UserChange.new == "false")
        .group_by(UserChange.user_id)
    )
    return {user_id: at for user_id, at in rows}


async def user_by_phone(tx: UsersAndInvites, phone: str) -> User | None:
    """The active user with this phone number."""
    return (await tx.session.execute(_USER_BY_PHONE, {"value": phone})).scalar_one_or_none()


async def user_by_telegram(tx: UsersAndInvites, telegram_id: int) -> User | None:
    """The active user with this Telegram id."""
    rows = await tx.session.execute(_USER_BY_TELEGRAM, {"value": telegram_id})
    return rows.scalar_one_or_none()


async def invite_to_use(tx: UsersAndInvites, code: str) -> Invite | None:
    """The invite ``code``, locked until the transaction ends."""
    rows = await tx.session.execute(select(Invite).where(Invite.code == code).with_for_update())
    return rows.scalar_one_or_none()


async def staff_of(tx: UsersAndInvites, role: str, place: str) -> list[User]:
    """The active keepers of pound ``place`` (``role`` keeper) or officers of authority
    ``place`` (``role`` officer), by id."""
    where = (
        (User.role == OFFICER, User.authority_code == place)
        if role == OFFICER
        else (User.role == KEEPER, User.pound_code == place)
    )
    rows = await tx.session.execute(
        select(User).where(*where, User.active.is_(True)).order_by(User.id)
    )
    return list(rows.scalars())


async def admins_and_officers(tx: UsersAndInvites, authority: str) -> list[User]:
    """The active officers and admins of ``authority`` and the state admins (those of
    no authority: ``Caller.administers``), by id."""
    rows = await tx.session.execute(
        select(User)
        .where(
            User.active.is_(True),
            User.role.in_((OFFICER, ADMIN)),
            or_(User.authority_code == authority, User.authority_code.is_(None)),
        )
        .order_by(User.id)
    )
    return list(rows.scalars())


async def admins(tx: UsersAndInvites) -> list[User]:
    """The active state admins (of every authority: no authority of their own), by id:
    who is told of what concerns the whole service (the ceiling of paid answers)."""
    rows = await tx.session.scalars(
        select(User)
        .where(User.role == ADMIN, User.authority_code.is_(None), User.active.is_(True))
        .order_by(User.id)
    )
    return list(rows)


async def user_changes(
    tx: UsersAndInvites, *, user_id: int | None = None, authority: str | None = None
) -> list[UserChange]:
    """The changes to user ``user_id`` (None: to every user), or to the users of
    ``authority`` (a move out of it too), oldest first."""
    query = select(UserChange).order_by(UserChange.at, UserChange.id)
    if user_id is not None:
        query = query.where(UserChange.user_id == user_id)
    if authority is not None:
        query = query.where(
            or_(
                UserChange.authority_code == authority,
                (UserChange.field == "authority_code") & (UserChange.old == authority),
            )
        )
    return list(await tx.session.scalars(query))


class UsersAndInvites:
    """What the functions above read in (a transaction: its session), and the users and
    invites as methods of the transaction: ``bot.store.tx.Tx`` inherits them, and so is
    the port of the users (``bot.store.port.UserStore``)."""

    session: AsyncSession
    now: datetime

    async def is_registered(
        self, *, phone: str | None = None, telegram_id: int | None = None
    ) -> bool:
        """Whether a user (active or not) has this phone number, or this Telegram id."""
        return await is_registered(self, phone=phone, telegram_id=telegram_id)

    async def user_by_id(self, user_id: int) -> User | None:
        """The user ``user_id``, active or not."""
        return await user(self, user_id)

    async def every_user(self) -> list[User]:
        """Every user, active or disabled, by id."""
        return await every_user(self)

    async def disabled_at(self) -> dict[int, datetime]:
        """When each user was last disabled (``disabled_at``)."""
        return await disabled_at(self)

    async def user_by_phone(self, phone: str) -> User | None:
        """The active user with this phone number."""
        return await user_by_phone(self, phone)

    async def user_by_telegram(self, telegram_id: int) -> User | None:
        """The active user with this Telegram id."""
        return await user_by_telegram(self, telegram_id)

    async def active_users(self) -> list[User]:
        """All active users, by id."""
        return await active_users(self)

    async def add_user(self, row: User) -> None:
        """Write a new user; it has its id from then on."""
        self.session.add(row)
        await self.session.flush()

    async def deactivate_user(self, row: User, *, keep_phone: bool = False) -> None:
        """Deactivate a user (kept for the audit log), their Telegram id freed, and their
        phone number too unless ``keep_phone``."""
        row.active = False
        row.telegram_id = None
        if not keep_phone:
            row.phone = None
        await self.session.flush()

    async def set_offices(self, row: User, offices: str) -> None:
        """Declare the offices ``row`` holds (``bot.support.offices.offices_text``)."""
        row.offices = offices
        await self.session.flush()

    async def update_user(self, row: User, **values: object) -> None:
        """Write ``values`` (columns of ``users``: name, phone, lang, pound_code,
        authority_code, telegram_id, active) to ``row``."""
        for column, value in values.items():
            setattr(row, column, value)
        await self.session.flush()

    async def end_sessions_of(self, user_id: int) -> int:
        """End now every web session of user ``user_id`` not ended yet; how many."""
        done = await self.session.execute(
            update(WebSession)
            .where(WebSession.user_id == user_id, WebSession.ended_at.is_(None))
            .values(ended_at=self.now)
        )
        return int(getattr(done, "rowcount", 0) or 0)

    async def expire_invites_for(self, user_id: int) -> None:
        """Expire now the unused invites for user ``user_id`` (``Invite.for_user``)."""
        await self.session.execute(
            update(Invite)
            .where(
                Invite.for_user == user_id,
                Invite.used_at.is_(None),
                Invite.expires_at > self.now,
            )
            .values(expires_at=self.now)
        )

    async def add_user_change(self, change: UserChange) -> None:
        """Write a change to a user (``bot.services.admin``)."""
        self.session.add(change)
        await self.session.flush()

    async def user_changes(
        self, *, user_id: int | None = None, authority: str | None = None
    ) -> list[UserChange]:
        """The changes to a user, every user, or the users of an authority (``user_changes``)."""
        return await user_changes(self, user_id=user_id, authority=authority)

    async def offices_held(self, authority: str) -> frozenset[Office]:
        """The offices some active officer of ``authority`` holds (one who holds none
        declared: the local authority's, ``bot.support.offices.held_offices``)."""
        rows = await self.session.scalars(
            select(User.offices).where(
                User.role == OFFICER, User.authority_code == authority, User.active.is_(True)
            )
        )
        return frozenset().union(*(held_offices(OFFICER, declared_offices(o)) for o in rows))

    async def add_invite(self, invite: Invite) -> None:
        """Write a new invite."""
        self.session.add(invite)
        await self.session.flush()

    async def invite_to_use(self, code: str) -> Invite | None:
        """The invite ``code`` (used, expired or not), locked until the transaction ends."""
        return await invite_to_use(self, code)

    async def use_invite(self, invite: Invite, user_id: int) -> None:
        """Mark ``invite`` used now, by user ``user_id``."""
        invite.used_by = user_id
        invite.used_at = self.now
        await self.session.flush()

    async def registered_keepers_and_officers(self) -> list[KnownPerson]:
        """s.18: every active registered pound-keeper and officer, of any pound or
        authority, with their name and phone (a keeper of another pound is still one)."""
        rows = await self.session.execute(
            select(User.role, User.name, User.phone).where(
                User.active.is_(True), User.role.in_((KEEPER, OFFICER))
            )
        )
        barred_as = {KEEPER: "pound_keeper", OFFICER: "officer"}
        return [KnownPerson(barred_as[role], name, phone) for role, name, phone in rows if name]
