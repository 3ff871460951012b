"""Every SMS to a pound-keeper, an officer or an admin, rendered on the worst case.

A keeper or an officer who writes by SMS is answered by SMS: the reply to every word
(SEIZE, PAID, DEPOSITED, REPORT, REFUSED, CASES, CORRECT, VOID, NOTICE, AUCTION,
SOLD, UNSOLD, SETTLE, RECEIPT, ACCOUNT REFUSED, CLAIM, CLAIMED, REJECT, DISPOSE,
OUTCOME, REFUNDED, FUND, DUE, PHOTO, WEB, STOP) and its refusals; and poundbot writes
to them on its own: the REPORT of unclaimed cattle to the officers (s.13(1)), the
morning digest of deadlines, the alert that reminders could not be sent, the alert that
answers to the public are held back. Each is
rendered on the worst-case data (``worst_case``): the longest pound name and place,
the longest kinds, amounts over a lakh, September dates.

``i18n_tools.dlt_templates`` registers every one as a DLT template; the test that
renders every template holds each to its own registered text, the slot limit and
``sms_fit.STAFF_SMS_SEGMENTS``.

Why it is long: every SMS to a keeper, an officer or an admin, rendered on its worst
case.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import date, datetime, timedelta
from typing import Final

from bot.i18n.catalogs import Translator, translator
from bot.i18n.chrome.help import help_text
from bot.i18n.chrome.web import web_link, web_link_unavailable, with_board_links
from bot.i18n.dlt_probe import rendering_sms
from bot.i18n.documents.account import receipt_text
from bot.i18n.keepers.keeper import (
    SMS_LIST_MOST,
    OwnerSms,
    case_voided,
    correction_recorded,
    deposit_recorded,
    open_cases,
    owner_refusal_recorded,
    owner_sms_line,
    owners_sms_lines,
    paid_after_part_sale,
    payment_recorded,
    report_sent,
    seizure_ack,
)
from bot.i18n.keepers.photos import (
    photo_already_kept,
    photo_link,
    photo_missing,
    photo_no_case,
    photo_no_lot,
    photo_refused,
    photo_send_now,
    photos_kept,
)
from bot.i18n.officers.alerts import answers_held_back
from bot.i18n.officers.deposit import (
    account_refused_reply,
    claim_preferred_recorded,
    claim_recorded,
    claim_rejected_recorded,
    deposit_outcome_recorded,
    deposit_register_text,
    fund_credited,
    refund_recorded,
)
from bot.i18n.officers.officer import (
    auction_scheduled,
    notice_ready,
    notice_recorded,
    report_to_officer,
)
from bot.i18n.officers.reminders import digest, reminders_troubled
from bot.i18n.officers.sale import lot_recorded, other_disposal_recorded, sale_short, settled_reply
from bot.i18n.public.anyone import search_results, staff_stopped
from bot.i18n.public.sms_fit import in_parts
from bot.i18n.refusals.errors import error, too_many_messages
from bot.i18n.sms_keyword import WORST_KEYWORD, keyword_in_sms
from bot.services.keeper import OpenCase
from bot.services.officer import DepositEntry
from bot.services.public import facts_of
from bot.store.models import CaseRow
from bot.store.tx import LoadedCase
from domain.calendar import LOCAL_TZ
from domain.case import Case
from domain.deadlines import deadlines
from domain.errors import DuesUnmetError, TransitionRefusedError
from domain.events import ClaimPreferred, ClaimRejected, DepositRefunded, SeizureCorrected
from domain.figures import figures_of
from domain.money import Money
from domain.profiles import CATTLE_TRESPASS_1871, PROFILES
from domain.s04_s11_dues import dues_on
from domain.s13_3_proviso import dispose_otherwise
from domain.s15_3_account import account_for, receipt_for
from domain.s15_sale import SaleProgress, close_sale, offer_lot, sale_progress
from domain.statement import Statement, dates_of, statement
from domain.tariff import Tariff
from i18n_tools.worst_case import (
    CASE_NUMBER,
    HEADS,
    STARTS,
    Places,
    Stop,
    daily_charge,
    longest_kinds,
    part_sales,
    places,
    sell,
    timeline,
    worst_tariff,
)

__all__ = ["staff_sms"]

_FAR: Final = date(2027, 12, 31)
_EXPENSES: Final = Money.rupees("1234.50")
#: A reason of a correction as long as a keeper writes one.
_REASON: Final = "the owner's name and the place were written wrongly at intake"
#: The longest sign-in link poundbot writes (the public URL, the path and a token).
_URL: Final = "https://poundbot.kunnamangalam.lsgkerala.gov.in/web/signin/" + "x" * 43
#: The longest link to a printable notice (the case, the day and a signature).
_NOTICE_URL: Final = (
    "https://poundbot.kunnamangalam.lsgkerala.gov.in/notice/KNM-12345/2026-09-12/" + "x" * 22
)
#: The longest link to a photo.
_PHOTO_URL: Final = "https://poundbot.kunnamangalam.lsgkerala.gov.in/photo/123456/" + "x" * 22

#: When answers to the public held back go again: a late hour, a long clock time.
_HELD_UNTIL: Final = datetime(2026, 9, 12, 23, 0, tzinfo=LOCAL_TZ)


def _listed(case: Case, day: date, tr: Translator) -> OpenCase:
    """An open case as the keeper's CASES lists it."""
    row = CaseRow(
        number=case.number,
        pound_code=case.seizure.pound,
        seq=int(case.number.rsplit("-", 1)[1]),
        stage=case.stage.value,
        impounded_on=case.seizure.impounded_on,
        place_seized=case.seizure.place_seized,
    )
    tariff = worst_tariff(longest_kinds(tr))
    return OpenCase(LoadedCase(row, case), figures_of(statement(case, tariff, day)))


def _cases(tr: Translator, stops: dict[str, Stop], month: str) -> dict[str, str]:
    """CASES with every mark (report overdue, due today, both, none) and every length
    of list an SMS gives (1 to ``SMS_LIST_MOST`` cases, with and without "and N more")."""
    opened = stops["impounded, report ahead"].case
    overdue = _listed(opened, stops["impounded, report due"].day, tr)
    today = _listed(opened, dates_of(opened).report_on, tr)
    others = [
        _listed(stops[name].case, stops[name].day, tr)
        for name in ("impounded, report ahead", "reported", "notice posted", "selling")
    ] * 2
    marked = {"none": [], "overdue": [overdue], "today": [today], "both": [overdue, today]}
    out = {f"{month} cases none": open_cases([], tr, True)}
    for mark, first in marked.items():
        for n in (*range(1, SMS_LIST_MOST + 1), SMS_LIST_MOST + 2):
            if n < len(first):
                continue
            items = [*first, *others][:n]
            out[f"{month} cases {mark} {n}"] = open_cases(items, tr, True)
    return out


def _corrections(tr: Translator, stops: dict[str, Stop], month: str) -> dict[str, str]:
    """CORRECT before the report, and after the notice (which it supersedes, with the
    auction fixed on it or none), each alone and with what the owner is told
    (``bot.conversation.reply`` joins the two)."""
    out = {}
    tariff = worst_tariff(longest_kinds(tr))
    for name, supersedes in (
        ("impounded, report ahead", False),
        ("notice posted", True),
        ("s.13(3) auction fixed", True),
    ):
        stop = stops[name]
        corrected = SeizureCorrected(
            on=stop.day, seizure=stop.case.seizure, reason=_REASON, supersedes_notice=supersedes
        )
        case = stop.case.apply(corrected, _FAR)
        text = correction_recorded(statement(case, tariff, stop.day), tr, True)
        out[f"{month} correct {name}"] = text
        told: OwnerSms
        for told in ("queued", "opted_out", "no_number"):
            out[f"{month} correct {name} {told}"] = in_parts([text, owner_sms_line(told, tr)])
            # A lot's owner corrected in a case of more than one owner (OWNER LOT n).
            lot_told = owners_sms_lines((((2,), told),), tr)
            out[f"{month} correct {name} {told} lot"] = in_parts([text, lot_told])
    return out


def _every_progress(
    stated: Statement, progress: SaleProgress, month: str, tr: Translator
) -> dict[str, str]:
    """The sale's progress after a lot every way it can stand: on the owner's refusal
    (s.15(1)) or unclaimed (s.13(3)), heads remaining or none, the dues met or not; each
    sentence is an SMS of its own (``bot.i18n.officers.sale.lot_recorded``)."""
    out = {}
    for provision in ("s.15(1)", "s.13(3)"):
        for stop in (False, True):
            for owed in (Money.zero(), progress.dues.total):
                shown = replace(progress, provision=provision, stop=stop, still_owed=owed)
                label = f"{month} sold, {provision}, stop {stop}, owed {bool(owed)}"
                out[label] = lot_recorded(stated, shown, tr)
    return out


def _rejections(
    preferred: Case, tariff: Tariff, held_on: date, month: str, tr: Translator
) -> dict[str, str]:
    """REJECT of a claim named or the only one pending, with other claims still pending
    or none, within the three months and after them."""
    out = {}
    two = preferred.apply(
        ClaimPreferred(on=held_on + timedelta(days=6), claimant="Kunhammed Haji Puthiyapurayil"),
        _FAR,
    )
    for after in (9, 120):
        on = held_on + timedelta(days=after)
        named = two.apply(ClaimRejected(on=on, reference="Ref-123456/2026", claimant="C"), _FAR)
        out[f"{month} reject named, one pending, day {after}"] = claim_rejected_recorded(
            statement(named, tariff, on), tr
        )
        alone = preferred.apply(ClaimRejected(on=on, reference="Ref-123456/2026"), _FAR)
        out[f"{month} reject, none pending, day {after}"] = claim_rejected_recorded(
            statement(alone, tariff, on), tr
        )
    return out


def _register(held: Case, month: str, tr: Translator) -> dict[str, str]:
    """REGISTER: nothing held; and every kind of entry (the balance of a refused account,
    claims open, a claim pending, the three months over)."""
    since = held.last_event_on
    amount = Money.rupees("123456.75")
    claim = ClaimPreferred(on=since, claimant="Kunhammed Haji Puthiyapurayil")
    entries = [
        DepositEntry(CASE_NUMBER, amount, since, None, None),
        DepositEntry(CASE_NUMBER, amount, since, since + timedelta(days=91), since),
        DepositEntry(CASE_NUMBER, amount, since, since + timedelta(days=91), since, claim),
        DepositEntry(CASE_NUMBER, amount, since, since - timedelta(days=1), since),
    ]
    today = since + timedelta(days=3)
    return {
        f"{month} register none": deposit_register_text([], today, tr),
        f"{month} register": deposit_register_text(entries, today, tr),
    }


def _timeline_replies(tr: Translator, start: date, where: Places) -> dict[str, str]:
    stops = timeline(tr, start, where)
    tariff = worst_tariff(longest_kinds(tr))
    month = f"{start:%b}"
    opened = stops["impounded, report ahead"]
    first = opened.case
    out: dict[str, str] = {}
    told: OwnerSms
    for told in ("queued", "opted_out", "no_number"):
        out[f"{month} seize {told}"] = seizure_ack(
            first,
            dues_on(first, tariff, start),
            daily_charge(first, tariff, start),
            tr,
            True,
            owner_sms=told,
        )
        # Cattle of more than one owner: each owner's lots and SMS, each way first.
        out[f"{month} seize owners {told}"] = seizure_ack(
            first,
            dues_on(first, tariff, start),
            daily_charge(first, tariff, start),
            tr,
            True,
            owner_sms=told,
            owners=(((1,), told), ((2, 3), "queued"), ((4,), "no_number")),
        )
    out[f"{month} seize"] = seizure_ack(
        first, dues_on(first, tariff, start), daily_charge(first, tariff, start), tr, True
    )
    out |= _corrections(tr, stops, month)
    released = stops["released"]
    out[f"{month} paid"] = payment_recorded(
        released.case, dues_on(first, tariff, released.day), tr, True
    )
    on_deposit = stops["on deposit"]
    out[f"{month} deposited"] = deposit_recorded(
        on_deposit.case,
        dues_on(first, tariff, on_deposit.day),
        statement(on_deposit.case, tariff, on_deposit.day).complaint_by,
        tr,
        True,
        today=on_deposit.day,
    )
    reported = stops["reported"]
    out[f"{month} report"] = report_sent(statement(reported.case, tariff, reported.day), tr, True)
    out[f"{month} report to officer"] = report_to_officer(
        reported.case, where.pound, reported.day, tr
    )
    refused, voided = stops["owner refused"], stops["voided"]
    out[f"{month} refused"] = owner_refusal_recorded(
        statement(refused.case, tariff, refused.day), tr, True
    )
    out[f"{month} void"] = case_voided(statement(voided.case, tariff, voided.day), tr)
    out[f"{month} notice"] = notice_recorded(stops["notice posted"].case, tr)
    out[f"{month} auction s.13(3)"] = auction_scheduled(stops["s.13(3) auction fixed"].case, tr)
    out[f"{month} auction s.15(1)"] = auction_scheduled(stops["s.15(1) auction fixed"].case, tr)
    selling = stops["selling"]
    selling_stated = statement(selling.case, tariff, selling.day)
    out[f"{month} sold"] = lot_recorded(
        selling_stated, sale_progress(selling.case, tariff, selling.day, _EXPENSES), tr
    )
    out |= _every_progress(
        selling_stated, sale_progress(selling.case, tariff, selling.day), month, tr
    )
    held = stops["in deposit, unclaimed"]
    fixed = stops["s.13(3) auction fixed"].case
    sold_all = Stop(sell(fixed, held.day, list(enumerate(HEADS))), held.day)  # not settled
    out[f"{month} sold all"] = lot_recorded(
        statement(sold_all.case, tariff, held.day),
        sale_progress(sold_all.case, tariff, held.day, _EXPENSES),
        tr,
    )
    disposed = dispose_otherwise(
        fixed,
        lot=0,
        count=10,
        manner="given to a goshala",
        ordered_by="Director of Animal Husbandry",
        order_reference="DAH/123456/2026",
        proceeds=Money.rupees("120000.50"),
        on=held.day,
        today=_FAR,
        offices={"Director of Animal Husbandry": ("DIRECTOR",)},
    )
    out[f"{month} dispose"] = other_disposal_recorded(statement(disposed, tariff, held.day), tr)
    unsold = offer_lot(
        fixed,
        lot=0,
        count=48,
        price=None,
        buyer=None,
        buyer_role=None,
        declared_not_barred=False,
        on=held.day,
        today=_FAR,
    )
    out[f"{month} unsold"] = lot_recorded(
        statement(unsold, tariff, held.day), sale_progress(unsold, tariff, held.day, _EXPENSES), tr
    )
    # The rest paid after a part sale on the owner's refusal (s.12, s.15(1)).
    rest = part_sales(tr, start, where)["the rest paid"]
    out[f"{month} paid after part sale"] = paid_after_part_sale(
        statement(rest, tariff, selling.day), tr, True
    )
    short = Money.rupees("123456.75")
    out[f"{month} settle refused, dues unmet"] = error(
        DuesUnmetError("detail", "s.15(1)", short=short, proceeds=short, heads=109), tr
    )
    out[f"{month} settle short"] = sale_short(
        selling.case, _EXPENSES * 1000, Money.rupees("123456.75"), tr
    )
    # Every head sold, and the proceeds short of the dues: the rest not met (s.15(2)).
    closed, unmet = close_sale(
        sold_all.case, tariff, on=held.day, expenses=sold_all.case.proceeds, today=_FAR
    )
    out[f"{month} settle unmet"] = settled_reply(unmet, account_for(closed, unmet, held.day), tr)
    for name, before in (("account due", selling), ("in deposit, unclaimed", sold_all)):
        stop = stops[name]
        _, settlement = close_sale(
            before.case, tariff, on=before.day, expenses=_EXPENSES, today=_FAR
        )
        assert stop.account is not None
        out[f"{month} settle {name}"] = settled_reply(settlement, stop.account, tr)
        receipt = receipt_for(stop.account, "Kunhammed Haji Puthiyapurayil", stop.day)
        out[f"{month} receipt {name}"] = receipt_text(receipt, tr)
    # One kind sold, the others disposed of otherwise (s.13(3) proviso): counted apart.
    part = stops["in deposit, part disposed of"]
    assert part.account is not None
    before_settling = Case.replay(part.case.number, part.case.events[:-1])
    _, settlement = close_sale(before_settling, tariff, on=part.day, expenses=_EXPENSES, today=_FAR)
    out[f"{month} settle part disposed of"] = settled_reply(settlement, part.account, tr)
    refused_account = stops["account refused, the rest unclaimed"]
    out[f"{month} account refused"] = account_refused_reply(
        statement(refused_account.case, tariff, refused_account.day), tr
    )
    preferred = held.case.apply(ClaimPreferred(on=held.day + timedelta(days=5), claimant="C"), _FAR)
    out[f"{month} claimed"] = claim_preferred_recorded(
        statement(preferred, tariff, held.day + timedelta(days=5)), tr
    )
    rejected = preferred.apply(
        ClaimRejected(on=held.day + timedelta(days=9), reference="Ref-123456/2026"), _FAR
    )
    out[f"{month} reject"] = claim_rejected_recorded(
        statement(rejected, tariff, held.day + timedelta(days=9)), tr
    )
    out |= _rejections(preferred, tariff, held.day, month, tr)
    out |= _register(held.case, month, tr)
    notice_on = stops["notice posted"].day
    reported_case = stops["reported"].case
    out[f"{month} notice by sms"] = notice_ready(reported_case, notice_on, _NOTICE_URL, tr)
    out[f"{month} notice by sms, no link"] = notice_ready(reported_case, notice_on, None, tr)
    claim = stops["closed, claim paid"]
    out[f"{month} claim"] = claim_recorded(statement(claim.case, tariff, claim.day), tr)
    credited = stops["closed, credited to fund"]
    out[f"{month} fund"] = fund_credited(statement(credited.case, tariff, credited.day), tr)
    for name in ("closed, deposit returned", "closed, deposit applied"):
        outcome = stops[name]
        out[f"{month} outcome {name}"] = deposit_outcome_recorded(
            statement(outcome.case, tariff, outcome.day), tr
        )
    refunded = stops["closed, deposit returned"]
    refund_on = refunded.day + timedelta(days=1)
    paid_back = refunded.case.apply(DepositRefunded(on=refund_on), _FAR)
    out[f"{month} refunded"] = refund_recorded(statement(paid_back, tariff, refund_on), tr)
    out |= _cases(tr, stops, month)
    items = [(first.number, d) for d in deadlines(first)] * 3
    for n in (1, 3, len(items)):
        out[f"{month} digest {n}"] = digest(items[:n], opened.day + timedelta(days=5), tr)
    out[f"{month} digest none"] = digest([], opened.day, tr)
    # DEADLINES by SMS under DLT: overdue, due today, both, none.
    on = opened.day + timedelta(days=5)
    late = [(n, x) for n, x in items if x.due_on < on]
    now = [(n, replace(x, due_on=on)) for n, x in items[:1]]
    for name, shown in (("overdue", late), ("today", now), ("both", late + now), ("none", [])):
        out[f"{month} deadlines {name}"] = digest(shown, on, tr, compact=True)
    return out


def staff_sms(lang: str, tr: Translator | None = None) -> dict[str, str]:
    """Every SMS to staff in ``lang`` on the worst-case data, by name (through ``tr``
    when given: ``i18n_tools.dlt_templates`` probes with its own)."""
    tr = tr or translator(lang)
    # As the dispatcher renders an answer to an SMS, on Mobile Seva.
    with rendering_sms(), keyword_in_sms(WORST_KEYWORD):
        return _staff_sms(tr)


def _staff_sms(tr: Translator) -> dict[str, str]:
    where = places()
    out = {
        f"help {role}": help_text(role, tr, sms=True, example=CASE_NUMBER)
        for role in ("keeper", "officer", "admin")
    }
    for start in STARTS:
        out |= _timeline_replies(tr, start, where)
    found = facts_of(timeline(tr, STARTS[0], where)["reported"].case, where.pound)
    out["find with a photo"] = in_parts(
        [search_results([found], tr, True), photo_link(CASE_NUMBER, _PHOTO_URL, tr)]
    )
    for n in (1, 2):
        board = "https://poundbot.kunnamangalam.lsgkerala.gov.in/notices/KNMKLM"
        out[f"find with {n} notice boards"] = with_board_links(
            search_results([found] * n, tr, True), [board] * n, tr, True
        )
    number = CASE_NUMBER
    for code in ("too_large", "too_many_pixels", "not_image", "unreadable"):
        out[f"photo refused {code}"] = photo_refused(code, 3, 5, tr, max_megapixels=40)
    out |= {
        "photos kept 1": photos_kept(1, number, tr),
        "photos kept 3": photos_kept(3, number, tr),
        "photo already kept": photo_already_kept(number, tr),
        "photo no case": photo_no_case(tr),
        "photo no lot": photo_no_lot(number, 4, 3, tr),
        "photo send now": photo_send_now(number, tr),
        "photo missing": photo_missing(number, tr),
        "web link": web_link(_URL, tr),
        "web link unavailable": web_link_unavailable(tr),
        "stop sms, on telegram": staff_stopped("sms", on_telegram=True, tr=tr),
        "stop sms": staff_stopped("sms", on_telegram=False, tr=tr),
        "reminders troubled": reminders_troubled(tr),
        "answers held back, hour": answers_held_back("hour", 9999, _HELD_UNTIL, tr),
        "answers held back, day": answers_held_back("day", 99999, _HELD_UNTIL, tr),
        "too many messages": too_many_messages(datetime(2026, 9, 12, 23, 59), tr),
    }
    return out | _no_counterpart(tr)


def _no_counterpart(tr: Translator) -> dict[str, str]:
    """A step the case's Act has no counterpart of, refused: ACCOUNT REFUSED under the
    1871 Act (no s.15(5)), with what that Act does instead; and any other step, under
    each Act (its title the widest variable)."""
    out = {}
    for act in PROFILES.values():
        lacked = TransitionRefusedError(
            "detail", "s.13(3) proviso", reason="no_counterpart", facts={"act": act.key}
        )
        out[f"no counterpart under {act.key}"] = error(lacked, tr)
    refused_account = TransitionRefusedError(
        "detail", "s.15(5)", reason="no_counterpart", facts={"act": CATTLE_TRESPASS_1871.key}
    )
    out["account refused, no counterpart"] = error(refused_account, tr)
    return out
