"""The Telegram sender: what the outbox body carries, how Telegram's refusals are read,
the per-chat pace, and the rate limiter on the bot."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from telegram import Bot
from telegram.ext import AIORateLimiter

from bot.adapters.outbox import PermanentSendError, TransientSendError
from bot.channels.telegram.outbox import Action, Button, decode, encode, split_text
from bot.channels.telegram.sender import ChatPacer, TelegramSender
from bot.channels.telegram.webhook import TelegramOptions, build_application, file_url
from bot.config.settings import Settings
from bot.fakes.telegram_api import TOKEN, FakeTelegram
from tests.e2e.telegram_rig import fake_bot_api

KEYBOARD = ((Button("Skip", "seize:skip"), Button("Cancel", "seize:cancel")),)


@pytest.fixture
async def api() -> AsyncIterator[tuple[FakeTelegram, TelegramSender]]:
    async with fake_bot_api() as (fake, url), Bot(TOKEN, base_url=f"{url}/bot") as bot:
        yield fake, TelegramSender(bot, ChatPacer(0))


# --- the outbox body ---------------------------------------------------------------


def test_a_bare_message_is_queued_as_its_text() -> None:
    assert encode(Action("send", text="Case KNM-1 recorded.")) == "Case KNM-1 recorded."
    assert decode("Case KNM-1 recorded.") == Action("send", text="Case KNM-1 recorded.")


@pytest.mark.parametrize(
    "action",
    [
        Action("send", text="Which kind?", inline=KEYBOARD),
        Action("send", text="Where?", reply=((Button("Share location", location=True),),)),
        Action("send", text="Done.", remove_keyboard=True),
        Action("send", text='{"tg": 1, "op": "menu"} typed by someone'),
        Action("edit", text="Which kind?\n→ cow", message_id=42),
        Action("answer", text="That button is no longer current.", callback_id="cq-1"),
        Action("menu", commands=(("seize", "Report cattle brought in"),)),
    ],
    ids=[
        "inline keyboard",
        "location button",
        "keyboard removed",
        "text like JSON",
        "edit",
        "answer",
        "menu",
    ],
)
def test_every_action_comes_back_from_its_body(action: Action) -> None:
    assert decode(encode(action)) == action


def test_a_long_text_is_cut_at_line_ends_within_the_limit() -> None:
    text = "\n".join(f"line {i} " + "x" * 50 for i in range(200))
    pieces = split_text(text)
    assert len(pieces) > 1
    assert all(len(p) <= 4096 for p in pieces)
    assert "\n".join(pieces) == text


def test_the_file_url_follows_the_api_url() -> None:
    assert file_url("https://api.telegram.org/bot") == "https://api.telegram.org/file/bot"
    assert file_url("http://127.0.0.1:8081/bot") == "http://127.0.0.1:8081/file/bot"


# --- sending ------------------------------------------------------------------------


async def test_a_message_goes_out_with_its_keyboard(
    api: tuple[FakeTelegram, TelegramSender],
) -> None:
    fake, sender = api
    message_id = await sender.send("1001", encode(Action("send", text="Hi", inline=KEYBOARD)), "k")
    (call,) = fake.of("sendMessage")
    assert message_id == str(call.message_id)
    assert call.params["chat_id"] == 1001
    assert call.buttons == [("Skip", "seize:skip"), ("Cancel", "seize:cancel")]


async def test_flood_control_is_transient(
    api: tuple[FakeTelegram, TelegramSender], monkeypatch: pytest.MonkeyPatch
) -> None:
    # PTB 22.2+ warns inside RetryAfter() unless its timedelta opt-in is on.
    monkeypatch.setenv("PTB_TIMEDELTA", "1")
    fake, sender = api
    fake.fail.append(("sendMessage", 429, "Too Many Requests: retry after 3", 3))
    with pytest.raises(TransientSendError, match="Retry in 0:00:03"):
        await sender.send("1001", "Hi", "k")


async def test_a_blocked_bot_is_permanent(api: tuple[FakeTelegram, TelegramSender]) -> None:
    fake, sender = api
    fake.fail.append(("sendMessage", 403, "Forbidden: bot was blocked by the user", None))
    with pytest.raises(PermanentSendError, match="blocked"):
        await sender.send("1001", "Hi", "k")


async def test_a_server_error_is_transient(api: tuple[FakeTelegram, TelegramSender]) -> None:
    fake, sender = api
    fake.fail.append(("sendMessage", 502, "Bad Gateway", None))
    with pytest.raises(TransientSendError):
        await sender.send("1001", "Hi", "k")


async def test_an_edit_that_changes_nothing_is_done(
    api: tuple[FakeTelegram, TelegramSender],
) -> None:
    fake, sender = api
    fake.fail.append(("editMessageText", 400, "Bad Request: message is not modified", None))
    body = encode(Action("edit", text="Which kind?\n→ cow", message_id=42))
    assert await sender.send("1001", body, "k") == "42"


async def test_a_bad_request_is_permanent(api: tuple[FakeTelegram, TelegramSender]) -> None:
    fake, sender = api
    fake.fail.append(("answerCallbackQuery", 400, "Bad Request: query is too old", None))
    with pytest.raises(PermanentSendError, match="too old"):
        await sender.send("1001", encode(Action("answer", callback_id="cq-1")), "k")


async def test_a_menu_is_set_for_its_chat(api: tuple[FakeTelegram, TelegramSender]) -> None:
    fake, sender = api
    await sender.send("1001", encode(Action("menu", commands=(("seize", "Report"),))), "k")
    (call,) = fake.of("setMyCommands")
    assert call.params["scope"] == {"type": "chat", "chat_id": 1001}
    assert call.params["commands"] == [{"command": "seize", "description": "Report"}]


# --- pace -------------------------------------------------------------------------


async def test_new_messages_to_one_chat_are_a_second_apart_and_other_chats_wait_not() -> None:
    now = [100.0]
    waits: list[float] = []

    async def sleep(seconds: float) -> None:
        waits.append(seconds)
        now[0] += seconds

    pacer = ChatPacer(1.0, clock=lambda: now[0], sleep=sleep)
    await pacer.wait("1001")
    await pacer.wait("2001")
    assert waits == []
    now[0] += 0.25
    await pacer.wait("1001")
    assert waits == [0.75]
    await pacer.wait("1001")
    assert waits == [0.75, 1.0]
    now[0] += 5
    await pacer.wait("1001")
    assert waits == [0.75, 1.0]


def test_the_bot_is_built_with_the_rate_limiter_and_the_configured_urls() -> None:
    settings = Settings(telegram_token=TOKEN, telegram_api_url="http://127.0.0.1:9/bot")
    application = build_application(settings, TelegramOptions())
    assert isinstance(application.bot.rate_limiter, AIORateLimiter)
    assert application.bot.base_url == f"http://127.0.0.1:9/bot{TOKEN}"
    assert application.bot.base_file_url == f"http://127.0.0.1:9/file/bot{TOKEN}"
    assert application.updater is None
    plain = build_application(settings, TelegramOptions(rate_limit=False))
    assert plain.bot.rate_limiter is None
