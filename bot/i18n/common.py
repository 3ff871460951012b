"""The small words every reply is made of: citations, kinds of cattle, amounts, dates,
and the command words a reply tells a person to send.

Citations are written in the msgids ("s.11") and translated as the language writes
them (``cite`` does the same for a provision known only at run time, in the form of the
case's Act: ``s.13(1)`` of the Kerala Act is ``s.14, para 1`` of the Cattle-trespass Act,
1871; ``act_title`` names the Act, ``office_title`` and ``to_office`` an office that
holds one of its powers: the local authority, the officer in charge of the nearest
police station; ``to_fund``, ``fines_to``, ``holder`` and ``credited_to`` where its money goes,
``fines_to`` and ``credited_to`` also in short, as the texts of a deposit say it: ``to the
fund``).
Kinds of cattle (s.2(1)) are counted through ngettext; a kind a pound
configures beyond the default ones keeps its configured name. Amounts and dates go
through ``fmt``.

Why it is long: every renderer is made of these words, each kind a small table and its
function (kinds, citations, the Acts and their offices, names cut to an SMS variable,
command words); split, each renderer would import its words from several places.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from datetime import date, datetime
from typing import TYPE_CHECKING, Final

from bot.config.names import local
from bot.i18n import fmt
from bot.i18n.catalogs import Translator
from bot.i18n.dlt_probe import in_sms, leaf, plain
from bot.support.words import CONNECTIVES, FIELDS, KEYWORDS, OUTCOMES
from domain.errors import UnknownKindError
from domain.kinds import Kind
from domain.money import Money
from domain.offices import office_named
from domain.profiles import (
    CATTLE_TRESPASS_1871,
    KERALA_1961,
    KERALA_1961_AMENDED,
    Destination,
    Office,
    Power,
    Profile,
)
from domain.s07_seizure import Lot

if TYPE_CHECKING:
    from bot.config.model import ProvisoOffice

__all__ = [
    "ECHO_LIMIT",
    "NAME_LIMIT",
    "KindMap",
    "act_title",
    "cattle",
    "cattle_slot",
    "cite",
    "cite_own",
    "clip",
    "connective",
    "credited_to",
    "day",
    "described_cattle",
    "field_word",
    "fines_to",
    "head_count",
    "holder",
    "keys",
    "keyword",
    "kind_count",
    "moment",
    "money",
    "office_name",
    "office_title",
    "ordered_by",
    "outcome_word",
    "reported_to",
    "shorten",
    "sms_name",
    "to_fund",
    "to_office",
]

#: What names the kinds: ``domain.kinds.Kinds`` or any mapping of code to Kind.
KindMap = Mapping[str, Kind]
_Render = Callable[[Translator, int], str]

#: Characters of a user's text echoed back in an error.
ECHO_LIMIT: Final = 20

#: Characters of a name (a pound, a place, a person) in an SMS: one DLT template
#: variable (``{#var#}``) holds at most 30 (``bot.support.dlt``).
NAME_LIMIT: Final = 30
#: DLT variables the list of cattle of a case may take in an SMS, written together.
CATTLE_WIDTH: Final = 3

# One entry per kind in domain.kinds.DEFAULT_KINDS (a test keeps them in step).
_KIND_COUNTS: Final[dict[str, _Render]] = {
    # TRANSLATORS: s.2(1) — a number of cattle of one kind, as in "3 cows".
    "cow": lambda tr, n: tr.ngettext("%(n)d cow", "%(n)d cows", n),
    # TRANSLATORS: s.2(1) — an ox is a castrated bull, used for draught.
    "ox": lambda tr, n: tr.ngettext("%(n)d ox", "%(n)d oxen", n),
    "bull": lambda tr, n: tr.ngettext("%(n)d bull", "%(n)d bulls", n),
    # TRANSLATORS: s.2(1) — the young of a cow.
    "calf": lambda tr, n: tr.ngettext("%(n)d calf", "%(n)d calves", n),
    "buffalo": lambda tr, n: tr.ngettext("%(n)d buffalo", "%(n)d buffaloes", n),
    "buffalo_calf": lambda tr, n: tr.ngettext("%(n)d buffalo calf", "%(n)d buffalo calves", n),
    "goat": lambda tr, n: tr.ngettext("%(n)d goat", "%(n)d goats", n),
    # TRANSLATORS: s.2(1) — the young of a goat.
    "kid": lambda tr, n: tr.ngettext("%(n)d kid", "%(n)d kids", n),
    "sheep": lambda tr, n: tr.ngettext("%(n)d sheep", "%(n)d sheep", n),
    "lamb": lambda tr, n: tr.ngettext("%(n)d lamb", "%(n)d lambs", n),
    "pig": lambda tr, n: tr.ngettext("%(n)d pig", "%(n)d pigs", n),
    "horse": lambda tr, n: tr.ngettext("%(n)d horse", "%(n)d horses", n),
    "pony": lambda tr, n: tr.ngettext("%(n)d pony", "%(n)d ponies", n),
    # TRANSLATORS: s.2(1) — the young of a horse.
    "colt": lambda tr, n: tr.ngettext("%(n)d colt", "%(n)d colts", n),
    "mule": lambda tr, n: tr.ngettext("%(n)d mule", "%(n)d mules", n),
    # TRANSLATORS: s.2(1) — a donkey (the Act says "asses").
    "ass": lambda tr, n: tr.ngettext("%(n)d ass", "%(n)d asses", n),
    "camel": lambda tr, n: tr.ngettext("%(n)d camel", "%(n)d camels", n),
    "elephant": lambda tr, n: tr.ngettext("%(n)d elephant", "%(n)d elephants", n),
}

#: A citation as an Act writes it: a section with its subsections and clauses
#: (``s.13(3)``), a paragraph of an unnumbered section with its clauses (the 1871 Act:
#: ``s.16 para 3(e)``), a proviso (``s.13(3) proviso``, ``s.14 para 3 proviso``).
_CITATION: Final = re.compile(
    r"s\.(?P<section>\d+[A-Z]?(?:\([0-9a-z]+\))*)"
    r"(?: para (?P<para>\d+(?:\([0-9a-z]+\))*))?"
    r"(?P<proviso> proviso)?"
)

# One entry per profile in domain.profiles.PROFILES (a test keeps them in step).
_ACT_TITLES: Final[dict[str, Callable[[Translator], str]]] = {
    # TRANSLATORS: the short title of the Act a case is under, as your language's
    # official texts write it (as in "Notice under s.13(2) of the Kerala Cattle Trespass
    # Act, 1961"). It is put into sentences such as "The %(act)s has no such step."
    KERALA_1961.key: lambda tr: tr.gettext("Kerala Cattle Trespass Act, 1961"),
    # TRANSLATORS: the same Act with the amendments of 1975, 1980 and 2000, as the
    # Kerala LSG department publishes it: say "as amended" so that it reads well inside
    # a sentence ("The %(act)s has no such step.").
    KERALA_1961_AMENDED.key: lambda tr: tr.gettext("Kerala Cattle Trespass Act, 1961, as amended"),
    # TRANSLATORS: the central Act of 1871 (Act 1 of 1871), in force where a State has
    # no Act of its own; its short title is spelt "Cattle-trespass Act, 1871".
    CATTLE_TRESPASS_1871.key: lambda tr: tr.gettext("Cattle-trespass Act, 1871"),
}


def act_title(act: Profile, tr: Translator) -> str:
    """The short title of ``act`` in the language: ``Cattle-trespass Act, 1871``."""
    return _ACT_TITLES[act.key](tr)


# One entry per office in domain.profiles.Office (a test keeps them in step).
_OFFICE_TITLES: Final[dict[Office, Callable[[Translator], str]]] = {
    # TRANSLATORS: an office that holds a power of the Act of a case, as a reader sees it
    # named after a label ("Ordered by: the Director"): the keeper of the cattle pound.
    Office.POUND_KEEPER: lambda tr: tr.gettext("the pound-keeper"),
    # TRANSLATORS: an office of the Act (see "the pound-keeper"): the local authority
    # (panchayat, municipality, corporation).
    Office.LOCAL_AUTHORITY: lambda tr: tr.gettext("the local authority"),
    # TRANSLATORS: an office of the Act (see "the pound-keeper"): the Secretary of the
    # local authority, who hears a complaint under the amended Kerala Act (ss.20-21).
    Office.SECRETARY: lambda tr: tr.gettext("the Secretary of the local authority"),
    # TRANSLATORS: an office of the Act (see "the pound-keeper"): "such officer as the
    # Director specifies" (Kerala s.13(1), as enacted).
    Office.SPECIFIED_OFFICER: lambda tr: tr.gettext("the officer the Director specifies"),
    # TRANSLATORS: an office of the Act (see "the pound-keeper"): the Director (Kerala
    # s.13(3) and its proviso, as enacted).
    Office.DIRECTOR: lambda tr: tr.gettext("the Director"),
    # TRANSLATORS: an office of the Act (see "the pound-keeper"): the officer in charge of
    # the police station nearest the pound, who receives the report of unclaimed cattle
    # under the Cattle-trespass Act, 1871 (s.14, first paragraph).
    Office.POLICE_STATION: lambda tr: tr.gettext(
        "the officer in charge of the nearest police station"
    ),
    # TRANSLATORS: an office of the Act (see "the pound-keeper"): the Magistrate of the
    # District (the District Magistrate) of the Cattle-trespass Act, 1871 (ss.5, 14, 17).
    Office.DISTRICT_MAGISTRATE: lambda tr: tr.gettext("the District Magistrate"),
    # TRANSLATORS: an office of the Act (see "the pound-keeper"): a (judicial) Magistrate
    # who hears a complaint of illegal seizure.
    Office.MAGISTRATE: lambda tr: tr.gettext("a Magistrate"),
}

# One entry per office in domain.profiles.Office (a test keeps them in step).
_TO_OFFICES: Final[dict[Office, Callable[[Translator], str]]] = {
    # TRANSLATORS: the office something is reported or sent to, with the ending "to" needs
    # in your language (Malayalam "…ക്ക്", Tamil "…க்கு", Kannada "…ಗೆ"): it is put into
    # sentences such as "Case %(case)s: report the unclaimed cattle %(to_office)s on
    # %(date)s", and nothing is written after it. The keeper of the cattle pound.
    Office.POUND_KEEPER: lambda tr: tr.gettext("to the pound-keeper"),
    # TRANSLATORS: the office something is reported or sent to, with the ending of "to"
    # (see "to the pound-keeper"): the local authority.
    Office.LOCAL_AUTHORITY: lambda tr: tr.gettext("to the local authority"),
    # TRANSLATORS: the same (see "to the pound-keeper"): the Secretary of the local
    # authority.
    Office.SECRETARY: lambda tr: tr.gettext("to the Secretary of the local authority"),
    # TRANSLATORS: the same (see "to the pound-keeper"): "such officer as the Director
    # specifies" (Kerala s.13(1), as enacted).
    Office.SPECIFIED_OFFICER: lambda tr: tr.gettext("to the officer the Director specifies"),
    # TRANSLATORS: the same (see "to the pound-keeper"): the Director.
    Office.DIRECTOR: lambda tr: tr.gettext("to the Director"),
    # TRANSLATORS: the same (see "to the pound-keeper"): the officer in charge of the
    # nearest police station, to whom unclaimed cattle are reported under the
    # Cattle-trespass Act, 1871 (s.14, first paragraph).
    Office.POLICE_STATION: lambda tr: tr.gettext(
        "to the officer in charge of the nearest police station"
    ),
    # TRANSLATORS: the same (see "to the pound-keeper"): the Magistrate of the District.
    Office.DISTRICT_MAGISTRATE: lambda tr: tr.gettext("to the District Magistrate"),
    # TRANSLATORS: the same (see "to the pound-keeper"): a (judicial) Magistrate.
    Office.MAGISTRATE: lambda tr: tr.gettext("to a Magistrate"),
}


def office_title(office: Office, tr: Translator) -> str:
    """An office that holds a power of an Act, named as the language names it:
    ``the officer in charge of the nearest police station``. (``office_name`` names a
    configured office, the one that ordered a disposal.)"""
    return _OFFICE_TITLES[office](tr)


def to_office(office: Office, tr: Translator) -> str:
    """``office`` as something is reported or sent to it, with the ending the language
    gives "to": ``to the local authority``, ``തദ്ദേശ സ്ഥാപനത്തിന്``."""
    return _TO_OFFICES[office](tr)


def reported_to(tr: Translator, act: Profile | None = None) -> str:
    """Whom unclaimed cattle are reported to under ``act`` (by default the translator's,
    ``tr.act``): ``to the local authority`` (Kerala s.13(1)), ``to the officer in charge
    of the nearest police station`` (Cattle-trespass Act, 1871, s.14 first paragraph).
    The office the Act as in force holds it: where a State's s.31 notification
    transferred the power, the local authority (``Profile.in_force``; a case's Act,
    ``Case.profile``, keeps what was transferred on its impounding day)."""
    chosen = tr.act if act is None else act
    return to_office(chosen.office_for(Power.RECEIVE_REPORT), tr)


# One entry per destination in domain.profiles.Destination (a test keeps them in step).
_TO_FUNDS: Final[dict[Destination, Callable[[Translator], str]]] = {
    # TRANSLATORS: where money is credited, with the ending your language gives it there
    # (as money is credited to a fund): the fund of the local authority (s.17(1)). It is
    # put into sentences such as "The unclaimed balance was credited %(to_fund)s
    # (s.17(1))", and nothing is written after it.
    Destination.LOCAL_FUND: lambda tr: tr.gettext("to the fund of the local authority"),
    # TRANSLATORS: the same (see "to the fund of the local authority"): the revenue of the
    # State, to which the Cattle-trespass Act, 1871 (s.17) credits the unclaimed surplus.
    Destination.STATE_REVENUE: lambda tr: tr.gettext("to State revenue"),
}


def to_fund(destination: Destination, tr: Translator) -> str:
    """``destination`` as money is credited to it, with the ending the language gives
    it: ``to the fund of the local authority``, ``to State revenue``."""
    return _TO_FUNDS[destination](tr)


def _the_fund(tr: Translator) -> str:
    """The fund of the local authority, as a text that has named it already says it."""
    # TRANSLATORS: where money is credited, in short, with the ending of "to the fund of
    # the local authority" (s.17(1)): a text about money that can only go to the
    # authority's fund says "the fund". It is put into sentences such as "credit it
    # %(to_fund)s (s.17(1))", "it goes %(to_fund)s", "no credit %(to_fund)s until
    # decided"; under the Cattle-trespass Act, 1871 the same place takes "to State
    # revenue" (or, for the fines, "to the District Magistrate").
    return tr.gettext("to the fund")


def fines_to(tr: Translator, act: Profile | None = None, *, short: bool = False) -> str:
    """Where the fines of a case go under ``act`` (by default ``tr.act``; s.16(1),
    s.17(1)): ``to the fund of the local authority`` (Kerala; ``to the fund`` when
    ``short``), else to the office that receives them (the Cattle-trespass Act, 1871:
    ``to the District Magistrate``, who sends them to State revenue)."""
    chosen = tr.act if act is None else act
    if chosen.fines_to is Destination.LOCAL_FUND:
        return _the_fund(tr) if short else to_fund(Destination.LOCAL_FUND, tr)
    return to_office(chosen.office_for(Power.RECEIVE_FINES), tr)


def holder(tr: Translator, act: Profile | None = None) -> Office:
    """The office that holds the unclaimed surplus in deposit under ``act`` (by default
    ``tr.act``; s.16(3)): the local authority (Kerala), the District Magistrate (1871)."""
    return (tr.act if act is None else act).office_for(Power.HOLD_SURPLUS)


def credited_to(tr: Translator, act: Profile | None = None, *, short: bool = False) -> str:
    """Where the unclaimed surplus is credited under ``act`` (by default ``tr.act``;
    s.17(1)): ``to the fund of the local authority`` (``to the fund`` when ``short``, as
    the texts of the deposit say it), ``to State revenue`` (1871)."""
    destination = (tr.act if act is None else act).surplus_to
    if short and destination is Destination.LOCAL_FUND:
        return _the_fund(tr)
    return to_fund(destination, tr)


def cite(provision: str, tr: Translator, act: Profile | None = None) -> str:
    """A provision as the language cites it in ``act``'s own form (``act.cites``; the
    translator's Act, ``tr.act``, when none is given): ``s.13(1)`` -> ``വകുപ്പ് 13(1)``
    under the Kerala Act, ``വകുപ്പ് 14, ഖണ്ഡിക 1`` under the Cattle-trespass Act, 1871.

    A provision ``act`` has no counterpart of (the 1871 Act has none of Kerala's
    s.15(5)) is never cited as if it were ``act``'s: it is the Kerala citation, marked
    as the Kerala Act's (``s.15(5) of the Kerala Act, 1961``). A text that is no
    provision of the engine's table (``domain.provisions.PROVISIONS``) is written as it
    is read, under any Act (``Rule 5`` stays ``Rule 5``)."""
    if act is None:
        act = tr.act
    if provision not in act.citations:
        return _cited(provision, tr, act)
    own = act.cites(provision)
    if own is None:
        kerala = _cited(provision, tr, KERALA_1961)
        # TRANSLATORS: a provision of the Kerala Act that the Act of the case (the
        # Cattle-trespass Act, 1871) has no counterpart of; %(citation)s is the Kerala
        # citation as you translate it ("s.15(5)"), marked as the Kerala Act's.
        return tr.gettext("%(citation)s of the Kerala Act, 1961") % {"citation": kerala}
    return _cited(own, tr, act)


def cite_own(citation: str, tr: Translator, act: Profile | None = None) -> str:
    """``act``'s own ``citation`` (``s.17``, ``s.14 para 1``: not a Kerala provision) as
    the language writes it (``വകുപ്പ് 17``)."""
    return _cited(citation, tr, tr.act if act is None else act)


def _cited(citation: str, tr: Translator, act: Profile) -> str:
    """``citation``, as ``act`` writes it (``s.14 para 1``), in the language."""
    general = citation.startswith("GCA ")
    match = _CITATION.fullmatch(citation.removeprefix("GCA "))
    if match is None:
        return citation
    section, para = match["section"], match["para"]
    if general and act.key == CATTLE_TRESPASS_1871.key:
        # TRANSLATORS: the General Clauses Act, 1897 (the central Act) on counting
        # periods, as the Cattle-trespass Act, 1871 is read with it, e.g. "General Clauses
        # Act, 1897, s.9"; keep "%(section)s".
        return tr.gettext("General Clauses Act, 1897, s.%(section)s") % {"section": section}
    if general:
        # TRANSLATORS: the general clauses law on counting periods; keep "%(section)s".
        return tr.gettext("General Clauses Act s.%(section)s") % {"section": section}
    if para and match["proviso"]:
        # TRANSLATORS: the proviso to a paragraph of an unnumbered section of the
        # Cattle-trespass Act, 1871, e.g. "s.14, para 3, proviso" (the proviso to the
        # third paragraph of s.14). Write it as "s.%(section)s proviso" is written.
        text = tr.gettext("s.%(section)s, para %(para)s, proviso")
        return text % {"section": section, "para": para}
    if para:
        # TRANSLATORS: a paragraph of an unnumbered section of the Cattle-trespass Act,
        # 1871, with its clause if any: "s.14, para 1", "s.16, para 3(e)" (the third
        # paragraph of s.16, its clause (e)). Write the section as "s.%(section)s" is
        # written.
        text = tr.gettext("s.%(section)s, para %(para)s")
        return text % {"section": section, "para": para}
    if match["proviso"]:
        # TRANSLATORS: the proviso to a section of the Act, e.g. "s.13(3) proviso".
        return tr.gettext("s.%(section)s proviso") % {"section": section}
    # TRANSLATORS: a section of the Act of the case (the Kerala Cattle Trespass Act, or
    # the Cattle-trespass Act, 1871), e.g. "s.13(1)". Every message that cites a section
    # must write it the same way as this one (tested).
    return tr.gettext("s.%(section)s") % {"section": section}


def _kind_name(kind: str, kinds: KindMap | None, lang: str) -> str:
    if kinds is not None:
        try:
            return local(kinds[kind].name, lang)
        except (KeyError, UnknownKindError):
            pass
    return kind


def kind_count(kind: str, n: int, tr: Translator, kinds: KindMap | None = None) -> str:
    """``n`` head of ``kind`` in words: ``3 പശുക്കൾ``.

    The default kinds (s.2(1)) are translated; a kind configured locally falls back to
    its configured name (or its code when the configuration is not given).
    """
    render = _KIND_COUNTS.get(kind)
    if render is not None:
        return leaf(tr, render(tr, n) % {"n": n}, "cattle")
    # TRANSLATORS: a number of cattle of a kind configured by the pound, whose name
    # is shown as configured (untranslated), as in "2 mithun".
    counted = tr.gettext("%(n)d %(kind)s") % {"n": n, "kind": _kind_name(kind, kinds, tr.lang)}
    return leaf(tr, counted, "cattle")


def cattle(lots: Sequence[Lot], tr: Translator, kinds: KindMap | None = None) -> str:
    """The cattle of a case by kind, in the order first seized: ``3 cows, 1 goat``."""
    heads: dict[str, int] = {}
    for lot in lots:
        heads[lot.kind] = heads.get(lot.kind, 0) + lot.count
    listed = ", ".join(kind_count(kind, n, tr, kinds) for kind, n in heads.items())
    return leaf(tr, listed, "cattle" + "+" * (CATTLE_WIDTH - 1))


def cattle_slot(lots: Sequence[Lot], tr: Translator, kinds: KindMap | None = None) -> str:
    """The cattle of a case for an SMS: by kind (``cattle``) while the list fits the
    DLT variables it may take (``CATTLE_WIDTH`` of ``NAME_LIMIT``), else the number of
    head (``head_count``): a list is never cut in the middle."""
    from bot.i18n.public.sms_fit import choose  # sms_fit renders with these words

    listed = cattle(lots, tr, kinds)
    fits = len(plain(listed)) <= CATTLE_WIDTH * NAME_LIMIT
    if choose(0 if fits else 1, 2) == 0:
        return listed
    return head_count(sum(lot.count for lot in lots), tr)


def described_cattle(lots: Sequence[Lot], tr: Translator, kinds: KindMap | None = None) -> str:
    """Each lot with its description, as the s.13(2)(a) notice gives them:
    ``2 cows (black, white forehead); 1 buffalo``. One description shared by several
    lots (the ``; description`` form) is paired with them when it holds one part per
    lot, split at ";", in the lots' order (``1 buffalo; 1 goat; black; brown`` gives
    ``1 buffalo (black); 1 goat (brown)``); else it is given once, after them all:
    ``2 cows; 1 goat: brown cows``.

    In an SMS the whole is data, however many lots and descriptions: the DLT variables
    of a list of cattle (``CATTLE_WIDTH``), shortened at a word (``shorten``)."""
    shared = {lot.description.strip() for lot in lots}
    one = shared.pop() if len(lots) > 1 and len(shared) == 1 else ""
    each = [part.strip() for part in one.split(";")]
    if one and (len(each) != len(lots) or "" in each):
        counts = "; ".join(kind_count(lot.kind, lot.count, tr, kinds) for lot in lots)
        text = f"{counts}: {one}"
    else:
        parts = []
        for i, lot in enumerate(lots):
            count = kind_count(lot.kind, lot.count, tr, kinds)
            described = each[i] if one else lot.description.strip()
            parts.append(f"{count} ({described})" if described else count)
        text = "; ".join(parts)
    if not in_sms():
        return text
    width = CATTLE_WIDTH * NAME_LIMIT
    return leaf(tr, shorten(plain(text), width), "cattle" + "+" * (CATTLE_WIDTH - 1))


def head_count(n: int, tr: Translator) -> str:
    """``n`` head of cattle, of whatever kinds: the short form when the kinds do not fit."""
    # TRANSLATORS: s.2(1) — a number of cattle of any kinds together ("6 head of cattle").
    return tr.ngettext("%(n)d head of cattle", "%(n)d head of cattle", n) % {"n": n}


def money(amount: Money, tr: Translator, sms: bool = False) -> str:
    """An amount as the language writes it (``Rs`` in an English SMS: ``sms``, or any
    text rendered as an SMS)."""
    return fmt.money(amount, tr.lang, sms=sms or in_sms())


def day(value: date, tr: Translator) -> str:
    """A date as the language writes it: ``9 മാർച്ച് 2026``."""
    return fmt.date(value, tr.lang)


def moment(value: datetime, tr: Translator) -> str:
    """A local day and hour: ``9 മാർച്ച് 2026, 2:30 PM``."""
    return fmt.datetime(value, tr.lang)


#: Virama (the sign that joins consonants) of Malayalam, Tamil and Kannada.
_VIRAMAS: Final = frozenset("\u0d4d\u0bcd\u0ccd")


def _joined(text: str, at: int) -> bool:
    """Whether a cut before ``text[at]`` would split a letter from its signs."""
    char, before = text[at], text[at - 1]
    return (
        unicodedata.category(char) in {"Mn", "Mc", "Me"}
        or char in "\u200c\u200d"
        or before in _VIRAMAS
        or before in "\u200c\u200d"
    )


def shorten(text: str, limit: int = NAME_LIMIT) -> str:
    """A name shortened to ``limit`` characters for one DLT variable of an SMS.

    The rule: spaces are collapsed; a name that fits is kept whole; a longer one keeps
    its first words, as many as fit (``Kunnamangalam Grama Panchayat Cattle Pound`` ->
    ``Kunnamangalam Grama Panchayat``), never cutting a word; only a first word longer
    than the limit is cut, and then between two letters, never between a letter and its
    vowel sign or after a virama (so Malayalam, Tamil and Kannada letters stay whole).
    Nothing marks the cut: a ``...`` would take three of the variable's characters."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    kept = ""
    for word in text.split(" "):
        longer = f"{kept} {word}" if kept else word
        if len(longer) > limit:
            break
        kept = longer
    kept = kept.rstrip(" ,;:-")
    if kept:
        return kept
    cut = limit
    while cut > 1 and _joined(text, cut):
        cut -= 1
    return text[:cut]


def sms_name(text: str) -> str:
    """A name as an SMS gives it (``shorten``: one DLT variable), whole elsewhere."""
    return shorten(text) if in_sms() else text


def office_name(office: ProvisoOffice, tr: Translator) -> str:
    """An office (s.13(3) proviso) as a reader of ``tr.lang`` reads it: its short form in
    an SMS (one DLT variable), its full name elsewhere (a chat, the desk, a document)."""
    return local(office.short if in_sms() else office.name, tr.lang)


def ordered_by(text: str, offices: Sequence[ProvisoOffice], tr: Translator) -> str:
    """Who ordered a disposal, as recorded (``DisposedOtherwise.ordered_by``): the
    configured office it names, as ``office_name`` gives it; else the text as recorded
    (``sms_name``)."""
    found = office_named(text, {str(o.name): o.spellings() for o in offices})
    office = next((o for o in offices if str(o.name) == found), None)
    return sms_name(text) if office is None else office_name(office, tr)


def clip(text: str, limit: int) -> str:
    """A person's or a place's name cut to ``limit`` characters (``...`` marks the cut)."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: max(limit - 3, 1)].rstrip(" ,;") + "..."


def keyword(command: str, lang: str) -> str:
    """The first word of ``command`` in ``lang`` (``bot.support.words``), English if it has
    none."""
    words = KEYWORDS[command]
    return (words.get(lang) or words["en"])[0]


def keys(command: str, lang: str) -> str:
    """The English keyword of ``command`` and, in another language, its own: ``DUES /
    കുടിശ്ശിക``. Both work in every language; HELP shows both."""
    english = keyword(command, "en")
    native = keyword(command, lang)
    return english if native == english else f"{english} / {native}"


def connective(name: str, lang: str) -> str:
    """A connecting word of a command line (AT, ON, BY, TO, REF) in ``lang``."""
    words = CONNECTIVES[name]
    return (words.get(lang) or words["en"])[0]


def field_word(name: str, lang: str) -> str:
    """The word of a seizure fact in a CORRECT line (CATTLE, PLACE, ...) in ``lang``."""
    words = FIELDS[name]
    return (words.get(lang) or words["en"])[0]


def outcome_word(name: str, lang: str) -> str:
    """The word for an OUTCOME (``upheld``, ``illegal``) in ``lang``."""
    words = OUTCOMES[name]
    return (words.get(lang) or words["en"])[0]
