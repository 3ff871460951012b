"""The printable documents of the web desk, each as an A4 page and as CSV:

- ``/web/documents/``: the list, with the month and (for a state admin) the authority;
- ``/web/documents/account/{case}``: the s.15(3) account, in the pound's languages;
- ``/web/documents/receipt/{case}``: the s.15(4) receipt, in the pound's languages;
- ``/web/documents/deposits``: the deposit register (s.16(3));
- ``/web/documents/cases?month=YYYY-MM``: the cases brought in a month (s.7);
- ``/web/documents/ledger?month=YYYY-MM``: the ledger by provision, with totals.

A ``.csv`` ending or ``?format=csv`` gives the CSV. The data come from the use cases
(``bot.services.documents``); an officer or an authority admin reads their authority, a
keeper their pound, a state admin every one (``?authority=`` narrows).

Why it is long: each document is a page and a CSV of the same figures, written side by
side so that the two cannot tell different stories.
"""

from __future__ import annotations

from datetime import date
from urllib.parse import urlencode

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from bot.adapters.export import LEDGER_HEADER, kinds_text, ledger_record, rupees
from bot.config.names import local
from bot.i18n import Translator, fmt, translator
from bot.i18n.common import cattle, cite
from bot.i18n.documents.account import account_text, receipt_text
from bot.i18n.documents.documents import account_name, document_labels
from bot.i18n.stage_text import case_sentence
from bot.services import documents as docs
from bot.services.base import act_in_force
from bot.services.officer import DepositEntry
from bot.services.runtime import App
from bot.support.caller import Caller
from bot.support.csv_sheet import Table
from bot.support.errors import BadInputError
from bot.web.printing import GetCaller, Handler, csv_response, guarded, not_found, page, wants_csv
from bot.web.templating import language_of
from domain.events import SaleClosed
from domain.money import Money
from domain.s15_3_account import Receipt, Stay

__all__ = ["document_routes", "register_record"]

_BLANK = "____________________"

REGISTER_HEADER = (
    "number",
    "pound",
    "impounded_on",
    "place_seized",
    "kinds",
    "heads",
    "stage",
    "stage_since",
    "days_in_pound",
    "heads_sold",
    "heads_disposed",
)
DEPOSIT_HEADER = ("number", "amount_rupees", "deposited_on", "claims_until", "credit_from")
ACCOUNT_HEADER = ("case", "item", "provision", "value")


def _money(paise: int, lang: str) -> str:
    return fmt.money(Money(paise), lang, sms=False)


def _authority_param(request: Request) -> str | None:
    return request.query_params.get("authority") or None


def _month_param(request: Request, today: date) -> tuple[date, date] | None:
    text = request.query_params.get("month", "")
    if not text:
        return docs.month_range(today.year, today.month)
    try:
        year, month = (int(part) for part in text.split("-"))
        return docs.month_range(year, month)
    except (ValueError, BadInputError):
        return None


def _of_scope(request: Request, app: App, caller: Caller, authority: str | None) -> Translator:
    """The person's translator, in the words of the Act in force today for the
    authority a document is of (of every authority, an admin's: the default Act); its
    lines about one case each in their own case's words."""
    tr = translator(language_of(request, caller, app.config))
    return tr.under(act_in_force(app.config, authority, app.deps.today()))


def _base(app: App, tr: Translator, title: str, authority: str | None = None) -> dict[str, object]:
    labels = document_labels(tr)
    today = app.deps.today()
    return {
        "lang": tr.lang,
        "title": title,
        "labels": labels,
        "printed": labels["printed"] % {"date": fmt.date(today, tr.lang)},
        "authority_name": local(app.config.authorities[authority].name, tr.lang)
        if authority
        else "",
    }


# -- the list ------------------------------------------------------------------------


async def _index(request: Request, app: App, caller: Caller) -> Response:
    scope = docs.scope_of(app.deps, caller, _authority_param(request))
    tr = _of_scope(request, app, caller, scope.authority)
    today = app.deps.today()
    context = _base(app, tr, document_labels(tr)["documents"], scope.authority)
    context.update(
        month=f"{today.year:04d}-{today.month:02d}",
        authority=scope.authority or "",
        # The choice of an authority: a state admin's alone (an authority admin's is theirs).
        authorities=sorted(app.config.authorities.items()) if caller.is_state_admin else [],
        is_admin=caller.is_state_admin,
        sample_case=_sample_case(app, caller, scope.authority),
    )
    return page(request, "documents/index.html", context)


def _sample_case(app: App, caller: Caller, authority: str | None) -> str:
    """A case number to show in the form: of the keeper's pound, else of the first pound
    of the authority shown, else of the first pound configured."""
    pounds = app.config.pounds
    of_authority = (code for code, p in pounds.items() if p.authority == authority)
    pound = caller.pound or next(of_authority, None) or next(iter(pounds), "KNM")
    return f"{pound}-17"


async def _find_case(request: Request, app: App, caller: Caller) -> Response:
    """The list's form: a case number typed, sent on to its account or receipt."""
    number = request.query_params.get("case", "").strip().upper().replace(" ", "-")
    wanted = request.query_params.get("what")
    what = wanted if wanted in ("receipt", "notice") else "account"
    async with app.store.transaction() as tx:
        loaded = await docs.case_for(tx, app.deps, caller, number)
    if what == "notice":  # the desk sends it on to the signed, printable notice
        return RedirectResponse(f"/web/cases/{loaded.row.number}/notice", status_code=303)
    return RedirectResponse(f"/web/documents/{what}/{loaded.row.number}", status_code=303)


# -- the account and the receipt of a case ---------------------------------------------


async def _account(request: Request, app: App, caller: Caller) -> Response:
    return await _case_document(request, app, caller, "account")


async def _receipt(request: Request, app: App, caller: Caller) -> Response:
    return await _case_document(request, app, caller, "receipt")


async def _case_document(request: Request, app: App, caller: Caller, what: str) -> Response:
    """The s.15(3) account or the s.15(4) receipt of a case, one block per language of
    its pound (as the s.13(2) notice prints), or as CSV."""
    number, as_csv = wants_csv(request, request.path_params["number"])
    read = docs.account_document if what == "account" else docs.receipt_document
    async with app.store.transaction() as tx:
        document = await read(tx, app.deps, caller, number)
    case_number = document.loaded.row.number
    if as_csv:
        return csv_response(_case_csv(document, what), f"{case_number}-{what}.csv")
    pound = app.config.pounds[document.loaded.pound]
    authority = app.config.authorities[pound.authority]
    receipt = document.receipt or Receipt(
        case_number,
        _BLANK,
        app.deps.today(),
        document.account.cattle_remaining,
        document.account.balance,
    )
    blocks = []
    for lang in dict.fromkeys(pound.languages):
        tr = translator(lang).under(document.case.profile)  # in the words of its Act
        if what == "account":
            text = account_text(document.account, tr, app.config.kinds)
        else:
            text = receipt_text(receipt, tr)
        heading, *lines = text.split("\n")
        blocks.append(
            {
                "lang": lang,
                "heading": heading,
                "authority": local(authority.name, lang),
                "pound": local(pound.name, lang),
                "lines": [(line.startswith("  - "), line.removeprefix("  - ")) for line in lines],
            }
        )
    # The document is in the pound's languages; the menu in the person's.
    tr = translator(language_of(request, caller, app.config)).under(document.case.profile)
    context = _base(app, tr, str(blocks[0]["heading"]), pound.authority)
    context.update(
        blocks=blocks,
        csv_href=f"/web/documents/{what}/{case_number}.csv",
    )
    return page(request, "documents/case.html", context)


def _stay_rows(number: str, stays: tuple[Stay, ...]) -> list[list[str]]:
    """Each lot that left the pound (s.15(3)(b)): its heads, then its days, by how and
    when it left (``heads_sold:2026-11-23``, ``days_sold:2026-11-23``)."""
    rows = []
    for stay in stays:
        when = f"{stay.left.value}:{stay.until.isoformat()}"
        rows.append([number, f"heads_{when}", "s.15(3)(b)", str(stay.heads)])
        rows.append([number, f"days_{when}", "s.15(3)(b)", str(stay.days)])
    return rows


def _case_csv(document: docs.AccountDocument, what: str) -> Table:
    account = document.account
    number = account.case_number
    if what == "receipt":
        receipt = document.receipt
        rows = [
            [number, "received_by", "s.15(4)", receipt.received_by if receipt else ""],
            [number, "received_on", "s.15(4)", receipt.on.isoformat() if receipt else ""],
            [number, "cattle_received", "s.15(4)", str(account.cattle_remaining)],
            [number, "balance_rupees", "s.15(4)", rupees(account.balance.paise)],
        ]
        return Table(ACCOUNT_HEADER, rows)
    rows = [
        [number, "cattle_seized", "s.15(3)(a)", str(account.cattle_seized)],
        [number, "impounded_from", "s.15(3)(b)", account.impounded_from.isoformat()],
        [number, "impounded_until", "s.15(3)(b)", account.impounded_until.isoformat()],
        [number, "days_impounded", "s.15(3)(b)", str(account.days_impounded)],
        *_stay_rows(number, account.stays),
        [number, "fines_and_charges_rupees", "s.15(3)(c)", rupees(account.fines_and_charges.paise)],
        *(
            [number, f"{line.item.value}:{line.kind}", line.provision, rupees(line.amount.paise)]
            for line in account.dues.lines
        ),
        [number, "cattle_sold", "s.15(3)(d)", str(account.cattle_sold)],
        [number, "cattle_disposed_otherwise", "s.13(3) proviso", str(account.cattle_disposed)],
        [number, "proceeds_rupees", "s.15(3)(e)", rupees(account.proceeds.paise)],
        *(
            [number, f"to:{part.payee.value}", part.provision, rupees(part.amount.paise)]
            for part in account.disposal
        ),
        [number, "cattle_remaining", "s.15(3)", str(account.cattle_remaining)],
        [number, "balance_rupees", "s.15(3)", rupees(account.balance.paise)],
    ]
    return Table(ACCOUNT_HEADER, rows)


# -- the deposit register -------------------------------------------------------------


async def _deposits(request: Request, app: App, caller: Caller) -> Response:
    authority = _authority_param(request)
    async with app.store.transaction() as tx:
        scope = docs.scope_of(app.deps, caller, authority)
        entries = await docs.deposit_register_for(tx, app.deps, caller, authority)
    tr = _of_scope(request, app, caller, scope.authority)
    if request.url.path.endswith(".csv") or request.query_params.get("format") == "csv":
        rows = [
            [
                e.number,
                rupees(e.amount.paise),
                e.deposited_on.isoformat(),
                e.window_end.isoformat() if e.window_end else "",
                e.credit_from.isoformat() if e.credit_from else "",
            ]
            for e in entries
        ]
        return csv_response(Table(DEPOSIT_HEADER, rows), "deposit-register.csv")
    today = app.deps.today()
    labels = document_labels(tr)

    def rest(entry: DepositEntry) -> str:
        # TRANSLATORS: s.15(5), s.16(3) — in the deposit register, for the balance of a
        # refused account: the three months start only once the rest of the cattle are sold.
        return tr.under(entry.act).gettext("from the settlement of the rest (s.15(5))")

    context = _base(app, tr, labels["deposit_register"], scope.authority)
    context.update(
        rows=[
            {
                "number": e.number,
                "amount": _money(e.amount.paise, tr.lang),
                "deposited": fmt.date(e.deposited_on, tr.lang),
                "until": fmt.date(e.window_end, tr.lang) if e.window_end else rest(e),
                "credit_from": fmt.date(e.credit_from, tr.lang) if e.credit_from else rest(e),
                "ended": e.window_end is not None and today > e.window_end,
            }
            for e in entries
        ],
        total=_money(sum(e.amount.paise for e in entries), tr.lang),
        csv_href=_csv_href(request),
    )
    return page(request, "documents/deposits.html", context)


def _csv_href(request: Request) -> str:
    query = {k: v for k, v in request.query_params.items() if k != "format"}
    query["format"] = "csv"
    return f"{request.url.path}?{urlencode(query)}"


# -- the monthly register of cases ---------------------------------------------------


def register_record(row: docs.RegisterRow) -> list[str]:
    """A case's line of the register's CSV export (``REGISTER_HEADER``), from its figures:
    the days impounded (s.15(3)(b)), heads sold and disposed of otherwise, apart."""
    loaded, case, figures = row.loaded, row.case, row.figures
    days = figures.days_impounded
    return [
        loaded.row.number,
        loaded.pound,
        case.seizure.impounded_on.isoformat(),
        case.seizure.place_seized,
        kinds_text((lot.kind, lot.count) for lot in case.seizure.lots),
        str(case.seizure.head_count),
        case.stage.value,
        case.stage_since.isoformat(),
        "" if days is None else str(days),
        str(figures.sold),
        str(figures.disposed),
    ]


async def _cases(request: Request, app: App, caller: Caller) -> Response:
    today = app.deps.today()
    months = _month_param(request, today)
    if months is None:
        return not_found()
    start, end = months
    authority = _authority_param(request)
    async with app.store.transaction() as tx:
        scope = docs.scope_of(app.deps, caller, authority)
        cases = await docs.case_register(tx, app.deps, caller, start, end, authority)
    if request.url.path.endswith(".csv") or request.query_params.get("format") == "csv":
        rows = [register_record(row) for row in cases]
        return csv_response(Table(REGISTER_HEADER, rows), f"cases-{start:%Y-%m}.csv")
    tr = _of_scope(request, app, caller, scope.authority)
    labels = document_labels(tr)
    title = f"{labels['case_register']} — {fmt.month(start, tr.lang)}"
    context = _base(app, tr, title, scope.authority)
    rows_html = []
    gone = [0, 0]  # heads sold, heads disposed of otherwise
    for row in cases:
        loaded, case, figures = row.loaded, row.case, row.figures
        days = figures.days_impounded
        gone = [gone[0] + figures.sold, gone[1] + figures.disposed]
        rows_html.append(
            {
                "number": loaded.row.number,
                "brought": fmt.date(case.seizure.impounded_on, tr.lang),
                "place": case.seizure.place_seized,
                "cattle": cattle(case.seizure.lots, tr, app.config.kinds),
                "stands": case_sentence(case, tr.under(case.profile)),
                "days": "" if days is None else str(days),
                "sold": figures.sold,
                "disposed": figures.disposed,
                "account": case.last(SaleClosed) is not None,
            }
        )
    context.update(
        rows=rows_html,
        cases=len(cases),
        heads=sum(c.case.seizure.head_count for c in cases),
        sold=gone[0],
        disposed=gone[1],
        csv_href=_csv_href(request),
    )
    return page(request, "documents/cases.html", context)


# -- the ledger by provision ---------------------------------------------------------


async def _ledger(request: Request, app: App, caller: Caller) -> Response:
    months = _month_param(request, app.deps.today())
    if months is None:
        return not_found()
    start, end = months
    authority = _authority_param(request)
    async with app.store.transaction() as tx:
        scope = docs.scope_of(app.deps, caller, authority)
        ledger = await docs.ledger_document(tx, app.deps, caller, start, end, authority)
    if request.url.path.endswith(".csv") or request.query_params.get("format") == "csv":
        table = Table(LEDGER_HEADER, [ledger_record(line) for line in ledger.lines])
        return csv_response(table, f"ledger-{start:%Y-%m}.csv")
    tr = _of_scope(request, app, caller, scope.authority)
    labels = document_labels(tr)
    title = f"{labels['ledger']} — {fmt.month(start, tr.lang)}"
    context = _base(app, tr, title, scope.authority)
    acts = ledger.acts

    def under(number: str) -> Translator:  # a line in the words of its case's Act
        return tr.under(acts.get(number, tr.act))

    def cited(group: docs.ProvisionTotal) -> str:
        """The provision of a group as the Acts of its cases cite it (one, or each)."""
        each = (cite(group.provision, under(line.case_number)) for line in group.lines)
        return " / ".join(dict.fromkeys(each)) or cite(group.provision, tr)

    context.update(
        provisions=[
            {
                "provision": cited(group),
                "code": group.provision,
                "lines": [
                    {
                        "date": fmt.date(line.on, tr.lang),
                        "case": line.case_number,
                        "account": account_name(line.account, under(line.case_number)),
                        "amount": _money(line.amount_paise, tr.lang),
                        "paise": line.amount_paise,
                    }
                    for line in group.lines
                ],
                "accounts": [(account_name(a, tr), _money(p, tr.lang)) for a, p in group.accounts],
                "total": _money(group.total, tr.lang),
                "total_paise": group.total,
            }
            for group in ledger.provisions
        ],
        accounts=[(account_name(a, tr), _money(p, tr.lang), p) for a, p in ledger.accounts],
        total=_money(ledger.total, tr.lang),
        total_paise=ledger.total,
        csv_href=_csv_href(request),
    )
    return page(request, "documents/ledger.html", context)


def document_routes(get_caller: GetCaller) -> list[Route]:
    """The routes of the printable documents; ``get_caller`` says who is signed in."""

    def route(path: str, handler: Handler) -> Route:
        return Route(path, guarded(get_caller, handler), methods=["GET"])

    return [
        route("/web/documents/", _index),
        route("/web/documents/find", _find_case),
        route("/web/documents/account/{number}", _account),
        route("/web/documents/receipt/{number}", _receipt),
        route("/web/documents/deposits", _deposits),
        route("/web/documents/deposits.csv", _deposits),
        route("/web/documents/cases", _cases),
        route("/web/documents/cases.csv", _cases),
        route("/web/documents/ledger", _ledger),
        route("/web/documents/ledger.csv", _ledger),
    ]
