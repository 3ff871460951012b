"""Replies rendered from domain facts in English, Malayalam, Tamil and Kannada."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date, datetime

import pytest

from bot.i18n import LANGUAGES, Translator, detect_script, translator
from bot.i18n import render as r
from bot.i18n.public.dues import dues_lines
from bot.support.sms_segments import segments
from domain import errors
from domain.case import Case
from domain.events import (
    AccountDelivered,
    AccountRefused,
    AuctionScheduled,
    ClaimedAndPaid,
    LotOffered,
    NoticePosted,
    OwnerRefusedToPay,
    ReportedUnclaimed,
    SaleClosed,
)
from domain.kinds import DEFAULT_KINDS, Kind, Kinds
from domain.money import Money
from domain.s04_s11_dues import dues_on
from domain.s07_seizure import Lot, Person, Seizure
from domain.s14_deposit import deposit_for, release_on_deposit
from domain.stages import IN_POUND_STAGES
from domain.statement import statement
from domain.tariff import DatedRate, RateTable, Tariff

INDIAN = ("ml", "ta", "kn")

# --- a realistic case: 2 cows, 1 buffalo and 3 goats brought in on 1 March 2026 --------

IMPOUNDED = date(2026, 3, 1)
PLACE = "Chowwannur junction"


def _rate(rupees: str) -> RateTable:
    return RateTable.of([DatedRate(date(2024, 4, 1), Money.rupees(rupees), "illustrative")])


TARIFF = Tariff(
    fines={"cow": _rate("500"), "buffalo": _rate("750"), "goat": _rate("250")},
    feeding={"cow": _rate("150"), "buffalo": _rate("200"), "goat": _rate("75.50")},
)
SEIZURE = Seizure(
    pound="KNMKLM",
    lots=(Lot("cow", 2), Lot("buffalo", 1), Lot("goat", 3)),
    place_seized=PLACE,
    brought_at=datetime(2026, 3, 1, 10, 30),
    seizer=Person("Ravi", "Kunnamkulam"),
    owner=Person("Suresh", "Chowwannur"),
)
CASE = Case.open("KNMKLM-42", SEIZURE, DEFAULT_KINDS, IMPOUNDED)
DAILY = Money.rupees("726.50")  # 2 x 150 + 1 x 200 + 3 x 75.50 (s.4)
FAR = date(2026, 12, 31)  # "today" for applying events


def tr(lang: str) -> Translator:
    return translator(lang)


def _reported() -> Case:
    return CASE.apply(ReportedUnclaimed(on=date(2026, 3, 9)), FAR)


def _noticed() -> Case:
    notice = NoticePosted(on=date(2026, 3, 10), office="Panchayat office", proclaimed_at=("x", "y"))
    return _reported().apply(notice, FAR)


def _refused() -> Case:
    return CASE.apply(OwnerRefusedToPay(on=date(2026, 3, 5)), FAR)


def _sold() -> Case:
    offered = LotOffered(
        on=date(2026, 3, 6),
        lot=0,
        count=2,
        price=Money.rupees("30000"),
        buyer=Person("Joseph"),
        buyer_declared_not_barred=True,
    )
    return _refused().apply(offered, FAR)


def _closed_sale() -> Case:
    closed = SaleClosed(
        on=date(2026, 3, 6),
        expenses=Money.rupees("500"),
        to_owner_or_deposit=Money.rupees("20000"),
        owner_appeared=True,
    )
    return _sold().apply(closed, FAR)


# --- acknowledging a seizure -----------------------------------------------------------


def test_an_english_sms_acknowledgement_states_cattle_fines_daily_charge_and_report_day() -> None:
    dues = dues_on(CASE, TARIFF, IMPOUNDED)
    assert r.seizure_ack(CASE, dues, DAILY, tr("en"), sms=True) == (
        "Case KNMKLM-42: 2 cows, 1 buffalo, 3 goats impounded. Fines Rs 2,500, feeding "
        "Rs 726.50 a day. If unclaimed, reported on 9 Mar 2026 (s.13(1))."
    )


def test_an_english_chat_acknowledgement_has_a_line_for_each_fact() -> None:
    dues = dues_on(CASE, TARIFF, IMPOUNDED)
    text = r.seizure_ack(CASE, dues, DAILY, tr("en"), sms=False, pound_name="Kunnamkulam pound")
    assert text.splitlines() == [
        "Case KNMKLM-42 recorded: 2 cows, 1 buffalo, 3 goats.",
        "Brought to Kunnamkulam pound on 1 Mar 2026, 10:30 AM; seized at Chowwannur junction.",
        "Fines (s.11): ₹2,500.",
        "Feeding and watering (s.4): ₹726.50 a day.",
        "The owner gets the cattle back on paying the fines and charges (s.12).",
        "If they are not claimed within seven days, the pound-keeper reports them to the "
        "local authority on 9 Mar 2026 (s.13(1)).",
    ]


ACK_WORDS = {
    "ml": ["കേസ് KNMKLM-42", "2 പശുക്കൾ", "1 എരുമ", "3 ആടുകൾ", "₹2,500", "₹726.50"],
    "ta": ["வழக்கு KNMKLM-42", "2 பசுக்கள்", "1 எருமை", "3 வெள்ளாடுகள்", "₹2,500", "₹726.50"],
    "kn": ["ಪ್ರಕರಣ KNMKLM-42", "2 ಹಸುಗಳು", "1 ಎಮ್ಮೆ", "3 ಮೇಕೆಗಳು", "₹2,500", "₹726.50"],
}
REPORT_DAY = {"ml": "9 മാർച്ച് 2026", "ta": "9 மார். 2026", "kn": "9 ಮಾರ್ಚ್ 2026"}
SECTION = {"ml": "വകുപ്പ് ", "ta": "பிரிவு ", "kn": "ಕಲಂ "}
ENGLISH_WORDS = re.compile(r"\b(Case|Fines?|Feeding|Total|report|auction|deposit|complain)\b")


@pytest.mark.parametrize("sms", [True, False], ids=["sms", "chat"])
@pytest.mark.parametrize("lang", INDIAN)
def test_an_acknowledgement_in_an_indian_language_is_fully_translated(lang: str, sms: bool) -> None:
    text = r.seizure_ack(CASE, dues_on(CASE, TARIFF, IMPOUNDED), DAILY, tr(lang), sms=sms)
    for words in [*ACK_WORDS[lang], REPORT_DAY[lang], SECTION[lang] + "13(1)"]:
        assert words in text
    assert not ENGLISH_WORDS.search(text)
    assert "Rs" not in text


# --- dues ------------------------------------------------------------------------------


def test_an_english_sms_gives_the_total_its_parts_the_daily_growth_and_the_next_step() -> None:
    dues = dues_on(CASE, TARIFF, date(2026, 3, 4))
    assert r.dues_reply(dues, CASE, tr("en"), sms=True) == (
        "Case KNMKLM-42: Rs 5,406 due on 4 Mar 2026 (fines Rs 2,500, feeding 4 days "
        "Rs 2,906). Rs 726.50 more each day. If unclaimed, reported on 9 Mar 2026 (s.13(1))."
    )


def test_an_english_chat_lists_every_line_with_its_provision_days_and_rate() -> None:
    dues = dues_on(CASE, TARIFF, date(2026, 3, 4))
    assert r.dues_reply(dues, CASE, tr("en"), sms=False).splitlines() == [
        "Case KNMKLM-42: dues on 4 Mar 2026",
        "Fine (s.11): 2 cows × ₹500 = ₹1,000",
        "Feeding and watering (s.4): 2 cows × 4 days × ₹150 = ₹1,200",
        "Fine (s.11): 1 buffalo × ₹750 = ₹750",
        "Feeding and watering (s.4): 1 buffalo × 4 days × ₹200 = ₹800",
        "Fine (s.11): 3 goats × ₹250 = ₹750",
        "Feeding and watering (s.4): 3 goats × 4 days × ₹75.50 = ₹906",
        "Total: ₹5,406",
        "If unclaimed, reported on 9 Mar 2026 (s.13(1)).",
    ]


def test_one_day_of_feeding_is_singular() -> None:
    dues = dues_on(CASE, TARIFF, IMPOUNDED)
    assert "feeding 1 day Rs 726.50" in r.dues_reply(dues, CASE, tr("en"), sms=True)
    assert "× 1 day ×" in r.dues_reply(dues, CASE, tr("en"), sms=False)


@pytest.mark.parametrize(
    ("day", "expected"),
    [
        (date(2026, 3, 8), "If unclaimed, reported on 9 Mar 2026 (s.13(1))."),
        (date(2026, 3, 9), "Unclaimed: report due 9 Mar 2026 (s.13(1))."),
        (date(2026, 3, 10), "Unclaimed: report due 9 Mar 2026 (s.13(1))."),
    ],
    ids=["s.13(1) day before", "s.13(1) day of", "s.13(1) day after"],
)
def test_the_next_step_of_an_unclaimed_case_turns_on_the_s13_1_day(
    day: date, expected: str
) -> None:
    text = r.dues_reply(dues_on(CASE, TARIFF, day), CASE, tr("en"), sms=False)
    assert text.splitlines()[-1] == expected


STAGES: list[tuple[str, Callable[[], Case], date, str]] = [
    (
        "s.13(1) reported",
        _reported,
        date(2026, 3, 9),
        "Reported unclaimed on 9 Mar 2026 (s.13(1)); notice and beat of drum next (s.13(2)).",
    ),
    (
        "s.13(3) auction allowed from",
        _noticed,
        date(2026, 3, 10),
        "If unclaimed, public auction from 18 Mar 2026 (s.13(3)).",
    ),
    (
        "s.13(3) auction fixed",
        lambda: _noticed().apply(
            AuctionScheduled(
                on=date(2026, 3, 11), auction_on=date(2026, 3, 18), place="Kunnamkulam market"
            ),
            FAR,
        ),
        date(2026, 3, 11),
        "Public auction on 18 Mar 2026 at Kunnamkulam market (s.13(3)).",
    ),
    (
        "s.15(1) refused",
        _refused,
        date(2026, 3, 5),
        "Not paid: the cattle will be sold by public auction (s.15(1)).",
    ),
    (
        "s.15(1) auction fixed",
        lambda: _refused().apply(
            AuctionScheduled(
                on=date(2026, 3, 5), auction_on=date(2026, 3, 6), place="Kunnamkulam market"
            ),
            FAR,
        ),
        date(2026, 3, 5),
        "Public auction on 6 Mar 2026 at Kunnamkulam market (s.15(1)).",
    ),
    (
        "s.15(2) selling",
        _sold,
        date(2026, 3, 6),
        "Sale under way; the dues come out of the proceeds (s.15(2)).",
    ),
    (
        "s.15(4) account due",
        _closed_sale,
        date(2026, 3, 6),
        "Collect the remaining cattle and the balance with the account, and give a receipt "
        "(s.15(4)).",
    ),
    (
        "s.15(5) the owner refused the account, cattle left: deemed unclaimed",
        lambda: _closed_sale().apply(AccountRefused(on=date(2026, 3, 7)), FAR),
        date(2026, 3, 7),
        "Refused by the owner: deemed unclaimed (s.15(5)); report to the local authority "
        "next (s.13(1)).",
    ),
    (
        "s.15(4) closed",
        lambda: _closed_sale().apply(AccountDelivered(on=date(2026, 3, 7), receipt_by="S"), FAR),
        date(2026, 3, 7),
        "This case is closed.",
    ),
    (
        "s.12 released",
        lambda: CASE.apply(ClaimedAndPaid(on=date(2026, 3, 4), paid=Money.rupees("5406")), FAR),
        date(2026, 3, 4),
        "paid on 4 Mar 2026 and the cattle released (s.12). Nothing is due.",
    ),
    (
        "s.14 on deposit",
        lambda: release_on_deposit(CASE, TARIFF, date(2026, 3, 4), FAR),
        date(2026, 3, 4),
        "and the cattle delivered (s.14). Nothing is due.",
    ),
]


@pytest.mark.parametrize(
    ("make", "day", "expected"), [s[1:] for s in STAGES], ids=[s[0] for s in STAGES]
)
def test_the_dues_reply_says_what_happens_next_at_each_stage(
    make: Callable[[], Case], day: date, expected: str
) -> None:
    case = make()
    dues = dues_on(case, TARIFF, day)
    # Once the cattle have left the pound, DUES reads what became of them in the statement.
    left = statement(case, TARIFF, day) if case.stage not in IN_POUND_STAGES else None
    for sms in (False, True):
        assert r.dues_reply(dues, case, tr("en"), sms=sms, stated=left).endswith(expected)


def test_sale_expenses_appear_with_their_provision_once_the_sale_is_closed() -> None:
    case = _closed_sale()
    dues = dues_on(case, TARIFF, date(2026, 3, 6))
    assert "Expenses of sale (s.15(2)): ₹500" in dues_lines(dues, tr("en"))
    # Once the sale is settled, DUES says what it settled, never a total owed.
    text = r.dues_reply(dues, case, tr("en"), sms=True, stated=statement(case, TARIFF, dues.on))
    assert "the dues were settled from the proceeds of the sale on 6 Mar 2026 (s.15(2))" in text
    assert "due on" not in text


def test_once_the_cattle_have_left_the_dues_no_longer_grow_each_day() -> None:
    case = CASE.apply(ClaimedAndPaid(on=date(2026, 3, 4), paid=Money.rupees("5406")), FAR)
    stated = statement(case, TARIFF, date(2026, 3, 4))
    text = r.dues_reply(stated.dues, case, tr("en"), sms=True, stated=stated)
    assert "more each day" not in text


@pytest.mark.parametrize("lang", INDIAN)
def test_a_dues_reply_in_an_indian_language_is_fully_translated(lang: str) -> None:
    dues = dues_on(CASE, TARIFF, date(2026, 3, 4))
    for sms in (True, False):
        text = r.dues_reply(dues, CASE, tr(lang), sms=sms)
        assert "₹5,406" in text
        assert REPORT_DAY[lang] in text
        assert SECTION[lang] + "13(1)" in text
        assert not ENGLISH_WORDS.search(text)
    chat = r.dues_reply(dues, CASE, tr(lang), sms=False)
    assert SECTION[lang] + "11" in chat
    assert SECTION[lang] + "4" in chat
    assert ACK_WORDS[lang][1] in chat  # the kind, translated, on its line


# --- deposit under s.14 ----------------------------------------------------------------


def test_a_deposit_reply_gives_the_s14_amount_and_the_s19_last_day() -> None:
    deposit = deposit_for(CASE, TARIFF, date(2026, 3, 4))
    assert r.deposit_reply(deposit, CASE, tr("en"), sms=True) == (
        "Case KNMKLM-42: to dispute the seizure, deposit Rs 5,406 (dues on 4 Mar 2026) and "
        "take the cattle (s.14). Last day to complain: 11 Mar 2026 (s.19)."
    )
    chat = r.deposit_reply(deposit, CASE, tr("en"), sms=False).splitlines()
    assert chat[1] == "Fine (s.11): 2 cows × ₹500 = ₹1,000"
    assert chat[-1] == "Last day to complain: 11 Mar 2026 (s.19)."


@pytest.mark.parametrize(
    ("day", "too_late"),
    [(date(2026, 3, 10), False), (date(2026, 3, 11), False), (date(2026, 3, 12), True)],
    ids=["s.19 day before", "s.19 last day", "s.19 day after"],
)
def test_after_the_s19_day_the_reply_says_a_deposit_is_no_longer_possible(
    day: date, too_late: bool
) -> None:
    text = r.deposit_reply(deposit_for(CASE, TARIFF, day), CASE, tr("en"), sms=True)
    assert text.startswith("Case KNMKLM-42: the time to complain ended") is too_late
    if too_late:
        assert text == (
            "Case KNMKLM-42: the time to complain ended on 11 Mar 2026 (s.19), so no deposit "
            "(s.14). Pay Rs 11,218 to release the cattle (s.12)."
        )


@pytest.mark.parametrize("lang", INDIAN)
def test_a_deposit_reply_in_an_indian_language_is_fully_translated(lang: str) -> None:
    deposit = deposit_for(CASE, TARIFF, date(2026, 3, 4))
    for sms in (True, False):
        text = r.deposit_reply(deposit, CASE, tr(lang), sms=sms)
        assert "₹5,406" in text
        assert SECTION[lang] + "14" in text
        assert SECTION[lang] + "19" in text
        assert not ENGLISH_WORDS.search(text)


# --- kinds and citations -----------------------------------------------------------------


@pytest.mark.parametrize("lang", INDIAN)
def test_every_default_kind_is_translated_in_singular_and_plural(lang: str) -> None:
    for code, kind in DEFAULT_KINDS.items():
        for n in (1, 2):
            text = r.kind_count(code, n, tr(lang))
            assert text.startswith(f"{n} ")
            assert kind.name not in text
            assert not re.search(r"[A-Za-z]", text), text


def test_english_kinds_agree_with_their_count() -> None:
    assert r.kind_count("cow", 1, tr("en")) == "1 cow"
    assert r.kind_count("ox", 2, tr("en")) == "2 oxen"
    assert r.kind_count("sheep", 3, tr("en")) == "3 sheep"
    assert r.kind_count("buffalo_calf", 2, tr("en")) == "2 buffalo calves"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_kind_configured_locally_falls_back_to_its_configured_name(lang: str) -> None:
    kinds = Kinds([*DEFAULT_KINDS.values(), Kind("mithun", "Mithun (gayal)")])
    assert r.kind_count("mithun", 2, tr(lang), kinds) == "2 Mithun (gayal)"
    assert r.kind_count("mithun", 2, tr(lang)) == "2 mithun"


def test_lots_of_one_kind_are_counted_together() -> None:
    lots = (Lot("cow", 2, "black"), Lot("goat", 1), Lot("cow", 1, "white"))
    assert r.cattle(lots, tr("en")) == "3 cows, 1 goat"


@pytest.mark.parametrize(
    ("provision", "en", "ml", "ta", "kn"),
    [
        ("s.13(1)", "s.13(1)", "വകുപ്പ് 13(1)", "பிரிவு 13(1)", "ಕಲಂ 13(1)"),
        (
            "s.13(3) proviso",
            "s.13(3) proviso",
            "വകുപ്പ് 13(3) പരന്തുകം",
            "பிரிவு 13(3) வரம்புரை",
            "ಕಲಂ 13(3) ಪರಂತುಕ",
        ),
        ("s.2(1)", "s.2(1)", "വകുപ്പ് 2(1)", "பிரிவு 2(1)", "ಕಲಂ 2(1)"),
        (
            "GCA s.8",
            "General Clauses Act s.8",
            "ജനറൽ ക്ലോസസ് ആക്റ്റ് വകുപ്പ് 8",
            "பொது வாசகங்கள் சட்டம் பிரிவு 8",
            "ಸಾಮಾನ್ಯ ಖಂಡಗಳ ಅಧಿನಿಯಮ ಕಲಂ 8",
        ),
        ("Rule 5", "Rule 5", "Rule 5", "Rule 5", "Rule 5"),
    ],
    ids=["section", "proviso", "definition", "general clauses", "unknown kept as is"],
)
def test_a_provision_is_cited_the_way_each_language_writes_it(
    provision: str, en: str, ml: str, ta: str, kn: str
) -> None:
    expected = {"en": en, "ml": ml, "ta": ta, "kn": kn}
    for lang in LANGUAGES:
        assert r.cite(provision, tr(lang)) == expected[lang]


# --- errors ---------------------------------------------------------------------------

DOMAIN_ERRORS = [
    getattr(errors, name)
    for name in errors.__all__
    if name != "DomainError" and issubclass(getattr(errors, name), errors.DomainError)
]


@pytest.mark.parametrize("cls", DOMAIN_ERRORS, ids=lambda c: c.code)
def test_every_domain_error_has_its_own_message_in_every_language(
    cls: type[errors.DomainError],
) -> None:
    fallback = r.error(errors.DomainError("x"), tr("en"))
    english = r.error(cls("internal detail"), tr("en"))
    assert english != fallback
    assert "internal detail" not in english
    for lang in INDIAN:
        text = r.error(cls("internal detail"), tr(lang))
        assert text != english
        assert not ENGLISH_WORDS.search(text)


def test_an_error_cites_its_provision_in_the_language_of_the_reply() -> None:
    exc = errors.TooEarlyError("auction inside seven days", "s.13(3)")
    assert r.error(exc, tr("en")) == (
        "Too early: the period the Act sets has not yet run. Try again after it ends. (s.13(3))"
    )
    assert r.error(exc, tr("ml")).endswith("(വകുപ്പ് 13(3))")


def test_an_error_without_a_provision_cites_nothing() -> None:
    text = r.error(errors.RateNotInForceError("no rate"), tr("en"))
    assert text == (
        "No rate is in force on that day. Ask the local authority to enter the rate that "
        "applied then."
    )


def test_an_error_of_an_unknown_code_still_gets_a_translated_message() -> None:
    assert r.error(errors.DomainError("x"), tr("en")) == "That cannot be done under the Act."
    assert r.error(errors.DomainError("x"), tr("ta")) != "That cannot be done under the Act."


def test_the_bot_level_errors_say_what_to_do() -> None:
    assert r.unknown_case("KNMKLM-999", tr("en")) == (
        "There is no case KNMKLM-999. Check the number and send it again."
    )
    assert r.bad_count("three", tr("en")) == (
        "'three' is not a number of cattle. Send a whole number, like 3."
    )
    assert r.not_allowed(tr("en")) == (
        "Your role does not allow this. Ask the pound-keeper or the local authority."
    )
    assert r.unknown_command(["DUES", "DEPOSIT", "HELP"], tr("en")) == (
        "Unknown command. Send one of: DUES, DEPOSIT, HELP"
    )


def test_a_users_text_echoed_in_an_error_is_cut_short() -> None:
    assert "x" * 21 not in r.bad_count("x" * 500, tr("en"))
    assert "9" * 21 not in r.unknown_case("9" * 500, tr("en"))


@pytest.mark.parametrize("lang", INDIAN)
def test_the_bot_level_errors_are_translated(lang: str) -> None:
    english = [
        r.unknown_case("KNMKLM-999", tr("en")),
        r.bad_count("three", tr("en")),
        r.not_allowed(tr("en")),
        r.unknown_command(["DUES"], tr("en")),
    ]
    translated = [
        r.unknown_case("KNMKLM-999", tr(lang)),
        r.bad_count("three", tr(lang)),
        r.not_allowed(tr(lang)),
        r.unknown_command(["DUES"], tr(lang)),
    ]
    for before, after in zip(english, translated, strict=True):
        assert before != after
        assert detect_script(after) == lang


# --- the SMS budget on worst-case data ------------------------------------------------
#
# Three kinds of cattle with the longest names in the language, every amount over
# Rs 1,00,000 with paise (and, in the second tariff, a per-day charge over a lakh too),
# dates in September (the longest month names), a place of 40 characters, and the
# longest case number: a 6-letter pound code (bot/config.py) and a 6-digit sequence.

LONG_PLACE = "Kunnamkulam Chowwannur Road Junction Pt2"
LONG_NUMBER = "KNMKLM-100234"
WORST_DAY = date(2026, 9, 12)
assert len(LONG_PLACE) == 40


def _longest_kinds(lang: str) -> list[str]:
    return sorted(DEFAULT_KINDS, key=lambda k: -len(r.kind_count(k, 48, tr(lang))))[:3]


def _worst_case(lang: str, feeding: str) -> tuple[Case, Tariff]:
    kinds = _longest_kinds(lang)
    tariff = Tariff(
        fines={k: _rate("1000.15") for k in kinds},
        feeding={k: _rate(feeding) for k in kinds},
    )
    seizure = Seizure(
        pound="KNMKLM",
        lots=tuple(Lot(k, n) for k, n in zip(kinds, (48, 36, 25), strict=True)),
        place_seized=LONG_PLACE,
        brought_at=datetime(2026, 9, 12, 14, 30),
        owner=Person("Owner", LONG_PLACE),
    )
    return Case.open(LONG_NUMBER, seizure, DEFAULT_KINDS, WORST_DAY), tariff


def _sms_replies(lang: str, feeding: str) -> dict[str, str]:
    """Every owner-facing SMS reply, at each stage where its wording changes."""
    case, tariff = _worst_case(lang, feeding)
    t = tr(lang)
    reported = case.apply(ReportedUnclaimed(on=date(2026, 9, 20)), FAR)
    noticed = reported.apply(
        NoticePosted(
            on=date(2026, 9, 21), office=LONG_PLACE, proclaimed_at=(LONG_PLACE, LONG_PLACE)
        ),
        FAR,
    )
    fixed = noticed.apply(
        AuctionScheduled(on=date(2026, 9, 22), auction_on=date(2026, 9, 29), place=LONG_PLACE),
        FAR,
    )
    refused = case.apply(OwnerRefusedToPay(on=date(2026, 9, 13)), FAR)
    refused_fixed = refused.apply(
        AuctionScheduled(on=date(2026, 9, 13), auction_on=date(2026, 9, 28), place=LONG_PLACE),
        FAR,
    )
    daily = Money(
        sum(
            tariff.feeding_per_head(lot.kind, WORST_DAY).amount.paise * lot.count
            for lot in case.seizure.lots
        )
    )
    replies = {
        "ack": r.seizure_ack(case, dues_on(case, tariff, WORST_DAY), daily, t, sms=True),
        "deposit": r.deposit_reply(deposit_for(case, tariff, date(2026, 9, 19)), case, t, True),
        "deposit too late": r.deposit_reply(
            deposit_for(case, tariff, date(2026, 9, 23)), case, t, True
        ),
    }
    for name, state, day in [
        ("dues s.13(1) ahead", case, date(2026, 9, 19)),
        ("dues s.13(1) due", case, date(2026, 9, 22)),
        ("dues reported", reported, date(2026, 9, 21)),
        ("dues noticed", noticed, date(2026, 9, 22)),
        ("dues s.13(3) auction", fixed, date(2026, 9, 22)),
        ("dues s.15(1) refused", refused, date(2026, 9, 22)),
        ("dues s.15(1) auction", refused_fixed, date(2026, 9, 22)),
    ]:
        replies[name] = r.dues_reply(dues_on(state, tariff, day), state, t, sms=True)
    for cls in [*DOMAIN_ERRORS, errors.DomainError]:
        replies[f"error {cls.code}"] = r.error(cls("x", "s.13(3) proviso"), t)
    replies["unknown case"] = r.unknown_case("9" * 40, t)
    replies["bad count"] = r.bad_count("x" * 40, t)
    replies["not allowed"] = r.not_allowed(t)
    replies["unknown command"] = r.unknown_command(["DUES", "DEPOSIT", "STATUS", "HELP"], t)
    return replies


@pytest.mark.parametrize("feeding", ["250.15", "1000.15"], ids=["lakhs", "ten lakhs"])
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_owner_facing_sms_fits_its_budget_on_worst_case_data(lang: str, feeding: str) -> None:
    budget = r.SMS_SEGMENT_BUDGET[lang]
    for name, text in _sms_replies(lang, feeding).items():
        encoding, units, count = segments(text)
        assert count <= budget, f"{name}: {units} units, {count} segments: {text}"
        if lang == "en":
            assert encoding == "GSM-7", f"{name} is not GSM-7: {text}"


def test_the_budget_is_two_gsm7_segments_in_english_and_five_ucs2_in_the_others() -> None:
    assert r.SMS_SEGMENT_BUDGET == {"en": 2, "ml": 5, "ta": 5, "kn": 5}
    assert r.fits_sms("a" * 306, "en")
    assert not r.fits_sms("a" * 307, "en")
    assert r.fits_sms("ക" * 335, "ml")
    assert not r.fits_sms("ക" * 336, "ml")


def test_a_long_sms_falls_back_to_shorter_wording_rather_than_overflow() -> None:
    case, tariff = _worst_case("ml", "250.15")
    place = "Kunnamkulam Municipal Cattle Market, Chowwannur Road, Thrissur"
    refused = case.apply(OwnerRefusedToPay(on=date(2026, 9, 13)), FAR)
    fixed = refused.apply(
        AuctionScheduled(on=date(2026, 9, 13), auction_on=date(2026, 9, 28), place=place), FAR
    )
    text = r.dues_reply(dues_on(fixed, tariff, date(2026, 9, 22)), fixed, tr("ml"), sms=True)
    assert r.fits_sms(text, "ml")
    assert place not in text  # shortened to one DLT variable: whole words
    assert text.endswith(
        "28 സെപ്റ്റംബർ 2026-ന് പരസ്യലേലം; സ്ഥലം: Kunnamkulam Municipal Cattle (വകുപ്പ് 15(1))."
    )


def test_on_ordinary_data_the_sms_keeps_the_fuller_wording() -> None:
    case = _noticed().apply(
        AuctionScheduled(on=date(2026, 3, 11), auction_on=date(2026, 3, 18), place="Market"),
        FAR,
    )
    text = r.dues_reply(dues_on(case, TARIFF, date(2026, 3, 11)), case, tr("ml"), sms=True)
    assert "Market" in text
    assert "ഓരോ ദിവസവും ₹726.50 കൂടും." in text
