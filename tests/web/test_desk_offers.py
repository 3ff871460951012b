"""What the case page offers: only the steps the Act allows on the case today, named in
the desk's own words."""

from __future__ import annotations

import html
import re
from pathlib import Path

from tests.web.rig import Rig, rig, step_form
from tests.web.test_desk import _step

SEIZE = "SEIZE 2 cow (brown) AT Kunnamangalam market OWNER Ravi 9847012345"


def _forms(page: str, number: str) -> set[str]:
    """The steps whose forms the case page offers."""
    marker = f'action="/web/cases/{number}/'
    return {part.split('"', 1)[0] for part in page.split(marker)[1:]}


async def _to_auction_day(r: Rig) -> None:
    keeper = await r.user("keeper", pound="KNM", phone="+919847000010", name="Suresh")
    officer = await r.user("officer", authority="KNM-GP", name="Latha")
    await r.say(keeper, SEIZE)
    r.clock.advance(days=8)
    await r.say(keeper, "REPORT KNM-1")
    await r.say(officer, "NOTICE KNM-1 AT Kunnamangalam")
    r.clock.advance(days=8)
    await r.say(officer, "AUCTION KNM-1 ON 20-03-2026 AT Panchayat office yard")
    r.clock.advance(days=3)  # the auction day
    await r.sign_in(officer)


async def test_once_every_head_is_sold_only_the_settlement_is_offered(tmp_path: Path) -> None:
    async with rig(tmp_path) as r:
        await _to_auction_day(r)
        officer = await r.user("officer", authority="KNM-GP", name="Mini")
        before = _forms((await r.client.get("/web/cases/KNM-1")).text, "KNM-1")
        assert {"auction", "sold", "unsold", "dispose"} <= before, before
        await r.say(officer, "SOLD KNM-1 1 1 4000 TO Mammu, Chathamangalam DECLARED")
        one_left = _forms((await r.client.get("/web/cases/KNM-1")).text, "KNM-1")
        assert {"sold", "unsold", "dispose", "settle"} <= one_left, one_left
        await r.say(officer, "SOLD KNM-1 1 1 4500 TO Kunhali, Chathamangalam DECLARED")
        after = _forms((await r.client.get("/web/cases/KNM-1")).text, "KNM-1")
        assert not {"auction", "sold", "unsold", "dispose"} & after, after
        assert "settle" in after, after


async def test_once_every_head_is_sold_an_auction_typed_by_chat_is_refused(tmp_path: Path) -> None:
    async with rig(tmp_path) as r:
        await _to_auction_day(r)
        officer = await r.user("officer", authority="KNM-GP", name="Mini")
        await r.say(officer, "SOLD KNM-1 1 1 4000 TO Mammu, Chathamangalam DECLARED")
        await r.say(officer, "SOLD KNM-1 1 1 4500 TO Kunhali, Chathamangalam DECLARED")
        before = await r.say(officer, "STATUS KNM-1")
        reply = await r.say(officer, "AUCTION KNM-1 ON 30-03-2026 AT Panchayat office yard")
        assert "not allowed" in reply, reply
        assert "30 Mar 2026" not in await r.say(officer, "STATUS KNM-1")
        assert await r.say(officer, "STATUS KNM-1") == before


async def test_while_a_head_is_left_unsold_the_sale_is_still_offered(tmp_path: Path) -> None:
    async with rig(tmp_path) as r:
        await _to_auction_day(r)
        officer = await r.user("officer", authority="KNM-GP", name="Mini")
        await r.say(officer, "SOLD KNM-1 1 1 4000 TO Mammu, Chathamangalam DECLARED")
        await r.say(officer, "UNSOLD KNM-1 1 1")
        page = (await r.client.get("/web/cases/KNM-1")).text
        assert {"sold", "unsold", "auction"} <= _forms(page, "KNM-1")  # one head still unsold


async def test_the_answers_on_the_desk_name_its_forms_not_chat_words(tmp_path: Path) -> None:
    async with rig(tmp_path) as r:
        keeper = await r.user("keeper", pound="KNM", phone="+919847000010", name="Suresh")
        officer = await r.user("officer", authority="KNM-GP", name="Latha")
        await r.say(keeper, SEIZE)
        r.clock.advance(days=8)
        await r.say(keeper, "REPORT KNM-1")
        await r.sign_in(officer)
        posted = await _step(r, "KNM-1", "notice", places="Kunnamangalam")
        assert "AUCTION" not in posted, posted
        assert "the form “Fix the auction (s.13(3))” below" in posted, posted
        r.clock.advance(days=8)
        await r.sign_in(officer)
        await _step(r, "KNM-1", "auction", on="2026-03-20", place="Panchayat office yard")
        r.clock.advance(days=3)
        await r.sign_in(officer)
        lot = {"lot": "1", "count": "1", "person": "Mammu", "place": "Chathamangalam"}
        await _step(r, "KNM-1", "sold", amount="4000", confirm="yes", **lot)
        last = await _step(r, "KNM-1", "sold", amount="4500", confirm="yes", **lot)
        assert "SETTLE" not in last, last
        assert "&lt;" not in last, last
        assert "the form “Close the sale and settle (s.15(2))” below" in last, last


async def test_the_same_answer_by_chat_still_says_what_to_send(tmp_path: Path) -> None:
    async with rig(tmp_path) as r:
        keeper = await r.user("keeper", pound="KNM", phone="+919847000010", name="Suresh")
        officer = await r.user("officer", authority="KNM-GP", name="Latha")
        await r.say(keeper, SEIZE)
        r.clock.advance(days=8)
        await r.say(keeper, "REPORT KNM-1")
        posted = await r.say(officer, "NOTICE KNM-1 AT Kunnamangalam")
        assert "Fix its day and place with AUCTION" in posted, posted


async def test_the_first_day_of_the_auction_reads_with_its_day(tmp_path: Path) -> None:
    async with rig(tmp_path) as r:
        keeper = await r.user("keeper", pound="KNM", phone="+919847000010", name="Suresh")
        officer = await r.user("officer", authority="KNM-GP", name="Latha")
        await r.say(keeper, SEIZE)
        r.clock.advance(days=8)
        await r.say(keeper, "REPORT KNM-1")
        await r.say(officer, "NOTICE KNM-1 AT Kunnamangalam")
        await r.sign_in(officer)
        page = (await r.client.get("/web/cases/KNM-1")).text
        assert "Auction lawful from 17 Mar 2026" in page, page
        assert "Auction lawful from," not in page
        assert "Auction lawful from:" not in page
        assert "Post the notice, " not in page  # posted


async def test_a_citation_in_a_narrow_table_is_not_labelled_as_a_section(tmp_path: Path) -> None:
    """A citation names itself ("വകുപ്പ് 13(1)"): a narrow screen's label before it
    ("വകുപ്പ്: വകുപ്പ് 13(1)") would say it twice."""
    async with rig(tmp_path) as r:
        keeper = await r.user(
            "keeper", pound="KNM", phone="+919847000010", name="Suresh", lang="ml"
        )
        await r.say(keeper, SEIZE)
        r.clock.advance(days=8)  # the report is due
        await r.sign_in(keeper)
        today = (await r.client.get("/web/")).text
        assert "വകുപ്പ് 13(1)" in today, today
        assert 'data-label="വകുപ്പ്"' not in today, today
        await r.say(keeper, "REPORT KNM-1")
        case = (await r.client.get("/web/cases/KNM-1")).text
        assert 'data-label="വകുപ്പ്"' not in case, case


def _row(page: str, number: str) -> str:
    found = re.search(
        rf"<tr>\s*<td class=\"case\"[^>]*><a href=\"/web/cases/{number}\">.*?</tr>", page, re.S
    )
    assert found, page
    return found.group(0)


async def test_today_says_who_acts_on_each_line(tmp_path: Path) -> None:
    async with rig(tmp_path) as r:
        keeper = await r.user("keeper", pound="KNM", phone="+919847000010", name="Suresh")
        officer = await r.user("officer", authority="KNM-GP", name="Latha")
        await r.say(keeper, SEIZE)
        await r.say(keeper, SEIZE)
        r.clock.advance(days=8)  # the reports are due
        await r.say(keeper, "REPORT KNM-2")
        await r.sign_in(officer)
        today = (await r.client.get("/web/")).text
        report = _row(today, "KNM-1")
        assert "Report the cattle unclaimed" in report, report
        assert 'data-label="Who acts">pound-keeper<' in report, report
        notice = _row(today, "KNM-2")
        assert "Post the notice" in notice, notice
        assert 'data-label="Who acts">officer<' in notice, notice
        assert "<th>Who acts</th>" in today


async def test_every_page_has_the_language_switch_and_a_case_page_takes_lang(
    tmp_path: Path,
) -> None:
    async with rig(tmp_path) as r:
        keeper = await r.user("keeper", pound="KNM", phone="+919847000010", name="Suresh")
        await r.say(keeper, SEIZE)
        await r.sign_in(keeper)
        for path in ("/web/", "/web/cases", "/web/documents/", "/web/charts/", "/web/cases/KNM-1"):
            page = (await r.client.get(path)).text
            assert 'href="/web/lang/ml?next=' in page, path
            assert 'hreflang="ta"' in page, path
        in_malayalam = await r.client.get("/web/cases/KNM-1?lang=ml")
        assert '<html lang="ml">' in in_malayalam.text
        assert "കേസ്" in in_malayalam.text
        charts = await r.client.get("/web/charts/?lang=ta")
        assert '<html lang="ta">' in charts.text


async def test_a_step_from_a_case_page_in_a_chosen_language_stays_in_it(tmp_path: Path) -> None:
    async with rig(tmp_path) as r:
        keeper = await r.user("keeper", pound="KNM", phone="+919847000010", name="Suresh")
        await r.say(keeper, SEIZE)
        r.clock.advance(days=8)
        await r.sign_in(keeper)
        page = (await r.client.get("/web/cases/KNM-1?lang=ml")).text
        assert 'action="/web/cases/KNM-1/report?lang=ml"' in page
        done = await r.client.post("/web/cases/KNM-1/report?lang=ml", data=step_form(page))
        assert done.headers["location"] == "/web/cases/KNM-1?lang=ml#reply"
        after = await r.client.get(done.headers["location"])
        assert '<html lang="ml">' in after.text


async def test_the_case_page_names_the_owner_and_the_seizer_and_the_board_never_does(
    tmp_path: Path,
) -> None:
    async with rig(tmp_path) as r:
        keeper = await r.user("keeper", pound="KNM", phone="+919847000010", name="Suresh")
        officer = await r.user("officer", authority="KNM-GP", name="Latha")
        await r.say(
            keeper,
            "SEIZE 2 cow (brown) AT Kunnamangalam market OWNER Ravi 9847012345 BY Raghavan",
        )
        r.clock.advance(days=8)
        await r.say(keeper, "REPORT KNM-1")
        await r.say(officer, "NOTICE KNM-1 AT Kunnamangalam")
        await r.sign_in(officer)
        page = html.unescape((await r.client.get("/web/cases/KNM-1")).text)
        owner = page.split("<dt>Owner</dt>")[1].split("</dd>")[0]
        assert "Ravi" in owner, page
        assert "9847012345" in page.split("<dt>Owner's phone</dt>")[1].split("</dd>")[0]
        assert "Raghavan" in page.split("<dt>Seized by</dt>")[1].split("</dd>")[0]
        r.client.cookies.clear()
        board = await r.client.get("/notices/KNM-GP")
        assert board.status_code == 200
        assert "KNM-1" in board.text  # the notice is on the board
        public = html.unescape(board.text)
        for private in ("Ravi", "9847012345", "98470 12345", "Raghavan", "Owner's phone"):
            assert private not in public, private
        assert (await r.client.get("/web/cases/KNM-1")).status_code in (303, 307)  # sign in


async def test_a_sale_on_the_desk_on_another_day_names_the_auction_form(tmp_path: Path) -> None:
    async with rig(tmp_path) as r:
        await _to_auction_day(r)
        r.clock.advance(days=3)  # past the auction's day
        await r.sign_in(await r.user("officer", authority="KNM-GP", name="Mini"))
        lot = {"lot": "1", "count": "1", "person": "Mammu", "place": "Chathamangalam"}
        refused = await _step(r, "KNM-1", "sold", status=409, amount="4000", confirm="yes", **lot)
        assert "The auction is fixed for" in refused, refused
        assert "AUCTION" not in refused, refused
        assert "the form “Fix the auction (s.13(3))” below" in refused, refused


async def test_the_auction_fixed_on_the_desk_says_how_to_record_lots_by_its_forms(
    tmp_path: Path,
) -> None:
    async with rig(tmp_path) as r:
        keeper = await r.user("keeper", pound="KNM", phone="+919847000010", name="Suresh")
        officer = await r.user("officer", authority="KNM-GP", name="Latha")
        await r.say(keeper, SEIZE)
        r.clock.advance(days=8)
        await r.say(keeper, "REPORT KNM-1")
        await r.say(officer, "NOTICE KNM-1 AT Kunnamangalam")
        r.clock.advance(days=8)
        await r.sign_in(officer)
        fixed = await _step(r, "KNM-1", "auction", on="2026-03-20", place="Panchayat office yard")
        assert "SOLD" not in fixed, fixed  # UNSOLD neither
        assert "DECLARED" not in fixed, fixed
        assert "record each lot sold with the form “" in fixed, fixed
        # By chat the same answer still gives the command to send.
        told = await r.say(officer, "AUCTION KNM-1 ON 21-03-2026 AT Panchayat office yard")
        assert '"SOLD ... TO name, place DECLARED"' in told, told
