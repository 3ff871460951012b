"""Every owner-facing SMS rendered on the worst case (``worst_case``), and the largest.

An owner-facing SMS is any reply an owner (or anyone who is not staff) can get by
SMS: HELP, the refusals of a line that is not a command, the application's refusals,
DUES, DEPOSIT, STATUS and FIND at every stage, LANG, STOP and START, the SMS sent on
impounding, when the auction is fixed and with the account, and the apology when a
message cannot be processed now. ``make messages-report`` prints the largest in
segments; ``tests/unit/test_render_sms.py`` holds every one to
``sms_fit.SMS_SEGMENT_BUDGET``.
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import Final

from bot.i18n.catalogs import Translator, translator
from bot.i18n.chrome.help import help_text
from bot.i18n.documents.account import account_sms
from bot.i18n.public.anyone import (
    lang_not_sent,
    lang_set,
    no_case_for_number,
    search_results,
    started,
    status_reply,
    stopped,
)
from bot.i18n.public.calls import more_cases_for_number
from bot.i18n.public.owner import (
    auction_cancelled_sms,
    auction_sms,
    deposit_reply,
    dues_reply,
    intake_sms,
)
from bot.i18n.refusals.errors import app_error, error, reasons, try_again_later
from bot.i18n.refusals.parse import PARSE_CODES, parse_error
from bot.i18n.sms_keyword import WORST_KEYWORD, keyword_in_sms
from bot.services.public import Outcome, PublicCase, facts_of
from bot.support.errors import (
    AppError,
    BadInputError,
    InviteInvalidError,
    NoAccountError,
    NoReceiptError,
    NotAllowedError,
    UnknownCaseError,
    UnknownPoundError,
    UnknownUserError,
    VoidedCaseError,
)
from bot.support.sms_segments import Segments, segments
from domain import errors as domain_errors
from domain.case import Case
from domain.s04_s11_dues import dues_on
from domain.s14_deposit import deposit_for
from domain.stages import IN_POUND_STAGES, Stage
from domain.statement import Statement, statement
from domain.tariff import Tariff
from i18n_tools.worst_case import (
    CASE_NUMBER,
    STARTS,
    Places,
    Stop,
    daily_charge,
    longest_kinds,
    part_sales,
    places,
    timeline,
    worst_tariff,
)

__all__ = ["app_errors", "domain_errors_of", "largest_sms", "owner_sms"]

#: What a person typed, echoed back in an error (cut to ``ECHO_LIMIT`` by the renderer).
_TYPED: Final = {"word": "X" * 40, "text": "9" * 40}


def app_errors() -> list[AppError]:
    """One error of every application code an owner can meet, with the longest facts."""
    return [
        NotAllowedError(),
        UnknownCaseError(number="9" * 40),
        UnknownPoundError(),
        UnknownUserError(),
        InviteInvalidError(),
        BadInputError(**_TYPED),
        VoidedCaseError(number="9" * 40),
        NoAccountError(number="9" * 40),
        NoReceiptError(number="9" * 40),
        AppError(),  # a code no renderer knows: the generic sentence
    ]


#: The shapes of a provision a refusal cites (each a different text of the template):
#: a proviso (the longest), a section, the General Clauses Act, none.
PROVISIONS: Final = ("s.13(3) proviso", "s.13(1)", "GCA s.8", None)


def domain_errors_of() -> list[domain_errors.DomainError]:
    """One error of every domain code (and the generic one) citing each shape of
    provision (``PROVISIONS``), the longest first."""
    classes = [getattr(domain_errors, name) for name in domain_errors.__all__]
    return [
        cls("detail", provision)
        for cls in classes
        if isinstance(cls, type) and issubclass(cls, domain_errors.DomainError)
        for provision in PROVISIONS
    ]


#: Worst-case facts of a refusal's reason (``bot.i18n.refusals.errors._REASONS``): every key any
#: reason is written with; a reason takes the ones its text names.
_REASON_FACTS: Final[dict[str, domain_errors.Fact]] = {
    "date": date(2026, 9, 30),
    "corrected": date(2026, 9, 30),
    "seized": date(2026, 9, 29),
    "count": 9999,
    "lot": 9,
    "name": "Kunhammed Haji Puthiyaveettil",
    "names": "Kunhammed Haji, Fathima Beevi",
    "who": "Panchayat Secretary",
    "now": "23:59",
    "time": "23:59",
}


def reasoned_errors_of() -> list[domain_errors.DomainError]:
    """A refusal for every reason a reply explains (``bot.i18n.refusals.errors.reasons``, the stage
    a step is not possible at, the unclaimed heads still unsold), citing each shape of
    provision: the words of each are a template of their own."""
    out: list[domain_errors.DomainError] = [
        domain_errors.TransitionRefusedError("detail", provision, reason=key, facts=_REASON_FACTS)
        for key in [*reasons(), "heads_unsold"]
        for provision in PROVISIONS
    ]
    out += [
        domain_errors.TransitionRefusedError(
            "detail",
            "s.13(1)",
            reason="stage",
            facts={"stage": stage.value, "date": date(2026, 9, 30)},
        )
        for stage in Stage
    ]
    return out


def _public(stop: Stop, where: Places) -> PublicCase:
    """The public facts of a worst-case case, as a search or STATUS gets them."""
    return facts_of(stop.case, where.pound)


def _left(case: Case, tariff: Tariff, on: date) -> Statement | None:
    """The statement DUES reads once the cattle have left the pound (what was paid,
    deposited or settled); none in the pound, where these replies render the dues alone."""
    return statement(case, tariff, on) if case.stage not in IN_POUND_STAGES else None


def _stage_replies(tr: Translator, start: date, where: Places) -> dict[str, str]:
    """DUES, DEPOSIT, STATUS, FIND and the owner's SMS on one worst-case timeline."""
    stops = timeline(tr, start, where)
    tariff = worst_tariff(longest_kinds(tr))
    first = stops["impounded, report ahead"].case
    month = f"{start:%b}"
    out = {
        f"{month} intake": intake_sms(
            first,
            dues_on(first, tariff, start),
            daily_charge(first, tariff, start),
            where.pound,
            tr,
        ),
        f"{month} auction": auction_sms(first.number, stops["selling"].day, where.place, tr),
        f"{month} auction cancelled": auction_cancelled_sms(first.number, stops["selling"].day, tr),
    }
    # The intake SMS is rendered on the day it is sent (``bot.notifications.case_messages``):
    # sent late, after the seven days unclaimed, it says the report is due.
    late = stops["reported"].day
    out[f"{month} intake (sent late)"] = intake_sms(
        first, dues_on(first, tariff, late), daily_charge(first, tariff, late), where.pound, tr
    )
    for label, day in (("in time", stops["on deposit"].day), ("too late", stops["reported"].day)):
        deposit = deposit_for(first, tariff, day)
        out[f"{month} deposit {label}"] = deposit_reply(deposit, first, tr, sms=True)
    for name, stop in stops.items():
        case, facts = stop.case, _public(stop, where)
        out[f"{month} dues {name}"] = dues_reply(
            dues_on(case, tariff, stop.day), case, tr, True, stated=_left(case, tariff, stop.day)
        )
        # As the server answers DUES: from the case's statement (cattle deemed unclaimed,
        # s.15(5): what the sale met and what the sale of the rest must meet).
        stated = statement(case, tariff, stop.day)
        out[f"{month} dues {name} (stated)"] = dues_reply(
            stated.dues, case, tr, True, stated=stated
        )
        outcome = Outcome(facts, stop.account)
        out[f"{month} status {name}"] = status_reply(outcome, tr, True, stated=stated)
        out[f"{month} status {name} (no case)"] = status_reply(outcome, tr, True)
        # The stage's dated wordings, on its day and once every day in it is past.
        later = stop.day + timedelta(days=400)
        for when, on in (("dated", stop.day), ("long after", later)):
            dated = Outcome(facts, stop.account, case, on)
            stated_on = statement(case, tariff, on)
            out[f"{month} status {name} ({when})"] = status_reply(dated, tr, True, stated=stated_on)
            out[f"{month} dues {name} ({when})"] = dues_reply(
                dues_on(case, tariff, on), case, tr, True, stated=_left(case, tariff, on)
            )
            deposit = deposit_for(case, tariff, on)
            out[f"{month} deposit {name} ({when})"] = deposit_reply(deposit, case, tr, sms=True)
        if stop.account is not None:
            out[f"{month} account {name}"] = account_sms(stop.account, tr)
    # DUES during the sale on the owner's refusal, with what the proceeds met (s.15(2)):
    # all of the dues, a part with heads left, a part with none; the rest paid (s.12).
    day = stops["selling"].day
    sales = {"met": stops["selling"].case, **part_sales(tr, start, where)}
    for name, case in sales.items():
        stated = statement(case, tariff, day)
        out[f"{month} dues during the sale, {name}"] = dues_reply(
            stated.dues, case, tr, True, stated=stated
        )
        if stated.account is not None:
            out[f"{month} account, {name}"] = account_sms(stated.account, tr)
    # The rest of a refused account (s.15(5)): DUES and STATUS read the statement for
    # what the owner may still pay until a head of their sale is sold (s.12).
    rest = stops["account refused, the rest unclaimed"]
    stated = statement(rest.case, tariff, rest.day)
    out[f"{month} dues the rest unclaimed (stated)"] = dues_reply(
        stated.dues, rest.case, tr, True, stated=stated
    )
    dated = Outcome(_public(rest, where), stated.account, rest.case, rest.day, stated)
    out[f"{month} status the rest unclaimed (stated)"] = status_reply(dated, tr, True)
    found = [_public(stops["impounded, report ahead"], where)] * 6
    for n in (1, 2, 6):
        out[f"{month} search {n}"] = search_results(found[:n], tr, True)
    return out


def owner_sms(lang: str, tr: Translator | None = None) -> dict[str, str]:
    """Every owner-facing SMS in ``lang`` on the worst-case data, by name (through
    ``tr`` when given: ``i18n_tools.dlt_templates`` probes with its own)."""
    with keyword_in_sms(WORST_KEYWORD, everywhere=True):  # as on Mobile Seva
        return _owner_sms(tr or translator(lang))


def _owner_sms(tr: Translator) -> dict[str, str]:
    where = places()
    out = {"help": help_text("public", tr, sms=True, example=CASE_NUMBER)}
    for code in [*sorted(PARSE_CODES), "not_a_code"]:
        out[f"parse {code}"] = parse_error(code, _TYPED, tr)
    for exc in app_errors():
        out[f"app error {exc.code}"] = app_error(exc, tr)
    for dom in domain_errors_of():
        out[f"domain error {dom.code} {dom.provision}"] = error(dom, tr)
    for dom in reasoned_errors_of():
        out[f"domain error {dom.code} {dom.reason} {dom.facts.get('stage')} {dom.provision}"] = (
            error(dom, tr)
        )
    for start in STARTS:
        out |= _stage_replies(tr, start, where)
    out |= {
        "lang": lang_set(tr),
        "lang not sent here": lang_not_sent(("en", "ml", "ta"), tr),
        "stop": stopped(tr),
        "start": started(tr),
        "try again later": try_again_later(tr),
        "missed call, no case": no_case_for_number(tr),
        # The last SMS of the answer to a missed call from a number many cases name (the
        # status of each of the newest is an SMS of its own: ``status_reply`` above).
        "missed call, more cases": more_cases_for_number(997, tr),
        "search none": search_results([], tr, True),
    }
    return out


def largest_sms(lang: str) -> tuple[str, str, Segments]:
    """The owner-facing SMS of ``lang`` that takes the most segments (then units)."""
    replies = owner_sms(lang)
    name = max(replies, key=lambda n: (segments(replies[n]).segment_count, len(replies[n])))
    return name, replies[name], segments(replies[name])
