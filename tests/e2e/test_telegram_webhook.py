"""The Telegram webhook: the secret, nothing lost and nothing twice, polling, set-webhook."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from bot.bootstrap import open_app
from bot.channels.telegram.connect import set_webhook
from bot.channels.telegram.webhook import ALLOWED_UPDATES, TelegramOptions
from bot.config.settings import Settings
from bot.entry.cli import main
from bot.fakes.telegram_api import TOKEN, Updates
from bot.i18n import render, translator
from bot.store.models import CaseRow, InboxRow, OutboxRow
from tests.e2e.telegram_rig import (
    KEEPER,
    PUBLIC_URL,
    SECRET,
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


@pytest.mark.parametrize("secret", [None, "", "wrong", SECRET + "x", SECRET.upper()])
async def test_an_update_without_the_right_secret_is_refused_and_not_stored(
    rig: TelegramRig, secret: str | None
) -> None:
    response = await rig.post(rig.updates.text(KEEPER, SEIZE), secret=secret)
    assert response.status_code == 403
    assert await rig.count(InboxRow) == 0
    assert await rig.count(CaseRow) == 0


async def test_with_no_secret_configured_the_webhook_refuses_everything(tmp_path: Path) -> None:
    clock, url = start_clock(), db_url(tmp_path)
    async with (
        fake_bot_api() as (fake, fake_url),
        poundbot_on(fake, fake_url, url, clock, Updates(), secret="") as rig,
    ):
        for given in ("", None):  # an empty header does not match an empty secret
            response = await rig.post(rig.updates.text(KEEPER, "/help"), secret=given)
            assert response.status_code == 403
        assert await rig.count(InboxRow) == 0


@pytest.mark.parametrize("body", [b"not json", b"[1, 2]", b'{"message": {}}'])
async def test_a_body_that_is_not_an_update_is_kept_as_rejected_and_not_asked_again(
    rig: TelegramRig, body: bytes
) -> None:
    """Any answer but 200 and Telegram sends it again, for ever (tests/e2e/test_edge_input)."""
    response = await rig.http.post(
        "/telegram",
        content=body,
        headers={"X-Telegram-Bot-Api-Secret-Token": SECRET, "content-type": "application/json"},
    )
    assert response.status_code == 200
    assert await rig.count(InboxRow, InboxRow.reply.like("[rejected]%")) == 1
    assert await rig.count(CaseRow) == 0


async def test_a_redelivered_update_has_one_effect_and_one_reply(rig: TelegramRig) -> None:
    update = rig.updates.text(KEEPER, SEIZE)
    first = await rig.deliver(update)
    again = await rig.deliver(update)
    assert len(sent(first)) == 1
    assert again == []
    both = await asyncio.gather(*(rig.post(update) for _ in range(3)))
    assert [r.status_code for r in both] == [200, 200, 200]
    assert await rig.count(CaseRow) == 1
    assert await rig.count(InboxRow) == 1
    assert await rig.count(OutboxRow, OutboxRow.idempotency_key.like("tg-reply:%")) == 1


async def test_concurrent_deliveries_of_one_update_have_one_effect(rig: TelegramRig) -> None:
    update = rig.updates.text(KEEPER, SEIZE)
    responses = await asyncio.gather(*(rig.post(update) for _ in range(4)))
    assert {r.status_code for r in responses} == {200}
    await rig.channel.delivery.drained()
    assert await rig.count(CaseRow) == 1
    assert len(rig.fake.sent(KEEPER.id)) == 1


async def test_an_update_stored_before_a_stop_is_handled_on_the_next_start(
    tmp_path: Path,
) -> None:
    clock, url, updates = start_clock(), db_url(tmp_path), Updates()
    await seed_users(url, clock)
    update = updates.text(KEEPER, SEIZE)
    # The process stopped after committing the raw update, before handling it.
    async with open_app(url=url, clock=clock) as app, app.store.transaction() as tx:
        tx.session.add(
            InboxRow(
                channel="telegram",
                provider_id=str(update["update_id"]),
                sender=str(KEEPER.id),
                body=SEIZE,
                raw=update,
                received_at=tx.now,
            )
        )
    async with (
        fake_bot_api() as (fake, fake_url),
        poundbot_on(fake, fake_url, url, clock, updates) as rig,
    ):
        await rig.channel.delivery.drained()
        (reply,) = rig.fake.sent(KEEPER.id)
        assert reply.text.startswith("Case KNM-1 recorded")
        # Telegram never got a 200 for it, so it sends it again: nothing more happens,
        # though the row was stored under the update id alone (before keys had the bot's).
        assert await rig.deliver(update) == []
        assert await rig.count(CaseRow) == 1
        assert await rig.count(InboxRow) == 1


async def test_update_ids_of_another_bot_on_this_database_are_not_taken_for_repeats(
    tmp_path: Path,
) -> None:
    clock, url, updates = start_clock(), db_url(tmp_path), Updates()
    await seed_users(url, clock)
    answered, waiting = updates.text(KEEPER, SEIZE), updates.text(KEEPER, SEIZE)
    # A bot this database served before (id 999) used the same update ids: one answered,
    # one stored but never handled.
    async with open_app(url=url, clock=clock) as app, app.store.transaction() as tx:
        for update, done in ((answered, True), (waiting, False)):
            tx.session.add(
                InboxRow(
                    channel="telegram",
                    provider_id=f"999:{update['update_id']}",
                    sender=str(KEEPER.id),
                    body=SEIZE,
                    raw=update,
                    received_at=tx.now,
                    processed_at=tx.now if done else None,
                    reply="answered by the other bot" if done else None,
                )
            )
    async with (
        fake_bot_api() as (fake, fake_url),
        poundbot_on(fake, fake_url, url, clock, updates) as rig,
    ):
        await rig.channel.delivery.drained()
        assert rig.fake.sent() == []  # the other bot's waiting update is not this bot's
        calls = await rig.deliver(answered)  # this bot's update with the same id
        assert sent(calls)[-1].text.startswith("Case KNM-1 recorded")
        assert await rig.count(CaseRow) == 1
        mine = TOKEN.split(":")[0]
        assert (
            await rig.count(InboxRow, InboxRow.provider_id == f"{mine}:{answered['update_id']}")
            == 1
        )


async def test_a_failing_handler_changes_nothing_and_the_keeper_is_told(
    rig: TelegramRig, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("the disk is full")

    monkeypatch.setattr("bot.services.keeper.record_seizure", broken)
    update = rig.updates.text(KEEPER, SEIZE)
    (told,) = sent(await rig.deliver(update))
    assert told.text == render.try_again_later(translator("en"))
    assert await rig.count(CaseRow) == 0
    async with rig.app.store.transaction() as tx:
        row = (await tx.session.execute(select(InboxRow))).scalar_one()
    assert row.processed_at is not None
    assert row.reply is not None
    assert row.reply.startswith("[failed]")
    # Marked: a redelivery (or the next start) does not act on it behind the keeper's back.
    assert await rig.deliver(update) == []


async def test_long_polling_takes_updates_through_the_same_steps(tmp_path: Path) -> None:
    clock, url, updates = start_clock(), db_url(tmp_path), Updates()
    await seed_users(url, clock)
    options = TelegramOptions(polling=True, chat_interval=0, rate_limit=False, poll_timeout=1)
    async with (
        fake_bot_api() as (fake, fake_url),
        poundbot_on(fake, fake_url, url, clock, updates, options) as rig,
    ):
        fake.queue_update(updates.text(KEEPER, SEIZE))
        (reply,) = await fake.wait_for("sendMessage")
        assert reply.text.startswith("Case KNM-1 recorded")
        assert len(fake.of("deleteWebhook")) == 1
        polls = fake.of("getUpdates")
        assert polls[0].params["allowed_updates"] == list(ALLOWED_UPDATES)
        assert await rig.count(InboxRow, InboxRow.processed_at.is_not(None)) == 1
        fake.close()


async def test_set_webhook_registers_the_public_url_with_the_secret() -> None:
    async with fake_bot_api() as (fake, fake_url):
        settings = Settings(
            public_url=PUBLIC_URL,
            telegram_token=TOKEN,
            telegram_secret=SECRET,
            telegram_api_url=f"{fake_url}/bot",
        )
        said = await set_webhook(settings)
    (call,) = fake.of("setWebhook")
    assert call.params["url"] == f"{PUBLIC_URL}/telegram"
    assert call.params["secret_token"] == SECRET
    assert call.params["allowed_updates"] == ["message", "callback_query"]
    assert said.startswith(f"webhook set: {PUBLIC_URL}/telegram")


def test_set_webhook_without_a_public_url_says_what_is_missing(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("TELEGRAM_BOT_TOKEN", TOKEN)
    monkeypatch.delenv("TELEGRAM_WEBHOOK_SECRET", raising=False)
    monkeypatch.delenv("POUNDBOT_PUBLIC_URL", raising=False)
    assert main(["telegram", "set-webhook"]) == 1
    error = capsys.readouterr().err
    assert "TELEGRAM_WEBHOOK_SECRET" in error
    assert "POUNDBOT_PUBLIC_URL" in error
