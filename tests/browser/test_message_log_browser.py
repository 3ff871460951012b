"""The log of messages in Chromium, as an admin and as an officer, in Malayalam and
English at desktop and phone widths: the rows are there, the filter form narrows them,
Today's counts of the day's messages link into the log; a screenshot of each
(``var/screenshots/``), no console error and no request to another host."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page

from bot.store.models import InboxRow, OutboxRow
from tests.browser.conftest import Server
from tests.browser.test_desk_browser import SEIZE, WIDTHS, _clean, _say, _shoot, _sign_in, _user

pytestmark = pytest.mark.browser

OWNER = "+919847012345"
PHONE = {"phone": (360, 640), "desktop": WIDTHS["desktop"]}


def _seed(server: Server) -> None:
    """Two cases (KNM-1 of KNM-GP, ENM-1 of ENM-GP), an outbox row of several statuses
    about each, one with no case and one message received."""
    keeper = _user(server, "keeper", pound="KNM", phone="+919847000010", lang="en")
    other = _user(server, "keeper", pound="ENM", phone="+919847000011", lang="en")
    _say(server, keeper, SEIZE)
    _say(server, other, "SEIZE 1 cow AT Ernakulam market")
    rows = [
        ("a", "sms", "failed", "BODY-KNM-FAILED", "KNM-1", "timeout", "intake.en"),
        ("b", "sms", "failed", "BODY-KNM-DLT", "KNM-1", "dlt: no template", None),
        ("c", "whatsapp", "delivered", "BODY-KNM-WA", "KNM-1", None, None),
        ("d", "sms", "sent", "BODY-ENM-SENT", "ENM-1", None, None),
        ("e", "telegram", "sent", "BODY-NO-CASE", None, None, None),
        ("f", "sms", "dropped", "BODY-KNM-STOP", "KNM-1", "stop: said STOP", None),
    ]

    async def add() -> None:
        now = server.clock.now()
        async with server.app.store.transaction() as tx:
            for key, channel, status, body, case, error, template in rows:
                tx.session.add(
                    OutboxRow(
                        idempotency_key=f"log:{key}",
                        channel=channel,
                        recipient=OWNER,
                        body=body,
                        status=status,
                        attempts=1,
                        next_attempt_at=now,
                        created_at=now,
                        last_error=error,
                        template=template,
                        case_number=case,
                    )
                )
            tx.session.add(
                InboxRow(
                    channel="sms",
                    provider_id="in-1",
                    sender="+919847000077",
                    body="BODY-INBOUND",
                    raw={},
                    received_at=now,
                    processed_at=now,
                    reply="ok",
                )
            )

    server.run(add())


def _rows(page: Page) -> list[str]:
    return page.locator("main table tbody tr").all_inner_texts()


def _filter(page: Page, **fields: str) -> None:
    form = page.locator("main form.filter")
    for name, value in fields.items():
        field = form.locator(f'[name="{name}"]')
        if name in ("status", "channel"):
            field.select_option(value)
        else:
            field.fill(value)
    form.locator("button[type=submit]").click()
    page.wait_for_load_state()


@pytest.mark.parametrize("role", ["admin", "officer"])
def test_the_message_log_in_malayalam_and_english_at_desktop_and_phone_widths(
    server: Server, new_context: Any, role: str
) -> None:
    _seed(server)
    place = {"authority": "KNM-GP"} if role == "officer" else {}
    person = _user(server, role, name="Latha", lang="ml", **place)
    for size, (width, height) in PHONE.items():
        page = server.watch(new_context(width, height).new_page())
        _sign_in(server, page, person)
        for lang in ("ml", "en"):
            page.goto(f"{server.base}/web/lang/{lang}?next=/web/messages")
            assert page.locator("html").get_attribute("lang") == lang
            assert page.locator('header a[href="/web/messages"]').count() == 1
            every = _rows(page)
            text = "\n".join(every)
            assert "BODY-KNM-FAILED" in text
            assert "BODY-KNM-WA" in text
            if role == "admin":
                assert "BODY-ENM-SENT" in text
                assert "BODY-INBOUND" in text
                assert OWNER in text
            else:
                for other in ("BODY-ENM-SENT", "BODY-NO-CASE", "BODY-INBOUND"):
                    assert other not in text
                assert OWNER not in text
                assert "+91******2345" in text
            broken = page.eval_on_selector_all(
                'main td a[href^="/web/cases/"]',
                "links => links.filter(a => a.getClientRects().length > 1).map(a => a.textContent)",
            )
            assert broken == [], f"case numbers broken over two lines: {broken}"
            _shoot(page, f"messages-{role}-{lang}-{size}")

            _filter(page, status="failed")
            failed = _rows(page)
            assert 0 < len(failed) < len(every)
            assert ["BODY-KNM-FAILED" in r for r in failed] == [True], failed
            assert page.locator('select[name="status"]').input_value() == "failed"
            _shoot(page, f"messages-failed-{role}-{lang}-{size}")

            page.goto(f"{server.base}/web/messages")
            _filter(page, case="knm 1", channel="whatsapp")
            assert ["BODY-KNM-WA" in r for r in _rows(page)] == [True]
            assert page.locator('input[name="case"]').input_value() == "knm 1"
        page.goto(f"{server.base}/web/messages?case=ENM1")  # a case of another authority
        shown = page.locator("main").inner_text()
        if role == "admin":
            assert "BODY-ENM-SENT" in shown
        else:
            assert "BODY-ENM" not in shown
    _clean(server)


@pytest.mark.parametrize("role", ["admin", "officer"])
def test_todays_counts_of_messages_link_into_the_log(
    server: Server, new_context: Any, role: str
) -> None:
    _seed(server)
    place = {"authority": "KNM-GP"} if role == "officer" else {}
    person = _user(server, role, name="Anil", lang="en", **place)
    for size, (width, height) in PHONE.items():
        page = server.watch(new_context(width, height).new_page())
        _sign_in(server, page, person)
        for lang in ("ml", "en"):
            page.goto(f"{server.base}/web/lang/{lang}?next=/web/")
            _shoot(page, f"today-messages-{role}-{lang}-{size}")
            counts = page.locator('section[aria-labelledby="messages"] li')
            assert counts.count() >= 3
            lines = counts.all_inner_texts()
            first = counts.first.locator("a")
            assert first.get_attribute("href") == "/web/messages?status=failed&day=2026-03-01"
            assert lines[0].endswith(": 1"), lines  # failed first (refused by DLT counted apart)
            for i in range(counts.count()):
                page.goto(f"{server.base}/web/")
                link = page.locator('section[aria-labelledby="messages"] li a').nth(i)
                href = link.get_attribute("href") or ""
                link.click()
                page.wait_for_load_state()
                assert page.url == server.base + href
                shown = len(_rows(page))
                assert lines[i].endswith(f": {shown}"), (lines[i], shown, href)
    _clean(server)


def test_a_keeper_has_no_message_log(server: Server, new_context: Any) -> None:
    _seed(server)
    keeper = _user(server, "keeper", pound="KNM", phone="+919847000012", lang="en")
    page = server.watch(new_context(*PHONE["phone"]).new_page())
    _sign_in(server, page, keeper)
    assert page.locator('a[href="/web/messages"]').count() == 0
    assert page.locator('section[aria-labelledby="messages"]').count() == 0
    response = page.goto(f"{server.base}/web/messages")
    assert response is not None
    assert response.status == 403
    assert "BODY-KNM" not in page.locator("main").inner_text()
    _shoot(page, "messages-keeper-refused-en-phone")
    # The refusal's own status is the one error Chromium logs: that page answered 403.
    assert server.errors == [
        "Failed to load resource: the server responded with a status of 403 (Forbidden)"
    ]
    assert server.foreign == []


def _failed(server: Server, body: str) -> None:
    """One more failed message about KNM-1, to send again."""

    async def add() -> None:
        now = server.clock.now()
        async with server.app.store.transaction() as tx:
            tx.session.add(
                OutboxRow(
                    idempotency_key=f"log:{body}",
                    channel="sms",
                    recipient=OWNER,
                    body=body,
                    status="failed",
                    attempts=1,
                    next_attempt_at=now,
                    created_at=now,
                    last_error="timeout",
                    case_number="KNM-1",
                )
            )

    server.run(add())


def test_an_admin_sends_a_failed_message_again_in_malayalam_and_english(
    server: Server, new_context: Any
) -> None:
    _seed(server)
    admin = _user(server, "admin", name="Anil", lang="ml")
    for size, (width, height) in PHONE.items():
        page = server.watch(new_context(width, height).new_page())
        _sign_in(server, page, admin)
        for lang in ("ml", "en"):
            body = f"BODY-RESEND-{size.upper()}-{lang.upper()}"
            _failed(server, body)
            page.goto(f"{server.base}/web/lang/{lang}?next=/web/messages")
            row = page.locator("main table tbody tr", has_text=body)
            button = row.locator("form.resend button[type=submit]")
            assert button.count() == 1
            assert button.is_visible()
            action = row.locator("form.resend").get_attribute("action") or ""
            failed = action.split("/")[3]  # /web/messages/<id>/resend
            _shoot(page, f"messages-send-again-{lang}-{size}")
            button.click()
            page.wait_for_load_state()
            assert "/web/messages?resent=" in page.url
            assert page.locator("html").get_attribute("lang") == lang
            assert page.locator('main p[role="status"]').count() == 1
            row = page.locator(f"main tr#out-{failed}")
            assert body in row.inner_text()
            assert row.locator("form.resend").count() == 0  # once
            link = row.locator("a.resent")
            assert link.count() == 1
            copy_id = (link.get_attribute("href") or "").removeprefix("#")
            copy = page.locator(f"main tr#{copy_id}")
            assert copy.count() == 1
            assert body in copy.inner_text()
            assert copy.locator("a.resend-of").count() == 1
            if lang == "en":
                assert "sent again by Anil on" in row.inner_text()
            _shoot(page, f"messages-sent-again-{lang}-{size}")
    _clean(server)
