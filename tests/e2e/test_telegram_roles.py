"""Roles on Telegram: officers receive the keeper's report and act; another pound's keeper
and another authority's officer are refused, in their own language."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.fakes.telegram_api import TelegramUser, Updates
from bot.i18n import detect_script, render, translator
from bot.store.models import CaseRow, OutboxRow
from tests.e2e.telegram_rig import (
    KEEPER,
    OFFICER,
    OTHER_KEEPER,
    OTHER_OFFICER,
    TelegramRig,
    db_url,
    fake_bot_api,
    poundbot_on,
    seed_users,
    sent,
    start_clock,
)

SEIZE = "/seize 2 cow at Kunnamangalam market"


@pytest.fixture
async def rig(tmp_path: Path) -> AsyncIterator[TelegramRig]:
    clock, url = start_clock(), db_url(tmp_path)
    await seed_users(url, clock)
    async with (
        fake_bot_api() as (fake, fake_url),
        poundbot_on(fake, fake_url, url, clock, Updates()) as rig,
    ):
        yield rig


async def test_the_officers_receive_the_keepers_report_on_telegram(rig: TelegramRig) -> None:
    await rig.say(KEEPER, SEIZE)
    await rig.advance_clock(days=8)
    calls = await rig.say(KEEPER, "/report KNM-1")
    (to_keeper,) = sent([c for c in calls if c.params.get("chat_id") == KEEPER.id])
    assert "KNM-1" in to_keeper.text
    (to_officer,) = rig.fake.sent(OFFICER.id)
    assert "KNM-1" in to_officer.text
    # Only the officers of the pound's authority: not the other authority's.
    assert rig.fake.sent(OTHER_OFFICER.id) == []
    assert await rig.count(OutboxRow, OutboxRow.status == "sent", OutboxRow.channel == "telegram")

    # The officer acts from Telegram: the notice, then the deadlines of the day.
    (notice,) = sent(await rig.say(OFFICER, "/notice KNM-1"))
    assert "KNM-1" in notice.text
    (due,) = sent(await rig.say(OFFICER, "/due"))
    assert due.params["chat_id"] == OFFICER.id


async def test_a_keeper_of_another_pound_is_refused_in_their_language(rig: TelegramRig) -> None:
    await rig.say(KEEPER, SEIZE)
    kannada = TelegramUser(OTHER_KEEPER.id, OTHER_KEEPER.first_name, "kn")
    (refusal,) = sent(await rig.say(kannada, "/paid KNM-1"))
    assert refusal.text == render.not_allowed(translator("kn"))
    assert detect_script(refusal.text) == "kn"
    async with rig.app.store.transaction() as tx:
        assert (await tx.load_case("KNM-1")).case.stage.value == "impounded"


async def test_an_officer_of_another_authority_is_refused_in_their_language(
    rig: TelegramRig,
) -> None:
    await rig.say(KEEPER, SEIZE)
    await rig.advance_clock(days=8)
    await rig.say(KEEPER, "/report KNM-1")
    tamil = TelegramUser(OTHER_OFFICER.id, OTHER_OFFICER.first_name, "ta")
    (refusal,) = sent(await rig.say(tamil, "/notice KNM-1 at Kunnamangalam market"))
    assert refusal.text == render.not_allowed(translator("ta"))
    assert detect_script(refusal.text) == "ta"
    async with rig.app.store.transaction() as tx:
        assert (await tx.load_case("KNM-1")).case.stage.value == "reported"


async def test_a_member_of_the_public_may_ask_but_not_seize(rig: TelegramRig) -> None:
    await rig.say(KEEPER, SEIZE)
    owner = TelegramUser(4001, "Kunhammed", "en")
    (dues,) = sent(await rig.say(owner, "/dues KNM-1"))
    assert "KNM-1" in dues.text
    (refusal,) = sent(await rig.say(owner, "/seize 1 goat at Kunnamangalam"))
    assert refusal.text == render.not_allowed(translator("en"))
    assert await rig.count(CaseRow) == 1


async def test_an_officer_records_a_deposit_outcome_and_a_disposal_by_telegram_command(
    rig: TelegramRig,
) -> None:
    await rig.say(KEEPER, "/seize 1 cow at Kunnamangalam market")
    await rig.say(KEEPER, "/seize 1 cow at Kunnamangalam market")
    await rig.advance_clock(days=1)
    await rig.say(KEEPER, "/deposited KNM-1")
    (outcome,) = sent(await rig.say(OFFICER, "/outcome KNM-1 illegal REF CC-12/2026"))
    assert "CC-12/2026" in outcome.text
    assert await rig.count(CaseRow, CaseRow.number == "KNM-1", CaseRow.stage == "closed")
    await rig.advance_clock(days=7)
    await rig.say(KEEPER, "/report KNM-2")
    await rig.say(OFFICER, "/notice KNM-2 at Kunnamangalam")
    await rig.advance_clock(days=8)
    (disposed,) = sent(await rig.say(OFFICER, "/dispose KNM-2 1 1 BY Director REF DO-4/2026"))
    assert "DO-4/2026" in disposed.text
    assert await rig.count(CaseRow, CaseRow.number == "KNM-2", CaseRow.stage == "selling")
