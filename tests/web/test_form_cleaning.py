"""A NUL (or another control character) in what a browser sends is cleaned as SMS and
Telegram text is (``bot.support.clean``), never a 500: PostgreSQL refuses a NUL in text. Every
route of the web desk is walked, every field of every step form, on SQLite and (with
``POUNDBOT_TEST_PG_URL``) on PostgreSQL."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from sqlalchemy import select
from starlette.routing import BaseRoute

from bot.bootstrap import open_app
from bot.store.models import CaseRow
from bot.web.actions import FORMS
from tests.conftest import ENGINES, PG_URL
from tests.web.rig import Rig, rig, step_form
from tests.web.test_headers import SAMPLES, requests_of

NUL = "new\x00place\x07"
#: Every query parameter a page of the desk reads.
QUERY = ("pound", "stage", "kind", "since", "until", "page", "lang", "next", "month")
QUERY_MORE = ("authority", "case", "what", "format", "year")


@pytest.fixture(params=ENGINES)
def database(request: pytest.FixtureRequest) -> Iterator[str | None]:
    """None: a new SQLite file; else a new PostgreSQL database."""
    if request.param == "sqlite":
        yield None
        return
    assert PG_URL
    from tests.integration.test_migrations import fresh_pg_database

    with fresh_pg_database() as url:
        yield url


@pytest.fixture
async def desk(tmp_path: Path, database: str | None) -> AsyncIterator[Rig]:
    if database is not None:
        async with open_app(url=database, migrate=True):
            pass
    async with rig(tmp_path, url=database) as r:
        keeper = await r.user("keeper", pound="KNM", phone="+919847000010")
        await r.say(keeper, "SEIZE 2 cow (brown) AT Kunnamangalam market")
        await r.sign_in(keeper)
        yield r


async def test_a_nul_in_the_correct_form_is_cleaned_and_the_place_corrected(desk: Rig) -> None:
    page = await desk.client.get("/web/cases/KNM-1")
    form = {**step_form(page.text), "field": "place", "value": NUL, "reason": "typo\x00"}
    done = await desk.client.post("/web/cases/KNM-1/correct", data=form)
    assert done.status_code == 303, done.text
    async with desk.app.store.transaction() as tx:
        place = await tx.session.scalar(select(CaseRow.place_seized))
    assert place == "newplace"


async def test_every_field_of_every_step_form_takes_a_nul(desk: Rig) -> None:
    for form in FORMS:
        page = await desk.client.get("/web/cases/KNM-1")
        fields = {field.name: NUL for field in form.fields}
        data = {**step_form(page.text), **fields, "confirm": NUL}
        answer = await desk.client.post(f"/web/cases/KNM-1/{form.command}", data=data)
        assert answer.status_code < 500, (form.command, answer.text)
        # The hidden fields themselves, spoilt.
        spoilt = {"csrf": NUL, "seen": NUL, **fields}
        answer = await desk.client.post(f"/web/cases/KNM-1/{form.command}", data=spoilt)
        assert answer.status_code == 403, form.command


def _spoilt(routes: list[BaseRoute]) -> Iterator[tuple[str, str]]:
    """Every route with a NUL in each path parameter, and in every query parameter."""
    for method, path in requests_of(routes):
        yield method, path + "?" + "&".join(f"{q}=a%00b" for q in (*QUERY, *QUERY_MORE))
        for value in SAMPLES.values():
            if f"/{value}" in path:
                yield method, path.replace(f"/{value}", f"/{value}%00", 1)


async def test_every_route_takes_a_nul_in_its_path_query_and_form(desk: Rig) -> None:
    for method, path in _spoilt(list(desk.asgi.routes)):
        data = {"csrf": NUL, "seen": NUL, "signin": NUL, "value": NUL}
        answer = await desk.client.request(method, path, data=data if method == "POST" else None)
        assert answer.status_code < 500, (method, path, answer.text[:300])
    # And signed out.
    desk.client.cookies.clear()
    for method, path in _spoilt(list(desk.asgi.routes)):
        answer = await desk.client.request(method, path)
        assert answer.status_code < 500, (method, path)
