"""Photos of the cattle from Telegram, through the real PTB bot and the fake Bot API
(getFile and the file download): kept once with the case, checked, without EXIF."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select
from telegram.ext import Application

from bot.adapters.photo_store import add_pending, file_key
from bot.bootstrap import open_app
from bot.channels.telegram.photos import fetch_pending
from bot.conversation.photos import attach_pictures
from bot.fakes.telegram_api import Updates
from bot.store.models import PhotoRow
from tests.e2e.telegram_rig import (
    KEEPER,
    OFFICER,
    STRANGER,
    TelegramRig,
    db_url,
    fake_bot_api,
    last_message,
    poundbot_on,
    seed_users,
    start_clock,
)
from tests.integration.test_migrations import ENGINES, fresh_pg_database
from tests.photo_samples import eleven_mb, has_gps, jpeg_with_gps, png, text_as_jpg

SEIZE = "/seize 2 cow AT Kunnamangalam market; brown"


@pytest.fixture
async def rig(tmp_path: Path) -> AsyncIterator[TelegramRig]:
    clock, url = start_clock(), db_url(tmp_path)
    await seed_users(url, clock)
    async with (
        fake_bot_api() as (fake, fake_url),
        poundbot_on(fake, fake_url, url, clock, Updates()) as rig,
    ):
        yield rig


async def rows(rig: TelegramRig) -> list[PhotoRow]:
    async with rig.app.store.transaction() as tx:
        return list((await tx.session.execute(select(PhotoRow).order_by(PhotoRow.id))).scalars())


async def photo(rig: TelegramRig, file_id: str, caption: str = "", **kw: object) -> str:
    calls = await rig.deliver(rig.updates.photo(KEEPER, file_id, caption, **kw))  # type: ignore[arg-type]
    return last_message(calls).text


async def test_photo_then_pictures_are_kept_once_without_gps(
    rig: TelegramRig, data_folder: Path
) -> None:
    await rig.say(KEEPER, SEIZE)
    rig.fake.add_file("AgAC-cow-1", jpeg_with_gps())
    assert (
        last_message(await rig.say(KEEPER, "/photo KNM-1")).text == "Now send the photo of KNM-1."
    )
    assert await photo(rig, "AgAC-cow-1") == "1 photo kept with KNM-1."
    # The same photo again (the same file_unique_id): kept once, not downloaded again.
    assert await photo(rig, "AgAC-cow-1") == "That photo is already kept with KNM-1."
    assert rig.fake.downloads == {"AgAC-cow-1": 1}
    (row,) = await rows(rig)
    assert (row.status, row.lot, row.source_key, row.format) == (
        "kept",
        None,
        "tg:AgAC-cow-1u",
        "jpeg",
    )
    assert row.sha256 is not None
    stored = data_folder / "photos" / row.sha256[:2] / file_key(row.sha256, "jpeg")
    assert not has_gps(stored.read_bytes())


async def test_an_update_with_a_photo_is_handled_once(
    rig: TelegramRig, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Fails before: a first pass of the handlers, rolled back, found whether they wanted
    the picture, then they ran again with it (two runs an update with a photo)."""
    await rig.say(KEEPER, SEIZE)
    await rig.say(KEEPER, "/photo KNM-1")
    runs: list[int] = []
    process_update = Application.process_update

    async def counted(self: Application[Any, Any, Any, Any, Any, Any], update: object) -> None:
        runs.append(getattr(update, "update_id", 0))
        await process_update(self, update)

    monkeypatch.setattr(Application, "process_update", counted)
    attached: list[object] = []

    async def attach(*args: Any, **kwargs: Any) -> list[str]:
        attached.append(args[3])
        return await attach_pictures(*args, **kwargs)

    monkeypatch.setattr("bot.channels.telegram.photos.attach_pictures", attach)
    rig.fake.add_file("AgAC-once", png())
    rig.fake.add_file("AgAC-stray", png())
    assert await photo(rig, "AgAC-once") == "1 photo kept with KNM-1."
    assert await photo(rig, "AgAC-once") == "That photo is already kept with KNM-1."
    await rig.say(KEEPER, "hello")  # ends the run of photos for KNM-1
    assert await photo(rig, "AgAC-stray") == (
        "The photo was not kept: send it with PHOTO and the case number, e.g. PHOTO KNM-17."
    )
    assert len(runs) == len(set(runs)) == 4  # each update handled once
    assert len(attached) == 1  # the picture kept once, by one run
    assert rig.fake.downloads == {"AgAC-once": 1}


async def test_a_photo_captioned_photo_case_lot(rig: TelegramRig) -> None:
    await rig.say(KEEPER, "/seize 2 cow 1 buffalo AT Kunnamangalam market")
    rig.fake.add_file("AgAC-buffalo", png())
    assert await photo(rig, "AgAC-buffalo", "/photo KNM-1 2") == "1 photo kept with KNM-1."
    assert [(r.lot, r.format) for r in await rows(rig)] == [(1, "png")]
    assert await photo(rig, "AgAC-other", "/photo KNM-1 3") == "Case KNM-1 has no lot 3 (it has 2)."


async def test_a_photo_of_no_case_or_from_an_officer_is_not_kept(rig: TelegramRig) -> None:
    await rig.say(KEEPER, SEIZE)
    rig.fake.add_file("AgAC-stray", png())
    assert await photo(rig, "AgAC-stray") == (
        "The photo was not kept: send it with PHOTO and the case number, e.g. PHOTO KNM-17."
    )
    calls = await rig.deliver(rig.updates.photo(OFFICER, "AgAC-stray", "/photo KNM-1"))
    assert "photo kept" not in last_message(calls).text
    assert await rows(rig) == []
    assert rig.fake.downloads == {}


async def test_an_oversized_or_non_image_file_is_refused(rig: TelegramRig) -> None:
    await rig.say(KEEPER, SEIZE)
    await rig.say(KEEPER, "/photo KNM-1")
    rig.fake.add_file("AgAC-big", eleven_mb())
    big = await photo(rig, "AgAC-big", size=len(rig.fake.files["AgAC-big"]))
    assert big == "Photo 1 was not kept: it is larger than 10 MB. Send a smaller one."
    assert rig.fake.downloads == {}  # Telegram said its size: not downloaded at all
    rig.fake.add_file("AgAC-text", text_as_jpg())
    assert await photo(rig, "AgAC-text") == (
        "File 1 was not kept: it is not a photo (send a JPEG or PNG picture)."
    )
    assert await rows(rig) == []


async def test_a_photo_of_the_guided_report_that_is_not_an_image_is_refused(
    rig: TelegramRig,
) -> None:
    await rig.say(KEEPER, "/seize")
    await rig.say(KEEPER, "cow")
    more = last_message(await rig.say(KEEPER, "2"))
    await rig.press(KEEPER, more, "seize:next")
    await rig.say(KEEPER, "brown")
    await rig.say(KEEPER, "Kunnamangalam market")
    rig.fake.add_file("AgAC-text", text_as_jpg())
    rig.fake.add_file("AgAC-cow", jpeg_with_gps())
    refused = await photo(rig, "AgAC-text")
    assert refused.startswith(
        "File 1 was not kept: it is not a photo (send a JPEG or PNG picture)."
    )
    assert await photo(rig, "AgAC-cow") == "1 photo received. Send more, or press Done."
    again = await photo(rig, "AgAC-cow")  # the same photo twice: held once, fetched once
    assert again == "1 photo received. Send more, or press Done."
    assert rig.fake.downloads == {"AgAC-text": 1, "AgAC-cow": 1}
    assert await rows(rig) == []  # kept with the case when the report is confirmed


async def test_file_ids_of_an_older_poundbot_are_downloaded_later(
    rig: TelegramRig, data_folder: Path
) -> None:
    await rig.say(KEEPER, SEIZE)
    async with rig.app.store.transaction() as tx:
        loaded = await tx.load_case("KNM-1")
        await add_pending(tx, loaded.row.id, 0, "AgAC-old-1")
        await add_pending(tx, loaded.row.id, 0, "AgAC-old-gone")
    rig.fake.add_file("AgAC-old-1", jpeg_with_gps())
    bot = rig.channel.application.bot
    assert await fetch_pending(rig.app, bot) == 1
    kept = [(r.status, r.fetch_ref, r.lot) for r in await rows(rig)]
    assert kept == [("kept", "AgAC-old-1", 0), ("pending", "AgAC-old-gone", 0)]
    assert await fetch_pending(rig.app, bot) == 0  # the one Telegram cannot give waits


async def test_find_on_telegram_shows_the_first_photo_as_a_picture(rig: TelegramRig) -> None:
    await rig.say(KEEPER, SEIZE)
    rig.fake.add_file("AgAC-first", jpeg_with_gps())
    rig.fake.add_file("AgAC-second", png())
    await photo(rig, "AgAC-first", "/photo KNM-1")
    await photo(rig, "AgAC-second", "/photo KNM-1")
    calls = await rig.deliver(rig.updates.text(STRANGER, "FIND brown cow"))
    assert [c.method for c in calls] == ["sendMessage", "sendPhoto"]
    assert "KNM-1" in calls[0].text
    assert calls[1].params["caption"] == "KNM-1"
    assert calls[1].params["chat_id"] == STRANGER.id
    # The picture sent is the kept one (no EXIF), read from the photo store.
    (sent_photo,) = rig.fake.photos
    assert not has_gps(sent_photo)
    # A redelivered update sends nothing again (the outbox's key is the update's).
    update = rig.updates.text(STRANGER, "FIND cow")
    await rig.deliver(update)
    again = await rig.deliver(update)
    assert [c.method for c in again] == []
    assert len(rig.fake.of("sendPhoto")) == 2


async def test_typing_ends_a_run_of_photos_for_one_case(rig: TelegramRig) -> None:
    await rig.say(KEEPER, SEIZE)
    rig.fake.add_file("AgAC-a", png())
    rig.fake.add_file("AgAC-b", jpeg_with_gps())
    await rig.say(KEEPER, "/photo KNM-1 1")
    assert await photo(rig, "AgAC-a") == "1 photo kept with KNM-1."
    assert "KNM-1" in last_message(await rig.say(KEEPER, "CASES")).text
    assert await photo(rig, "AgAC-b") == (
        "The photo was not kept: send it with PHOTO and the case number, e.g. PHOTO KNM-17."
    )
    assert [(r.lot, r.source_key) for r in await rows(rig)] == [(0, "tg:AgAC-au")]
    missing = last_message(await rig.say(KEEPER, "/photo KNM-9")).text
    assert missing == "There is no case KNM-9. Check the number and send it again."


async def test_a_photo_sent_as_a_file_is_stripped_and_a_text_file_refused(
    rig: TelegramRig, data_folder: Path
) -> None:
    await rig.say(KEEPER, SEIZE)
    rig.fake.add_file("BQAC-original", jpeg_with_gps())
    rig.fake.add_file("BQAC-text", text_as_jpg())
    update = rig.updates.document(
        KEEPER, "BQAC-original", "IMG_0042.jpg", "image/jpeg", "/photo KNM-1"
    )
    assert last_message(await rig.deliver(update)).text == "1 photo kept with KNM-1."
    text = rig.updates.document(KEEPER, "BQAC-text", "cow.jpg", "image/jpeg", "/photo KNM-1")
    assert last_message(await rig.deliver(text)).text == (
        "File 1 was not kept: it is not a photo (send a JPEG or PNG picture)."
    )
    (row,) = await rows(rig)
    assert row.source_key == "tg:BQAC-originalu"
    assert row.sha256 is not None
    stored = data_folder / "photos" / row.sha256[:2] / file_key(row.sha256, "jpeg")
    assert not has_gps(stored.read_bytes())


@pytest.fixture(params=ENGINES)
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield db_url(tmp_path)
        return
    with fresh_pg_database() as url:
        yield url


@pytest.fixture
async def any_rig(database: str) -> AsyncIterator[TelegramRig]:
    """The rig on SQLite and on PostgreSQL."""
    clock = start_clock()
    async with open_app(url=database, clock=clock, migrate=True):
        pass
    await seed_users(database, clock)
    async with (
        fake_bot_api() as (fake, fake_url),
        poundbot_on(fake, fake_url, database, clock, Updates()) as rig,
    ):
        yield rig


async def test_a_slow_photo_download_holds_no_transaction(any_rig: TelegramRig) -> None:
    """Fails before: the photo was downloaded inside its update's transaction, so while
    Telegram was slow to give the file a database connection stayed in a transaction
    and, on SQLite (one writer at a time), every other update waited for it."""
    rig = any_rig
    await rig.say(KEEPER, SEIZE)
    await rig.say(KEEPER, "/photo KNM-1")
    rig.fake.add_file("AgAC-slow", png())
    hold = rig.fake.hold = asyncio.Event()
    posted = asyncio.create_task(rig.post(rig.updates.photo(KEEPER, "AgAC-slow", "")))
    try:
        for _ in range(1500):  # until the download has begun and is held (bounded)
            if rig.fake.held:
                break
            await asyncio.sleep(0.02)
        assert rig.fake.held == 1
        # No connection is held while the download waits (the background loops take one
        # for a moment now and then: some moment has none).
        for _ in range(500):
            if rig.app.engine.pool.checkedout() == 0:  # type: ignore[attr-defined]
                break
            await asyncio.sleep(0.02)
        assert rig.app.engine.pool.checkedout() == 0  # type: ignore[attr-defined]
        # Meanwhile another user's update is handled and answered (a generous bound: before,
        # on SQLite, it waited as long as the download did, here for ever).
        other = await asyncio.wait_for(rig.say(OFFICER, "/status KNM-1"), 60)
        assert "KNM-1" in last_message(other).text
        assert rig.fake.held == 1  # answered while the download was still held
    finally:
        hold.set()  # whatever happened, the download goes on and the server can stop
    assert (await posted).status_code == 200
    await rig.channel.delivery.drained()
    assert last_message(rig.fake.sent()).text == "1 photo kept with KNM-1."
    assert [r.source_key for r in await rows(rig)] == ["tg:AgAC-slowu"]
    assert rig.fake.downloads == {"AgAC-slow": 1}  # downloaded once, not once a pass
