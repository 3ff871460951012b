"""Users from a CSV file on the web desk, through real HTTP and real multipart uploads, on
SQLite and PostgreSQL: the dry run shows each line (new, unchanged, changed, refused with
why and its line) and changes nothing; the confirmation imports exactly that, with the
new users' invites shown once; the users changed in between: the dry run again, nothing
imported; a bad file is refused in words, nothing changed; an authority admin imports
their own authority's users only, a keeper or an officer none."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import httpx
import pytest
from sqlalchemy import func, select

from bot.bootstrap import open_app
from bot.services import admin as a
from bot.store.models import Invite, User, UserChange
from bot.support.caller import Caller
from tests.conftest import ENGINES
from tests.integration.test_migrations import fresh_pg_database
from tests.web.rig import Rig, csrf_of, rig

SHEET = (
    "\ufeffName,Phone number,Role,Language,Pound,Local authority,Offices,Reason\r\n"
    "Velayudhan,98470 55555,keeper,ml,KNM,,,\r\n"
    "Suresh,+919847000010,keeper,,KNM,,,\r\n"
    "Latha K,9847000020,officer,,,KNM-GP,secretary,her full name\r\n"
    "\r\n"
    "Nobody,12345,keeper,,KNM,,,\r\n"
)
_HIDDEN = re.compile(r'<input type="hidden" name="([a-z]+)" value="([^"]*)">')


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
    """A state admin (Suma), the admin of KNM-GP (Latheef), the keeper of KNM (Suresh),
    an officer of KNM-GP (Latha)."""
    if url is not None:
        async with open_app(url=url, migrate=True):
            pass
    async with rig(tmp_path, url=url, telegram_username="poundbot_test_bot") as r:
        await r.user("admin", name="Suma")
        await r.user("admin", authority="KNM-GP", name="Latheef")
        await r.user("keeper", pound="KNM", phone="+919847000010", name="Suresh")
        await r.user("officer", authority="KNM-GP", phone="+919847000020", name="Latha")
        yield r


async def _as(r: Rig, name: str) -> str:
    """Signs in as ``name``; the CSRF token of the import's form."""
    async with r.app.store.transaction() as tx:
        user = await tx.session.scalar(select(User).where(User.name == name))
    assert user is not None
    r.client.cookies.clear()
    await r.sign_in(user)
    page = await r.client.get("/web/users/import")
    return (
        csrf_of(page.text)
        if page.status_code == 200
        else csrf_of((await r.client.get("/web/")).text)
    )


async def _check(
    r: Rig, csrf: str, data: bytes, *, reason: str = "the spring roll-out", name: str = "users.csv"
) -> httpx.Response:
    return await r.client.post(
        "/web/users/import",
        data={"csrf": csrf, "reason": reason},
        files={"file": (name, data, "text/csv")},
    )


def _confirm_form(html: str) -> dict[str, str]:
    start = html.index('action="/web/users/import/apply"')
    form = html[start : html.index("</form>", start)]
    return dict(_HIDDEN.findall(form))


async def _counts(r: Rig) -> tuple[int, int, int]:
    async with r.app.store.transaction() as tx:
        return (
            int(await tx.session.scalar(select(func.count()).select_from(User)) or 0),
            int(await tx.session.scalar(select(func.count()).select_from(UserChange)) or 0),
            int(await tx.session.scalar(select(func.count()).select_from(Invite)) or 0),
        )


async def test_the_dry_run_shows_each_line_and_changes_nothing(desk: Rig) -> None:
    r = desk
    csrf = await _as(r, "Suma")
    users = await r.client.get("/web/users")
    assert 'href="/web/users/import"' in users.text  # the link from the page of users
    before = await _counts(r)
    page = await _check(r, csrf, SHEET.encode())
    assert page.status_code == 200
    assert "Dry run: nothing has been changed yet." in page.text
    line = lambda n: page.text[page.text.index(f'id="line-{n}"') :].split("</tr>")[0]  # noqa: E731
    assert "new user" in line(2)
    assert "+919847055555" in line(2)
    assert "already there, unchanged" in line(3)
    assert "changed" in line(4)
    assert "Latha → Latha K" in line(4)
    assert "Offices: secretary" in line(4)
    assert "refused" in line(6)
    assert "too few digits" in line(6) or "mobile" in line(6)
    assert 'id="line-5"' not in page.text  # the blank line is skipped
    assert "Nothing is imported while a line is refused" in page.text
    assert 'action="/web/users/import/apply"' not in page.text
    assert await _counts(r) == before


async def test_the_confirmation_imports_what_the_dry_run_showed_and_shows_the_invites_once(
    desk: Rig,
) -> None:
    r = desk
    csrf = await _as(r, "Suma")
    sheet = SHEET.replace("Nobody,12345", "Nobody,9847000040").encode()
    page = await _check(r, csrf, sheet)
    assert page.status_code == 200
    form = _confirm_form(page.text)
    assert set(form) == {"csrf", "reason", "digest", "sheet", "seal"}
    done = await r.client.post("/web/users/import/apply", data=form)
    assert done.status_code == 200
    assert "The users were imported." in done.text
    assert done.text.count('href="https://t.me/poundbot_test_bot?start=') == 2  # 2 new users
    async with r.app.store.transaction() as tx:
        new = await tx.user_by_phone("+919847055555")
        latha = await tx.user_by_phone("+919847000020")
        assert new is not None
        assert latha is not None
        assert (new.name, new.pound_code, new.lang) == ("Velayudhan", "KNM", "ml")
        assert (latha.name, latha.offices) == ("Latha K", "secretary")
        history = await tx.user_changes(user_id=latha.id)
    assert {c.reason for c in history if c.field == "name" and c.old} == {"her full name"}
    # The same confirmation again: the plan no longer holds; nothing imported twice.
    before = await _counts(r)
    again = await r.client.post("/web/users/import/apply", data=form)
    assert again.status_code == 409
    assert "The users changed since the file was checked: nothing was imported." in again.text
    assert "already there, unchanged" in again.text
    assert await _counts(r) == before


async def test_users_changed_between_the_check_and_the_confirmation_import_nothing(
    desk: Rig,
) -> None:
    r = desk
    csrf = await _as(r, "Suma")
    sheet = (
        b"Name,Phone,Role,Pound\nVelayudhan,9847055555,keeper,KNM\nSuresh K,9847000010,keeper,KNM\n"
    )
    form = _confirm_form((await _check(r, csrf, sheet)).text)
    async with r.app.store.transaction() as tx:  # meanwhile, on Suresh's page
        suresh = await tx.user_by_phone("+919847000010")
        assert suresh is not None
        await a.edit_user(tx, r.app.deps, Caller.system(), suresh.id, name="Suresh K", reason="x")
    before = await _counts(r)
    page = await r.client.post("/web/users/import/apply", data=form)
    assert page.status_code == 409
    assert "nothing was imported" in page.text
    assert await _counts(r) == before
    assert 'action="/web/users/import/apply"' in page.text  # the new plan, to confirm


@pytest.mark.parametrize(
    ("data", "name", "said"),
    [
        pytest.param(b"PK\x03\x04xlsx", "users.xlsx", "not a CSV file", id="workbook"),
        pytest.param(
            "phone,role\n9847000050,keeper\n".encode("utf-16"), "u.csv", "not in UTF-8", id="utf16"
        ),
        pytest.param(b"name,role\nRavi,keeper\n", "u.csv", "no column “Phone number”", id="column"),
        pytest.param(b"phone,role\n" + b"x" * 1_000_001, "u.csv", "too big", id="size"),
        pytest.param(b"\r\n\r\n", "u.csv", "The file has no users", id="empty"),
    ],
)
async def test_a_bad_file_is_refused_in_words_and_changes_nothing(
    desk: Rig, data: bytes, name: str, said: str
) -> None:
    r = desk
    csrf = await _as(r, "Suma")
    before = await _counts(r)
    page = await _check(r, csrf, data, name=name)
    assert page.status_code == 400
    assert said in page.text
    assert 'id="error"' in page.text
    assert await _counts(r) == before


async def test_no_file_no_reason_no_csrf_and_a_forged_confirmation_are_refused(desk: Rig) -> None:
    r = desk
    csrf = await _as(r, "Suma")
    before = await _counts(r)
    none = await r.client.post("/web/users/import", data={"csrf": csrf, "reason": "x"}, files={})
    assert none.status_code == 400
    assert "Choose the CSV file of users." in none.text
    blank = await _check(r, csrf, SHEET.encode(), reason=" ")
    assert blank.status_code == 400
    assert "Give the reason" in blank.text
    stale = await _check(r, "not-the-token", SHEET.encode())
    assert stale.status_code == 403
    sheet = b"phone,role,pound\n9847055555,keeper,KNM\n"
    form = _confirm_form((await _check(r, csrf, sheet)).text)
    other = b"phone,role\n9847055555,admin\n"
    import base64

    forged = {**form, "sheet": base64.b64encode(other).decode()}
    page = await r.client.post("/web/users/import/apply", data=forged)
    assert page.status_code == 403
    reasoned = await r.client.post("/web/users/import/apply", data={**form, "reason": "other"})
    assert reasoned.status_code == 403
    assert await _counts(r) == before


async def test_an_authority_admin_imports_their_authoritys_users_and_others_none(desk: Rig) -> None:
    r = desk
    csrf = await _as(r, "Latheef")
    sheet = b"phone,role,pound\n9847055555,keeper,KNM\n9847055556,keeper,ENM\n"
    page = await _check(r, csrf, sheet)
    assert page.status_code == 200
    own = page.text[page.text.index('id="line-2"') :].split("</tr>")[0]
    other = page.text[page.text.index('id="line-3"') :].split("</tr>")[0]
    assert "new user" in own
    assert "refused" in other
    assert 'action="/web/users/import/apply"' not in page.text
    mine = await _check(r, csrf, b"phone,role,pound\n9847055555,keeper,PTM\n")
    done = await r.client.post("/web/users/import/apply", data=_confirm_form(mine.text))
    assert done.status_code == 200
    for name in ("Suresh", "Latha"):
        csrf = await _as(r, name)
        assert (await r.client.get("/web/users/import")).status_code == 403
        before = await _counts(r)
        refused = await _check(r, csrf, sheet)
        assert refused.status_code == 403
        assert await _counts(r) == before
