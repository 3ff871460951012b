"""The web desk in Chromium: sign in through a link, walk a case from the report to its
settlement through the forms, and take a screenshot of every page in Malayalam and
English at desktop and phone widths (``var/screenshots/``); no console error and no
request to another host on any of them."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page
from sqlalchemy import select

from bot.channels.identity import caller_of
from bot.conversation.reply import handle_text
from bot.services.admin import add_user
from bot.services.web_signin import issue_link_for
from bot.store.models import CaseEvent, LedgerEntry, User
from bot.support.caller import Caller
from tests.browser.conftest import SCREENSHOTS, Server

pytestmark = pytest.mark.browser

WIDTHS = {"desktop": (1280, 800), "phone": (360, 740)}
SEIZE = "SEIZE 2 cow (brown, white forehead) 1 goat AT Kunnamangalam market OWNER Ravi 9847012345"


def _user(server: Server, role: str, **place: Any) -> User:
    async def add() -> User:
        async with server.app.store.transaction() as tx:
            return await add_user(tx, server.app.deps, Caller.system(), role=role, **place)

    return server.run(add())


def _say(server: Server, user: User, line: str) -> str:
    async def say() -> str:
        async with server.app.store.transaction() as tx:
            fresh = await tx.session.get(User, user.id)
            assert fresh is not None
            reply = await handle_text(tx, server.app.deps, caller_of(fresh, "sms"), line, sms=True)
        return reply.text

    return server.run(say())


def _link(server: Server, user: User) -> str:
    async def link() -> str:
        async with server.app.store.transaction() as tx:
            return await issue_link_for(tx, user.id)

    return f"{server.base}/web/signin/{server.run(link())}"


def _sign_in(server: Server, page: Page, user: User) -> None:
    page.goto(_link(server, user))
    page.click("main form button[type=submit]")
    page.wait_for_url(f"{server.base}/web/")


def _step(page: Page, server: Server, number: str, step: str, fields: dict[str, str]) -> str:
    page.goto(f"{server.base}/web/cases/{number}")
    form = page.locator(f'form[action="/web/cases/{number}/{step}"]')
    for name, value in fields.items():
        field = form.locator(f'[name="{name}"]')
        if name == "lot":
            field.select_option(value)
        elif name == "confirm":
            field.check()
        else:
            field.fill(value)
    form.locator("button[type=submit]").click()
    page.wait_for_load_state()
    reply = page.locator("#reply")
    assert "refused" not in (reply.get_attribute("class") or ""), reply.inner_text()
    return reply.inner_text()


def _clean(server: Server) -> None:
    assert server.errors == [], server.errors
    assert server.foreign == [], server.foreign


def test_a_case_walks_from_report_to_settlement_in_the_browser(
    server: Server, new_context: Any
) -> None:
    keeper = _user(server, "keeper", pound="KNM", phone="+919847000010", name="Suresh", lang="en")
    officer = _user(server, "officer", authority="KNM-GP", name="Latha", lang="en")
    _say(server, keeper, f"{SEIZE} BY Mohanan")
    server.clock.advance(days=8)  # 9 March: unclaimed for seven days (s.13(1))

    page = server.watch(new_context().new_page())
    _sign_in(server, page, keeper)
    assert "KNM-1" in _step(page, server, "KNM-1", "report", {})

    desk = server.watch(new_context().new_page())
    _sign_in(server, desk, officer)
    assert "KNM-1" in desk.locator("#awaiting").locator("xpath=..").inner_text()
    desk.goto(f"{server.base}/web/cases/KNM-1")
    staff = desk.locator("main").inner_text()
    for known in ("Ravi", "+919847012345", "Mohanan"):  # the owner and the seizer, to staff
        assert known in staff, known
    _step(desk, server, "KNM-1", "notice", {"places": "Kunnamangalam, Chathamangalam"})
    server.clock.advance(days=8)  # 17 March; a session lasts 12 hours: a new link
    _sign_in(server, desk, officer)
    _step(desk, server, "KNM-1", "auction", {"on": "2026-03-20", "place": "Panchayat yard"})
    server.clock.advance(days=3)  # the auction day
    _sign_in(server, desk, officer)
    sale = {
        "lot": "1",
        "count": "2",
        "amount": "30000",
        "person": "Vasu",
        "place": "Chathamangalam",
        "confirm": "yes",
    }
    _step(desk, server, "KNM-1", "sold", sale)
    _step(desk, server, "KNM-1", "sold", {**sale, "lot": "2", "count": "1", "amount": "4000"})
    desk.goto(f"{server.base}/web/cases/KNM-1")  # every head sold: only the settlement left
    steps = desk.eval_on_selector_all(
        'main form[action^="/web/cases/KNM-1/"]',
        "forms => forms.map(f => f.getAttribute('action').split('/').pop())",
    )
    assert steps == ["settle", "correct"], steps  # and the seizure report's correction
    assert "s.15" in _step(desk, server, "KNM-1", "settle", {"amount": "500"})
    _step(desk, server, "KNM-1", "claim", {"person": "Ravi", "reference": "Order 12/2026"})
    desk.goto(f"{server.base}/web/cases/KNM-1")
    assert "Closed" in desk.locator("h1").inner_text()
    desk.click('header form[action="/web/signout"] button[type=submit]')  # sign out
    desk.wait_for_url(f"{server.base}/web/signin")
    desk.goto(f"{server.base}/web/")
    assert desk.url == f"{server.base}/web/signin"

    async def recorded() -> tuple[list[str], set[str]]:
        async with server.app.store.transaction() as tx:
            channels = (await tx.session.execute(select(CaseEvent.channel))).scalars().all()
            accounts = (await tx.session.execute(select(LedgerEntry.account))).scalars().all()
        return list(channels), set(accounts)

    channels, accounts = server.run(recorded())
    assert channels == ["sms", "web", "web", "web", "web", "web", "web", "web"]
    assert {"fines", "keeper_feeding", "sale_expenses"} <= accounts
    _clean(server)


def _shoot(page: Page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    width = page.viewport_size["width"] if page.viewport_size else 0
    overflow = page.evaluate("document.documentElement.scrollWidth")
    assert overflow <= width + 1, f"{name}: {overflow} px wide on a {width} px screen"
    unlabelled = page.eval_on_selector_all(
        "input:not([type=hidden]), select",
        "els => els.filter(e => !e.labels || e.labels.length === 0).map(e => e.name)",
    )
    assert unlabelled == [], f"{name}: fields without a label: {unlabelled}"
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)


def test_every_page_in_malayalam_and_english_at_desktop_and_phone_widths(
    server: Server, new_context: Any
) -> None:
    keeper = _user(server, "keeper", pound="KNM", phone="+919847000010", lang="ml")
    officer = _user(server, "officer", authority="KNM-GP", name="Latha", lang="ml")
    _say(server, keeper, SEIZE)
    _say(server, keeper, "SEIZE 1 buffalo (black) AT Chathamangalam")
    server.clock.advance(days=8)
    _say(server, keeper, "REPORT KNM-1")
    _say(server, keeper, "REPORT KNM-2")
    _say(server, officer, "NOTICE KNM-1 AT Kunnamangalam")
    server.clock.advance(days=8)
    _say(server, officer, "AUCTION KNM-1 ON 20-03-2026 AT Panchayat yard")
    for size, (width, height) in WIDTHS.items():
        page = server.watch(new_context(width, height).new_page())
        page.goto(f"{server.base}/web/signin")
        _shoot(page, f"signin-ml-{size}")
        _sign_in(server, page, officer)
        for lang in ("ml", "en"):
            page.goto(f"{server.base}/web/lang/{lang}?next=/web/")
            assert page.locator("html").get_attribute("lang") == lang
            _shoot(page, f"today-{lang}-{size}")
            page.goto(f"{server.base}/web/cases")
            _shoot(page, f"cases-{lang}-{size}")
            page.goto(f"{server.base}/web/cases/KNM-1")
            _shoot(page, f"case-{lang}-{size}")
            page.goto(f"{server.base}/web/messages")
            _shoot(page, f"messages-{lang}-{size}")
            page.goto(f"{server.base}/notices/KNM-GP")  # in the authority's languages
            _shoot(page, f"notices-{page.locator('html').get_attribute('lang')}-{size}")
        text = page.locator("main").inner_text()
        assert "KNM-1" in text
        assert "Ravi" not in text
        assert not re.search(r"98470", text)
    _clean(server)


def test_forms_work_from_the_keyboard(server: Server, new_context: Any) -> None:
    keeper = _user(server, "keeper", pound="KNM", phone="+919847000010", lang="en")
    _say(server, keeper, SEIZE)
    page = server.watch(new_context().new_page())
    _sign_in(server, page, keeper)
    page.goto(f"{server.base}/web/cases/KNM-1")
    page.focus('form[action="/web/cases/KNM-1/paid"] input[name="on"]')
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")  # the focused "paid" button
    page.wait_for_load_state()
    assert "released" in page.locator("#reply").inner_text().lower()
    _clean(server)


def test_the_case_page_on_a_phone_shows_the_stage_and_the_next_step_first(
    server: Server, new_context: Any
) -> None:
    """At 360 x 640 the first screen holds the stage and the next step; the step is
    taken from its link, the page after is the case page (post/redirect/get) with the
    answer shown once; a reload neither repeats the step nor shows the answer again."""
    keeper = _user(server, "keeper", pound="KNM", phone="+919847000010", lang="en")
    officer = _user(server, "officer", authority="KNM-GP", name="Latha", lang="en")
    _say(server, keeper, SEIZE)
    server.clock.advance(days=8)
    _say(server, keeper, "REPORT KNM-1")
    page = server.watch(new_context(360, 640).new_page())
    _sign_in(server, page, officer)
    page.goto(f"{server.base}/web/cases/KNM-1")
    for selector in ("h1", "p.next"):
        box = page.locator(selector).bounding_box()
        assert box is not None, selector
        assert box["y"] + box["height"] <= 640, f"{selector} ends at {box['y'] + box['height']}"
    assert "Reported unclaimed" in page.locator("h1").inner_text()
    _shoot(page, "case-first-screen-en-phone")
    page.locator("p.next a").click()
    form = page.locator('form[action="/web/cases/KNM-1/notice"]')
    places = form.locator('[name="places"]').input_value()
    assert "Kunnamangalam" in places  # filled from the configuration
    form.locator("button[type=submit]").click()
    page.wait_for_load_state()
    assert page.url.split("#")[0] == f"{server.base}/web/cases/KNM-1"
    assert "KNM-1" in page.locator("#reply").inner_text()
    page.reload()
    assert page.locator("#reply").count() == 0
    assert "Notice posted" in page.locator("h1").inner_text()
    link = page.locator('a[href="/web/cases/KNM-1/notice"]')
    assert link.count() == 1
    link.click()
    page.wait_for_load_state()
    assert "/notice/KNM-1/" in page.url
    _clean(server)


def test_a_malayalam_reader_reads_the_malayalam_names(server: Server, new_context: Any) -> None:
    keeper = _user(server, "keeper", pound="KNM", phone="+919847000010", lang="ml")
    officer = _user(server, "officer", authority="KNM-GP", name="Latha", lang="ml")
    _say(server, keeper, SEIZE)
    server.clock.advance(days=8)
    _say(server, keeper, "REPORT KNM-1")
    _say(server, officer, "NOTICE KNM-1 AT Kunnamangalam")
    page = server.watch(new_context(360, 740).new_page())
    _sign_in(server, page, officer)
    page.goto(f"{server.base}/web/lang/ml?next=/web/cases/KNM-1")
    main = page.locator("main").inner_text()
    assert "കുന്ദമംഗലം ഗ്രാമപഞ്ചായത്ത് കന്നുകാലി പൗണ്ട്" in main
    assert "Kunnamangalam Grama Panchayat Cattle Pound" not in main
    _shoot(page, "case-ml-names-phone")
    page.goto(f"{server.base}/notices/KNM-GP?lang=ml")
    board = page.locator("main").inner_text()
    assert "കുന്ദമംഗലം ഗ്രാമപഞ്ചായത്ത്" in page.locator("h1").inner_text()
    assert "Kunnamangalam Grama Panchayat" not in board
    assert "തിങ്കൾ" in board  # the pound's hours, in Malayalam
    _shoot(page, "notices-ml-names-phone")
    _clean(server)


@pytest.mark.parametrize("lang", ["ml", "ta", "kn", "en"])
def test_the_register_prints_on_a4_with_every_column_on_the_page(
    server: Server, new_context: Any, lang: str
) -> None:
    """The register of cases, printed: every column within the A4 width (178 mm between
    the margins, 673 px), none cut off by a scroll box; a case number on one line."""
    keeper = _user(server, "keeper", pound="KNM", phone="+919847000010", lang=lang)
    officer = _user(server, "officer", authority="KNM-GP", name="Latha", lang=lang)
    _say(server, keeper, SEIZE)
    _say(server, keeper, "SEIZE 1 buffalo (black) AT Chathamangalam bus stand near the old mosque")
    server.clock.advance(days=8)
    _say(server, keeper, "REPORT KNM-1")
    page = server.watch(new_context(673, 950).new_page())
    _sign_in(server, page, officer)
    page.goto(f"{server.base}/web/lang/{lang}?next=/web/documents/")
    page.goto(f"{server.base}/web/documents/cases?month=2026-03")
    page.emulate_media(media="print")
    cut = page.evaluate(
        "() => [...document.querySelectorAll('.scroll')]"
        ".flatMap(s => [...s.querySelectorAll('th, td')])"
        ".filter(c => c.scrollWidth > c.clientWidth + 1)"
        ".map(c => c.tagName + ': ' + c.textContent.slice(0, 40))"
    )
    assert cut == []
    right = page.evaluate(
        "() => Math.max(...[...document.querySelectorAll('th, td')]"
        ".map(c => c.getBoundingClientRect().right))"
    )
    assert right <= 673 + 1, f"a column ends at {right} px"
    numbers = page.evaluate(
        "() => [...document.querySelectorAll('td.case')].map(c => c.firstChild.textContent)"
    )
    assert "KNM-1" in numbers
    page.screenshot(path=str(SCREENSHOTS / f"register-print-{lang}.png"), full_page=True)
    _clean(server)
