"""The configuration as the bot uses it: named tuples over the domain types.

Authorities and their pounds (s.13(2): where notices are affixed and proclaimed), the
Act each authority applies from each day, kinds of cattle (s.2(1)) and the words that
name them, dated tariffs (s.11 fines, s.4 feeding charges), the s.15(2) order of
deductions and the reminder settings; and the faults of a file that could not be read
into them.

The records are ``NamedTuple``s, not dataclasses: immutable, compared and hashed by
their fields alike, with ``_replace`` for ``dataclasses.replace``. A dataclass compiles
its generated methods when its module is imported; with the dataclasses module (and
inspect) that was about a third of what ``poundbot config check``, run after every
edit, adds to the interpreter's start (bench/cli_start.py).

Why it is long: every record of the file, each with the few methods that read it (an
authority's Act on a day and as in force, the offices of the s.13(3) proviso).
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Iterable, Mapping, Sequence
from datetime import date, time, timedelta
from types import MappingProxyType
from typing import NamedTuple
from zoneinfo import ZoneInfo

from bot.config.names import Name, PlaceNames
from bot.support.dlt import DltPolicy
from bot.support.languages import LANGUAGES
from bot.support.spelling import normalize_word
from domain.dues_items import DuesItem
from domain.kinds import Kinds
from domain.money import Money
from domain.offices import office_named
from domain.profiles import DEFAULT_ACT, PROFILES, Destination, Office, Power, Profile, profile
from domain.s18_buyers import DEFAULT_BARRED_CLASSES
from domain.tariff import FeedingDays, Tariff

__all__ = [
    "DEFAULT_PROVISO_OFFICES",
    "LANGUAGES",
    "PROVISO_DEFAULTS",
    "PROVISO_HOLDERS",
    "WHATSAPP_TEMPLATES",
    "ActInForce",
    "Authority",
    "AuthorityKind",
    "BackupSettings",
    "Config",
    "ConfigError",
    "Fault",
    "Pound",
    "ProvisoOffice",
    "ReminderSettings",
    "RetentionSettings",
    "SenderLimits",
    "disposal_offices",
    "normalize_word",
    "spellings",
]


class AuthorityKind(enum.Enum):
    """The kinds of local authority that run pounds."""

    GRAMA_PANCHAYAT = "grama_panchayat"
    MUNICIPALITY = "municipality"
    CORPORATION = "corporation"


#: The default of a table that may be left out: empty, and read-only as every table read.
_NONE: Mapping[str, str] = MappingProxyType({})


class ActInForce(NamedTuple):
    """The Act a local authority applies from a day on (``[[authorities.acts]]``): the key
    of its profile (``domain.profiles.PROFILES``) and, under the Cattle-trespass Act, 1871,
    the powers a State's notification under its s.31 transfers to the local authority,
    with the Gazette reference of that notification; and the values it sets of what the
    Act's text leaves open (``Profile.settable``; None: the profile's own)."""

    since: date
    act: str
    transferred: frozenset[Power] = frozenset()
    notification: str = ""
    #: s.19 (1871: s.20): the days to complain of a seizure.
    complaint_days: int | None = None
    #: s.16(3) (1871: s.17): the months the unclaimed surplus is held.
    surplus_months: int | None = None
    #: s.16(1), s.17(1) (1871: s.17): where the fines and the unclaimed surplus end.
    fines_to: Destination | None = None
    surplus_to: Destination | None = None

    def profile(self) -> Profile:
        """The Act as in force from ``since``: its profile with the values set and the
        powers transferred (``Profile.in_force``)."""
        return _in_force(self)


@functools.lru_cache(maxsize=64)
def _in_force(entry: ActInForce) -> Profile:
    """``entry.profile()``, one value for each entry (read for every case a list shows)."""
    return profile(entry.act).in_force(
        transferred=entry.transferred,
        complaint_days=entry.complaint_days,
        surplus_months=entry.surplus_months,
        fines_to=entry.fines_to,
        surplus_to=entry.surplus_to,
    )


#: The Act of an authority that names none, and before the first it names: the Kerala
#: Act, as enacted, with nothing transferred.
_FROM_THE_BEGINNING = ActInForce(date.min, DEFAULT_ACT)


class Authority(NamedTuple):
    """A local authority, with where its s.13(2) notice is affixed and proclaimed."""

    code: str
    name: str
    kind: AuthorityKind
    district: str
    office_address: str  # s.13(2): the notice is affixed in its office
    village: str  # s.13(2): proclaimed by beat of drum in the village ...
    market_place: str  # ... and in the market place nearest to the place of seizure
    default_language: str
    #: s.15(2): the expenses of sale expected when an auction is fixed without EXPENSES.
    expected_sale_expenses: Money = Money.zero()
    #: s.18: the members of the local authority, who may not buy at its sales.
    members: tuple[str, ...] = ()
    #: s.13(2): villages of the authority and the market place nearest each; a case
    #: seized in a listed village is proclaimed there and at its market.
    markets: Mapping[str, str] = _NONE
    #: The Acts it applies, each from its day, in order; before the first (and with
    #: none), the Kerala Act as enacted.
    acts: tuple[ActInForce, ...] = ()

    def act_on(self, day: date) -> ActInForce:
        """The Act in force for the authority on ``day``: the last whose ``since`` is on
        or before it (a case keeps the one of its impounding day)."""
        found = _FROM_THE_BEGINNING
        for entry in self.acts:
            if entry.since > day:
                break
            found = entry
        return found


class Pound(NamedTuple):
    """A pound of an authority; ``tariff`` names the tariff table it applies."""

    code: str
    name: str
    authority: str
    address: str  # s.13(2)(c): the place where the cattle are impounded
    languages: tuple[str, ...]
    tariff: str
    #: s.13(2): villages this pound serves and their nearest market places (over the
    #: authority's list for the same village).
    markets: Mapping[str, str] = _NONE
    #: For the public board: the number an owner may call, and when the pound is open.
    phone: str = ""
    hours: str = ""


class ProvisoOffice(NamedTuple):
    """s.13(3) proviso: an office whose holder may order another disposal of cattle not
    likely to fetch a fair price ("in the opinion of the Director"). ``name`` is its
    full name (with its forms per language: the desk), ``short`` a
    form of it that fits one SMS template variable in each language (the SMS replies),
    ``code`` what an officer types after BY (``DISPOSE ... BY DIRECTOR``), ``office``
    which office of the Acts it is (``domain.profiles.Office``): it orders a disposal
    only of a case whose Act gives the power to that office."""

    code: str
    name: str
    short: str
    office: Office = Office.DIRECTOR

    def spellings(self) -> tuple[str, ...]:
        """Every way an officer may name the office after BY: its code, and its full
        and short names in each language."""
        forms = [self.code]
        for name in (self.name, self.short):
            forms += [str(name), *(name.forms.values() if isinstance(name, Name) else ())]
        return tuple(dict.fromkeys(forms))


#: Without ``[[proviso_offices]]``: the Director, as the Act names the office, in the
#: four languages (short enough for an SMS variable as it is).
_DIRECTOR = Name("Director", {"ml": "ഡയറക്ടർ", "ta": "இயக்குநர்", "kn": "ನಿರ್ದೇಶಕ"})
DEFAULT_PROVISO_OFFICES: tuple[ProvisoOffice, ...] = (
    ProvisoOffice("DIRECTOR", _DIRECTOR, _DIRECTOR),
)

#: The local authority (the amended Kerala Act; the 1871 Act where a s.31 notification
#: transfers the power), in the glossary's words (locales/GLOSSARY.md); in Malayalam the
#: full name in full, its short form as the catalogs write it.
_LOCAL_AUTHORITY = Name(
    "Local authority",
    {"ml": "തദ്ദേശ സ്വയംഭരണ സ്ഥാപനം", "ta": "உள்ளாட்சி அமைப்பு", "kn": "ಸ್ಥಳೀಯ ಸಂಸ್ಥೆ"},
)
_LOCAL_AUTHORITY_SHORT = Name("Local authority", {**_LOCAL_AUTHORITY.forms, "ml": "തദ്ദേശ സ്ഥാപനം"})
#: The Magistrate of the District (the 1871 Act), as the offices of each State write it.
_DISTRICT_MAGISTRATE = Name(
    "District Magistrate",
    {"ml": "ജില്ലാ മജിസ്ട്രേറ്റ്", "ta": "மாவட்ட நடுவர்", "kn": "ಜಿಲ್ಲಾ ದಂಡಾಧಿಕಾರಿ"},
)

#: The office poundbot supplies for each office that may order another disposal (s.13(3)
#: proviso) when an Act an authority applies gives the power to it and no
#: ``[[proviso_offices]]`` table names it (``office = ...``): each with a code an officer
#: types after BY, and its name in the four languages, each form short enough for one
#: SMS variable (30 characters).
PROVISO_DEFAULTS: Mapping[Office, ProvisoOffice] = MappingProxyType(
    {
        Office.DIRECTOR: DEFAULT_PROVISO_OFFICES[0],
        Office.LOCAL_AUTHORITY: ProvisoOffice(
            "LOCAL-AUTHORITY", _LOCAL_AUTHORITY, _LOCAL_AUTHORITY_SHORT, Office.LOCAL_AUTHORITY
        ),
        Office.DISTRICT_MAGISTRATE: ProvisoOffice(
            "DM", _DISTRICT_MAGISTRATE, _DISTRICT_MAGISTRATE, Office.DISTRICT_MAGISTRATE
        ),
    }
)


#: The offices that may order another disposal (s.13(3) proviso) under some Act poundbot
#: applies, by the Act or by a State's s.31 notification (the local authority), in the
#: order of the profiles: those a ``[[proviso_offices]]`` table may name.
PROVISO_HOLDERS: tuple[Office, ...] = tuple(
    dict.fromkeys(
        act.office_for(Power.ORDER_DISPOSAL, transferred)
        for act in PROFILES.values()
        for transferred in (frozenset(), frozenset({Power.ORDER_DISPOSAL}))
    )
)


def spellings(offices: Iterable[ProvisoOffice]) -> Mapping[str, tuple[str, ...]]:
    """Each of ``offices`` by its (English) name, as it is recorded, with every way it
    may be written after BY (``domain.offices.Offices``)."""
    return {str(office.name): office.spellings() for office in offices}


def _disposal_office(entry: ActInForce) -> Office:
    """The office that may order another disposal (s.13(3) proviso) under the Act of
    ``entry``, with what its s.31 notification transfers."""
    return profile(entry.act).office_for(Power.ORDER_DISPOSAL, entry.transferred)


def disposal_offices(acts: Iterable[Sequence[ActInForce]]) -> tuple[Office, ...]:
    """The offices that may order another disposal (s.13(3) proviso) under the Acts in
    use: of each authority's ``acts`` (``[[authorities.acts]]``), and of the Act before
    the first of them; each office once, in the order first needed."""
    needed: list[Office] = []
    for entries in acts:
        if not entries or entries[0].since != date.min:
            needed.append(_disposal_office(_FROM_THE_BEGINNING))
        needed += [_disposal_office(entry) for entry in entries]
    return tuple(dict.fromkeys(needed))


class ReminderSettings(NamedTuple):
    """When reminders go out, the night hours with no owner SMS, and the SMS rate limit."""

    timezone: ZoneInfo
    reminder_time: time
    night_start: time
    night_end: time
    sms_per_second: float

    def is_night(self, at: time) -> bool:
        """Whether the local wall-clock time ``at`` is in the night hours [start, end)."""
        if self.night_start < self.night_end:
            return self.night_start <= at < self.night_end
        return at >= self.night_start or at < self.night_end


class BackupSettings(NamedTuple):
    """The daily backup of the embedded database inside ``poundbot serve``: the local
    time (in the reminders' time zone) it is taken at, and how many daily copies are
    kept (the oldest beyond that are deleted)."""

    at: time = time(2, 30)
    keep: int = 14


class RetentionSettings(NamedTuple):
    """How long the personal data of a message in or out is kept: after
    ``messages_days`` days its body and its number are purged, the row kept for the
    counts (``bot.services.retention``). The Act is silent: an authority's policy."""

    messages_days: int = 180


class SenderLimits(NamedTuple):
    """How many messages of one sender are answered in a window (the Act is silent: an
    authority's policy). Each SMS answer costs the authority money and each Telegram
    answer takes a slot of the bot's 30 a second; past the limit the sender is told once
    when to try again, then not answered until the window ends."""

    window: timedelta = timedelta(minutes=10)
    public: int = 10
    keeper: int = 60
    officer: int = 60  # admins too
    #: The ceiling of answers (SMS and WhatsApp) to numbers that are not staff, whoever
    #: they are (a missed call costs its caller nothing): an hour, a (local) day, and
    #: one number's in a day (``bot.notifications.spending``). Notices the Act requires and
    #: answers to staff are never held back by it.
    answers_per_hour: int = 200
    answers_per_day: int = 1000
    answers_per_number_per_day: int = 30

    def allowance(self, role: str) -> int:
        """Answers a sender in ``role`` gets in one window."""
        if role == "public":
            return self.public
        return self.keeper if role == "keeper" else self.officer


#: The message kinds that can go by WhatsApp outside its 24-hour window, and the
#: variables of each kind's template, in order ({{1}}, {{2}}, ...): their text in the
#: four languages is in deploy/whatsapp-templates/<kind>.json, ready for approval.
WHATSAPP_TEMPLATES: Mapping[str, tuple[str, ...]] = {
    "owner_impounded": ("case", "cattle", "pound", "date", "total"),
    "owner_auction": ("case", "date", "place"),
    "owner_account": ("case",),
    "reminder": ("text",),
}


class Config(NamedTuple):
    """A checked configuration. ``pounds`` and ``tariffs`` are keyed by pound code;
    ``kind_words[lang][normalize_word(word)]`` is a kind code."""

    authorities: Mapping[str, Authority]
    pounds: Mapping[str, Pound]
    kinds: Kinds
    kind_words: Mapping[str, Mapping[str, str]]
    tariffs: Mapping[str, Tariff]
    deduction_order: tuple[DuesItem, ...]  # s.15(2): what sale proceeds meet first
    feeding_days: FeedingDays
    reminders: ReminderSettings
    # The region a telephone number without a country code is read in (ISO 3166 code).
    phone_region: str = "IN"
    limits: SenderLimits = SenderLimits()
    #: s.18: the classes of person who may not buy at a pound sale (the section's text
    #: is not in the material given: a policy of the configuration, these four by default).
    barred_buyers: tuple[str, ...] = DEFAULT_BARRED_CLASSES
    #: s.13(3) proviso: the offices whose holder may order another disposal (the
    #: Director's opinion, or the office another Act names), the configured and
    #: poundbot's for an office an Act in use needs and none names; a case's are those of
    #: the office its Act names (``proviso_offices_for``), and an order named as anyone
    #: else's is refused.
    proviso_offices: tuple[ProvisoOffice, ...] = DEFAULT_PROVISO_OFFICES
    backups: BackupSettings = BackupSettings()
    #: [retention]: how long the text and the number of a message are kept.
    retention: RetentionSettings = RetentionSettings()
    #: [whatsapp.templates]: the approved WhatsApp template (Content SID) of each message
    #: kind (``bot.adapters.whatsapp_route.TEMPLATES``) in each language; none: SMS outside the
    #: window.
    whatsapp_templates: Mapping[str, Mapping[str, str]] = MappingProxyType({})
    #: [dlt]: the DLT entity, the id of each SMS template (``kind.lang``) and the
    #: characters a variable may hold (``bot.support.dlt``); no entity: SMS go unchecked.
    dlt: DltPolicy = DltPolicy()
    #: The names of the authorities' offices, villages and market places and of the
    #: pounds, found by any of their forms: a place an officer typed, read in the
    #: reader's language (``bot.config.names.PlaceNames``).
    place_names: PlaceNames = PlaceNames()

    @property
    def sms_languages(self) -> tuple[str, ...]:
        """The languages poundbot's SMS go out in here: English (the fallback for a text in
        Latin letters) and those of the authorities and their pounds, in ``LANGUAGES``'
        order: the DLT templates to register."""
        used = {"en"} | {a.default_language for a in self.authorities.values()}
        used |= {lang for pound in self.pounds.values() for lang in pound.languages}
        return tuple(lang for lang in LANGUAGES if lang in used)

    def authority_of(self, pound: str) -> Authority:
        """The local authority that runs the pound with code ``pound``."""
        return self.authorities[self.pounds[pound].authority]

    def proviso_offices_for(
        self, authority: str, act: str, impounded_on: date
    ) -> tuple[ProvisoOffice, ...]:
        """The offices that may order another disposal (s.13(3) proviso) of a case of the
        ``authority`` under the ``act`` it was opened under, impounded on
        ``impounded_on``: those configured as the office the Act gives the power to, with
        what the s.31 notification in force that day transfers (the 1871 Act); where
        none is configured, poundbot's (``PROVISO_DEFAULTS``)."""
        return self.proviso_offices_of(self.disposal_office(authority, act, impounded_on))

    def proviso_offices_of(self, held: Office) -> tuple[ProvisoOffice, ...]:
        """The offices that may order another disposal (s.13(3) proviso) where the Act
        gives the power to ``held``: those configured as it, else poundbot's
        (``PROVISO_DEFAULTS``)."""
        named = tuple(o for o in self.proviso_offices if o.office is held)
        return named or (PROVISO_DEFAULTS[held],)

    def disposal_office(self, authority: str, act: str, impounded_on: date) -> Office:
        """The office that may order another disposal of such a case (see
        ``proviso_offices_for``). What a notification transfers is read from the entry
        in force on the impounding day, when that entry names the case's Act."""
        known = self.authorities.get(authority)
        entry = known.act_on(impounded_on) if known is not None else None
        if entry is None or entry.act != act:
            entry = ActInForce(impounded_on, act)
        return _disposal_office(entry)

    def proviso_office(self, name: str) -> ProvisoOffice | None:
        """The configured office (s.13(3) proviso) recorded as ``name`` or named by it
        (its code, its full or short name in any language), or None."""
        found = office_named(name, self.proviso_spellings())
        return next((o for o in self.proviso_offices if str(o.name) == found), None)

    def proviso_spellings(self) -> Mapping[str, tuple[str, ...]]:
        """Each office by its (English) name, with every way it may be written after BY."""
        return spellings(self.proviso_offices)

    def kind_for_word(self, language: str, word: str) -> str | None:
        """The kind code that ``word`` names in ``language``, or None."""
        return self.kind_words.get(language, {}).get(normalize_word(word))


class Fault(NamedTuple):
    """One fault of a configuration file, at a 1-based line (faults sort by line)."""

    line: int
    message: str


class ConfigError(Exception):
    """A configuration file with faults; ``faults`` lists every one, by line."""

    def __init__(self, faults: Iterable[Fault], name: str = "<string>") -> None:
        self.faults: list[Fault] = sorted(faults)
        self.name = name
        super().__init__("\n".join(f"{name}:{f.line}: {f.message}" for f in self.faults))
