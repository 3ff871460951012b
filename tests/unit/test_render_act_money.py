"""Every text says the case's own Act: its days to complain (s.19) and months of deposit
(s.16(3)) as the profile declares them, where the fines and the unclaimed surplus go
(s.16(1), s.17(1)), who holds the surplus, who signs the notice (s.13(2)) and whom a
keeper reports to (s.13(1)). Under the Kerala Act the texts read as they always did;
under the Cattle-trespass Act, 1871 the fines go to the District Magistrate and the
surplus is credited to State revenue; a profile configured with other periods (15 days,
6 months) says those."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import date

import pytest

from bot.i18n import render as r
from bot.i18n import translator
from bot.i18n.catalogs import Translator
from bot.i18n.chrome import telegram
from bot.i18n.chrome import web_names as names
from bot.i18n.common import (
    credited_to,
    fines_to,
    holder,
    office_title,
    to_fund,
    to_office,
)
from bot.i18n.documents import documents
from bot.i18n.documents.account import collect_line, disbursement_line
from bot.i18n.officers.deposit import deposit_register_text
from bot.services.public import Outcome
from domain import errors
from domain.deadlines import Deadline, DeadlineKind, Role
from domain.events import ClaimRejected
from domain.profiles import (
    CATTLE_TRESPASS_1871,
    KERALA_1961,
    KERALA_1961_AMENDED,
    Destination,
    Office,
    Power,
    Profile,
)
from domain.s15_sale import Payee
from domain.statement import statement
from tests.unit import test_render_scenario as s

ALL = ("en", "ml", "ta", "kn")
MAR_9 = date(2026, 3, 9)
#: A Kerala profile whose periods a configuration set otherwise (made here: the
#: configuration's own path is tested with the configuration).
LONGER: Profile = KERALA_1961._replace(complaint_days=15, surplus_months=6)


def under(lang: str, act: Profile) -> Translator:
    return translator(lang).under(act)


def _credited() -> Outcome:
    """What anyone asking is told of the case whose deposit was credited on 20 June."""
    case, on = s.credited(), date(2026, 6, 20)
    return Outcome(s.public(case), None, case, on, statement(case, s.TARIFF, on))


def _refusal(reason: str, provision: str) -> errors.DomainError:
    return errors.TransitionRefusedError("x", provision, reason=reason, facts={"date": MAR_9})


# --- the periods --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("act", "complaint", "claims"),
    [
        (
            KERALA_1961,
            "The 10 days to complain ended on 9 Mar 2026, so no deposit under protest. (s.19)",
            "The 3 months to claim the deposit ended on 9 Mar 2026. (s.16(3))",
        ),
        (
            LONGER,
            "The 15 days to complain ended on 9 Mar 2026, so no deposit under protest. (s.19)",
            "The 6 months to claim the deposit ended on 9 Mar 2026. (s.16(3))",
        ),
        (
            CATTLE_TRESPASS_1871,
            "The 10 days to complain ended on 9 Mar 2026, so no deposit under protest. (s.20)",
            "The 3 months to claim the deposit ended on 9 Mar 2026. (s.17, para 3)",
        ),
    ],
    ids=["kerala-1961", "configured-15-days-6-months", "cattle-trespass-1871"],
)
def test_a_refusal_says_the_period_of_the_cases_act(
    act: Profile, complaint: str, claims: str
) -> None:
    assert r.error(_refusal("complaint_time_over", "s.19"), under("en", act)) == complaint
    assert r.error(_refusal("claim_time_over", "s.16(3)"), under("en", act)) == claims


@pytest.mark.parametrize(
    ("lang", "days", "months"),
    [
        ("ml", "15 ദിവസം", "6 മാസം"),
        ("ta", "15 நாட்கள்", "6 மாதங்கள்"),
        ("kn", "15 ದಿನಗಳು", "6 ತಿಂಗಳು"),
    ],
)
def test_each_language_writes_the_configured_period(lang: str, days: str, months: str) -> None:
    tr = under(lang, LONGER)
    assert days in r.error(_refusal("complaint_time_over", "s.19"), tr)
    assert months in r.error(_refusal("claim_time_over", "s.16(3)"), tr)


def test_the_months_of_deposit_are_the_profiles_in_the_account_and_the_sale() -> None:
    settlement, account = s.unclaimed_account()
    kerala = collect_line(account, under("en", KERALA_1961), sms=False)
    assert kerala == (
        f"The balance of {s.money(account.balance, 'en')} is held in deposit by the local "
        "authority; claim it there within 3 months (s.16(3))."
    )
    longer = collect_line(account, under("en", LONGER), sms=False)
    assert "within 6 months (s.16(3))" in longer
    settled = r.settled_reply(settlement, account, under("en", LONGER))
    assert "Send the surplus to the local authority to hold in deposit for 6 months" in settled
    under_1871 = r.settled_reply(settlement, account, under("en", CATTLE_TRESPASS_1871))
    assert (
        "Send the surplus to the District Magistrate to hold in deposit for 3 months "
        "(s.17, para 3)." in under_1871
    )


def test_the_status_of_a_deposit_says_the_months_of_its_act() -> None:
    case = s.in_deposit()
    asked = Outcome(s.public(case), None)
    assert "held in deposit for 3 months (s.16(3))" in r.status_reply(
        asked, under("en", KERALA_1961), sms=False
    )
    assert "held in deposit for 6 months (s.16(3))" in r.status_reply(
        asked, under("en", LONGER), sms=False
    )
    assert "6 മാസത്തേക്ക്" in r.status_reply(asked, under("ml", LONGER), sms=True)


def test_the_register_and_the_desk_say_the_months_of_each_cases_act() -> None:
    entry = replace(s.deposit_entry(s.in_deposit()), window_end=None, credit_from=None, act=LONGER)
    line = deposit_register_text([entry], MAR_9, translator("en"))
    assert "the 6 months for claims run from the settlement of the rest" in line
    assert names.deadline_name("deposit_window_ends", under("en", KERALA_1961)) == (
        "3 months of the deposit end"
    )
    assert names.deadline_name("deposit_window_ends", under("en", LONGER)) == (
        "6 months of the deposit end"
    )
    assert documents.document_labels(under("en", LONGER))["claims_until"] == (
        "6 months end; claims until (s.16(3))"
    )
    tr = translator("en")
    assert names.deposit_window_heading([KERALA_1961, CATTLE_TRESPASS_1871], tr) == "3 months end"
    assert names.deposit_window_heading([KERALA_1961, LONGER], tr) == "Claims until"
    assert names.deposit_window_heading([], under("en", LONGER)) == "6 months end"


# --- where the money goes -----------------------------------------------------------


@pytest.mark.parametrize("lang", ALL)
def test_every_destination_is_named_apart(lang: str) -> None:
    tr = translator(lang)
    named = [to_fund(destination, tr) for destination in Destination]
    assert all(named)
    assert len(set(named)) == len(Destination)


@pytest.mark.parametrize("act", [KERALA_1961, KERALA_1961_AMENDED], ids=lambda a: a.key)
def test_under_the_kerala_act_the_money_goes_to_the_local_authority(act: Profile) -> None:
    tr = under("en", act)
    assert fines_to(tr) == "to the fund of the local authority"
    assert credited_to(tr) == "to the fund of the local authority"
    assert holder(tr) is Office.LOCAL_AUTHORITY
    assert names.account_name("fines", tr) == "Fines to the local authority"
    assert names.account_name("fund", tr) == "Fund of the local authority"
    assert documents.account_name("fines", tr) == "Fines to the local authority (s.16(1), s.17(1))"
    assert documents.account_name("fund", tr) == (
        "Credited to the fund of the local authority (s.17(1))"
    )


def test_under_the_1871_act_fines_go_to_the_magistrate_and_the_surplus_to_revenue() -> None:
    tr = under("en", CATTLE_TRESPASS_1871)
    assert fines_to(tr) == "to the District Magistrate"
    assert credited_to(tr) == "to State revenue"
    assert holder(tr) is Office.DISTRICT_MAGISTRATE
    assert names.account_name("fines", tr) == "Fines, sent to the District Magistrate"
    assert names.account_name("fund", tr) == "State revenue"
    assert documents.account_name("fines", tr) == (
        "Fines to the District Magistrate (s.17, para 1, s.17, para 3)"
    )
    assert documents.account_name("fund", tr) == "Credited to State revenue (s.17, para 3)"


def test_the_account_and_the_replies_say_where_the_money_went_under_1871() -> None:
    _settlement, account = s.unclaimed_account()
    tr = under("en", CATTLE_TRESPASS_1871)
    fines = next(p for p in account.disposal if p.payee is Payee.LOCAL_AUTHORITY)
    assert disbursement_line(fines, tr).startswith("Fines, sent to the District Magistrate (")
    surplus = next(p for p in account.disposal if p.payee is Payee.DEPOSIT)
    assert disbursement_line(surplus, tr).startswith(
        "Surplus, held in deposit by the District Magistrate ("
    )
    assert "held in deposit by the District Magistrate; claim it there within 3 months" in (
        collect_line(account, tr, sms=False)
    )
    credited = statement(s.credited(), s.TARIFF, date(2026, 6, 20))
    assert "credited to State revenue on 20 Jun 2026 (s.17, para 3)" in r.fund_credited(
        credited, tr
    )
    assert "The unclaimed balance was credited to State revenue (s.17, para 3)." in (
        r.status_reply(_credited(), tr, sms=False)
    )
    case = s.paid()
    paid = r.payment_recorded(case, s.dues(case, date(2026, 3, 6)), tr, sms=False)
    assert "The fines go to the District Magistrate (s.17, para 3)" in paid
    kerala = r.payment_recorded(case, s.dues(case, date(2026, 3, 6)), translator("en"), False)
    assert "The fines go to the fund of the local authority (s.17(1))" in kerala


@pytest.mark.parametrize("lang", ALL)
def test_the_reminder_to_credit_says_where_in_every_language(lang: str) -> None:
    for act in (KERALA_1961, CATTLE_TRESPASS_1871):
        tr = under(lang, act)
        text = r.reminder(DeadlineKind.CREDIT_TO_FUND, "KNM-17", MAR_9, MAR_9, tr)
        assert credited_to(tr) in text, text
    kerala = r.reminder(DeadlineKind.CREDIT_TO_FUND, "KNM-17", MAR_9, MAR_9, translator("en"))
    assert kerala.startswith(
        "Case KNM-17: from 9 Mar 2026 credit the unclaimed deposit to the fund of the local "
        "authority (s.17(1))."
    )


@pytest.mark.parametrize("lang", ["ml", "ta", "kn"])
def test_the_offices_and_funds_are_slotted_in_the_language(lang: str) -> None:
    tr = under(lang, CATTLE_TRESPASS_1871)
    settlement, account = s.unclaimed_account()
    settled = r.settled_reply(settlement, account, tr)
    assert to_office(Office.DISTRICT_MAGISTRATE, tr) in settled
    assert office_title(Office.DISTRICT_MAGISTRATE, tr) in collect_line(account, tr, sms=False)
    assert to_fund(Destination.STATE_REVENUE, tr) in r.status_reply(_credited(), tr, sms=False)
    assert to_fund(Destination.LOCAL_FUND, tr) not in settled


# --- who signs the notice, whom the keeper reports to --------------------------------


def test_the_notice_is_signed_by_the_office_that_posts_it() -> None:
    kerala = r.notice_text(s.open_case(), s.authority(), s.pound(), s.NOTICE_ON, tr_en())
    assert "Secretary / authorised officer, Kunnamangalam Grama Panchayat" in kerala
    tr = under("en", CATTLE_TRESPASS_1871)
    assert CATTLE_TRESPASS_1871.office_for(Power.POST_NOTICE) is Office.POLICE_STATION
    notice = r.notice_text(s.open_case(), s.authority(), s.pound(), s.NOTICE_ON, tr)
    assert "Signed by the officer in charge of the nearest police station" in notice
    assert "Secretary / authorised officer" not in notice
    for lang in ("ml", "ta", "kn"):
        tr = under(lang, CATTLE_TRESPASS_1871)
        notice = r.notice_text(s.open_case(), s.authority(), s.pound(), s.NOTICE_ON, tr)
        assert office_title(Office.POLICE_STATION, tr) in notice


def tr_en() -> Translator:
    return translator("en")


def test_the_keepers_menu_says_whom_the_report_goes_to() -> None:
    assert telegram.command_description("report", tr_en()) == (
        "Report unclaimed cattle to the local authority"
    )
    assert telegram.command_description("report", under("en", CATTLE_TRESPASS_1871)) == (
        "Report unclaimed cattle to the officer in charge of the nearest police station"
    )
    for lang in ("ml", "ta", "kn"):
        tr = under(lang, CATTLE_TRESPASS_1871)
        assert to_office(Office.POLICE_STATION, tr) in telegram.command_description("report", tr)


# --- the texts that name the fund in short ------------------------------------------

FAR_ON = date(2026, 6, 25)  # the months for claims to the deposit are over
CLAIMS_OPEN_ON = date(2026, 5, 25)  # they are not


def _rejected(on: date) -> Callable[[Translator], str]:
    """The reply to a claim rejected, ``on`` a day before or after the last for claims."""
    case = s.claim_pending().apply(
        ClaimRejected(on=date(2026, 5, 20), reference="RDO-7/2026"), s.FAR
    )
    return lambda tr: r.claim_rejected_recorded(statement(case, s.TARIFF, on), tr)


def _upheld(tr: Translator) -> str:
    case = s.deposit_outcome(returned=False)
    return r.deposit_outcome_recorded(statement(case, s.TARIFF, case.last_event_on), tr)


def _register(tr: Translator) -> str:
    entry = replace(s.deposit_entry(s.in_deposit()), act=tr.act)
    return deposit_register_text([entry], FAR_ON, tr)


def _digest(tr: Translator) -> str:
    due = Deadline(DeadlineKind.CREDIT_TO_FUND, MAR_9, "s.17(1)", Role.OFFICER, MAR_9)
    return r.digest([("KNM-17", due)], MAR_9, tr, acts={"KNM-17": tr.act})


#: Each text that says where the unclaimed deposit goes, in short: (what it is, how it
#: is rendered, its English reading under the Kerala Act as it has always been).
_CREDITED_SHORT: list[tuple[str, Callable[[Translator], str], str]] = [
    (
        "a claim preferred",
        lambda tr: r.claim_preferred_recorded(
            statement(s.claim_pending(), s.TARIFF, s.claim_pending().last_event_on), tr
        ),
        "Nothing goes to the fund until it is established",
    ),
    (
        "a claim rejected, the time to claim over",
        _rejected(FAR_ON),
        "once no claim is pending it goes to the fund (s.17(1)).",
    ),
    (
        "a claim rejected, the time to claim open",
        _rejected(CLAIMS_OPEN_ON),
        "; after that it goes to the fund (s.17(1)).",
    ),
    ("the deposit register", _register, ": credit it to the fund, lawful since "),
    (
        "the reminder that the time for claims ended",
        lambda tr: r.reminder(DeadlineKind.DEPOSIT_WINDOW_ENDS, "KNM-17", MAR_9, FAR_ON, tr),
        "Record a claim established, or credit it to the fund (s.17(1)).",
    ),
    (
        "the reminder to credit, overdue",
        lambda tr: r.reminder(DeadlineKind.CREDIT_TO_FUND, "KNM-17", MAR_9, FAR_ON, tr),
        "the unclaimed deposit was to be credited to the fund from 9 Mar 2026",
    ),
    ("the digest", _digest, "KNM-17: credit to the fund (s.17(1))"),
    (
        "the refusal of FUND while claims are pending",
        lambda tr: r.error(
            errors.TransitionRefusedError(
                "x", "s.17(1)", reason="claims_pending", facts={"names": "Ravi"}
            ),
            tr,
        ),
        "the deposit goes to the fund only once each is established or rejected.",
    ),
    (
        "HELP",
        lambda tr: r.help_text("officer", tr, sms=False),
        "no credit to the fund until decided (s.16(3))",
    ),
    (
        "HELP, FUND",
        lambda tr: r.help_text("officer", tr, sms=False),
        "credit the unclaimed deposit to the fund (s.17(1))",
    ),
    ("the desk's event", lambda tr: names.event_name("CreditedToFund", tr), "Credited to the fund"),
    (
        "the desk's deadline",
        lambda tr: names.deadline_name("credit_to_fund", tr),
        "Credit the deposit to the fund",
    ),
    (
        "the desk's step",
        lambda tr: names.step_title("fund", tr),
        "Credit the deposit to the fund (s.17(1))",
    ),
    (
        "the Telegram menu",
        lambda tr: telegram.command_description("fund", tr),
        "Credit a deposit to the fund",
    ),
    (
        "the documents' column",
        lambda tr: documents.document_labels(tr)["credit_from"],
        "Credit to the fund from (s.17(1))",
    ),
]


@pytest.mark.parametrize(
    ("render", "kerala"),
    [pytest.param(render, kerala, id=what) for what, render, kerala in _CREDITED_SHORT],
)
def test_under_the_kerala_act_the_fund_is_named_as_it_always_was(
    render: Callable[[Translator], str], kerala: str
) -> None:
    for act in (KERALA_1961, KERALA_1961_AMENDED):
        assert kerala in render(under("en", act))


@pytest.mark.parametrize(
    ("render", "kerala"),
    [pytest.param(render, kerala, id=what) for what, render, kerala in _CREDITED_SHORT],
)
@pytest.mark.parametrize("lang", ALL)
def test_under_the_1871_act_the_unclaimed_deposit_goes_to_state_revenue(
    render: Callable[[Translator], str], kerala: str, lang: str
) -> None:
    tr = under(lang, CATTLE_TRESPASS_1871)
    text = render(tr)
    assert to_fund(Destination.STATE_REVENUE, tr) in text, text
    assert credited_to(under(lang, KERALA_1961), short=True) not in text, text
    assert credited_to(under(lang, KERALA_1961), short=True) in render(under(lang, KERALA_1961))


@pytest.mark.parametrize("lang", ALL)
def test_the_deposit_of_a_seizure_upheld_pays_the_fines_where_the_act_sends_them(
    lang: str,
) -> None:
    kerala = _upheld(under(lang, KERALA_1961))
    assert fines_to(under(lang, KERALA_1961), short=True) in kerala
    text = _upheld(under(lang, CATTLE_TRESPASS_1871))
    assert to_office(Office.DISTRICT_MAGISTRATE, under(lang, CATTLE_TRESPASS_1871)) in text
    assert fines_to(under(lang, KERALA_1961), short=True) not in text
    if lang == "en":
        assert "is applied as the fines, to the fund (s.17(1)), and the feeding" in kerala
        assert "is applied as the fines, to the District Magistrate (s.17, para 3), and" in text
