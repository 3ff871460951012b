"""Admin scopes in the use cases of users, on the fake in memory and on each database
(``case_store``): a state admin (no authority) manages every user; an authority admin
the keepers, officers and admins of their own authority only, never a state admin, a
user of another authority, nor a move out of their authority; an admin added with an
authority is its admin, without one a state admin. The audiences of what admins are told
(``admins_and_officers``, ``admins``) follow the scope too."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from bot.services import admin as a
from bot.services.base import Deps
from bot.store.memory import MemoryStore
from bot.store.tx import Store
from bot.store.users import admins, admins_and_officers
from bot.support.caller import Caller
from bot.support.errors import BadInputError, NotAllowedError

SYSTEM = Caller.system()


async def _people(store: Store | MemoryStore, deps: Deps) -> dict[str, Any]:
    """A state admin, the admins of KNM-GP and ENM-GP (as callers), and a keeper and an
    officer of each authority (their ids)."""
    async with store.transaction() as tx:
        state = await a.add_user(tx, deps, SYSTEM, role="admin", name="Suma")
        knm = await a.add_user(tx, deps, SYSTEM, role="admin", authority="KNM-GP", name="L")
        enm = await a.add_user(tx, deps, SYSTEM, role="admin", authority="ENM-GP", name="M")
        found: dict[str, Any] = {
            "state": Caller(role="admin", channel="web", user_id=state.id),
            "knm": Caller(role="admin", channel="web", user_id=knm.id, authority="KNM-GP"),
            "enm": Caller(role="admin", channel="web", user_id=enm.id, authority="ENM-GP"),
            "state_id": state.id,
            "knm_admin_id": knm.id,
        }
        for pound, authority in (("KNM", "KNM-GP"), ("ENM", "ENM-GP")):
            keeper = await a.add_user(tx, deps, SYSTEM, role="keeper", pound=pound)
            officer = await a.add_user(tx, deps, SYSTEM, role="officer", authority=authority)
            found[f"keeper_{pound}"], found[f"officer_{pound}"] = keeper.id, officer.id
    assert (state.authority_code, knm.authority_code) == (None, "KNM-GP")
    return found


async def test_an_admin_without_an_authority_is_a_state_admin_and_with_one_its_admin(
    case_store: Store | MemoryStore, deps: Deps
) -> None:
    people = await _people(case_store, deps)
    assert people["state"].is_state_admin
    assert not people["knm"].is_state_admin
    assert people["knm"].administers("KNM-GP")
    assert not people["knm"].administers("ENM-GP")
    assert not people["knm"].administers(None)
    assert SYSTEM.is_state_admin  # the command line is the operator's
    officer = Caller(role="officer", channel="web", authority="KNM-GP")
    assert not officer.administers("KNM-GP")


async def test_an_authority_admin_manages_the_users_of_their_authority(
    case_store: Store | MemoryStore, deps: Deps
) -> None:
    people = await _people(case_store, deps)
    knm = people["knm"]
    async with case_store.transaction() as tx:
        added = await a.add_user(tx, deps, knm, role="keeper", pound="PTM", name="Anil")
        await a.add_user(tx, deps, knm, role="admin", authority="KNM-GP", name="Deputy")
        await a.edit_user(tx, deps, knm, people["keeper_KNM"], name="Suresh", reason="name")
        await a.set_offices(tx, deps, knm, people["officer_KNM"], ["secretary"])
        await a.disable_user(tx, deps, knm, people["officer_KNM"], reason="left")
        await a.enable_user(tx, deps, knm, people["officer_KNM"], reason="back")
        await a.reinvite_user(tx, deps, knm, people["keeper_KNM"], reason="new phone")
        await a.create_invite(tx, deps, knm, role="officer", authority="KNM-GP")
        listed = {u.authority_code for u in await a.list_users(tx, deps, knm)}
        history = {c.authority_code for c in await a.user_history(tx, deps, knm)}
    assert added.authority_code == "KNM-GP"
    assert listed == {"KNM-GP"}
    assert history == {"KNM-GP"}


REFUSED: dict[str, Callable[[Any, Deps, dict[str, Any]], Awaitable[object]]] = {
    "a keeper of another authority's pound": lambda tx, deps, p: a.add_user(
        tx, deps, p["knm"], role="keeper", pound="ENM"
    ),
    "an officer of another authority": lambda tx, deps, p: a.add_user(
        tx, deps, p["knm"], role="officer", authority="ENM-GP"
    ),
    "a state admin": lambda tx, deps, p: a.add_user(tx, deps, p["knm"], role="admin"),
    "an invite of another authority": lambda tx, deps, p: a.create_invite(
        tx, deps, p["knm"], role="keeper", pound="ENM"
    ),
    "an invite of a state admin": lambda tx, deps, p: a.create_invite(
        tx, deps, p["knm"], role="admin"
    ),
    "editing another authority's keeper": lambda tx, deps, p: a.edit_user(
        tx, deps, p["knm"], p["keeper_ENM"], name="X", reason="r"
    ),
    "moving their keeper to another authority's pound": lambda tx, deps, p: a.edit_user(
        tx, deps, p["knm"], p["keeper_KNM"], pound="ENM", reason="r"
    ),
    "making themselves a state admin": lambda tx, deps, p: a.edit_user(
        tx, deps, p["knm"], p["knm_admin_id"], state=True, reason="r"
    ),
    "editing the state admin": lambda tx, deps, p: a.edit_user(
        tx, deps, p["knm"], p["state_id"], name="X", reason="r"
    ),
    "disabling another authority's officer": lambda tx, deps, p: a.disable_user(
        tx, deps, p["knm"], p["officer_ENM"], reason="r"
    ),
    "disabling the state admin": lambda tx, deps, p: a.disable_user(
        tx, deps, p["knm"], p["state_id"], reason="r"
    ),
    "the offices of another authority's officer": lambda tx, deps, p: a.set_offices(
        tx, deps, p["knm"], p["officer_ENM"], ["secretary"]
    ),
    "inviting another authority's keeper again": lambda tx, deps, p: a.reinvite_user(
        tx, deps, p["knm"], p["keeper_ENM"], reason="r"
    ),
    "the history of another authority": lambda tx, deps, p: a.user_history(
        tx, deps, p["knm"], authority="ENM-GP"
    ),
}


@pytest.mark.parametrize("what", list(REFUSED))
async def test_an_authority_admin_is_refused_what_is_not_of_their_authority(
    case_store: Store | MemoryStore, deps: Deps, what: str
) -> None:
    people = await _people(case_store, deps)
    with pytest.raises(NotAllowedError):
        async with case_store.transaction() as tx:
            await REFUSED[what](tx, deps, people)


async def test_a_state_admin_manages_every_user_and_makes_an_admin_of_the_state_again(
    case_store: Store | MemoryStore, deps: Deps
) -> None:
    people = await _people(case_store, deps)
    state = people["state"]
    async with case_store.transaction() as tx:
        await a.edit_user(tx, deps, state, people["keeper_ENM"], pound="KNM", reason="moved")
        moved = await a.edit_user(
            tx, deps, state, people["knm_admin_id"], authority="ENM-GP", reason="moved"
        )
        made = await a.edit_user(
            tx, deps, state, people["knm_admin_id"], state=True, reason="the whole state"
        )
        listed = {u.authority_code for u in await a.list_users(tx, deps, state)}
    assert [(c.field, c.old, c.new) for c in moved] == [("authority_code", "KNM-GP", "ENM-GP")]
    assert [(c.field, c.old, c.new) for c in made] == [("authority_code", "ENM-GP", None)]
    assert listed == {None, "KNM-GP", "ENM-GP"}
    with pytest.raises(BadInputError):
        async with case_store.transaction() as tx:
            await a.add_user(tx, deps, state, role="admin", authority="XYZ-GP")
    with pytest.raises(BadInputError):
        async with case_store.transaction() as tx:
            await a.edit_user(tx, deps, state, people["officer_KNM"], state=True, reason="r")


async def test_an_authority_admin_is_told_of_their_authority_and_a_state_admin_of_all(
    store: Store, deps: Deps
) -> None:
    """The officers and admins told of an authority's troubled reminders
    (``admins_and_officers``): its officers and admins and the state admins; what
    concerns the whole service (``admins``): the state admins alone."""
    people = await _people(store, deps)
    async with store.transaction() as tx:
        told = {(u.role, u.authority_code) for u in await admins_and_officers(tx, "KNM-GP")}
        whole = [u.id for u in await admins(tx)]
    assert told == {("admin", None), ("admin", "KNM-GP"), ("officer", "KNM-GP")}
    assert whole == [people["state_id"]]
