"""Who may do what: keepers of another pound, officers of another authority, the public.

The use cases run on the fake in memory and on each database (``case_store``)."""

from __future__ import annotations

import dataclasses
from collections.abc import Awaitable, Callable
from datetime import datetime

import pytest

from bot.services import admin as a
from bot.services import keeper as k
from bot.services import officer as o
from bot.services import public as p
from bot.services.base import Deps
from bot.store.memory import MemoryStore
from bot.store.port import UnitOfWork
from bot.store.tx import Store
from bot.support.caller import Caller
from bot.support.clock import FixedClock
from bot.support.errors import NotAllowedError
from domain.calendar import LOCAL_TZ
from domain.money import Money
from tests.service.helpers import seizure

Action = Callable[[UnitOfWork, Deps, Caller], Awaitable[object]]

KEEPER_ACTIONS: dict[str, Action] = {
    "record payment (s.12)": lambda tx, d, c: k.record_payment(tx, d, c, "KNM-1"),
    "record deposit (s.14)": lambda tx, d, c: k.record_deposit(tx, d, c, "KNM-1"),
    "report unclaimed (s.13(1))": lambda tx, d, c: k.report_unclaimed(tx, d, c, "KNM-1"),
}
#: The keeper who recorded the case (any keeper of its pound when an officer recorded it),
#: or an officer of its authority (s.7).
RECORD_ACTIONS: dict[str, Action] = {
    "correct seizure (s.7)": lambda tx, d, c: k.correct_seizure(tx, d, c, "KNM-1", seizure(), "x"),
    "void a case (s.7)": lambda tx, d, c: k.void_case(tx, d, c, "KNM-1", "entered twice"),
}
OFFICER_ACTIONS: dict[str, Action] = {
    "record notice (s.13(2))": lambda tx, d, c: o.record_notice(
        tx, d, c, "KNM-1", proclaimed_at=("x",)
    ),
    "settle (s.15(2))": lambda tx, d, c: o.settle_sale(tx, d, c, "KNM-1", expenses=Money(0)),
    "credit to fund (s.17(1))": lambda tx, d, c: o.credit_deposit_to_fund(tx, d, c, "KNM-1"),
}
ADMIN_ACTIONS: dict[str, Action] = {
    "add user": lambda tx, d, c: a.add_user(tx, d, c, role="keeper", pound="KNM"),
    "invite": lambda tx, d, c: a.create_invite(tx, d, c, role="officer", authority="KNM-GP"),
    "list users": lambda tx, d, c: a.list_users(tx, d, c),
}

STRANGERS = {
    "keeper of another pound": Caller(role="keeper", channel="t", pound="ENM", authority="ENM-GP"),
    "keeper of a sister pound": Caller(role="keeper", channel="t", pound="PTM", authority="KNM-GP"),
    "officer of another authority": Caller(role="officer", channel="t", authority="ENM-GP"),
    "owner": Caller.public("t", phone="+919847000001"),
    "stranger": Caller.public("t"),
}


@pytest.fixture
async def one_case(
    case_store: Store | MemoryStore, deps: Deps, keeper: Caller, clock: FixedClock
) -> None:
    async with case_store.transaction() as tx:
        await k.record_seizure(tx, deps, keeper, seizure(), owner_phone="+919847000001")
    clock.set(datetime(2026, 3, 9, 9, 0, tzinfo=LOCAL_TZ))


@pytest.mark.usefixtures("one_case")
async def test_a_keeper_lists_only_the_cases_of_their_own_pound(
    case_store: Store | MemoryStore, deps: Deps
) -> None:
    async with case_store.transaction() as tx:
        for who in ("keeper of another pound", "keeper of a sister pound"):
            assert await k.list_open_cases(tx, deps, STRANGERS[who]) == []
        for who in ("officer of another authority", "owner", "stranger"):
            with pytest.raises(NotAllowedError):
                await k.list_open_cases(tx, deps, STRANGERS[who])


@pytest.mark.usefixtures("one_case")
@pytest.mark.parametrize("who", list(STRANGERS))
@pytest.mark.parametrize("action", list(RECORD_ACTIONS))
async def test_only_the_recorder_or_an_officer_of_the_authority_corrects_or_voids(
    case_store: Store | MemoryStore, deps: Deps, who: str, action: str
) -> None:
    with pytest.raises(NotAllowedError):
        async with case_store.transaction() as tx:
            await RECORD_ACTIONS[action](tx, deps, STRANGERS[who])


@pytest.mark.usefixtures("one_case")
@pytest.mark.parametrize("who", [*list(STRANGERS), "officer of this authority"])
@pytest.mark.parametrize("action", list(KEEPER_ACTIONS))
async def test_only_the_keeper_of_the_pound_does_the_keepers_steps(
    case_store: Store | MemoryStore, deps: Deps, officer: Caller, who: str, action: str
) -> None:
    caller = STRANGERS.get(who, officer)
    with pytest.raises(NotAllowedError):
        async with case_store.transaction() as tx:
            await KEEPER_ACTIONS[action](tx, deps, caller)


@pytest.mark.usefixtures("one_case")
@pytest.mark.parametrize("who", [*list(STRANGERS), "keeper of this pound"])
@pytest.mark.parametrize("action", list(OFFICER_ACTIONS))
async def test_only_an_officer_of_the_authority_does_the_officers_steps(
    case_store: Store | MemoryStore, deps: Deps, keeper: Caller, who: str, action: str
) -> None:
    caller = STRANGERS.get(who, keeper)
    with pytest.raises(NotAllowedError):
        async with case_store.transaction() as tx:
            await OFFICER_ACTIONS[action](tx, deps, caller)


@pytest.mark.usefixtures("one_case")
async def test_registers_are_read_only_by_officers_and_only_for_their_authority(
    case_store: Store | MemoryStore, deps: Deps, keeper: Caller, officer: Caller
) -> None:
    async with case_store.transaction() as tx:
        await k.record_payment(tx, deps, keeper, "KNM-1")
    async with case_store.transaction() as tx:
        # fines received (s.12) and credited to the fund (s.17(1)), feeding kept (s.16(2))
        assert len(await o.ledger(tx, deps, officer)) == 4
        other = STRANGERS["officer of another authority"]
        assert await o.ledger(tx, deps, other) == []
        assert await o.deposit_register(tx, deps, other) == []
        for who in ("keeper of another pound", "owner", "stranger"):
            for read in (o.ledger, o.deposit_register):
                with pytest.raises(NotAllowedError):
                    await read(tx, deps, STRANGERS[who])


@pytest.mark.parametrize("who", [*STRANGERS, "keeper", "officer"])
@pytest.mark.parametrize("action", list(ADMIN_ACTIONS))
async def test_only_an_admin_manages_users(
    case_store: Store | MemoryStore,
    deps: Deps,
    keeper: Caller,
    officer: Caller,
    who: str,
    action: str,
) -> None:
    caller = STRANGERS.get(who) or (keeper if who == "keeper" else officer)
    with pytest.raises(NotAllowedError):
        async with case_store.transaction() as tx:
            await ADMIN_ACTIONS[action](tx, deps, caller)


@pytest.mark.usefixtures("one_case")
async def test_public_answers_never_carry_names_or_phone_numbers(
    case_store: Store | MemoryStore, deps: Deps
) -> None:
    async with case_store.transaction() as tx:
        found = await p.find_cases(tx, deps, ["cow"])
        dues = await p.dues_today(tx, deps, "knm 1")
        deposit = (await p.deposit_quote(tx, deps, "KNM-1")).deposit
        result = await p.outcome(tx, deps, "KNM-1")
    assert [c.number for c in found] == ["KNM-1"]
    # The answers carry the case (in itself and in its statement) only for the renderers
    # (dates of its steps), which state public facts only: what is public is the rest.
    dues = dataclasses.replace(dues, case=None, stated=None)  # type: ignore[arg-type]
    result = dataclasses.replace(result, case=None, stated=None)  # type: ignore[arg-type]
    public = repr([found, dues, deposit, result])
    for secret in ("Kunhammed", "Rajan", "Chathamangalam", "Pathimangalam", "+9198"):
        assert secret not in public


@pytest.mark.usefixtures("one_case")
@pytest.mark.parametrize(
    ("words", "found"),
    [
        (["cow"], True),
        (["COWS"], True),
        (["buffalo", "ear"], True),
        (["Kunnamangalam"], True),
        (["goat"], False),
        (["%"], False),
        (["_"], False),
        ([""], False),
    ],
)
async def test_search_matches_kind_description_or_place_and_nothing_else(
    case_store: Store | MemoryStore, deps: Deps, words: list[str], found: bool
) -> None:
    async with case_store.transaction() as tx:
        result = await p.find_cases(tx, deps, words)
    assert bool(result) is found
