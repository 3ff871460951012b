"""The tariffs' pages of the web desk: an authority's admin reads and changes their
authority's tariffs only (a state admin every one; keepers and officers none); a rate
dated back waits for each open case it changes to be ticked; a form refused comes back
filled with why, nothing written; a rate added through the form on one server is read
through another. Over HTTP into the app."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Iterator
from contextlib import AsyncExitStack
from datetime import date
from pathlib import Path

import httpx
import pytest

from bot.bootstrap import open_app
from bot.entry.app import build_app
from bot.services.config_versions import history
from bot.store.models import User
from domain.money import Money
from tests.conftest import ENGINES
from tests.databases import migrated_url
from tests.integration.test_config_versions import _within
from tests.integration.test_migrations import fresh_pg_database
from tests.integration.test_tariff_edit import seize
from tests.web.rig import Rig, csrf_of, rig

_BASED_ON = re.compile(r'name="based_on" value="(\d+)"')


@pytest.fixture
async def desk(tmp_path: Path) -> AsyncIterator[Rig]:
    """KNM-1 brought in on 1 March, still in the pound; today 3 March."""
    async with rig(tmp_path) as r:
        keeper = await r.user("keeper", pound="KNM", phone="+919847000010", name="Suresh")
        await seize(r, keeper)
        r.clock.advance(days=2)
        yield r


async def _as(r: Rig, user: User, path: str) -> httpx.Response:
    r.client.cookies.clear()
    assert (await r.sign_in(user)).status_code in (200, 303)
    return await r.client.get(path)


def _form(page: httpx.Response, **fields: str) -> dict[str, str]:
    based_on = _BASED_ON.search(page.text)
    assert based_on is not None
    return {"csrf": csrf_of(page.text), "based_on": based_on.group(1), **fields}


async def _versions(r: Rig) -> int:
    return len(await history(r.app.store))


async def test_an_authority_admin_adds_a_rate_from_a_later_day(desk: Rig) -> None:
    r = desk
    admin = await r.user("admin", authority="KNM-GP", name="Latheef")
    listing = await _as(r, admin, "/web/config/tariffs")
    assert listing.status_code == 200
    assert 'href="/web/config/tariffs/KNM-GP"' in listing.text
    assert 'href="/web/config/tariffs/ENM"' not in listing.text
    assert 'href="/web/config/tariffs"' in listing.text  # in the menu
    page = await r.client.get("/web/config/tariffs/KNM-GP")
    assert page.status_code == 200
    assert "revised s.11 scale as notified" in page.text  # each row with its source
    form = _form(
        page,
        schedule="fines",
        **{"from": "01-04-2026", "amount-cow": "₹900.50", "amount-ox": ""},
        source="G.O. 12/2026",
        reason="new scale",
    )
    done = await r.client.post("/web/config/tariffs/KNM-GP/add", data=form)
    assert done.status_code == 303
    shown = await r.client.get(done.headers["location"])
    assert "The rates were added: version 2 is in force." in shown.text
    assert "G.O. 12/2026" in shown.text
    cow = r.app.deps.tariff("KNM").fines["cow"]
    assert cow.row_on(date(2026, 4, 1)).amount == Money.rupees("900.50")
    assert r.app.deps.tariff("KNM").fines["ox"].rows[-1].applies_from == date(2024, 4, 1)

    # Not yet in force: withdrawn, with a reason.
    assert "Withdraw" in shown.text
    withdraw = _form(
        shown, schedule="fines", kind="cow", row="2026-04-01", reason="G.O. 12/2026 withdrawn"
    )
    gone = await r.client.post("/web/config/tariffs/KNM-GP/withdraw", data=withdraw)
    assert gone.status_code == 303
    assert r.app.deps.tariff("KNM").fines["cow"].row_on(date(2026, 4, 1)).amount == Money.rupees(
        750
    )
    assert await _versions(r) == 3


async def test_a_rate_dated_back_lists_the_open_cases_to_confirm(desk: Rig) -> None:
    r = desk
    admin = await r.user("admin", name="Suma")
    page = await _as(r, admin, "/web/config/tariffs/KNM-GP")
    fields = {"schedule": "feeding", "from": "02-03-2026", "amount-cow": "200"}
    form = _form(page, **fields, source="G.O. 7/2026", reason="dated back")
    listed = await r.client.post("/web/config/tariffs/KNM-GP/add", data=form)
    assert listed.status_code == 400
    assert "Tick each of them to confirm" in listed.text
    assert 'name="confirm" value="KNM-1"' in listed.text
    assert 'value="G.O. 7/2026"' in listed.text  # the form kept
    assert await _versions(r) == 1
    confirmed = await r.client.post(
        "/web/config/tariffs/KNM-GP/add",
        data={**_form(listed, **fields), "confirm": "KNM-1"}
        | {"source": "G.O. 7/2026", "reason": "dated back"},
    )
    assert confirmed.status_code == 303
    assert r.app.deps.tariff("KNM").feeding["cow"].row_on(date(2026, 3, 2)).amount == (
        Money.rupees(200)
    )


@pytest.mark.parametrize(
    ("fields", "said"),
    [
        ({"from": "1-4", "amount-cow": "900"}, "dd-mm-yyyy"),
        ({"from": "31-02-2026", "amount-cow": "900"}, "dd-mm-yyyy"),
        ({"from": "01-04-2026", "amount-cow": "0"}, "The amount for cow"),
        ({"from": "01-04-2026", "amount-cow": "9.005"}, "The amount for cow"),
        ({"from": "01-04-2026", "amount-cow": "-5"}, "The amount for cow"),
        ({"from": "01-04-2026"}, "one kind of cattle at least"),
        ({"from": "01-04-2025", "amount-cow": "900"}, "has a rate from that day already"),
        ({"from": "01-04-2026", "amount-cow": "900", "source": " "}, "notification"),
        ({"from": "01-04-2026", "amount-cow": "900", "reason": ""}, "reason"),
        ({"from": "01-04-2026", "amount-cow": "900", "based_on": "99"}, "changed since"),
    ],
    ids=[
        "short-day",
        "no-such-day",
        "nothing",
        "paise",
        "negative",
        "no-amount",
        "same-day",
        "no-notification",
        "no-reason",
        "stale",
    ],
)
async def test_a_form_refused_is_kept_with_why_and_nothing_written(
    desk: Rig, fields: dict[str, str], said: str
) -> None:
    r = desk
    admin = await r.user("admin", authority="KNM-GP", name="Latheef")
    page = await _as(r, admin, "/web/config/tariffs/KNM-GP")
    base = {"schedule": "fines", "source": "G.O. 12/2026", "reason": "new scale"}
    refused = await r.client.post(
        "/web/config/tariffs/KNM-GP/add", data=_form(page) | base | fields
    )
    assert refused.status_code in (400, 409)
    assert said in refused.text
    if "amount-cow" in fields:
        assert f'value="{fields["amount-cow"]}"' in refused.text
    assert await _versions(r) == 1


async def test_keepers_officers_and_other_authorities_are_refused(desk: Rig) -> None:
    r = desk
    admin = await r.user("admin", authority="KNM-GP", name="Latheef")
    page = await _as(r, admin, "/web/config/tariffs/KNM-GP")
    form = _form(page, schedule="fines", **{"from": "01-04-2026", "amount-cow": "900"})
    form |= {"source": "x", "reason": "y"}
    assert (await r.client.get("/web/config/tariffs/ENM")).status_code == 403
    assert (await r.client.post("/web/config/tariffs/ENM/add", data=form)).status_code == 403
    assert (await r.client.get("/web/config/tariffs/NOPE")).status_code == 404
    no_csrf = {k: v for k, v in form.items() if k != "csrf"}
    assert (await r.client.post("/web/config/tariffs/KNM-GP/add", data=no_csrf)).status_code == 403
    for role, where in (("keeper", {"pound": "KNM"}), ("officer", {"authority": "KNM-GP"})):
        user = await r.user(role, name=role, **where)
        shown = await _as(r, user, "/web/config/tariffs")
        assert shown.status_code == 403
        assert (await r.client.get("/web/config/tariffs/KNM-GP")).status_code == 403
        form["csrf"] = csrf_of((await r.client.get("/web/")).text)
        assert (await r.client.post("/web/config/tariffs/KNM-GP/add", data=form)).status_code == 403
        assert 'href="/web/config/tariffs"' not in (await r.client.get("/web/")).text
    assert await _versions(r) == 1


@pytest.fixture(params=ENGINES)
def url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A database two servers share: a SQLite file, or a new PostgreSQL database."""
    if request.param == "sqlite":
        yield migrated_url(tmp_path / "shared.sqlite3")
        return
    with fresh_pg_database() as found:
        yield found


async def test_a_rate_added_on_one_server_is_read_through_another(tmp_path: Path, url: str) -> None:
    async with open_app(url=url, migrate=True):
        pass
    async with rig(tmp_path, url=url) as r, AsyncExitStack() as stack:
        other = build_app(lambda: open_app(url=url, migrate=False), config_watch=0.05)
        await stack.enter_async_context(other.router.lifespan_context(other))
        second = other.state.poundbot
        admin = await r.user("admin", name="Suma")
        page = await _as(r, admin, "/web/config/tariffs/KNM-GP")
        form = _form(
            page,
            schedule="feeding",
            **{"from": "01-05-2026", "amount-goat": "55"},
            source="Resolution 4/2026",
            reason="new rate",
        )
        posted = await r.client.post("/web/config/tariffs/KNM-GP/add", data=form)
        assert posted.status_code == 303
        may = date(2026, 5, 1)

        def read() -> bool:
            rate = second.deps.tariff("PTM").feeding_per_head("goat", may).amount
            return bool(rate == Money.rupees(55))

        await _within(5, read)
