"""The ports of the people (``bot.store.port``): the users and invites an administrator
manages, and the web desk's sign-in links and sessions; one contract, kept alike by the
fake in memory, SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from bot.store.models import Invite, User
from bot.store.port import SignInStore, UserStore
from bot.support.clock import FixedClock
from domain.calendar import LOCAL_TZ

NOW = datetime(2026, 3, 1, 10, 30, tzinfo=LOCAL_TZ)
LATER = NOW + timedelta(hours=1)


def keeper(phone: str | None = "+919847000010", telegram: int | None = 11) -> User:
    return User(
        role="keeper",
        pound_code="KNM",
        authority_code="KNM-GP",
        phone=phone,
        telegram_id=telegram,
        name="Sreeja",
        lang="ml",
        active=True,
        created_at=NOW,
    )


def invite(code: str = "c0de") -> Invite:
    return Invite(
        code=code,
        role="officer",
        pound_code=None,
        authority_code="ENM-GP",
        name="Anil",
        created_at=NOW,
        expires_at=NOW + timedelta(days=7),
    )


async def added(cases: Any, *users: User) -> list[int]:
    """The ids of ``users``, each written by ``add_user`` in one transaction."""
    async with cases.transaction() as tx:
        for row in users:
            await tx.add_user(row)
        return [row.id for row in users]


async def test_a_user_added_has_an_id_and_is_found_by_id_phone_and_telegram_id(
    cases: Any,
) -> None:
    first, second = await added(cases, keeper(), keeper("+919847000020", 22))
    assert first != second
    async with cases.transaction() as tx:
        port: UserStore = tx
        found = await port.user_by_id(first)
        assert found is not None
        assert (found.role, found.pound_code, found.authority_code) == ("keeper", "KNM", "KNM-GP")
        assert (found.phone, found.telegram_id, found.name, found.lang) == (
            "+919847000010",
            11,
            "Sreeja",
            "ml",
        )
        assert found.active
        assert (await port.user_by_phone("+919847000020")).id == second  # type: ignore[union-attr]
        assert (await port.user_by_telegram(11)).id == first  # type: ignore[union-attr]
        assert await port.user_by_phone("+919847000099") is None
        assert await port.user_by_telegram(99) is None
        assert await port.user_by_id(second + 100) is None
        assert [u.id for u in await port.active_users()] == [first, second]


async def test_who_is_registered_by_phone_or_telegram_id(cases: Any) -> None:
    await added(cases, keeper())
    async with cases.transaction() as tx:
        port: UserStore = tx
        assert await port.is_registered(phone="+919847000010")
        assert await port.is_registered(telegram_id=11)
        assert not await port.is_registered(phone="+919847000011")
        assert not await port.is_registered(telegram_id=12)


async def test_a_deactivated_user_is_kept_found_by_nothing_else_and_frees_their_numbers(
    cases: Any,
) -> None:
    (uid,) = await added(cases, keeper())
    async with cases.transaction() as tx:
        row = await tx.user_by_id(uid)
        await tx.deactivate_user(row)
        assert (row.active, row.phone, row.telegram_id) == (False, None, None)
    async with cases.transaction() as tx:
        port: UserStore = tx
        kept = await port.user_by_id(uid)
        assert kept is not None
        assert (kept.active, kept.phone, kept.telegram_id, kept.name) == (
            False,
            None,
            None,
            "Sreeja",
        )
        assert await port.user_by_phone("+919847000010") is None
        assert await port.user_by_telegram(11) is None
        assert not await port.is_registered(phone="+919847000010")
        assert not await port.is_registered(telegram_id=11)
        assert await port.active_users() == []
    # the numbers freed may be registered again
    (again,) = await added(cases, keeper())
    async with cases.transaction() as tx:
        assert (await tx.user_by_phone("+919847000010")).id == again


async def test_a_user_deactivated_keeping_their_phone_frees_only_the_telegram_id(
    cases: Any,
) -> None:
    (uid,) = await added(cases, keeper())
    async with cases.transaction() as tx:
        await tx.deactivate_user(await tx.user_by_id(uid), keep_phone=True)
    async with cases.transaction() as tx:
        port: UserStore = tx
        kept = await port.user_by_id(uid)
        assert kept is not None
        assert (kept.active, kept.phone, kept.telegram_id) == (False, "+919847000010", None)
        assert await port.is_registered(phone="+919847000010")
        assert not await port.is_registered(telegram_id=11)
        assert await port.user_by_phone("+919847000010") is None


async def test_a_deactivation_in_a_transaction_that_fails_is_undone(cases: Any) -> None:
    (uid,) = await added(cases, keeper())
    try:
        async with cases.transaction() as tx:
            await tx.deactivate_user(await tx.user_by_id(uid))
            raise LookupError("the step failed after")
    except LookupError:
        pass
    async with cases.transaction() as tx:
        assert (await tx.user_by_telegram(11)).id == uid


async def test_an_invite_is_read_back_and_marked_used_now_by_whom(
    cases: Any, clock: FixedClock
) -> None:
    (uid,) = await added(cases, keeper())
    async with cases.transaction() as tx:
        await tx.add_invite(invite())
    clock.set(LATER)
    async with cases.transaction() as tx:
        port: UserStore = tx
        assert await port.invite_to_use("nope") is None
        found = await port.invite_to_use("c0de")
        assert found is not None
        assert (found.role, found.pound_code, found.authority_code, found.name) == (
            "officer",
            None,
            "ENM-GP",
            "Anil",
        )
        assert found.expires_at == NOW + timedelta(days=7)
        assert (found.used_by, found.used_at) == (None, None)
        await port.use_invite(found, uid)
        assert (found.used_by, found.used_at) == (uid, LATER)
    async with cases.transaction() as tx:
        used = await tx.invite_to_use("c0de")
        assert (used.used_by, used.used_at) == (uid, LATER)


async def test_a_sign_in_link_is_redeemed_once_only(cases: Any) -> None:
    (uid,) = await added(cases, keeper())
    async with cases.transaction() as tx:
        port: SignInStore = tx
        await port.add_link("h" * 64, uid, NOW + timedelta(minutes=15))
    async with cases.transaction() as tx:
        port = tx
        assert await port.redeem_link("h" * 64) == uid
        assert await port.redeem_link("h" * 64) is None  # in the same transaction
    async with cases.transaction() as tx:
        assert await tx.redeem_link("h" * 64) is None  # nor in a later one
        assert await tx.redeem_link("x" * 64) is None  # unknown


async def test_a_link_redeemed_in_a_transaction_that_fails_is_not_spent(cases: Any) -> None:
    (uid,) = await added(cases, keeper())
    async with cases.transaction() as tx:
        await tx.add_link("h" * 64, uid, NOW + timedelta(minutes=15))
    try:
        async with cases.transaction() as tx:
            assert await tx.redeem_link("h" * 64) == uid
            raise LookupError("the sign-in failed after")
    except LookupError:
        pass
    async with cases.transaction() as tx:
        assert await tx.redeem_link("h" * 64) == uid


async def test_an_expired_link_is_refused_from_the_moment_it_expires(
    cases: Any, clock: FixedClock
) -> None:
    (uid,) = await added(cases, keeper())
    expires = NOW + timedelta(minutes=15)
    async with cases.transaction() as tx:
        await tx.add_link("a" * 64, uid, expires)
        await tx.add_link("b" * 64, uid, expires)
    clock.set(expires - timedelta(seconds=1))
    async with cases.transaction() as tx:
        assert await tx.redeem_link("a" * 64) == uid
    clock.set(expires)
    async with cases.transaction() as tx:
        assert await tx.redeem_link("b" * 64) is None


async def test_a_session_opens_its_active_user_until_it_ends(cases: Any) -> None:
    (uid,) = await added(cases, keeper())
    async with cases.transaction() as tx:
        port: SignInStore = tx
        await port.add_session("s" * 64, uid, NOW + timedelta(hours=12))
    async with cases.transaction() as tx:
        port = tx
        who = await port.session_user("s" * 64)
        assert who is not None
        columns = ("id", "role", "pound_code", "authority_code", "phone", "telegram_id")
        assert tuple(getattr(who, c) for c in (*columns, "name", "lang")) == (
            *(uid, "keeper", "KNM", "KNM-GP", "+919847000010", 11),
            *("Sreeja", "ml"),
        )
        assert await port.session_user("x" * 64) is None
        await port.end_session("s" * 64)
        assert await port.session_user("s" * 64) is None
    async with cases.transaction() as tx:
        assert await tx.session_user("s" * 64) is None
        await tx.end_session("s" * 64)  # ended already: nothing
        await tx.end_session("x" * 64)  # unknown: nothing


async def test_a_session_opens_nothing_from_the_moment_it_expires(
    cases: Any, clock: FixedClock
) -> None:
    (uid,) = await added(cases, keeper())
    expires = NOW + timedelta(hours=12)
    async with cases.transaction() as tx:
        await tx.add_session("s" * 64, uid, expires)
    clock.set(expires - timedelta(seconds=1))
    async with cases.transaction() as tx:
        assert (await tx.session_user("s" * 64)).id == uid
    clock.set(expires)
    async with cases.transaction() as tx:
        assert await tx.session_user("s" * 64) is None


async def test_a_deactivated_user_s_session_opens_nothing(cases: Any) -> None:
    (uid,) = await added(cases, keeper())
    async with cases.transaction() as tx:
        await tx.add_session("s" * 64, uid, NOW + timedelta(hours=12))
    async with cases.transaction() as tx:
        await tx.deactivate_user(await tx.user_by_id(uid))
    async with cases.transaction() as tx:
        assert await tx.session_user("s" * 64) is None


def test_the_ports_of_the_people_are_protocols_of_their_methods() -> None:
    users = {name for name in vars(UserStore) if not name.startswith("_")}
    signing_in = {name for name in vars(SignInStore) if not name.startswith("_")}
    assert {"add_user", "deactivate_user", "invite_to_use", "use_invite"} <= users
    assert {"add_link", "redeem_link", "add_session", "session_user", "end_session"} <= signing_in
