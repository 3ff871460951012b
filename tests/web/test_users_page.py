"""The page of users of the web desk through real HTTP, on SQLite and PostgreSQL: an
administrator adds a user (and their invite, shown once), edits them, disables them (their
sessions end at once), enables them, invites them again and reads their history; the
audit of users as CSV; what each kind of administrator may see and change, and the
refusals of keepers and officers."""

from __future__ import annotations

import io
import re
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import httpx
import pytest
from sqlalchemy import func, select

from bot.adapters.export import read_table
from bot.bootstrap import open_app
from bot.store.models import Invite, User, UserChange, WebSession
from bot.support.csv_sheet import write_csv
from tests.conftest import ENGINES
from tests.integration.test_migrations import fresh_pg_database
from tests.web.rig import Rig, csrf_of, rig

KEEPER_PHONE = "+919847000010"
#: A new keeper, as an administrator types him in.
NEW = {
    "role": "keeper",
    "name": "Velayudhan",
    "phone": "98470 55555",
    "lang": "ml",
    "pound": "KNM",
    "authority": "",
    "reason": "new keeper of the pound",
}
_CODE = re.compile(r"Invite code: ([A-Za-z0-9_-]+)")


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
    """A state admin (Suma), the admins of KNM-GP (Latheef) and of ENM-GP (Mercy), the
    keepers of KNM (Suresh) and ENM (Mini), an officer of KNM-GP (Latha)."""
    if url is not None:
        async with open_app(url=url, migrate=True):
            pass
    async with rig(tmp_path, url=url) as r:
        await r.user("admin", name="Suma")
        await r.user("admin", authority="KNM-GP", name="Latheef")
        await r.user("admin", authority="ENM-GP", name="Mercy")
        await r.user("keeper", pound="KNM", phone=KEEPER_PHONE, name="Suresh")
        await r.user("keeper", pound="ENM", phone="+919847000011", name="Mini")
        await r.user("officer", authority="KNM-GP", name="Latha")
        yield r


async def _named(r: Rig, name: str) -> User:
    async with r.app.store.transaction() as tx:
        found = await tx.session.scalar(select(User).where(User.name == name))
    assert found is not None, name
    return found


async def _as(r: Rig, name: str) -> str:
    """Signs in as the user ``name``; the CSRF token of the session."""
    r.client.cookies.clear()
    await r.sign_in(await _named(r, name))
    return csrf_of((await r.client.get("/web/")).text)


async def _count(r: Rig, model: type[User] | type[Invite] | type[UserChange]) -> int:
    async with r.app.store.transaction() as tx:
        return int(await tx.session.scalar(select(func.count()).select_from(model)) or 0)


def _shown(html: str) -> str:
    """The text of a page, its tags and entities plain enough to search."""
    return re.sub(r"<[^>]+>", " ", html).replace("&#39;", "'").replace("&#34;", '"')


# -- the list ------------------------------------------------------------------------------


async def test_a_state_admin_lists_every_user_and_an_authority_admin_their_own(desk: Rig) -> None:
    r = desk
    await _as(r, "Suma")
    page = await r.client.get("/web/users")
    assert page.status_code == 200
    for name in ("Suma", "Latheef", "Mercy", "Suresh", "Mini", "Latha"):
        assert f">{name}</a>" in page.text, name
    assert KEEPER_PHONE in page.text  # an admin reads the whole number
    assert "pound-keeper of" in page.text
    assert "state administrator" in page.text
    assert '<a href="/web/users">Users</a>' in page.text  # in the menu

    narrowed = await r.client.get("/web/users?role=keeper&authority=ENM-GP")
    assert ">Mini</a>" in narrowed.text
    assert ">Suresh</a>" not in narrowed.text
    searched = await r.client.get("/web/users?q=000010")
    assert ">Suresh</a>" in searched.text
    assert ">Mini</a>" not in searched.text
    admins = await r.client.get("/web/users?role=state_admin")
    assert ">Suma</a>" in admins.text
    assert ">Latheef</a>" not in admins.text

    await _as(r, "Latheef")
    mine = await r.client.get("/web/users")
    assert mine.status_code == 200
    for name in ("Latheef", "Suresh", "Latha"):
        assert f">{name}</a>" in mine.text, name
    for name in ("Suma", "Mercy", "Mini"):
        assert f">{name}</a>" not in mine.text, name
    assert (await r.client.get("/web/users?authority=ENM-GP")).status_code == 403


async def test_the_list_is_50_a_page(desk: Rig) -> None:
    r = desk
    for n in range(60):
        await r.user("keeper", pound="KNM", name=f"Keeper {n:02d}")
    await _as(r, "Suma")
    first = await r.client.get("/web/users?role=keeper")
    assert first.text.count('<tr id="user-') == 50
    assert "62 users" in first.text
    assert "page=2" in first.text
    second = await r.client.get("/web/users?role=keeper&page=2")
    assert second.text.count('<tr id="user-') == 12


# -- adding a user ----------------------------------------------------------------------------


async def test_an_admin_adds_a_keeper_and_sees_his_invite_once(desk: Rig) -> None:
    r = desk
    csrf = await _as(r, "Latheef")
    form = await r.client.get("/web/users/new")
    assert form.status_code == 200
    added = await r.client.post("/web/users/new", data={**NEW, "csrf": csrf})
    assert added.status_code == 303
    where = added.headers["location"]
    assert re.fullmatch(r"/web/users/\d+", where)
    cookie = added.headers["set-cookie"]
    page = await r.client.get(where)
    assert page.status_code == 200
    code = _CODE.search(page.text)
    assert code is not None, page.text
    assert code.group(1) not in cookie  # sealed: the browser cannot read it
    assert "The user was added." in page.text
    user = await _named(r, "Velayudhan")
    assert (user.role, user.pound_code, user.authority_code) == ("keeper", "KNM", "KNM-GP")
    assert (user.phone, user.lang) == ("+919847055555", "ml")  # normalised as the CLI does
    async with r.app.store.transaction() as tx:
        invite = await tx.session.get(Invite, code.group(1))
        assert invite is not None
        assert invite.for_user == user.id
        changes = await tx.user_changes(user_id=user.id)
    assert {c.reason for c in changes} == {"new keeper of the pound"}
    again = await r.client.get(where)  # the code is shown once
    assert _CODE.search(again.text) is None
    assert "Velayudhan" in again.text


async def test_the_invite_is_a_link_to_the_bot_when_its_name_is_known(tmp_path: Path) -> None:
    """With ``TELEGRAM_BOT_USERNAME`` set, the invite is a t.me link, as the CLI prints."""
    async with rig(tmp_path, telegram_username="kunnamangalam_pound_bot") as r:
        await r.user("admin", name="Suma")
        csrf = await _as(r, "Suma")
        added = await r.client.post("/web/users/new", data={**NEW, "csrf": csrf})
        page = await r.client.get(added.headers["location"])
        assert re.search(r"https://t\.me/kunnamangalam_pound_bot\?start=[\w-]+", page.text)


#: Each bad input of the form that adds a user (a field changed from ``NEW``) and what
#: the form says again.
BAD = {
    "phone too short": ({"phone": "98470"}, "too few digits"),
    "phone of letters": ({"phone": "ninety eight"}, "not a"),
    "a landline": ({"phone": "0495 2721234"}, "mobile"),
    "a keeper without a pound": ({"pound": ""}, "Choose the pound of the pound-keeper."),
    "an officer without an authority": (
        {"role": "officer", "pound": ""},
        "Choose the local authority of the officer.",
    ),
    "no role": ({"role": ""}, "Choose a role."),
    "an unknown language": ({"lang": "fr"}, "Choose a language from the list."),
    "no reason": ({"reason": "  "}, "Give the reason for the change"),
    "a phone registered": ({"phone": KEEPER_PHONE}, "already registered to another user"),
    "another authority's pound": ({"pound": "ENM"}, "Your role does not allow this"),
}


@pytest.mark.parametrize("bad", list(BAD), ids=list(BAD))
async def test_a_bad_input_shows_the_form_again_with_what_was_typed_and_stores_nothing(
    desk: Rig, bad: str
) -> None:
    r = desk
    change, said = BAD[bad]
    csrf = await _as(r, "Latheef")
    before = [await _count(r, m) for m in (User, Invite, UserChange)]
    page = await r.client.post("/web/users/new", data={**NEW, **change, "csrf": csrf})
    assert page.status_code in (400, 403)
    assert said in _shown(page.text), _shown(page.text)
    assert 'value="Velayudhan"' in page.text  # the form again, as typed
    if "phone" in change:
        assert f'value="{change["phone"]}"' in page.text
    assert [await _count(r, m) for m in (User, Invite, UserChange)] == before


async def test_the_same_keeper_added_twice_is_refused_and_nothing_is_half_made(
    desk: Rig,
) -> None:
    r = desk
    csrf = await _as(r, "Suma")
    first = await r.client.post("/web/users/new", data={**NEW, "csrf": csrf})
    assert first.status_code == 303
    counts = [await _count(r, m) for m in (User, Invite, UserChange)]
    second = await r.client.post("/web/users/new", data={**NEW, "csrf": csrf})
    assert second.status_code == 400
    assert "already registered to another user" in second.text
    assert [await _count(r, m) for m in (User, Invite, UserChange)] == counts
    async with r.app.store.transaction() as tx:
        same = await tx.session.scalar(
            select(func.count()).select_from(User).where(User.name == "Velayudhan")
        )
    assert same == 1


async def test_an_officer_is_added_with_the_offices_he_holds(desk: Rig) -> None:
    r = desk
    csrf = await _as(r, "Latheef")
    data = {**NEW, "role": "officer", "pound": "", "authority": "KNM-GP", "name": "Anil"}
    page = await r.client.post(
        "/web/users/new", data={**data, "csrf": csrf, "offices": ["secretary", "director"]}
    )
    assert page.status_code == 303
    assert (await _named(r, "Anil")).offices == "secretary,director"


async def test_a_form_without_its_csrf_token_is_refused(desk: Rig) -> None:
    r = desk
    await _as(r, "Suma")
    page = await r.client.post("/web/users/new", data=NEW)
    assert page.status_code == 403
    keeper = await _named(r, "Suresh")
    refused = await r.client.post(f"/web/users/{keeper.id}/disable", data={"reason": "x"})
    assert refused.status_code == 403
    assert (await _named(r, "Suresh")).active


# -- one user -------------------------------------------------------------------------------


async def test_an_admin_edits_a_keeper_s_phone_and_reads_it_in_his_history(desk: Rig) -> None:
    r = desk
    csrf = await _as(r, "Latheef")
    keeper = await _named(r, "Suresh")
    page = await r.client.get(f"/web/users/{keeper.id}")
    assert page.status_code == 200
    assert KEEPER_PHONE in page.text
    form = {"name": "Suresh", "phone": "9847066666", "lang": "en", "pound": "KNM"}
    refused = await r.client.post(
        f"/web/users/{keeper.id}/edit", data={**form, "reason": "", "csrf": csrf}
    )
    assert refused.status_code == 400
    assert "Give the reason for the change" in _shown(refused.text)
    assert 'value="9847066666"' in refused.text  # kept
    assert (await _named(r, "Suresh")).phone == KEEPER_PHONE
    done = await r.client.post(
        f"/web/users/{keeper.id}/edit", data={**form, "reason": "new SIM", "csrf": csrf}
    )
    assert done.status_code == 303
    page = await r.client.get(done.headers["location"])
    assert "The changes were saved." in page.text
    assert (await _named(r, "Suresh")).phone == "+919847066666"
    history = page.text.split('id="history"')[1]
    row = _shown(history)
    assert "Phone number" in row
    assert KEEPER_PHONE in row
    assert "+919847066666" in row
    assert "new SIM" in row
    assert "Latheef" in row
    assert "the command line" in row  # he was added by the operator
    # newest first: the edit before the rows of his registration
    assert row.index("new SIM") < row.index("the command line")
    unchanged = await r.client.post(
        f"/web/users/{keeper.id}/edit",
        data={**form, "phone": "+919847066666", "reason": "again", "csrf": csrf},
    )
    assert unchanged.status_code == 400
    assert "Nothing was changed." in unchanged.text


async def test_disabling_a_keeper_ends_his_sessions_at_once_and_enabling_brings_him_back(
    desk: Rig,
) -> None:
    r = desk
    keeper = await _named(r, "Suresh")
    async with httpx.AsyncClient(transport=httpx.ASGITransport(r.asgi), base_url=r.origin) as his:
        him = Rig(r.asgi, his, r.clock, r.origin)
        await him.sign_in(keeper)
        assert (await his.get("/web/")).status_code == 200
        csrf = await _as(r, "Latheef")
        refused = await r.client.post(
            f"/web/users/{keeper.id}/disable", data={"reason": "", "csrf": csrf}
        )
        assert refused.status_code == 400
        assert (await his.get("/web/")).status_code == 200  # nothing done
        done = await r.client.post(
            f"/web/users/{keeper.id}/disable", data={"reason": "left the post", "csrf": csrf}
        )
        assert done.status_code == 303
        after = await his.get("/web/")
        assert (after.status_code, after.headers["location"]) == (303, "/web/signin")
    async with r.app.store.transaction() as tx:
        ended = await tx.session.scalars(
            select(WebSession.ended_at).where(WebSession.user_id == keeper.id)
        )
        assert [at is not None for at in ended] == [True]
    page = await r.client.get(f"/web/users/{keeper.id}")
    assert "Disabled since" in page.text
    assert "left the post" in page.text
    assert f'action="/web/users/{keeper.id}/enable"' in page.text
    listed = await r.client.get("/web/users?q=Suresh")
    assert "Disabled since" in listed.text

    enabled = await r.client.post(
        f"/web/users/{keeper.id}/enable", data={"reason": "back at work", "csrf": csrf}
    )
    assert enabled.status_code == 303
    assert (await _named(r, "Suresh")).active
    page = await r.client.get(enabled.headers["location"])
    assert "The user was enabled again." in page.text
    twice = await r.client.post(
        f"/web/users/{keeper.id}/enable", data={"reason": "again", "csrf": csrf}
    )
    assert twice.status_code == 400


async def test_invite_again_shows_a_new_code_once_and_the_old_one_stops_working(
    desk: Rig,
) -> None:
    r = desk
    csrf = await _as(r, "Suma")
    keeper = await _named(r, "Suresh")
    codes = []
    for reason in ("new phone", "lost it again"):
        done = await r.client.post(
            f"/web/users/{keeper.id}/invite", data={"reason": reason, "csrf": csrf}
        )
        assert done.status_code == 303
        page = await r.client.get(done.headers["location"])
        found = _CODE.search(page.text)
        assert found is not None
        codes.append(found.group(1))
        assert _CODE.search((await r.client.get(done.headers["location"])).text) is None
    async with r.app.store.transaction() as tx:
        old, new = [await tx.session.get(Invite, code) for code in codes]
        assert old is not None
        assert new is not None
        assert old.expires_at <= tx.now < new.expires_at
        assert old.for_user == new.for_user == keeper.id
    refused = await r.client.post(
        f"/web/users/{keeper.id}/invite", data={"reason": "", "csrf": csrf}
    )
    assert refused.status_code == 400
    assert _CODE.search(refused.text) is None


async def test_the_note_of_a_change_opens_only_for_its_session(desk: Rig) -> None:
    """The sealed cookie of an invite, carried to another session, shows nothing."""
    r = desk
    csrf = await _as(r, "Suma")
    keeper = await _named(r, "Suresh")
    done = await r.client.post(
        f"/web/users/{keeper.id}/invite", data={"reason": "new phone", "csrf": csrf}
    )
    sealed = done.cookies.get("poundbot_users_note")
    assert sealed
    await _as(r, "Suma")  # a new session
    r.client.cookies.set("poundbot_users_note", sealed, path="/web/users")
    page = await r.client.get(f"/web/users/{keeper.id}")
    assert page.status_code == 200
    assert _CODE.search(page.text) is None


# -- the audit -------------------------------------------------------------------------------


def _csv(table: object) -> str:
    out = io.StringIO()
    write_csv(out, table)  # type: ignore[arg-type]
    return out.getvalue()


async def test_the_audit_of_an_authority_is_what_export_audit_writes(desk: Rig) -> None:
    r = desk
    csrf = await _as(r, "Suma")
    keeper = await _named(r, "Mini")
    await r.client.post(f"/web/users/{keeper.id}/disable", data={"reason": "left", "csrf": csrf})
    for authority in ("KNM-GP", "ENM-GP"):
        page = await r.client.get(f"/web/users/audit.csv?authority={authority}")
        assert page.status_code == 200
        assert page.headers["content-type"].startswith("text/csv")
        async with r.app.store.transaction() as tx:
            expected = _csv(await read_table(tx, "audit", authority=authority))
        assert page.text == expected
    every = await r.client.get("/web/users/audit.csv")
    async with r.app.store.transaction() as tx:
        assert every.text == _csv(await read_table(tx, "audit"))

    await _as(r, "Latheef")
    own = await r.client.get("/web/users/audit.csv?authority=KNM-GP")
    assert own.status_code == 200
    assert "left" not in own.text
    assert (await r.client.get("/web/users/audit.csv")).text == own.text
    other = await r.client.get("/web/users/audit.csv?authority=ENM-GP")
    assert other.status_code == 403
    assert "left" not in other.text


# -- who may ---------------------------------------------------------------------------------


@pytest.mark.parametrize("who", ["Suresh", "Latha"])
async def test_keepers_and_officers_are_refused_every_route_of_the_page(
    desk: Rig, who: str
) -> None:
    r = desk
    csrf = await _as(r, who)
    home = await r.client.get("/web/")
    assert 'href="/web/users"' not in home.text
    other = await _named(r, "Mini")
    for path in ("/web/users", "/web/users/new", "/web/users/audit.csv", f"/web/users/{other.id}"):
        page = await r.client.get(path)
        assert page.status_code == 403, path
        assert "Mini" not in page.text
        assert "+919847000011" not in page.text
    before = [await _count(r, m) for m in (User, Invite, UserChange)]
    added = await r.client.post("/web/users/new", data={**NEW, "csrf": csrf})
    assert added.status_code == 403
    for change in ("edit", "disable", "enable", "invite"):
        page = await r.client.post(
            f"/web/users/{other.id}/{change}",
            data={"name": "X", "reason": "because", "csrf": csrf},
        )
        assert page.status_code == 403, change
        assert "Mini" not in page.text
    assert [await _count(r, m) for m in (User, Invite, UserChange)] == before


async def test_an_authority_admin_cannot_see_or_change_another_authority_s_user(
    desk: Rig,
) -> None:
    r = desk
    csrf = await _as(r, "Latheef")
    other = await _named(r, "Mini")
    page = await r.client.get(f"/web/users/{other.id}")
    assert page.status_code == 403
    assert "Mini" not in page.text
    assert "+919847000011" not in page.text
    assert (await r.client.get("/web/users/99999")).status_code == 404
    before = [await _count(r, m) for m in (User, Invite, UserChange)]
    for change in ("edit", "disable", "invite"):
        refused = await r.client.post(
            f"/web/users/{other.id}/{change}",
            data={"name": "X", "phone": "9847077777", "reason": "because", "csrf": csrf},
        )
        assert refused.status_code == 403, change
        assert "Mini" not in refused.text
    state = await _named(r, "Suma")
    assert (await r.client.get(f"/web/users/{state.id}")).status_code == 403
    # nor makes a state administrator, nor moves a keeper out of the authority
    keeper = await _named(r, "Suresh")
    moved = await r.client.post(
        f"/web/users/{keeper.id}/edit",
        data={"name": "Suresh", "pound": "ENM", "reason": "moved", "csrf": csrf},
    )
    assert moved.status_code == 403
    assert [await _count(r, m) for m in (User, Invite, UserChange)] == before
    assert (await _named(r, "Mini")).active
    assert (await _named(r, "Suresh")).pound_code == "KNM"
