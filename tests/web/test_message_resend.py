"""Send again on the web desk's log of messages, over real HTTP with the desk's CSRF token:
the button on a failed row for an admin and for the officer of its authority; one POST
queues one copy, a second one says who sent it again and when; every refusal a page
of its own status that changes nothing; the log links the failed row and its copy; a
purged message shows "purged after N days"."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

from sqlalchemy import func, select

from bot.store.models import OutboxRow
from tests.web.rig import Rig, csrf_of, rig
from tests.web.test_message_log import OWNER, _setup

_FORM = re.compile(r'<form class="resend" method="post" action="/web/messages/(\d+)/resend')


async def _ids(r: Rig) -> dict[str, int]:
    """The outbox rows of ``_setup`` by their body."""
    async with r.app.store.transaction() as tx:
        rows = (await tx.session.execute(select(OutboxRow.body, OutboxRow.id))).all()
    return {body: row_id for body, row_id in rows}


async def _count(r: Rig) -> int:
    async with r.app.store.transaction() as tx:
        return int(await tx.session.scalar(select(func.count()).select_from(OutboxRow)) or 0)


async def test_an_admin_sends_a_failed_message_again_once(tmp_path: Path) -> None:
    async with rig(tmp_path) as r:
        await _setup(r)
        await r.sign_in(await r.user("admin", name="Anil"))
        ids = await _ids(r)
        page = (await r.client.get("/web/messages")).text
        # The button on the failed rows only (failed, and refused by DLT).
        offered = {int(n) for n in _FORM.findall(page)}
        assert offered == {ids["BODY-KNM-FAILED"], ids["BODY-KNM-DLT"]}
        assert "Send again" in page
        before = await _count(r)
        failed = ids["BODY-KNM-FAILED"]
        done = await r.client.post(f"/web/messages/{failed}/resend", data={"csrf": csrf_of(page)})
        assert done.status_code == 303
        target = done.headers["location"]
        assert target.startswith("/web/messages?resent=")
        assert await _count(r) == before + 1
        again = (await r.client.get(target)).text
        new = int(target.split("resent=")[1].split("#")[0])
        assert f"Queued to be sent again as #{new}." in again
        assert f'id="out-{new}"' in again
        assert re.search(rf'href="#out-{new}">sent again by Anil on 1 Mar 2026 10:00<', again)
        assert f'<a class="resend-of" href="#out-{failed}">a second sending of #{failed}</a>' in (
            again
        )
        assert {int(n) for n in _FORM.findall(again)} == {ids["BODY-KNM-DLT"]}  # not twice

        # A second POST (a double click, another tab) changes nothing and says so.
        twice = await r.client.post(f"/web/messages/{failed}/resend", data={"csrf": csrf_of(page)})
        assert twice.status_code == 409
        assert "already sent again by Anil on 1 Mar 2026 10:00" in twice.text
        assert await _count(r) == before + 1


async def test_an_officer_sends_again_his_authoritys_failed_message_only(
    tmp_path: Path,
) -> None:
    async with rig(tmp_path) as r:
        await _setup(r)
        ids = await _ids(r)
        async with r.app.store.transaction() as tx:  # ENM-1's message failed too
            row = await tx.session.get(OutboxRow, ids["BODY-ENM-SENT"])
            assert row is not None
            row.status, row.last_error = "failed", "timeout"
        await r.sign_in(await r.user("officer", authority="KNM-GP", name="Latha"))
        page = (await r.client.get("/web/messages")).text
        assert {int(n) for n in _FORM.findall(page)} == {
            ids["BODY-KNM-FAILED"],
            ids["BODY-KNM-DLT"],
        }
        csrf = csrf_of(page)
        before = await _count(r)
        other = await r.client.post(
            f"/web/messages/{ids['BODY-ENM-SENT']}/resend", data={"csrf": csrf}
        )
        assert other.status_code == 403
        assert "Your role does not allow this." in other.text
        assert await _count(r) == before
        done = await r.client.post(
            f"/web/messages/{ids['BODY-KNM-DLT']}/resend", data={"csrf": csrf}
        )
        assert done.status_code == 303
        assert await _count(r) == before + 1
        shown = (await r.client.get(done.headers["location"])).text
        assert OWNER not in shown  # the copy's number is masked as any other
        assert "sent again by Latha on" in shown


async def test_every_refusal_is_a_page_of_its_own_status_that_changes_nothing(
    tmp_path: Path,
) -> None:
    async with rig(tmp_path) as r:
        await _setup(r)
        ids = await _ids(r)
        await r.sign_in(await r.user("admin", name="Anil"))
        page = (await r.client.get("/web/messages")).text
        csrf = csrf_of(page)
        before = await _count(r)
        refused = {
            "BODY-KNM-WA": (409, "Only a message that failed can be sent again."),  # delivered
            "BODY-KNM-HELD": (409, "Only a message that failed can be sent again."),  # queued
            "BODY-KNM-STOP": (409, "Only a message that failed can be sent again."),
        }
        for body, (status, text) in refused.items():
            answer = await r.client.post(f"/web/messages/{ids[body]}/resend", data={"csrf": csrf})
            assert answer.status_code == status, body
            assert text in answer.text
        unknown = await r.client.post("/web/messages/99999/resend", data={"csrf": csrf})
        assert unknown.status_code == 404
        assert "There is no such message." in unknown.text
        nonsense = await r.client.post("/web/messages/abc/resend", data={"csrf": csrf})
        assert nonsense.status_code == 404
        forged = await r.client.post(
            f"/web/messages/{ids['BODY-KNM-FAILED']}/resend", data={"csrf": "forged"}
        )
        assert forged.status_code == 403
        assert "The form has expired." in forged.text
        none = await r.client.post(f"/web/messages/{ids['BODY-KNM-FAILED']}/resend")
        assert none.status_code == 403
        # In the person's language: Malayalam, chosen with the desk's switch.
        await r.client.get("/web/lang/ml?next=/web/messages")
        in_ml = await r.client.post("/web/messages/99999/resend", data={"csrf": csrf})
        assert in_ml.status_code == 404
        assert '<html lang="ml">' in in_ml.text
        assert await _count(r) == before


async def test_a_keeper_is_refused_and_a_stranger_sent_to_sign_in(tmp_path: Path) -> None:
    async with rig(tmp_path) as r:
        await _setup(r)
        ids = await _ids(r)
        before = await _count(r)
        stranger = await r.client.post(f"/web/messages/{ids['BODY-KNM-FAILED']}/resend")
        assert stranger.status_code == 303
        assert stranger.headers["location"] == "/web/signin"
        await r.sign_in(await r.user("keeper", pound="KNM", name="Devi"))
        today = (await r.client.get("/web/")).text
        answer = await r.client.post(
            f"/web/messages/{ids['BODY-KNM-FAILED']}/resend", data={"csrf": csrf_of(today)}
        )
        assert answer.status_code == 403
        assert "BODY-" not in answer.text
        assert await _count(r) == before


async def test_a_purged_message_shows_how_old_it_was_and_no_button(tmp_path: Path) -> None:
    async with rig(tmp_path) as r:
        await _setup(r)
        ids = await _ids(r)
        async with r.app.store.transaction() as tx:
            row = await tx.session.get(OutboxRow, ids["BODY-KNM-FAILED"])
            assert row is not None
            row.created_at = row.created_at - timedelta(days=181)
            row.purged_at = r.clock.now()
            row.body, row.recipient = "", "purged"
        await r.sign_in(await r.user("admin", name="Anil"))
        page = (await r.client.get("/web/messages")).text
        assert '<em class="purged">purged after 181 days</em>' in page
        assert {int(n) for n in _FORM.findall(page)} == {ids["BODY-KNM-DLT"]}
        refused = await r.client.post(
            f"/web/messages/{ids['BODY-KNM-FAILED']}/resend", data={"csrf": csrf_of(page)}
        )
        assert refused.status_code == 409
        assert "purged after the retention period" in refused.text
