"""The sale on Telegram: a SOLD without the buyer's declaration (s.18) is answered with
the list of who may not buy and a button that records the declaration."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.fakes.telegram_api import Updates
from bot.store.models import SaleLot
from tests.e2e.telegram_rig import (
    KEEPER,
    OFFICER,
    TelegramRig,
    db_url,
    fake_bot_api,
    last_message,
    poundbot_on,
    seed_users,
    start_clock,
)

SOLD = "/sold KNM-1 1 1 25000 TO Mammu, Chathamangalam"


@pytest.fixture
async def rig(tmp_path: Path) -> AsyncIterator[TelegramRig]:
    clock, url = start_clock(), db_url(tmp_path)
    await seed_users(url, clock)
    async with (
        fake_bot_api() as (fake, fake_url),
        poundbot_on(fake, fake_url, url, clock, Updates()) as rig,
    ):
        yield rig


async def _at_the_auction(rig: TelegramRig) -> None:
    await rig.say(KEEPER, "/seize 2 cow at Kunnamangalam market")
    await rig.say(KEEPER, "/refused KNM-1")
    fixed = last_message(await rig.say(OFFICER, "/auction KNM-1 ON 01-03-2026 AT market"))
    assert "DECLARED" in fixed.text


async def test_the_declaration_is_a_button_that_lists_who_may_not_buy_s18(
    rig: TelegramRig,
) -> None:
    await _at_the_auction(rig)
    asked = last_message(await rig.say(OFFICER, SOLD))
    assert asked.text.startswith("The buyer must declare that they are not a police officer")
    assert asked.text.endswith("(s.18)")
    ((label, data),) = asked.buttons
    assert data.startswith("sold:declared:")
    assert label == (
        "The buyer declared they are not a police officer; an officer of the local "
        "authority; a member of the local authority; a pound-keeper"
    )
    assert await rig.count(SaleLot) == 0
    calls = await rig.press(OFFICER, asked, data)
    assert [c.method for c in calls[:2]] == ["answerCallbackQuery", "editMessageText"]
    assert "reply_markup" not in calls[1].params  # the pressed button is gone
    sold = last_message(calls)
    assert "Lot 1: 1 cow sold for ₹25,000 to Mammu, Chathamangalam." in sold.text
    assert await rig.count(SaleLot, SaleLot.buyer_declared_not_barred.is_(True)) == 1
    # The button works once: pressed again, it is stale and nothing more is sold.
    again = await rig.press(OFFICER, asked, data)
    assert [c.method for c in again] == ["answerCallbackQuery"]
    assert await rig.count(SaleLot) == 1


async def test_a_declaration_button_confirms_only_the_line_it_was_offered_for_s18(
    rig: TelegramRig,
) -> None:
    await _at_the_auction(rig)
    first = last_message(await rig.say(OFFICER, SOLD))
    second = last_message(await rig.say(OFFICER, "/sold KNM-1 1 2 50000 TO Beeran, Perla"))
    ((_, stale),) = first.buttons
    again = await rig.press(OFFICER, first, stale)
    assert [c.method for c in again] == ["answerCallbackQuery"]
    assert await rig.count(SaleLot) == 0
    ((_, data),) = second.buttons
    sold = last_message(await rig.press(OFFICER, second, data))
    assert "Lot 1: 2 cows sold for ₹50,000 to Beeran, Perla." in sold.text


async def test_a_barred_buyer_gets_no_declaration_button_s18(rig: TelegramRig) -> None:
    await _at_the_auction(rig)
    refused = last_message(
        await rig.say(OFFICER, "/sold KNM-1 1 1 25000 TO SI Suresh, Kunnamangalam police station")
    )
    assert refused.text.startswith("'police' names a police officer")
    assert refused.buttons == []
    assert await rig.count(SaleLot) == 0
