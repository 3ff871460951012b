"""Texts say what the case's own Act says (``domain.profiles``), in every language: the
offices of each Act by their names; the Kerala Act as amended proclaims the notice with
no beat of drum (``Profile.drum``); under the Cattle-trespass Act, 1871 unclaimed cattle
are reported to the officer in charge of the nearest police station; the notice names
the case's Act. Under the Kerala Act as enacted every text is as it always was, byte for
byte."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import date

import pytest

from bot.config.names import local as local_name
from bot.i18n import LANGUAGES, Translator, translator
from bot.i18n import render as r
from bot.i18n.act_words import in_act
from bot.i18n.chrome import web_names
from bot.i18n.chrome.help import help_text
from bot.i18n.common import act_title, office_title, reported_to, to_office
from bot.i18n.keepers.keeper import report_sent, seizure_ack
from bot.i18n.officers.officer import notice_recorded, report_to_officer
from bot.i18n.officers.reminders import digest, reminder
from bot.i18n.public.next_step import next_step
from bot.services.public import Outcome
from domain.case import Case
from domain.deadlines import Deadline, DeadlineKind, Role
from domain.events import NoticePosted
from domain.money import Money
from domain.profiles import (
    CATTLE_TRESPASS_1871,
    KERALA_1961,
    KERALA_1961_AMENDED,
    Office,
    Power,
    Profile,
)
from domain.s04_s11_dues import dues_on
from domain.s15_3_account import Account, account_for
from domain.s15_sale import close_sale, offer_lot
from domain.statement import statement
from tests.unit import test_render_scenario as s

#: The order of the expected texts below.
ORDER = ("en", "ml", "ta", "kn")
DAY = s.IMPOUNDED

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


# --- each changed text, rendered under an Act -------------------------------------


def _line(text: str, starts: str) -> str:
    return next(line for line in text.splitlines() if line.startswith(starts))


def _notice_without_places() -> Case:
    """A notice recorded before its places were required (an old record): its
    proclamation is still due."""
    noticed = s.noticed()
    posted = NoticePosted(on=s.NOTICE_ON, office=s.authority().office_address, proclaimed_at=())
    return replace(noticed, events=(*noticed.events[:-1], posted))


def _digest(tr: Translator, act: Profile) -> str:
    """The morning digest: the report overdue (KNM-17), the notice due today (KNM-18)."""
    report = Deadline(DeadlineKind.REPORT_DUE, date(2026, 3, 9), "s.13(1)", Role.KEEPER, DAY)
    notice = Deadline(DeadlineKind.NOTICE_DUE, date(2026, 3, 10), "s.13(2)", Role.OFFICER, DAY)
    items = [("KNM-17", report), ("KNM-18", notice)]
    return digest(items, date(2026, 3, 10), tr, acts={"KNM-17": act, "KNM-18": act})


def _status(tr: Translator, dated: bool) -> str:
    case = s.reported()
    stated = statement(case, s.TARIFF, s.REPORTED_ON)
    asked = Outcome(s.public(case), None, case, s.REPORTED_ON if dated else None, stated)
    return r.status_reply(asked, tr, sms=False).splitlines()[1]


def _notice(tr: Translator) -> list[str]:
    text = r.notice_text(s.open_case(), s.authority(), s.pound(), s.NOTICE_ON, tr)
    return text.splitlines()


def _seizure_ack(tr: Translator) -> str:
    case = s.open_case()
    dues = dues_on(case, s.TARIFF, s.IMPOUNDED)
    daily = s.daily_charge(case, s.IMPOUNDED)
    return seizure_ack(case, dues, daily, tr, False, pound_name=s.pound().name)


_TEXTS: dict[str, Callable[[Translator, Profile], str]] = {
    "report to the officer, the notice due": lambda tr, act: report_to_officer(
        s.reported(), s.pound().name, s.REPORTED_ON, tr
    ).splitlines()[-1],
    "notice recorded, proclaimed at": lambda tr, act: notice_recorded(s.noticed(), tr).splitlines()[
        1
    ],
    "notice recorded, the proclamation due": lambda tr, act: notice_recorded(
        _notice_without_places(), tr
    ).splitlines()[1],
    "reminder, notice due": lambda tr, act: reminder(
        DeadlineKind.NOTICE_DUE, "KNM-17", date(2026, 3, 10), date(2026, 3, 10), tr
    ),
    "reminder, notice overdue": lambda tr, act: reminder(
        DeadlineKind.NOTICE_DUE, "KNM-17", date(2026, 3, 10), date(2026, 3, 12), tr
    ),
    "reminder, report due": lambda tr, act: reminder(
        DeadlineKind.REPORT_DUE, "KNM-17", date(2026, 3, 9), date(2026, 3, 9), tr
    ),
    "digest, report": lambda tr, act: _line(_digest(tr, act), "- KNM-17"),
    "digest, notice": lambda tr, act: _line(_digest(tr, act), "- KNM-18"),
    "seizure recorded, the report's day": lambda tr, act: _seizure_ack(tr).splitlines()[-1],
    "report sent": lambda tr, act: report_sent(
        statement(s.reported(), s.TARIFF, s.REPORTED_ON), tr, False
    ),
    "status, reported": lambda tr, act: _status(tr, dated=False),
    "status, reported on a day": lambda tr, act: _status(tr, dated=True),
    "next step, reported": lambda tr, act: " | ".join(next_step(s.reported(), s.REPORTED_ON, tr)),
    "notice, heading": lambda tr, act: _notice(tr)[0],
    "notice, proclaimed at": lambda tr, act: _notice(tr)[-3],
    "proclamation, where": lambda tr, act: r.proclamation_script(
        s.open_case(), s.authority(), s.pound(), s.NOTICE_ON, tr
    ).splitlines()[0],
    "help, notice": lambda tr, act: _line(help_text("admin", tr, sms=False), "NOTICE"),
    "help, report": lambda tr, act: _line(help_text("admin", tr, sms=False), "REPORT"),
    "web desk, report": lambda tr, act: web_names.step_title("report", tr),
}


def rendered(name: str, lang: str, act: Profile) -> str:
    """The text ``name`` as a reader of ``lang`` gets it about a case under ``act``."""
    return _TEXTS[name](translator(lang).under(act), act)


#: Each text under the Kerala Act as enacted, in en, ml, ta, kn: as the renderers gave
#: it before any Act had its own words.
KERALA: dict[str, tuple[str, str, str, str]] = {
    "report to the officer, the notice due": (
        (
            "Reported on 10 Mar 2026. The notice is due now: affix it at your office and "
            "have it proclaimed by beat of drum in the village and the nearest market "
            "place (s.13(2)). Then send NOTICE KNM-17."
        ),
        (
            "10 മാർച്ച് 2026-ന് റിപ്പോർട്ട് ചെയ്തു. ഇനി നോട്ടീസ് നൽകണം: അത് നിങ്ങളുടെ "
            "ഓഫീസിൽ പതിക്കുകയും ഗ്രാമത്തിലും ഏറ്റവും അടുത്ത ചന്തസ്ഥലത്തും ചെണ്ടകൊട്ടി "
            "വിളംബരം ചെയ്യിക്കുകയും വേണം (വകുപ്പ് 13(2)). തുടർന്ന് “നോട്ടീസ് KNM-17” "
            "അയയ്ക്കുക."
        ),
        (
            "10 மார். 2026 அன்று அறிக்கை அளிக்கப்பட்டது. இப்போது அறிவிப்பு வெளியிட "
            "வேண்டும்: அதை உங்கள் அலுவலகத்தில் ஒட்டி, கிராமத்திலும் அருகிலுள்ள சந்தையிலும் "
            "தண்டோரா மூலம் அறிவிக்கச் செய்யவும் (பிரிவு 13(2)). பின்னர் “அறிவிப்பு KNM-17” "
            "அனுப்பவும்."
        ),
        (
            "10 ಮಾರ್ಚ್ 2026 ರಂದು ವರದಿ ಮಾಡಲಾಗಿದೆ. ಈಗ ನೋಟಿಸ್ ಹೊರಡಿಸಬೇಕು: ಅದನ್ನು ನಿಮ್ಮ "
            "ಕಚೇರಿಯಲ್ಲಿ ಅಂಟಿಸಿ, ಗ್ರಾಮದಲ್ಲಿ ಮತ್ತು ಹತ್ತಿರದ ಮಾರುಕಟ್ಟೆ ಸ್ಥಳದಲ್ಲಿ ಡಂಗುರ ಸಾರಿಸಿ "
            "(ಕಲಂ 13(2)). ನಂತರ “ನೋಟಿಸ್ KNM-17” ಕಳುಹಿಸಿ."
        ),
    ),
    "notice recorded, proclaimed at": (
        (
            "Proclaimed by beat of drum at Kunnamangalam, Kunnamangalam Town Market, "
            "Kunnamangalam Angadi (s.13(2))."
        ),
        ("ചെണ്ടകൊട്ടി വിളംബരം ചെയ്ത സ്ഥലം: കുന്ദമംഗലം, കുന്ദമംഗലം ടൗൺ മാർക്കറ്റ്, കുന്ദമംഗലം അങ്ങാടി (വകുപ്പ് 13(2))."),
        (
            "தண்டோரா மூலம் அறிவிக்கப்பட்ட இடங்கள்: Kunnamangalam, Kunnamangalam Town "
            "Market, Kunnamangalam Angadi (பிரிவு 13(2))."
        ),
        (
            "ಡಂಗುರ ಸಾರಿದ ಸ್ಥಳಗಳು: Kunnamangalam, Kunnamangalam Town Market, Kunnamangalam "
            "Angadi (ಕಲಂ 13(2))."
        ),
    ),
    "notice recorded, the proclamation due": (
        (
            "Have it proclaimed by beat of drum in the village and the nearest market "
            "place (s.13(2))."
        ),
        ("ഗ്രാമത്തിലും ഏറ്റവും അടുത്ത ചന്തസ്ഥലത്തും ചെണ്ടകൊട്ടി വിളംബരം ചെയ്യിക്കുക (വകുപ്പ് 13(2))."),
        ("கிராமத்திலும் அருகிலுள்ள சந்தையிலும் தண்டோரா மூலம் அறிவிக்கச் செய்யவும் (பிரிவு 13(2))."),
        "ಗ್ರಾಮದಲ್ಲಿ ಮತ್ತು ಹತ್ತಿರದ ಮಾರುಕಟ್ಟೆ ಸ್ಥಳದಲ್ಲಿ ಡಂಗುರ ಸಾರಿಸಿ (ಕಲಂ 13(2)).",
    ),
    "reminder, notice due": (
        (
            "Case KNM-17: affix the notice and have it proclaimed by beat of drum on 10 "
            "Mar 2026 (s.13(2)). Then send NOTICE KNM-17."
        ),
        (
            "കേസ് KNM-17: 10 മാർച്ച് 2026-ന് നോട്ടീസ് പതിച്ച് ചെണ്ടകൊട്ടി വിളംബരം "
            "ചെയ്യിക്കുക (വകുപ്പ് 13(2)). തുടർന്ന് “നോട്ടീസ് KNM-17” അയയ്ക്കുക."
        ),
        (
            "வழக்கு KNM-17: 10 மார். 2026 அன்று அறிவிப்பை ஒட்டித் தண்டோரா மூலம் அறிவிக்கச் "
            "செய்யவும் (பிரிவு 13(2)). பின்னர் “அறிவிப்பு KNM-17” அனுப்பவும்."
        ),
        (
            "ಪ್ರಕರಣ KNM-17: 10 ಮಾರ್ಚ್ 2026 ರಂದು ನೋಟಿಸ್ ಅಂಟಿಸಿ ಡಂಗುರ ಸಾರಿಸಿ (ಕಲಂ 13(2)). "
            "ನಂತರ “ನೋಟಿಸ್ KNM-17” ಕಳುಹಿಸಿ."
        ),
    ),
    "reminder, notice overdue": (
        (
            "OVERDUE: case KNM-17: the notice and the beat of drum were due on 10 Mar 2026 "
            "(s.13(2)). Do them today and send NOTICE KNM-17."
        ),
        (
            "സമയപരിധി കഴിഞ്ഞു: കേസ് KNM-17: നോട്ടീസും ചെണ്ടകൊട്ടി വിളംബരവും 10 മാർച്ച് "
            "2026-ന് നടത്തേണ്ടതായിരുന്നു (വകുപ്പ് 13(2)). ഇന്നുതന്നെ അവ നടത്തി “നോട്ടീസ് "
            "KNM-17” അയയ്ക്കുക."
        ),
        (
            "காலம் கடந்தது: வழக்கு KNM-17: அறிவிப்பும் தண்டோராவும் 10 மார். 2026 அன்று "
            "செய்யப்பட்டிருக்க வேண்டும் (பிரிவு 13(2)). இன்றே அவற்றைச் செய்து “அறிவிப்பு "
            "KNM-17” அனுப்பவும்."
        ),
        (
            "ಗಡುವು ಮೀರಿದೆ: ಪ್ರಕರಣ KNM-17: ನೋಟಿಸ್ ಮತ್ತು ಡಂಗುರ 10 ಮಾರ್ಚ್ 2026 ರಂದು "
            "ಆಗಬೇಕಿತ್ತು (ಕಲಂ 13(2)). ಇಂದೇ ಅವುಗಳನ್ನು ಮಾಡಿ “ನೋಟಿಸ್ KNM-17” ಕಳುಹಿಸಿ."
        ),
    ),
    "reminder, report due": (
        (
            "Case KNM-17: report the unclaimed cattle to the local authority on 9 Mar 2026 "
            "(s.13(1)). Send REPORT KNM-17."
        ),
        (
            "കേസ് KNM-17: അവകാശപ്പെടാത്ത കന്നുകാലികളെക്കുറിച്ച് 9 മാർച്ച് 2026-ന് തദ്ദേശ "
            "സ്ഥാപനത്തിന് റിപ്പോർട്ട് നൽകുക (വകുപ്പ് 13(1)). “റിപ്പോർട്ട് KNM-17” "
            "അയയ്ക്കുക."
        ),
        (
            "வழக்கு KNM-17: உரிமை கோரப்படாத கால்நடைகள் குறித்து 9 மார். 2026 அன்று "
            "உள்ளாட்சி அமைப்புக்கு அறிக்கை அளிக்கவும் (பிரிவு 13(1)). “அறிக்கை KNM-17” "
            "அனுப்பவும்."
        ),
        (
            "ಪ್ರಕರಣ KNM-17: ಹಕ್ಕು ಕೋರದ ಜಾನುವಾರುಗಳ ಬಗ್ಗೆ 9 ಮಾರ್ಚ್ 2026 ರಂದು ಸ್ಥಳೀಯ ಸಂಸ್ಥೆಗೆ "
            "ವರದಿ ಮಾಡಿ (ಕಲಂ 13(1)). “ವರದಿ KNM-17” ಕಳುಹಿಸಿ."
        ),
    ),
    "digest, report": (
        "- KNM-17: report to the local authority, 9 Mar 2026 (s.13(1)), 1 day overdue",
        ("- KNM-17: തദ്ദേശ സ്ഥാപനത്തിന് റിപ്പോർട്ട്, 9 മാർച്ച് 2026 (വകുപ്പ് 13(1)), 1 ദിവസം വൈകി"),
        ("- KNM-17: உள்ளாட்சி அமைப்புக்கு அறிக்கை, 9 மார். 2026 (பிரிவு 13(1)), 1 நாள் தாமதம்"),
        "- KNM-17: ಸ್ಥಳೀಯ ಸಂಸ್ಥೆಗೆ ವರದಿ, 9 ಮಾರ್ಚ್ 2026 (ಕಲಂ 13(1)), 1 ದಿನ ವಿಳಂಬ",
    ),
    "digest, notice": (
        "- KNM-18: notice and beat of drum (s.13(2))",
        "- KNM-18: നോട്ടീസും ചെണ്ടകൊട്ടി വിളംബരവും (വകുപ്പ് 13(2))",
        "- KNM-18: அறிவிப்பும் தண்டோராவும் (பிரிவு 13(2))",
        "- KNM-18: ನೋಟಿಸ್ ಮತ್ತು ಡಂಗುರ (ಕಲಂ 13(2))",
    ),
    "seizure recorded, the report's day": (
        (
            "If they are not claimed within seven days, the pound-keeper reports them to "
            "the local authority on 10 Mar 2026 (s.13(1))."
        ),
        (
            "ഏഴു ദിവസത്തിനകം അവകാശപ്പെടാത്തപക്ഷം പൗണ്ട് സൂക്ഷിപ്പുകാർ 10 മാർച്ച് 2026-ന് "
            "തദ്ദേശ സ്ഥാപനത്തിന് റിപ്പോർട്ട് നൽകും (വകുപ്പ് 13(1))."
        ),
        (
            "ஏழு நாட்களுக்குள் உரிமை கோரப்படாவிட்டால், பட்டிக் காப்பாளர் 10 மார். 2026 "
            "அன்று உள்ளாட்சி அமைப்புக்கு அறிக்கை அளிப்பார் (பிரிவு 13(1))."
        ),
        (
            "ಏಳು ದಿನಗಳೊಳಗೆ ಹಕ್ಕು ಕೋರದಿದ್ದರೆ ದೊಡ್ಡಿ ಪಾಲಕರು 10 ಮಾರ್ಚ್ 2026 ರಂದು ಸ್ಥಳೀಯ "
            "ಸಂಸ್ಥೆಗೆ ವರದಿ ಮಾಡುತ್ತಾರೆ (ಕಲಂ 13(1))."
        ),
    ),
    "report sent": (
        (
            "Case KNM-17: reported unclaimed to the local authority on 10 Mar 2026 "
            "(s.13(1)). The officer now posts the notice and has it proclaimed by beat of "
            "drum (s.13(2))."
        ),
        (
            "കേസ് KNM-17: ആരും അവകാശപ്പെട്ടില്ലെന്ന് 10 മാർച്ച് 2026-ന് തദ്ദേശ "
            "സ്ഥാപനത്തിന് റിപ്പോർട്ട് ചെയ്തു (വകുപ്പ് 13(1)). ഇനി ഉദ്യോഗസ്ഥർ നോട്ടീസ് "
            "പതിച്ച് ചെണ്ടകൊട്ടി വിളംബരം നടത്തും (വകുപ്പ് 13(2))."
        ),
        (
            "வழக்கு KNM-17: உரிமை கோரப்படவில்லை என 10 மார். 2026 அன்று உள்ளாட்சி "
            "அமைப்புக்கு அறிக்கை அளிக்கப்பட்டது (பிரிவு 13(1)). அடுத்து அலுவலர் அறிவிப்பை "
            "ஒட்டித் தண்டோரா மூலம் அறிவிக்கச் செய்வார் (பிரிவு 13(2))."
        ),
        (
            "ಪ್ರಕರಣ KNM-17: ಹಕ್ಕು ಕೋರದ ಜಾನುವಾರುಗಳ ಬಗ್ಗೆ 10 ಮಾರ್ಚ್ 2026 ರಂದು ಸ್ಥಳೀಯ "
            "ಸಂಸ್ಥೆಗೆ ವರದಿ ಮಾಡಲಾಗಿದೆ (ಕಲಂ 13(1)). ಇನ್ನು ಅಧಿಕಾರಿ ನೋಟಿಸ್ ಅಂಟಿಸಿ ಡಂಗುರ "
            "ಸಾರಿಸುತ್ತಾರೆ (ಕಲಂ 13(2))."
        ),
    ),
    "status, reported": (
        (
            "Reported unclaimed to the local authority (s.13(1)); a notice and a "
            "proclamation by beat of drum follow (s.13(2))."
        ),
        (
            "ആരും അവകാശപ്പെട്ടില്ലെന്ന് തദ്ദേശ സ്ഥാപനത്തിന് റിപ്പോർട്ട് ചെയ്തു (വകുപ്പ് "
            "13(1)); ഇനി നോട്ടീസും ചെണ്ടകൊട്ടി വിളംബരവും (വകുപ്പ് 13(2))."
        ),
        (
            "உரிமை கோரப்படவில்லை என உள்ளாட்சி அமைப்புக்கு அறிக்கை அளிக்கப்பட்டது (பிரிவு "
            "13(1)); அடுத்து அறிவிப்பும் தண்டோராவும் (பிரிவு 13(2))."
        ),
        ("ಹಕ್ಕು ಕೋರಿಲ್ಲವೆಂದು ಸ್ಥಳೀಯ ಸಂಸ್ಥೆಗೆ ವರದಿ ಮಾಡಲಾಗಿದೆ (ಕಲಂ 13(1)); ಮುಂದೆ ನೋಟಿಸ್ ಮತ್ತು ಡಂಗುರ (ಕಲಂ 13(2))."),
    ),
    "status, reported on a day": (
        (
            "Reported unclaimed to the local authority on 10 Mar 2026 (s.13(1)); a notice "
            "and a proclamation by beat of drum follow (s.13(2))."
        ),
        (
            "ആരും അവകാശപ്പെട്ടില്ലെന്ന് 10 മാർച്ച് 2026-ന് തദ്ദേശ സ്ഥാപനത്തിന് റിപ്പോർട്ട് "
            "ചെയ്തു (വകുപ്പ് 13(1)); ഇനി നോട്ടീസും ചെണ്ടകൊട്ടി വിളംബരവും (വകുപ്പ് 13(2))."
        ),
        (
            "உரிமை கோரப்படவில்லை என 10 மார். 2026 அன்று உள்ளாட்சி அமைப்புக்கு அறிக்கை "
            "அளிக்கப்பட்டது (பிரிவு 13(1)); அடுத்து அறிவிப்பும் தண்டோராவும் (பிரிவு 13(2))."
        ),
        (
            "ಹಕ್ಕು ಕೋರಿಲ್ಲವೆಂದು 10 ಮಾರ್ಚ್ 2026 ರಂದು ಸ್ಥಳೀಯ ಸಂಸ್ಥೆಗೆ ವರದಿ ಮಾಡಲಾಗಿದೆ (ಕಲಂ "
            "13(1)); ಮುಂದೆ ನೋಟಿಸ್ ಮತ್ತು ಡಂಗುರ (ಕಲಂ 13(2))."
        ),
    ),
    "next step, reported": (
        (
            "Reported unclaimed on 10 Mar 2026 (s.13(1)); notice and beat of drum next "
            "(s.13(2)). | Notice and beat of drum next (s.13(2))."
        ),
        (
            "ആരും അവകാശപ്പെട്ടില്ലെന്ന് 10 മാർച്ച് 2026-ന് റിപ്പോർട്ട് ചെയ്തു (വകുപ്പ് "
            "13(1)); ഇനി നോട്ടീസും ചെണ്ടകൊട്ടി വിളംബരവും (വകുപ്പ് 13(2)). | ഇനി നോട്ടീസും "
            "ചെണ്ടകൊട്ടി വിളംബരവും (വകുപ്പ് 13(2))."
        ),
        (
            "உரிமை கோரப்படவில்லை என 10 மார். 2026 அன்று அறிக்கை (பிரிவு 13(1)); அடுத்து "
            "அறிவிப்பும் தண்டோராவும் (பிரிவு 13(2)). | அடுத்து அறிவிப்பும் தண்டோராவும் "
            "(பிரிவு 13(2))."
        ),
        (
            "ಹಕ್ಕು ಕೋರಿಲ್ಲವೆಂದು 10 ಮಾರ್ಚ್ 2026 ರಂದು ವರದಿ (ಕಲಂ 13(1)); ಮುಂದೆ ನೋಟಿಸ್ ಮತ್ತು "
            "ಡಂಗುರ (ಕಲಂ 13(2)). | ಮುಂದೆ ನೋಟಿಸ್ ಮತ್ತು ಡಂಗುರ (ಕಲಂ 13(2))."
        ),
    ),
    "notice, heading": (
        "Notice under s.13(2) of the Kerala Cattle Trespass Act, 1961",
        "1961-ലെ കേരള കന്നുകാലി അതിക്രമ ആക്റ്റ് വകുപ്പ് 13(2) പ്രകാരമുള്ള നോട്ടീസ്",
        "கேரள கால்நடை அத்துமீறல் சட்டம், 1961, பிரிவு 13(2)-இன் கீழ் அறிவிப்பு",
        "ಕೇರಳ ಜಾನುವಾರು ಅತಿಕ್ರಮ ಪ್ರವೇಶ ಅಧಿನಿಯಮ, 1961 ರ ಕಲಂ 13(2) ರ ಅಡಿಯಲ್ಲಿ ನೋಟಿಸ್",
    ),
    "notice, proclaimed at": (
        (
            "This notice is also proclaimed by beat of drum at these places: "
            "Kunnamangalam; Kunnamangalam Town Market, Kunnamangalam Angadi (s.13(2))."
        ),
        (
            "ഈ നോട്ടീസ് താഴെപ്പറയുന്ന സ്ഥലങ്ങളിൽ ചെണ്ടകൊട്ടി വിളംബരം ചെയ്യുന്നതാണ്: "
            "കുന്ദമംഗലം; കുന്ദമംഗലം ടൗൺ മാർക്കറ്റ്, കുന്ദമംഗലം അങ്ങാടി (വകുപ്പ് 13(2))."
        ),
        (
            "இந்த அறிவிப்பு பின்வரும் இடங்களில் தண்டோரா மூலமும் அறிவிக்கப்படுகிறது: "
            "Kunnamangalam; Kunnamangalam Town Market, Kunnamangalam Angadi (பிரிவு 13(2))."
        ),
        (
            "ಈ ನೋಟಿಸ್ ಅನ್ನು ಈ ಸ್ಥಳಗಳಲ್ಲಿ ಡಂಗುರ ಸಾರುವ ಮೂಲಕವೂ ಪ್ರಕಟಿಸಲಾಗುತ್ತದೆ: "
            "Kunnamangalam; Kunnamangalam Town Market, Kunnamangalam Angadi (ಕಲಂ 13(2))."
        ),
    ),
    "proclamation, where": (
        (
            "Proclamation by beat of drum (s.13(2)), case KNM-17. To be read at: "
            "Kunnamangalam; Kunnamangalam Town Market, Kunnamangalam Angadi."
        ),
        (
            "ചെണ്ടകൊട്ടി വിളംബരം (വകുപ്പ് 13(2)), കേസ് KNM-17. വായിക്കേണ്ട സ്ഥലങ്ങൾ: "
            "കുന്ദമംഗലം; കുന്ദമംഗലം ടൗൺ മാർക്കറ്റ്, കുന്ദമംഗലം അങ്ങാടി."
        ),
        (
            "தண்டோரா அறிவிப்பு (பிரிவு 13(2)), வழக்கு KNM-17. வாசிக்க வேண்டிய இடங்கள்: "
            "Kunnamangalam; Kunnamangalam Town Market, Kunnamangalam Angadi."
        ),
        (
            "ಡಂಗುರ ಸಾರುವಿಕೆ (ಕಲಂ 13(2)), ಪ್ರಕರಣ KNM-17. ಓದಬೇಕಾದ ಸ್ಥಳಗಳು: Kunnamangalam; "
            "Kunnamangalam Town Market, Kunnamangalam Angadi."
        ),
    ),
    "help, notice": (
        (
            "NOTICE <case> [AT <village>, <market place>] [ON <date>]: the notice to "
            "print; with AT or ON: posted, and proclaimed by beat of drum in the village "
            "and the market place (s.13(2))"
        ),
        # Changed: the glossary's ചെണ്ടകൊട്ടി for the beat of drum (it said പെരുമ്പറ കൊട്ടി).
        (
            "NOTICE / നോട്ടീസ് <കേസ്> [AT <ഗ്രാമം>, <ചന്ത>] [ON <തീയതി>]: അച്ചടിക്കാനുള്ള "
            "നോട്ടീസ്; AT അല്ലെങ്കിൽ ON ചേർത്താൽ: നോട്ടീസ് പതിച്ചു, ഗ്രാമത്തിലും ചന്തയിലും "
            "ചെണ്ടകൊട്ടി വിളംബരം ചെയ്തു (വകുപ്പ് 13(2))"
        ),
        (
            "NOTICE / அறிவிப்பு <வழக்கு> [AT <கிராமம்>, <சந்தை>] [ON <தேதி>]: அச்சிட "
            "வேண்டிய அறிவிப்பு; AT அல்லது ON உடன்: அறிவிப்பு ஒட்டப்பட்டது, கிராமத்திலும் "
            "சந்தையிலும் தண்டோரா மூலம் அறிவிக்கப்பட்டது (பிரிவு 13(2))"
        ),
        (
            "NOTICE / ನೋಟಿಸ್ <ಪ್ರಕರಣ> [AT <ಗ್ರಾಮ>, <ಮಾರುಕಟ್ಟೆ>] [ON <ದಿನಾಂಕ>]: "
            "ಮುದ್ರಿಸಬೇಕಾದ ನೋಟಿಸ್; AT ಅಥವಾ ON ಜೊತೆಗೆ: ನೋಟಿಸ್ ಅಂಟಿಸಲಾಗಿದೆ, ಗ್ರಾಮದಲ್ಲಿ ಮತ್ತು "
            "ಮಾರುಕಟ್ಟೆಯಲ್ಲಿ ಡಂಗುರ ಸಾರಲಾಗಿದೆ (ಕಲಂ 13(2))"
        ),
    ),
    "help, report": (
        "REPORT <case>: report unclaimed cattle to the local authority (s.13(1))",
        (
            "REPORT / റിപ്പോർട്ട് <കേസ്>: അവകാശപ്പെടാത്ത കന്നുകാലികളെക്കുറിച്ച് തദ്ദേശ "
            "സ്ഥാപനത്തിന് റിപ്പോർട്ട് നൽകുക (വകുപ്പ് 13(1))"
        ),
        (
            "REPORT / அறிக்கை <வழக்கு எண்>: உரிமை கோரப்படாத கால்நடைகள் குறித்து உள்ளாட்சி "
            "அமைப்புக்கு அறிக்கை அளித்தல் (பிரிவு 13(1))"
        ),
        ("REPORT / ವರದಿ <ಪ್ರಕರಣ>: ಹಕ್ಕು ಕೋರದ ಜಾನುವಾರುಗಳ ಬಗ್ಗೆ ಸ್ಥಳೀಯ ಸಂಸ್ಥೆಗೆ ವರದಿ ಮಾಡಿ (ಕಲಂ 13(1))"),
    ),
    "web desk, report": (
        "Report unclaimed to the local authority (s.13(1))",
        # Changed: the report made "to" the office (the dative) as in every other
        # text, where the step was to "inform" it (തദ്ദേശ സ്ഥാപനത്തെ അറിയിക്കുക).
        ("ആരും അവകാശപ്പെട്ടില്ലെന്ന് തദ്ദേശ സ്ഥാപനത്തിന് റിപ്പോർട്ട് ചെയ്യുക (വകുപ്പ് 13(1))"),
        "உரிமை கோரப்படவில்லை என உள்ளாட்சி அமைப்புக்கு அறிக்கையிடுக (பிரிவு 13(1))",
        "ಹಕ್ಕು ಕೋರಿಲ್ಲವೆಂದು ಸ್ಥಳೀಯ ಸಂಸ್ಥೆಗೆ ವರದಿ ಮಾಡಿ (ಕಲಂ 13(1))",
    ),
}

#: A word that names the beat of drum, and one that names a proclamation without it.
DRUM = {"en": "drum", "ml": "ചെണ്ട", "ta": "தண்டோரா", "kn": "ಡಂಗುರ"}
PROCLAIMED = {"en": "procla", "ml": "വിളംബര", "ta": "பிரகடன", "kn": "ಉದ್ಘೋಷ"}

#: The texts that say how the notice is proclaimed (s.13(2)).
DRUM_TEXTS = (
    "report to the officer, the notice due",
    "notice recorded, proclaimed at",
    "notice recorded, the proclamation due",
    "reminder, notice due",
    "reminder, notice overdue",
    "digest, notice",
    "report sent",
    "status, reported",
    "status, reported on a day",
    "next step, reported",
    "notice, proclaimed at",
    "proclamation, where",
    "help, notice",
)

#: The texts that say whom unclaimed cattle are reported to (s.13(1)).
OFFICE_TEXTS = (
    "reminder, report due",
    "digest, report",
    "seizure recorded, the report's day",
    "report sent",
    "status, reported",
    "status, reported on a day",
    "help, report",
    "web desk, report",
)


def test_every_text_of_the_act_is_held_here() -> None:
    assert set(KERALA) == set(_TEXTS)
    assert set(DRUM_TEXTS) | set(OFFICE_TEXTS) | {"notice, heading"} == set(_TEXTS)


@pytest.mark.parametrize("name", KERALA)
def test_under_the_kerala_act_as_enacted_each_text_is_as_it_was(name: str) -> None:
    for lang, expected in zip(ORDER, KERALA[name], strict=True):
        assert rendered(name, lang, KERALA_1961) == expected, lang


@pytest.mark.parametrize("name", DRUM_TEXTS)
def test_under_the_amended_act_the_notice_is_proclaimed_with_no_beat_of_drum(name: str) -> None:
    """s.13(2) as amended: "proclamation of the same to be made in the village and in the
    market place nearest to the place of seizure", no drum."""
    assert not KERALA_1961_AMENDED.drum
    for lang in ORDER:
        text = rendered(name, lang, KERALA_1961_AMENDED)
        assert DRUM[lang] not in text, (lang, text)
        assert PROCLAIMED[lang] in text.lower(), (lang, text)


@pytest.mark.parametrize("name", DRUM_TEXTS)
def test_under_the_1871_act_the_drum_is_beaten_as_under_the_kerala_act(name: str) -> None:
    """1871 s.14, second paragraph: "by beat of drum in the village and the nearest
    market place"."""
    assert CATTLE_TRESPASS_1871.drum
    for lang in ORDER:
        assert DRUM[lang] in rendered(name, lang, CATTLE_TRESPASS_1871), lang


@pytest.mark.parametrize("name", OFFICE_TEXTS)
def test_under_the_1871_act_the_report_goes_to_the_police_station(name: str) -> None:
    """1871 s.14, first paragraph: the pound-keeper reports to "the officer in charge of
    the nearest police station"; the amended Kerala Act keeps the local authority."""
    for lang, police, local in zip(ORDER, TO_POLICE_STATION, TO_LOCAL_AUTHORITY, strict=True):
        under_1871 = rendered(name, lang, CATTLE_TRESPASS_1871)
        assert police in under_1871, (lang, under_1871)
        assert local not in under_1871, (lang, under_1871)
        assert local in rendered(name, lang, KERALA_1961_AMENDED), lang


@pytest.mark.parametrize("act", [KERALA_1961, KERALA_1961_AMENDED, CATTLE_TRESPASS_1871])
def test_the_notice_is_headed_with_the_title_of_the_cases_act(act: Profile) -> None:
    for lang in ORDER:
        tr = translator(lang).under(act)
        assert act_title(act, tr) in rendered("notice, heading", lang, act)
    english = rendered("notice, heading", "en", CATTLE_TRESPASS_1871)
    assert english == "Notice under s.14, para 2 of the Cattle-trespass Act, 1871"


# --- s.13(3) proviso: the order of another disposal -------------------------------


def _sell(case: Case, lot: int, count: int, rupees: str) -> Case:
    return offer_lot(
        case,
        lot=lot,
        count=count,
        price=Money.rupees(rupees),
        buyer=s.BUYER,
        buyer_role=None,
        declared_not_barred=True,
        on=s.AUCTION_ON,
        today=s.FAR,
    )


def _part_disposed() -> tuple[Case, Account]:
    """Cows and buffalo sold on 19 March, the goats handed to a goshala by order of the
    Director of Animal Husbandry (as recorded); the sale closed (s.15(3))."""
    case = _sell(_sell(s.disposed_otherwise(), 0, 2, "64000.50"), 1, 1, "38000")
    expenses = Money.rupees("1250.75")
    closed, settled = close_sale(case, s.TARIFF, on=s.AUCTION_ON, expenses=expenses, today=s.FAR)
    return closed, account_for(closed, settled, s.AUCTION_ON)


def _status_of_disposal(lang: str, act: Profile, *, sms: bool, offices: bool = False) -> str:
    case, account = _part_disposed()
    stated = statement(case, s.TARIFF, s.AUCTION_ON)
    asked = Outcome(s.public(case), account, case, None, stated)
    configured = s.config().proviso_offices if offices else ()
    tr = translator(lang).under(act)
    return r.status_reply(asked, tr, sms=sms, offices=configured)


#: "the Director's order", as the texts said it under every Act.
def _in_the_act(act: Profile, lang: str, kerala: str, msgid: str) -> str:
    """``kerala``, a text of ``msgid`` as the Kerala Act words it, with its citations as
    ``act`` cites them (``bot.i18n.act_words``, tested on its own)."""
    return in_act(translator(lang).under(act), kerala, msgid)


DIRECTORS_ORDER = {"en": "Director's", "ml": "ഡയറക്ടറുടെ", "ta": "இயக்குநர", "kn": "ನಿರ್ದೇಶಕರ"}
ACTS = [KERALA_1961, KERALA_1961_AMENDED, CATTLE_TRESPASS_1871]


@pytest.mark.parametrize("act", ACTS, ids=lambda a: a.key)
def test_the_account_counts_heads_disposed_of_by_order_under_every_act(act: Profile) -> None:
    """s.15(3)(d), s.13(3) proviso: the order is the Director's under the Kerala Act as
    enacted, the local authority's as amended, the District Magistrate's under the 1871
    Act: the account says "by order", true under each."""
    expected = (
        "Disposed of otherwise by order, not sold (s.13(3) proviso): 3",
        "ഉത്തരവു പ്രകാരം, വിൽക്കാതെ, മറ്റു വിധത്തിൽ വിനിയോഗിച്ച കന്നുകാലികളുടെ എണ്ണം (വകുപ്പ് 13(3) പരന്തുകം): 3",
        "விற்கப்படாமல், உத்தரவின்படி வேறு முறையில் கையாளப்பட்ட கால்நடைகளின் எண்ணிக்கை (பிரிவு 13(3) வரம்புரை): 3",
        "ಮಾರಾಟ ಮಾಡದೆ, ಆದೇಶದಂತೆ ಬೇರೆ ರೀತಿಯಲ್ಲಿ ವಿಲೇವಾರಿ ಮಾಡಿದ ಜಾನುವಾರುಗಳ ಸಂಖ್ಯೆ (ಕಲಂ 13(3) ಪರಂತುಕ): 3",
    )
    msgid = "Disposed of otherwise by order, not sold (s.13(3) proviso): %(disposed)d"
    _, account = _part_disposed()
    for lang, line in zip(ORDER, expected, strict=True):
        text = r.account_text(account, translator(lang).under(act))
        assert _in_the_act(act, lang, line, msgid) in text.splitlines(), lang
        assert DIRECTORS_ORDER[lang] not in text, lang


@pytest.mark.parametrize("act", ACTS, ids=lambda a: a.key)
def test_status_in_a_chat_names_the_office_that_ordered_the_disposal_as_recorded(
    act: Profile,
) -> None:
    """The office recorded with the order (``DisposedOtherwise.ordered_by``), in the
    language when the configured offices are given, as recorded when not."""
    office = s.config().proviso_offices[0]
    for lang in ORDER:
        named = _status_of_disposal(lang, act, sms=False, offices=True)
        assert local_name(office.name, lang) in named, lang
        assert DIRECTORS_ORDER[lang] not in named.replace(local_name(office.name, lang), ""), lang
        recorded = _status_of_disposal(lang, act, sms=False)
        assert "Director of Animal Husbandry" in recorded, lang
    msgid = (
        "Part sold by public auction (s.13(3)), the rest disposed of otherwise by order "
        "of %(by)s (s.13(3) proviso)."
    )
    sentence = _in_the_act(act, "en", msgid, msgid) % {"by": "Director of Animal Husbandry"}
    assert sentence in _status_of_disposal("en", act, sms=False)


@pytest.mark.parametrize("act", ACTS, ids=lambda a: a.key)
def test_status_by_sms_names_no_office_it_would_cost_a_segment(act: Profile) -> None:
    expected = (
        "Part sold by public auction (s.13(3)), the rest disposed of by order (s.13(3) proviso).",
        "ഒരു ഭാഗം പരസ്യലേലത്തിൽ വിറ്റു (വകുപ്പ് 13(3)), ബാക്കി ഉത്തരവു പ്രകാരം വിനിയോഗിച്ചു (വകുപ്പ് 13(3) പരന്തുകം).",
        "ஒரு பகுதி பொது ஏலத்தில் விற்கப்பட்டது (பிரிவு 13(3)), மீதி உத்தரவின்படி "
        "கையாளப்பட்டது (பிரிவு 13(3) வரம்புரை).",
        "ಕೆಲವನ್ನು ಬಹಿರಂಗ ಹರಾಜಿನಲ್ಲಿ ಮಾರಲಾಗಿದೆ (ಕಲಂ 13(3)), ಉಳಿದವನ್ನು ಆದೇಶದಂತೆ ವಿಲೇವಾರಿ "
        "ಮಾಡಲಾಗಿದೆ (ಕಲಂ 13(3) ಪರಂತುಕ).",
    )
    msgid = (
        "Part sold by public auction (s.13(3)), the rest disposed of by order (s.13(3) proviso)."
    )
    for lang, sentence in zip(ORDER, expected, strict=True):
        text = _status_of_disposal(lang, act, sms=True, offices=True)
        assert _in_the_act(act, lang, sentence, msgid) in text, (lang, text)
        assert "Director" not in text, lang
        assert DIRECTORS_ORDER[lang] not in text, lang


@pytest.mark.parametrize(
    ("act", "office"),
    [
        (KERALA_1961, Office.DIRECTOR),
        (KERALA_1961_AMENDED, Office.LOCAL_AUTHORITY),
        (CATTLE_TRESPASS_1871, Office.DISTRICT_MAGISTRATE),
    ],
    ids=lambda v: getattr(v, "key", getattr(v, "value", "")),
)
def test_status_without_the_recorded_order_names_the_office_of_the_cases_act(
    act: Profile, office: Office
) -> None:
    """With no statement of the case at hand, the office the case's Act gives the power
    to order another disposal (``Profile.office_for``)."""
    assert act.office_for(Power.ORDER_DISPOSAL) is office
    case, account = _part_disposed()
    for lang in ORDER:
        tr = translator(lang).under(act)
        text = r.status_reply(Outcome(s.public(case), account), tr, sms=False)
        assert office_title(office, tr) in text, (lang, text)
