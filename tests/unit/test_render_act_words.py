"""Texts say what the case's own Act says (``domain.profiles``), in every language: the
offices of each Act by their names; under the Kerala Act as enacted every text as it
always was, byte for byte."""

from __future__ import annotations

import pytest

from bot.i18n import LANGUAGES, translator
from bot.i18n.common import office_title, reported_to, to_office
from domain.profiles import (
    CATTLE_TRESPASS_1871,
    KERALA_1961,
    KERALA_1961_AMENDED,
    Office,
    Power,
    Profile,
)

#: The order of the expected texts below.
ORDER = ("en", "ml", "ta", "kn")

#: Whom unclaimed cattle are reported to (s.13(1); 1871 s.14, first paragraph).
TO_LOCAL_AUTHORITY = (
    "to the local authority",
    "തദ്ദേശ സ്ഥാപനത്തിന്",
    "உள்ளாட்சி அமைப்புக்கு",
    "ಸ್ಥಳೀಯ ಸಂಸ್ಥೆಗೆ",
)
TO_POLICE_STATION = (
    "to the officer in charge of the nearest police station",
    "ഏറ്റവും അടുത്ത പോലീസ് സ്റ്റേഷന്റെ ചുമതലയുള്ള ഉദ്യോഗസ്ഥർക്ക്",
    "அருகிலுள்ள காவல் நிலையத்தின் பொறுப்பு அலுவலருக்கு",
    "ಹತ್ತಿರದ ಪೊಲೀಸ್ ಠಾಣೆಯ ಉಸ್ತುವಾರಿ ಅಧಿಕಾರಿಗೆ",
)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_office_of_the_acts_has_a_name_and_a_to_form_in_every_language(lang: str) -> None:
    tr = translator(lang)
    names = [office_title(office, tr) for office in Office]
    to_forms = [to_office(office, tr) for office in Office]
    assert len(set(names)) == len(Office)
    assert len(set(to_forms)) == len(Office)
    if lang != "en":  # translated, not the English msgid
        english = translator("en")
        assert not {office_title(o, english) for o in Office} & set(names)
        assert not {to_office(o, english) for o in Office} & set(to_forms)


def test_an_office_takes_the_ending_of_to_in_each_language() -> None:
    """The to-form is the name with the ending "to" needs: nothing is written after it."""
    for lang, local, police in zip(ORDER, TO_LOCAL_AUTHORITY, TO_POLICE_STATION, strict=True):
        tr = translator(lang)
        assert to_office(Office.LOCAL_AUTHORITY, tr) == local
        assert to_office(Office.POLICE_STATION, tr) == police
    assert office_title(Office.DISTRICT_MAGISTRATE, translator("en")) == "the District Magistrate"


@pytest.mark.parametrize(
    ("act", "expected"),
    [
        (KERALA_1961, TO_LOCAL_AUTHORITY),
        (KERALA_1961_AMENDED, TO_LOCAL_AUTHORITY),
        (CATTLE_TRESPASS_1871, TO_POLICE_STATION),
    ],
    ids=lambda v: getattr(v, "key", ""),
)
def test_unclaimed_cattle_are_reported_to_the_office_of_the_cases_act(
    act: Profile, expected: tuple[str, ...]
) -> None:
    for lang, to in zip(ORDER, expected, strict=True):
        tr = translator(lang).under(act)
        assert reported_to(tr) == to
        assert reported_to(translator(lang), act) == to
        assert to == to_office(act.office_for(Power.RECEIVE_REPORT), tr)
