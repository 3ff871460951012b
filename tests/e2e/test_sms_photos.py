"""Photos by MMS / WhatsApp media on the signed Twilio webhook: the message answered at
once, the pictures fetched after it (once, with the account's credentials), checked,
stripped of EXIF, kept with the case and told in a follow-up SMS, served signed."""

from __future__ import annotations

import html
import io
import re
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from urllib.parse import urlparse

import pytest
from PIL import Image
from sqlalchemy import select

from bot.bootstrap import open_app
from bot.store.models import OutboxRow, PhotoRow, SenderCount
from bot.support.links import photo_path
from domain.calendar import LOCAL_TZ
from tests.e2e.sms_harness import (
    KEEPER_PHONE,
    LINK_SECRET,
    OFFICER_PHONE,
    SmsRig,
    followup,
    sms_rig,
)
from tests.integration.test_migrations import ENGINES, fresh_pg_database
from tests.photo_samples import eleven_mb, has_gps, jpeg_with_gps, png, png_of_size, text_as_jpg

SEIZE = "SEIZE 2 cow 1 buffalo AT Kunnamangalam market; brown cows"
COMING = "Your 1 photo for KNM-1 is being fetched: a message follows."


def message_of(response_text: str) -> str:
    match = re.search(r"<Message>(.*)</Message>", response_text, re.S)
    assert match, response_text
    return match.group(1)


async def photos(rig: SmsRig) -> list[PhotoRow]:
    async with rig.app.store.transaction() as tx:
        return list((await tx.session.execute(select(PhotoRow).order_by(PhotoRow.id))).scalars())


def files(folder: Path) -> list[Path]:
    return sorted(p for p in (folder / "photos").rglob("*") if p.is_file())


@pytest.fixture(params=ENGINES)
def database(request: pytest.FixtureRequest) -> Iterator[str | None]:
    """None: the rig's own SQLite file; or a new PostgreSQL database."""
    if request.param == "sqlite":
        yield None
        return
    with fresh_pg_database() as url:
        yield url


@pytest.fixture
async def rig(tmp_path: Path, database: str | None):  # type: ignore[no-untyped-def]
    if database is not None:
        async with open_app(url=database, migrate=True):
            pass
    async with sms_rig(tmp_path, database) as rig:
        yield rig


async def test_a_seizure_with_two_photos_keeps_both_without_gps(
    rig: SmsRig, data_folder: Path
) -> None:
    jpeg, picture = jpeg_with_gps(), png()
    response = await rig.mms(
        KEEPER_PHONE, SEIZE, "MM-seize-1", [(jpeg, "image/jpeg"), (picture, "image/png")]
    )
    reply = message_of(response.text)
    assert "KNM-1" in reply
    assert reply.endswith("Your 2 photos for KNM-1 are being fetched: a message follows.")
    assert await followup(rig, "MM-seize-1") == "2 photos kept with KNM-1."
    rows = await photos(rig)
    assert [(r.status, r.format, r.lot) for r in rows] == [
        ("kept", "jpeg", None),
        ("kept", "png", None),
    ]
    assert {r.source_key for r in rows} == {"mms:MM-seize-1:0", "mms:MM-seize-1:1"}
    # Each picture fetched once, with the account's credentials (the fake refuses others).
    assert sorted(rig.twilio.fetched.values()) == [1, 1]
    kept = files(data_folder)
    assert len(kept) == 4  # two photos, two thumbnails
    for path in kept:
        assert not has_gps(path.read_bytes())
        assert b"PhoneMaker" not in path.read_bytes()


async def test_a_redelivered_webhook_keeps_its_photos_once(rig: SmsRig, data_folder: Path) -> None:
    media = [(jpeg_with_gps(), "image/jpeg"), (png(), "image/png")]
    first = await rig.mms(KEEPER_PHONE, SEIZE, "MM-seize-2", media)
    await followup(rig, "MM-seize-2")
    again = await rig.mms(KEEPER_PHONE, SEIZE, "MM-seize-2", media)
    assert message_of(again.text) == message_of(first.text)
    await followup(rig, "MM-seize-2")
    assert len(await photos(rig)) == 2
    assert sorted(rig.twilio.fetched.values()) == [1, 1]  # not downloaded again
    assert len(files(data_folder)) == 4


async def test_photo_later_for_a_lot_and_the_same_picture_twice_kept_once(rig: SmsRig) -> None:
    await rig.sms(KEEPER_PHONE, SEIZE, "SM-seize-3")
    picture = jpeg_with_gps((10, 200, 30))
    response = await rig.mms(KEEPER_PHONE, "PHOTO KNM-1 2", "MM-photo-1", [(picture, "image/jpeg")])
    assert message_of(response.text) == COMING
    assert await followup(rig, "MM-photo-1") == "1 photo kept with KNM-1."
    await rig.mms(KEEPER_PHONE, "photo knm-1", "MM-photo-2", [(picture, "image/jpeg")])
    assert await followup(rig, "MM-photo-2") == "That photo is already kept with KNM-1."
    rows = await photos(rig)
    assert [(r.lot, r.source_key) for r in rows] == [(1, "mms:MM-photo-1:0")]


async def test_photo_without_a_picture_or_of_a_case_not_ours_is_refused(rig: SmsRig) -> None:
    await rig.sms(KEEPER_PHONE, SEIZE, "SM-seize-4")
    alone = await rig.sms(KEEPER_PHONE, "PHOTO KNM-1", "SM-photo-alone")
    assert "No photo came with it" in message_of(alone.text)
    no_lot = await rig.mms(KEEPER_PHONE, "PHOTO KNM-1 5", "MM-photo-3", [(png(), "image/png")])
    assert message_of(no_lot.text) == "Case KNM-1 has no lot 5 (it has 2)."
    officer = await rig.mms(OFFICER_PHONE, "PHOTO KNM-1", "MM-photo-4", [(png(), "image/png")])
    assert message_of(officer.text).startswith("Your role does not allow this.")
    assert await photos(rig) == []


async def test_an_oversized_or_non_image_file_is_refused_with_a_reply(
    rig: SmsRig, data_folder: Path
) -> None:
    await rig.sms(KEEPER_PHONE, SEIZE, "SM-seize-5")
    await rig.mms(KEEPER_PHONE, "PHOTO KNM-1", "MM-big", [(eleven_mb(), "image/bmp")])
    assert await followup(rig, "MM-big") == (
        "Photo 1 was not kept: it is larger than 10 MB. Send a smaller one."
    )
    await rig.mms(KEEPER_PHONE, "PHOTO KNM-1", "MM-text", [(text_as_jpg(), "image/jpeg")])
    assert await followup(rig, "MM-text") == (
        "File 1 was not kept: it is not a photo (send a JPEG or PNG picture)."
    )
    await rig.mms(
        KEEPER_PHONE,
        "PHOTO KNM-1",
        "MM-mixed",
        [(text_as_jpg(), "image/jpeg"), (png(), "image/png")],
    )
    assert await followup(rig, "MM-mixed") == (
        "1 of 2 photos kept with KNM-1.\n"
        "File 1 was not kept: it is not a photo (send a JPEG or PNG picture)."
    )
    assert len(await photos(rig)) == 1
    assert len(files(data_folder)) == 2  # the PNG and its thumbnail, nothing of the rest


async def test_a_kept_photo_is_served_at_its_signed_link_only(rig: SmsRig) -> None:
    await rig.mms(KEEPER_PHONE, SEIZE, "MM-seize-6", [(jpeg_with_gps(), "image/jpeg")])
    await followup(rig, "MM-seize-6")
    (row,) = await photos(rig)
    url = rig.app.deps.photo_url
    assert url is not None
    link = url(row.id)
    assert link.startswith("https://pound.example.org/photo/")
    path = link.removeprefix("https://pound.example.org")
    full = await rig.http.get(path)
    assert full.status_code == 200
    assert full.headers["content-type"] == "image/jpeg"
    assert not has_gps(full.content)
    with Image.open(io.BytesIO(full.content)) as image:
        assert image.size == (640, 480)
        assert not image.getexif()
    secret_less = path.rsplit("/", 1)[0]
    thumb_path = f"{secret_less.replace(f'/photo/{row.id}', f'/photo/{row.id}/thumb')}/x"
    assert (await rig.http.get(thumb_path)).status_code == 404  # bad signature
    assert (await rig.http.get(path[:-1] + ("A" if path[-1] != "A" else "B"))).status_code == 404
    assert (await rig.http.get(f"/photo/{row.id}/{path.rsplit('/', 1)[1]}x")).status_code == 404
    # The signature of one photo opens no other, nor its thumbnail.
    assert (await rig.http.get(f"/photo/{row.id + 1}/{path.rsplit('/', 1)[1]}")).status_code == 404
    assert (
        await rig.http.get(f"/photo/{row.id}/thumb/{path.rsplit('/', 1)[1]}")
    ).status_code == 404
    # Only the link as signed with this server's secret.
    assert photo_path(LINK_SECRET, row.id) == path
    assert (await rig.http.get(photo_path("another-secret", row.id))).status_code == 404
    thumb = await rig.http.get(photo_path(LINK_SECRET, row.id, thumb=True))
    assert thumb.status_code == 200
    assert thumb.headers["content-type"] == "image/jpeg"
    with Image.open(io.BytesIO(thumb.content)) as image:
        assert max(image.size) == 320
        assert not image.getexif()


async def test_find_by_sms_gives_a_link_to_the_photo_never_the_picture(rig: SmsRig) -> None:
    await rig.mms(KEEPER_PHONE, SEIZE, "MM-seize-7", [(jpeg_with_gps(), "image/jpeg")])
    await followup(rig, "MM-seize-7")
    (row,) = await photos(rig)
    response = await rig.sms("+919847055555", "FIND brown cow", "SM-find-1")
    assert "<Media>" not in response.text
    reply = message_of(response.text)
    assert "KNM-1" in reply
    link = "https://pound.example.org" + photo_path(LINK_SECRET, row.id)
    assert f"Photo of KNM-1: {link}" in reply
    assert reply.endswith("Notices on the web: https://pound.example.org/notices/KNM-GP")
    # A case without a photo gets no link.
    await rig.sms(KEEPER_PHONE, "SEIZE 1 goat AT Chathamangalam", "SM-seize-8")
    goat = message_of((await rig.sms("+919847055555", "FIND goat", "SM-find-2")).text)
    assert "KNM-2" in goat
    assert "Photo of" not in goat


async def test_the_printable_notice_shows_the_photos_at_their_signed_links(rig: SmsRig) -> None:
    await rig.mms(
        KEEPER_PHONE, SEIZE, "MM-seize-9", [(jpeg_with_gps(), "image/jpeg"), (png(), "image/png")]
    )
    await followup(rig, "MM-seize-9")
    first, second = await photos(rig)
    await rig.set_clock(datetime(2026, 3, 9, 10, 0, tzinfo=LOCAL_TZ))
    notice = html.unescape(message_of((await rig.sms(OFFICER_PHONE, "NOTICE KNM-1", "SM-n1")).text))
    link = next(word for word in notice.split() if word.startswith("https://"))
    page = await rig.http.get(urlparse(link).path)
    assert page.status_code == 200
    for row in (first, second):
        thumb, full = photo_path(LINK_SECRET, row.id, thumb=True), photo_path(LINK_SECRET, row.id)
        assert f'<a href="{full}"><img src="{thumb}"' in page.text
        image = await rig.http.get(thumb)
        assert image.status_code == 200
        assert image.headers["content-type"] == f"image/{row.format}"
    assert "Photos of the cattle" in page.text


async def test_pictures_of_a_refused_step_or_of_no_case_leave_nothing_behind(
    rig: SmsRig, data_folder: Path
) -> None:
    refused = await rig.mms(
        KEEPER_PHONE, "SEIZE 2 cow", "MM-no-place", [(jpeg_with_gps(), "image/jpeg")]
    )
    said = message_of(refused.text)
    assert said.startswith("Say where the cattle were seized")
    assert said.endswith(
        "The photo was not kept: send it with PHOTO and the case number, e.g. PHOTO KNM-17."
    )
    await rig.sms(KEEPER_PHONE, SEIZE, "SM-seize-10")
    dues = await rig.mms(KEEPER_PHONE, "DUES KNM-1", "MM-dues", [(png(), "image/png")])
    assert message_of(dues.text).endswith(
        "The photo was not kept: send it with PHOTO and the case number, e.g. PHOTO KNM-17."
    )
    assert await photos(rig) == []
    assert files(data_folder) == []
    assert rig.twilio.fetched == {}  # no case to keep them with: not even downloaded


async def test_a_whatsapp_keeper_sends_photos_too(rig: SmsRig) -> None:
    await rig.sms(KEEPER_PHONE, SEIZE, "SM-seize-11")
    response = await rig.mms(
        f"whatsapp:{KEEPER_PHONE}", "PHOTO KNM-1", "MM-wa-1", [(png(), "image/png")]
    )
    assert message_of(response.text) == COMING
    assert await followup(rig, "MM-wa-1") == "1 photo kept with KNM-1."
    async with rig.app.store.transaction() as tx:
        channel = await tx.session.scalar(
            select(OutboxRow.channel).where(OutboxRow.idempotency_key == "mms-photos:MM-wa-1")
        )
    assert channel == "whatsapp"  # the follow-up goes back on WhatsApp


async def test_an_owner_s_picture_is_not_kept_and_the_answer_is_unchanged(rig: SmsRig) -> None:
    await rig.sms(KEEPER_PHONE, SEIZE, "SM-seize-12")
    plain = message_of((await rig.sms("+919847055555", "DUES KNM-1", "SM-dues-1")).text)
    with_picture = await rig.mms("+919847055555", "DUES KNM-1", "MM-dues-2", [(png(), "image/png")])
    assert message_of(with_picture.text) == plain
    assert await photos(rig) == []
    assert rig.twilio.fetched == {}  # not even downloaded


async def test_a_keeper_past_the_limit_keeps_no_picture_and_is_told_to_wait(
    rig: SmsRig,
) -> None:
    """The first message past the sender's limit is answered with when to try again,
    and nothing else: a picture sent with it is not kept, and does not replace that."""
    await rig.sms(KEEPER_PHONE, SEIZE, "SM-seize-limit")
    async with rig.app.store.transaction() as tx:
        counted = await tx.session.get(SenderCount, ("sms", KEEPER_PHONE))
        assert counted is not None
        counted.count = rig.app.config.limits.keeper  # every answer of the window used
    picture = jpeg_with_gps((90, 20, 30))
    response = await rig.mms(KEEPER_PHONE, "PHOTO KNM-1", "MM-limit-1", [(picture, "image/jpeg")])
    reply = message_of(response.text)
    assert "photo" not in reply.lower()
    assert "KNM-1" not in reply
    assert await photos(rig) == []
    silent = await rig.mms(KEEPER_PHONE, "PHOTO KNM-1", "MM-limit-2", [(picture, "image/jpeg")])
    assert "<Message>" not in silent.text
    assert await photos(rig) == []


async def test_a_picture_refused_for_its_pixels_says_so_not_its_size(rig: SmsRig) -> None:
    """A 50,000 x 50,000 PNG of a few hundred bytes: the pixel limit is named, not MB."""
    await rig.sms(KEEPER_PHONE, SEIZE, "SM-seize-px")
    bomb = png_of_size(50_000, 50_000)
    await rig.mms(KEEPER_PHONE, "PHOTO KNM-1", "MM-pixels", [(bomb, "image/png")])
    # By SMS, in GSM-7: an English SMS writes "x" for "×".
    assert await followup(rig, "MM-pixels") == (
        "Photo 1 was not kept: it has more than 25 megapixels (width x height). "
        "Send a smaller picture."
    )
    assert await photos(rig) == []
