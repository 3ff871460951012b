"""Every citation a case shows is its own Act's (``domain.profiles``), in every language:
the Kerala profiles cite as the Kerala Act always did; the Cattle-trespass Act, 1871
cites its unnumbered paragraphs (``s.14, para 1``) and the General Clauses Act, 1897; a
provision the Act has no counterpart of is never cited as if it were the Act's."""

from __future__ import annotations

from datetime import date

import pytest

from bot.i18n import LANGUAGES, translator
from bot.i18n.common import act_title, cite
from bot.i18n.documents.notice import notice_heading
from bot.i18n.officers.reminders import digest
from domain.deadlines import Deadline, DeadlineKind, Role
from domain.profiles import (
    CATTLE_TRESPASS_1871,
    KERALA_1961,
    KERALA_1961_AMENDED,
    PROFILES,
    Profile,
)
from domain.provisions import PROVISIONS

#: The order of the expected texts below.
ORDER = ("en", "ml", "ta", "kn")
DAY_1 = date(2026, 3, 1)

#: Kerala's provision -> how the 1871 Act cites it, in en, ml, ta, kn.
UNDER_1871: list[tuple[str, tuple[str, str, str, str]]] = [
    (
        "s.13(1)",
        ("s.14, para 1", "വകുപ്പ് 14, ഖണ്ഡിക 1", "பிரிவு 14, பத்தி 1", "ಕಲಂ 14, ಕಂಡಿಕೆ 1"),
    ),
    (
        "s.15(3)(e)",
        (
            "s.16, para 3(e)",
            "വകുപ്പ് 16, ഖണ്ഡിക 3(e)",
            "பிரிவு 16, பத்தி 3(e)",
            "ಕಲಂ 16, ಕಂಡಿಕೆ 3(e)",
        ),
    ),
    (
        "s.13(3) proviso",
        (
            "s.14, para 3, proviso",
            "വകുപ്പ് 14, ഖണ്ഡിക 3 പരന്തുകം",
            "பிரிவு 14, பத்தி 3 வரம்புரை",
            "ಕಲಂ 14, ಕಂಡಿಕೆ 3 ಪರಂತುಕ",
        ),
    ),
    ("s.14", ("s.15", "വകുപ്പ് 15", "பிரிவு 15", "ಕಲಂ 15")),
    ("s.19", ("s.20", "വകുപ്പ് 20", "பிரிவு 20", "ಕಲಂ 20")),
    (
        "GCA s.8",
        (
            "General Clauses Act, 1897, s.9",
            "1897-ലെ ജനറൽ ക്ലോസസ് ആക്റ്റ് വകുപ്പ് 9",
            "பொது வாசகங்கள் சட்டம், 1897, பிரிவு 9",
            "ಸಾಮಾನ್ಯ ಖಂಡಗಳ ಅಧಿನಿಯಮ, 1897 ರ ಕಲಂ 9",
        ),
    ),
]


@pytest.mark.parametrize(("provision", "expected"), UNDER_1871, ids=[p for p, _ in UNDER_1871])
def test_the_1871_act_is_cited_by_its_own_sections_and_paragraphs(
    provision: str, expected: tuple[str, str, str, str]
) -> None:
    for lang, text in zip(ORDER, expected, strict=True):
        assert cite(provision, translator(lang), CATTLE_TRESPASS_1871) == text


@pytest.mark.parametrize("act", [KERALA_1961, KERALA_1961_AMENDED], ids=lambda a: a.key)
def test_the_kerala_profiles_cite_every_provision_as_the_kerala_act_always_did(
    act: Profile,
) -> None:
    for lang in LANGUAGES:
        tr = translator(lang)
        for provision in [*PROVISIONS, "Rule 5", ""]:
            assert cite(provision, tr, act) == cite(provision, tr)
    # Kerala's general clauses law is the Travancore-Cochin Act, cited as before.
    assert cite("GCA s.8", translator("en"), KERALA_1961_AMENDED) == "General Clauses Act s.8"


def test_a_provision_the_act_lacks_is_cited_as_the_kerala_acts_never_as_its_own() -> None:
    """The 1871 Act has no counterpart of Kerala's s.15(5): its citation says whose it is."""
    expected = {
        "en": "s.15(5) of the Kerala Act, 1961",
        "ml": "1961-ലെ കേരള ആക്റ്റിലെ വകുപ്പ് 15(5)",
        "ta": "கேரளச் சட்டம், 1961-இன் பிரிவு 15(5)",
        "kn": "ಕೇರಳ ಅಧಿನಿಯಮ, 1961 ರ ಕಲಂ 15(5)",
    }
    for lang in LANGUAGES:
        tr = translator(lang)
        cited = cite("s.15(5)", tr, CATTLE_TRESPASS_1871)
        assert cited == expected[lang]
        assert cite("s.15(5)", tr) in cited  # the Kerala citation, marked as Kerala's


def test_every_citation_under_the_1871_act_is_one_of_its_own_or_marked_as_keralas() -> None:
    en = translator("en")
    for provision in PROVISIONS:
        own = CATTLE_TRESPASS_1871.cites(provision)
        cited = cite(provision, en, CATTLE_TRESPASS_1871)
        if own is None:
            assert cited.endswith("of the Kerala Act, 1961"), provision
        else:
            number = own.removeprefix("GCA ").split()[0].removeprefix("s.")
            assert cited.startswith(("s." + number, "General Clauses Act, 1897, s.")), cited


def test_a_text_that_is_no_provision_is_written_as_read_under_any_act() -> None:
    for act in PROFILES.values():
        assert cite("Rule 5", translator("ml"), act) == "Rule 5"


EXPECTED_TITLES = {
    KERALA_1961.key: (
        "Kerala Cattle Trespass Act, 1961",
        "1961-ലെ കേരള കന്നുകാലി അതിക്രമ ആക്റ്റ്",
        "கேரள கால்நடை அத்துமீறல் சட்டம், 1961",
        "ಕೇರಳ ಜಾನುವಾರು ಅತಿಕ್ರಮ ಪ್ರವೇಶ ಅಧಿನಿಯಮ, 1961",
    ),
    KERALA_1961_AMENDED.key: (
        "Kerala Cattle Trespass Act, 1961, as amended",
        "ഭേദഗതി ചെയ്ത 1961-ലെ കേരള കന്നുകാലി അതിക്രമ ആക്റ്റ്",
        "திருத்தப்பட்ட கேரள கால்நடை அத்துமீறல் சட்டம், 1961",
        "ತಿದ್ದುಪಡಿಯಾದ ಕೇರಳ ಜಾನುವಾರು ಅತಿಕ್ರಮ ಪ್ರವೇಶ ಅಧಿನಿಯಮ, 1961",
    ),
    CATTLE_TRESPASS_1871.key: (
        "Cattle-trespass Act, 1871",
        "1871-ലെ കന്നുകാലി അതിക്രമ ആക്റ്റ്",
        "கால்நடை அத்துமீறல் சட்டம், 1871",
        "ಜಾನುವಾರು ಅತಿಕ್ರಮ ಪ್ರವೇಶ ಅಧಿನಿಯಮ, 1871",
    ),
}


def test_every_act_has_a_title_in_every_language() -> None:
    assert set(EXPECTED_TITLES) == set(PROFILES)
    for key, titles in EXPECTED_TITLES.items():
        for lang, title in zip(ORDER, titles, strict=True):
            assert act_title(PROFILES[key], translator(lang)) == title


def test_the_notice_names_the_kerala_act_as_its_title_does() -> None:
    """The notice's heading (s.13(2)) and the title name the Kerala Act alike."""
    for lang in ("ml", "ta", "kn"):
        tr = translator(lang)
        assert act_title(KERALA_1961, tr) in notice_heading(tr)


def test_the_digest_cites_each_deadline_as_its_cases_act() -> None:
    """DUE lists the deadlines of cases under different Acts: each line its own Act's."""
    report = Deadline(DeadlineKind.REPORT_DUE, date(2026, 3, 9), "s.13(1)", Role.KEEPER, DAY_1)
    items = [("KNM-1", report), ("KNM-2", report)]
    for lang in ORDER:
        tr = translator(lang)
        text = digest(items, date(2026, 3, 10), tr, acts={"KNM-2": CATTLE_TRESPASS_1871})
        kerala, under_1871 = (line for line in text.splitlines() if "KNM-" in line)
        assert f"({cite('s.13(1)', tr)})" in kerala
        assert f"({cite('s.13(1)', tr, CATTLE_TRESPASS_1871)})" in under_1871
    english = digest(
        items, date(2026, 3, 10), translator("en"), acts={"KNM-2": CATTLE_TRESPASS_1871}
    )
    assert "(s.14, para 1)" in english
    assert "(s.14, para 1)" not in digest(items, date(2026, 3, 10), translator("en"))
