"""Every route of the web desk walked as three administrators: a state admin (every
authority), the admin of KNM-GP and the admin of ENM-GP. A route about a case gives an
admin of another authority a 403 or 404 page without the case's content; a list gives
each their own authority's cases, messages and pounds only; a route that is no admin's
power (signing in, the public board, the static files) answers the three alike. A route
added to the desk and not classified here fails the walk. On SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from datetime import date
from pathlib import Path

import pytest
from sqlalchemy import func, select
from starlette.routing import Mount, Route

from bot.bootstrap import open_app
from bot.channels.identity import caller_of
from bot.config.names import local
from bot.conversation.photos import last_event_id
from bot.services import keeper as k
from bot.services import officer as o
from bot.services.admin import disable_user
from bot.store.config_versions import latest_id
from bot.store.models import OutboxRow, User
from bot.support.caller import Caller
from bot.web.app import web_routes
from domain.money import Money
from domain.s07_seizure import Person
from tests.conftest import ENGINES
from tests.integration.test_migrations import fresh_pg_database
from tests.service.helpers import seizure
from tests.web.rig import Rig, csrf_of, rig
from tests.web.test_message_log import OWNER, _messages

#: The cases walked, by the authority of their pound, with what only their page shows.
CASES = {"KNM-1": "KNM-GP", "ENM-1": "ENM-GP"}
PLACES = {"KNM-1": "Kunnamangalam market", "ENM-1": "Perla junction"}
#: The admins walking: a state admin (no authority) and two authority admins.
ADMINS: tuple[str | None, ...] = (None, "KNM-GP", "ENM-GP")
#: The messages of the log (``tests.web.test_message_log._messages``) by whom they are of.
BODIES = {
    "KNM-GP": "BODY-KNM-FAILED",
    "ENM-GP": "BODY-ENM-SENT",
    None: "BODY-NO-CASE",  # about no case: the state admin's alone
}


def sees(admin: str | None, authority: str) -> bool:
    return admin is None or admin == authority


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
    """KNM-1 (KNM-GP): the owner refused, sold, settled and the account delivered (its
    account and receipt printable); ENM-1 (ENM-GP): brought in; messages of both and of
    no case; the keepers of both pounds disabled since."""
    if url is not None:
        async with open_app(url=url, migrate=True):
            pass
    async with rig(tmp_path, url=url) as r:
        knm = await r.user("keeper", pound="KNM", phone="+919847000010", name="Suresh")
        enm = await r.user("keeper", pound="ENM", phone="+919847000011", name="Mini")
        officer = caller_of(await r.user("officer", authority="KNM-GP", name="Latha"), "sms")
        deps = r.app.deps
        async with r.app.store.transaction() as tx:
            await k.record_seizure(tx, deps, caller_of(knm, "sms"), seizure(place=PLACES["KNM-1"]))
            await k.record_seizure(
                tx, deps, caller_of(enm, "sms"), seizure(pound="ENM", place=PLACES["ENM-1"])
            )
        r.clock.advance(days=2)  # 3 March
        async with r.app.store.transaction() as tx:
            await k.record_owner_refusal(tx, deps, caller_of(knm, "sms"), "KNM-1")
            await o.schedule_auction(
                tx, deps, officer, "KNM-1", auction_on=date(2026, 3, 6), place="Panchayat office"
            )
        r.clock.advance(days=3)  # 6 March, the auction
        async with r.app.store.transaction() as tx:
            await o.record_lot(
                tx,
                deps,
                officer,
                "KNM-1",
                lot=0,
                count=2,
                price=Money.rupees(40000),
                buyer=Person("Beeran", "Chathamangalam"),
                buyer_role=None,
                declared_not_barred=True,
            )
            await o.settle_sale(tx, deps, officer, "KNM-1", expenses=Money.rupees(500))
            await o.record_account_delivered(tx, deps, officer, "KNM-1", received_by="Kunhammed")
        await _messages(r)
        async with r.app.store.transaction() as tx:
            for keeper in (knm, enm):
                await disable_user(tx, deps, Caller.system(), keeper.id, reason="left the post")
        yield r


Check = Callable[[Rig, str | None], Awaitable[None]]


async def _alike(r: Rig, path: str, status: int, method: str = "GET") -> None:
    page = await (r.client.get(path) if method == "GET" else r.client.post(path, data={}))
    assert page.status_code == status, (method, path, page.status_code)


def alike(path: str, status: int, method: str = "GET") -> Check:
    """A route that is no admin's power: every admin gets ``status``."""

    async def check(r: Rig, admin: str | None) -> None:
        await _alike(r, path, status, method)

    return check


def alike_unless_state(path: str) -> Check:
    """A state admin's page: 200 to them, 403 to an authority admin."""

    async def check(r: Rig, admin: str | None) -> None:
        page = await r.client.get(path)
        assert page.status_code == (200 if admin is None else 403), (path, admin)

    return check


def of_a_case(template: str, shown: Callable[[str], tuple[int, ...]]) -> Check:
    """A route about one case: each case of an authority the admin administers answers
    one of ``shown(number)``; another authority's a 403 or 404 page that does not show
    where its cattle were seized (nor, for KNM-1, who bought them)."""

    async def check(r: Rig, admin: str | None) -> None:
        for number, authority in CASES.items():
            page = await r.client.get(template.format(number=number))
            if sees(admin, authority):
                assert page.status_code in shown(number), (template, number, admin)
            else:
                assert page.status_code in (403, 404), (template, number, admin)
                assert PLACES[number] not in page.text
                assert "Beeran" not in page.text

    return check


async def _case_page(r: Rig, admin: str | None) -> None:
    for number, authority in CASES.items():
        page = await r.client.get(f"/web/cases/{number}")
        if sees(admin, authority):
            assert page.status_code == 200
            assert PLACES[number] in page.text
            # Its pound's keeper disabled: without a keeper until one is named.
            assert "without a keeper until one is named" in page.text
        else:
            assert page.status_code == 404
            assert PLACES[number] not in page.text


async def _step(r: Rig, admin: str | None) -> None:
    """A step posted with the session's CSRF token: an admin takes no step (refused,
    409, on their authority's case); another authority's case is not found (404)."""
    csrf = csrf_of((await r.client.get("/web/")).text)
    for number, authority in CASES.items():
        async with r.app.store.transaction() as tx:
            before = len((await tx.load_case(number)).case.events)
        page = await r.client.post(f"/web/cases/{number}/paid", data={"csrf": csrf, "seen": "1"})
        assert page.status_code == (409 if sees(admin, authority) else 404), (number, admin)
        if not sees(admin, authority):
            assert PLACES[number] not in page.text
        async with r.app.store.transaction() as tx:
            assert len((await tx.load_case(number)).case.events) == before


async def _seize(r: Rig, admin: str | None) -> None:
    """The form of a seizure posted with the session's CSRF token, naming a pound as an
    officer's does: refused (403), nothing recorded."""
    csrf = csrf_of((await r.client.get("/web/")).text)
    form = {"csrf": csrf, "after": "0", "kind-1": "cow", "count-1": "1", "place": "Here"}
    form["pound"] = "KNM"
    async with r.app.store.transaction() as tx:
        before = await last_event_id(tx)
    page = await r.client.post("/web/cases/new", data=form)
    assert page.status_code == 403, admin
    async with r.app.store.transaction() as tx:
        assert await last_event_id(tx) == before


def listing(path: str, *, shown: Callable[[str], str | None] = lambda number: number) -> Check:
    """A list of the admin's cases: those of their authorities (``shown``: what of a case
    the list shows; None: the list has nothing of it), not another's; ``?authority=``
    another's refused (403)."""

    async def check(r: Rig, admin: str | None) -> None:
        page = await r.client.get(path)
        assert page.status_code == 200, (path, admin)
        for number, authority in CASES.items():
            text = shown(number)
            if text is not None:
                assert (text in page.text) == sees(admin, authority), (path, number, admin)
            assert PLACES[number] not in page.text or sees(admin, authority)
        if "/documents/" in path or "/charts/" in path:
            join = "&" if "?" in path else "?"
            for authority in ("KNM-GP", "ENM-GP"):
                narrowed = await r.client.get(f"{path}{join}authority={authority}")
                assert narrowed.status_code == (200 if sees(admin, authority) else 403)

    return check


async def _today(r: Rig, admin: str | None) -> None:
    page = await r.client.get("/web/")
    assert page.status_code == 200
    for pound, authority in (("KNM", "KNM-GP"), ("ENM", "ENM-GP")):
        name = local(r.app.config.pounds[pound].name, "en")
        line = f"{name}: without a keeper until one is named"
        assert (line in page.text) == sees(admin, authority), (pound, admin)


async def _messages_log(r: Rig, admin: str | None) -> None:
    page = await r.client.get("/web/messages")
    assert page.status_code == 200
    for authority, body in BODIES.items():
        shown = admin is None if authority is None else sees(admin, authority)
        assert (body in page.text) == shown, (body, admin)
    assert ("BODY-INBOUND" in page.text) == (admin is None)
    assert OWNER in page.text  # an admin reads the whole number


async def _documents(r: Rig, admin: str | None) -> None:
    """The list: the choice of an authority is the state admin's alone."""
    page = await r.client.get("/web/documents/")
    assert page.status_code == 200
    assert ('<option value="ENM-GP"' in page.text) == (admin is None)
    narrowed = await r.client.get("/web/documents/?authority=ENM-GP")
    assert narrowed.status_code == (200 if sees(admin, "ENM-GP") else 403)


async def _find(r: Rig, admin: str | None) -> None:
    for number, authority in CASES.items():
        page = await r.client.get(f"/web/documents/find?case={number}")
        assert page.status_code == (303 if sees(admin, authority) else 403), (number, admin)


async def _charts(r: Rig, admin: str | None) -> None:
    page = await r.client.get("/web/charts/")
    assert page.status_code == 200
    assert ('<option value="ENM-GP"' in page.text) == (admin is None)
    for authority in ("KNM-GP", "ENM-GP"):
        narrowed = await r.client.get(f"/web/charts/?year=2026&authority={authority}")
        assert narrowed.status_code == (200 if sees(admin, authority) else 403)


async def _resend(r: Rig, admin: str | None) -> None:
    """The failed message of KNM-1's case sent again: by an admin of its authority (or
    the state's; the first of them queues it, the next is told it was, 409), refused to
    another authority's admin (403) with nothing queued."""
    async with r.app.store.transaction() as tx:
        failed = await tx.session.scalar(
            select(OutboxRow.id).where(OutboxRow.body == BODIES["KNM-GP"])
        )
        before = await tx.session.scalar(select(func.count()).select_from(OutboxRow))
    csrf = csrf_of((await r.client.get("/web/")).text)
    page = await r.client.post(f"/web/messages/{failed}/resend", data={"csrf": csrf})
    if sees(admin, "KNM-GP"):
        assert page.status_code in (303, 409), (admin, page.status_code)
    else:
        assert page.status_code == 403, (admin, page.status_code)
        assert BODIES["KNM-GP"] not in page.text
        async with r.app.store.transaction() as tx:
            after = await tx.session.scalar(select(func.count()).select_from(OutboxRow))
        assert after == before


async def _user_named(r: Rig, name: str) -> User:
    async with r.app.store.transaction() as tx:
        found = await tx.session.scalar(select(User).where(User.name == name))
    assert found is not None, name
    return found


#: Users of each authority, by name: the keepers (disabled) and an admin or officer.
USERS = {"Suresh": "KNM-GP", "Mini": "ENM-GP"}
ACTIVE = {"Latha": "KNM-GP", "Mercy": "ENM-GP"}


async def _users(r: Rig, admin: str | None) -> None:
    page = await r.client.get("/web/users")
    assert page.status_code == 200
    for name, authority in USERS.items():
        assert (f">{name}</a>" in page.text) == sees(admin, authority), name
    for authority in ("KNM-GP", "ENM-GP"):
        narrowed = await r.client.get(f"/web/users?authority={authority}")
        assert narrowed.status_code == (200 if sees(admin, authority) else 403)


async def _user_page(r: Rig, admin: str | None) -> None:
    for name, authority in USERS.items():
        user = await _user_named(r, name)
        page = await r.client.get(f"/web/users/{user.id}")
        assert page.status_code == (200 if sees(admin, authority) else 403), name
        assert (name in page.text) == sees(admin, authority), name


async def _audit(r: Rig, admin: str | None) -> None:
    for authority in ("KNM-GP", "ENM-GP"):
        page = await r.client.get(f"/web/users/audit.csv?authority={authority}")
        assert page.status_code == (200 if sees(admin, authority) else 403), authority
        assert ("left the post" in page.text) == sees(admin, authority)


async def _add_user(r: Rig, admin: str | None) -> None:
    """An officer added to each authority: to the admin's own only (an officer, not a
    keeper: the pounds stay without a keeper for the next admin's walk)."""
    csrf = csrf_of((await r.client.get("/web/users/new")).text)
    for authority in ("KNM-GP", "ENM-GP"):
        form = {"role": "officer", "authority": authority, "name": "New", "reason": "new"}
        page = await r.client.post("/web/users/new", data={**form, "csrf": csrf})
        assert page.status_code == (303 if sees(admin, authority) else 403), authority


async def _change_user(r: Rig, admin: str | None) -> None:
    """An invite again of an active user of each authority: the admin's own only."""
    csrf = csrf_of((await r.client.get("/web/users/new")).text)
    for name, authority in ACTIVE.items():
        user = await _user_named(r, name)
        page = await r.client.post(
            f"/web/users/{user.id}/invite", data={"reason": "new phone", "csrf": csrf}
        )
        assert page.status_code == (303 if sees(admin, authority) else 403), name
        assert name not in page.text  # a redirect, or a refusal


async def _import_users(r: Rig, admin: str | None) -> None:
    """A CSV of an officer of each authority, checked: the admin's own line a new user,
    the other authority's refused (a state admin: both new, and imported)."""
    csrf = csrf_of((await r.client.get("/web/users/import")).text)
    phones = {None: "98470001", "KNM-GP": "98470002", "ENM-GP": "98470003"}[admin]
    sheet = "".join(
        f"Officer {n},{phones}{n:02d},officer,{authority}\n"
        for n, authority in enumerate(("KNM-GP", "ENM-GP"), start=1)
    )
    page = await r.client.post(
        "/web/users/import",
        data={"csrf": csrf, "reason": "bulk"},
        files={"file": ("u.csv", f"name,phone,role,authority\n{sheet}".encode(), "text/csv")},
    )
    assert page.status_code == 200, admin
    for n, authority in enumerate(("KNM-GP", "ENM-GP"), start=2):
        line = page.text[page.text.index(f'id="line-{n}"') :].split("</tr>")[0]
        assert ("new user" in line) == sees(admin, authority), (admin, authority)
    assert ('action="/web/users/import/apply"' in page.text) == (admin is None)


async def _apply_import(r: Rig, admin: str | None) -> None:
    """A confirmation not sealed for the session is refused (403), whoever sends it."""
    csrf = csrf_of((await r.client.get("/web/users/import")).text)
    form = {"csrf": csrf, "reason": "bulk", "digest": "0", "sheet": "cGhvbmU=", "seal": "x"}
    page = await r.client.post("/web/users/import/apply", data=form)
    assert page.status_code == 403, admin


async def _dlt_check(r: Rig, admin: str | None) -> None:
    """The DLT export is the configuration's: checked by a state admin; refused (403)
    to an authority admin."""
    csrf = csrf_of((await r.client.get("/web/")).text)
    sheet = b"Template ID,Template Name,Template Content,Status\n1207,x,Hello {#var#},Approved\n"
    page = await r.client.post(
        "/web/config/dlt",
        data={"csrf": csrf, "reason": "ids"},
        files={"file": ("t.csv", sheet, "text/csv")},
    )
    assert page.status_code == (200 if admin is None else 403), admin


async def _dlt_apply(r: Rig, admin: str | None) -> None:
    """A confirmation not sealed for the session: refused (403), nothing stored."""
    csrf = csrf_of((await r.client.get("/web/")).text)
    form = {"csrf": csrf, "reason": "x", "version": "1", "sheet": "", "seal": "", "filename": ""}
    page = await r.client.post("/web/config/dlt/apply", data=form)
    assert page.status_code == 403, admin


async def _configuration(r: Rig, admin: str | None) -> None:
    """The configuration's versions are the state's: a state admin's pages; an authority
    admin is sent from the list to their authority's places (a version's page: 403)."""
    page = await r.client.get("/web/config")
    assert page.status_code == (200 if admin is None else 303), admin
    page = await r.client.get("/web/config/1")
    assert page.status_code == (200 if admin is None else 403), admin


#: What only each authority's configuration shows (its pound's address, its office).
PLACE_TEXTS = {"KNM-GP": "Juma Masjid bus stop", "ENM-GP": "Perla-Badiadka Road"}


def of_an_authority(template: str, codes: dict[str, str], *, state: bool = False) -> Check:
    """A form of the configuration about one authority's entry (``codes``: the code in
    the path, of which authority): its admins read it (a state admin every one),
    another's admin gets a 403 without its content; ``state``: the state admin's alone."""

    async def check(r: Rig, admin: str | None) -> None:
        for code, authority in codes.items():
            page = await r.client.get(template.format(code=code))
            allowed = admin is None or (not state and sees(admin, authority))
            assert page.status_code == (200 if allowed else 403), (template, code, admin)
            if not allowed:
                assert all(text not in page.text for text in PLACE_TEXTS.values())

    return check


def changed_by_an_authority(template: str, codes: dict[str, str], *, state: bool = False) -> Check:
    """A form of the configuration posted with a reason and nothing changed: its admins
    are told nothing changed (400); another authority's admin is refused (403); no
    version written."""

    async def check(r: Rig, admin: str | None) -> None:
        csrf = csrf_of((await r.client.get("/web/")).text)
        async with r.app.store.reading() as tx:
            latest = await latest_id(tx)
        for code, authority in codes.items():
            form = {"csrf": csrf, "based_on": str(latest), "reason": "walk"}
            page = await r.client.post(template.format(code=code), data=form)
            allowed = admin is None or (not state and sees(admin, authority))
            assert page.status_code == (400 if allowed else 403), (template, code, admin)
        async with r.app.store.reading() as tx:
            assert await latest_id(tx) == latest

    return check


async def _places(r: Rig, admin: str | None) -> None:
    page = await r.client.get("/web/config/authorities")
    assert page.status_code == 200
    for pound, authority in (("PTM", "KNM-GP"), ("ENM", "ENM-GP")):
        assert (f'href="/web/config/pounds/{pound}"' in page.text) == sees(admin, authority)


async def _config_audit(r: Rig, admin: str | None) -> None:
    for authority in ("KNM-GP", "ENM-GP"):
        page = await r.client.get(f"/web/config/changes.csv?authority={authority}")
        assert page.status_code == (200 if sees(admin, authority) else 403), authority
    everything = await r.client.get("/web/config/changes.csv")
    assert everything.status_code == 200  # a state admin's all, an authority admin's own


async def _new_pound(r: Rig, admin: str | None) -> None:
    """A new pound of each authority, sent with a village without its market place: to
    the admin's own authority told why (400), to another's refused (403); nothing
    written."""
    csrf = csrf_of((await r.client.get("/web/")).text)
    async with r.app.store.reading() as tx:
        latest = await latest_id(tx)
    for authority in ("KNM-GP", "ENM-GP"):
        form = {"csrf": csrf, "based_on": str(latest), "authority": authority, "reason": "x"}
        form |= {"code": "NEW", "name.en": "New", "address.en": "x", "lang.1": "ml"}
        form |= {"market.village.0": "Nowhere"}
        page = await r.client.post("/web/config/pounds/new", data=form)
        assert page.status_code == (400 if sees(admin, authority) else 403), authority
    async with r.app.store.reading() as tx:
        assert await latest_id(tx) == latest


async def _tariffs(r: Rig, admin: str | None) -> None:
    """The tariffs: each admin their authority's (a state admin every one)."""
    page = await r.client.get("/web/config/tariffs")
    assert page.status_code == 200
    for name, authority in (("KNM-GP", "KNM-GP"), ("ENM", "ENM-GP")):
        link = f'href="/web/config/tariffs/{name}"'
        assert (link in page.text) == sees(admin, authority), (name, admin)


async def _tariff(r: Rig, admin: str | None) -> None:
    for name, authority in (("KNM-GP", "KNM-GP"), ("ENM", "ENM-GP")):
        page = await r.client.get(f"/web/config/tariffs/{name}")
        assert page.status_code == (200 if sees(admin, authority) else 403), (name, admin)


async def _tariff_change(r: Rig, admin: str | None) -> None:
    """A rate with no day: their own authority's form again (400), another's refused
    (403); nothing written either way."""
    csrf = csrf_of((await r.client.get("/web/")).text)
    before = r.app.version
    for name, authority in (("KNM-GP", "KNM-GP"), ("ENM", "ENM-GP")):
        form = {"csrf": csrf, "based_on": str(before), "amount-cow": "900", "reason": "r"}
        page = await r.client.post(f"/web/config/tariffs/{name}/add", data=form)
        assert page.status_code == (400 if sees(admin, authority) else 403), (name, admin)
    assert r.app.version == before


async def _dlt(r: Rig, admin: str | None) -> None:
    """The DLT ids are the state's: a state admin's page; an authority admin's 403."""
    page = await r.client.get("/web/config/dlt-ids")
    assert page.status_code == (200 if admin is None else 403), admin


async def _dlt_change(r: Rig, admin: str | None) -> None:
    """An id that is not digits: the state admin's form again (400); refused to an
    authority admin (403); nothing written either way."""
    csrf = csrf_of((await r.client.get("/web/")).text)
    before = r.app.version
    form = {"csrf": csrf, "based_on": str(before), "name": "entity_id", "id": "x", "reason": "r"}
    page = await r.client.post("/web/config/dlt-ids", data=form)
    assert page.status_code == (400 if admin is None else 403), admin
    assert r.app.version == before


def _documented(number: str) -> tuple[int, ...]:
    """KNM-1 is settled and delivered: its account and receipt; ENM-1 has none yet."""
    return (200,) if number == "KNM-1" else (404,)


#: Each route of the desk (method, path; a mount: "MOUNT"), and what the walk checks.
CHECKS: dict[tuple[str, str], Check] = {
    ("GET", "/web"): alike("/web", 303),
    ("GET", "/web/"): _today,
    ("GET", "/web/signin"): alike("/web/signin", 200),
    ("GET", "/web/signin/{token}"): alike("/web/signin/not-a-token", 403),
    ("POST", "/web/signin/{token}"): alike("/web/signin/not-a-token", 403, "POST"),
    ("POST", "/web/signout"): alike("/web/signout", 403, "POST"),  # without its CSRF
    ("GET", "/web/lang/{code}"): alike("/web/lang/en", 303),
    ("GET", "/web/cases"): listing("/web/cases", shown=lambda n: f'href="/web/cases/{n}"'),
    ("GET", "/web/messages"): _messages_log,
    # Recording a seizure is a pound-keeper's or an officer's (s.7): no admin's, of any scope.
    ("GET", "/web/cases/new"): alike("/web/cases/new", 403),
    ("POST", "/web/cases/new"): _seize,
    ("GET", "/web/cases/{number}"): _case_page,
    ("GET", "/web/cases/{number}/notice"): of_a_case(
        "/web/cases/{number}/notice",
        lambda number: (409,),  # no notice: not reported
    ),
    ("POST", "/web/cases/{number}/{step}"): _step,
    ("POST", "/web/messages/{message_id}/resend"): _resend,
    ("GET", "/notices/{authority}"): alike("/notices/KNM-GP", 200),
    ("MOUNT", "/web/static"): alike("/web/static/desk.css", 200),
    ("GET", "/web/documents/"): _documents,
    ("GET", "/web/documents/find"): _find,
    ("GET", "/web/documents/account/{number}"): of_a_case(
        "/web/documents/account/{number}", _documented
    ),
    ("GET", "/web/documents/receipt/{number}"): of_a_case(
        "/web/documents/receipt/{number}", _documented
    ),
    # KNM-1 left the pound sold and delivered: nothing of either case is in deposit.
    ("GET", "/web/documents/deposits"): listing(
        "/web/documents/deposits?x=1", shown=lambda n: None
    ),
    ("GET", "/web/documents/deposits.csv"): listing(
        "/web/documents/deposits.csv?x=1", shown=lambda n: None
    ),
    ("GET", "/web/documents/cases"): listing("/web/documents/cases?month=2026-03"),
    ("GET", "/web/documents/cases.csv"): listing("/web/documents/cases.csv?month=2026-03"),
    # The ledger: KNM-1's sale and settlement (ENM-1 has moved no money).
    ("GET", "/web/documents/ledger"): listing(
        "/web/documents/ledger?month=2026-03",
        shown=lambda n: n if n == "KNM-1" else None,
    ),
    ("GET", "/web/documents/ledger.csv"): listing(
        "/web/documents/ledger.csv?month=2026-03",
        shown=lambda n: n if n == "KNM-1" else None,
    ),
    ("GET", "/web/charts/"): _charts,
    ("GET", "/web/users"): _users,
    ("GET", "/web/users/new"): alike("/web/users/new", 200),
    ("POST", "/web/users/new"): _add_user,
    ("GET", "/web/users/audit.csv"): _audit,
    ("GET", "/web/users/{user_id:int}"): _user_page,
    ("POST", "/web/users/{user_id:int}/{change}"): _change_user,
    ("GET", "/web/users/import"): alike("/web/users/import", 200),
    ("POST", "/web/users/import"): _import_users,
    ("POST", "/web/users/import/apply"): _apply_import,
    ("GET", "/web/config"): _configuration,
    ("GET", "/web/config/dlt"): alike_unless_state("/web/config/dlt"),
    ("POST", "/web/config/dlt"): _dlt_check,
    ("POST", "/web/config/dlt/apply"): _dlt_apply,
    ("GET", "/web/config/{version_id}"): _configuration,
    ("GET", "/web/config/dlt-ids"): _dlt,
    ("POST", "/web/config/dlt-ids"): _dlt_change,
    ("GET", "/web/config/tariffs"): _tariffs,
    ("GET", "/web/config/tariffs/{name}"): _tariff,
    ("POST", "/web/config/tariffs/{name}/{change}"): _tariff_change,
    ("GET", "/web/config/changes.csv"): _config_audit,
    ("GET", "/web/config/authorities"): _places,
    ("GET", "/web/config/authorities/new"): of_an_authority(
        "/web/config/authorities/new", {"": "-"}, state=True
    ),
    ("POST", "/web/config/authorities/new"): changed_by_an_authority(
        "/web/config/authorities/new", {"": "-"}, state=True
    ),
    ("GET", "/web/config/authorities/{code}"): of_an_authority(
        "/web/config/authorities/{code}", {"KNM-GP": "KNM-GP", "ENM-GP": "ENM-GP"}
    ),
    ("POST", "/web/config/authorities/{code}"): changed_by_an_authority(
        "/web/config/authorities/{code}", {"KNM-GP": "KNM-GP", "ENM-GP": "ENM-GP"}
    ),
    ("GET", "/web/config/pounds/new"): alike("/web/config/pounds/new", 200),
    ("POST", "/web/config/pounds/new"): _new_pound,
    ("GET", "/web/config/pounds/import"): of_an_authority(
        "/web/config/pounds/import", {"": "-"}, state=True
    ),
    ("POST", "/web/config/pounds/import"): changed_by_an_authority(
        "/web/config/pounds/import", {"": "-"}, state=True
    ),
    ("GET", "/web/config/pounds/{code}"): of_an_authority(
        "/web/config/pounds/{code}", {"PTM": "KNM-GP", "ENM": "ENM-GP"}
    ),
    ("POST", "/web/config/pounds/{code}"): changed_by_an_authority(
        "/web/config/pounds/{code}", {"PTM": "KNM-GP", "ENM": "ENM-GP"}
    ),
    ("GET", "/web/config/kinds/new"): of_an_authority(
        "/web/config/kinds/new", {"": "-"}, state=True
    ),
    ("POST", "/web/config/kinds/new"): changed_by_an_authority(
        "/web/config/kinds/new", {"": "-"}, state=True
    ),
    ("GET", "/web/config/kinds/{code}"): of_an_authority(
        "/web/config/kinds/{code}", {"cow": "-"}, state=True
    ),
    ("POST", "/web/config/kinds/{code}"): changed_by_an_authority(
        "/web/config/kinds/{code}", {"cow": "-"}, state=True
    ),
}


def _routes() -> set[tuple[str, str]]:
    """Every route of the desk: ``web_routes`` with the routes of ROUTE_FACTORIES."""
    found = set()
    for route in web_routes("secret-of-a-test-desk", "http://t"):
        if isinstance(route, Mount):
            found.add(("MOUNT", route.path))
        elif isinstance(route, Route):
            found |= {(m, route.path) for m in route.methods or () if m != "HEAD"}
    return found


def test_every_route_of_the_desk_is_walked() -> None:
    assert _routes() == set(CHECKS)


async def test_each_route_gives_each_admin_their_own_authority_only(desk: Rig) -> None:
    r = desk
    admins: dict[str | None, User] = {
        None: await r.user("admin", name="Suma"),
        "KNM-GP": await r.user("admin", authority="KNM-GP", name="Latheef"),
        "ENM-GP": await r.user("admin", authority="ENM-GP", name="Mercy"),
    }
    for admin in ADMINS:
        r.client.cookies.clear()
        await r.sign_in(admins[admin])
        for (method, path), check in sorted(CHECKS.items()):
            try:
                await check(r, admin)
            except AssertionError as exc:
                raise AssertionError(f"{method} {path} as admin of {admin or 'the state'}") from exc
