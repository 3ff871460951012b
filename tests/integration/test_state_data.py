"""The generator of a state's history (bench/state_data.py), small: three authorities and
a few hundred cases, on SQLite (and PostgreSQL with POUNDBOT_TEST_PG_URL). What it writes
must read back through poundbot's own services as poundbot's own rows do: each case's
page folds its events, the Cases list counts them all, DUES answers on every route,
and the register, the ledger and the database agree on an authority's figures."""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import date, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import text

from bot.bootstrap import open_app
from bot.conversation.reply import handle_text
from bot.services import desk, documents, public
from bot.support.caller import KEEPER, OFFICER, Caller
from bot.support.clock import FixedClock
from domain.calendar import LOCAL_TZ
from tests.conftest import PG_URL

BENCH = Path(__file__).resolve().parents[2] / "bench"
sys.path.insert(0, str(BENCH))

import state_data as sd  # noqa: E402
from targets import fresh_pg_database  # noqa: E402

TODAY = date(2026, 3, 2)
ENGINES = ["sqlite", pytest.param("postgresql", marks=pytest.mark.pg)] if PG_URL else ["sqlite"]


@pytest.fixture(scope="module")
def templates() -> sd.Templates:
    import asyncio

    return asyncio.run(sd.record_templates(sd.state_config(3, 5)))


@asynccontextmanager
async def database(kind: str, tmp_path: Path) -> AsyncIterator[str]:
    if kind == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path / 'state.sqlite3'}"
    else:
        assert PG_URL is not None
        async with fresh_pg_database(PG_URL, "poundbot_state_test") as url:
            yield url


@pytest.mark.parametrize("kind", ENGINES)
async def test_the_generated_state_reads_back_through_the_services(
    kind: str, tmp_path: Path, templates: sd.Templates
) -> None:
    config = sd.state_config(3, 5)
    plan = sd.plan(3, 5, 240, TODAY)
    clock = FixedClock(datetime(2026, 3, 2, 10, 0, tzinfo=LOCAL_TZ))
    async with (
        database(kind, tmp_path) as url,
        open_app(config=config, url=url, migrate=True, clock=clock) as app,
    ):
        written = await sd.generate(app.engine, plan, templates)
        assert written["cases"] == len(plan.cases)
        # Every route, at every age, is in the plan's cases.
        assert {c.route for c in plan.cases} == set(sd.ROUTES)
        auth = sd.authority_code(0)
        mine = plan.of(0)
        async with app.store.transaction() as tx:
            officer_id = (
                await tx.session.execute(
                    text("SELECT id FROM users WHERE role='officer' AND authority_code=:a"),
                    {"a": auth},
                )
            ).scalar_one()
            db_total = (
                await tx.session.execute(
                    text(
                        "SELECT coalesce(sum(amount_paise), 0) FROM ledger_entries "
                        'WHERE authority_code=:a AND "on" >= :s AND "on" < :e'
                    ),
                    {"a": auth, "s": TODAY - timedelta(days=365), "e": TODAY},
                )
            ).scalar_one()
        officer = Caller(role=OFFICER, channel="web", user_id=officer_id, authority=auth)
        stages: Counter[str] = Counter()
        views = []
        async with app.store.transaction() as tx:
            for case in mine:
                number = f"{case.pound}-{case.seq}"
                view = await desk.case_view(tx, app.deps, officer, number)
                views.append(view)
                stages[view.loaded.case.stage.value] += 1
                answer = await public.dues_today(tx, app.deps, number)
                assert answer.case.number == number
            listed = await desk.list_cases(tx, app.deps, officer, desk.CaseFilter())
            assert listed.total == len(mine)
            register = await documents.case_register(
                tx, app.deps, officer, TODAY - timedelta(days=365 * 6), TODAY + timedelta(1)
            )
            assert len(register) == len(mine)
            ledger = await documents.ledger_document(
                tx, app.deps, officer, TODAY - timedelta(days=365), TODAY
            )
        assert ledger.total == db_total
        # Closed cases and cases still under way alike.
        assert stages["released"]
        assert stages["closed"]
        # Each case is seized at one of its authority's places; a search by a village
        # finds the cases still in the pound seized there (one recorded now), none elsewhere.
        assert {c.place_seized for c in (v.loaded.case.seizure for v in views)} == {
            sd.place_name(0, k) for k in range(sd.PLACES)
        }
        village, other = (sd.place_name(0, k) for k in (0, 1))
        async with app.store.transaction() as tx:
            keeper_id = (
                await tx.session.execute(
                    text("SELECT id FROM users WHERE pound_code=:p"), {"p": mine[-1].pound}
                )
            ).scalar_one()
            keeper = Caller(
                role=KEEPER, channel="sms", user_id=keeper_id, pound=mine[-1].pound, lang="en"
            )
            seized = await handle_text(
                tx, app.deps, keeper, f"SEIZE 1 goat (black) AT {village}", sms=False
            )
            assert not seized.refused, seized.text
        async with app.store.transaction() as tx:
            found = await public.find_cases(tx, app.deps, [village.split()[0]])
            assert found
            assert all(c.place_seized.startswith(village.split()[0]) for c in found)
            assert await public.find_cases(tx, app.deps, ["goat", village.split()[0], "black"])
            assert not await public.find_cases(tx, app.deps, ["goat", other.split()[0]])
        # The new case took the next number of its pound.
        pound = mine[-1].pound
        last = max(c.seq for c in plan.cases if c.pound == pound)
        async with app.store.transaction() as tx:
            seq = (
                await tx.session.execute(
                    text("SELECT last_case_seq FROM pounds WHERE code=:p"), {"p": pound}
                )
            ).scalar_one()
        assert seq == last + 1
        assert seized.loaded is not None
        assert seized.loaded.row.number == f"{pound}-{last + 1}"
