"""Onboarding on Telegram: invites, strangers, the language, the command menus."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from sqlalchemy import select

from bot.channels.telegram.menus import commands_of, menu
from bot.fakes.telegram_api import TelegramUser, Updates
from bot.i18n import LANGUAGES, detect_script, render, translator
from bot.i18n.chrome import telegram as text
from bot.services.admin import create_invite
from bot.store.models import Invite, User
from bot.support.caller import Caller
from tests.e2e.telegram_rig import (
    KEEPER,
    STRANGER,
    TelegramRig,
    db_url,
    fake_bot_api,
    poundbot_on,
    seed_users,
    sent,
    start_clock,
)

EN = translator("en")


@pytest.fixture
async def rig(tmp_path: Path) -> AsyncIterator[TelegramRig]:
    clock, url = start_clock(), db_url(tmp_path)
    await seed_users(url, clock)
    async with (
        fake_bot_api() as (fake, fake_url),
        poundbot_on(fake, fake_url, url, clock, Updates()) as rig,
    ):
        yield rig


async def invite(rig: TelegramRig, *, days: int = 7, **where: str) -> str:
    async with rig.app.store.transaction() as tx:
        made = await create_invite(
            tx, rig.app.deps, Caller.system(), name="Mohanan", days=days, **where
        )
        return made.code


async def user_of(rig: TelegramRig, telegram_id: int) -> User | None:
    async with rig.app.store.transaction() as tx:
        found = await tx.session.execute(select(User).where(User.telegram_id == telegram_id))
        return found.scalar_one_or_none()


async def test_a_deep_link_invite_makes_a_stranger_the_keeper_of_a_pound(rig: TelegramRig) -> None:
    code = await invite(rig, role="keeper", pound="KNM")
    calls = await rig.say(STRANGER, f"/start {code}")
    (welcome,) = sent(calls)
    assert welcome.text == text.welcome(
        "keeper", "Mohanan", "Kunnamangalam Grama Panchayat Cattle Pound", EN
    )
    (menu_call,) = [c for c in calls if c.method == "setMyCommands"]
    assert menu_call.params["scope"] == {"type": "chat", "chat_id": STRANGER.id}
    assert [c["command"] for c in menu_call.params["commands"]] == list(commands_of("keeper"))
    user = await user_of(rig, STRANGER.id)
    assert user is not None
    assert (user.role, user.pound_code, user.name, user.lang) == ("keeper", "KNM", "Mohanan", "en")
    # Now a keeper: /seize opens the guided report.
    (question,) = sent(await rig.say(STRANGER, "/seize"))
    assert question.text == text.ask_kind(EN)
    # /start again says who they are.
    (again,) = sent(await rig.say(STRANGER, "/start"))
    assert again.text == text.registered("keeper", "Kunnamangalam Grama Panchayat Cattle Pound", EN)


async def test_an_officer_invite_gives_the_officer_menu(rig: TelegramRig) -> None:
    code = await invite(rig, role="officer", authority="ENM-GP")
    calls = await rig.say(STRANGER, f"/start {code}")
    (welcome,) = sent(calls)
    assert welcome.text == text.welcome("officer", "Mohanan", "Enmakaje Grama Panchayat", EN)
    (menu_call,) = [c for c in calls if c.method == "setMyCommands"]
    assert menu_call.params["commands"][0] == {
        "command": "due",
        "description": text.command_description("due", EN),
    }


async def test_a_used_invite_is_refused_with_the_telegram_id(rig: TelegramRig) -> None:
    code = await invite(rig, role="keeper", pound="KNM")
    await rig.say(STRANGER, f"/start {code}")
    latecomer = TelegramUser(3002, "Biju", "en")
    (refusal,) = sent(await rig.say(latecomer, f"/start {code}"))
    assert refusal.text == text.invite_refused(3002, EN)
    assert "3002" in refusal.text
    assert await user_of(rig, 3002) is None


async def test_an_expired_invite_is_refused(rig: TelegramRig) -> None:
    code = await invite(rig, role="keeper", pound="KNM", days=1)
    await rig.advance_clock(days=1, minutes=1)
    (refusal,) = sent(await rig.say(STRANGER, f"/start {code}"))
    assert refusal.text == text.invite_refused(STRANGER.id, EN)
    async with rig.app.store.transaction() as tx:
        row = await tx.session.get(Invite, code)
    assert row is not None
    assert row.used_at is None


async def test_an_unknown_invite_is_refused(rig: TelegramRig) -> None:
    (refusal,) = sent(await rig.say(STRANGER, "/start not-a-code"))
    assert refusal.text == text.invite_refused(STRANGER.id, EN)


async def test_a_stranger_learns_what_the_bot_is_and_their_telegram_id(rig: TelegramRig) -> None:
    (reply,) = sent(await rig.say(STRANGER, "/start"))
    assert reply.text == text.stranger(STRANGER.id, EN)
    assert str(STRANGER.id) in reply.text


@pytest.mark.parametrize("lang", ["ml", "ta", "kn"])
async def test_the_first_reply_follows_the_clients_language(rig: TelegramRig, lang: str) -> None:
    visitor = TelegramUser(3100, "Visitor", lang)
    (reply,) = sent(await rig.say(visitor, "/start"))
    assert reply.text == text.stranger(3100, translator(lang))
    assert detect_script(reply.text) == lang


async def test_a_client_language_poundbot_does_not_speak_falls_back(rig: TelegramRig) -> None:
    visitor = TelegramUser(3101, "Visitor", "hi")
    (reply,) = sent(await rig.say(visitor, "/start"))
    assert reply.text == text.stranger(3101, EN)


async def test_lang_offers_buttons_and_the_choice_sticks_for_a_stranger(rig: TelegramRig) -> None:
    (picker,) = sent(await rig.say(STRANGER, "/lang"))
    assert picker.text == text.choose_language(EN)
    assert [d for _, d in picker.buttons] == [f"lang:{code}" for code in text.LANGUAGE_NAMES]
    calls = await rig.press(STRANGER, picker, "lang:kn")
    kn = translator("kn")
    assert [c.method for c in calls] == ["answerCallbackQuery", "setMyCommands", "editMessageText"]
    assert calls[2].text == render.lang_set(kn)
    assert calls[1].params["commands"][0]["description"] == text.command_description("help", kn)
    (reply,) = sent(await rig.say(STRANGER, "/start"))
    assert reply.text == text.stranger(STRANGER.id, kn)


async def test_a_keeper_sets_the_language_in_one_line(rig: TelegramRig) -> None:
    (reply,) = sent(await rig.say(KEEPER, "/lang ml"))
    assert reply.text == render.lang_set(translator("ml"))
    user = await user_of(rig, KEEPER.id)
    assert user is not None
    assert user.lang == "ml"
    (question,) = sent(await rig.say(KEEPER, "/seize"))
    assert question.text == text.ask_kind(translator("ml"))


async def test_the_default_menus_are_set_at_start_in_every_language(rig: TelegramRig) -> None:
    menus = {c.params.get("language_code"): c for c in rig.fake.of("setMyCommands")}
    assert set(menus) == {*LANGUAGES, None}
    for lang in LANGUAGES:
        commands = menus[lang].params["commands"]
        expected = menu("public", translator(lang))
        assert [(c["command"], c["description"]) for c in commands] == expected
