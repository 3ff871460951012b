"""Replies in the words of each case's Act, through the dispatcher (``handle_text``), with
Kunnamangalam under the Kerala Act until 4 March 2026 and under the Cattle-trespass Act,
1871 from 5 March: the answer to a step, the owner's DUES in every language, the
keeper's list of cases (each line in its own case's words), and the refusal of a
seizure report (no case yet: under the Act its intake would give it)."""

from __future__ import annotations

from datetime import date, datetime
from types import MappingProxyType

import pytest

from bot.config import Config, load_config, sample_config_path
from bot.config.model import ActInForce
from bot.conversation.reply import handle_text
from bot.i18n import LANGUAGES, translator
from bot.i18n.common import cite
from bot.services.base import Deps
from bot.store.models import User
from bot.store.tx import Store
from bot.support.caller import KEEPER, Caller
from bot.support.clock import FixedClock
from domain.calendar import LOCAL_TZ
from domain.profiles import CATTLE_TRESPASS_1871, KERALA_1961
from tests.act_forms import kerala_left

OWNER = "+919847000111"


@pytest.fixture
def config() -> Config:
    """KNM-GP under the Kerala Act until 4 March, under the 1871 Act from 5 March."""
    config = load_config(sample_config_path())
    since = ActInForce(date(2026, 3, 5), CATTLE_TRESPASS_1871.key)
    authority = config.authorities["KNM-GP"]._replace(acts=(since,))
    authorities = {**config.authorities, "KNM-GP": authority}
    return config._replace(authorities=MappingProxyType(authorities))


@pytest.fixture
def clock() -> FixedClock:
    return FixedClock(datetime(2026, 3, 6, 10, 30, tzinfo=LOCAL_TZ))


@pytest.fixture
async def recorder(store: Store) -> Caller:
    async with store.transaction() as tx:
        user = User(
            role=KEEPER,
            pound_code="KNM",
            name="keeper KNM",
            created_at=datetime(2026, 1, 1, tzinfo=LOCAL_TZ),
        )
        tx.session.add(user)
        await tx.session.flush()
        uid = int(user.id)
    return Caller(role=KEEPER, channel="test", user_id=uid, pound="KNM", lang="en")


async def say(store: Store, deps: Deps, caller: Caller, text: str, *, sms: bool = False) -> str:
    async with store.transaction() as tx:
        return (await handle_text(tx, deps, caller, text, sms=sms)).text


async def _two_cases(store: Store, deps: Deps, recorder: Caller) -> None:
    """KNM-1 brought on 3 March (the Kerala Act), KNM-2 on 5 March (the 1871 Act), both
    naming the owner's number."""
    for on in ("03-03-2026", "05-03-2026"):
        said = await say(
            store, deps, recorder, f"SEIZE 1 cow AT Kunnamangalam ON {on} OWNER Ravi {OWNER}"
        )
        assert "recorded" in said, said
    async with store.transaction() as tx:
        assert (await tx.load_case("KNM-1")).case.profile is KERALA_1961
        assert (await tx.load_case("KNM-2")).case.profile is CATTLE_TRESPASS_1871


async def test_the_intake_of_a_1871_case_is_answered_in_that_acts_words(
    store: Store, deps: Deps, recorder: Caller
) -> None:
    said = await say(store, deps, recorder, "SEIZE 1 cow AT Kunnamangalam ON 05-03-2026")
    assert "Fines (s.12)" in said
    assert "(s.14, para 1)" in said
    assert kerala_left(said, "en") == []
    kerala = await say(store, deps, recorder, "SEIZE 1 cow AT Kunnamangalam ON 04-03-2026")
    assert "Fines (s.11)" in kerala
    assert "(s.13(1))" in kerala


@pytest.mark.parametrize("lang", LANGUAGES)
async def test_the_owner_asks_dues_of_each_case_in_its_own_acts_words(
    store: Store, deps: Deps, recorder: Caller, lang: str
) -> None:
    await _two_cases(store, deps, recorder)
    owner = Caller.public("test", phone=OWNER, lang=lang)
    under_1871 = await say(store, deps, owner, "DUES KNM-2", sms=True)
    kerala = await say(store, deps, owner, "DUES KNM-1", sms=True)
    tr = translator(lang)
    assert cite("s.13(1)", tr.under(CATTLE_TRESPASS_1871)) in under_1871, under_1871
    assert kerala_left(under_1871, lang) == [], under_1871
    assert cite("s.13(1)", tr) in kerala, kerala


async def test_the_keepers_list_gives_each_case_in_its_own_acts_words(
    store: Store, deps: Deps, recorder: Caller, clock: FixedClock
) -> None:
    await _two_cases(store, deps, recorder)
    clock.set(datetime(2026, 3, 13, 10, 0, tzinfo=LOCAL_TZ))  # KNM-1 late, KNM-2 due
    listed = await say(store, deps, recorder, "CASES")
    first, second = (line for line in listed.splitlines() if line.startswith("KNM-"))
    assert "REPORT OVERDUE since 11 Mar 2026 (s.13(1))" in first
    assert "Report due today (s.14, para 1)" in second
    by_sms = await say(store, deps, recorder, "CASES", sms=True)
    assert "REPORT OVERDUE (s.13(1)): KNM-1." in by_sms
    assert "Report due today (s.14, para 1): KNM-2." in by_sms


async def test_a_refused_seizure_report_is_told_under_the_act_its_case_would_have(
    store: Store, deps: Deps, recorder: Caller
) -> None:
    under_1871 = await say(
        store, deps, recorder, "SEIZE 1 cow AT Kunnamangalam ON 05-03-2026 SEIZED 06-03-2026"
    )
    assert under_1871.endswith("is after the day the cattle were brought in, 5 Mar 2026. (s.8)")
    kerala = await say(
        store, deps, recorder, "SEIZE 1 cow AT Kunnamangalam ON 04-03-2026 SEIZED 05-03-2026"
    )
    assert kerala.endswith("is after the day the cattle were brought in, 4 Mar 2026. (s.7)")
