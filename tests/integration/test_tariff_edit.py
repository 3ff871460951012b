"""A tariff changed on the web desk: a dated row added (from today or later straight in;
dated back, only with each open case it changes confirmed, the closed ones keeping the
figures they were settled on), a row not yet in force withdrawn, a row in force never;
each refusal writes nothing. On SQLite and PostgreSQL, with the desk's rig on 1 March
2026 and the sample configuration."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from datetime import date
from pathlib import Path

import pytest

from bot.bootstrap import open_app
from bot.channels.identity import caller_of
from bot.services import keeper as k
from bot.services.base import statement_of
from bot.services.config_edit import audit
from bot.services.config_versions import current, history
from bot.services.tariff_edit import (
    CasesToConfirmError,
    NewRates,
    RateInForceError,
    add_rates,
    tariff_of,
    tariffs_of,
    touched_by,
    withdraw_rate,
)
from bot.store.models import User
from bot.support.caller import ADMIN, OFFICER, Caller
from bot.support.errors import BadInputError, ConfigChangedError, NotAllowedError
from bot.web.config_tariffs import take_up
from domain.money import Money
from domain.statement import statement
from tests.conftest import ENGINES
from tests.integration.test_migrations import fresh_pg_database
from tests.service.helpers import seizure
from tests.web.rig import Rig, rig

STATE_ADMIN = Caller(role=ADMIN, channel="web")
KNM_ADMIN = Caller(role=ADMIN, channel="web", authority="KNM-GP")
ENM_ADMIN = Caller(role=ADMIN, channel="web", authority="ENM-GP")
#: A cow's feeding charge dated back to 2 March: KNM-1 (paid on 3 March) and KNM-2
#: (still in the pound) were both fed on days after it.
BACK = NewRates("feeding", date(2026, 3, 2), {"cow": Money.rupees(200)}, "G.O. 7/2026")


@pytest.fixture(params=ENGINES)
def url(request: pytest.FixtureRequest) -> Iterator[str | None]:
    """None: the rig's own SQLite file; or a new PostgreSQL database."""
    if request.param == "sqlite":
        yield None
        return
    with fresh_pg_database() as found:
        yield found


async def seize(r: Rig, keeper: User, pound: str = "KNM") -> str:
    async with r.app.store.transaction() as tx:
        done = await k.record_seizure(tx, r.app.deps, caller_of(keeper, "sms"), seizure(pound))
    return done.loaded.row.number


@pytest.fixture
async def desk(tmp_path: Path, url: str | None) -> AsyncIterator[Rig]:
    """KNM-1 and KNM-2 brought in on 1 March (recorded on 1 and 3 March); KNM-1 paid
    for on 3 March (released: closed), KNM-2 still in the pound; today 5 March."""
    if url is not None:
        async with open_app(url=url, migrate=True):
            pass
    async with rig(tmp_path, url=url) as r:
        keeper = await r.user("keeper", pound="KNM", phone="+919847000010", name="Suresh")
        assert await seize(r, keeper) == "KNM-1"
        r.clock.advance(days=2)
        async with r.app.store.transaction() as tx:
            await k.record_payment(tx, r.app.deps, caller_of(keeper, "sms"), "KNM-1")
        assert await seize(r, keeper) == "KNM-2"
        r.clock.advance(days=2)
        yield r


async def _figures(r: Rig, number: str) -> tuple[Money, Money]:
    """The dues of case ``number`` today, and what was paid."""
    async with r.app.store.reading() as tx:
        case = (await tx.load_case(number)).case
    shown = statement_of(r.app.deps, case)
    return shown.dues.total, shown.paid


async def _version(r: Rig) -> int:
    row = await current(r.app.store)
    assert row is not None
    return row.id


def test_the_tariffs_an_admin_changes_are_those_of_their_authority(desk: Rig) -> None:
    config = desk.app.config
    assert [t.name for t in tariffs_of(config, STATE_ADMIN)] == ["ENM", "KNM-GP", "VTV-GP"]
    assert [t.name for t in tariffs_of(config, KNM_ADMIN)] == ["KNM-GP"]
    enm = tariffs_of(config, ENM_ADMIN)
    assert [(t.name, t.authority, t.pounds) for t in enm] == [("ENM", "ENM-GP", ("ENM",))]
    assert tariff_of(config, KNM_ADMIN, "KNM-GP").pounds == ("KNM", "PTM")
    with pytest.raises(NotAllowedError):
        tariff_of(config, ENM_ADMIN, "KNM-GP")
    with pytest.raises(NotAllowedError):
        tariffs_of(config, Caller(role=OFFICER, channel="web", authority="KNM-GP"))


async def test_a_row_from_a_later_day_goes_straight_in_and_may_be_withdrawn(desk: Rig) -> None:
    r = desk
    first = await _version(r)
    later = NewRates("fines", date(2026, 4, 1), {"cow": Money.rupees("800.50")}, "G.O. 9/2026")
    written = await add_rates(
        r.app.store, r.app.deps, KNM_ADMIN, based_on=first, name="KNM-GP", rates=later, reason="r"
    )
    row = await current(r.app.store)
    assert row is not None
    assert row.id == written.version_id
    assert '{ from = 2026-04-01, rupees = "800.50", source = "G.O. 9/2026" }' in row.text
    assert "# Tariffs. One [tariffs.NAME] table each" in row.text  # the comments kept
    await take_up(r.app, written)
    cow = r.app.deps.tariff("KNM").fines["cow"]
    assert cow.row_on(date(2026, 4, 1)).amount == Money.rupees("800.50")
    assert cow.row_on(date(2026, 3, 31)).amount == Money.rupees(750)
    shown = await audit(r.app.store, KNM_ADMIN, "KNM-GP")
    assert [(c.entity, c.key, c.field, c.old) for c in shown] == [
        ("fine", "KNM-GP.cow", "2026-04-01", None)
    ]

    with pytest.raises(RateInForceError):  # in force since 2025: it counted money
        await withdraw_rate(
            r.app.store,
            r.app.deps,
            KNM_ADMIN,
            based_on=written.version_id,
            name="KNM-GP",
            schedule="fines",
            kind="cow",
            applies_from=date(2025, 4, 1),
            reason="wrong",
        )
    gone = await withdraw_rate(
        r.app.store,
        r.app.deps,
        KNM_ADMIN,
        based_on=written.version_id,
        name="KNM-GP",
        schedule="fines",
        kind="cow",
        applies_from=date(2026, 4, 1),
        reason="withdrawn by G.O. 10/2026",
    )
    row = await current(r.app.store)
    assert row is not None
    assert "G.O. 9/2026" not in row.text
    shown = await audit(r.app.store, KNM_ADMIN, "KNM-GP")
    assert (shown[0].field, shown[0].new, shown[0].reason) == (
        "2026-04-01",
        None,
        "withdrawn by G.O. 10/2026",
    )
    await take_up(r.app, gone)
    assert r.app.deps.tariff("KNM").fines["cow"].row_on(date(2026, 4, 1)).amount == Money.rupees(
        750
    )


async def test_a_row_dated_back_waits_for_each_open_case_it_changes(desk: Rig) -> None:
    r = desk
    first = await _version(r)
    found = tariff_of(r.app.config, KNM_ADMIN, "KNM-GP")
    touched = await touched_by(r.app.store, r.app.deps, found, BACK)
    assert touched.open == ("KNM-2",)
    assert touched.closed == {"cow": ("KNM-1",)}
    store, deps = r.app.store, r.app.deps
    with pytest.raises(CasesToConfirmError) as refused:
        await add_rates(
            store, deps, KNM_ADMIN, based_on=first, name="KNM-GP", rates=BACK, reason="r"
        )
    assert refused.value.facts["cases"] == ["KNM-2"]

    # A case brought in between the list and the confirmation: the list again.
    keeper_row = await r.user("keeper", pound="PTM", phone="+919847000012", name="Anil")
    assert await seize(r, keeper_row, "PTM") == "PTM-1"
    with pytest.raises(CasesToConfirmError) as again:
        await add_rates(
            store,
            deps,
            KNM_ADMIN,
            based_on=first,
            name="KNM-GP",
            rates=BACK,
            reason="r",
            confirmed=["KNM-2"],
        )
    assert again.value.facts["cases"] == ["KNM-2", "PTM-1"]
    assert [v.id for v in await history(store)] == [first]


async def test_a_closed_case_keeps_its_figures_and_an_open_one_is_counted_again(
    desk: Rig,
) -> None:
    r = desk
    store, deps = r.app.store, r.app.deps
    first = await _version(r)
    paid_dues, paid = await _figures(r, "KNM-1")
    assert paid_dues == paid  # released on payment of the whole dues (s.12)
    open_before, _ = await _figures(r, "KNM-2")
    written = await add_rates(
        store,
        deps,
        KNM_ADMIN,
        based_on=first,
        name="KNM-GP",
        rates=BACK,
        reason="G.O. 7/2026 dated back",
        confirmed=["KNM-2", "PTM-9"],
    )
    row = await current(store)
    assert row is not None
    assert 'source = "G.O. 7/2026", closed = ["KNM-1"] }' in row.text
    await take_up(r.app, written)
    assert await _figures(r, "KNM-1") == (paid_dues, paid)  # settled: unchanged
    open_after, _ = await _figures(r, "KNM-2")
    # Two cows fed from 2 to 5 March at 200 a day instead of 120.50.
    assert open_after - open_before == Money.rupees("79.50") * 2 * 4
    # Without the row's list of closed cases, the closed case would have changed.
    async with store.reading() as tx:
        closed = (await tx.load_case("KNM-1")).case
    bare = r.app.deps.tariff("KNM")
    assert statement(closed, bare, deps.today()).dues.total != paid_dues

    with pytest.raises(ConfigChangedError):  # made on the version before
        await add_rates(
            store,
            r.app.deps,
            KNM_ADMIN,
            based_on=first,
            name="KNM-GP",
            rates=NewRates("fines", date(2026, 5, 1), {"ox": Money.rupees(1)}, "x"),
            reason="r",
        )


@pytest.mark.parametrize(
    ("caller", "rates", "error"),
    [
        pytest.param(ENM_ADMIN, BACK, NotAllowedError, id="another-authority"),
        pytest.param(
            Caller(role=OFFICER, channel="web", authority="KNM-GP"),
            BACK,
            NotAllowedError,
            id="an-officer",
        ),
        pytest.param(
            KNM_ADMIN,
            NewRates("fines", date(2026, 5, 1), {"cow": Money.zero()}, "x"),
            BadInputError,
            id="s11-nothing",
        ),
        pytest.param(
            KNM_ADMIN,
            NewRates("fines", date(2026, 5, 1), {"cow": Money.rupees(5)}, "  "),
            BadInputError,
            id="s11-no-notification",
        ),
        pytest.param(
            KNM_ADMIN,
            NewRates("feeding", date(2025, 4, 1), {"cow": Money.rupees(5)}, "x"),
            BadInputError,
            id="s4-a-row-from-that-day",
        ),
        pytest.param(
            KNM_ADMIN,
            NewRates("feeding", date(2026, 5, 1), {"zebra": Money.rupees(5)}, "x"),
            BadInputError,
            id="s4-no-such-kind",
        ),
    ],
)
async def test_a_row_refused_writes_nothing(
    desk: Rig, caller: Caller, rates: NewRates, error: type[Exception]
) -> None:
    r = desk
    first = await _version(r)
    with pytest.raises(error):
        await add_rates(
            r.app.store,
            r.app.deps,
            caller,
            based_on=first,
            name="KNM-GP",
            rates=rates,
            reason="r",
            confirmed=["KNM-2"],
        )
    assert [v.id for v in await history(r.app.store)] == [first]
