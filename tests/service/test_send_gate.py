"""The send gate of the outbox (``bot.adapters.outbox.Gate``): its checks run in order
when a message is sent, the first refusal drops it (recorded, counted, never sent); a
row queued before messages recorded their purpose is read by its key; the answer that
Twilio carries in its HTTP response passes the same gate."""

from __future__ import annotations

import asyncio
import re
from datetime import datetime
from pathlib import Path

from sqlalchemy import select

from bot.adapters.outbox import deliver_once
from bot.adapters.send_checks import StoppedSince
from bot.adapters.send_gate import Gate, Outgoing
from bot.config import SenderLimits
from bot.store.messages import enqueue, set_contact
from bot.store.models import OutboxRow
from bot.store.tx import Store, Tx
from domain.calendar import LOCAL_TZ
from tests.e2e.sms_harness import KEEPER_PHONE, sms_rig

STOPPED = "+919847011111"


class FakeSender:
    def __init__(self) -> None:
        self.sent: list[tuple[str, str]] = []

    async def send(self, recipient: str, body: str, key: str) -> str:
        await asyncio.sleep(0)
        self.sent.append((recipient, key))
        return f"SM{len(self.sent):04d}"


class Refuses:
    """A check that refuses the keys it is given, and records what it saw."""

    def __init__(self, name: str, keys: set[str]) -> None:
        self.name, self.keys, self.seen = name, keys, []  # type: ignore[var-annotated]

    async def __call__(self, tx: Tx, message: Outgoing) -> str | None:
        self.seen.append(message)
        return "refused here" if message.key in self.keys else None


async def _queue(store: Store, *keys: str, purpose: str | None = "notice") -> None:
    async with store.transaction() as tx:
        for key in keys:
            await enqueue(tx, key=key, channel="sms", recipient=STOPPED, body=key)
            if purpose is None:  # as queued before purposes were recorded
                row = await tx.session.scalar(
                    select(OutboxRow).where(OutboxRow.idempotency_key == key)
                )
                assert row is not None
                row.purpose = None


async def _status(store: Store) -> dict[str, tuple[str, str | None]]:
    async with store.transaction() as tx:
        rows = await tx.session.scalars(select(OutboxRow).order_by(OutboxRow.id))
        return {r.idempotency_key: (r.status, r.last_error) for r in rows}


async def test_the_first_check_that_refuses_drops_the_message(store: Store) -> None:
    await _queue(store, "a", "b", "c")
    first, second = Refuses("first", {"a"}), Refuses("second", {"a", "b"})
    sender = FakeSender()
    sent = await deliver_once(store, {"sms": sender}, "w", gate=Gate((first, second)))
    assert sent == 1
    assert [key for _, key in sender.sent] == ["c"]
    assert [m.key for m in second.seen] == ["b", "c"]  # "a" stopped at the first
    assert await _status(store) == {
        "a": ("dropped", "first: refused here"),
        "b": ("dropped", "second: refused here"),
        "c": ("sent", None),
    }
    # A dropped message is never claimed again.
    assert await deliver_once(store, {"sms": sender}, "w", gate=Gate((first, second))) == 0


async def test_a_row_queued_before_purposes_were_recorded_is_read_by_its_key(
    store: Store,
) -> None:
    async with store.transaction() as tx:
        await set_contact(tx, STOPPED, opted_out=True)
    await _queue(store, "sms-reply:SM1", "rem:x:u1", "owner:KNM-1:impounded", purpose=None)
    sender = FakeSender()
    await deliver_once(store, {"sms": sender}, "w", gate=Gate((StoppedSince(),)))
    assert [key for _, key in sender.sent] == ["sms-reply:SM1"]  # an answer still goes
    status = await _status(store)
    assert status["rem:x:u1"][0] == status["owner:KNM-1:impounded"][0] == "dropped"


async def test_a_stop_on_whatsapp_does_not_stop_sms_and_telegram_has_no_stop(
    store: Store,
) -> None:
    async with store.transaction() as tx:
        await set_contact(tx, STOPPED, opted_out=True, channel="whatsapp")
        await enqueue(tx, key="sms", channel="sms", recipient=STOPPED, body="x")
        await enqueue(tx, key="wa", channel="whatsapp", recipient=STOPPED, body="x")
        await enqueue(tx, key="tg", channel="telegram", recipient="777", body="x")
    senders = {channel: FakeSender() for channel in ("sms", "whatsapp", "telegram")}
    await deliver_once(store, dict(senders), "w", gate=Gate((StoppedSince(),)))
    status = await _status(store)
    assert (status["sms"][0], status["wa"][0], status["tg"][0]) == ("sent", "dropped", "sent")


def _message(text: str) -> str:
    found = re.search(r"<Message>(.*)</Message>", text, re.S)
    return found.group(1) if found else ""


async def test_the_answer_in_twilios_response_passes_the_ceiling(tmp_path: Path) -> None:
    limits = SenderLimits(answers_per_hour=2)
    async with sms_rig(tmp_path, limits=limits) as rig:
        answers = [
            _message((await rig.sms(f"+91984702000{n}", "STATUS KNM-1", f"SM-t{n}")).text)
            for n in range(4)
        ]
        assert [bool(a) for a in answers] == [True, True, False, False]
        # A keeper is still answered, and the same public number again an hour later.
        assert _message((await rig.sms(KEEPER_PHONE, "CASES", "SM-k")).text)
        rig.clock.set(datetime(2026, 3, 1, 11, 1, tzinfo=LOCAL_TZ))
        assert _message((await rig.sms("+919847020003", "STATUS KNM-1", "SM-t9")).text)
