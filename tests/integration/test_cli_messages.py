"""``poundbot messages purge [--dry-run]``: the text and number of the messages older than
``[retention] messages_days`` purged (a dry run only counts them), a message still to
send left, a second run purging nothing more."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import select

from bot.bootstrap import open_app
from bot.store.models import InboxRow, OutboxRow
from tests.integration.test_cli import db, run

__all__ = ["db"]  # the fixture, as test_cli's commands use it

OWNER = "+919847012345"


def _out(key: str, status: str, at: datetime) -> OutboxRow:
    return OutboxRow(
        idempotency_key=key,
        channel="sms",
        recipient=OWNER,
        body=f"BODY-{key}",
        status=status,
        attempts=1,
        next_attempt_at=at,
        created_at=at,
    )


async def _seed(url: str) -> None:
    """Two old messages out (one still queued), one old message in, one recent out."""
    now = datetime.now(UTC)
    old, recent = now - timedelta(days=200), now - timedelta(days=3)
    async with open_app(url=url) as app, app.store.transaction() as tx:
        tx.session.add_all(
            [
                _out("old", "sent", old),
                _out("old-queued", "queued", old),
                _out("recent", "failed", recent),
                InboxRow(
                    channel="sms",
                    provider_id="SM1",
                    sender=OWNER,
                    body="BODY-in",
                    raw={"From": OWNER},
                    received_at=old,
                    processed_at=old,
                ),
            ]
        )


async def _bodies(url: str) -> dict[str, tuple[str, str]]:
    async with open_app(url=url) as app, app.store.transaction() as tx:
        outs = (await tx.session.scalars(select(OutboxRow))).all()
        ins = (await tx.session.scalars(select(InboxRow))).all()
    found = {r.idempotency_key: (r.body, r.recipient) for r in outs}
    return found | {r.provider_id: (r.body, r.sender) for r in ins}


def test_messages_purge_counts_on_a_dry_run_then_purges_once(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"sqlite+aiosqlite:///{db}"
    assert run(capsys, "migrate")[0] == 0
    asyncio.run(_seed(url))
    before = asyncio.run(_bodies(url))

    status, out, err = run(capsys, "messages", "purge", "--dry-run")
    assert (status, err) == (0, "")
    assert out.startswith("2 messages older than 180 days would be purged (1 in, 1 out; before ")
    assert asyncio.run(_bodies(url)) == before

    status, out, err = run(capsys, "messages", "purge")
    assert (status, err) == (0, "")
    assert out.startswith("2 messages older than 180 days purged (1 in, 1 out; ")
    after = asyncio.run(_bodies(url))
    assert after["old"] == after["SM1"] == ("", "purged")
    assert after["old-queued"] == ("BODY-old-queued", OWNER)
    assert after["recent"] == ("BODY-recent", OWNER)

    assert run(capsys, "messages", "purge")[1].startswith("0 messages older than 180 days purged")


def test_messages_purge_has_help_with_an_example(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        run(capsys, "messages", "purge", "--help")
    out = capsys.readouterr().out
    assert "--dry-run" in out
    assert "Example: poundbot messages purge --dry-run" in out
