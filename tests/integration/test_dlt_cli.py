"""``poundbot dlt templates [--csv]`` and ``poundbot outbox failed``."""

from __future__ import annotations

import asyncio
import csv
import io
from pathlib import Path

import pytest

from bot.adapters.outbox import deliver_once
from bot.bootstrap import open_app
from bot.store.messages import enqueue
from bot.support.dlt import UPLOAD_COLUMNS, DltPolicy, registry
from tests.integration.test_cli import db, run  # noqa: F401 - the fixture is used by name


def test_dlt_templates_prints_the_bulk_upload_sheet(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "dlt", "templates", "--csv")
    assert (status, err) == (0, "")
    rows = list(csv.reader(io.StringIO(out)))
    assert tuple(rows[0]) == UPLOAD_COLUMNS
    assert {r[0] for r in rows[1:]} == {t.name for t in registry()}
    status, out, _ = run(capsys, "dlt", "templates")
    assert status == 0
    assert len(out.splitlines()) == len(registry())


class _Sender:
    async def send(self, recipient: str, body: str, key: str, *, dlt: object = None) -> str:
        return "SM1"


async def _refuse_one(url: str) -> None:
    async with open_app(url=url) as app:
        async with app.store.transaction() as tx:
            await enqueue(tx, key="k1", channel="sms", recipient="+919847000001", body="Hello.")
        policy = DltPolicy("1201160000000000000", {})
        assert await deliver_once(app.store, {"sms": _Sender()}, "w", dlt=policy) == 0


def test_outbox_failed_lists_a_message_refused_under_dlt_with_the_reason(
    db: Path,  # noqa: F811 - the fixture
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert run(capsys, "migrate")[0] == 0
    asyncio.run(_refuse_one(f"sqlite+aiosqlite:///{db}"))
    status, out, err = run(capsys, "outbox", "failed")
    assert (status, err) == (0, "")
    header, line = out.splitlines()
    assert header.split("\t") == ["id", "channel", "recipient", "queued", "template", "reason"]
    cells = line.split("\t")
    assert cells[:3] == ["1", "sms", "+919847000001"]
    assert cells[4:] == ["-", "dlt: no DLT template matches the text"]
