"""Every SMS poundbot sends is a DLT content template (``bot.support.dlt``): rendered on the
worst-case data (``i18n_tools.worst_case``) in English, Malayalam, Tamil and Kannada,
each SMS matches its own registered template, every fixed part verbatim and each
``{#var#}`` within 30 characters, and fits the segment budget; the registry file is
the one the catalogs give; names are shortened at word boundaries."""

from __future__ import annotations

import csv
import io
import re
from datetime import date
from functools import cache

import pytest

from bot.i18n import translator
from bot.i18n.catalogs import CatalogStats
from bot.i18n.common import shorten
from bot.i18n.dlt_probe import Probe, ProbeTranslator, collecting, plain, rendering_sms, skeleton
from bot.i18n.keepers.keeper import open_cases
from bot.i18n.officers.reminders import digest
from bot.i18n.public.sms_fit import (
    PART,
    SMS_SEGMENT_BUDGET,
    STAFF_SMS_SEGMENTS,
    fits_sms,
    sms_parts,
)
from bot.i18n.refusals.errors import error, reasons
from bot.services.keeper import OpenCase
from bot.store.models import CaseRow
from bot.store.tx import LoadedCase
from bot.support.dlt import (
    DEFAULT_SLOT_LIMIT,
    MAX_TEMPLATES,
    REGISTRY_PATH,
    UPLOAD_COLUMNS,
    URL_LIMIT,
    URL_VAR,
    DltPolicy,
    DltRefusal,
    DltStamp,
    Registry,
    Template,
    registry,
    upload_csv,
)
from bot.support.sms_segments import Segments
from domain.deadlines import deadlines
from domain.errors import TransitionRefusedError
from domain.figures import figures_of
from domain.profiles import PROFILES
from domain.stages import Stage
from domain.statement import statement
from i18n_tools.dlt_templates import build, renderings, texts
from i18n_tools.report import LanguageReport
from i18n_tools.sms_budget import owner_sms
from i18n_tools.staff_sms import staff_sms
from i18n_tools.worst_case import STARTS, longest_kinds, places, timeline, worst_tariff

LANGS = ("en", "ml", "ta", "kn")


@cache
def marked(lang: str) -> dict[str, str]:
    """Every SMS of ``lang`` on the worst-case data, with its slots marked: a reply in
    parts (``sms_fit.in_parts``) gives one SMS a part, each its own template."""
    with collecting(Probe()):
        found = renderings(ProbeTranslator.of(translator(lang)))
    return {
        label if n == 0 else f"{label} #{n + 1}": part
        for label, text in found.items()
        for n, part in enumerate(sms_parts(text))
    }


@cache
def built() -> Registry:
    return build()


def test_the_registry_file_is_the_one_the_catalogs_give() -> None:
    """``make messages`` writes it; a catalog changed without it fails here."""
    assert REGISTRY_PATH.read_text(encoding="utf-8") == built().to_json()


def test_every_english_template_kind_is_in_every_language() -> None:
    """A kind is named alike in every language; a language may have a few more (a
    command named by two words where English has one). English may have a second
    text of a head another language writes one way ("1 open case:", "2 open cases:"
    where Malayalam has one word): that language's first text serves both."""
    by_lang = texts()
    kinds = {lang: {t.kind for t in registry() if t.lang == lang} for lang in LANGS}
    for lang in LANGS:
        extra = set(by_lang["en"]) - set(by_lang[lang])
        assert all("~" in key and key.partition("~")[0] in by_lang[lang] for key in extra)
        assert len(extra) <= 2
        assert len({k.rpartition("-")[0] for k in kinds["en"] - kinds[lang]}) <= 2
        assert len(kinds[lang]) - len(kinds["en"]) < 10


@pytest.mark.parametrize("lang", LANGS)
def test_every_sms_matches_its_own_template_within_the_slot_limit(lang: str) -> None:
    templates = registry()
    policy = DltPolicy("1201160000000000000", {t.name: "1" for t in templates})
    for label, text in marked(lang).items():
        own = skeleton(text)
        sent = plain(text)
        template = templates.find(sent, lang)
        assert template is not None, (label, sent)
        # The probe's own template is registered: its fixed text is the head's,
        # around the head's variables (with or without the sentences after it).
        assert any(t.lang == lang and t.values(own.shape) is not None for t in templates), (
            label,
            own.shape,
        )
        assert template.problem(sent, DEFAULT_SLOT_LIMIT) is None, label
        name, stamp = policy.stamp(sent, templates)
        assert stamp == DltStamp("1201160000000000000", "1")
        # A staff SMS of command words only is the same text in every language: any
        # language's template of that text is its template.
        stamped = templates.get(name)
        assert stamped is not None
        assert name == template.name or stamped.text == template.text, (label, name)


@pytest.mark.parametrize("act", PROFILES)
@pytest.mark.parametrize("lang", LANGS)
def test_every_owner_sms_on_the_worst_case_fits_the_segment_budget(lang: str, act: str) -> None:
    """Under every Act: the report to the officer in charge of the nearest police station
    (1871) is longer than to the local authority."""
    for label, text in owner_sms(lang, translator(lang).under(PROFILES[act])).items():
        assert fits_sms(text, lang), (label, SMS_SEGMENT_BUDGET[lang], text)


@pytest.mark.parametrize("lang", LANGS)
def test_a_language_has_at_most_250_templates(lang: str) -> None:
    """A reply is one template: its first catalog message is the fixed text, the
    sentences after it one variable group; plural forms, section numbers and texts
    that differ in a few words are one template."""
    count = sum(1 for t in registry() if t.lang == lang)
    assert count <= MAX_TEMPLATES == 250


#: Fixed characters (not spaces, not variables) every template has at least: a portal
#: refuses a template of variables only. No portal publishes a minimum; five is a word
#: and its mark that say what the SMS is about ("Case {#var#}.", "Date:"), the
#: shortest heads poundbot has (``dlt_probe.MIN_FIXED`` makes a shorter head take in
#: the next sentence).
FIXED_AT_LEAST = 5


def test_every_template_has_fixed_text() -> None:
    short = [
        t.text
        for t in registry()
        if len("".join(re.sub(r"\{#(var|url)#\}", "", t.text).split())) < FIXED_AT_LEAST
    ]
    assert not short


def test_a_section_number_is_a_variable_the_same_template_serves_every_section() -> None:
    """ "(s.13(1))" and "(s.15(5))" are one template: an Act's sections add none."""
    templates = registry()
    sent = [plain(text) for text in marked("en").values() if "(s.13(1))." in plain(text)]
    assert sent
    for text in sent:
        template = templates.find(text, "en")
        assert template is not None
        other = text.replace("(s.13(1)).", "(s.15(5)).")
        assert templates.find(other, "en") == template, (text, template.text)
        assert template.problem(other, DEFAULT_SLOT_LIMIT) is None
    assert "s.13(1)" not in "".join(t.text for t in templates)


@pytest.mark.parametrize(
    ("lang", "office", "other"),
    [
        ("en", "the local authority", "the Magistrate of the District"),
        ("ml", "തദ്ദേശ സ്ഥാപനത്തിന്", "ജില്ലാ മജിസ്ട്രേറ്റിന്"),
        ("ta", "உள்ளாட்சி அமைப்பின்", "மாவட்ட நீதிபதியின்"),
        ("kn", "ಸ್ಥಳೀಯ ಸಂಸ್ಥೆಗೆ", "ಜಿಲ್ಲಾ ದಂಡಾಧಿಕಾರಿಗೆ"),
    ],
)
def test_an_office_is_a_variable_the_same_template_serves_an_act_that_names_another(
    lang: str, office: str, other: str
) -> None:
    """The office that holds a power, with its case ending, fills a variable: an Act
    that names the Magistrate where Kerala's names the local authority adds no template."""
    templates = registry()
    sent = [plain(text) for text in marked(lang).values() if office in plain(text)]
    assert sent
    for text in sent:
        template = templates.find(text, lang)
        assert template is not None
        assert office not in template.text, template.text
        assert templates.find(text.replace(office, other), lang) == template, template.text


def test_a_text_that_is_no_template_or_has_a_long_variable_or_no_id_is_refused() -> None:
    template = Template("t", "en", "service-implicit", "Case {#var#}: due {#var#}.", ("a", "b"))
    templates = Registry((template,))
    policy = DltPolicy("1201", {"t.en": "1207"}, slot_limit=10)
    assert policy.stamp("Case KNM-1: due Rs 200.", templates) == ("t.en", DltStamp("1201", "1207"))
    with pytest.raises(DltRefusal, match="no DLT template matches"):
        policy.stamp("Case KNM-1 is due Rs 200.", templates)
    with pytest.raises(DltRefusal, match=r"variable 2 of template t\.en has 14 characters"):
        policy.stamp("Case KNM-1: due Rs 2,00,000.00.", templates)
    with pytest.raises(DltRefusal, match=r"no DLT template id configured for t\.en"):
        DltPolicy("1201").stamp("Case KNM-1: due Rs 200.", templates)
    assert not DltPolicy().enforced


def test_variables_written_together_are_one_slot_as_wide_as_their_number() -> None:
    template = Template("t", "ml", "service-implicit", "A {#var#}{#var#} B {#var#}.", ("x", "y"))
    assert template.problem("A " + "x" * 50 + " B y.", 30) is None
    assert "limit 60" in (template.problem("A " + "x" * 61 + " B y.", 30) or "")


def test_a_link_is_the_portals_url_variable_not_thirty_characters() -> None:
    """``{#url#}``: a link of any length up to ``URL_LIMIT`` that starts with http(s)://
    (the portal checks it against the whitelisted address)."""
    template = Template("t", "en", "service-implicit", "Case {#var#}: print it from {#url#}", ())
    link = "https://poundbot.kunnamangalam.lsgkerala.gov.in/notice/KNM-1/2026-03-10/" + "x" * 22
    assert template.problem(f"Case KNM-1: print it from {link}", 30) is None
    assert "is not a link" in (template.problem("Case KNM-1: print it from here", 30) or "")
    long = "https://pound.example.org/" + "x" * URL_LIMIT
    assert f"limit {URL_LIMIT}" in (template.problem(f"Case KNM-1: print it from {long}", 30) or "")
    web = next(
        t for t in registry() if t.lang == "en" and t.text.startswith("Your link to the web")
    )
    assert web.text.endswith(URL_VAR)


def test_two_slots_side_by_side_are_told_apart_by_their_lengths() -> None:
    """``{#var#}{#var#}{#var#} {#var#}-ന്``: the cattle, then the date after one space."""
    template = Template("t", "ml", "service-implicit", "{#var#}{#var#} {#var#}-ന്.", ("c", "d"))
    text = "48 പശുക്കൾ, 36 എരുമകൾ, 25 ആടുകൾ, 12 കുതിരകൾ 12 സെപ് 2026-ന്."
    assert template.problem(text, 30) is None


def test_the_upload_sheet_has_one_row_per_template_with_the_portals_columns() -> None:
    rows = list(csv.reader(io.StringIO(upload_csv(registry()))))
    assert tuple(rows[0]) == UPLOAD_COLUMNS
    assert len(rows) == len(registry()) + 1
    ml = next(r for r in rows[1:] if r[0].endswith(".ml"))
    assert ml[1:4] == ["Service", "Service Implicit", "Unicode"]
    assert "{#var#}" in ml[4]


@pytest.mark.parametrize(
    ("name", "short"),
    [
        pytest.param(
            "Kunnamangalam Grama Panchayat Cattle Pound",
            "Kunnamangalam Grama Panchayat",
            id="whole words kept",
        ),
        pytest.param(
            "Pathimangalam Cattle Pound of Kunnamangalam", "Pathimangalam Cattle Pound of"
        ),
        pytest.param("Chowwannur  junction", "Chowwannur junction", id="spaces collapsed"),
        pytest.param("കുന്ദമംഗലം ഗ്രാമപഞ്ചായത്ത് കന്നുകാലി പൗണ്ട്", "കുന്ദമംഗലം ഗ്രാമപഞ്ചായത്ത്"),
    ],
)
def test_a_long_name_keeps_its_first_whole_words(name: str, short: str) -> None:
    assert shorten(name) == short
    assert len(shorten(name)) <= 30


def test_one_word_longer_than_the_limit_is_cut_between_letters_never_in_one() -> None:
    word = "ചെമ്മരിയാട്ടിൻകുട്ടികൾചെമ്മരിയാട്ടിൻകുട്ടികൾ"
    cut = shorten(word, 12)
    assert len(cut) <= 12
    assert word.startswith(cut)
    after = word[len(cut)]
    assert after not in "ാിീുൂെേൈൊോൌ്ൗം"  # a vowel sign or virama never starts the rest
    assert cut[-1] != "്"  # never ends on a virama (the conjunct goes on)


@pytest.mark.parametrize("act", PROFILES)
@pytest.mark.parametrize("lang", LANGS)
def test_every_staff_sms_on_the_worst_case_fits_the_staff_budget(lang: str, act: str) -> None:
    """Every SMS to a keeper or an officer (each part of a reply in parts, an SMS of its
    own) fits ``STAFF_SMS_SEGMENTS`` on the worst case, under every Act: SETTLE, the
    report to the officers, the refused account, corrections, the receipt, the digest,
    the alerts. FIND is the public word: its results are held to the owner's budget
    (above)."""
    replies = staff_sms(lang, translator(lang).under(PROFILES[act]))
    assert len(replies) > 100
    for label, text in replies.items():
        parts = sms_parts(text)
        if label.startswith("find with"):
            parts = parts[1:]  # the notice boards' links, each an SMS of its own
            assert fits_sms(text.split(PART)[0], lang), (label, text)
        for part in parts:
            assert fits_sms(part, lang, STAFF_SMS_SEGMENTS), (label, part)


def test_every_kind_of_staff_sms_is_rendered_for_the_registry() -> None:
    """Keepers' and officers' answers, the report to the officers and the alerts are in
    the registry, in every language (with DLT on, none is refused for want of one)."""
    for lang in LANGS:
        labels = set(marked(lang))
        for word in ("seize", "paid", "report to officer", "notice", "auction", "sold", "settle"):
            assert any(label.startswith("staff ") and f" {word}" in label for label in labels), word
        assert "staff reminders troubled" in labels
        assert any(label.startswith("staff ") and " digest " in label for label in labels)


@pytest.mark.parametrize("lang", LANGS)
def test_a_list_by_sms_of_any_mix_of_cases_is_one_of_the_registered_templates(lang: str) -> None:
    """CASES and DEADLINES by SMS, on cases at different stages and deadlines of every
    kind, in any number: each reply is a registered template (not a sentence a case)."""
    tr = translator(lang)
    where = places()
    stops = timeline(tr, STARTS[0], where)
    tariff = worst_tariff(longest_kinds(tr))
    day = stops["impounded, report due"].day
    templates = registry()
    cases = [s.case for s in stops.values() if s.case.stage.value != "closed"]
    for n in range(1, 9):
        items = [
            OpenCase(
                LoadedCase(
                    CaseRow(number=f"KNM-{i}", pound_code="KNM", seq=i, stage="", place_seized=""),
                    case,
                ),
                figures_of(statement(case, tariff, day)),
            )
            for i, case in enumerate((cases * 3)[:n])
        ]
        with rendering_sms():
            text = open_cases(items, tr, True)
        assert templates.find(text, lang) is not None, (n, text)
        due = [(f"KNM-{i}", d) for i, c in enumerate(cases[:n]) for d in deadlines(c)]
        compact = digest(due, day, tr, compact=True)
        assert templates.find(compact, lang) is not None, (n, compact)


@pytest.mark.parametrize("lang", ["en", "ml", "ta", "kn"])
def test_every_refusal_with_its_reason_is_a_registered_template(lang: str) -> None:
    """A refused step tells why, with its dates, counts and names (s.16(3) claims,
    s.13(3) proviso, s.15(1) nothing sold, the stage a step is not possible at): each of
    those answers, on ordinary facts, is one of the registered templates, so that under
    DLT a refusal reaches the keeper or officer."""
    tr = translator(lang)
    templates = registry()
    facts = {
        "date": date(2026, 3, 9),
        "corrected": date(2026, 3, 12),
        "seized": date(2026, 3, 8),
        "count": 2,
        "lot": 1,
        "name": "Kunhammed",
        "names": "Kunhammed, Fathima",
        "who": "Secretary",
        "now": "06:43",
        "time": "23:59",
    }
    refusals = [
        TransitionRefusedError("x", provision, reason=key, facts=facts)
        for key in [*reasons(), "heads_unsold"]
        for provision in ("s.15(1)", "s.16(3)", None)
    ] + [
        TransitionRefusedError("x", "s.12", reason="stage", facts={"stage": s.value, "date": d})
        for s in Stage
        for d in (date(2026, 3, 9), date(2026, 12, 25))
    ]
    for refusal in refusals:
        text = error(refusal, tr)
        assert templates.find(text, lang) is not None, (refusal.reason, text)


def test_the_messages_report_prints_each_languages_template_count() -> None:
    """``make messages-report``: a line a language with its DLT templates, marked when
    over the limit (the report then exits 1)."""
    stats = CatalogStats("ta", 10, 10, 0)
    sms = Segments("UCS-2", 60, 1)
    assert LanguageReport(stats, "x", sms, 245).templates_line() == (
        "ta: 245 DLT templates (at most 250)"
    )
    assert LanguageReport(stats, "x", sms, 251).templates_line().endswith("OVER THE LIMIT")
