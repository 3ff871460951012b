"""A refusal gives its reason, with its dates and counts, in every language (issue 12,
item 19); the dispatcher tests in tests/service/test_owner_answers.py reach them too."""

from __future__ import annotations

import re
from datetime import date

import pytest

from bot.i18n import render as r
from bot.i18n import translator
from bot.i18n.common import act_title, day
from bot.i18n.public.sms_fit import STAFF_SMS_SEGMENTS
from bot.support.dlt import registry
from bot.support.sms_segments import segments
from domain import errors
from domain.profiles import CATTLE_TRESPASS_1871, KERALA_1961, PROFILES
from domain.stages import Stage

MAR_9 = date(2026, 3, 9)

REFUSALS: list[tuple[str, errors.DomainError, str]] = [
    (
        "s.19 complaint over",
        errors.TransitionRefusedError(
            "x", "s.19", reason="complaint_time_over", facts={"date": MAR_9}
        ),
        "The 10 days to complain ended on 9 Mar 2026, so no deposit under protest. (s.19)",
    ),
    (
        "s.16(3) before the deposit",
        errors.TooEarlyError("x", "s.16(3)", reason="before_deposit", facts={"date": MAR_9}),
        "That date is before the deposit, made on 9 Mar 2026. Check the date. (s.16(3))",
    ),
    (
        "s.16(3) three months over",
        errors.TransitionRefusedError(
            "x", "s.16(3)", reason="claim_time_over", facts={"date": MAR_9}
        ),
        "The 3 months to claim the deposit ended on 9 Mar 2026. (s.16(3))",
    ),
    (
        "stage",
        errors.TransitionRefusedError(
            "x", "s.13(1)", reason="stage", facts={"stage": "released", "date": MAR_9}
        ),
        "The cattle were released to the owner on 9 Mar 2026 (s.12). "
        "This step is not possible now. (s.13(1))",
    ),
    (
        "before the last step",
        errors.BackwardsDateError("x", "s.12", reason="before_last_step", facts={"date": MAR_9}),
        "That date is before the last step recorded in this case, on 9 Mar 2026. "
        "Check the date. (s.12)",
    ),
    (
        "s.13(3) heads unsold",
        errors.TransitionRefusedError("x", "s.13(3)", reason="heads_unsold", facts={"count": 2}),
        "2 head are still unsold: unclaimed cattle are all sold or disposed of first. (s.13(3))",
    ),
    (
        "s.13(3) heads left",
        errors.InvalidCaseError("x", "s.13(3)", reason="heads_left", facts={"lot": 1, "count": 1}),
        "Lot 1 has 1 head left. (s.13(3))",
    ),
    (
        "s.7 seized after brought",
        errors.InvalidCaseError(
            "x",
            "s.7",
            reason="seized_after_brought",
            facts={"seized": date(2026, 3, 10), "date": MAR_9},
        ),
        "The day of seizure, 10 Mar 2026, is after the day the cattle were brought in, "
        "9 Mar 2026. (s.7)",
    ),
    (
        "s.7 bad count",
        errors.InvalidCaseError("x", "s.7", reason="bad_count", facts={"count": 0}),
        "0 is not a number of cattle: give a number from 1 to 10,000. (s.7)",
    ),
    (
        "s.7 no place",
        errors.InvalidCaseError("x", "s.7", reason="no_place"),
        "The place where the cattle were seized is missing. Add it and send the report again. "
        "(s.7)",
    ),
    (
        "s.15(4) receipt",
        errors.TransitionRefusedError("x", "s.15(4)", reason="receipt_without_name"),
        "A receipt needs the name of the person who received the cattle and the balance. (s.15(4))",
    ),
]

_ENGLISH = re.compile(r"\b(the|is|before|after|ended|deposit|cattle|date)\b")


@pytest.mark.parametrize(
    ("exc", "english"), [x[1:] for x in REFUSALS], ids=[x[0] for x in REFUSALS]
)
def test_a_refusal_says_its_reason_with_its_date_in_every_language(
    exc: errors.DomainError, english: str
) -> None:
    assert r.error(exc, translator("en")) == english
    for lang in ("ml", "ta", "kn"):
        text = r.error(exc, translator(lang))
        assert not _ENGLISH.search(text), text
        for value in exc.facts.values():
            if isinstance(value, date):
                assert day(value, translator(lang)) in text
        assert segments(text).segment_count <= 3, text


@pytest.mark.parametrize("stage", list(Stage), ids=lambda s: s.value)
def test_every_stage_gives_a_dated_reason(stage: Stage) -> None:
    exc = errors.TransitionRefusedError(
        "x", "s.12", reason="stage", facts={"stage": stage.value, "date": MAR_9}
    )
    for lang in ("en", "ml", "ta", "kn"):
        text = r.error(exc, translator(lang))
        assert day(MAR_9, translator(lang)) in text
        assert "present stage" not in text


@pytest.mark.parametrize("route", ["s.13(3)", "s.15(1)"])
def test_a_step_refused_during_a_sale_cites_the_sale_of_its_route(route: str) -> None:
    """The domain says which route the sale is on (``sale``): the refusal cites it alone,
    never both (s.13(3) unclaimed, s.15(1) on the owner's refusal)."""
    exc = errors.TransitionRefusedError(
        "x", "s.12", reason="stage", facts={"stage": "selling", "date": MAR_9, "sale": route}
    )
    assert r.error(exc, translator("en")) == (
        f"The sale began on 9 Mar 2026 ({route}). This step is not possible now. (s.12)"
    )
    other = "s.15(1)" if route == "s.13(3)" else "s.13(3)"
    for lang in ("ml", "ta", "kn"):
        text = r.error(exc, translator(lang))
        assert route.removeprefix("s.") in text
        assert other.removeprefix("s.") not in text


#: A step the case's Act has no counterpart of (``domain.profiles.require_counterpart``):
#: the owner's refusal of the account under the Cattle-trespass Act, 1871 (it has none
#: of Kerala's s.15(5)), in each language.
NO_S15_5 = {
    "en": "The Cattle-trespass Act, 1871 has no such step. Under it, an owner who refuses "
    "the account does not make the cattle unclaimed: the remaining cattle and the balance "
    "are held for the owner.",
    "ml": "1871-ലെ കന്നുകാലി അതിക്രമ ആക്റ്റ് പ്രകാരം ഇത്തരമൊരു നടപടി ഇല്ല. ആ ആക്റ്റ് "
    "പ്രകാരം, കണക്ക് സ്വീകരിക്കാൻ ഉടമ വിസമ്മതിച്ചാലും കന്നുകാലികളെ അവകാശപ്പെടാത്തവയായി "
    "കണക്കാക്കില്ല: ശേഷിക്കുന്ന കന്നുകാലികളും ബാക്കി തുകയും ഉടമയ്ക്കായി സൂക്ഷിക്കും.",
    "ta": "கால்நடை அத்துமீறல் சட்டம், 1871-இன் கீழ் இத்தகைய நடவடிக்கைக்கு இடமில்லை. "
    "அச்சட்டத்தின் கீழ், உரிமையாளர் கணக்கை ஏற்க மறுத்தாலும் கால்நடைகளை உரிமை "
    "கோரப்படாதவையாகக் கருத இயலாது: மீதமுள்ள கால்நடைகளும் மீதித் தொகையும் "
    "உரிமையாளருக்காக வைக்கப்படும்.",
    "kn": "ಜಾನುವಾರು ಅತಿಕ್ರಮ ಪ್ರವೇಶ ಅಧಿನಿಯಮ, 1871 ರ ಅಡಿಯಲ್ಲಿ ಇಂತಹ ಕ್ರಮಕ್ಕೆ ಅವಕಾಶವಿಲ್ಲ. "
    "ಆ ಅಧಿನಿಯಮದ ಅಡಿಯಲ್ಲಿ, ಮಾಲೀಕರು ಲೆಕ್ಕವನ್ನು ಸ್ವೀಕರಿಸಲು ನಿರಾಕರಿಸಿದರೂ ಜಾನುವಾರುಗಳನ್ನು "
    "ಹಕ್ಕು ಕೋರದವು ಎಂದು ಪರಿಗಣಿಸಲಾಗುವುದಿಲ್ಲ: ಉಳಿದ ಜಾನುವಾರುಗಳನ್ನು ಮತ್ತು ಬಾಕಿ ಹಣವನ್ನು "
    "ಮಾಲೀಕರಿಗಾಗಿ ಇರಿಸಲಾಗುತ್ತದೆ.",
}


def _lacked(provision: str, act: str = "cattle-trespass-1871") -> errors.DomainError:
    return errors.TransitionRefusedError(
        "x", provision, reason="no_counterpart", facts={"act": act}
    )


@pytest.mark.parametrize("lang", ["en", "ml", "ta", "kn"])
def test_a_refused_account_under_the_1871_act_says_what_that_act_does_instead(
    lang: str,
) -> None:
    """The 1871 Act has no s.15(5): the refusal names the Act, says that the cattle are
    not deemed unclaimed, and cites no section as if it were that Act's."""
    text = r.error(_lacked("s.15(5)"), translator(lang))
    assert text == NO_S15_5[lang]
    # Told under the Act the refusal names, whatever Act the caller passed.
    assert r.error(_lacked("s.15(5)"), translator(lang), act=KERALA_1961) == text
    assert "15(5)" not in text
    assert segments(text).segment_count <= STAFF_SMS_SEGMENTS


@pytest.mark.parametrize("lang", ["en", "ml", "ta", "kn"])
def test_any_other_step_an_act_lacks_is_refused_in_general_words(lang: str) -> None:
    tr = translator(lang)
    for act in PROFILES.values():
        text = r.error(_lacked("s.13(2)", act.key), tr)
        assert act_title(act, tr) in text
        assert text.endswith(".")
        assert NO_S15_5[lang] not in text
    assert r.error(_lacked("s.13(2)"), translator("en")) == (
        "The Cattle-trespass Act, 1871 has no such step."
    )


@pytest.mark.parametrize("lang", ["en", "ml", "ta", "kn"])
def test_a_step_refused_under_the_1871_act_cites_that_acts_paragraph(lang: str) -> None:
    tr = translator(lang)
    exc = errors.TooEarlyError("x", "s.13(1)", lawful_from=MAR_9)
    text = r.error(exc, tr, act=CATTLE_TRESPASS_1871)
    assert text.endswith(f"({r.cite('s.13(1)', tr, CATTLE_TRESPASS_1871)})")
    assert r.error(exc, tr).endswith(f"({r.cite('s.13(1)', tr)})")  # the Kerala Act's


@pytest.mark.parametrize("lang", ["en", "ml", "ta", "kn"])
def test_the_refusals_of_a_step_an_act_lacks_are_registered_dlt_templates(lang: str) -> None:
    """An officer who sends NORECEIPT by SMS under the 1871 Act gets the answer under DLT."""
    templates = registry()
    tr = translator(lang)
    for exc in [_lacked("s.15(5)"), *(_lacked("s.13(2)", key) for key in PROFILES)]:
        text = r.error(exc, tr)
        assert templates.find(text, lang) is not None, text
