"""The nine views of a case compared as data, for the state machine: DUES, STATUS, the
keeper's CASES, FIND, the printable s.13(2) notice, the public board, the s.15(3)
account, the register (the officer's REGISTER of deposits, the desk's register of cases
and its CSV) and the charts.

``gather`` asks each view's own service function (on the machine's store) for the
figures it was built from; ``check`` asserts they are one and the same figures, and
reads one English rendering of each (the reply, the page's text, the CSV line, the
chart's SVG) for its key figures: the cattle remaining, what is owed, the heads sold and
disposed of otherwise, the days impounded.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from types import SimpleNamespace
from typing import Any, cast

from bot.conversation.reply import handle_text
from bot.i18n.catalogs import translator
from bot.i18n.common import described_cattle
from bot.i18n.documents.account import account_text
from bot.services import board as boards
from bot.services import charts, public
from bot.services import documents as docs
from bot.services import keeper as keeping
from bot.services import officer as officering
from bot.services.base import Deps, figures_for
from bot.store.tx import Store
from bot.support.caller import Caller
from bot.support.errors import NoAccountError
from bot.web.charts import charts_svg
from bot.web.documents import register_record
from domain.case import Case
from domain.errors import DomainError
from domain.figures import Figures
from domain.s12_release import release_on_payment
from domain.s14_deposit import release_on_deposit
from domain.stages import IN_POUND_STAGES
from domain.tariff import Tariff

__all__ = ["Views", "check", "gather"]

#: A number of heads of a kind as the English texts write it: "1 cow", "3 oxen".
_HEADS = re.compile(r"\b(\d+) (?:cows?|buffalo(?:es)?|goats?|calf|calves|ox|oxen)\b")
_AMOUNT = re.compile(r"(?:₹|Rs\.? ?)(\d[\d,]*(?:\.\d\d)?)")
_BAR = re.compile(r"<title>([^<,]+), (\d+)(?:–(\d+)|\+): (\d+)</title>")


@dataclass(frozen=True)
class Views:
    """What each view of the case gave: its data (None where the case is not in it) and
    one English rendering."""

    statement: Figures
    dues: public.DuesAnswer
    dues_text: str
    status: public.Outcome
    status_text: str
    cases: keeping.OpenCase | None
    cases_text: str
    found: public.PublicCase | None
    found_text: str
    notice_text: str | None  # None: no notice to print at this stage
    board: boards.BoardNotice | None
    account: docs.AccountDocument | None
    deposit: officering.DepositEntry | None
    register: docs.RegisterRow
    year: charts.YearFigures
    stay_chart: str


def heads_in(text: str) -> int:
    """The heads a text counts by kind ("2 cows (mark 0); 1 goat" -> 3)."""
    return sum(int(n) for n in _HEADS.findall(text))


def amounts(text: str) -> set[int]:
    out: set[int] = set()
    for found in _AMOUNT.findall(text):
        rupees, _, paise = found.replace(",", "").partition(".")
        out.add(int(rupees) * 100 + int(paise or 0))
    return out


def _line(text: str, number: str) -> str:
    return next((x for x in text.splitlines() if x.startswith(f"{number}:")), "")


def gather(
    store: Store,
    deps: Deps,
    run: Any,
    number: str,
    *,
    keeper: Caller,
    officer: Caller,
    owner: Caller,
) -> Views:
    """Every view of case ``number`` today, through the functions the views use."""

    async def go() -> Views:
        async with store.transaction() as tx:
            case = (await tx.load_case(number)).case
            stated = figures_for(deps, case)
            dues = await public.dues_today(tx, deps, number)
            status = await public.outcome(tx, deps, number)
            listed = await keeping.list_open_cases(tx, deps, keeper)
            left = zip(case.seizure.lots, stated.remaining_by_lot, strict=True)
            kind = next((lot.kind for lot, n in left if n), case.seizure.lots[0].kind)
            found = await public.find_cases(tx, deps, [kind])
            authority = deps.authority_of(case.seizure.pound)
            board = await boards.notice_board(tx, deps, authority)
            try:
                account: docs.AccountDocument | None = await docs.account_document(
                    tx, deps, officer, number
                )
            except NoAccountError:
                account = None
            deposits = await officering.deposit_register(tx, deps, officer)
            impounded = case.seizure.impounded_on
            start = impounded.replace(day=1)
            end = date(start.year + start.month // 12, start.month % 12 + 1, 1)
            register = await docs.case_register(tx, deps, officer, start, end)
            year = await charts.year_figures(tx, deps, officer, impounded.year)
        replies = {}
        for who, text in (
            (owner, f"DUES {number}"),
            (owner, f"STATUS {number}"),
            (keeper, "CASES"),
            (owner, f"FIND {kind}"),
            (officer, f"NOTICE {number}"),
        ):
            async with store.transaction() as tx:
                replies[text.split()[0]] = await handle_text(tx, deps, who, text, sms=False)
        notice = replies["NOTICE"]
        app = SimpleNamespace(config=deps.config)
        _, drawn = charts_svg(year, "en", cast(Any, app))
        return Views(
            statement=stated,
            dues=dues,
            dues_text=replies["DUES"].text,
            status=status,
            status_text=replies["STATUS"].text,
            cases=next((c for c in listed if c.loaded.case.number == number), None),
            cases_text=replies["CASES"].text,
            found=next((f for f in found if f.number == number), None),
            found_text=replies["FIND"].text,
            notice_text=None if notice.refused else notice.text,
            board=next((n for n in board if n.facts.number == number), None),
            account=account,
            deposit=next((d for d in deposits if d.number == number), None),
            register=next(r for r in register if r.loaded.row.number == number),
            year=year,
            stay_chart=drawn[1][1],
        )

    views: Views = run(go())
    return views


def _all_settled(case: Case) -> bool:
    """No sale under way since the last settlement: the account counts every head gone."""
    from domain.events import DisposedOtherwise, LotOffered, SaleClosed

    for event in reversed(case.events):
        if isinstance(event, SaleClosed):
            return True
        if (isinstance(event, LotOffered) and event.sold) or isinstance(event, DisposedOtherwise):
            return False
    return True


def _accepted(step: Any, case: Case, tariff: Tariff, today: date) -> bool:
    """Whether the keeper's step (``release_on_payment``, ``release_on_deposit``, as
    ``bot.services.keeper`` takes it) would be recorded today: tried, never stored."""
    try:
        step(case, tariff, today, today)
    except DomainError:
        return False
    return True


def check(views: Views, case: Case, tariff: Tariff, others: int = 0) -> None:
    """The nine views carry one set of figures, and their renderings say them; what the
    figures say the owner may do (pay, deposit) is what the steps do. ``others``: the
    pound's other cases (in its charts too)."""
    f = views.statement
    number = case.number
    if f.on >= case.last_event_on:
        paid = _accepted(release_on_payment, case, tariff, f.on)
        assert f.may_pay == paid, f"the figures say may pay {f.may_pay}, PAID would be {paid}"
        deposited = _accepted(release_on_deposit, case, tariff, f.on)
        assert f.may_deposit == deposited, (
            f"the figures say may deposit {f.may_deposit}, DEPOSITED would be {deposited}"
        )
    # -- the data: one set of figures, wherever the case appears --
    built = {
        "DUES": views.dues.figures,
        "STATUS": views.status.figures,
        "CASES": views.cases.figures if views.cases else f,
        "FIND": views.found.figures if views.found else f,
        "board": views.board.figures if views.board else f,
        "account": views.account.figures if views.account else f,
        "REGISTER": views.deposit.figures if views.deposit else f,
        "register": views.register.figures,
        "charts": next((x for x in views.year.cases if x.number == number), None),
    }
    for view, figures in built.items():
        assert figures == f, f"{view} was built from {figures}, the statement gives {f}"
    assert (views.cases is not None) == (f.remaining > 0), (
        f"CASES {'lists' if views.cases else 'leaves out'} a case with {f.remaining} head "
        f"in the pound: {views.cases_text}"
    )
    assert (views.found is not None) == (f.remaining > 0), (f, views.found_text)
    if views.board is not None:
        assert f.remaining > 0, f"the board shows a case with no cattle in the pound: {f}"
    if f.owed.paise:
        assert f.may_pay, f
    # -- the renderings, read for their figures --
    dues = views.dues_text
    if f.may_pay and f.owed.paise:
        assert f.owed.paise in amounts(dues), f"DUES without the {f.owed} owed: {dues}"
    if f.met_from_proceeds.paise and case.stage in IN_POUND_STAGES:
        shown = amounts(dues)
        assert f.met_from_proceeds.paise in shown, f"DUES without what the sale met: {dues}"
        assert f.unmet.paise in shown, f"DUES without what remains unmet: {dues}"
    line = _line(views.cases_text, number)
    if f.remaining:
        parsed = re.match(
            rf"{re.escape(number)}: (.*), (\d+) days? in the pound, dues (.*)\.$", line
        )
        assert parsed, f"CASES without the case: {views.cases_text}"
        assert heads_in(parsed.group(1)) == f.remaining, (f, line)
        assert int(parsed.group(2)) == f.days_impounded, (f, line)
        assert amounts(parsed.group(3)) == {f.unmet.paise}, (f, line)
        if f.may_pay:
            assert f.unmet == f.owed, (f, line)
    else:
        assert not line, f"CASES lists a case with no cattle in the pound: {views.cases_text}"
    found = _line(views.found_text, number)
    assert heads_in(found.partition(" seized at ")[0]) == f.remaining, (f, views.found_text)
    if views.notice_text is not None:
        # The notice itself; the drummer's script after it is the proclamation as read
        # on the day the notice was posted.
        document = views.notice_text.partition("Proclamation by beat of drum")[0]
        if "may claim them at the pound on paying" in document:
            assert f.may_pay, f"the notice says the owner may claim on paying; figures {f}"
        item = next(
            x for x in views.notice_text.splitlines() if x.startswith("(a) Number and description")
        )
        assert heads_in(item) == f.remaining, f"the notice states {item!r}; figures {f}"
    if views.board is not None:
        listed = described_cattle(views.board.facts.lots, translator("en"))
        assert heads_in(listed) == f.remaining, f"the board shows {listed!r}; figures {f}"
    if views.account is not None:
        text = account_text(views.account.account, translator("en"))
        seized = re.search(r"\(a\) Number of cattle seized: (\d+)", text)
        sold = re.search(r"\(d\) Number of cattle sold: (\d+)", text)
        disposed = re.search(r"not sold \(s\.13\(3\) proviso\): (\d+)", text)
        assert seized, text
        assert int(seized.group(1)) == f.seized, text
        if _all_settled(case):
            assert sold, text
            assert int(sold.group(1)) == f.sold, (f, text)
            assert (int(disposed.group(1)) if disposed else 0) == f.disposed, (f, text)
        if case.stage not in IN_POUND_STAGES:
            item_b = text.partition("(b) Time impounded")[2].partition("(c) ")[0]
            days = [int(d) for d in re.findall(r"(\d+) days?\b", item_b)]
            assert days, text
            assert max(days) == f.days_impounded, (f, text)
    record = register_record(views.register)
    in_pound, sold_text, disposed_text = record[-3:]
    assert in_pound == ("" if f.days_impounded is None else str(f.days_impounded)), (f, record)
    assert (int(sold_text), int(disposed_text)) == (f.sold, f.disposed), (f, record)
    bars = [
        (series, int(low), int(high) if high else None)
        for series, low, high, value in _BAR.findall(views.stay_chart)
        if int(value)
    ]
    if f.days_impounded is None:
        assert not bars, views.stay_chart
    elif not others:
        assert len(bars) == 1, bars
        series, low, high = bars[0]
        assert low <= f.days_impounded, (f, bars)
        assert high is None or f.days_impounded <= high, (f, bars)
        still = series == "Still in the pound"
        assert still == (f.remaining > 0), f"the chart counts the case {series!r}: {f}"
    else:  # the pound's other cases are in the chart too: one of its bars is this case's
        days = f.days_impounded
        series = "Still in the pound" if f.remaining > 0 else "Left the pound"
        assert any(
            s == series and low <= days and (high is None or days <= high) for s, low, high in bars
        ), f"the chart does not count the case {series!r} at {days} days: {bars}"
        assert len(bars) <= 1 + others, bars
