"""Users edited, disabled, enabled and invited again, on the fake in memory and on each
database (``case_store``): what may change and what is refused, a disabled user's
sessions ended at once, and every change to a user in the audit (who, when, the old and
new value, why)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from bot.services import admin as a
from bot.services import web_signin as w
from bot.services.base import Deps
from bot.store.memory import MemoryStore
from bot.store.tx import Store
from bot.support.caller import Caller
from bot.support.clock import FixedClock
from bot.support.errors import BadInputError, InviteInvalidError, UnknownUserError
from bot.support.phones import PhoneError

SYSTEM = Caller.system()


async def admin_and_keeper(store: Store | MemoryStore, deps: Deps) -> tuple[Caller, int]:
    """An admin (as a caller) and a keeper of KNM they registered; the keeper's id."""
    async with store.transaction() as tx:
        admin = await a.add_user(tx, deps, SYSTEM, role="admin", name="Anitha")
        by = Caller(role="admin", channel="web", user_id=admin.id)
        keeper = await a.add_user(
            tx, deps, by, role="keeper", pound="KNM", name="Sreeja", phone="9847000010"
        )
        return by, keeper.id


def changes(found: list[object]) -> list[tuple[object, ...]]:
    return [
        (c.field, c.old, c.new, c.reason)  # type: ignore[attr-defined]
        for c in found
    ]


async def test_an_edit_changes_name_phone_language_and_pound_and_audits_each_old_and_new_value(
    case_store: Store | MemoryStore, deps: Deps, clock: FixedClock
) -> None:
    by, uid = await admin_and_keeper(case_store, deps)
    clock.set(clock.now() + timedelta(hours=1))
    async with case_store.transaction() as tx:
        done = await a.edit_user(
            tx,
            deps,
            by,
            uid,
            name="Sreeja K",
            phone="09847000011",
            lang="ml",
            pound="ENM",
            reason="moved to Ernakulam, new number",
        )
    assert changes(done) == [
        ("name", "Sreeja", "Sreeja K", "moved to Ernakulam, new number"),
        ("lang", None, "ml", "moved to Ernakulam, new number"),
        ("phone", "+919847000010", "+919847000011", "moved to Ernakulam, new number"),
        ("pound_code", "KNM", "ENM", "moved to Ernakulam, new number"),
        ("authority_code", "KNM-GP", "ENM-GP", "moved to Ernakulam, new number"),
    ]
    async with case_store.transaction() as tx:
        user = await tx.user_by_id(uid)
        assert user is not None
        assert (user.name, user.phone, user.lang, user.pound_code, user.authority_code) == (
            "Sreeja K",
            "+919847000011",
            "ml",
            "ENM",
            "ENM-GP",
        )
        assert await a.find_user(tx, phone="+919847000010") is None
        history = await a.user_history(tx, deps, SYSTEM, user_id=uid)
        # the add, then the edit: by the admin, at the store's clock
        assert {c.by_user_id for c in history} == {by.user_id}
        assert history[-1].at == clock.now()
        assert ("role", None, "keeper", "") in changes(history)  # type: ignore[arg-type]
        # the move is in both authorities' audit, the rest of the edit in the new one's
        knm = changes(await a.user_history(tx, deps, SYSTEM, authority="KNM-GP"))  # type: ignore[arg-type]
        enm = changes(await a.user_history(tx, deps, SYSTEM, authority="ENM-GP"))  # type: ignore[arg-type]
    assert ("authority_code", "KNM-GP", "ENM-GP", "moved to Ernakulam, new number") in knm
    assert ("name", "Sreeja", "Sreeja K", "moved to Ernakulam, new number") not in knm
    assert ("name", "Sreeja", "Sreeja K", "moved to Ernakulam, new number") in enm


@pytest.mark.parametrize(
    ("given", "refused"),
    [
        ({"name": "X", "reason": " "}, BadInputError),  # a reason must be said
        ({"reason": "nothing"}, BadInputError),  # nothing to change
        ({"name": "Sreeja", "reason": "same"}, BadInputError),  # nor the same again
        ({"pound": "NOWHERE", "reason": "r"}, BadInputError),
        ({"authority": "ENM-GP", "reason": "r"}, BadInputError),  # a keeper's is their pound's
        ({"lang": "fr", "reason": "r"}, BadInputError),
        ({"phone": "12", "reason": "r"}, PhoneError),
        ({"phone": "+919847000020", "reason": "r"}, BadInputError),  # another user's
    ],
)
async def test_an_edit_is_refused_without_a_reason_a_change_or_a_valid_value(
    case_store: Store | MemoryStore, deps: Deps, given: dict[str, str], refused: type[Exception]
) -> None:
    by, uid = await admin_and_keeper(case_store, deps)
    async with case_store.transaction() as tx:
        await a.add_user(tx, deps, by, role="officer", authority="KNM-GP", phone="9847000020")
    with pytest.raises(refused):
        async with case_store.transaction() as tx:
            await a.edit_user(tx, deps, by, uid, **given)
    async with case_store.transaction() as tx:
        assert [c.field for c in await a.user_history(tx, deps, SYSTEM, user_id=uid)] == [
            "role",
            "pound_code",
            "authority_code",
            "phone",
            "name",
            "active",
        ]


async def test_an_officer_moves_to_another_authority_and_a_keeper_only_with_their_pound(
    case_store: Store | MemoryStore, deps: Deps
) -> None:
    by, _ = await admin_and_keeper(case_store, deps)
    async with case_store.transaction() as tx:
        officer = await a.add_user(tx, deps, by, role="officer", authority="KNM-GP")
        await a.edit_user(tx, deps, by, officer.id, authority="ENM-GP", reason="transferred")
        with pytest.raises(BadInputError):
            await a.edit_user(tx, deps, by, officer.id, pound="KNM", reason="r")
        assert (await tx.user_by_id(officer.id)).authority_code == "ENM-GP"  # type: ignore[union-attr]


async def test_disabling_ends_every_session_at_once_and_enabling_does_not_open_them_again(
    case_store: Store | MemoryStore, deps: Deps
) -> None:
    by, uid = await admin_and_keeper(case_store, deps)
    async with case_store.transaction() as tx:
        sessions = [(await w.redeem_link(tx, await w.issue_link_for(tx, uid)))[0] for _ in "ab"]
    async with case_store.transaction() as tx:
        await a.disable_user(tx, deps, by, uid, reason="left the post")
        assert [await w.session_user(tx, s) for s in sessions] == [None, None]
    async with case_store.transaction() as tx:
        user = await a.enable_user(tx, deps, by, uid, reason="back from leave")
        assert user.active
        # the sessions were ended, not only hidden behind the user's state
        assert [await w.session_user(tx, s) for s in sessions] == [None, None]
        assert (await a.list_users(tx, deps, SYSTEM))[-1].id == uid
        history = changes(await a.user_history(tx, deps, SYSTEM, user_id=uid))  # type: ignore[arg-type]
    assert history[-3:] == [
        ("active", "true", "false", "left the post"),
        ("phone", "+919847000010", None, "left the post"),
        ("active", "false", "true", "back from leave"),
    ]


async def test_a_disabled_user_is_the_public_and_cannot_be_disabled_or_edited_again(
    case_store: Store | MemoryStore, deps: Deps
) -> None:
    by, uid = await admin_and_keeper(case_store, deps)
    async with case_store.transaction() as tx:
        await a.remove_user(tx, deps, by, uid)  # remove: disable, "removed" its reason
        assert await a.find_user(tx, phone="+919847000010") is None
        history = changes(await a.user_history(tx, deps, SYSTEM, user_id=uid))  # type: ignore[arg-type]
        assert history[-2:] == [
            ("active", "true", "false", "removed"),
            ("phone", "+919847000010", None, "removed"),
        ]
        for change in (
            a.disable_user(tx, deps, by, uid, reason="again"),
            a.edit_user(tx, deps, by, uid, name="X", reason="r"),
            a.reinvite_user(tx, deps, by, uid, reason="r"),
        ):
            with pytest.raises(UnknownUserError):
                await change
        with pytest.raises(BadInputError):
            await a.enable_user(tx, deps, by, uid, reason="")


async def test_an_invite_again_binds_a_new_telegram_account_to_the_user_and_voids_the_older(
    case_store: Store | MemoryStore, deps: Deps
) -> None:
    by, uid = await admin_and_keeper(case_store, deps)
    async with case_store.transaction() as tx:
        first = await a.reinvite_user(tx, deps, by, uid, reason="new phone")
        second = await a.reinvite_user(tx, deps, by, uid, reason="the code was lost")
    with pytest.raises(InviteInvalidError):
        async with case_store.transaction() as tx:
            await a.accept_invite(tx, deps, first.code, telegram_id=555, name="S", lang=None)
    async with case_store.transaction() as tx:
        user = await a.accept_invite(tx, deps, second.code, telegram_id=555, name="S", lang=None)
        assert user.id == uid
        found = await a.find_user(tx, telegram_id=555)
        assert found is not None
        assert (found.id, found.role, found.pound_code, found.name) == (
            uid,
            "keeper",
            "KNM",
            "Sreeja",
        )
        assert len(await a.list_users(tx, deps, SYSTEM)) == 2  # no new user
        history = await a.user_history(tx, deps, SYSTEM, user_id=uid)
    assert [(c.field, c.old, c.new, c.reason, c.by_user_id) for c in history[-3:]] == [
        ("invite", None, history[-3].new, "new phone", by.user_id),
        ("invite", None, history[-2].new, "the code was lost", by.user_id),
        ("telegram_id", None, "555", "invite accepted", uid),
    ]
    assert (history[-3].new or "").startswith("valid until ")
    assert second.code not in str([(c.old, c.new) for c in history])


async def test_offices_declared_and_a_user_made_by_an_invite_are_audited(
    case_store: Store | MemoryStore, deps: Deps
) -> None:
    by, _ = await admin_and_keeper(case_store, deps)
    async with case_store.transaction() as tx:
        officer = await a.add_user(tx, deps, by, role="officer", authority="KNM-GP")
        await a.set_offices(tx, deps, by, officer.id, ["secretary"], reason="took charge")
        made = await a.create_invite(tx, deps, by, role="officer", authority="ENM-GP")
        joined = await a.accept_invite(tx, deps, made.code, telegram_id=77, name="R", lang="en")
        offices = changes(await a.user_history(tx, deps, SYSTEM, user_id=officer.id))  # type: ignore[arg-type]
        invited = await a.user_history(tx, deps, SYSTEM, user_id=joined.id)
    assert offices[-1] == ("offices", None, "secretary", "took charge")
    assert {(c.field, c.new, c.reason, c.by_user_id) for c in invited} >= {
        ("role", "officer", "invite accepted", joined.id),
        ("telegram_id", "77", "invite accepted", joined.id),
    }
