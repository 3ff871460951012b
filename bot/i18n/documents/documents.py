"""The words of the printable documents and the charts of the web desk: headings,
column heads, the ledger's accounts, the charts' titles, series and axes.

Each label that applies the Act names its provision. The statutory texts themselves
(the s.15(3) account, the s.15(4) receipt, where a case stands) come from the chat
renderers, so a printed document says what the chat said.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from bot.i18n import fmt
from bot.i18n.catalogs import Translator
from bot.i18n.common import KindMap, credited_to, kind_count, to_office
from domain.money import Money
from domain.profiles import Power

__all__ = [
    "account_name",
    "chart_labels",
    "document_labels",
    "kind_name",
    "timeliness_name",
]


def document_labels(tr: Translator) -> dict[str, str]:
    """Headings and column heads of the documents, by key."""
    return {
        # TRANSLATORS: the web desk — heading of the list of printable documents.
        # TRANSLATORS: a link from a printable document back to the web desk.
        "desk": tr.gettext("Web desk"),
        "documents": tr.gettext("Printable documents"),
        # TRANSLATORS: the web desk — link to the page of charts.
        "charts": tr.gettext("Charts"),
        # TRANSLATORS: the web desk — the name of the switch between languages.
        "language": tr.gettext("Language"),
        # TRANSLATORS: the web desk — the search box of every page (and its button).
        "search": tr.gettext("Search"),
        # TRANSLATORS: the web desk — what the search box finds, shown in it while empty.
        "search_hint": tr.gettext("Case, place, cattle, phone"),
        # TRANSLATORS: s.16(3) — heading of the register of surplus proceeds in deposit.
        "deposit_register": tr.gettext("Deposit register (s.16(3))"),
        # TRANSLATORS: s.7 — heading of the register of the cases brought in a month.
        "case_register": tr.gettext("Register of cases (s.7)"),
        # TRANSLATORS: the ledger of an authority, grouped by the provision of the Act
        # under which each sum moved, with totals.
        "ledger": tr.gettext("Ledger by provision"),
        # TRANSLATORS: s.15(3), s.15(4) — the account of a sale and the owner's receipt.
        # TRANSLATORS: s.13(2), s.15(3), s.15(4) — the heading of the form that opens a
        # case's notice, account or receipt by its number.
        "account_and_receipt": tr.gettext(
            "The notice (s.13(2)), the account (s.15(3)) and the receipt (s.15(4)) of a case"
        ),
        # TRANSLATORS: s.15(3) — link to the printable account of a case.
        "account": tr.gettext("Account (s.15(3))"),
        # TRANSLATORS: s.15(4) — link to the printable receipt of a case.
        "receipt": tr.gettext("Receipt (s.15(4))"),
        # TRANSLATORS: s.13(2) — the button that opens a case's printable notice.
        "notice": tr.gettext("Notice (s.13(2))"),
        # TRANSLATORS: the web desk — a link to the same document as a CSV file.
        "csv": tr.gettext("Download as CSV"),
        # TRANSLATORS: the web desk — a form field: the month of a document.
        "month": tr.gettext("Month"),
        # TRANSLATORS: the web desk — a form field: the year of the charts.
        "year": tr.gettext("Year"),
        # TRANSLATORS: the web desk — a form field: the local authority.
        "authority": tr.gettext("Local authority"),
        # TRANSLATORS: the web desk — the choice of every local authority (admins).
        "all_authorities": tr.gettext("All local authorities"),
        # TRANSLATORS: the web desk — a form field: a case number such as KNM-17.
        "case_number": tr.gettext("Case number"),
        # TRANSLATORS: the web desk — the button that shows what the form asks for.
        "show": tr.gettext("Show"),
        # TRANSLATORS: a column head: the case number.
        "case": tr.gettext("Case"),
        # TRANSLATORS: s.7 — a column head: the day the cattle were brought to the pound.
        "brought": tr.gettext("Brought to the pound (s.7)"),
        # TRANSLATORS: s.7 — a column head: where the cattle were seized.
        "place": tr.gettext("Place of seizure (s.7)"),
        # TRANSLATORS: s.7 — a column head: the number and kinds of cattle.
        "cattle": tr.gettext("Cattle (s.7)"),
        # TRANSLATORS: a column head: where the case stands now, with its provision.
        "stands": tr.gettext("Where the case stands"),
        # TRANSLATORS: s.15(3)(b) — a column head: calendar days in the pound, the
        # first and the last both counted.
        "days": tr.gettext("Days in the pound (s.15(3)(b))"),
        # TRANSLATORS: s.15(3)(d) — a column head: the heads sold at the public auction.
        "sold": tr.gettext("Heads sold (s.15(3)(d))"),
        # TRANSLATORS: s.13(3) proviso — a column head: the heads not sold but disposed of
        # otherwise by the Director's order, counted apart from those sold.
        "disposed": tr.gettext("Heads disposed of otherwise (s.13(3) proviso)"),
        # TRANSLATORS: a column head: an amount of money.
        "amount": tr.gettext("Amount"),
        # TRANSLATORS: s.16(3) — a column head: the day the surplus went into deposit.
        "deposited": tr.gettext("In deposit since (s.16(3))"),
        # TRANSLATORS: s.16(3) — a column head: the last day a claim may be preferred,
        # when the months the deposit is held end (%(months)d: three under the Kerala Act).
        "claims_until": tr.ngettext(
            "%(months)d month ends; claims until (s.16(3))",
            "%(months)d months end; claims until (s.16(3))",
            tr.act.surplus_months,
        )
        % {"months": tr.act.surplus_months},
        # TRANSLATORS: s.17(1) — a column head: the first day the deposit may be
        # credited to the fund of the local authority; %(to_fund)s is where, as "to the
        # fund" (or "to State revenue") is translated.
        "credit_from": tr.gettext("Credit %(to_fund)s from (s.17(1))")
        % {"to_fund": credited_to(tr, short=True)},
        # TRANSLATORS: a column head: a date.
        "date": tr.gettext("Date"),
        # TRANSLATORS: a column head: the account of the ledger money moved to.
        "ledger_account": tr.gettext("Account"),
        # TRANSLATORS: a column head: the provision of the Act a sum moved under.
        "provision": tr.gettext("Provision"),
        # TRANSLATORS: a total (of a column, a provision, or a register).
        "total": tr.gettext("Total"),
        # TRANSLATORS: the ledger — the totals of each account over every provision.
        "by_account": tr.gettext("Totals by account"),
        # TRANSLATORS: a document with nothing to list (no case, no entry, no deposit).
        "nothing": tr.gettext("Nothing to list."),
        # TRANSLATORS: the web desk — printed at the foot of each document: the day it
        # was printed, so an old copy is recognised.
        "printed": tr.gettext("Printed on %(date)s"),
    }


_ACCOUNTS: Final[dict[str, Callable[[Translator], str]]] = {
    "fines": lambda tr: _fines(tr),
    # TRANSLATORS: s.16(2) — ledger account: feeding and watering, to the pound-keeper.
    "keeper_feeding": lambda tr: tr.gettext("Feeding and watering to the pound-keeper (s.16(2))"),
    # TRANSLATORS: s.14 — ledger account: dues deposited by an owner disputing the seizure.
    "protest_deposit": lambda tr: tr.gettext("Deposits of owners disputing the seizure (s.14)"),
    # TRANSLATORS: s.16(3) — ledger account: surplus proceeds of sale held in deposit.
    "surplus_deposit": lambda tr: tr.gettext("Surplus proceeds held in deposit (s.16(3))"),
    "fund": lambda tr: _fund(tr),
    # TRANSLATORS: s.15(3) — ledger account: the balance of the proceeds, to the owner.
    "owner_balance": lambda tr: tr.gettext("Balance to the owner (s.15(3))"),
    # TRANSLATORS: s.15(2) — ledger account: the expenses of the sale met.
    "sale_expenses": lambda tr: tr.gettext("Expenses of sale (s.15(2))"),
}


def _fines(tr: Translator) -> str:
    """The ledger account of the fines, named by the office they are sent to (s.16(1))."""
    office = to_office(tr.act.office_for(Power.RECEIVE_FINES), tr)
    # TRANSLATORS: s.17(1), s.16(1) — ledger account: fines, to the local authority (to
    # the District Magistrate under the Cattle-trespass Act, 1871); %(to_office)s is the
    # office, as "to the local authority" is translated.
    return tr.gettext("Fines %(to_office)s (s.16(1), s.17(1))") % {"to_office": office}


def _fund(tr: Translator) -> str:
    """The ledger account the unclaimed surplus is credited to (s.17(1))."""
    # TRANSLATORS: s.17(1) — ledger account: credited to the fund of the local authority
    # (to State revenue under the Cattle-trespass Act, 1871); %(to_fund)s is where, as
    # "to the fund of the local authority" is translated.
    return tr.gettext("Credited %(to_fund)s (s.17(1))") % {"to_fund": credited_to(tr)}


def account_name(account: str, tr: Translator) -> str:
    """A ledger account in words, with its provision; an account poundbot does not name
    yet keeps its code, so a new kind of entry still appears."""
    render = _ACCOUNTS.get(account)
    return render(tr) if render else account


def kind_name(kind: str, tr: Translator, kinds: KindMap | None = None) -> str:
    """A kind of cattle in words, for a legend: the plural form the counts use, without
    the number (``cows``, ``പശുക്കൾ``)."""
    # The catalogs count kinds ("%(n)d cows"); the number is the only digit in them.
    counted = kind_count(kind, 2, tr, kinds)
    return counted.replace("2", "", 1).strip()


_TIMELINESS: Final = {
    # TRANSLATORS: a chart — the step was taken by the day the Act sets.
    "on_time": lambda tr: tr.gettext("On time"),
    # TRANSLATORS: a chart — the step was taken after the day the Act sets.
    "late": lambda tr: tr.gettext("Late"),
    # TRANSLATORS: a chart — the step is not yet taken and its day has passed.
    "overdue": lambda tr: tr.gettext("Overdue, not yet done"),
}


def timeliness_name(key: str, tr: Translator) -> str:
    """On time, late, or overdue, in words."""
    return str(_TIMELINESS[key](tr))


def chart_labels(tr: Translator, year: int, cases: int, received: int) -> dict[str, str]:
    """Titles, descriptions, series and axes of the four charts of ``year``; ``cases``
    is the number of cases brought, ``received`` the paise received in the year."""
    values = {"year": year, "n": cases, "amount": fmt.money(Money(received), tr.lang, sms=False)}
    return {
        # TRANSLATORS: the web desk — heading of the page of charts of a year.
        "page": tr.gettext("Charts of %(year)s") % values,
        # TRANSLATORS: s.7 — chart title: heads of cattle brought each month, by kind.
        "heads": tr.gettext("Cattle impounded each month, by kind (s.7)"),
        # TRANSLATORS: s.7 — chart description: the cases brought in the year.
        "heads_desc": tr.ngettext(
            "%(n)d case brought to the pound in %(year)s.",
            "%(n)d cases brought to the pound in %(year)s.",
            cases,
        )
        % values,
        # TRANSLATORS: a chart axis: a number of head of cattle.
        "heads_axis": tr.gettext("Head of cattle"),
        # TRANSLATORS: s.15(3)(b) — chart title: how many days the cattle stayed.
        "stay": tr.gettext("Days in the pound (s.15(3)(b))"),
        # TRANSLATORS: s.15(3)(b) — chart description: how the days are counted.
        "stay_desc": tr.gettext(
            "Cases by the days their cattle stayed, the first and the last day counted; "
            "cattle still in the pound counted up to today."
        ),
        # TRANSLATORS: a chart series: the cattle have left the pound.
        "left": tr.gettext("Left the pound"),
        # TRANSLATORS: a chart series: the cattle are still in the pound.
        "still": tr.gettext("Still in the pound"),
        # TRANSLATORS: a chart axis: a number of cases.
        "cases_axis": tr.gettext("Cases"),
        # TRANSLATORS: chart title: money received each month, by account of the ledger.
        "money": tr.gettext("Money received each month, by account"),
        # TRANSLATORS: chart description: the money received in the year.
        "money_desc": tr.gettext("Received in %(year)s: %(amount)s.") % values,
        # TRANSLATORS: a chart axis: rupees.
        "money_axis": tr.gettext("Rupees"),
        # TRANSLATORS: s.13(1), s.13(2) — chart title: reports and notices on time.
        "timely": tr.gettext("Reports (s.13(1)) and notices (s.13(2)) on time"),
        # TRANSLATORS: s.13(1), s.13(2) — chart description: what the bars count.
        "timely_desc": tr.gettext(
            "Cases whose report was due by the day after seven days in the pound (s.13(1)), "
            "and whose notice was due the day of the report (s.13(2)): on time, late, "
            "or overdue."
        ),
        # TRANSLATORS: s.13(1) — a chart category: the keeper's reports.
        "reports": tr.gettext("Reports (s.13(1))"),
        # TRANSLATORS: s.13(2) — a chart category: the officer's notices.
        "notices": tr.gettext("Notices (s.13(2))"),
    }
