"""Pictures that come slowly or after a crash, on SQLite and PostgreSQL: an MMS is
answered before its pictures are fetched, a download that drips holds neither that
answer nor anyone else's and is cut at its deadline, the crash sweep keeps the pictures
of the message it answers, and a fetch job is done by one instance once (its lease)."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path

import pytest
from sqlalchemy import select

from bot.bootstrap import open_app
from bot.channels.twilio.media import MediaFetcher
from bot.channels.twilio.pictures import fetch_key
from bot.observe.metrics import REGISTRY
from bot.services.keeper import record_seizure
from bot.services.runtime import App
from bot.store.instances import beat
from bot.store.messages import Inbound, store_inbound
from bot.store.models import MediaFetch, OutboxRow, PhotoRow
from bot.support.caller import KEEPER, Caller
from bot.support.clock import FixedClock
from domain.calendar import LOCAL_TZ
from tests.e2e.sms_harness import FROM, KEEPER_PHONE, OFFICER_PHONE, SID, SmsRig, followup, sms_rig
from tests.integration.test_migrations import ENGINES, fresh_pg_database
from tests.photo_samples import jpeg_with_gps, png
from tests.service.helpers import seizure

SEIZE = "SEIZE 2 cow 1 buffalo AT Kunnamangalam market; brown cows"


def message_of(response_text: str) -> str:
    match = re.search(r"<Message>(.*)</Message>", response_text, re.S)
    assert match, response_text
    return match.group(1)


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


async def photo_rows(app: App) -> list[PhotoRow]:
    async with app.store.transaction() as tx:
        return list((await tx.session.execute(select(PhotoRow).order_by(PhotoRow.id))).scalars())


async def until(condition: object, seconds: float = 30.0) -> None:
    """Wait (bounded) until ``condition()`` is true."""
    for _ in range(int(seconds / 0.02)):
        if condition():  # type: ignore[operator]
            return
        await asyncio.sleep(0.02)
    raise AssertionError("the condition did not come true in time")


def shorten(rig: SmsRig, *, fetch: float, message: float) -> None:
    """The running fetcher's deadlines, per picture and per message, made seconds."""
    fetcher = getattr(rig.server.state, "media_fetcher", None)
    if fetcher is not None:
        fetcher.fetcher = replace(fetcher.fetcher, deadline=fetch)
        fetcher.message_deadline = message


def fetched(outcome: str) -> float:
    """``poundbot_media_fetched_total{outcome}`` as /metrics shows it now."""
    value = REGISTRY.get_sample_value("poundbot_media_fetched_total", {"outcome": outcome})
    return value or 0.0


async def test_a_dripping_picture_holds_neither_the_answer_nor_another_sender(
    rig: SmsRig,
) -> None:
    """Fails before: the pictures were fetched inside the message's turn, so a picture
    served 64 bytes every 0.5 s (no read ever waits 8 s) held the keeper's answer past
    Twilio's 15 s and every other sender behind it."""
    shorten(rig, fetch=2.0, message=4.0)  # 20 s and 60 s in service
    before = {o: fetched(o) for o in ("kept", "unreachable")}
    slow, fine = jpeg_with_gps(), png()
    assert len(slow) > 64 * 2 * 8  # at 128 bytes a second, far past its deadline
    response = await rig.mms(
        KEEPER_PHONE, SEIZE, "MM-drip-1", [(slow, "image/jpeg"), (fine, "image/png")], drip=[0]
    )
    reply = message_of(response.text)
    assert "KNM-1" in reply  # the seizure is recorded and answered at once
    assert reply.endswith("Your 2 photos for KNM-1 are being fetched: a message follows.")
    # While the picture drips, another sender is answered (not "send it again").
    await until(lambda: rig.twilio.dripping == 1)
    other = message_of((await rig.sms(OFFICER_PHONE, "STATUS KNM-1", "SM-other-1")).text)
    assert rig.twilio.dripping == 1  # answered while the download was still going on
    assert "KNM-1" in other
    # The dripping picture is cut at its deadline; the other is kept; the keeper is told.
    assert await followup(rig, "MM-drip-1") == (
        "1 of 2 photos kept with KNM-1.\nPhoto 1 could not be fetched: send it again."
    )
    rows = await photo_rows(rig.app)
    assert [(r.source_key, r.format) for r in rows] == [("mms:MM-drip-1:1", "png")]
    # /metrics counts what became of each picture fetched after the answer.
    assert {o: fetched(o) - n for o, n in before.items()} == {"kept": 1, "unreachable": 1}
    await until(lambda: rig.twilio.dripping == 0)  # the cut download was closed
    await until(lambda: len(rig.twilio.sms()) >= 2)  # both lines reach the keeper by SMS
    assert [m["Body"] for m in rig.twilio.sms() if m["To"] == KEEPER_PHONE][-2:] == [
        "1 of 2 photos kept with KNM-1.",
        "Photo 1 could not be fetched: send it again.",
    ]


async def test_ten_dripping_pictures_are_cut_at_the_message_s_deadline(rig: SmsRig) -> None:
    """Fails before: ten slow media in one message held it for their sum (39.6 s)."""
    shorten(rig, fetch=3.0, message=3.0)  # the message's whole deadline, for all ten
    await rig.sms(KEEPER_PHONE, SEIZE, "SM-seize-ten")
    media = [(jpeg_with_gps((i * 20, 100, 50)), "image/jpeg") for i in range(10)]
    response = await rig.mms(KEEPER_PHONE, "PHOTO KNM-1", "MM-ten", media, drip=list(range(10)))
    assert message_of(response.text) == (
        "Your 10 photos for KNM-1 are being fetched: a message follows."
    )
    said = (await followup(rig, "MM-ten")).split("\n")
    assert said[0] == "0 of 10 photos kept with KNM-1."
    assert said[1:] == [f"Photo {n} could not be fetched: send it again." for n in range(1, 11)]
    assert await photo_rows(rig.app) == []


async def test_the_crash_sweep_keeps_the_pictures_of_the_mms_it_answers(rig: SmsRig) -> None:
    """Fails before: the sweep rebuilt the stored message without its media, so the
    keeper's pictures were dropped without a word."""
    sid = "MM-swept-1"
    params = {
        "MessageSid": sid,
        "From": KEEPER_PHONE,
        "To": FROM,
        "Body": SEIZE,
        "NumMedia": "2",
        "AccountSid": SID,
    }
    for n, (data, kind) in enumerate([(jpeg_with_gps(), "image/jpeg"), (png(), "image/png")]):
        params[f"MediaUrl{n}"] = rig.twilio_url + rig.twilio.add_media(SID, sid, n, data, kind)
        params[f"MediaContentType{n}"] = kind
    # Stored by a request that never answered it (the process stopped in between).
    await store_inbound(rig.app.store, Inbound("sms", sid, KEEPER_PHONE, SEIZE, params))
    rig.sweep.hand_over(sid)
    assert await rig.sweep.once() == 1
    async with rig.app.store.transaction() as tx:
        answer = await tx.session.scalar(
            select(OutboxRow.body).where(OutboxRow.idempotency_key == f"sms-reply:{sid}")
        )
    assert answer is not None
    assert "KNM-1" in answer
    assert answer.endswith("Your 2 photos for KNM-1 are being fetched: a message follows.")
    assert await followup(rig, sid) == "2 photos kept with KNM-1."
    assert [r.source_key for r in await photo_rows(rig.app)] == [f"mms:{sid}:0", f"mms:{sid}:1"]


@dataclass
class Media:
    """A stand-in for ``TwilioMedia``: each fetch gives a picture, after ``gate`` opens."""

    gate: asyncio.Event
    started: asyncio.Event
    deadline: float = 20.0
    fetched: int = 0

    async def fetch(self, url: str, max_bytes: int, deadline: float | None = None) -> bytes:
        self.started.set()
        await self.gate.wait()
        self.fetched += 1
        return png((self.fetched * 30 % 255, 40, 90, 255))


@pytest.fixture
async def app(tmp_path: Path, database: str | None):  # type: ignore[no-untyped-def]
    clock = FixedClock(datetime(2026, 3, 1, 10, 0, tzinfo=LOCAL_TZ))
    url = database or f"sqlite+aiosqlite:///{tmp_path / 'lease.sqlite3'}"
    async with open_app(url=url, clock=clock, migrate=True) as app:
        yield app


async def test_a_fetch_job_is_done_once_and_taken_over_from_a_dead_instance(app: App) -> None:
    """Two instances: the job claimed by one is not fetched by the other while its lease
    holds; when the first one's heartbeat stops, the other takes it over at once; the
    first, coming back, finds it taken: the pictures are kept once and told once."""
    keeper = Caller(role=KEEPER, channel="sms", pound="KNM", authority="KNM-GP")
    async with app.store.transaction() as tx:
        recorded = await record_seizure(tx, app.deps, keeper, seizure())
        tx.session.add(
            MediaFetch(
                key=fetch_key("MM-lease-1"),
                channel="sms",
                recipient=KEEPER_PHONE,
                lang="en",
                case_id=recorded.loaded.row.id,
                lot=None,
                urls=["https://api.twilio.com/a", "https://api.twilio.com/b"],
                status="pending",
                attempts=0,
                created_at=tx.now,
            )
        )
    slow = Media(asyncio.Event(), asyncio.Event())
    fast = Media(asyncio.Event(), asyncio.Event())
    fast.gate.set()
    first = MediaFetcher(app, slow, "instance-a")  # type: ignore[arg-type]
    second = MediaFetcher(app, fast, "instance-b")  # type: ignore[arg-type]
    clock = app.store.clock
    assert isinstance(clock, FixedClock)
    clock.advance(seconds=-1)
    await beat(app.store, "instance-a")  # alive
    clock.advance(seconds=1)
    working = asyncio.create_task(first.once())
    await asyncio.wait_for(slow.started.wait(), 30)
    assert await second.once() == 0  # claimed by a live instance: left to it
    assert fast.fetched == 0
    clock.advance(minutes=1)  # instance-a has not beaten for a minute: dead
    await beat(app.store, "instance-b")
    assert await second.once() == 1
    assert fast.fetched == 2
    slow.gate.set()  # the first comes back and finishes its downloads
    assert await asyncio.wait_for(working, 30) == 0  # taken over: nothing of it is kept
    assert await second.once() == 0  # done is done
    assert await first.once() == 0
    async with app.store.transaction() as tx:
        sent = list(
            (
                await tx.session.execute(
                    select(OutboxRow.body).where(OutboxRow.idempotency_key.like("mms-photos:%"))
                )
            ).scalars()
        )
        status = await tx.session.scalar(select(MediaFetch.status))
    assert sent == [f"2 photos kept with {recorded.case.number}."]
    assert status == "done"
    assert len(await photo_rows(app)) == 2
