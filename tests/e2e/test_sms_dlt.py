"""A running poundbot with ``[dlt]`` configured: the owner's SMS on a keeper's SEIZE goes
under its DLT template through the real Twilio client, or, without a template id, is
not sent and shows as failed with the reason; the server's own delivery loop applies
the configuration."""

from __future__ import annotations

import asyncio
from pathlib import Path

from sqlalchemy import select

from bot.adapters.outbox import deliver_once
from bot.channels.twilio.sender import TwilioSender
from bot.store.models import OutboxRow
from bot.support.dlt import DltPolicy, registry
from tests.e2e.sms_harness import FROM, KEEPER_PHONE, SID, TOKEN, sms_rig
from tests.e2e.test_sms import OWNER, SEIZE

ENTITY = "1201160000000000000"


async def _owner_row(rig: object, done: set[str]) -> OutboxRow:
    """The owner's SMS once the outbox has finished with it (bounded wait)."""
    app = rig.app  # type: ignore[attr-defined]
    for _ in range(200):
        async with app.store.transaction() as tx:
            row = await tx.session.scalar(select(OutboxRow).where(OutboxRow.recipient == OWNER))
        if row is not None and row.status in done:
            return row
        await asyncio.sleep(0.05)
    raise AssertionError("the owner's SMS was not finished")


async def test_without_a_template_id_the_owners_sms_is_not_sent_and_is_failed(
    tmp_path: Path,
) -> None:
    async with sms_rig(tmp_path, dlt=DltPolicy(ENTITY, {})) as rig:
        response = await rig.sms(KEEPER_PHONE, SEIZE, "SM-seize-dlt-1")
        assert response.status_code == 200
        row = await _owner_row(rig, {"failed"})
        assert row.last_error is not None
        assert row.last_error.startswith("dlt: no DLT template id configured for ")
        assert rig.twilio.messages == []


async def test_with_the_ids_the_owners_sms_goes_under_its_template(tmp_path: Path) -> None:
    ids = {t.name: "1207160000000000001" for t in registry()}
    async with sms_rig(tmp_path, dlt=DltPolicy(ENTITY, ids)) as rig:
        await rig.sms(KEEPER_PHONE, SEIZE, "SM-seize-dlt-2")
        async with TwilioSender(SID, TOKEN, FROM, api_url=rig.twilio_url) as sender:
            for _ in range(200):
                await deliver_once(rig.app.store, {"sms": sender}, "test", dlt=rig.app.config.dlt)
                if len(rig.twilio.messages) >= 2:
                    break
                await asyncio.sleep(0.05)
        # The keeper's answer goes through the outbox too, under its own template.
        (sent,) = [m for m in rig.twilio.messages if m["To"] == OWNER]
        row = await _owner_row(rig, {"sent"})
        template = registry().get(row.template or "")
        assert template is not None
        assert template.problem(sent["Body"], 30) is None
