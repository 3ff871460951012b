"""The shipped catalogs: real, complete, consistent, and in step with the source."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po
from babel.support import Translations

from bot.i18n import LANGUAGES, CatalogError, UnknownLanguageError, detect_script, translator
from bot.i18n.catalogs import LOCALES_DIR, read_catalog

ROOT = Path(__file__).resolve().parents[2]
TRANSLATED = ("ml", "ta", "kn")
PLURAL_FORMS = "nplurals=2; plural=(n != 1);"

_PLACEHOLDER = re.compile(r"%\((\w+)\)[-#0 +]*\d*(?:\.\d+)?[diouxXeEfFgGcrsa]")
_CITATION = re.compile(r"\bs\.(\d+[A-Z]?(?:\([0-9a-z]+\))*)")


def _messages(catalog: Catalog) -> list[Message]:
    return [m for m in catalog if m.id]


def _ids(message: Message) -> tuple[str, ...]:
    ids = message.id
    return tuple(ids) if isinstance(ids, tuple | list) else (str(ids),)


def _strings(message: Message) -> tuple[str, ...]:
    strings = message.string
    if isinstance(strings, tuple | list):
        return tuple(str(s) for s in strings)
    return (strings or "",)


def _placeholders(text: str) -> list[str]:
    return sorted(m.group(0) for m in _PLACEHOLDER.finditer(text))


# --- loading -----------------------------------------------------------------------


def test_every_language_has_a_catalog_directory() -> None:
    shipped = {p.parent.parent.name for p in LOCALES_DIR.glob("*/LC_MESSAGES/messages.po")}
    assert shipped == set(LANGUAGES)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_shipped_language_loads_a_real_catalog_not_null_translations(lang: str) -> None:
    tr = translator(lang)
    assert type(tr.translations) is Translations  # not the NullTranslations fallback
    assert tr.translations.info()["language"] == lang
    assert tr.translations.info()["plural-forms"] == PLURAL_FORMS


@pytest.mark.parametrize("lang", TRANSLATED)
def test_malayalam_tamil_and_kannada_come_back_translated(lang: str) -> None:
    tr = translator(lang)
    assert tr.gettext("This case is closed.") != "This case is closed."
    assert tr.ngettext("%(n)d cow", "%(n)d cows", 2) != "%(n)d cows"
    assert tr.ngettext("%(n)d cow", "%(n)d cows", 1) != "%(n)d cow"
    assert detect_script(tr.gettext("This case is closed.")) == lang


@pytest.mark.parametrize(
    ("lang", "locale"), [("en", "en_IN"), ("ml", "ml_IN"), ("ta", "ta_IN"), ("kn", "kn_IN")]
)
def test_each_translator_carries_its_indian_locale(lang: str, locale: str) -> None:
    assert translator(lang).lang == lang
    assert translator(lang).locale == locale


def test_english_is_the_source_and_its_msgids_come_back_unchanged() -> None:
    tr = translator("en")
    assert tr.gettext("This case is closed.") == "This case is closed."
    assert tr.ngettext("%(n)d cow", "%(n)d cows", 1) == "%(n)d cow"
    assert tr.ngettext("%(n)d cow", "%(n)d cows", 3) == "%(n)d cows"


def test_a_translator_is_compiled_once_per_process() -> None:
    assert translator("ml") is translator("ml")


def test_an_unknown_language_is_an_error_not_english() -> None:
    with pytest.raises(UnknownLanguageError):
        translator("hi")


def _write_po(directory: Path, lang: str, body: str) -> None:
    path = directory / lang / "LC_MESSAGES" / "messages.po"
    path.parent.mkdir(parents=True)
    header = (
        'msgid ""\nmsgstr ""\n'
        '"Content-Type: text/plain; charset=utf-8\\n"\n'
        f'"Language: {lang}\\n"\n'
        '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n\n'
    )
    path.write_text(header + body, encoding="utf-8")


def test_a_missing_catalog_is_an_error_not_english(tmp_path: Path) -> None:
    with pytest.raises(CatalogError):
        translator("ml", tmp_path)


def test_a_fuzzy_translation_is_never_shown(tmp_path: Path) -> None:
    _write_po(
        tmp_path,
        "ml",
        '#, fuzzy\nmsgid "This case is closed."\nmsgstr "ഈ കേസ് തുറന്നു."\n\n'
        'msgid "Paid and released (s.12)."\nmsgstr "തുക അടച്ചു (വകുപ്പ് 12)."\n',
    )
    tr = translator("ml", tmp_path)
    assert tr.gettext("This case is closed.") == "This case is closed."
    assert tr.gettext("Paid and released (s.12).") == "തുക അടച്ചു (വകുപ്പ് 12)."


def test_a_catalog_whose_placeholders_disagree_is_refused_at_load(tmp_path: Path) -> None:
    _write_po(
        tmp_path,
        "ta",
        '#, python-format\nmsgid "Total: %(total)s"\nmsgstr "மொத்தம்: %(amount)s"\n',
    )
    with pytest.raises(CatalogError, match="placeholders"):
        translator("ta", tmp_path)


# --- completeness and consistency --------------------------------------------------


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_msgid_is_translated_and_none_is_fuzzy(lang: str) -> None:
    catalog = read_catalog(lang)
    fuzzy = [m.id for m in _messages(catalog) if m.fuzzy]
    empty = [m.id for m in _messages(catalog) if not all(_strings(m))]
    assert fuzzy == []
    assert empty == []


#: The masculine forms of the Malayalam roles (pound-keeper, officer): a role names a
#: person of either sex, so the catalog writes the common-gender -ർ forms (GLOSSARY.md).
_MASCULINE_ROLES = re.compile("(സൂക്ഷിപ്പുകാര|ഉദ്യോഗസ്ഥ)(ൻ|ന[്ാുോെ])")
#: Both forms, as a signature line writes them ("ഉദ്യോഗസ്ഥൻ/ഉദ്യോഗസ്ഥ").
_BOTH = re.compile("ഉദ്യോഗസ്ഥൻ(/| അഥവാ )ഉദ്യോഗസ്ഥ")


def test_a_malayalam_role_names_a_person_of_either_sex() -> None:
    masculine = [
        (m.id, text)
        for m in _messages(read_catalog("ml"))
        for text in _strings(m)
        if _MASCULINE_ROLES.search(_BOTH.sub("", text))
    ]
    assert masculine == []


#: Placeholders that hold a command to send (``Send %(command)s``): in a script without
#: capitals the command is set off from the prose around it by quotes.
_COMMANDS = {"command", "report", "notice", "claim", "reject", "sold", "unsold", "web"}
_COMMANDS |= {"word", "seize", "find", "receipt", "correct", "void", "settle", "refunded", "help"}


@pytest.mark.parametrize("lang", TRANSLATED)
def test_a_command_in_a_sentence_is_set_off_by_quotes(lang: str) -> None:
    unquoted = []
    for message in _messages(read_catalog(lang)):
        english = str(message.id if isinstance(message.id, str) else message.id[0])
        if "…" in english or "..." in english:  # a command line's pattern, in one quote
            continue
        held = set(re.findall(r"%\((\w+)\)s", english)) & _COMMANDS
        for text in _strings(message):
            for name in held:
                if not re.search(rf"[“'\"«‘]%\({name}\)s[”'\"»’]", text):
                    unquoted.append((english[:60], name))
    assert unquoted == []


def test_the_english_catalog_has_no_fuzzy_entry() -> None:
    assert [m.id for m in _messages(read_catalog("en")) if m.fuzzy] == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_catalog_has_two_plural_forms_split_on_one(lang: str) -> None:
    catalog = read_catalog(lang)
    assert catalog.plural_forms == PLURAL_FORMS
    assert catalog.num_plurals == 2


@pytest.mark.parametrize("lang", TRANSLATED)
def test_placeholders_are_the_same_in_msgid_and_every_msgstr(lang: str) -> None:
    for message in _messages(read_catalog(lang)):
        expected = _placeholders(_ids(message)[0])
        for msgid in _ids(message)[1:]:
            assert _placeholders(msgid) == expected, message.id
        for msgstr in _strings(message):
            assert _placeholders(msgstr) == expected, (message.id, msgstr)
            stray = _PLACEHOLDER.sub("", msgstr).replace("%%", "")
            assert "%" not in stray, (message.id, msgstr)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_citations_are_translated_the_same_way_as_the_citation_message(lang: str) -> None:
    tr = translator(lang)
    for message in _messages(read_catalog(lang)):
        cited = _CITATION.findall(_ids(message)[0])
        for msgstr in _strings(message):
            for section in cited:
                assert tr.gettext("s.%(section)s") % {"section": section} in msgstr, (
                    message.id,
                    msgstr,
                )


@pytest.mark.parametrize("lang", TRANSLATED)
def test_a_translation_keeps_no_english_citation(lang: str) -> None:
    for message in _messages(read_catalog(lang)):
        for msgstr in _strings(message):
            assert not _CITATION.search(msgstr), (message.id, msgstr)


# --- in step with the source --------------------------------------------------------


def _msgids(path: Path) -> set[tuple[str, ...]]:
    with path.open("rb") as fp:
        return {_ids(m) for m in _messages(read_po(fp))}


@pytest.fixture(scope="module")
def extracted(tmp_path_factory: pytest.TempPathFactory) -> set[tuple[str, ...]]:
    """The msgids that `make messages` would extract from bot/ now."""
    out = tmp_path_factory.mktemp("pot") / "messages.pot"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "babel.messages.frontend",
            "extract",
            "-F",
            "babel.cfg",
            "-k",
            "ngettext:1,2",
            "-k",
            "N_",
            "--add-comments=TRANSLATORS:",
            "-o",
            str(out),
            "bot",
        ],
        cwd=ROOT,
        check=True,
        capture_output=True,
    )
    return _msgids(out)


def test_the_template_is_up_to_date_with_the_source(extracted: set[tuple[str, ...]]) -> None:
    shipped = _msgids(LOCALES_DIR / "messages.pot")
    assert sorted(extracted - shipped) == [], "new texts: run `make messages`"
    assert sorted(shipped - extracted) == [], "texts gone from the source: run `make messages`"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_catalog_has_exactly_the_msgids_of_the_template(lang: str) -> None:
    template = _msgids(LOCALES_DIR / "messages.pot")
    catalog = _msgids(LOCALES_DIR / lang / "LC_MESSAGES" / "messages.po")
    assert catalog == template


def test_statutory_texts_carry_a_translator_comment_naming_their_provision() -> None:
    with (LOCALES_DIR / "messages.pot").open("rb") as fp:
        template = read_po(fp)
    for message in _messages(template):
        cited = _CITATION.findall(_ids(message)[0])
        if cited:
            comment = " ".join(message.auto_comments)
            # Jinja's extractor keeps a template's comment without its TRANSLATORS: tag
            in_templates = all(path.endswith(".html") for path, _ in message.locations)
            assert in_templates or "TRANSLATORS:" in comment, message.id
            assert re.search(r"\bs\.\d", comment), message.id


# --- the script an owner writes in --------------------------------------------------


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        ("എന്റെ പശുവിനെ പിടിച്ചു", "ml"),
        ("என் மாட்டைப் பிடித்தார்கள்", "ta"),
        ("ನನ್ನ ಹಸುವನ್ನು ಹಿಡಿದರು", "kn"),
        ("KNMKLM-42 കുടിശ്ശിക?", "ml"),
        ("KNMKLM-42 dues?", None),
        ("ente pashu", None),
        ("", None),
    ],
    ids=[
        "Malayalam",
        "Tamil",
        "Kannada",
        "case number in Malayalam",
        "English",
        "Manglish",
        "empty",
    ],
)
def test_the_script_of_a_message_names_its_language(text: str, lang: str | None) -> None:
    assert detect_script(text) == lang
