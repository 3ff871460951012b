"""The administrator's use cases (users and invites) and signing in to the web desk
(single-use links, sessions), on the fake in memory and on each database
(``case_store``): what they allow and refuse, whatever holds the rows."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from bot.services import admin as a
from bot.services import web_signin as w
from bot.services.base import Deps
from bot.store.memory import MemoryStore
from bot.store.tx import Store
from bot.support.caller import Caller
from bot.support.clock import FixedClock
from bot.support.errors import (
    BadInputError,
    InviteInvalidError,
    NotAllowedError,
    UnknownUserError,
)

SYSTEM = Caller.system()
ADMIN = Caller(role="admin", channel="test", user_id=1)


async def keeper_of_knm(store: Store | MemoryStore, deps: Deps, **given: Any) -> int:
    """A keeper of KNM registered by the administrator; their id."""
    async with store.transaction() as tx:
        user = await a.add_user(tx, deps, ADMIN, role="keeper", pound="KNM", name="Sreeja", **given)
        return user.id


# -- users --


async def test_a_keeper_is_registered_at_their_pound_s_authority_with_their_number_in_e164(
    case_store: Store | MemoryStore, deps: Deps
) -> None:
    uid = await keeper_of_knm(case_store, deps, phone="09847000010", lang="ml")
    async with case_store.transaction() as tx:
        (user,) = await a.list_users(tx, deps, ADMIN)
        found = await a.find_user(tx, phone="+919847000010")
    assert found is not None
    for row in (user, found):
        assert (row.id, row.role, row.pound_code, row.authority_code) == (
            uid,
            "keeper",
            "KNM",
            "KNM-GP",
        )
        assert (row.phone, row.name, row.lang, row.active) == (
            "+919847000010",
            "Sreeja",
            "ml",
            True,
        )


async def test_a_phone_or_telegram_id_already_registered_is_refused(
    case_store: Store | MemoryStore, deps: Deps
) -> None:
    await keeper_of_knm(case_store, deps, phone="+919847000010", telegram_id=11)
    for given in ({"phone": "9847000010"}, {"telegram_id": 11}):
        with pytest.raises(BadInputError, match="already registered"):
            await keeper_of_knm(case_store, deps, **given)
    async with case_store.transaction() as tx:
        assert len(await a.list_users(tx, deps, ADMIN)) == 1


@pytest.mark.parametrize(
    "given",
    [
        {"role": "mayor"},
        {"role": "keeper", "pound": "XYZ"},
        {"role": "keeper"},
        {"role": "officer", "authority": "NOWHERE"},
        {"role": "keeper", "pound": "KNM", "lang": "fr"},
    ],
)
async def test_a_user_who_cannot_be_placed_is_refused_and_nothing_kept(
    case_store: Store | MemoryStore, deps: Deps, given: dict[str, Any]
) -> None:
    with pytest.raises(BadInputError):
        async with case_store.transaction() as tx:
            await a.add_user(tx, deps, ADMIN, **given)
    async with case_store.transaction() as tx:
        assert await a.list_users(tx, deps, ADMIN) == []


async def test_a_removed_user_is_found_no_more_and_their_numbers_are_free_again(
    case_store: Store | MemoryStore, deps: Deps
) -> None:
    uid = await keeper_of_knm(case_store, deps, phone="+919847000010", telegram_id=11)
    async with case_store.transaction() as tx:
        removed = await a.remove_user(tx, deps, ADMIN, uid)
    assert (removed.active, removed.phone, removed.telegram_id) == (False, None, None)
    async with case_store.transaction() as tx:
        assert await a.find_user(tx, phone="+919847000010") is None
        assert await a.find_user(tx, telegram_id=11) is None
        assert await a.find_user(tx) is None
        assert await a.list_users(tx, deps, ADMIN) == []
    again = await keeper_of_knm(case_store, deps, phone="+919847000010", telegram_id=11)
    assert again != uid
    with pytest.raises(UnknownUserError):  # removed already, or never there
        async with case_store.transaction() as tx:
            await a.remove_user(tx, deps, ADMIN, uid)
    with pytest.raises(UnknownUserError):
        async with case_store.transaction() as tx:
            await a.remove_user(tx, deps, ADMIN, again + 100)


# -- invites --


async def test_an_invite_is_accepted_once_giving_its_role_and_place(
    case_store: Store | MemoryStore, deps: Deps
) -> None:
    async with case_store.transaction() as tx:
        made = await a.create_invite(tx, deps, ADMIN, role="keeper", pound="KNM", name="Sreeja")
    assert made.authority_code == "KNM-GP"
    async with case_store.transaction() as tx:
        user = await a.accept_invite(tx, deps, made.code, telegram_id=4242, name="Tg", lang="ta")
    assert (user.role, user.pound_code, user.authority_code) == ("keeper", "KNM", "KNM-GP")
    assert (user.telegram_id, user.name, user.lang, user.active) == (4242, "Sreeja", "ta", True)
    async with case_store.transaction() as tx:
        assert (await a.find_user(tx, telegram_id=4242)).id == user.id  # type: ignore[union-attr]
    with pytest.raises(InviteInvalidError):
        async with case_store.transaction() as tx:
            await a.accept_invite(tx, deps, made.code, telegram_id=4343, name="", lang=None)
    with pytest.raises(InviteInvalidError):
        async with case_store.transaction() as tx:
            await a.accept_invite(tx, deps, "no-such-code", telegram_id=4343, name="", lang=None)
    async with case_store.transaction() as tx:
        assert await a.find_user(tx, telegram_id=4343) is None


async def test_an_invite_is_refused_from_the_moment_it_expires(
    case_store: Store | MemoryStore, deps: Deps, clock: FixedClock
) -> None:
    async with case_store.transaction() as tx:
        made = await a.create_invite(tx, deps, ADMIN, role="officer", authority="KNM-GP", days=1)
    clock.set(clock.now() + timedelta(days=1))
    with pytest.raises(InviteInvalidError):
        async with case_store.transaction() as tx:
            await a.accept_invite(tx, deps, made.code, telegram_id=4242, name="Anil", lang=None)


async def test_accepting_an_invite_moves_a_telegram_account_off_its_old_user(
    case_store: Store | MemoryStore, deps: Deps
) -> None:
    old = await keeper_of_knm(case_store, deps, phone="+919847000010", telegram_id=4242)
    async with case_store.transaction() as tx:
        made = await a.create_invite(tx, deps, ADMIN, role="officer", authority="ENM-GP")
    async with case_store.transaction() as tx:
        new = await a.accept_invite(tx, deps, made.code, telegram_id=4242, name="Anil", lang="xx")
    assert new.id != old
    assert new.lang is None
    async with case_store.transaction() as tx:
        (active,) = await a.list_users(tx, deps, ADMIN)
        assert (active.id, active.role, active.telegram_id) == (new.id, "officer", 4242)
        assert await a.find_user(tx, phone="+919847000010") is None  # the old one: inactive
    with pytest.raises(BadInputError, match="already registered"):  # ... keeping its number
        await keeper_of_knm(case_store, deps, phone="+919847000010")


# -- signing in --


async def test_a_sign_in_link_opens_a_session_once_and_a_second_use_is_refused(
    case_store: Store | MemoryStore, deps: Deps
) -> None:
    uid = await keeper_of_knm(case_store, deps, phone="+919847000010")
    keeper = Caller(role="keeper", channel="test", user_id=uid, pound="KNM", authority="KNM-GP")
    async with case_store.transaction() as tx:
        token = await w.issue_link(tx, keeper)
    async with case_store.transaction() as tx:
        session, user = await w.redeem_link(tx, token)
        assert user.id == uid
        assert (await w.session_user(tx, session)).id == uid
    with pytest.raises(w.LinkRefusedError):
        async with case_store.transaction() as tx:
            await w.redeem_link(tx, token)
    with pytest.raises(w.LinkRefusedError):
        async with case_store.transaction() as tx:
            await w.redeem_link(tx, "made-up")
    async with case_store.transaction() as tx:
        assert await w.session_user(tx, token) is None  # a link is no session


async def test_only_a_registered_active_user_gets_a_link(
    case_store: Store | MemoryStore, deps: Deps
) -> None:
    uid = await keeper_of_knm(case_store, deps)
    for caller in (
        Caller.public("test", phone="+919847000001"),
        Caller(role="keeper", channel="t"),
    ):
        with pytest.raises(NotAllowedError):
            async with case_store.transaction() as tx:
                await w.issue_link(tx, caller)
    async with case_store.transaction() as tx:
        await a.remove_user(tx, deps, ADMIN, uid)
    for user_id in (uid, uid + 100):
        with pytest.raises(UnknownUserError):
            async with case_store.transaction() as tx:
                await w.issue_link_for(tx, user_id)


async def test_a_link_older_than_15_minutes_is_refused(
    case_store: Store | MemoryStore, deps: Deps, clock: FixedClock
) -> None:
    uid = await keeper_of_knm(case_store, deps)
    async with case_store.transaction() as tx:
        token = await w.issue_link_for(tx, uid)
    clock.set(clock.now() + w.LINK_VALID)
    with pytest.raises(w.LinkRefusedError):
        async with case_store.transaction() as tx:
            await w.redeem_link(tx, token)


async def test_the_link_of_a_user_removed_since_is_refused(
    case_store: Store | MemoryStore, deps: Deps
) -> None:
    uid = await keeper_of_knm(case_store, deps)
    async with case_store.transaction() as tx:
        token = await w.issue_link_for(tx, uid)
    async with case_store.transaction() as tx:
        await a.remove_user(tx, deps, SYSTEM, uid)
    with pytest.raises(w.LinkRefusedError, match="removed"):
        async with case_store.transaction() as tx:
            await w.redeem_link(tx, token)


async def test_a_session_ends_at_sign_out_at_12_hours_or_when_its_user_is_removed(
    case_store: Store | MemoryStore, deps: Deps, clock: FixedClock
) -> None:
    uid = await keeper_of_knm(case_store, deps)
    sessions = []
    for _ in range(3):
        async with case_store.transaction() as tx:
            sessions.append((await w.redeem_link(tx, await w.issue_link_for(tx, uid)))[0])
    signed_out, lasting, of_removed = sessions
    async with case_store.transaction() as tx:
        await w.end_session(tx, signed_out)
    async with case_store.transaction() as tx:
        assert await w.session_user(tx, signed_out) is None
        assert (await w.session_user(tx, lasting)).id == uid
    begun = clock.now()
    clock.set(begun + w.SESSION_VALID - timedelta(seconds=1))
    async with case_store.transaction() as tx:
        assert (await w.session_user(tx, lasting)).id == uid
    clock.set(begun + w.SESSION_VALID)
    async with case_store.transaction() as tx:
        assert await w.session_user(tx, lasting) is None
    clock.set(begun)
    async with case_store.transaction() as tx:
        assert (await w.session_user(tx, of_removed)).id == uid
        await a.remove_user(tx, deps, ADMIN, uid)
    async with case_store.transaction() as tx:
        assert await w.session_user(tx, of_removed) is None
