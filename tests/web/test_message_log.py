"""The log of messages on the web desk: an admin reads every message with full numbers;
an officer the messages about their authority's cases, the numbers masked; a keeper is
refused; the filters narrow the rows; Today counts the day's messages, failed first."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

from bot.channels.sms.answer import answer_by_push, sender_number_of
from bot.i18n import translator
from bot.i18n.chrome import web_names as names
from bot.store.message_reads import STATUSES
from bot.store.messages import Inbound, act_on_inbound, store_inbound
from bot.store.models import InboxRow, OutboxRow
from bot.store.tx import case_named
from tests.web.rig import Rig, rig

OWNER = "+919847012345"
SEIZE = "SEIZE 1 cow AT Kunnamangalam market"


async def _messages(r: Rig) -> None:
    """Two cases (KNM-1 of KNM-GP, ENM-1 of ENM-GP) and messages of each status."""
    now = r.clock.now()
    rows: list[tuple[str, str, str, str, str | None, str | None, str | None]] = [
        # key, channel, status, body, case, last_error, template
        ("a", "sms", "failed", "BODY-KNM-FAILED", "KNM-1", "timeout", "intake.en"),
        ("b", "sms", "failed", "BODY-KNM-DLT", "KNM-1", "dlt: no template", None),
        ("c", "whatsapp", "delivered", "BODY-KNM-WA", "KNM-1", None, None),
        ("d", "sms", "sent", "BODY-ENM-SENT", "ENM-1", None, None),
        ("e", "telegram", "sent", "BODY-NO-CASE", None, None, None),
        ("f", "sms", "dropped", "BODY-KNM-STOP", "KNM-1", "stop: said STOP", None),
    ]
    async with r.app.store.transaction() as tx:
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
            OutboxRow(  # an SMS to an owner held for the morning
                idempotency_key="log:g",
                channel="sms",
                recipient=OWNER,
                body="BODY-KNM-HELD",
                status="queued",
                attempts=0,
                next_attempt_at=now + timedelta(hours=10),
                created_at=now,
                case_number="KNM-1",
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


async def _setup(r: Rig) -> None:
    knm = await r.user("keeper", pound="KNM", phone="+919847000010", name="Suresh")
    enm = await r.user("keeper", pound="ENM", phone="+919847000011", name="Mini")
    await r.say(knm, SEIZE)
    await r.say(enm, SEIZE)
    await _messages(r)


async def test_an_admin_reads_every_message_with_full_numbers(tmp_path: Path) -> None:
    async with rig(tmp_path) as r:
        await _setup(r)
        await r.sign_in(await r.user("admin", name="Anil"))
        page = await r.client.get("/web/messages")
        assert page.status_code == 200
        for body in ("BODY-KNM-FAILED", "BODY-ENM-SENT", "BODY-NO-CASE", "BODY-INBOUND"):
            assert body in page.text
        assert OWNER in page.text
        assert "+919847000077" in page.text
        assert "refused by DLT" in page.text
        assert "held for the night" in page.text
        assert "dropped: the number said STOP" in page.text
        assert "(intake.en)" in page.text
        assert '<a href="/web/cases/KNM-1">KNM-1</a>' in page.text
        assert 'href="/web/messages"' in page.text  # in the navigation


async def test_an_officer_reads_their_authoritys_cases_numbers_masked(tmp_path: Path) -> None:
    async with rig(tmp_path) as r:
        await _setup(r)
        await r.sign_in(await r.user("officer", authority="KNM-GP", name="Latha"))
        page = (await r.client.get("/web/messages")).text
        assert "BODY-KNM-FAILED" in page
        assert "BODY-KNM-WA" in page
        for other in ("BODY-ENM-SENT", "BODY-NO-CASE", "BODY-INBOUND", "+919847000077"):
            assert other not in page
        assert OWNER not in page
        assert "+91******2345" in page


async def test_the_filters_narrow_the_rows(tmp_path: Path) -> None:
    async with rig(tmp_path) as r:
        await _setup(r)
        await r.sign_in(await r.user("admin", name="Anil"))

        async def bodies(query: str) -> set[str]:
            page = await r.client.get("/web/messages?" + query)
            assert page.status_code == 200, page.text[-500:]
            return set(re.findall(r"BODY-[A-Z-]+", page.text))

        assert await bodies("case=knm+1&status=failed") == {"BODY-KNM-FAILED"}
        assert await bodies("case=ENM1") == {"BODY-ENM-SENT"}
        assert await bodies("status=dlt") == {"BODY-KNM-DLT"}
        assert await bodies("status=held") == {"BODY-KNM-HELD"}
        assert await bodies("channel=whatsapp") == {"BODY-KNM-WA"}
        assert await bodies("channel=telegram") == {"BODY-NO-CASE"}
        assert await bodies("status=answered") == {"BODY-INBOUND"}
        assert await bodies("phone=09847000077") == {"BODY-INBOUND"}
        assert await bodies("day=2026-02-28") == set()
        assert "BODY-KNM-FAILED" in await bodies("day=2026-03-01")
        assert "BODY-KNM-FAILED" in await bodies("day=01-03-2026")  # as the desk's days are typed
        assert await bodies("day=28-02-2026") == set()
        assert (await r.client.get("/web/messages?case=nonsense")).status_code == 400


async def test_a_keeper_is_refused_the_log(tmp_path: Path) -> None:
    async with rig(tmp_path) as r:
        await _setup(r)
        await r.sign_in(await r.user("keeper", pound="KNM", name="Devi"))
        page = await r.client.get("/web/messages")
        assert page.status_code == 403
        assert "BODY-" not in page.text
        assert 'href="/web/messages"' not in (await r.client.get("/web/")).text


async def test_the_log_in_malayalam_names_no_status_in_english(tmp_path: Path) -> None:
    async with rig(tmp_path) as r:
        await _setup(r)
        await r.sign_in(await r.user("admin", name="Anil"))
        page = (await r.client.get("/web/messages?lang=ml")).text
        assert "BODY-KNM-FAILED" in page
        english = translator("en")
        for status in STATUSES:
            name = names.message_status(status, english)
            assert f">{name}<" not in page, name
            assert f">{name} (" not in page, name
        assert names.message_status("dlt", translator("ml")) in page


async def test_today_counts_the_days_messages_failed_first(tmp_path: Path) -> None:
    async with rig(tmp_path) as r:
        await _setup(r)
        await r.sign_in(await r.user("officer", authority="KNM-GP", name="Latha"))
        today = (await r.client.get("/web/")).text
        section = today[today.index('id="messages"') :]
        items = re.findall(r'<li><a href="([^"]+)">([^<]+)</a>: (\d+)</li>', section)
        assert items[0] == ("/web/messages?status=failed&amp;day=2026-03-01", "failed", "1")
        counted = {name: int(n) for _, name, n in items}
        assert counted["refused by DLT"] == 1
        assert counted["held for the night"] == 1
        assert "sent" not in counted  # ENM-1's is another authority's
        follow = await r.client.get("/web/messages?status=failed&day=2026-03-01")
        assert "BODY-KNM-FAILED" in follow.text
        assert "BODY-KNM-DLT" not in follow.text


async def test_the_pages_of_a_long_log_go_down_and_back_up_each_message_once(
    tmp_path: Path,
) -> None:
    """Older and Newer follow the log by its keys (however deep): 120 messages, at one
    same time, in and out, read down three pages and back up."""
    from html import unescape

    from bot.services.messages import PAGE

    async with rig(tmp_path) as r:
        await r.sign_in(await r.user("admin", name="Anil"))
        now = r.clock.now()
        async with r.app.store.transaction() as tx:
            for n in range(120):
                if n % 3:
                    tx.session.add(
                        OutboxRow(
                            idempotency_key=f"page:{n}",
                            channel="sms",
                            recipient=OWNER,
                            body=f"MSG-{n:03d}",
                            status="sent",
                            attempts=1,
                            next_attempt_at=now,
                            created_at=now - timedelta(minutes=n // 7),
                        )
                    )
                else:
                    tx.session.add(
                        InboxRow(
                            channel="sms",
                            provider_id=f"page-{n}",
                            sender=OWNER,
                            body=f"MSG-{n:03d}",
                            raw={},
                            received_at=now - timedelta(minutes=n // 7),
                            processed_at=now,
                        )
                    )

        def bodies(text: str) -> list[str]:
            return re.findall(r"MSG-\d{3}", text)

        def link(text: str, word: str) -> str | None:
            found = re.search(rf'<a href="([^"]+)">{word}</a>', text)
            return unescape(found.group(1)) if found else None

        pages: list[list[str]] = []
        page = await r.client.get("/web/messages")
        assert link(page.text, "Newer") is None
        while True:
            assert page.status_code == 200
            pages.append(bodies(page.text))
            older = link(page.text, "Older")
            if older is None:
                break
            page = await r.client.get(older)
        assert [len(p) for p in pages] == [PAGE, PAGE, 120 - 2 * PAGE]
        seen = [b for p in pages for b in p]
        assert sorted(seen) == [f"MSG-{n:03d}" for n in range(120)]
        back: list[list[str]] = []
        while (newer := link(page.text, "Newer")) is not None:
            page = await r.client.get(newer)
            back.append(bodies(page.text))
        assert back == pages[-2::-1]


async def test_owners_sms_on_one_number_show_in_the_log_of_their_cases_authority_alone(
    tmp_path: Path,
) -> None:
    """One state-wide number: an owner's SMS naming their case, and another owner's plain
    ``DUES`` (taken to ask of the case their number names), each with the answer queued
    for it, are in the log and the day's counts of the authority of that case, and of no
    other; a message about no case is the state admin's."""
    async with rig(tmp_path) as r:
        knm = await r.user("keeper", pound="KNM", phone="+919847000010", name="Suresh")
        enm = await r.user("keeper", pound="ENM", phone="+919847000011", name="Mini")
        await r.say(knm, f"{SEIZE} OWNER Ravi 9847012345")
        await r.say(enm, "SEIZE 1 goat AT Edavanna OWNER Ayisha 9847012399")
        sent = [(OWNER, "DUES knm 1"), ("+919847012399", "dues"), ("+919847000077", "HELP")]
        for n, (sender, body) in enumerate(sent):
            message = Inbound("sms", f"SM-in-{n}", sender, body, {})
            await store_inbound(r.app.store, message)
            await act_on_inbound(
                r.app.store,
                message,
                answer_by_push(r.app, message),
                sender=sender_number_of(r.app, message),
                case=case_named(body),
            )
        now = r.clock.now()

        async def log(pounds: list[str] | None) -> list[tuple[str, str | None, str]]:
            async with r.app.store.transaction() as tx:
                rows = await tx.message_rows(
                    pounds, case="", phone="", channel="", status="", since=None,
                    until=None, now=now, upto=50,
                )  # fmt: skip
            return [(row[0], row[9], row[10][:10]) for row in rows if row[2] == "sms"]

        knm_log, enm_log = await log(["KNM"]), await log(["ENM"])
        assert ("in", "KNM-1", "DUES knm 1") in knm_log
        assert ("in", "ENM-1", "dues") in enm_log
        # The owner told of the intake, then the answer queued for the SMS.
        assert [c for d, c, _ in knm_log if d == "out"] == ["KNM-1", "KNM-1"]
        assert [c for d, c, _ in enm_log if d == "out"] == ["ENM-1", "ENM-1"]
        assert all(c == "KNM-1" for _, c, _ in knm_log)
        assert all(c == "ENM-1" for _, c, _ in enm_log)
        everything = await log(None)
        assert ("in", None, "HELP") in everything
        # Today's counts of KNM-GP's officer count the message received about KNM-1.
        async with r.app.store.transaction() as tx:
            counted = await tx.message_counts(
                ["KNM"], since=now - timedelta(hours=1), until=now + timedelta(hours=1), now=now
            )
        assert counted.get("answered") == 1
        # The page: the officer of ENM-GP reads the owner's SMS, the number masked.
        await r.sign_in(await r.user("officer", authority="ENM-GP", name="Latha"))
        page = (await r.client.get("/web/messages?case=ENM-1&status=answered")).text
        assert "+91******2399" in page
        assert '<a href="/web/cases/ENM-1">ENM-1</a>' in page
        assert "KNM-1" not in page
