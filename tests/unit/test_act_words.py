"""The catalog's texts in the words of the translator's Act (``bot.i18n.act_words``): each
Kerala citation a msgid carries is written, in its translation, as the Act cites it
(``cite``); under the Kerala profiles every text is the catalog's, byte for byte."""

from __future__ import annotations

import re

import pytest
from babel.messages.catalog import Message
from babel.support import Translations

from bot.i18n import LANGUAGES, Translator, translator
from bot.i18n.act_words import section_in
from bot.i18n.catalogs import for_sms, read_catalog
from bot.i18n.common import cite
from bot.i18n.dlt_probe import ProbeTranslator, plain
from domain.profiles import (
    CATTLE_TRESPASS_1871,
    KERALA_1961,
    KERALA_1961_AMENDED,
    Profile,
)
from tests.act_forms import kerala_left

_PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]")


def _ids(message: Message) -> tuple[str, ...]:
    ids = message.id
    return tuple(ids) if isinstance(ids, tuple | list) else (str(ids),)


def _texts(tr: Translator, message: Message) -> list[str]:
    """Every text ``tr`` gives for ``message``: its plural forms for 1, 2 and 5."""
    ids = _ids(message)
    if len(ids) == 1:
        return [tr.gettext(ids[0])]
    return [tr.ngettext(ids[0], ids[1], n) for n in (1, 2, 5)]


def _raw(tr: Translator, message: Message) -> list[str]:
    """The catalog's own texts for ``message``, as gettext gave them before any Act."""
    ids = _ids(message)
    if len(ids) == 1:
        return [for_sms(tr.lang, tr.translations.gettext(ids[0]))]
    return [for_sms(tr.lang, tr.translations.ngettext(ids[0], ids[1], n)) for n in (1, 2, 5)]


def _messages(lang: str) -> list[Message]:
    return [m for m in read_catalog(lang) if m.id]


# --- each form of a citation -----------------------------------------------------------

#: A msgid, and its text under the 1871 Act in English.
ENGLISH_1871 = [
    # s.N(x): a subsection, a paragraph of the 1871 Act's unnumbered s.14
    (
        "Report due today (s.13(1)): send %(command)s.",
        "Report due today (s.14, para 1): send %(command)s.",
    ),
    # s.N: a section of the table
    (
        "The owner deposited under protest (s.14)",
        "The owner deposited under protest (s.15)",
    ),
    # s.N(x)(y): a clause
    ("Days in the pound (s.15(3)(b))", "Days in the pound (s.16, para 3(b))"),
    # a proviso, written as the proviso message writes it
    (
        "Heads disposed of otherwise (s.13(3) proviso)",
        "Heads disposed of otherwise (s.14, para 3, proviso)",
    ),
    # bare sections, as the section common to their sub-provisions: s.13 -> s.14
    (
        "Case %(case)s: deemed unclaimed (s.15(5)), to be sold as unclaimed (s.13).",
        # s.15(5): no counterpart, the Kerala citation marked as the Kerala Act's
        "Case %(case)s: deemed unclaimed (s.15(5) of the Kerala Act, 1961), to be sold "
        "as unclaimed (s.14).",
    ),
    # s.16 -> s.17; two citations of one text, rewritten at once (s.15(2) -> s.16 para 2,
    # which is not then taken for Kerala's s.16)
    (
        "close the sale with its expenses and settle the money (s.15(2), s.16)",
        "close the sale with its expenses and settle the money (s.16, para 2, s.17)",
    ),
    # sections whose 1871 forms are other Kerala sections' numbers: s.11 -> s.12 and
    # s.12 -> s.13, each rewritten once
    (
        "what is owed today, and what happens next (s.11, s.4, s.12)",
        "what is owed today, and what happens next (s.12, s.5, s.13)",
    ),
]


@pytest.mark.parametrize(("msgid", "expected"), ENGLISH_1871, ids=[e for e, _ in ENGLISH_1871])
def test_each_form_of_a_citation_is_written_as_the_1871_act_cites_it(
    msgid: str, expected: str
) -> None:
    tr = translator("en")
    assert msgid in read_catalog("en")  # a msgid of the catalog, with Kerala citations
    assert tr.gettext(msgid) == msgid
    assert tr.under(CATTLE_TRESPASS_1871).gettext(msgid) == expected


def test_a_plural_message_is_written_in_the_act_in_each_of_its_forms() -> None:
    tr = translator("en").under(CATTLE_TRESPASS_1871)
    one, other = (
        "Time impounded: %(days)d day (s.15(3)(b)).",
        "Time impounded: %(days)d days (s.15(3)(b)).",
    )
    assert tr.ngettext(one, other, 1) == "Time impounded: %(days)d day (s.16, para 3(b))."
    assert tr.ngettext(one, other, 4) == "Time impounded: %(days)d days (s.16, para 3(b))."
    for lang in ("ml", "ta", "kn"):
        under = translator(lang).under(CATTLE_TRESPASS_1871)
        for n in (1, 2, 5):
            text = under.ngettext(one, other, n)
            assert cite("s.15(3)(b)", under) in text, (lang, n, text)
            assert cite("s.15(3)(b)", translator(lang)) not in text, (lang, n, text)


@pytest.mark.parametrize("lang", ["ml", "ta", "kn"])
def test_a_translation_is_rewritten_where_it_writes_the_kerala_citation(lang: str) -> None:
    kerala, act = translator(lang), translator(lang).under(CATTLE_TRESPASS_1871)
    msgid = "Report due today (s.13(1)): send %(command)s."
    ours = kerala.gettext(msgid)
    assert cite("s.13(1)", kerala) in ours
    expected = ours.replace(cite("s.13(1)", kerala), cite("s.13(1)", act))
    assert act.gettext(msgid) == expected
    # as cite writes it: ml "വകുപ്പ് 14, ഖണ്ഡിക 1"
    assert cite("s.13(1)", act) == cite("s.13(1)", kerala, CATTLE_TRESPASS_1871)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_proviso_is_the_acts_proviso_whatever_word_the_translation_gives_it(
    lang: str,
) -> None:
    kerala, act = translator(lang), translator(lang).under(CATTLE_TRESPASS_1871)
    # "proviso" as the proviso message has it, and (ta, kn) in a word of its own
    for msgid in (
        "Heads disposed of otherwise (s.13(3) proviso)",
        "Heads disposed of by order (s.13(3) proviso)",
    ):
        text = act.gettext(msgid)
        assert cite("s.13(3)", kerala) not in text, text
        section = cite("s.13(3)", act)  # s.14, para 3
        assert section in text, text
        if cite("s.13(3) proviso", kerala) in kerala.gettext(msgid):
            assert cite("s.13(3) proviso", act) in text, text


def test_a_provision_the_act_has_no_counterpart_of_is_the_kerala_one_marked() -> None:
    msgid = "Case %(case)s: deemed unclaimed (s.15(5)), to be sold as unclaimed (s.13)."
    for lang in LANGUAGES:
        act = translator(lang).under(CATTLE_TRESPASS_1871)
        marked = cite("s.15(5)", act)  # "s.15(5) of the Kerala Act, 1961"
        assert marked != cite("s.15(5)", translator(lang))
        assert marked in act.gettext(msgid), lang


# --- bare sections -------------------------------------------------------------------


def test_a_bare_section_is_the_acts_section_common_to_its_sub_provisions() -> None:
    assert section_in(CATTLE_TRESPASS_1871, "s.13") == "s.14"
    assert section_in(CATTLE_TRESPASS_1871, "s.16") == "s.17"
    # s.15(5) has no counterpart: s.15(1)-(4) are all in s.16
    assert section_in(CATTLE_TRESPASS_1871, "s.15") == "s.16"
    assert section_in(CATTLE_TRESPASS_1871, "s.17") == "s.17"
    assert section_in(CATTLE_TRESPASS_1871, "s.21") is None  # no sub-provision known
    assert section_in(KERALA_1961, "s.16") == "s.16"


def test_a_bare_section_split_among_several_of_the_acts_sections_is_left_as_it_is() -> None:
    split = dict(CATTLE_TRESPASS_1871.citations) | {"s.16(3)": "s.18"}
    act = CATTLE_TRESPASS_1871._replace(key="split-1871", citations=split)
    assert section_in(act, "s.16") is None
    tr = translator("ml").under(act)
    text = tr.gettext("close the sale with its expenses and settle the money (s.15(2), s.16)")
    assert "വകുപ്പ് 16, ഖണ്ഡിക 2" in text  # s.15(2)
    assert text.endswith(", വകുപ്പ് 16)")  # s.16 as it was


# --- what is never rewritten -----------------------------------------------------------


def test_only_the_template_is_rewritten_never_what_fills_it() -> None:
    tr = translator("en").under(CATTLE_TRESPASS_1871)
    msgid = "The cattle were delivered to the owner on a deposit on %(date)s (s.14)."
    assert tr.gettext(msgid) % {"date": "s.13(1)"} == (
        "The cattle were delivered to the owner on a deposit on s.13(1) (s.15)."
    )


def test_a_text_not_translated_is_cited_in_english_in_the_act() -> None:
    empty = Translator("ml", "ml_IN", Translations(), CATTLE_TRESPASS_1871)
    msgid = "Report due today (s.13(1)): send %(command)s."
    assert empty.gettext(msgid) == "Report due today (s.14, para 1): send %(command)s."


def test_the_dlt_probe_writes_in_the_act_and_leaves_no_marks_behind() -> None:
    msgid = "Report due today (s.13(1)): send %(command)s."
    act = translator("ml").under(CATTLE_TRESPASS_1871)
    probed = ProbeTranslator.of(act).gettext(msgid)
    assert "വകുപ്പ് 14, ഖണ്ഡിക 1" in plain(probed)
    assert act.gettext(msgid) == translator("ml").gettext(msgid).replace(
        "വകുപ്പ് 13(1)", "വകുപ്പ് 14, ഖണ്ഡിക 1"
    )


# --- every msgid of every catalog ------------------------------------------------------


@pytest.mark.parametrize("act", [KERALA_1961, KERALA_1961_AMENDED], ids=lambda a: a.key)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_under_the_kerala_profiles_every_text_is_the_catalogs_byte_for_byte(
    lang: str, act: Profile
) -> None:
    tr = translator(lang).under(act)
    assert not tr.rewrites
    for message in _messages(lang):
        assert _texts(tr, message) == _raw(tr, message), message.id


@pytest.mark.parametrize("lang", LANGUAGES)
def test_under_the_1871_act_no_text_keeps_a_kerala_citation_that_act_writes_otherwise(
    lang: str,
) -> None:
    kerala = translator(lang)
    tr = kerala.under(CATTLE_TRESPASS_1871)
    assert tr.rewrites
    changed = 0
    for message in _messages(lang):
        for raw, text in zip(_raw(kerala, message), _texts(tr, message), strict=True):
            # the placeholders are those of the catalog's text: it fills as it did
            assert sorted(_PLACEHOLDER.findall(text)) == sorted(_PLACEHOLDER.findall(raw))
            assert kerala_left(text, lang) == [], (message.id, text)
            changed += text != raw
    assert changed > 250  # the 294 msgids with a citation, nearly all changed
