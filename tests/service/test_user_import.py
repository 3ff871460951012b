"""Users in bulk from a CSV sheet, on the fake in memory and on each database: the dry
run says, line by line, what the import would do (a new user, one unchanged, one
changed, a line refused and why) and keeps nothing; the import does exactly that in one
transaction, or nothing (a line refused, the users changed since the dry run); a second
import of the same sheet changes nothing; an authority admin imports their own
authority's users only."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from bot.services import admin as a
from bot.services.base import Deps
from bot.services.user_import import (
    CHANGED,
    NEW,
    REFUSED,
    UNCHANGED,
    Change,
    Vocabulary,
    apply_import,
    plan_import,
)
from bot.store.memory import MemoryStore
from bot.store.tx import Store
from bot.support.caller import Caller
from bot.support.errors import BadInputError, NotAllowedError, PlanChangedError, SheetRefusedError

SYSTEM = Caller.system()
STATE = Caller(role="admin", channel="web", user_id=None)
KNM_ADMIN = Caller(role="admin", channel="web", authority="KNM-GP")

SHEET = (
    "name,phone,role,language,pound,authority,offices,reason\n"
    "Velayudhan,98470 55555,keeper,ml,KNM,,,\n"  # new
    "Sreeja,9847000010,keeper,,KNM,,,\n"  # unchanged
    "Latha K,9847000020,officer,en,,KNM-GP,secretary,new name\n"  # changed
    "Nobody,12345,keeper,ml,KNM,,,\n"  # refused: not a mobile number
    "\n"
    "Mini,9847000030,officer,,,Enmakaje Grama Panchayat,,\n"  # new, the authority by name
)


async def _users(store: Store | MemoryStore, deps: Deps) -> None:
    async with store.transaction() as tx:
        await a.add_user(
            tx, deps, SYSTEM, role="keeper", pound="KNM", name="Sreeja", phone="9847000010"
        )
        await a.add_user(
            tx, deps, SYSTEM, role="officer", authority="KNM-GP", name="Latha", phone="9847000020"
        )


async def _phones(store: Store | MemoryStore) -> list[str]:
    async with store.transaction() as tx:
        return sorted(u.phone or "" for u in await tx.active_users())


async def test_the_dry_run_says_each_line_new_unchanged_changed_or_refused_and_keeps_nothing(
    case_store: Store | MemoryStore, deps: Deps
) -> None:
    await _users(case_store, deps)
    before = await _phones(case_store)
    plan = await plan_import(case_store, deps, STATE, SHEET.encode(), reason="the spring roll-out")
    kinds = [(line.line, line.kind) for line in plan.lines]
    assert kinds == [(2, NEW), (3, UNCHANGED), (4, CHANGED), (5, REFUSED), (7, NEW)]
    new, _, changed, refused, by_name = plan.lines
    assert new.phone == "+919847055555"
    assert Change("pound_code", None, "KNM") in new.changes
    assert Change("authority_code", None, "KNM-GP") in new.changes
    assert changed.changes == (
        Change("name", "Latha", "Latha K"),
        Change("lang", None, "en"),
        Change("offices", None, "secretary"),
    )
    assert refused.refusal is not None
    assert refused.refusal.code == "phone_too_short"
    assert Change("authority_code", None, "ENM-GP") in by_name.changes
    assert plan.refused
    assert plan.changes
    assert await _phones(case_store) == before  # nothing kept


async def test_the_import_does_what_the_dry_run_showed_in_one_transaction_and_again_nothing(
    case_store: Store | MemoryStore, deps: Deps
) -> None:
    await _users(case_store, deps)
    sheet = "\ufeff" + SHEET.replace("Nobody,12345", "Nobody,9847000040")  # Excel's BOM
    data = sheet.encode()
    plan = await plan_import(case_store, deps, STATE, data, reason="roll-out")
    assert not plan.refused
    done = await apply_import(
        case_store, deps, STATE, data, reason="roll-out", expected=plan.digest
    )
    assert [i.line for i in done.invites] == [2, 5, 7]
    assert all(len(i.code) > 10 for i in done.invites)
    phones = await _phones(case_store)
    assert "+919847055555" in phones
    assert "+919847000040" in phones
    async with case_store.transaction() as tx:
        latha = await tx.user_by_phone("+919847000020")
        assert latha is not None
        assert (latha.name, latha.offices) == ("Latha K", "secretary")
        history = await tx.user_changes(user_id=latha.id)
    assert {(c.field, c.new, c.reason) for c in history if c.reason == "new name"} == {
        ("name", "Latha K", "new name"),
        ("lang", "en", "new name"),
        ("offices", "secretary", "new name"),
    }
    again = await plan_import(case_store, deps, STATE, data, reason="roll-out")
    assert {line.kind for line in again.lines} == {UNCHANGED}
    assert not again.changes


async def test_a_refused_line_imports_nothing(case_store: Store | MemoryStore, deps: Deps) -> None:
    await _users(case_store, deps)
    before = await _phones(case_store)
    plan = await plan_import(case_store, deps, STATE, SHEET.encode(), reason="roll-out")
    with pytest.raises(BadInputError, match="a line is refused"):
        await apply_import(
            case_store, deps, STATE, SHEET.encode(), reason="roll-out", expected=plan.digest
        )
    assert await _phones(case_store) == before


async def test_users_changed_since_the_dry_run_import_nothing(
    case_store: Store | MemoryStore, deps: Deps
) -> None:
    await _users(case_store, deps)
    data = "name,phone,role,pound\nVelayudhan,9847055555,keeper,KNM\nSreeja,9847000010,keeper,KNM\n"
    plan = await plan_import(case_store, deps, STATE, data.encode(), reason="roll-out")
    async with case_store.transaction() as tx:  # meanwhile, on another page
        sreeja = await tx.user_by_phone("+919847000010")
        assert sreeja is not None
        await a.edit_user(tx, deps, SYSTEM, sreeja.id, name="Sreeja P", reason="typo")
    before = await _phones(case_store)
    with pytest.raises(PlanChangedError):
        await apply_import(
            case_store, deps, STATE, data.encode(), reason="roll-out", expected=plan.digest
        )
    assert await _phones(case_store) == before


async def test_an_authority_admin_imports_their_own_authoritys_users_only(
    case_store: Store | MemoryStore, deps: Deps
) -> None:
    data = (
        "name,phone,role,pound,authority\n"
        "Suresh,9847000011,keeper,KNM,\n"
        "Mini,9847000012,keeper,ENM,\n"
        "Anil,9847000013,admin,,\n"  # a state admin: not theirs to make
    )
    plan = await plan_import(case_store, deps, KNM_ADMIN, data.encode(), reason="x")
    assert [line.kind for line in plan.lines] == [NEW, REFUSED, REFUSED]
    assert all(isinstance(line.refusal, NotAllowedError) for line in plan.lines[1:])


async def test_nobody_but_an_administrator_imports(
    case_store: Store | MemoryStore, deps: Deps
) -> None:
    officer = Caller(role="officer", channel="web", authority="KNM-GP")
    with pytest.raises(NotAllowedError):
        await plan_import(case_store, deps, officer, b"phone,role\n9847000011,keeper\n", reason="x")


@pytest.mark.parametrize(
    ("line", "why"),
    [
        pytest.param("Ravi,9847000050,chief,KNM", "unknown role", id="role"),
        pytest.param("Ravi,,keeper,KNM", "a phone number is required", id="no-phone"),
        pytest.param("Ravi,9847000050,keeper,XYZ", "unknown pound", id="pound"),
        pytest.param("Ravi,9847000050,keeper,", "a keeper needs a known pound", id="no-pound"),
        pytest.param(
            "Ravi,9847000050,officer,KNM", "only a keeper has a pound", id="officer-pound"
        ),
        pytest.param("Ravi,9847000010,officer,", "the role differs", id="role-differs"),
        pytest.param("Ravi,9847000050,keeper,KNM,extra", "more cells than headings", id="extra"),
    ],
)
async def test_a_line_is_refused_with_why(
    case_store: Store | MemoryStore, deps: Deps, line: str, why: str
) -> None:
    await _users(case_store, deps)
    data = f"name,phone,role,pound\n{line}\n"
    plan = await plan_import(case_store, deps, STATE, data.encode(), reason="x")
    (found,) = plan.lines
    assert found.kind == REFUSED
    assert str(found.refusal) == why


async def test_a_number_given_twice_is_refused_on_its_second_line(
    case_store: Store | MemoryStore, deps: Deps
) -> None:
    data = "phone,role,pound\n9847000050,keeper,KNM\n+91 98470 00050,keeper,PTM\n"
    plan = await plan_import(case_store, deps, STATE, data.encode(), reason="x")
    assert [line.kind for line in plan.lines] == [NEW, REFUSED]
    refusal = plan.lines[1].refusal
    assert refusal is not None
    assert refusal.facts == {"line": 2}


async def test_headings_and_roles_in_other_words(
    case_store: Store | MemoryStore, deps: Deps
) -> None:
    words = Vocabulary(
        headings={"phone": ("ഫോൺ നമ്പർ",), "role": ("ചുമതല",)}, roles={"പാലകൻ": "keeper"}
    )
    data = "ഫോൺ നമ്പർ;ചുമതല;Pound;Notes\n9847000050;പാലകൻ;knm;x\n"
    plan = await plan_import(case_store, deps, STATE, data.encode(), reason="x", words=words)
    assert [line.kind for line in plan.lines] == [NEW]
    assert plan.ignored == ("Notes",)


@pytest.mark.parametrize(
    ("data", "why"),
    [
        pytest.param(b"", "empty", id="empty"),
        pytest.param(b"\n\n", "empty", id="blank"),
        pytest.param(b"phone,role\n", "empty", id="heading-only"),
        pytest.param(b"PK\x03\x04rest", "workbook", id="xlsx"),
        pytest.param("phone,role\n9847000050,keeper\n".encode("utf-16"), "not_utf8", id="utf16"),
        pytest.param(b"name,role\nRavi,keeper\n", "missing_column", id="no-phone-column"),
        pytest.param(b"phone,mobile,role\n1,2,keeper\n", "column_twice", id="twice"),
        pytest.param(b"phone,role\n" + b"9847000050,keeper\n" * 5001, "too_many_rows", id="rows"),
        pytest.param(b"phone,role\n" + b"x" * 1_000_001, "too_big", id="bytes"),
        pytest.param(b'phone,role\n"98470,keeper\n', "not_csv", id="quote"),
    ],
)
async def test_a_file_that_is_no_sheet_of_users_is_refused_whole(
    case_store: Store | MemoryStore, deps: Deps, data: bytes, why: str
) -> None:
    with pytest.raises(SheetRefusedError) as refused:
        await plan_import(case_store, deps, STATE, data, reason="x")
    assert refused.value.facts["why"] == why


async def test_the_reason_is_required(case_store: Store | MemoryStore, deps: Deps) -> None:
    with pytest.raises(BadInputError, match="a reason is required"):
        await plan_import(case_store, deps, STATE, b"phone,role\n9847000050,keeper\n", reason=" ")


async def test_every_change_of_an_import_is_in_one_transaction(store: Store, deps: Deps) -> None:
    """On the database: the import's rows and their audit appear together."""
    from bot.store.models import Invite, UserChange

    data = b"phone,role,pound\n9847000050,keeper,KNM\n9847000051,keeper,PTM\n"
    plan = await plan_import(store, deps, STATE, data, reason="x")
    async with store.transaction() as tx:
        counted = await tx.session.scalar(select(func.count()).select_from(UserChange))
    assert counted == 0
    await apply_import(store, deps, STATE, data, reason="x", expected=plan.digest)
    async with store.transaction() as tx:
        invites = await tx.session.scalar(select(func.count()).select_from(Invite))
        changes = await tx.session.scalar(select(func.count()).select_from(UserChange))
    assert invites == 2
    assert changes
    assert changes >= 2 * 4
