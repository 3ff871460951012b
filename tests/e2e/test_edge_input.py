"""Odd input at the edge: oversized and malformed Telegram updates, control characters.

Telegram sends an update again for as long as it gets anything but 200, so what cannot be
read is answered 200 and stored as rejected; what is too big is refused (413) unread. A
NUL byte broke PostgreSQL ("invalid byte sequence 0x00"): control characters are taken
out where text comes in (SMS, Telegram, console), and the same bodies are tried on both
engines.
"""

from __future__ import annotations

import io
import json
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import select
from starlette.requests import Request

from bot.bootstrap import open_app
from bot.channels.telegram.webhook import SECRET_HEADER, read_capped
from bot.entry.console import run_console
from bot.fakes.telegram_api import Updates
from bot.store.models import CaseLot, CaseRow, InboxRow
from bot.support.caller import KEEPER as KEEPER_ROLE
from bot.support.caller import Caller
from tests.e2e.sms_harness import KEEPER_PHONE, sms_rig
from tests.e2e.telegram_rig import (
    KEEPER,
    SECRET,
    TelegramRig,
    db_url,
    fake_bot_api,
    poundbot_on,
    seed_users,
    start_clock,
)
from tests.e2e.test_sms import message_of
from tests.integration.test_console import lines, reader
from tests.integration.test_migrations import ENGINES, fresh_pg_database

MAX_UPDATE_BYTES = 1024 * 1024  # what the webhook takes: Telegram's updates are far smaller
HEADERS = {SECRET_HEADER: SECRET, "content-type": "application/json"}


@pytest.fixture(params=ENGINES)
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A URL of an empty database: a new SQLite file, or a new PostgreSQL database."""
    if request.param == "sqlite":
        yield db_url(tmp_path)
        return
    with fresh_pg_database() as url:
        yield url


async def _migrated(url: str) -> None:
    async with open_app(url=url, clock=start_clock(), migrate=True):
        pass


@pytest.fixture
async def rig(database: str) -> AsyncIterator[TelegramRig]:
    clock = start_clock()
    await _migrated(database)
    await seed_users(database, clock)
    async with (
        fake_bot_api() as (fake, fake_url),
        poundbot_on(fake, fake_url, database, clock, Updates()) as rig,
    ):
        yield rig


async def inbox(rig: TelegramRig) -> list[InboxRow]:
    async with rig.app.store.transaction() as tx:
        return list((await tx.session.execute(select(InboxRow).order_by(InboxRow.id))).scalars())


async def post_raw(rig: TelegramRig, body: bytes) -> httpx.Response:
    return await rig.http.post("/telegram", content=body, headers=HEADERS)


# -- item 6: oversized and malformed updates -------------------------------------------


def _nested(depth: int) -> bytes:
    return b'{"update_id": 5, "message": ' + b"[" * depth + b"]" * depth + b"}"


def _from_is_a_string(update_id: int) -> bytes:
    update = Updates(update_id).text(KEEPER, "/help")
    update["message"]["from"] = "Velayudhan"
    return json.dumps(update).encode()


@pytest.mark.parametrize(
    "body",
    [
        pytest.param(_nested(1000), id="nested 1000 deep"),
        pytest.param(_nested(100_000), id="nested 100000 deep"),
        pytest.param(_from_is_a_string(900_001), id="from is a string"),
        pytest.param(b'{"update_id": "7", "message": {}}', id="update_id a string"),
        pytest.param(b"not json", id="not JSON"),
        pytest.param(b"[1, 2]", id="a list"),
        pytest.param(b'{"message": {}}', id="no update_id"),
        pytest.param(b'{"update_id": 8, "message": {"text": "\xff\xfe"}}', id="not UTF-8"),
    ],
)
async def test_an_update_that_cannot_be_read_is_stored_as_rejected_and_answered_200(
    rig: TelegramRig, body: bytes
) -> None:
    first = await post_raw(rig, body)
    again = await post_raw(rig, body)  # Telegram would resend only after a non-200
    assert (first.status_code, again.status_code) == (200, 200)
    (row,) = await inbox(rig)
    assert row.processed_at is not None
    assert (row.reply or "").startswith("[rejected]")
    assert await rig.count(CaseRow) == 0
    assert rig.fake.sent() == []
    # The channel goes on: the next good update is handled.
    calls = await rig.say(KEEPER, "/seize 2 cow at Kunnamangalam market")
    assert any("KNM-1" in c.text for c in calls if c.method == "sendMessage")


async def test_an_update_over_the_cap_is_refused_413_and_not_stored(rig: TelegramRig) -> None:
    update = rig.updates.text(KEEPER, "/help")
    update["message"]["caption"] = "x" * (20 * 1024 * 1024)
    response = await post_raw(rig, json.dumps(update).encode())
    assert response.status_code == 413
    assert await inbox(rig) == []
    # Just under the cap is an update like any other.
    small = rig.updates.text(KEEPER, "/help")
    small["message"]["caption"] = "x" * (MAX_UPDATE_BYTES - 1000)
    assert len(json.dumps(small)) < MAX_UPDATE_BYTES
    assert (await post_raw(rig, json.dumps(small).encode())).status_code == 200


async def test_a_streamed_update_over_the_cap_is_refused(rig: TelegramRig) -> None:
    """No Content-Length (chunked): 413 all the same."""

    async def chunks() -> AsyncIterator[bytes]:
        yield b'{"update_id": 9, "message": {"text": "'
        for _ in range(2 * 16):  # 2 MB in 64 kB chunks
            yield b"x" * 65536
        yield b'"}}'

    try:
        response = await rig.http.post("/telegram", content=chunks(), headers=HEADERS)
        status = response.status_code
    except httpx.HTTPError:  # the server may close the connection on the sender
        status = 413
    assert status == 413
    assert await inbox(rig) == []


async def test_the_body_is_read_only_up_to_the_cap() -> None:
    """A 20 MB body in 64 kB chunks: refused after reading little more than the cap."""
    taken = 0

    async def receive() -> dict[str, Any]:
        nonlocal taken
        taken += 1
        return {"type": "http.request", "body": b"x" * 65536, "more_body": taken < 320}

    request = Request({"type": "http", "method": "POST", "headers": []}, receive)
    assert await read_capped(request, MAX_UPDATE_BYTES) is None
    assert taken * 65536 <= MAX_UPDATE_BYTES + 65536
    declared = Request(
        {"type": "http", "method": "POST", "headers": [(b"content-length", b"20971520")]},
        receive,
    )
    taken = 0
    assert await read_capped(declared, MAX_UPDATE_BYTES) is None
    assert taken == 0


# -- item 7: control characters, the same bodies on both engines ------------------------

NUL_BODIES = [
    pytest.param("Kunnamangalam\x00 market", id="NUL"),
    pytest.param("Kunnamangalam\x07\x1b\x0b market\x7f\x00\x00", id="bell escape vt delete NULs"),
    pytest.param("Kunnamangalam market\ud800", id="lone surrogate"),
]


@pytest.mark.parametrize("place", NUL_BODIES)
async def test_a_telegram_text_with_control_characters_is_handled(
    rig: TelegramRig, place: str
) -> None:
    update = rig.updates.text(KEEPER, f"/seize 2 cow at {place}")
    response = await post_raw(rig, json.dumps(update).encode())  # \u escapes, as Telegram
    assert response.status_code == 200
    await rig.channel.delivery.drained()
    replies = [c.text for c in rig.fake.sent(KEEPER.id)]
    assert any(text.startswith("Case KNM-1 recorded") for text in replies), replies
    await _assert_stored_clean(rig.app.store)


@pytest.mark.parametrize("place", NUL_BODIES[:-1])  # a form cannot carry a lone surrogate
async def test_an_sms_with_control_characters_is_stored_and_answered(
    database: str, tmp_path: Path, place: str
) -> None:
    await _migrated(database)
    async with sms_rig(tmp_path, url=database) as sms:
        response = await sms.sms(KEEPER_PHONE, f"SEIZE 2 cow AT {place}", "SM-nul-1")
        assert response.status_code == 200
        assert "KNM-1" in message_of(response.text)
        await _assert_stored_clean(sms.app.store)
        # Sent again (Twilio retries): the same answer, one case.
        again = await sms.sms(KEEPER_PHONE, f"SEIZE 2 cow AT {place}", "SM-nul-1")
        assert message_of(again.text) == message_of(response.text)


@pytest.mark.parametrize("place", NUL_BODIES)
async def test_a_console_line_with_control_characters_is_handled(database: str, place: str) -> None:
    await _migrated(database)
    async with open_app(url=database, clock=start_clock()) as app:
        keeper = Caller(role=KEEPER_ROLE, channel="console", pound="KNM", authority="KNM-GP")
        out = io.StringIO()
        await run_console(app, keeper, read=reader(lines(f"SEIZE 2 cow AT {place}")), out=out)
        assert "KNM-1" in out.getvalue()
        await _assert_stored_clean(app.store)


async def _assert_stored_clean(store: Any) -> None:
    async with store.transaction() as tx:
        (case,) = (await tx.session.execute(select(CaseRow))).scalars()
        rows = list((await tx.session.execute(select(InboxRow))).scalars())
        lots = list((await tx.session.execute(select(CaseLot))).scalars())
    assert case.place_seized.startswith("Kunnamangalam")
    for text in [case.place_seized, *(r.body for r in rows), *(lot.description for lot in lots)]:
        assert not any(ord(ch) < 32 or 0x7F <= ord(ch) < 0xA0 for ch in text), repr(text)
        text.encode("utf-8")  # no lone surrogate either
    for row in rows:
        json.dumps(row.raw).encode("utf-8")
        assert "\x00" not in json.dumps(row.raw, ensure_ascii=False)


async def test_a_delivery_report_with_a_nul_is_answered(database: str, tmp_path: Path) -> None:
    await _migrated(database)
    async with sms_rig(tmp_path, url=database) as sms:
        response = await sms.post(
            "/twilio/status", {"MessageSid": "SM\x00unknown", "MessageStatus": "delivered\x00"}
        )
        assert response.status_code == 204
