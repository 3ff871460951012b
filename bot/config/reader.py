"""Reading a parsed configuration file into a Config, with every fault and its line.

The tables are walked here: required and unknown keys, codes listed twice, the pounds'
authorities and tariffs, the Acts of each authority by date, kinds (s.2(1)) and their
words, the tariffs' dated rows (s.11 fines, s.4 feeding charges). Single values are read
by ``bot.config.checks``.

Why it is long: every section of the configuration file, each read with the line of its
faults.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from datetime import date, timedelta
from types import MappingProxyType
from typing import Any

from bot.config import checks
from bot.config.lines import Key, Lines
from bot.config.model import (
    LANGUAGES,
    PROVISO_DEFAULTS,
    ActInForce,
    Authority,
    AuthorityKind,
    BackupSettings,
    Config,
    Fault,
    Pound,
    ProvisoOffice,
    ReminderSettings,
    RetentionSettings,
    SenderLimits,
    disposal_offices,
    normalize_word,
)
from bot.config.model import WHATSAPP_TEMPLATES as TEMPLATES
from bot.config.names import Name, PlaceNames, local
from bot.support.dlt import DEFAULT_SLOT_LIMIT, DltPolicy
from bot.support.phones import DEFAULT_REGION
from domain.kinds import Kind, Kinds
from domain.profiles import PROFILES, SETTINGS, Destination, Office, Power
from domain.s18_buyers import DEFAULT_BARRED_CLASSES
from domain.tariff import DatedRate, FeedingDays, RateTable, Tariff

__all__ = ["Reader"]


def _present(record: dict[str, Any]) -> dict[str, Any]:
    """A record without its optional keys that were not given (their defaults apply)."""
    return {k: v for k, v in record.items() if v is not None}


_TOP = ("reminders", "policy", "kinds", "authorities", "pounds", "tariffs")
#: Sections that may be left out: their defaults apply.
_OPTIONAL = ("limits", "backups", "retention", "whatsapp", "dlt", "proviso_offices")
_LIMITS = (
    "window_minutes",
    "public",
    "keeper",
    "officer",
    "answers_per_hour",
    "answers_per_day",
    "answers_per_number_per_day",
)


class Reader:
    """Reads parsed TOML into a Config, collecting every fault with its line."""

    def __init__(self, raw: dict[str, Any], lines: Lines) -> None:
        self.raw = raw
        self.lines = lines
        self.faults: list[Fault] = []
        self.kind_codes: list[str] = []

    def fault(self, key: Key, message: str) -> None:
        self.faults.append(Fault(self.lines.at(key), message))

    def read(self) -> Config | None:
        """The Config, or None when there are faults (in ``faults``)."""
        self.keys(self.raw, (), "the file", _TOP, _TOP + _OPTIONAL)
        text, code = checks.text, checks.code
        reminders = self.section(
            "reminders",
            {
                "timezone": checks.zone,
                "reminder_time": checks.clock,
                "night_hours": checks.night,
                "sms_per_second": checks.rate,
            },
        )
        policy = self.section(
            "policy",
            {
                "feeding_days": checks.one_of(FeedingDays),
                "deduction_order": checks.order,
                "phone_region": checks.phone_region,
                "barred_buyers": checks.barred_classes,
                "proviso_deciders": checks.retired_deciders,
            },
            optional=("phone_region", "barred_buyers", "proviso_deciders"),
        )
        kinds, words = self.kinds()
        authorities = self.entries(
            "authorities",
            "authority",
            {
                "code": code(r"[A-Z][A-Z0-9-]{1,15}", "upper-case letters, digits and -"),
                "name": checks.local_name,
                "kind": checks.one_of(AuthorityKind),
                "district": text,
                "office_address": checks.local_name,
                "village": checks.local_name,
                "market_place": checks.local_name,
                "default_language": checks.one_of(LANGUAGES),
                "expected_sale_expenses": checks.amount,
                "members": checks.names,
                "markets": checks.markets,
                "acts": self.acts,
            },
            optional=("expected_sale_expenses", "members", "markets", "acts"),
        )
        pounds = self.entries(
            "pounds",
            "pound",
            {
                "code": code(r"[A-Z]{2,6}", "2 to 6 upper-case letters"),
                "name": checks.local_name,
                "authority": text,
                "address": checks.local_name,
                "languages": checks.languages,
                "tariff": text,
                "markets": checks.markets,
                "phone": text,
                "hours": checks.local_name,
            },
            optional=("tariff", "markets", "phone", "hours"),
        )
        known = {a["code"] for _, a in authorities}
        for key, pound in pounds:
            if pound["authority"] is not None and pound["authority"] not in known:
                self.fault((*key, "authority"), f"pound {pound['code']}: unknown authority")
        tariffs = self.tariffs(pounds, policy["feeding_days"])
        limits = self.limits()
        backups = self.backups()
        retention = self.retention()
        templates = self.whatsapp_templates()
        dlt = self.dlt()
        needed = disposal_offices(a["acts"] or () for _, a in authorities)
        offices = self.proviso_offices(dlt.slot_limit, needed)
        if self.faults:
            return None
        night_start, night_end = reminders["night_hours"]
        authorities_read = {a["code"]: Authority(**_present(a)) for _, a in authorities}
        pounds_read = {p["code"]: Pound(**_present(p)) for _, p in pounds}
        return Config(
            authorities=MappingProxyType(authorities_read),
            pounds=MappingProxyType(pounds_read),
            kinds=Kinds(Kind(k["code"], k["name"], k["adult"]) for _, k in kinds),
            kind_words=MappingProxyType({k: MappingProxyType(v) for k, v in words.items()}),
            tariffs=MappingProxyType({p["code"]: tariffs[p["tariff"]] for _, p in pounds}),
            deduction_order=policy["deduction_order"],
            feeding_days=policy["feeding_days"],
            phone_region=policy["phone_region"] or DEFAULT_REGION,
            barred_buyers=policy["barred_buyers"] or DEFAULT_BARRED_CLASSES,
            proviso_offices=offices,
            reminders=ReminderSettings(
                reminders["timezone"],
                reminders["reminder_time"],
                night_start,
                night_end,
                reminders["sms_per_second"],
            ),
            limits=limits,
            backups=backups,
            retention=retention,
            whatsapp_templates=templates,
            dlt=dlt,
            place_names=_place_names(authorities_read.values(), pounds_read.values()),
        )

    def limits(self) -> SenderLimits:
        """[limits] (optional, each key too): answers per sender in a window, and the
        ceiling of answers to numbers that are not staff."""
        table = self.raw.get("limits", {})
        default = SenderLimits()
        if not isinstance(table, dict):
            self.fault(("limits",), "[limits] must be a table")
            return default
        spec = dict.fromkeys(_LIMITS, checks.count)
        read = self.record(table, ("limits",), "[limits]", spec, optional=_LIMITS)
        minutes = read["window_minutes"]
        return SenderLimits(
            window=timedelta(minutes=minutes) if minutes else default.window,
            public=read["public"] or default.public,
            keeper=read["keeper"] or default.keeper,
            officer=read["officer"] or default.officer,
            answers_per_hour=read["answers_per_hour"] or default.answers_per_hour,
            answers_per_day=read["answers_per_day"] or default.answers_per_day,
            answers_per_number_per_day=(
                read["answers_per_number_per_day"] or default.answers_per_number_per_day
            ),
        )

    def backups(self) -> BackupSettings:
        """[backups] (optional, each key too): when the daily backup is taken, how many
        are kept."""
        table = self.raw.get("backups", {})
        default = BackupSettings()
        spec = {"time": checks.clock, "keep": checks.count}
        read = self.record(table, ("backups",), "[backups]", spec, optional=tuple(spec))
        return BackupSettings(
            at=read["time"] or default.at,
            keep=read["keep"] or default.keep,
        )

    def retention(self) -> RetentionSettings:
        """[retention] (optional, its key too): after how many days the text and the
        number of a message are purged."""
        table = self.raw.get("retention", {})
        default = RetentionSettings()
        spec = {"messages_days": checks.count}
        read = self.record(table, ("retention",), "[retention]", spec, optional=tuple(spec))
        return RetentionSettings(messages_days=read["messages_days"] or default.messages_days)

    def whatsapp_templates(self) -> Mapping[str, Mapping[str, str]]:
        """[whatsapp.templates] (optional): ``<kind>.<language> = "HX..."``, the Content
        SID of each approved WhatsApp template (``bot.adapters.whatsapp_route.TEMPLATES``)."""
        section = self.raw.get("whatsapp", {})
        if not isinstance(section, dict):
            self.fault(("whatsapp",), "[whatsapp] must be a table")
            return MappingProxyType({})
        self.keys(section, ("whatsapp",), "[whatsapp]", (), ("templates",))
        table = section.get("templates", {})
        where = "[whatsapp.templates]"
        if not isinstance(table, dict):
            self.fault(("whatsapp", "templates"), f"{where} must be a table")
            return MappingProxyType({})
        self.keys(table, ("whatsapp", "templates"), where, (), list(TEMPLATES))
        read: dict[str, Mapping[str, str]] = {}
        for kind, by_lang in table.items():
            key = ("whatsapp", "templates", kind)
            if kind not in TEMPLATES:
                continue
            if not isinstance(by_lang, dict):
                self.fault(key, f"{where}: {kind} must be a table of languages")
                continue
            self.keys(by_lang, key, f"{where} {kind}", (), list(LANGUAGES))
            check = checks.code(r"HX[0-9a-fA-F]{32}", "a Content SID: HX and 32 hex digits")
            sids = {}
            for lang, sid in by_lang.items():
                if lang in LANGUAGES:
                    try:
                        sids[lang] = check(sid, (*key, lang), f"{where}: {kind}.{lang}")
                    except checks.Bad as bad:
                        self.fault((*key, lang), str(bad))
            read[kind] = MappingProxyType(sids)
        return MappingProxyType(read)

    def dlt(self) -> DltPolicy:
        """[dlt] (optional): ``entity_id`` (the principal entity's id on the DLT portal),
        ``slot_limit`` (characters a ``{#var#}`` may hold, 30 by default) and
        [dlt.templates]: ``<kind>.<language> = "<template id>"`` for each SMS template
        (``poundbot dlt templates`` lists them)."""
        section = self.raw.get("dlt", {})
        if not isinstance(section, dict):
            self.fault(("dlt",), "[dlt] must be a table")
            return DltPolicy()
        self.keys(section, ("dlt",), "[dlt]", (), ("entity_id", "slot_limit", "templates"))
        entity = section.get("entity_id", "")
        if "entity_id" in section and (
            not isinstance(entity, str) or not re.fullmatch(r"\d{1,30}", entity)
        ):
            self.fault(
                ("dlt", "entity_id"), "[dlt]: entity_id must be the digits of the id, as text"
            )
            entity = ""
        limit = section.get("slot_limit", DEFAULT_SLOT_LIMIT)
        if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= 500:
            self.fault(
                ("dlt", "slot_limit"), "[dlt]: slot_limit must be a whole number from 1 to 500"
            )
            limit = DEFAULT_SLOT_LIMIT
        table = section.get("templates", {})
        where = "[dlt.templates]"
        if not isinstance(table, dict):
            self.fault(("dlt", "templates"), f"{where} must be a table")
            return DltPolicy(entity, {}, limit)
        ids: dict[str, str] = {}
        for kind, by_lang in table.items():
            key = ("dlt", "templates", kind)
            if not isinstance(by_lang, dict):
                self.fault(key, f"{where}: {kind} must be given by language ({kind}.ml = ...)")
                continue
            self.keys(by_lang, key, f"{where} {kind}", (), list(LANGUAGES))
            for lang, template_id in by_lang.items():
                if lang not in LANGUAGES:
                    continue
                if not isinstance(template_id, str) or not re.fullmatch(r"\d{1,30}", template_id):
                    self.fault(
                        (*key, lang),
                        f"{where}: {kind}.{lang} must be the digits of the id, as text",
                    )
                    continue
                ids[f"{kind}.{lang}"] = template_id
        return DltPolicy(entity, MappingProxyType(ids), limit)

    def proviso_offices(
        self, slot_limit: int, needed: Sequence[Office]
    ) -> tuple[ProvisoOffice, ...]:
        """[[proviso_offices]] (optional; s.13(3) proviso): each office whose holder may
        order another disposal: ``code`` (what an officer types after BY), ``name`` (in
        each language), ``short`` (at most ``slot_limit`` characters in each language:
        one SMS variable; left out, the name must fit) and ``office`` (which office of
        the Acts it is: the Director when left out). Then poundbot's office
        (``PROVISO_DEFAULTS``) for each office ``needed`` (the Acts in use give it the
        power) that no table names: without the section, the Director."""
        spec = {
            "code": checks.code(
                r"[A-Z][A-Z0-9-]{1,23}", "2 to 24 upper-case letters, digits and -"
            ),
            "name": checks.local_name,
            "short": checks.local_name,
            "office": checks.disposal_office,
        }
        offices: list[ProvisoOffice] = []
        named: dict[str, str] = {}  # each way of writing an office -> its code
        where: dict[str, Key] = {}  # each configured office's code -> its table
        tables = self.entries("proviso_offices", "proviso office", spec, ("short", "office"))
        for key, entry in tables:
            code, name = entry["code"], entry["name"]
            if code is None or name is None:
                continue  # (already a fault)
            if entry["office"] is None and "office" in self.raw["proviso_offices"][key[1]]:
                continue  # (a bad office: already a fault)
            short = self._short_form(key, code, name, entry["short"], slot_limit)
            if short is None:
                continue
            office = ProvisoOffice(code, name, short, entry["office"] or Office.DIRECTOR)
            where.setdefault(code, key)
            for form in office.spellings():
                other = named.setdefault(normalize_word(form), code)
                if other != code:
                    self.fault(key, f"proviso office {code}: {form!r} names office {other} too")
            offices.append(office)
        for held in needed:
            if all(office.office is not held for office in offices):
                offices.append(self._default_office(held, named, where, slot_limit))
        return tuple(offices)

    def _default_office(
        self, held: Office, named: Mapping[str, str], where: Mapping[str, Key], limit: int
    ) -> ProvisoOffice:
        """poundbot's office for ``held`` (``PROVISO_DEFAULTS``), which an Act in use gives
        the power to order another disposal and no [[proviso_offices]] table names; a
        fault where a table writes another office as it is written, and where [dlt]
        slot_limit is shorter than its short form."""
        office = PROVISO_DEFAULTS[held]
        said = f"{office.name} (code {office.code}), poundbot's office for an Act in use"
        fix = f'or name that office in [[proviso_offices]] (office = "{held.value}")'
        clashes: dict[str, str] = {}  # each configured office written as it is -> how
        for form in office.spellings():
            other = named.get(normalize_word(form))
            if other is not None:
                clashes.setdefault(other, form)
        for other, form in clashes.items():
            self.fault(
                where[other],
                f"proviso office {other}: {form!r} also names {said}: write {other} "
                f"otherwise, {fix}",
            )
        forms = office.short.forms if isinstance(office.short, Name) else {}
        lang = max(("en", *forms), key=lambda lang: len(local(office.short, lang)))
        form = local(office.short, lang)
        if len(form) > limit:
            self.fault(
                ("dlt", "slot_limit"),
                f"[dlt]: slot_limit is {limit} characters; the {lang} short form {form!r} "
                f"of {said}, is {len(form)}: raise it, {fix} with a short form that fits",
            )
        return office

    def _short_form(
        self, key: Key, code: str, name: Name, short: Name | None, limit: int
    ) -> Name | None:
        """The short form of an office in each language its name has (the name itself
        where it fits and no short form is given), each at most ``limit`` characters;
        None, with the faults, when one is longer or missing."""
        languages = ["en", *name.forms, *(short.forms if short is not None else ())]
        fits = True
        for lang in dict.fromkeys(languages):
            if short is not None and short.forms and lang not in ("en", *short.forms):
                self.fault(
                    (*key, "short"),
                    f"proviso office {code}: short has no {lang} form, as name has",
                )
                fits = False
                continue
            form = local(short if short is not None else name, lang)
            if len(form) <= limit:
                continue
            fits = False
            if short is None:
                self.fault(
                    (*key, "name", lang) if lang in name.forms else (*key, "name"),
                    f"proviso office {code}: the {lang} name {form!r} is {len(form)} "
                    f"characters; an SMS variable holds {limit}: give a short form "
                    f'(short = {{ {lang} = "..." }})',
                )
            else:
                self.fault(
                    (*key, "short", lang) if lang in short.forms else (*key, "short"),
                    f"proviso office {code}: the {lang} short form {form!r} is {len(form)} "
                    f"characters; an SMS variable holds {limit}",
                )
        if not fits:
            return None
        if short is None:
            return name
        return Name(str(short), {lang: local(short, lang) for lang in languages if lang != "en"})

    # -- tables ---------------------------------------------------------------------

    def keys(
        self,
        table: Mapping[str, Any],
        key: Key,
        where: str,
        required: Iterable[str],
        known: Sequence[str],
    ) -> None:
        """Fault each missing required key and each unknown key (with a likely fix)."""
        for name in required:
            if name not in table:
                self.fault(key, f"{where}: missing key '{name}'")
        for name in table:
            if name not in known:
                import difflib  # only a file with a fault needs it

                close = difflib.get_close_matches(name, known, n=1)
                hint = f" (did you mean '{close[0]}'?)" if close else ""
                self.fault((*key, name), f"{where}: unknown key '{name}'{hint}")

    def record(
        self,
        table: Any,
        key: Key,
        where: str,
        spec: Mapping[str, checks.Check],
        optional: Sequence[str] = (),
    ) -> dict[str, Any]:
        """Each key of ``spec`` read from ``table`` by its check (None if missing or bad)."""
        read: dict[str, Any] = dict.fromkeys(spec)
        if not isinstance(table, dict):
            self.fault(key, f"{where} must be a table")
            return read
        self.keys(table, key, where, [n for n in spec if n not in optional], list(spec))
        for name, check in spec.items():
            if name in table:
                try:
                    read[name] = check(table[name], (*key, name), f"{where}: {name}")
                except checks.Bad as bad:
                    self.fault((*key, name, *bad.below), str(bad))
        return read

    def section(
        self, name: str, spec: Mapping[str, checks.Check], optional: Sequence[str] = ()
    ) -> dict[str, Any]:
        """A top-level [name] table (its absence is already a fault)."""
        if name not in self.raw:
            return dict.fromkeys(spec)
        return self.record(self.raw[name], (name,), f"[{name}]", spec, optional)

    def entries(
        self, name: str, what: str, spec: Mapping[str, checks.Check], optional: Sequence[str] = ()
    ) -> list[tuple[Key, dict[str, Any]]]:
        """The [[name]] tables, read by ``spec``; a code listed twice is a fault."""
        value = self.raw.get(name)
        if value is not None and (not isinstance(value, list) or not value):
            self.fault((name,), f"'{name}' must be one or more [[{name}]] tables")
        if not isinstance(value, list):
            return []  # (missing: already a fault)
        read: list[tuple[Key, dict[str, Any]]] = []
        first: dict[str, int] = {}  # each code, the index of its first entry
        for i, entry in enumerate(value):
            code = entry.get("code") if isinstance(entry, dict) else None
            where = f"{what} {code}" if isinstance(code, str) else f"[[{name}]] entry {i + 1}"
            record = self.record(entry, (name, i), where, spec, optional)
            if record["code"] in first:
                line = self.lines.at((name, first[record["code"]]))
                self.fault((name, i, "code"), f"{where} is listed twice (first on line {line})")
            elif record["code"] is not None:
                first[record["code"]] = i
            read.append(((name, i), record))
        return read

    def kinds(self) -> tuple[list[tuple[Key, dict[str, Any]]], dict[str, dict[str, str]]]:
        """[[kinds]] (s.2(1)); an adult kind is listed, a word names one kind per language."""
        spec = {
            "code": checks.code(r"[a-z][a-z0-9_]*", "lower-case letters, digits and _"),
            "name": checks.local_name,
            "adult": checks.text,
            "words": checks.words,
        }
        kinds = self.entries("kinds", "kind", spec, optional=("adult",))
        self.kind_codes = [k["code"] for _, k in kinds if k["code"] is not None]
        grown = {k["code"] for _, k in kinds if k["adult"] is None}
        words: dict[str, dict[str, str]] = {lang: {} for lang in LANGUAGES}
        for key, kind in kinds:
            if kind["adult"] is not None and kind["adult"] not in grown:
                message = f"kind {kind['code']}: adult {kind['adult']!r} is not a listed adult kind"
                self.fault((*key, "adult"), message)
            for lang, word, at in kind["words"] or []:
                held = words[lang].setdefault(word, kind["code"])
                if kind["code"] is not None and held != kind["code"]:
                    self.fault(at, f"the {lang} word {word!r} names both {held} and {kind['code']}")
        return kinds, words

    def tariffs(
        self, pounds: list[tuple[Key, dict[str, Any]]], days: FeedingDays | None
    ) -> dict[str, Tariff]:
        """[tariffs.NAME]: dated fines (s.11) and feeding rates (s.4) for every kind."""
        tables = self.raw.get("tariffs", {})
        if not isinstance(tables, dict):
            self.fault(("tariffs",), "tariffs must be [tariffs.NAME] tables")
            tables = {}
        for key, pound in pounds:
            pound["tariff"] = pound["tariff"] or pound["authority"]  # the authority's tariff
            if pound["tariff"] is not None and pound["tariff"] not in tables:
                at = (*key, "tariff") if "tariff" in self.raw["pounds"][key[1]] else key
                self.fault(at, f"pound {pound['code']}: no [tariffs.{pound['tariff']}] table")
        spec = {
            "fines": self.rates,
            "feeding": self.rates,
            "feeding_days": checks.one_of(FeedingDays),
            "sale_expense_note": checks.text,
        }
        used = {pound["tariff"] for _, pound in pounds}
        built: dict[str, Tariff] = {}
        for name, table in tables.items():
            if name not in used and None not in used:  # (a pound with no tariff is a fault)
                self.fault(("tariffs", name), f"tariff {name} is applied by no pound")
            optional = ("feeding_days", "sale_expense_note")
            read = self.record(table, ("tariffs", name), f"tariff {name}", spec, optional)
            counting = read["feeding_days"] or days
            if read["fines"] and read["feeding"] and counting:
                note = read["sale_expense_note"] or ""
                built[name] = Tariff(read["fines"], read["feeding"], counting, note)
        return built

    # -- the Acts of an authority: dated entries, faulted one by one -------------------

    def acts(self, value: Any, key: Key, where: str) -> tuple[ActInForce, ...]:
        """[[authorities.acts]]: the Act the authority applies from each day, in the
        order they came into force: ``act`` (a profile of ``domain.profiles``), ``from``
        (a date) and, only under an Act whose powers a State's notification may
        transfer to the local authority (the 1871 Act's s.31), ``transferred`` (those
        powers) with ``notification`` (its Gazette reference); and, only where the Act's
        text leaves them open (``Profile.settable``), ``complaint_days``,
        ``surplus_months``, ``fines_to`` and ``surplus_to``."""
        if not isinstance(value, list) or not value:
            raise checks.Bad(f"{where} must be one or more [[authorities.acts]] tables")
        spec = {
            "act": checks.one_of(list(PROFILES)),
            "from": checks.day,
            "transferred": checks.powers,
            "notification": checks.text,
            "complaint_days": checks.count,
            "surplus_months": checks.count,
            "fines_to": checks.one_of(Destination),
            "surplus_to": checks.one_of(Destination),
        }
        read: list[ActInForce] = []
        last: date | None = None  # the latest day read so far
        for i, entry in enumerate(value):
            at, here = (*key, i), f"{where} entry {i + 1}"
            rec = self.record(entry, at, here, spec, ("transferred", "notification", *SETTINGS))
            since, act = rec["from"], rec["act"]
            if since is not None and last is not None and since <= last:
                self.fault(
                    (*at, "from"),
                    f"{where}: two entries from {since}"
                    if since == last
                    else f"{here}: from {since} is before {last}, the day of an entry "
                    "above it: list the Acts in the order they came into force",
                )
                continue
            last = since or last
            if since is None or act is None:
                continue
            transferred = self._transferred(entry, at, here, act, rec["transferred"])
            settings = self._settings(entry, at, here, act, rec)
            read.append(ActInForce(since, act, transferred, rec["notification"] or "", **settings))
        return tuple(read)

    def _settings(
        self, entry: dict[str, Any], at: Key, here: str, act: str, rec: dict[str, Any]
    ) -> dict[str, Any]:
        """The values an entry sets of what its Act's text leaves open; a value its Act
        has a text for is refused, naming the values that Act leaves open."""
        may = PROFILES[act].settable
        settings: dict[str, Any] = {}
        for name in SETTINGS:
            if name not in entry:
                continue
            if name not in may:
                open_ = f"it leaves open only {checks.listing(may)}" if may else "it leaves none"
                self.fault(
                    (*at, name),
                    f"{here}: {name} is not open under {act}: its text of that provision "
                    f"was found, and the configuration sets only what an Act's text leaves "
                    f"open ({open_})",
                )
            elif rec[name] is not None:
                settings[name] = rec[name]
        return settings

    def _transferred(
        self, entry: dict[str, Any], at: Key, here: str, act: str, powers: tuple[Power, ...] | None
    ) -> frozenset[Power]:
        """The powers an entry's s.31 notification transfers to the local authority: only
        under an Act that lets a notification transfer them, each one it may, and with
        the notification named."""
        may = PROFILES[act].transferable
        if not may:
            under = checks.listing(k for k, p in PROFILES.items() if p.transferable)
            for name in ("transferred", "notification"):
                if name in entry:
                    self.fault(
                        (*at, name),
                        f"{here}: {name} is read only under {under} (what a State's "
                        f"notification under its s.31 transfers to the local authority), "
                        f"not under {act}",
                    )
            return frozenset()
        for i, power in enumerate(powers or ()):
            if power not in may:
                allowed = checks.listing(p.value for p in Power if p in may)
                self.fault(
                    (*at, "transferred", i),
                    f"{here}: transferred: {power.value!r} is not a power a notification "
                    f"under s.31 may transfer to the local authority: one of {allowed}",
                )
        if powers and "notification" not in entry:
            self.fault(
                (*at, "transferred"),
                f"{here}: transferred needs notification, the Gazette reference of the "
                "s.31 notification that transfers them",
            )
        return frozenset(powers or ())

    # -- rate tables: they need the listed kinds, and fault rows one by one -----------

    def rates(self, value: Any, key: Key, where: str) -> dict[str, RateTable] | None:
        """For each kind, a rate table of dated rows; every listed kind needs one."""
        if not isinstance(value, dict):
            raise checks.Bad(f"{where} must be a table of kinds")
        for kind in self.kind_codes:
            if kind not in value:
                self.fault(key, f"{where}: no rate for kind '{kind}'")
        spec = {
            "from": checks.day,
            "rupees": checks.amount,
            "source": checks.text,
            "closed": checks.case_numbers,
        }
        tables: dict[str, RateTable] = {}
        for kind, rows in value.items():
            if kind not in self.kind_codes:
                self.fault((*key, kind), f"{where}: '{kind}' is not a listed kind")
            if not isinstance(rows, list) or not rows:
                self.fault((*key, kind), f"{where}.{kind} must be a list of dated rows")
                continue
            read: dict[date, DatedRate] = {}
            for i, row in enumerate(rows):
                at = (*key, kind, i)
                rec = self.record(row, at, f"{where}.{kind} row {i + 1}", spec, ("closed",))
                closed = rec.pop("closed") or frozenset()
                if rec["from"] in read:
                    self.fault((*key, kind, i), f"{where}.{kind}: two rows from {rec['from']}")
                elif None not in rec.values():
                    row_read = DatedRate(rec["from"], rec["rupees"], rec["source"], closed)
                    read[rec["from"]] = row_read
            if len(read) == len(rows) and kind in self.kind_codes:
                tables[kind] = RateTable.of(read.values())
        return tables if sorted(tables) == sorted(self.kind_codes) else None


def _place_names(authorities: Iterable[Authority], pounds: Iterable[Pound]) -> PlaceNames:
    """The places an officer may name (s.13(2): the office, the village, the market
    place; the auction's place, often a market or the pound), by any of their forms."""
    names: list[str] = []
    for a in authorities:
        names += [a.name, a.office_address, a.village, a.market_place]
        for village, market in a.markets.items():
            names += [village, market]
    for p in pounds:
        names += [p.name, p.address]
        for village, market in p.markets.items():
            names += [village, market]
    return PlaceNames(names)
