"""The answers the owner's card shows (``docs/owners-card.md``) are poundbot's: each
command of each language section is asked of poundbot in the scenario of
``i18n_tools.card_answers`` (its composition root on SQLite, a fixed clock, the sample
configuration) and its SMS answer must stand under the command, word for word."""

from __future__ import annotations

import difflib

import pytest

from bot.i18n.dlt_probe import PART
from i18n_tools.card_answers import (
    CARD,
    CardError,
    answers,
    questions,
    regenerated,
    rewritten,
)

HOW = (
    "docs/owners-card.md does not show what poundbot answers: run `make messages` "
    "(or `python -m i18n_tools.card_answers`) and commit the card. Keep the answers "
    "short: the card prints on one A4 side per language (tests/browser/test_cards_print.py)."
)


async def test_the_owners_card_shows_poundbots_own_answers() -> None:
    card = CARD.read_text(encoding="utf-8")
    new = await regenerated(card)
    diff = difflib.unified_diff(
        card.splitlines(), new.splitlines(), "docs/owners-card.md", "poundbot", lineterm=""
    )
    if new != card:
        pytest.fail(HOW + "\n" + "\n".join(diff), pytrace=False)


def test_the_card_asks_dues_find_and_status_in_every_language() -> None:
    asked = questions(CARD.read_text(encoding="utf-8"))
    assert sorted(asked) == ["en", "kn", "ml", "ta"]
    assert asked["en"] == ["DUES KNM-1", "FIND buffalo Kunnamangalam", "STATUS KNM-4"]
    assert all(len(commands) == 3 for commands in asked.values()), asked


def test_a_stale_answer_is_rewritten_and_the_rest_of_the_card_kept() -> None:
    card = "\n".join(
        [
            "Intro.",
            "",
            "## English { .language #en }",
            "",
            "> **DUES KNM-1**  ",
            "> Case KNM-1: Rs 1 due.",
            "> and an old second line",
            "",
            "Words.",
            "",
            "## മലയാളം (Malayalam) { .language #ml }",
            "",
            "> **STATUS KNM-4**  ",
            "> old",
            "",
        ]
    )
    new = rewritten(
        card,
        {
            ("en", "DUES KNM-1"): f"Case KNM-1: Rs 991 due.{PART}You have 2 more cases.",
            ("ml", "STATUS KNM-4"): "കേസ് KNM-4. *x* <y>",
        },
    )
    assert new == "\n".join(
        [
            "Intro.",
            "",
            "## English { .language #en }",
            "",
            "> **DUES KNM-1**  ",
            "> Case KNM-1: Rs 991 due.  ",
            "> You have 2 more cases.",
            "",
            "Words.",
            "",
            "## മലയാളം (Malayalam) { .language #ml }",
            "",
            "> **STATUS KNM-4**  ",
            r"> കേസ് KNM-4. \*x\* &lt;y>",
            "",
        ]
    )


async def test_a_command_about_a_case_the_scenario_lacks_names_the_cases_it_has() -> None:
    with pytest.raises(CardError, match="KNM-9; the scenario has KNM-1, KNM-2, KNM-3, KNM-4"):
        await answers({"en": ["STATUS KNM-9"]})


async def test_a_command_in_another_language_than_its_section_is_refused() -> None:
    with pytest.raises(CardError, match="is answered in en"):
        await answers({"ml": ["DUES KNM-1"]})
