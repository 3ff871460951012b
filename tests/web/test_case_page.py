"""The case page as an officer uses it: the facts first and only the steps the Act allows
today; a step redirects to the case page, its answer shown once; dates as dd-mm-yyyy;
NOTICE filled with the places of proclamation; the printable notice one link away;
VOID behind a confirmation; Today lists a case once per section."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

from sqlalchemy import select

from bot.store.models import CaseRow, DeadlineRow
from bot.web.session import FLASH_COOKIE
from tests.web.rig import Rig, rig, step_form

SEIZE = "SEIZE 2 cow (brown, white forehead) 1 goat AT Kunnamangalam market OWNER Ravi 9847012345"
REPLY = re.compile(r'<div class="reply[^"]*" role="status" id="reply">(.*?)</div>', re.S)


async def _reported(r: Rig) -> None:
    keeper = await r.user("keeper", pound="KNM", phone="+919847000010")
    await r.say(keeper, SEIZE)
    r.clock.advance(days=8)
    await r.say(keeper, "REPORT KNM-1")


def _forms(page: str) -> list[str]:
    return re.findall(r'action="/web/cases/KNM-1/(\w+)"', page)


async def _post(r: Rig, step: str, **fields: str) -> object:
    page = await r.client.get("/web/cases/KNM-1")
    return await r.client.post(f"/web/cases/KNM-1/{step}", data={**step_form(page.text), **fields})


async def test_a_step_redirects_to_the_case_page_and_its_answer_is_shown_once(
    tmp_path: Path,
) -> None:
    async with rig(tmp_path) as r:
        keeper = await r.user("keeper", pound="KNM", phone="+919847000010")
        await r.say(keeper, SEIZE)
        await r.sign_in(keeper)
        done = await _post(r, "paid")
        assert done.status_code == 303  # type: ignore[attr-defined]
        assert done.headers["location"] == "/web/cases/KNM-1#reply"  # type: ignore[attr-defined]
        shown = await r.client.get("/web/cases/KNM-1")
        reply = REPLY.search(shown.text)
        assert reply, shown.text[-1500:]
        assert "KNM-1" in reply.group(1)
        again = await r.client.get("/web/cases/KNM-1")  # a reload: the answer is gone
        assert REPLY.search(again.text) is None
        assert FLASH_COOKIE not in r.client.cookies


async def test_a_forged_or_anothers_flash_is_not_shown(tmp_path: Path) -> None:
    async with rig(tmp_path) as r:
        keeper = await r.user("keeper", pound="KNM", phone="+919847000010")
        await r.say(keeper, SEIZE)
        await r.say(keeper, "SEIZE 1 goat AT Pathimangalam")
        await r.sign_in(keeper)
        r.client.cookies.set(FLASH_COOKIE, "bm90aGluZw.forged", path="/web/cases/")
        page = await r.client.get("/web/cases/KNM-1")
        assert REPLY.search(page.text) is None
        await _post(r, "paid")  # the flash is for KNM-1
        other = await r.client.get("/web/cases/KNM-2")
        assert REPLY.search(other.text) is None


async def test_a_refused_step_is_shown_on_the_page_with_nothing_recorded(tmp_path: Path) -> None:
    async with rig(tmp_path) as r:
        await _reported(r)
        officer = await r.user("officer", authority="KNM-GP")
        await r.sign_in(officer)
        refused = await _post(r, "notice", places="Kunnamangalam", on="01-03-2026")
        assert refused.status_code == 409  # type: ignore[attr-defined]
        assert REPLY.search(refused.text)  # type: ignore[attr-defined]
        async with r.app.store.transaction() as tx:
            case = (await tx.load_case("KNM-1")).case
        assert case.notice is None


async def test_the_first_screen_shows_the_stage_and_the_next_step(tmp_path: Path) -> None:
    async with rig(tmp_path) as r:
        await _reported(r)
        officer = await r.user("officer", authority="KNM-GP")
        await r.sign_in(officer)
        page = (await r.client.get("/web/cases/KNM-1")).text
        main = page.split("<main>")[1]
        head = main.split('<section class="card"')[0]  # before the first card
        assert "Reported unclaimed" in head
        assert 'class="next' in head
        assert 'href="#step-notice"' in head
        # The facts come before the forms.
        assert main.index('id="money"') < main.index('id="steps"')
        assert main.index('id="timeline"') < main.index('id="steps"')


async def test_notice_is_prefilled_with_the_village_and_market_of_the_configuration(
    tmp_path: Path,
) -> None:
    async with rig(tmp_path) as r:
        await _reported(r)
        officer = await r.user("officer", authority="KNM-GP")
        await r.sign_in(officer)
        page = (await r.client.get("/web/cases/KNM-1")).text
        field = re.search(r'<input id="notice-places"[^>]*>', page)
        assert field, "no places field"
        authority = r.app.config.authorities["KNM-GP"]
        assert f'value="{authority.village}, {authority.market_place}"' in field.group(0)
        done = await _post(r, "notice", places=f"{authority.village}, {authority.market_place}")
        assert done.status_code == 303  # type: ignore[attr-defined]


async def test_dates_are_entered_as_dd_mm_yyyy(tmp_path: Path) -> None:
    async with rig(tmp_path) as r:
        await _reported(r)
        officer = await r.user("officer", authority="KNM-GP")
        await r.sign_in(officer)
        page = (await r.client.get("/web/cases/KNM-1")).text
        assert 'type="date"' not in page
        assert 'placeholder="dd-mm-yyyy"' in page
        on = r.app.deps.today().strftime("%d-%m-%Y")
        done = await _post(r, "notice", places="Kunnamangalam, Kunnamangalam market", on=on)
        assert done.status_code == 303  # type: ignore[attr-defined]
        async with r.app.store.transaction() as tx:
            case = (await tx.load_case("KNM-1")).case
        assert case.notice is not None
        assert case.notice.on == r.app.deps.today()
        bad = await _post(r, "auction", on="31-02-2026", place="yard")
        assert bad.status_code == 409  # type: ignore[attr-defined]


async def test_sold_and_unsold_are_offered_from_the_auction_day_only(tmp_path: Path) -> None:
    async with rig(tmp_path) as r:
        await _reported(r)
        officer = await r.user("officer", authority="KNM-GP")
        await r.say(officer, "NOTICE KNM-1 AT Kunnamangalam")
        await r.sign_in(officer)
        assert "sold" not in _forms((await r.client.get("/web/cases/KNM-1")).text)
        r.clock.advance(days=8)
        await r.sign_in(officer)
        auction_on = r.app.deps.today() + timedelta(days=3)
        done = await _post(r, "auction", on=auction_on.strftime("%d-%m-%Y"), place="yard")
        assert done.status_code == 303  # type: ignore[attr-defined]
        page = (await r.client.get("/web/cases/KNM-1")).text
        assert "Auction fixed for" in page.split("</h1>")[0]
        assert {"sold", "unsold"}.isdisjoint(_forms(page))
        r.clock.advance(days=3)
        await r.sign_in(officer)
        page = (await r.client.get("/web/cases/KNM-1")).text
        assert {"sold", "unsold"} <= set(_forms(page))
        day = re.search(r'<input id="sold-on"[^>]*>', page)
        assert day, "no day field on SOLD"
        assert f'value="{auction_on.strftime("%d-%m-%Y")}"' in day.group(0)
        r.clock.advance(days=1)  # entered the day after: the day of the sale is kept
        await r.sign_in(officer)
        sold = await _post(
            r,
            "sold",
            lot="1",
            count="1",
            amount="100",
            person="Vasu",
            place="Chathamangalam",
            on=auction_on.strftime("%d-%m-%Y"),
            confirm="yes",
        )
        assert sold.status_code == 303  # type: ignore[attr-defined]


async def test_report_is_offered_only_once_the_seven_days_are_over(tmp_path: Path) -> None:
    async with rig(tmp_path) as r:
        keeper = await r.user("keeper", pound="KNM", phone="+919847000010")
        await r.say(keeper, SEIZE)
        await r.sign_in(keeper)
        assert "report" not in _forms((await r.client.get("/web/cases/KNM-1")).text)
        r.clock.advance(days=8)
        await r.sign_in(keeper)
        assert "report" in _forms((await r.client.get("/web/cases/KNM-1")).text)


async def test_void_sits_apart_behind_a_confirmation(tmp_path: Path) -> None:
    async with rig(tmp_path) as r:
        keeper = await r.user("keeper", pound="KNM", phone="+919847000010")
        await r.say(keeper, SEIZE)
        await r.sign_in(keeper)
        page = (await r.client.get("/web/cases/KNM-1")).text
        details = re.search(r'<details class="card danger" id="void">(.*?)</details>', page, re.S)
        assert details, "VOID is not in its own <details>"
        assert 'name="confirm"' in details.group(1)
        steps = page.split('id="steps"')[1].split("</section>")[0]
        assert "/void" not in steps
        unconfirmed = await _post(r, "void", reason="entered twice")
        assert unconfirmed.status_code == 409  # type: ignore[attr-defined]
        assert "Tick the box" in unconfirmed.text  # type: ignore[attr-defined]
        async with r.app.store.transaction() as tx:
            assert (await tx.load_case("KNM-1")).case.stage.value == "impounded"
        done = await _post(r, "void", reason="entered twice", confirm="yes")
        assert done.status_code == 303  # type: ignore[attr-defined]
        async with r.app.store.transaction() as tx:
            assert (await tx.load_case("KNM-1")).case.stage.value == "voided"


async def test_the_printable_notice_is_linked_from_the_case_page_and_the_documents(
    tmp_path: Path,
) -> None:
    async with rig(tmp_path) as r:
        keeper = await r.user("keeper", pound="KNM", phone="+919847000010")
        officer = await r.user("officer", authority="KNM-GP")
        await r.say(keeper, SEIZE)
        await r.sign_in(officer)
        early = await r.client.get("/web/cases/KNM-1")
        assert "/web/cases/KNM-1/notice" not in early.text  # not before s.13(1)
        assert (await r.client.get("/web/cases/KNM-1/notice")).status_code == 409
        r.clock.advance(days=8)
        await r.say(keeper, "REPORT KNM-1")
        await r.sign_in(officer)
        page = await r.client.get("/web/cases/KNM-1")
        assert 'href="/web/cases/KNM-1/notice"' in page.text
        sent = await r.client.get("/web/cases/KNM-1/notice")
        assert sent.status_code == 303
        assert re.fullmatch(r"/notice/KNM-1/\d{4}-\d{2}-\d{2}/[\w-]+", sent.headers["location"])
        notice = await r.client.get(sent.headers["location"])
        assert notice.status_code == 200
        assert "13(2)" in notice.text
        assert '<nav class="desk"><a href="/web/">' in notice.text  # back to the desk
        found = await r.client.get("/web/documents/find?case=knm 1&what=notice")
        assert found.status_code == 303
        assert found.headers["location"] == "/web/cases/KNM-1/notice"
        documents = await r.client.get("/web/documents/")
        assert 'value="notice"' in documents.text
        assert 'href="/web/"' in documents.text  # back to the desk


async def test_another_authoritys_notice_is_not_found(tmp_path: Path) -> None:
    async with rig(tmp_path) as r:
        await _reported(r)
        stranger = await r.user("officer", authority="ENM-GP")
        await r.sign_in(stranger)
        assert (await r.client.get("/web/cases/KNM-1/notice")).status_code == 404


async def test_today_lists_a_case_once_per_section(tmp_path: Path) -> None:
    async with rig(tmp_path) as r:
        await _reported(r)
        officer = await r.user("officer", authority="KNM-GP")
        async with r.app.store.transaction() as tx:
            row = await tx.session.scalar(select(CaseRow).where(CaseRow.number == "KNM-1"))
            assert row is not None
            day = r.app.deps.today()
            tx.session.add(
                DeadlineRow(
                    case_id=row.id,
                    case_number="KNM-1",
                    pound_code="KNM",
                    kind="auction_lawful",
                    who="officer",
                    provision="s.13(3)",
                    due_on=day - timedelta(days=1),
                    counts_from=day - timedelta(days=8),
                    created_at=r.clock.now(),
                    updated_at=r.clock.now(),
                )
            )
        await r.sign_in(officer)
        page = (await r.client.get("/web/")).text
        due = page.split('id="due"')[1].split("</section>")[0]
        assert due.count('href="/web/cases/KNM-1"') == 1
        assert "(1)" in due.split("</h2>")[0]


async def test_the_notice_link_without_a_session_asks_to_sign_in(tmp_path: Path) -> None:
    async with rig(tmp_path) as r:
        await _reported(r)
        sent = await r.client.get("/web/cases/KNM-1/notice")
        assert sent.status_code == 303
        assert sent.headers["location"] == "/web/signin"
