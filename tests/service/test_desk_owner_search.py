"""The desk's search finds a case by its owner's name, for staff, within their scope: a
part of the name in any letter case, in Latin or Malayalam script; a corrected name under
the new name, not the old; never another authority's case, never another pound's for a
keeper; and the public search (``FIND``) never by a name."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.services import desk, public
from bot.services import keeper as keeping
from bot.services.base import Deps
from bot.store.memory import MemoryStore
from bot.store.tx import Store
from bot.support.caller import PUBLIC, Caller
from bot.support.errors import NotAllowedError
from domain.s07_seizure import Person
from tests.service.helpers import seizure

AnyStore = Store | MemoryStore


async def _seize(store: AnyStore, deps: Deps, caller: Caller, pound: str, owner: str) -> str:
    seized = replace(seizure(pound), owner=Person(owner, "Chathamangalam"))
    async with store.transaction() as tx:
        recorded = await keeping.record_seizure(tx, deps, caller, seized)
    return recorded.loaded.row.number


async def _found(store: AnyStore, deps: Deps, caller: Caller, text: str) -> list[str]:
    sought = desk.sought(text)
    async with store.reading() as tx:
        listing = await desk.list_cases(
            tx, deps, caller, desk.CaseFilter(words=sought.words, phone=sought.phone)
        )
    return [item.number for item in listing.items]


def _keeper_of(pound: str, authority: str) -> Caller:
    return Caller(role="keeper", channel="test", pound=pound, authority=authority)


@pytest.fixture
async def cases(case_store: AnyStore, deps: Deps) -> AnyStore:
    """KNM-1 of Kunhammed P. and KNM-2 of Mini (Kunnamangalam), PTM-1 of Kunhammed K.
    (Pathimangalam, the same authority) and ENM-1 of Kunhammed Haji (Eranhimangalam)."""
    await _seize(case_store, deps, _keeper_of("KNM", "KNM-GP"), "KNM", "Kunhammed P.")
    await _seize(case_store, deps, _keeper_of("KNM", "KNM-GP"), "KNM", "മിനി ജോസഫ്")
    await _seize(case_store, deps, _keeper_of("PTM", "KNM-GP"), "PTM", "Kunhammed K.")
    await _seize(case_store, deps, _keeper_of("ENM", "ENM-GP"), "ENM", "Kunhammed Haji")
    return case_store


@pytest.mark.parametrize("text", ["kunhammed", "KUNHAMMED", "Kunhammed P", "hammed"])
async def test_an_officer_finds_the_cases_of_their_authority_by_the_owners_name(
    cases: AnyStore, deps: Deps, officer: Caller, text: str
) -> None:
    assert await _found(cases, deps, officer, text) == ["PTM-1", "KNM-1"]


async def test_every_word_must_be_in_the_name_or_the_case(
    cases: AnyStore, deps: Deps, officer: Caller, admin: Caller
) -> None:
    assert await _found(cases, deps, officer, "kunhammed haji") == []
    assert await _found(cases, deps, admin, "kunhammed haji") == ["ENM-1"]
    # A word of the name and one of the place or cattle together.
    assert await _found(cases, deps, officer, "kunhammed buffalo") == ["PTM-1", "KNM-1"]
    assert await _found(cases, deps, officer, "kunhammed goat") == []


async def test_a_name_in_malayalam_script_is_found_by_a_part_of_it(
    cases: AnyStore, deps: Deps, officer: Caller
) -> None:
    for text in ("മിനി", "ജോസഫ്", "മിനി ജോസ"):
        assert await _found(cases, deps, officer, text) == ["KNM-2"], text
    # A word of one letter with its vowel sign is left out, as a Latin letter is.
    assert desk.sought("പി").short


async def test_a_keeper_finds_only_the_cases_of_his_pound(
    cases: AnyStore, deps: Deps, keeper: Caller
) -> None:
    assert await _found(cases, deps, keeper, "kunhammed") == ["KNM-1"]


async def test_another_authoritys_officer_finds_only_their_own(
    cases: AnyStore, deps: Deps, other_officer: Caller
) -> None:
    assert await _found(cases, deps, other_officer, "kunhammed") == ["ENM-1"]
    assert await _found(cases, deps, other_officer, "mini") == []


async def test_a_corrected_name_is_found_under_the_new_name_not_the_old(
    cases: AnyStore, deps: Deps, keeper: Caller, officer: Caller
) -> None:
    corrected = replace(seizure("KNM"), owner=Person("Abdul Rasheed", "Chathamangalam"))
    async with cases.transaction() as tx:
        await keeping.correct_seizure(tx, deps, keeper, "KNM-1", corrected, "owner misnamed")
    assert await _found(cases, deps, officer, "rasheed") == ["KNM-1"]
    assert await _found(cases, deps, officer, "kunhammed") == ["PTM-1"]
    # The owner's name taken out: found by it no more.
    unnamed = replace(seizure("KNM"), owner=None)
    async with cases.transaction() as tx:
        await keeping.correct_seizure(tx, deps, keeper, "KNM-1", unnamed, "owner not known")
    assert await _found(cases, deps, officer, "rasheed") == []


async def test_the_public_search_never_finds_a_case_by_its_owners_name(
    cases: AnyStore, deps: Deps
) -> None:
    async with cases.reading() as tx:
        assert await tx.search_open(["kunhammed"]) == []
        assert await public.find_cases(tx, deps, ["kunhammed"]) == []
        assert await public.find_cases(tx, deps, ["മിനി"]) == []
        # Not a search of nothing: the same cases are found by their cattle.
        assert len(await public.find_cases(tx, deps, ["buffalo"])) == 4


async def test_the_public_is_refused_the_desks_list(cases: AnyStore, deps: Deps) -> None:
    with pytest.raises(NotAllowedError):
        await _found(cases, deps, Caller(role=PUBLIC, channel="web"), "kunhammed")


async def test_a_case_of_two_owners_is_found_by_either_owners_name(
    case_store: AnyStore, deps: Deps, officer: Caller
) -> None:
    record = seizure("KNM")
    lots = (
        replace(record.lots[0], owner=Person("Kunhammed P.", "Mavoor")),
        replace(record.lots[0], kind="goat", count=1, owner=Person("Ayisha", "Mavoor")),
    )
    async with case_store.transaction() as tx:
        recorded = await keeping.record_seizure(
            tx, deps, _keeper_of("KNM", "KNM-GP"), replace(record, lots=lots, owner=None)
        )
    number = recorded.loaded.row.number
    assert await _found(case_store, deps, officer, "ayisha") == [number]
    assert await _found(case_store, deps, officer, "Kunhammed") == [number]
