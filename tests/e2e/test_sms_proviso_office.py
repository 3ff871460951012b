"""s.13(3) proviso by signed SMS into the running app, on SQLite and PostgreSQL: who
may order another disposal is the configured office ([[proviso_offices]]), named after
BY by its code, its full name or its short form, whole; a title that merely holds the
word ("Deputy Director of Panchayats", "Panchayat Secretary for the Director") is
refused, naming the office and its code. The SMS reply carries the office's short form
(one DLT variable), in the officer's language."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from datetime import datetime
from pathlib import Path

import pytest

from bot.bootstrap import open_app
from bot.config import sample_config_path
from bot.i18n.common import shorten
from domain.calendar import LOCAL_TZ
from tests.conftest import ENGINES, PG_URL
from tests.e2e.sms_harness import KEEPER_PHONE, OFFICER_PHONE, SmsRig, sms_rig
from tests.e2e.test_sms_stages import text

SAMPLE_OFFICE = (
    'code = "DIRECTOR"\nname = { en = "Director of Animal Husbandry", ml = "മൃഗസംരക്ഷണ വകുപ്പ് ഡയറക്ടർ"'
)
#: An office whose full name does not fit an SMS variable (30 characters).
DEPUTY = (
    'code = "DDAH"\n'
    'name = { en = "Deputy Director of Animal Husbandry, Kozhikode", '
    'ta = "துணை இயக்குநர், கால்நடைப் பராமரிப்புத் துறை, கோழிக்கோடு" }\n'
    'short = { en = "Dy. Director (AH), Kozhikode", ta = "துணை இயக்குநர், கோழிக்கோடு" }\n'
)


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
async def rig(tmp_path: Path, database: str | None) -> AsyncIterator[SmsRig]:
    if database is not None:
        async with open_app(url=database, migrate=True):
            pass
    async with sms_rig(tmp_path, database) as found:
        yield found


async def on(rig: SmsRig, day: int) -> None:
    await rig.set_clock(datetime(2026, 3, day, 10, 0, tzinfo=LOCAL_TZ))


async def to_auction_day(rig: SmsRig, heads: int = 3) -> None:
    """KNM-1: unclaimed cows, reported on 9 March, the notice on 10, the auction on 18."""
    await on(rig, 1)
    await text(rig, KEEPER_PHONE, f"SEIZE {heads} cow AT Kunnamangalam market; brown", "SM-s")
    await on(rig, 9)
    await text(rig, KEEPER_PHONE, "REPORT KNM-1", "SM-r")
    await on(rig, 10)
    await text(rig, OFFICER_PHONE, "NOTICE KNM-1 AT Kunnamangalam, Kunnamangalam market", "SM-n")
    await text(rig, OFFICER_PHONE, "AUCTION KNM-1 ON 18-03-2026 AT Kunnamangalam market", "SM-a")
    await on(rig, 18)


async def heads_left(rig: SmsRig) -> int:
    async with rig.app.store.transaction() as tx:
        return (await tx.load_case("KNM-1")).case.heads_remaining


async def test_only_the_configured_office_orders_another_disposal_s13_3_proviso(
    rig: SmsRig,
) -> None:
    await to_auction_day(rig)
    for n, who in enumerate(
        (
            "Deputy Director of Panchayats",
            "Panchayat Secretary for the Director",
            "Director of Panchayats",
            "Directorate",
        )
    ):
        refused = await text(
            rig, OFFICER_PHONE, f"DISPOSE KNM-1 1 1 BY {who} REF DO-4/2026 HOW goshala", f"SM-{n}"
        )
        assert refused == (
            "Not recorded: another disposal is by the order of Director of Animal Husbandry "
            "alone, of the opinion that the cattle will not fetch a fair price; "
            f"'{shorten(who)}' is not that office. Write BY DIRECTOR. (s.13(3) proviso)"
        ), refused
    assert await heads_left(rig) == 3
    # The code, in any case; the full name; each recorded by the office's name.
    for n, who in enumerate(("DIRECTOR", "director", "Director of Animal Husbandry")):
        done = await text(
            rig, OFFICER_PHONE, f"DISPOSE KNM-1 1 1 BY {who} REF DO-4/2026 HOW goshala", f"SM-d{n}"
        )
        assert "by order of Director of Animal Husbandry, ref. DO-4/2026" in done, done
    assert await heads_left(rig) == 0
    async with rig.app.store.transaction() as tx:
        events = (await tx.load_case("KNM-1")).case.events
    assert {getattr(e, "ordered_by", None) for e in events} - {None} == {
        "Director of Animal Husbandry"
    }


async def test_an_sms_gives_the_short_form_of_a_long_office_name_in_each_language(
    tmp_path: Path, database: str | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    sample = sample_config_path().read_text(encoding="utf-8")
    start = sample.index(SAMPLE_OFFICE)
    end = sample.index("\n\n", start)
    path = tmp_path / "poundbot.toml"
    path.write_text(sample[:start] + DEPUTY + sample[end:], encoding="utf-8")
    monkeypatch.setenv("POUNDBOT_CONFIG", str(path))
    if database is not None:
        async with open_app(url=database, migrate=True):
            pass
    async with sms_rig(tmp_path, database) as rig:
        await to_auction_day(rig, heads=2)
        refused = await text(rig, OFFICER_PHONE, "DISPOSE KNM-1 1 1 BY Director REF D-1", "SM-1")
        assert refused == (
            "Not recorded: another disposal is by the order of Dy. Director (AH), Kozhikode "
            "alone, of the opinion that the cattle will not fetch a fair price; 'Director' is "
            "not that office. Write BY DDAH. (s.13(3) proviso)"
        ), refused
        done = await text(rig, OFFICER_PHONE, "DISPOSE KNM-1 1 1 BY ddah REF D-1", "SM-2")
        assert "by order of Dy. Director (AH), Kozhikode, ref. D-1" in done, done
        assert "Deputy Director of Animal" not in done
        # The full name, typed whole, names the office too; in Tamil, the Tamil short form.
        await text(rig, OFFICER_PHONE, "LANG ta", "SM-ta")
        tamil = await text(
            rig,
            OFFICER_PHONE,
            "DISPOSE KNM-1 1 1 BY Deputy Director of Animal Husbandry, Kozhikode REF D-2",
            "SM-3",
        )
        assert "துணை இயக்குநர், கோழிக்கோடு" in tamil, tamil
        assert "கால்நடைப் பராமரிப்புத் துறை" not in tamil
        assert "D-2" in tamil
        assert await heads_left(rig) == 0
