"""No case ending on a name: a name placeholder stands after a label and a colon, in
brackets, or before a noun, never with an ending written after it (i18n_tools.names)."""

from __future__ import annotations

import re

import pytest
from babel.messages.catalog import Message
from babel.messages.pofile import read_po

from bot.i18n.catalogs import LOCALES_DIR, read_catalog
from i18n_tools.names import DATES, NAMES, NOT_NAMES, endings_on_names

TRANSLATED = ("ml", "ta", "kn")
_PLACEHOLDER = re.compile(r"%\((\w+)\)")


def _strings(message: Message) -> tuple[str, ...]:
    strings = message.string
    if isinstance(strings, tuple | list):
        return tuple(str(s) for s in strings)
    return (strings or "",)


def _ids(message: Message) -> tuple[str, ...]:
    ids = message.id
    return tuple(ids) if isinstance(ids, tuple | list) else (str(ids),)


def _template_placeholders() -> set[str]:
    with (LOCALES_DIR / "messages.pot").open("rb") as fp:
        catalog = read_po(fp)
    return {name for m in catalog if m.id for i in _ids(m) for name in _PLACEHOLDER.findall(i)}


def test_every_placeholder_of_the_catalogs_is_classed_as_a_name_or_not() -> None:
    unclassed = _template_placeholders() - NAMES - NOT_NAMES
    assert unclassed == set(), f"class these in i18n_tools/names.py: {sorted(unclassed)}"


def test_no_placeholder_is_classed_both_ways() -> None:
    assert not NAMES & NOT_NAMES


def test_the_names_the_reading_lists_are_classed_as_names() -> None:
    listed = "place places pound village market authority office name buyer claimant"
    assert set(listed.split()) <= NAMES


@pytest.mark.parametrize("lang", TRANSLATED)
def test_no_name_placeholder_takes_a_case_ending(lang: str) -> None:
    flagged = [
        (_ids(m)[0][:70], e.placeholder, e.after, e.why)
        for m in read_catalog(lang)
        if m.id
        for text in _strings(m)
        for e in endings_on_names(text, lang)
    ]
    assert flagged == []


@pytest.mark.parametrize(
    ("lang", "text"),
    [
        ("ml", "%(place)s-ൽ നിന്ന് പിടിച്ചെടുത്ത %(cattle)s"),
        ("ml", "ഈ നോട്ടീസ് %(village)s-ലും ചെണ്ടകൊട്ടി"),
        ("ml", "%(authority)s-ന്റെ ഉത്തരവു പ്രകാരം"),
        ("ml", "%(pound)sൽ"),
        ("ml", "“%(name)s”-ന്റെ അവകാശവാദം"),
        ("ml", "%(cattle)s %(date)s-ന് %(pound)s പൗണ്ടിലാക്കി."),
        ("ml", "%(pound)s ൽ"),
        ("ta", "%(place)s-இல் கைப்பற்றப்பட்ட"),
        ("ta", "%(village)s-இலும் %(market)s-இலும்"),
        ("ta", "%(pound)sக்குக் கொண்டுவரப்பட்டது"),
        ("ta", "%(pound)s பட்டியில் அடைப்பு"),
        ("kn", "%(place)s ನಲ್ಲಿ ವಶಪಡಿಸಿಕೊಂಡ"),
        ("kn", "%(authority)s ರ ಆದೇಶದಂತೆ"),
        ("kn", "%(pound)s ಗೆ ತರಲಾಯಿತು"),
        ("kn", "%(office)s ದಲ್ಲಿ"),
        ("kn", "%(pound)s ದೊಡ್ಡಿಯಲ್ಲಿ"),
        ("kn", "%(buyer)s-ಗೆ"),
    ],
)
def test_an_ending_on_a_name_is_found_joined_hyphenated_or_apart(lang: str, text: str) -> None:
    assert endings_on_names(text, lang) != []


@pytest.mark.parametrize(
    ("lang", "text"),
    [
        ("ml", "കേസ് %(case)s: %(date)s-ന് പൗണ്ടിലാക്കി: %(cattle)s (%(pound)s)."),
        ("ml", "%(case)s: %(cattle)s; പിടിച്ച സ്ഥലം: %(place)s; %(date)s മുതൽ പൗണ്ടിൽ (%(pound)s)."),
        ("ml", "%(authority)s ഉത്തരവു പ്രകാരം"),
        ("ml", "%(names)s എന്നിവരുടെ അവകാശവാദങ്ങൾ"),
        ("ml", "%(case)s-ന് %(amount)s-ന്റെ രസീത്"),
        ("ta", "%(case)s: %(cattle)s; கைப்பற்றிய இடம்: %(place)s; %(date)s முதல் பட்டியில் (%(pound)s)."),
        ("ta", "%(name)s அவர்களின் உரிமைகோரல்"),
        ("ta", "%(date)s-இல் %(amount)s-க்கு"),
        ("kn", "ಪ್ರಕರಣ %(case)s: %(date)s ರಂದು ದೊಡ್ಡಿಗೆ ಹಾಕಲಾಗಿದೆ: %(cattle)s (%(pound)s)."),
        ("kn", "%(buyer)s ಅವರಿಗೆ %(price)s ಗೆ ಮಾರಾಟ"),
        ("kn", "%(date)s ರಿಂದ %(days)s ದಿನ"),
    ],
)
def test_a_name_after_a_label_in_brackets_or_before_a_noun_passes(lang: str, text: str) -> None:
    assert endings_on_names(text, lang) == []


@pytest.mark.parametrize("lang", TRANSLATED)
def test_a_date_is_never_set_off_by_quotes(lang: str) -> None:
    """Quotes mark a command to send; a date in quotes reads as one."""
    quoted = [
        (_ids(m)[0][:70], name)
        for m in read_catalog(lang)
        if m.id
        for text in _strings(m)
        for name in re.findall(r"[“'\"‘«]%\((\w+)\)s[”'\"’»]", text)
        if name in DATES
    ]
    assert quoted == []


def test_the_day_a_notice_was_posted_is_notice_on_in_status() -> None:
    """STATUS says the day the notice was posted: ``%(notice_on)s``, a date, so that it is
    not taken for the NOTICE command ``%(notice)s`` and put in quotes."""
    with (LOCALES_DIR / "messages.pot").open("rb") as fp:
        posted = [_ids(m)[0] for m in read_po(fp) if m.id and "Notice posted on" in _ids(m)[0]]
    assert len(posted) == 2
    assert all(text.startswith("Notice posted on %(notice_on)s ") for text in posted)
