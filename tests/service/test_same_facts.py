"""Every language carries the same facts in an owner's SMS reply: the cattle by kind and
the s.13(1) day before a sale, the surplus in deposit and the last day of claims after
it (s.16(3)), the account after a partial s.15 sale; through the dispatcher.

The facts of the English reply (dates, amounts, the count of each kind) are read from
it and looked for, written as each language writes them, in the other three.
"""

from __future__ import annotations

import re
from datetime import date, datetime

import pytest

from bot.config import Config
from bot.i18n import fmt, translator
from bot.i18n.common import kind_count
from bot.i18n.public.owner import intake_sms
from bot.services import officer as o
from bot.services.base import Deps
from bot.store.tx import Store
from bot.support.caller import Caller
from bot.support.clock import FixedClock
from domain.case import Case
from domain.kinds import DEFAULT_KINDS
from domain.money import Money
from domain.s04_s11_dues import dues_on
from i18n_tools.worst_case import daily_charge
from tests.service.helpers import seizure
from tests.service.test_owner_answers import (
    at,
    en,
    refuse_and_sell_one,
    say,
    sell_all_unclaimed,
)

LANGS = ("en", "ml", "ta", "kn")
_DATE = re.compile(r"\b\d{1,2} [A-Z][a-z]{2,3} \d{4}\b")  # English writes "9 Sept 2026"
_AMOUNT = re.compile(r"Rs [\d,]+(?:\.\d\d)?")
_COUNT = re.compile(r"\b(\d+) (cows?|goats?)\b")
_KINDS = {"cow": "cow", "cows": "cow", "goat": "goat", "goats": "goat"}


def owner(lang: str) -> Caller:
    return Caller.public("test", phone="+919847000111", lang=lang)


def facts(english: str, lang: str) -> list[str]:
    """The dates, amounts and counted kinds of ``english``, as ``lang`` writes them."""
    tr = translator(lang)
    out = [
        fmt.date(datetime.strptime(d.replace("Sept", "Sep"), "%d %b %Y").date(), lang)
        for d in _DATE.findall(english)
    ]
    out += [
        fmt.money(Money.rupees(a.removeprefix("Rs ").replace(",", "")), lang, sms=True)
        for a in _AMOUNT.findall(english)
    ]
    out += [kind_count(_KINDS[k], int(n), tr) for n, k in _COUNT.findall(english)]
    return out


async def replies(store: Store, deps: Deps, text: str) -> dict[str, str]:
    return {lang: await say(store, deps, owner(lang), text) for lang in LANGS}


def assert_same_facts(answers: dict[str, str], *expected: str) -> None:
    english = answers["en"]
    for fact in expected:
        assert fact in english
    for lang in LANGS:
        for fact in facts(english, lang):
            assert fact in answers[lang], (lang, fact, answers[lang])


async def test_status_before_any_sale_names_the_cattle_and_the_s13_1_day_in_every_language(
    store: Store, deps: Deps, keeper: Caller, clock: FixedClock
) -> None:
    await say(store, deps, en(keeper), "SEIZE 2 cow 1 goat AT Kunnamangalam market; brown")
    at(clock, date(2026, 3, 3))
    answers = await replies(store, deps, "STATUS KNM-1")
    assert_same_facts(answers, "2 cows", "1 goat", "9 Mar 2026 (s.13(1))")
    assert "3 " not in answers["kn"].split(":")[0]


async def test_status_after_a_sale_gives_the_deposit_and_the_claims_day_in_every_language(
    store: Store, deps: Deps, keeper: Caller, officer: Caller, clock: FixedClock
) -> None:
    await say(store, deps, en(keeper), "SEIZE 2 cow AT Kunnamangalam market; brown")
    await sell_all_unclaimed(store, deps, keeper, officer, clock)
    at(clock, date(2026, 4, 1))
    answers = await replies(store, deps, "STATUS KNM-1")
    assert_same_facts(
        answers, "Surplus in deposit since 18 Mar 2026; claims until 18 Jun 2026 (s.16(3))."
    )


async def test_status_after_a_partial_s15_sale_gives_the_account_in_every_language(
    store: Store, deps: Deps, keeper: Caller, officer: Caller, clock: FixedClock
) -> None:
    await say(store, deps, en(keeper), "SEIZE 2 cow AT Kunnamangalam market; brown")
    await refuse_and_sell_one(store, deps, keeper, officer, clock, "KNM-1")
    async with store.transaction() as tx:
        await o.settle_sale(tx, deps, officer, "KNM-1", expenses=Money.rupees(500))
    at(clock, date(2026, 3, 5))
    answers = await replies(store, deps, "STATUS KNM-1")
    assert_same_facts(answers, "Account (s.15(3))", "Rs 20,000")


@pytest.mark.parametrize("word", ["DUES", "DEPOSIT", "STATUS"])
async def test_every_answer_before_a_sale_carries_the_english_facts(
    store: Store, deps: Deps, keeper: Caller, clock: FixedClock, word: str
) -> None:
    await say(store, deps, en(keeper), "SEIZE 2 cow 1 goat AT Kunnamangalam market; brown")
    at(clock, date(2026, 3, 5))
    assert_same_facts(await replies(store, deps, f"{word} KNM-1"))


def test_the_owners_intake_sms_in_malayalam_keeps_the_pound_name_whole_and_says_impounded(
    config: Config,
) -> None:
    """The pound's name is shortened by whole words, never "Kunnamangalam Gra...-ൽ", and
    stands in brackets, with no ending; "impounded" is പൗണ്ടിലാക്കി, not അടച്ചു (which
    also means "paid")."""
    tr = translator("ml")
    pound = "Kunnamangalam Grama Panchayat Cattle Pound"
    case = Case.open("KNM-1", seizure(), DEFAULT_KINDS, date(2026, 3, 1))
    tariff = config.tariffs["KNM"]
    dues = dues_on(case, tariff, date(2026, 3, 1))
    text = intake_sms(case, dues, daily_charge(case, tariff, date(2026, 3, 1)), pound, tr)
    assert "..." not in text
    assert "പൗണ്ടിലാക്കി: " in text
    assert "(Kunnamangalam Grama Panchayat)" in text
    assert "അടച്ചു" not in text
    assert kind_count("cow", 2, tr) in text
