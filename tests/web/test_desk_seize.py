"""Record a seizure on the web desk (s.7), over real HTTP with multipart forms: two lots
and two photos make one case whose page shows them, with the owner's message queued as
after a SEIZE by SMS; each fault of the form is refused as the chat refuses it, the form
again with its fields kept and nothing stored; a form sent twice records one case; a
pound's keeper records one into their pound, an officer into a pound of their authority
they choose (one without a keeper too), and the pound's keeper corrects the officer's
case; admins and officers of another authority are refused. On SQLite and PostgreSQL."""

from __future__ import annotations

import html
import io
import re
from collections.abc import AsyncIterator, Iterator
from dataclasses import replace
from datetime import date
from pathlib import Path

import pytest
from PIL import Image
from sqlalchemy import func, select

from bot.bootstrap import open_app
from bot.conversation.commands import parse
from bot.conversation.orders import Seize
from bot.conversation.seizure import person_of
from bot.i18n import render, translator
from bot.store.models import CaseRow, OutboxRow, PhotoRow
from bot.support.errors import NotAllowedError
from tests.conftest import ENGINES
from tests.integration.test_migrations import fresh_pg_database
from tests.web.rig import Rig, csrf_of, rig, step_form

OWNER_PHONE = "+919847012345"
_AFTER = re.compile(r'name="after" value="(\d+)"')


def png(colour: tuple[int, int, int], size: tuple[int, int] = (40, 30)) -> bytes:
    """A small picture, as a phone's camera would send a (much larger) one."""
    out = io.BytesIO()
    Image.new("RGB", size, colour).save(out, "PNG")
    return out.getvalue()


@pytest.fixture(params=ENGINES)
def url(request: pytest.FixtureRequest) -> Iterator[str | None]:
    """None: the rig's own SQLite file; or a new PostgreSQL database."""
    if request.param == "sqlite":
        yield None
        return
    with fresh_pg_database() as found:
        yield found


@pytest.fixture
async def desk(tmp_path: Path, url: str | None) -> AsyncIterator[Rig]:
    if url is not None:
        async with open_app(url=url, migrate=True):
            pass
    async with rig(tmp_path, url=url) as r:
        yield r


async def _keeper(r: Rig, pound: str = "KNM", phone: str = "+919847000010") -> None:
    await r.sign_in(await r.user("keeper", pound=pound, phone=phone, name="Suresh"))


async def _form(r: Rig) -> dict[str, str]:
    page = await r.client.get("/web/cases/new")
    assert page.status_code == 200
    after = _AFTER.search(page.text)
    assert after
    return {"csrf": csrf_of(page.text), "after": after.group(1), "rows": "3"}


def _fields(**more: str) -> dict[str, str]:
    return {
        "kind-1": "cow",
        "count-1": "2",
        "description-1": "brown, white forehead",
        "kind-2": "goat",
        "count-2": "1",
        "description-2": "black kid",
        "place": "Kunnamangalam market",
        "brought_on": "01-03-2026",
        "brought_at": "09:30",
        "seizer": "Rajan K., Pathimangalam",
        "owner": "Ravi, Chathamangalam",
        "phone": "9847012345",
        **more,
    }


async def _count(r: Rig, model: type[CaseRow] | type[PhotoRow] | type[OutboxRow]) -> int:
    async with r.app.store.transaction() as tx:
        return int(await tx.session.scalar(select(func.count()).select_from(model)) or 0)


async def test_a_keeper_records_two_lots_with_two_photos(desk: Rig) -> None:
    r = desk
    await _keeper(r)
    today = (await r.client.get("/web/")).text
    assert 'href="/web/cases/new"' in today
    assert "Record a seizure" in today
    assert 'href="/web/cases/new"' in (await r.client.get("/web/cases")).text
    form = await _form(r)
    photos = [
        ("photos", ("cow.png", png((120, 80, 40)), "image/png")),
        ("photos", ("goat.png", png((20, 20, 20)), "image/png")),
    ]
    done = await r.client.post("/web/cases/new", data=form | _fields(), files=photos)
    assert done.status_code == 303, done.text
    assert done.headers["location"] == "/web/cases/KNM-1#reply"
    page = (await r.client.get("/web/cases/KNM-1")).text
    # The chat's answer, shown once, with the photos kept.
    assert "Case KNM-1 recorded: 2 cows, 1 goat." in page
    assert "2 photos kept with KNM-1." in page
    assert "Case KNM-1 recorded" not in (await r.client.get("/web/cases/KNM-1")).text
    assert page.count('<img src="/photo/') == 2
    thumb = re.search(r'<img src="(/photo/\d+/thumb/[^"]+)"', page)
    assert thumb
    shown = await r.client.get(thumb.group(1))
    assert shown.status_code == 200
    assert shown.headers["content-type"] == "image/png"
    assert "brown, white forehead" in page
    assert "black kid" in page
    assert "Rajan K., Pathimangalam" in page
    assert OWNER_PHONE in page
    # The owner is told as after a SEIZE by SMS.
    async with r.app.store.transaction() as tx:
        told = (
            await tx.session.execute(
                select(OutboxRow.case_number).where(OutboxRow.recipient == OWNER_PHONE)
            )
        ).all()
        loaded = await tx.load_case("KNM-1")
    assert [row.case_number for row in told] == ["KNM-1"]
    assert loaded.case.seizure.place_seized == "Kunnamangalam market"
    assert [(lot.kind, lot.count) for lot in loaded.case.seizure.lots] == [("cow", 2), ("goat", 1)]
    assert await _count(r, PhotoRow) == 2


@pytest.mark.parametrize(
    ("changed", "refusal"),
    [
        pytest.param(
            {"kind-1": "", "count-1": "", "description-1": "", "kind-2": "", "count-2": ""}
            | {"description-2": ""},
            "Say how many cattle of which kind",
            id="no lots",
        ),
        pytest.param({"kind-2": "tiger"}, "'tiger' is not a kind of cattle", id="unknown kind"),
        pytest.param({"count-1": "two"}, "'two' is not a count", id="bad count"),
        pytest.param({"phone": "12345"}, "12345", id="bad phone"),
        pytest.param(
            {"brought_on": "05-03-2026"}, "That date is after today", id="a day in the future"
        ),
        pytest.param({"place": ""}, "Say where the cattle were seized", id="no place"),
        pytest.param(
            {"owner-2": "Ayisha, Mavoor", "phone-2": "12345"}, "12345", id="bad lot phone"
        ),
        pytest.param(
            {"phone-2": "9847012346"},
            "Give the name of the owner of lot 2 too, not only the phone number.",
            id="lot phone without a name",
        ),
    ],
)
async def test_a_fault_of_the_form_shows_it_again_with_nothing_stored(
    desk: Rig, changed: dict[str, str], refusal: str
) -> None:
    r = desk
    await _keeper(r)
    form = await _form(r)
    fields = _fields(**changed)
    page = await r.client.post(
        "/web/cases/new",
        data=form | fields,
        files=[("photos", ("cow.png", png((1, 2, 3)), "image/png"))],
    )
    assert page.status_code in (400, 409), page.status_code
    assert 'class="reply refused"' in page.text
    assert refusal.lower() in html.unescape(page.text).lower(), page.text
    # The fields kept.
    assert 'value="Ravi, Chathamangalam"' in page.text
    assert f'value="{fields["place"]}"' in page.text
    assert await _count(r, CaseRow) == 0
    assert await _count(r, PhotoRow) == 0
    assert await _count(r, OutboxRow) == 0


@pytest.mark.parametrize(
    ("photo", "refusal"),
    [
        pytest.param(
            ("notes.txt", b"not a picture at all", "text/plain"), "is not a photo", id="text"
        ),
        pytest.param(
            ("cow.jpg", b"\xff\xd8" + bytes(300_000), "image/jpeg"), "larger than", id="oversize"
        ),
    ],
)
async def test_a_photo_that_fails_the_checks_refuses_the_form(
    desk: Rig, photo: tuple[str, bytes, str], refusal: str
) -> None:
    r = desk
    r.app.deps = replace(r.app.deps, photo_max_bytes=200_000)
    await _keeper(r)
    form = await _form(r)
    good = ("photos", ("cow.png", png((9, 9, 9)), "image/png"))
    page = await r.client.post(
        "/web/cases/new", data=form | _fields(), files=[good, ("photos", photo)]
    )
    assert page.status_code == 400
    shown = html.unescape(page.text)
    assert refusal in shown
    assert "Photo 2" in shown or "File 2" in shown
    assert "choose the photos again" in page.text
    assert 'value="Kunnamangalam market"' in page.text
    assert await _count(r, CaseRow) == 0
    assert await _count(r, PhotoRow) == 0


async def test_more_lots_adds_a_row_and_keeps_the_fields(desk: Rig) -> None:
    r = desk
    await _keeper(r)
    form = await _form(r)
    page = await r.client.post("/web/cases/new", data=form | _fields(more="1"))
    assert page.status_code == 200
    assert 'name="kind-4"' in page.text
    assert 'name="kind-5"' not in page.text
    assert 'value="brown, white forehead"' in page.text
    assert '<option value="goat" selected>' in page.text
    fewer = await r.client.post("/web/cases/new", data=form | _fields(rows="4", fewer="1"))
    assert 'name="kind-3"' in fewer.text
    assert 'name="kind-4"' not in fewer.text
    assert await _count(r, CaseRow) == 0


async def test_a_form_sent_twice_records_one_case(desk: Rig) -> None:
    r = desk
    await _keeper(r)
    form = await _form(r)
    first = await r.client.post("/web/cases/new", data=form | _fields())
    assert first.status_code == 303
    again = await r.client.post("/web/cases/new", data=form | _fields())
    assert again.status_code == 409
    assert "was it sent twice?" in again.text
    assert 'href="/web/cases/KNM-1"' in again.text
    assert await _count(r, CaseRow) == 1
    # The form shown again records another seizure when sent on purpose.
    after = _AFTER.search(again.text)
    assert after
    third = await r.client.post("/web/cases/new", data=form | _fields() | {"after": after.group(1)})
    assert third.status_code == 303
    assert third.headers["location"] == "/web/cases/KNM-2#reply"
    assert await _count(r, CaseRow) == 2


async def test_a_keeper_records_into_their_own_pound_only(desk: Rig) -> None:
    r = desk
    await _keeper(r, pound="ENM", phone="+919847000011")
    form = await _form(r)
    # The keeper's form names their pound and offers no other.
    assert 'name="pound"' not in (await r.client.get("/web/cases/new")).text
    done = await r.client.post("/web/cases/new", data=form | _fields(pound="KNM"))
    assert done.headers["location"] == "/web/cases/ENM-1#reply"


@pytest.mark.parametrize(
    "who",
    [
        pytest.param({"role": "admin", "authority": "KNM-GP"}, id="authority admin"),
        pytest.param({"role": "admin"}, id="state admin"),
    ],
)
async def test_an_admin_does_not_record_a_seizure(desk: Rig, who: dict[str, str]) -> None:
    r = desk
    await r.sign_in(await r.user(name="Latha", **who))
    assert 'href="/web/cases/new"' not in (await r.client.get("/web/")).text
    page = await r.client.get("/web/cases/new")
    assert page.status_code == 403
    assert "Your role does not allow this" in page.text
    assert 'name="place"' not in page.text
    csrf = csrf_of((await r.client.get("/web/")).text)
    posted = await r.client.post(
        "/web/cases/new",
        data={"csrf": csrf, "after": "0", "rows": "3"} | _fields(pound="KNM"),
        files=[("photos", ("cow.png", png((1, 2, 3)), "image/png"))],
    )
    assert posted.status_code == 403
    assert await _count(r, CaseRow) == 0
    assert await _count(r, PhotoRow) == 0


# --- an officer of the local authority ---------------------------------------------------


async def _officer(r: Rig, lang: str = "en", authority: str = "KNM-GP") -> None:
    user = await r.user("officer", authority=authority, name="Latha", lang=lang)
    await r.sign_in(user)


async def test_an_officer_records_into_a_pound_of_their_authority_without_a_keeper(
    desk: Rig,
) -> None:
    r = desk
    await _officer(r)
    assert 'href="/web/cases/new"' in (await r.client.get("/web/")).text
    assert 'href="/web/cases/new"' in (await r.client.get("/web/cases")).text
    form = await _form(r)
    shown = (await r.client.get("/web/cases/new")).text
    # A choice of the authority's pounds, none chosen; no other authority's.
    assert '<select id="pound" name="pound" required>' in shown
    assert '<option value="KNM">' in shown
    assert '<option value="PTM">' in shown
    assert 'value="ENM"' not in shown
    photos = [("photos", ("cow.png", png((120, 80, 40)), "image/png"))]
    done = await r.client.post("/web/cases/new", data=form | _fields(pound="PTM"), files=photos)
    assert done.status_code == 303, done.text
    assert done.headers["location"] == "/web/cases/PTM-1#reply"
    page = (await r.client.get("/web/cases/PTM-1")).text
    assert "Case PTM-1 recorded: 2 cows, 1 goat." in page
    assert "1 photo kept with PTM-1." in page
    assert page.count('<img src="/photo/') == 1
    # Who seized (as typed) and who recorded it (the officer, on the timeline).
    assert "Rajan K., Pathimangalam" in page
    timeline = page[page.index('aria-labelledby="timeline"') :]
    assert "Cattle brought to the pound (s.7); recorded by officer Latha on the web desk" in (
        timeline
    )
    async with r.app.store.transaction() as tx:
        loaded = await tx.load_case("PTM-1")
        recorder = await tx.recorded_by(loaded)
        told = (
            await tx.session.execute(
                select(OutboxRow.case_number).where(OutboxRow.recipient == OWNER_PHONE)
            )
        ).all()
    assert loaded.case.seizure.pound == "PTM"
    assert recorder.role == "officer"
    assert [row.case_number for row in told] == ["PTM-1"]
    assert await _count(r, PhotoRow) == 1


async def test_an_officer_must_choose_the_pound(desk: Rig) -> None:
    r = desk
    await _officer(r)
    form = await _form(r)
    page = await r.client.post(
        "/web/cases/new",
        data=form | _fields(pound=""),
        files=[("photos", ("cow.png", png((1, 2, 3)), "image/png"))],
    )
    assert page.status_code == 400
    assert "Choose the pound the cattle were brought to." in page.text
    assert 'value="Ravi, Chathamangalam"' in page.text
    assert await _count(r, CaseRow) == 0
    assert await _count(r, PhotoRow) == 0
    assert await _count(r, OutboxRow) == 0


@pytest.mark.parametrize(
    ("pound", "refusal"),
    [
        pytest.param("ENM", "Your role does not allow this", id="another authority's pound"),
        pytest.param("XYZ", "That pound is not known", id="no such pound"),
    ],
)
async def test_an_officer_records_into_no_pound_of_another_authority(
    desk: Rig, pound: str, refusal: str
) -> None:
    r = desk
    await _officer(r)
    form = await _form(r)
    page = await r.client.post(
        "/web/cases/new",
        data=form | _fields(pound=pound),
        files=[("photos", ("cow.png", png((1, 2, 3)), "image/png"))],
    )
    assert page.status_code == 409
    assert refusal in html.unescape(page.text)
    assert 'value="Kunnamangalam market"' in page.text
    assert await _count(r, CaseRow) == 0
    assert await _count(r, PhotoRow) == 0
    assert await _count(r, OutboxRow) == 0


async def test_an_officer_of_another_authority_is_refused_in_malayalam(desk: Rig) -> None:
    r = desk
    await _officer(r, lang="ml", authority="ENM-GP")
    form = await _form(r)
    shown = (await r.client.get("/web/cases/new")).text
    # ENM-GP has one pound: chosen already, no blank choice.
    select = shown[shown.index('<select id="pound"') :]
    select = select[: select.index("</select>")]
    assert '<option value="ENM" selected>' in select
    assert '<option value="">' not in select
    page = await r.client.post("/web/cases/new", data=form | _fields(pound="KNM"))
    assert page.status_code == 409
    tr = translator("ml")
    assert html.escape(render.app_error(NotAllowedError("x"), tr)) in page.text
    assert await _count(r, CaseRow) == 0


async def test_the_pounds_keeper_corrects_the_case_an_officer_recorded_on_the_desk(
    desk: Rig,
) -> None:
    r = desk
    await _officer(r)
    form = await _form(r)
    done = await r.client.post("/web/cases/new", data=form | _fields(pound="KNM"))
    assert done.headers["location"] == "/web/cases/KNM-1#reply"
    await _keeper(r)
    page = await r.client.get("/web/cases/KNM-1")
    assert 'action="/web/cases/KNM-1/correct"' in page.text
    fields = {"field": "place", "value": "Kunnamangalam bus stand", "reason": "misheard"}
    corrected = await r.client.post("/web/cases/KNM-1/correct", data=step_form(page.text) | fields)
    assert corrected.status_code == 303, corrected.text
    async with r.app.store.transaction() as tx:
        assert (await tx.load_case("KNM-1")).case.seizure.place_seized == fields["value"]


async def test_without_the_csrf_token_nothing_is_recorded(desk: Rig) -> None:
    r = desk
    await _keeper(r)
    form = await _form(r)
    page = await r.client.post("/web/cases/new", data=form | _fields(csrf="forged"))
    assert page.status_code == 403
    assert await _count(r, CaseRow) == 0


async def test_each_lot_may_name_its_own_owner_as_after_each_lot_in_a_seize_line(
    desk: Rig,
) -> None:
    r = desk
    await _keeper(r)
    form = await _form(r)
    page = (await r.client.get("/web/cases/new")).text
    assert 'name="owner-1"' in page
    assert 'name="phone-3"' in page
    lots = {
        "owner-1": "Kunhammed, Chathamangalam",
        "phone-1": "98470 12346",
        "owner-2": "Ayisha, Mavoor",
        "phone-2": "9847012347",
        "kind-3": "calf",
        "count-3": "1",
        "owner-3": "Kunhammed, Chathamangalam",
        "phone-3": "9847012346",
    }
    done = await r.client.post("/web/cases/new", data=form | _fields(owner="", phone="", **lots))
    assert done.status_code == 303, done.text
    async with r.app.store.transaction() as tx:
        loaded = await tx.load_case("KNM-1")
        phones = await tx.lot_phones(loaded)
    seizure = loaded.case.seizure
    # As the chat's SEIZE 2 cow OWNER Kunhammed ... 1 goat OWNER Ayisha ... records them.
    line = parse(
        "SEIZE 2 cow (brown, white forehead) OWNER Kunhammed, Chathamangalam 9847012346 "
        "1 goat (black kid) OWNER Ayisha, Mavoor 9847012347 1 calf OWNER Kunhammed, "
        "Chathamangalam 9847012346 AT Kunnamangalam market",
        r.app.config,
        date(2026, 3, 1),
    )
    assert isinstance(line, Seize)
    assert [
        (lot.owner.name, lot.owner.residence) if lot.owner else None for lot in seizure.lots
    ] == [
        ("Kunhammed", "Chathamangalam"),
        ("Ayisha", "Mavoor"),
        ("Kunhammed", "Chathamangalam"),
    ]
    assert [person_of(lot.owner) for lot in line.lots] == [lot.owner for lot in seizure.lots]
    assert phones == tuple(lot.owner_phone for lot in line.lots)
    assert phones == ("+919847012346", "+919847012347", "+919847012346")
    assert seizure.owner is None
    assert loaded.row.owner_phone is None
    assert seizure.lots_of_owner(0) == (0, 2)
    # The case page shows each lot's owner and number to the staff.
    shown = (await r.client.get("/web/cases/KNM-1")).text
    cells = re.findall(r'<td data-label="Owner" class="lot-owner">(.*?)</td>', shown)
    assert cells == [
        'Kunhammed, Chathamangalam <a href="tel:+919847012346">+919847012346</a>',
        'Ayisha, Mavoor <a href="tel:+919847012347">+919847012347</a>',
        'Kunhammed, Chathamangalam <a href="tel:+919847012346">+919847012346</a>',
    ]


async def test_a_lot_of_its_own_owner_beside_the_owner_of_the_others(desk: Rig) -> None:
    r = desk
    await _keeper(r)
    form = await _form(r)
    lots = {"owner-2": "Ayisha, Mavoor", "phone-2": "9847012347"}
    done = await r.client.post("/web/cases/new", data=form | _fields(**lots))
    assert done.status_code == 303, done.text
    async with r.app.store.transaction() as tx:
        loaded = await tx.load_case("KNM-1")
        phones = await tx.lot_phones(loaded)
    seizure = loaded.case.seizure
    assert seizure.owner is not None
    assert seizure.owner.name == "Ravi"
    assert seizure.lots[0].owner is None
    assert seizure.lots[1].owner is not None
    assert seizure.lots[1].owner.name == "Ayisha"
    assert loaded.row.owner_phone == OWNER_PHONE
    assert phones == (None, "+919847012347")
    shown = (await r.client.get("/web/cases/KNM-1")).text
    cells = re.findall(r'<td data-label="Owner" class="lot-owner">(.*?)</td>', shown)
    assert cells == [
        f'Ravi, Chathamangalam <a href="tel:{OWNER_PHONE}">{OWNER_PHONE}</a>',
        'Ayisha, Mavoor <a href="tel:+919847012347">+919847012347</a>',
    ]
    # A case of one owner: no owner by lot; the case's owner as before.
    form = await _form(r)
    done = await r.client.post("/web/cases/new", data=form | _fields())
    assert done.status_code == 303, done.text
    one = (await r.client.get("/web/cases/KNM-2")).text
    assert "lot-owner" not in one
    assert "Ravi" in one
    assert OWNER_PHONE in one


async def test_a_lots_owner_is_kept_when_the_form_is_shown_again(desk: Rig) -> None:
    r = desk
    await _keeper(r)
    form = await _form(r)
    lots = {"owner-2": "Ayisha, Mavoor", "phone-2": "0495 2370000"}
    page = await r.client.post("/web/cases/new", data=form | _fields(**lots))
    assert page.status_code == 400
    assert "is a landline" in html.unescape(page.text)
    assert 'name="owner-2" value="Ayisha, Mavoor"' in page.text
    assert 'name="phone-2" value="0495 2370000"' in page.text
    more = await r.client.post("/web/cases/new", data=form | _fields(more="1", **lots))
    assert 'name="owner-2" value="Ayisha, Mavoor"' in more.text
    assert 'name="owner-4" value=""' in more.text
    assert await _count(r, CaseRow) == 0
