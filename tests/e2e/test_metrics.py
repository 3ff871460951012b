"""GET /metrics (issue 14, item 4): scraped after real SMS and Telegram traffic through the
running app; who may read it; the text parses as Prometheus's."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import httpx
import pytest
from prometheus_client import generate_latest
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy import func, select, text
from sqlalchemy.exc import OperationalError

from bot.bootstrap import open_app
from bot.channels.twilio.sender import TwilioSender
from bot.config.settings import Settings
from bot.entry.app import startup_report
from bot.fakes.telegram_api import Updates
from bot.observe.metrics import REGISTRY
from bot.reminders.dispatch import remind_once
from bot.store.models import ReminderJob
from bot.support import budget
from tests.e2e.sms_harness import (
    FROM,
    KEEPER_PHONE,
    PUBLIC_URL,
    SID,
    TOKEN,
    SmsRig,
    deliver_sms,
    sms_rig,
)
from tests.e2e.telegram_rig import (
    KEEPER,
    db_url,
    fake_bot_api,
    poundbot_on,
    seed_users,
    start_clock,
)
from tests.e2e.test_sms import OWNER, SEIZE, message_of

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


def parse(text: str) -> Samples:
    """Every sample of a scrape, by name and labels (prometheus_client's own parser)."""
    return {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, frozenset(labels.items())), 0.0)


async def scrape(http: httpx.AsyncClient, **headers: str) -> Samples:
    response = await http.get("/metrics", headers=headers)
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("text/plain")
    return parse(response.text)


def moved(before: Samples, after: Samples, name: str, **labels: str) -> float:
    return value(after, name, **labels) - value(before, name, **labels)


@pytest.fixture
async def rig(tmp_path: Path):  # type: ignore[no-untyped-def]
    async with sms_rig(tmp_path) as rig:
        yield rig


async def test_sms_traffic_moves_the_counters_and_the_outbox_backlog_is_the_databases(
    rig: SmsRig, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = await scrape(rig.http)  # the rig's client is on loopback: no token needed
    assert "KNM-1" in message_of((await rig.sms(KEEPER_PHONE, SEIZE, "SM-m-1")).text)
    await rig.sms(KEEPER_PHONE, SEIZE, "SM-m-1")  # Twilio sending it again: no new message
    assert "KNM-1" in message_of((await rig.sms(OWNER, "DUES KNM-1", "SM-m-2")).text)

    async def crash(*args: object, **kwargs: object) -> object:
        raise RuntimeError("database went away")

    monkeypatch.setattr("bot.channels.sms.answer.handle_text", crash)
    assert "send it again" in message_of((await rig.sms(OWNER, "DUES KNM-1", "SM-m-3")).text)
    monkeypatch.undo()
    await rig.advance_clock(seconds=90)  # the owner's notice of the seizure waits in the outbox

    after = await scrape(rig.http)
    assert moved(before, after, "poundbot_messages_received_total", channel="sms") == 3
    assert moved(before, after, "poundbot_messages_answered_total", channel="sms") == 2
    assert moved(before, after, "poundbot_messages_failed_total", channel="sms") == 1
    assert moved(before, after, "poundbot_webhook_seconds_count", route="/twilio/sms") == 4
    assert moved(before, after, "poundbot_db_wait_seconds_count", wait="turn") >= 4
    assert value(after, "poundbot_outbox_backlog", channel="sms") == 1
    assert value(after, "poundbot_outbox_due", channel="sms") == 1
    assert value(after, "poundbot_outbox_oldest_age_seconds", channel="sms") == 90
    assert value(after, "poundbot_outbox_backlog", channel="telegram") == 0
    assert value(after, "poundbot_database_read") == 1

    async with TwilioSender(
        SID, TOKEN, FROM, api_url=rig.twilio_url, status_callback=PUBLIC_URL + "/twilio/status"
    ) as sender:
        await deliver_sms(rig, sender, 1)
    assert [m["To"] for m in rig.twilio.messages] == [OWNER]
    status = {"MessageSid": f"SM{1:032d}", "MessageStatus": "delivered", "AccountSid": SID}
    assert (await rig.post("/twilio/status", status)).status_code == 204
    last = await scrape(rig.http)
    assert moved(after, last, "poundbot_outbox_sent_total", channel="sms") == 1
    assert value(last, "poundbot_outbox_backlog", channel="sms") == 0
    assert value(last, "poundbot_outbox_oldest_age_seconds", channel="sms") == 0
    assert moved(after, last, "poundbot_webhook_seconds_count", route="/twilio/status") == 1


async def test_reminders_due_are_read_from_the_database_and_sent_ones_counted(
    rig: SmsRig,
) -> None:
    await rig.sms(KEEPER_PHONE, SEIZE, "SM-r-1")
    store, config = rig.app.store, rig.app.config
    await remind_once(store, config, "w")  # plans the case's reminders
    await rig.advance_clock(days=8)  # the morning of 9 March: the keeper's round is due
    async with store.transaction() as tx:
        due = await tx.session.scalar(
            select(func.count())
            .select_from(ReminderJob)
            .where(ReminderJob.status == "pending", ReminderJob.fire_at <= tx.now)
        )
    assert due
    before = await scrape(rig.http)
    assert value(before, "poundbot_reminders_due") == due
    done = await remind_once(store, config, "w")
    after = await scrape(rig.http)
    assert done.reminders == 1
    assert moved(before, after, "poundbot_reminders_sent_total") == 1
    assert value(after, "poundbot_reminders_due") == 0
    assert value(after, "poundbot_outbox_backlog", channel="sms") >= 1  # the keeper's, queued


async def test_telegram_traffic_moves_the_counters(tmp_path: Path) -> None:
    url, clock = db_url(tmp_path), start_clock()
    await seed_users(url, clock)
    async with (
        fake_bot_api() as (fake, fake_url),
        poundbot_on(fake, fake_url, url, clock, Updates()) as rig,
    ):
        before = await scrape(rig.http)
        assert await rig.say(KEEPER, "/help")
        after = await scrape(rig.http)
    received = moved(before, after, "poundbot_messages_received_total", channel="telegram")
    assert received == 1
    assert moved(before, after, "poundbot_messages_answered_total", channel="telegram") == 1
    assert moved(before, after, "poundbot_outbox_sent_total", channel="telegram") >= 1
    assert moved(before, after, "poundbot_webhook_seconds_count", route="/telegram") == 1


# -- who may read it -------------------------------------------------------------------


async def test_with_a_token_a_request_without_it_or_with_a_wrong_one_gets_401(
    tmp_path: Path,
) -> None:
    async with sms_rig(tmp_path, metrics_token="scrape-me-0123456789") as rig:
        missing = await rig.http.get("/metrics")  # loopback does not replace the token
        wrong = await rig.http.get(
            "/metrics", headers={"Authorization": "Bearer scrape-me-0123456788"}
        )
        basic = await rig.http.get("/metrics", headers={"Authorization": "Basic scrape-me"})
        right = await scrape(rig.http, Authorization="Bearer scrape-me-0123456789")
    for refused in (missing, wrong, basic):
        assert refused.status_code == 401
        assert refused.headers["www-authenticate"] == "Bearer"
        assert "poundbot" not in refused.text
    assert value(right, "poundbot_database_read") == 1


async def test_without_a_token_only_loopback_not_through_a_proxy_may_read_it(
    rig: SmsRig,
) -> None:
    assert (await rig.http.get("/metrics")).status_code == 200
    for header in ("X-Forwarded-For", "X-Real-IP", "Forwarded"):
        proxied = await rig.http.get("/metrics", headers={header: "203.0.113.9"})
        assert proxied.status_code == 404, header
    for host in ("203.0.113.9", "10.0.0.5", "::ffff:192.0.2.1"):
        outside = httpx.ASGITransport(app=rig.server, client=(host, 40000))
        async with httpx.AsyncClient(transport=outside, base_url="http://t") as http:
            assert (await http.get("/metrics")).status_code == 404, host
    for host in ("127.0.0.1", "127.8.0.1", "::1", "::ffff:127.0.0.1"):
        inside = httpx.ASGITransport(app=rig.server, client=(host, 40000))
        async with httpx.AsyncClient(transport=inside, base_url="http://t") as http:
            assert (await http.get("/metrics")).status_code == 200, host


async def test_the_startup_report_says_how_metrics_are_read(tmp_path: Path) -> None:
    async with open_app(url=f"sqlite+aiosqlite:///{tmp_path / 'pb.sqlite3'}") as app:
        off = startup_report(app, env={}, settings=Settings())
        on = startup_report(app, env={}, settings=Settings(metrics_token="t0ken"))
    assert any(line.startswith("/metrics: loopback only") for line in off)
    assert "/metrics: on, with Authorization: Bearer POUNDBOT_METRICS_TOKEN" in on
    assert not any("t0ken" in line for line in on)
    assert "t0ken" in Settings.from_env({"POUNDBOT_METRICS_TOKEN": "t0ken"}).secrets()


def test_a_scrape_is_valid_prometheus_text_with_every_family_documented() -> None:
    from prometheus_client import generate_latest

    from bot.observe.metrics import REGISTRY

    families = {
        f.name: f for f in text_string_to_metric_families(generate_latest(REGISTRY).decode())
    }
    for name in (
        "poundbot_messages_received",
        "poundbot_messages_answered",
        "poundbot_messages_failed",
        "poundbot_outbox_sent",
        "poundbot_reminders_sent",
        "poundbot_reminders_failed",
        "poundbot_webhook_seconds",
        "poundbot_db_wait_seconds",
    ):
        assert families[name].documentation, name


def registry_now() -> Samples:
    return parse(generate_latest(REGISTRY).decode())


async def test_a_wait_for_the_sqlite_file_held_by_another_process_is_measured(
    tmp_path: Path,
) -> None:
    path = tmp_path / "held.sqlite3"
    async with open_app(url=f"sqlite+aiosqlite:///{path}") as app:
        other = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        before = registry_now()
        await asyncio.to_thread(other.execute, "BEGIN IMMEDIATE")
        # Released 0.3 s later: the transaction waits for it, then goes on.
        asyncio.get_running_loop().call_later(0.3, other.execute, "ROLLBACK")
        async with app.store.transaction() as tx:
            assert await tx.session.scalar(text("SELECT 1")) == 1
        waited = registry_now()
        await asyncio.to_thread(other.execute, "BEGIN IMMEDIATE")
        try:
            with budget.within(0.2), pytest.raises(OperationalError, match="locked"):
                async with app.store.transaction() as tx:
                    await tx.session.execute(text("SELECT 1"))
        finally:
            other.execute("ROLLBACK")
            other.close()
        refused = registry_now()
    assert moved(before, waited, "poundbot_db_wait_seconds_count", wait="lock") == 1
    assert moved(before, waited, "poundbot_db_wait_seconds_sum", wait="lock") >= 0.25
    assert moved(waited, refused, "poundbot_db_wait_refused_total", wait="lock") == 1
    assert moved(before, refused, "poundbot_db_wait_refused_total", wait="turn") == 0


def test_every_series_is_there_from_the_start_at_zero_or_more() -> None:
    samples = registry_now()
    for channel in ("sms", "telegram"):
        for name in ("received", "answered", "failed"):
            assert (f"poundbot_messages_{name}_total", frozenset({("channel", channel)})) in samples
    for route in ("/twilio/sms", "/twilio/status", "/telegram"):
        key = ("poundbot_webhook_seconds_count", frozenset({("route", route)}))
        assert key in samples
