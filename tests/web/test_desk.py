"""The pages of the web desk: what each role sees, the steps of a case taken through its
forms (the same rules and refusals as the chat words), the WEB word, the notice board."""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

from sqlalchemy import select

from bot.i18n import translator
from bot.i18n.chrome import web_names as names
from bot.i18n.common import cite, day
from bot.store.models import CaseEvent, LedgerEntry, User
from domain.money import Money
from tests.web.rig import Rig, rig, step_form

SEIZE = "SEIZE 2 cow (brown, white forehead) 1 goat AT Kunnamangalam market OWNER Ravi 9847012345"


async def _step(r: Rig, number: str, step: str, *, status: int = 200, **fields: str) -> str:
    """Post the form of ``step`` and return the reply shown: 200 done (after the
    redirect to the case page, post/redirect/get), 409 refused."""
    page = await r.client.get(f"/web/cases/{number}")
    assert page.status_code == 200
    assert f'action="/web/cases/{number}/{step}"' in page.text, f"no {step} form"
    done = await r.client.post(
        f"/web/cases/{number}/{step}", data={**step_form(page.text), **fields}
    )
    if status == 200:
        assert done.status_code == 303, done.text[-2000:]
        assert done.headers["location"] == f"/web/cases/{number}#reply"
        done = await r.client.get(done.headers["location"])
    assert done.status_code == status, done.text[-2000:]
    reply = re.search(
        r'<div class="reply[^"]*" role="status" id="reply">(.*?)</div>', done.text, re.S
    )
    assert reply, f"{step}: no reply shown"
    return reply.group(1)


async def test_a_case_walks_from_report_to_settlement_through_the_forms(tmp_path: Path) -> None:
    async with rig(tmp_path) as r:
        keeper = await r.user("keeper", pound="KNM", phone="+919847000010", name="Suresh")
        officer = await r.user("officer", authority="KNM-GP", name="Latha")
        await r.say(keeper, SEIZE)
        r.clock.advance(days=8)  # 9 March: unclaimed seven days (s.13(1))
        await r.sign_in(keeper)
        assert "KNM-1" in await _step(r, "KNM-1", "report")
        r.client.cookies.clear()
        await r.sign_in(officer)
        today = await r.client.get("/web/")
        assert "Reports awaiting a notice (1)" in today.text
        await _step(r, "KNM-1", "notice", places="Kunnamangalam, Chathamangalam")
        r.clock.advance(days=8)  # 17 March (a session lasts 12 hours: sign in again)
        await r.sign_in(officer)
        await _step(r, "KNM-1", "auction", on="2026-03-20", place="Panchayat office yard")
        assert "Auctions this week" in (await r.client.get("/web/")).text
        r.clock.advance(days=3)  # 20 March, the auction day
        await r.sign_in(officer)
        for lot, count, price in (("1", "2", "30000"), ("2", "1", "4000")):
            await _step(
                r,
                "KNM-1",
                "sold",
                lot=lot,
                count=count,
                amount=price,
                person="Vasu",
                place="Chathamangalam",
                confirm="yes",
            )
        settled = await _step(r, "KNM-1", "settle", amount="500")
        assert "s.15" in settled
        held = (await r.client.get("/web/")).text
        assert "Money held in deposit: ₹" in held
        assert "Money held in deposit: ₹0" not in held
        assert "s.16(3)" in held
        await _step(r, "KNM-1", "claim", person="Ravi", reference="Order 12/2026")
        page = await r.client.get("/web/cases/KNM-1")
        assert "Closed" in page.text
        assert "recorded by officer Latha on the web desk" in page.text
        async with r.app.store.transaction() as tx:
            loaded = await tx.load_case("KNM-1")
            channels = (
                await tx.session.execute(
                    select(CaseEvent.channel).where(CaseEvent.case_id == loaded.row.id)
                )
            ).scalars()
            ledger = (await tx.session.execute(select(LedgerEntry))).scalars().all()
        assert list(channels) == ["sms", "web", "web", "web", "web", "web", "web", "web"]
        assert {e.account for e in ledger} >= {"fines", "keeper_feeding", "sale_expenses"}


async def test_a_step_the_use_case_refuses_is_answered_and_changes_nothing(
    tmp_path: Path,
) -> None:
    async with rig(tmp_path) as r:
        keeper = await r.user("keeper", pound="KNM", phone="+919847000010")
        await r.say(keeper, SEIZE)
        await r.sign_in(keeper)
        page = await r.client.get("/web/cases/KNM-1")
        # Reported on the day of impounding: before the seven days of s.13(1) have run.
        refused = await r.client.post("/web/cases/KNM-1/report", data=step_form(page.text))
        assert refused.status_code == 409
        assert "s.13(1)" in refused.text
        assert 'class="reply refused"' in refused.text
        bad_date = await r.client.post(
            "/web/cases/KNM-1/paid", data={**step_form(page.text), "on": "31-02-2026"}
        )
        assert bad_date.status_code == 409
        async with r.app.store.transaction() as tx:
            assert len((await tx.load_case("KNM-1")).case.events) == 1


async def _noticed(r: Rig) -> User:
    """KNM-1 seized on 1 March, reported on the 9th and its notice posted (s.13): the
    officer of its authority, who takes the steps of the sale."""
    keeper = await r.user("keeper", pound="KNM", phone="+919847000010")
    officer = await r.user("officer", authority="KNM-GP")
    await r.say(keeper, SEIZE)
    r.clock.advance(days=8)
    await r.say(keeper, "REPORT KNM-1")
    await r.say(officer, "NOTICE KNM-1 AT Kunnamangalam")
    return officer


async def test_a_step_form_sent_twice_records_the_step_once(tmp_path: Path) -> None:
    """A double click or a reload after a SOLD sends the form again: the second is
    refused (the case has moved on since its page), and the lot is sold once."""
    async with rig(tmp_path) as r:
        officer = await _noticed(r)
        r.clock.advance(days=8)
        await r.sign_in(officer)
        await _step(r, "KNM-1", "auction", on="2026-03-20", place="Panchayat office yard")
        r.clock.advance(days=3)  # the auction day
        await r.sign_in(officer)
        page = await r.client.get("/web/cases/KNM-1")
        form = {
            **step_form(page.text),
            "lot": "1",
            "count": "1",
            "amount": "100",
            "person": "Vasu",
            "place": "Chathamangalam",
            "confirm": "yes",
        }
        first = await r.client.post("/web/cases/KNM-1/sold", data=form)
        assert first.status_code == 303  # recorded: on to the case page
        again = await r.client.post("/web/cases/KNM-1/sold", data=form)
        assert again.status_code == 409
        assert "Nothing was recorded" in again.text
        async with r.app.store.transaction() as tx:
            sold = (await tx.load_case("KNM-1")).case
        assert sum(1 for e in sold.events if type(e).__name__ == "LotOffered") == 1
        # From the page as it is now, the next step is taken.
        fresh = {**form, **step_form(again.text)}
        assert (await r.client.post("/web/cases/KNM-1/sold", data=fresh)).status_code == 303
        # A form without the count of events (not from a page of the desk) is refused.
        bare = {k: v for k, v in form.items() if k != "seen"}
        assert (await r.client.post("/web/cases/KNM-1/sold", data=bare)).status_code == 409


async def test_sold_needs_the_buyers_declaration_ticked(tmp_path: Path) -> None:
    async with rig(tmp_path) as r:
        officer = await _noticed(r)
        r.clock.advance(days=11)
        await r.sign_in(officer)
        page = await r.client.get("/web/cases/KNM-1")
        form = {
            **step_form(page.text),
            "lot": "1",
            "count": "2",
            "amount": "300",
            "person": "Vasu",
        }
        refused = await r.client.post("/web/cases/KNM-1/sold", data=form)
        assert refused.status_code == 409
        assert "s.18" in refused.text


async def test_each_role_sees_its_own_cases(tmp_path: Path) -> None:
    async with rig(tmp_path) as r:
        knm = await r.user("keeper", pound="KNM", phone="+919847000010")
        enm = await r.user("keeper", pound="ENM", phone="+919847000011")
        await r.say(knm, SEIZE)
        await r.say(enm, "SEIZE 1 buffalo AT Eranhimangalam road")
        admin = await r.user("admin")
        for user, seen, unseen in (
            (knm, ["KNM-1"], ["ENM-1"]),
            (enm, ["ENM-1"], ["KNM-1"]),
            (admin, ["KNM-1", "ENM-1"], []),
        ):
            r.client.cookies.clear()
            await r.sign_in(user)
            listing = (await r.client.get("/web/cases")).text
            for number in seen:
                assert f"/web/cases/{number}" in listing
            for number in unseen:
                assert f"/web/cases/{number}" not in listing
        # The admin reads everything and takes no step (no role of the use cases).
        assert '<form class="step"' not in (await r.client.get("/web/cases/KNM-1")).text


async def test_the_filter_of_the_list_shows_the_choice_of_each_request(tmp_path: Path) -> None:
    """The filter is kept rendered for each language and choice: each request gets its
    own choice shown, whatever was asked before it (and on any page of the list)."""
    async with rig(tmp_path) as r:
        keeper = await r.user("keeper", pound="KNM", phone="+919847000010")
        await r.say(keeper, SEIZE)
        await r.sign_in(keeper)

        async def chosen(query: str) -> list[str]:
            text = (await r.client.get(f"/web/cases?{query}")).text
            start = text.index('<form class="filter card"')
            form = text[start : text.index("</form>", start)]
            options = re.findall(r'<option value="([^"]*)" selected>', form)
            dates = re.findall(r'name="(since|until)" value="([^"]*)"', form)
            return options + [f"{name}={value}" for name, value in dates if value]

        for _ in range(2):  # rendered, then kept
            assert await chosen("") == []
            assert await chosen("stage=released&kind=goat") == ["released", "goat"]
            assert await chosen("stage=released&kind=goat&page=2") == ["released", "goat"]
            assert await chosen("kind=goat&since=2026-03-02") == ["goat", "since=02-03-2026"]
            assert await chosen("pound=KNM&until=5-3-2026") == ["KNM", "until=05-03-2026"]
            assert await chosen("stage=nonsense&kind=zebra") == []


async def test_the_list_of_cases_filters_by_stage_kind_pound_and_dates(tmp_path: Path) -> None:
    async with rig(tmp_path) as r:
        keeper = await r.user("keeper", pound="KNM", phone="+919847000010")
        await r.say(keeper, SEIZE)
        r.clock.advance(days=2)
        await r.say(keeper, "SEIZE 1 buffalo AT Chathamangalam")
        await r.say(keeper, "PAID KNM-2")
        await r.sign_in(keeper)

        async def shown(query: str) -> set[str]:
            text = (await r.client.get(f"/web/cases?{query}")).text
            return set(re.findall(r'href="/web/cases/(KNM-\d+)"', text))

        assert await shown("") == {"KNM-1", "KNM-2"}
        assert await shown("stage=released") == {"KNM-2"}
        assert await shown("kind=goat") == {"KNM-1"}
        assert await shown("since=2026-03-02") == {"KNM-2"}
        assert await shown("until=2026-03-02") == {"KNM-1"}
        assert await shown("stage=nonsense&kind=zebra&since=x&page=abc") == {"KNM-1", "KNM-2"}
        # typed as every other day of the desk: dd-mm-yyyy, whatever the browser's language
        assert await shown("since=02-03-2026") == {"KNM-2"}
        assert await shown("until=2%2F3%2F26") == {"KNM-1"}
        assert await shown("since=31-02-2026") == {"KNM-1", "KNM-2"}  # no such day
        page = (await r.client.get("/web/cases?since=2026-03-02")).text
        assert 'placeholder="dd-mm-yyyy" name="since" value="02-03-2026"' in page
        assert 'type="date"' not in page
        # A correction of the cattle moves the case between the kinds.
        await r.say(keeper, "CORRECT KNM-1 CATTLE 2 cow 1 sheep BECAUSE it is a sheep")
        assert await shown("kind=goat") == set()
        assert await shown("kind=sheep") == {"KNM-1"}
        assert await shown("kind=buffalo") == {"KNM-2"}


async def test_the_list_of_cases_counts_all_that_match_and_pages_them(tmp_path: Path) -> None:
    async with rig(tmp_path) as r:
        keeper = await r.user("keeper", pound="KNM", phone="+919847000010")
        await r.say(keeper, SEIZE)
        for _ in range(22):
            await r.say(keeper, "SEIZE 1 buffalo AT Chathamangalam")
        await r.sign_in(keeper)

        async def page(query: str) -> tuple[str, list[str]]:
            text = (await r.client.get(f"/web/cases?{query}")).text
            return text, re.findall(r'href="/web/cases/(KNM-\d+)"', text)

        first, numbers = await page("")
        assert "<h1>Cases (23)</h1>" in first
        assert numbers == [f"KNM-{n}" for n in range(23, 3, -1)]  # newest first, 20
        assert ">Older</a>" in first
        assert ">Newer</a>" not in first
        second, numbers = await page("page=2")
        assert "<h1>Cases (23)</h1>" in second
        assert numbers == ["KNM-3", "KNM-2", "KNM-1"]
        assert ">Newer</a>" in second
        assert ">Older</a>" not in second
        past, numbers = await page("page=3")  # past the last page: still the count
        assert "<h1>Cases (23)</h1>" in past
        assert numbers == []
        assert "No case matches." in past
        goats, numbers = await page("kind=goat")
        assert "<h1>Cases (1)</h1>" in goats
        assert numbers == ["KNM-1"]
        none, numbers = await page("kind=goat&stage=released")
        assert "<h1>Cases (0)</h1>" in none
        assert numbers == []


async def test_today_shows_the_deadlines_due_with_their_provision(tmp_path: Path) -> None:
    async with rig(tmp_path) as r:
        keeper = await r.user("keeper", pound="KNM", phone="+919847000010")
        await r.say(keeper, SEIZE)
        r.clock.advance(days=9)  # the report was due on 9 March: overdue on the 10th
        await r.sign_in(keeper)
        today = (await r.client.get("/web/")).text
        assert "Report the cattle unclaimed" in today
        assert "s.13(1)" in today
        assert "overdue" in today


async def test_today_says_its_deadlines_in_the_language_switched_to(tmp_path: Path) -> None:
    """The words of a deadline are said once a language and kept: after a page in
    English, the same deadline comes in Malayalam once the language is switched."""
    async with rig(tmp_path) as r:
        keeper = await r.user("keeper", pound="KNM", phone="+919847000010")
        await r.say(keeper, SEIZE)
        r.clock.advance(days=9)  # the report was due on 9 March: overdue on the 10th
        await r.sign_in(keeper)
        english = (await r.client.get("/web/")).text
        assert "Report the cattle unclaimed" in english
        listed_in_english = (await r.client.get("/web/cases")).text
        await r.client.get("/web/lang/ml")
        malayalam = (await r.client.get("/web/")).text
        listed_in_malayalam = (await r.client.get("/web/cases")).text
    ml, en = translator("ml"), translator("en")
    # The list of cases too: its stage (in the line and in the filter) and its pound.
    for code in ("impounded", "reported"):
        assert f">{names.stage_name(code, ml)}<" in listed_in_malayalam
        assert f">{names.stage_name(code, en)}<" in listed_in_english
        assert f">{names.stage_name(code, en)}<" not in listed_in_malayalam
    for words in (
        names.deadline_name("report_due", ml),
        cite("s.13(1)", ml),
        day(date(2026, 3, 9), ml),
        ml.gettext("overdue"),
    ):
        assert words in malayalam
        assert words not in english
    assert "Report the cattle unclaimed" not in malayalam


async def test_pages_come_in_the_persons_language_and_switch(tmp_path: Path) -> None:
    async with rig(tmp_path) as r:
        officer = await r.user("officer", authority="KNM-GP", lang="ml")
        await r.sign_in(officer)
        page = await r.client.get("/web/")
        assert '<html lang="ml">' in page.text
        assert "ഇന്ന്" in page.text
        switched = await r.client.get("/web/lang/ta?next=/web/cases")
        assert switched.status_code == 303
        assert switched.headers["location"] == "/web/cases"
        assert '<html lang="ta">' in (await r.client.get("/web/cases")).text
        away = await r.client.get("/web/lang/en?next=//evil.example/")
        assert away.headers["location"] == "/web/"


async def test_the_notice_board_shows_open_notices_without_names_or_phones(
    tmp_path: Path,
) -> None:
    async with rig(tmp_path) as r:
        keeper = await r.user("keeper", pound="KNM", phone="+919847000010")
        officer = await r.user("officer", authority="KNM-GP")
        await r.say(keeper, SEIZE)
        await r.say(
            keeper, "SEIZE 1 buffalo (Ravi's, call 9847012345) AT Chathamangalam OWNER Ravi"
        )
        r.clock.advance(days=8)
        await r.say(keeper, "REPORT KNM-1")
        await r.say(keeper, "REPORT KNM-2")
        await r.say(officer, "NOTICE KNM-1 AT Kunnamangalam")
        await r.say(officer, "NOTICE KNM-2 AT Kunnamangalam")
        r.clock.advance(days=8)
        await r.say(officer, "AUCTION KNM-1 ON 20-03-2026 AT Panchayat office yard")
        board = await r.client.get("/notices/KNM-GP?lang=en")
        assert board.status_code == 200
        text = board.text
        assert "KNM-1" in text
        assert "KNM-2" in text
        assert "Kunnamangalam market" in text
        assert "20 Mar 2026" in text
        assert "Ravi" not in text
        assert "9847012345" not in text
        assert "98470" not in text
        assert (await r.client.get("/notices/NOPE")).status_code == 404
        other = await r.client.get("/notices/ENM-GP")
        assert "KNM-1" not in other.text


async def test_web_by_sms_gives_a_link_that_signs_in(tmp_path: Path) -> None:
    async with rig(tmp_path) as r:
        keeper = await r.user("keeper", pound="KNM", phone="+919847000010")
        reply = await r.say(keeper, "WEB")
        link = re.search(r"http://desk\.test(/web/signin/\S+)", reply)
        assert link, reply
        assert (await r.press(link.group(1))).status_code == 303
        assert (await r.client.get("/web/")).status_code == 200
        assert "വെബ്" in (await r.say(keeper, "വെബ്")) or "/web/signin/" in await r.say(keeper, "വെബ്")


async def test_web_from_a_member_of_the_public_is_refused(tmp_path: Path) -> None:
    from bot.conversation.reply import handle_text
    from bot.store.models import WebLink
    from bot.support.caller import Caller

    async with rig(tmp_path) as r:
        async with r.app.store.transaction() as tx:
            reply = await handle_text(
                tx, r.app.deps, Caller.public("sms", phone="+919847099999"), "WEB", sms=True
            )
            links = (await tx.session.execute(select(WebLink))).scalars().all()
        assert "/web/signin/" not in reply.text
        assert links == []


async def test_find_links_to_the_notice_board(tmp_path: Path) -> None:
    async with rig(tmp_path) as r:
        keeper = await r.user("keeper", pound="KNM", phone="+919847000010")
        await r.say(keeper, SEIZE)
        from bot.conversation.reply import handle_text
        from bot.support.caller import Caller

        async with r.app.store.transaction() as tx:
            reply = await handle_text(
                tx, r.app.deps, Caller.public("sms", phone="+919847099999"), "FIND cow", sms=True
            )
        assert "http://desk.test/notices/KNM-GP" in reply.text


async def test_a_correction_of_the_place_seized_through_its_form(tmp_path: Path) -> None:
    async with rig(tmp_path) as r:
        keeper = await r.user("keeper", pound="KNM", phone="+919847000010")
        await r.say(keeper, SEIZE)
        await r.sign_in(keeper)
        fields = {"field": "place", "value": "Kunnamangalam bus stand", "reason": "misheard"}
        reply = await _step(r, "KNM-1", "correct", **fields)
        assert "KNM-1" in reply
        async with r.app.store.transaction() as tx:
            case = (await tx.load_case("KNM-1")).case
        assert case.seizure.place_seized == "Kunnamangalam bus stand"
        page = await r.client.get("/web/cases/KNM-1")
        refused = await r.client.post(
            "/web/cases/KNM-1/correct",
            data={**step_form(page.text), "field": "cattle", "value": "3 cow", "reason": "x"},
        )
        assert refused.status_code == 409


async def test_a_deposit_under_protest_gets_its_outcome_through_the_form(tmp_path: Path) -> None:
    """s.14, s.19: OUTCOME on the web, as the chat word: upheld applies the deposit."""
    async with rig(tmp_path) as r:
        keeper = await r.user("keeper", pound="KNM", phone="+919847000010", name="Suresh")
        officer = await r.user("officer", authority="KNM-GP", name="Latha")
        await r.say(keeper, SEIZE)
        r.clock.advance(days=1)
        assert "KNM-1" in await r.say(keeper, "DEPOSITED KNM-1")
        r.clock.advance(days=12)
        await r.sign_in(officer)
        vague = await _step(r, "KNM-1", "outcome", status=409, outcome="lost", reference="CC-1")
        assert "s.14, s.19" in vague
        upheld = await _step(r, "KNM-1", "outcome", outcome="upheld", reference="CC-12/2026")
        assert "CC-12/2026" in upheld
        page = await r.client.get("/web/cases/KNM-1")
        assert "Outcome of the complaint" in page.text
        async with r.app.store.transaction() as tx:
            fund = (
                (
                    await tx.session.execute(
                        select(LedgerEntry.amount_paise).where(LedgerEntry.account == "fund")
                    )
                )
                .scalars()
                .all()
            )
        assert sum(fund) > 0  # the fines applied from the deposit reach the fund (s.17(1))


async def test_the_sale_forms_take_the_buyers_residence_and_the_expected_expenses(
    tmp_path: Path,
) -> None:
    """s.15(2), s.18 on the web: AUCTION with EXPENSES; SOLD needs the residence and the box."""
    async with rig(tmp_path) as r:
        keeper = await r.user("keeper", pound="KNM", phone="+919847000010", name="Suresh")
        officer = await r.user("officer", authority="KNM-GP", name="Latha")
        await r.say(keeper, SEIZE)
        r.clock.advance(days=8)
        await r.say(keeper, "REPORT KNM-1")
        await r.sign_in(officer)
        await _step(r, "KNM-1", "notice", places="Kunnamangalam, Kunnamangalam market")
        r.clock.advance(days=8)
        await r.sign_in(officer)
        fixed = await _step(
            r, "KNM-1", "auction", on="2026-03-17", place="Panchayat office", expenses="900"
        )
        assert "17 Mar 2026" in fixed
        no_home = await _step(
            r,
            "KNM-1",
            "sold",
            status=409,
            lot="1",
            count="1",
            amount="100",
            person="Vasu",
            confirm="yes",
        )
        assert "s.18" in no_home or "residence" in no_home
        undeclared = await _step(
            r,
            "KNM-1",
            "sold",
            status=409,
            lot="1",
            count="1",
            amount="100",
            person="Vasu",
            place="Chathamangalam",
        )
        assert "s.18" in undeclared
        async with r.app.store.transaction() as tx:
            sold = (
                (
                    await tx.session.execute(
                        select(CaseEvent.type).where(CaseEvent.type == "LotOffered")
                    )
                )
                .scalars()
                .all()
            )
        assert sold == []  # neither refusal recorded a sale
        done = await _step(
            r,
            "KNM-1",
            "sold",
            lot="1",
            count="1",
            amount="100",
            person="Vasu",
            place="Chathamangalam",
            confirm="yes",
        )
        assert "Lot 1: 1 cow sold for ₹100 to Vasu, Chathamangalam." in done
        async with r.app.store.transaction() as tx:
            auction = (await tx.load_case("KNM-1")).case.scheduled_auction
        assert auction is not None
        assert auction.expected_expenses == Money.rupees(900)  # counted in "still owed"


async def test_the_board_shows_the_place_seized_without_the_owners_name(
    tmp_path: Path,
) -> None:
    async with rig(tmp_path) as r:
        keeper = await r.user("keeper", pound="KNM", phone="+919847000010")
        officer = await r.user("officer", authority="KNM-GP")
        await r.say(
            keeper,
            "SEIZE 1 cow AT Kunhammed Haji's field OWNER Kunhammed Haji 9847012345 BY Raghavan",
        )
        r.clock.advance(days=8)
        await r.say(keeper, "REPORT KNM-1")
        await r.say(officer, "NOTICE KNM-1 AT Kunnamangalam")
        for lang in ("en", "ml"):
            board = await r.client.get(f"/notices/KNM-GP?lang={lang}")
            assert board.status_code == 200
            assert "KNM-1" in board.text
            assert "field" in board.text
            for name in ("Kunhammed", "Haji", "Raghavan", "98470"):
                assert name not in board.text, (lang, name)
