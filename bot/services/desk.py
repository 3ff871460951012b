"""What the web desk shows: the day's work, the list of cases, one case in full.

Each reader is scoped by role as the use cases are: an officer sees the pounds of their
authority, a keeper their pound, an authority admin their authority's pounds, a state
admin every pound (``Caller.administers``); anyone else is refused. The lists
read the projections the store keeps in step with the events (the ``deadlines`` rows,
the ``cases`` and ``case_lots`` rows, the settlements), so a page costs a few indexed
queries whatever the number of cases (their SQL: ``bot.store.desk_reads``); one case is
rebuilt from its events.

Why it is long: every read of the desk, each with the records it returns, and the
reading of its search box (``sought``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any, NamedTuple

from bot.services.base import Deps, act_of_case, statement_of
from bot.services.owners import phone_of_lot
from bot.store.models import LedgerEntry
from bot.store.port import CaseStore, DeskReads, UnitOfWork
from bot.store.tx import LoadedCase, parse_case_number
from bot.support.caller import KEEPER, OFFICER, Caller
from bot.support.errors import BadInputError, NotAllowedError, UnknownCaseError
from bot.support.phones import PhoneError, normalize_phone
from bot.support.spelling import letters, normalize_word, words_of
from domain.deadlines import Deadline
from domain.money import Money
from domain.profiles import KERALA_1961, Office, Profile
from domain.s04_s11_dues import Dues
from domain.s07_seizure import Lot, Person
from domain.s15_3_account import Account
from domain.s15_sale import Settlement
from domain.stages import Stage
from domain.statement import Statement

__all__ = [
    "CaseFilter",
    "CaseItem",
    "CaseList",
    "CaseView",
    "DepositHeld",
    "DueItem",
    "Sought",
    "StoppedNumber",
    "TimelineEntry",
    "Today",
    "case_of",
    "case_view",
    "list_cases",
    "pounds_of",
    "sought",
    "today",
]

#: How many cases a page of the list shows (a phone screen's worth, twice over).
PAGE = 20
#: How many rows each section of Today lists: the earliest (the list of cases has all).
TODAY_ROWS = 15
#: Cases are counted up to this many; beyond, the list says "1000+".
COUNT_CAP = 1000
#: Deadlines due are counted up to this many on Today ("100+": the list has the rest).
DUE_CAP = 100
#: The words of a search that count: the first few, of two characters or more.
SEARCH_WORDS = 5


def pounds_of(deps: Deps, caller: Caller) -> list[str]:
    """The pounds the caller may see: their pound, their authority's, or (a state
    admin's) all of them."""
    if caller.is_admin:
        return sorted(
            code for code, p in deps.config.pounds.items() if caller.administers(p.authority)
        )
    if caller.role == OFFICER and caller.authority:
        return sorted(
            p.code for p in deps.config.pounds.values() if p.authority == caller.authority
        )
    if caller.role == KEEPER and caller.pound:
        return [caller.pound]
    raise NotAllowedError("only a keeper, an officer or an admin uses the web desk")


@dataclass(frozen=True, slots=True)
class DueItem:
    """A statutory deadline of a case: what, by when, under which provision, for whom."""

    number: str
    kind: str
    provision: str
    due_on: date
    who: str
    counts_from: date
    #: The Act the case is under (its line is in that Act's words).
    act: Profile = KERALA_1961


@dataclass(frozen=True, slots=True)
class DepositHeld:
    """Surplus proceeds held in deposit (s.16(3)) and when its three months end."""

    number: str
    amount: Money
    deposited_on: date
    window_end: date
    #: The Act the case is under (its line is in that Act's words).
    act: Profile = KERALA_1961


@dataclass(frozen=True, slots=True)
class StoppedNumber:
    """A keeper or an officer whose number said STOP on a channel (``channel``: ``sms``
    or ``whatsapp``), since ``since``: no reminder or report reaches it there; with
    Telegram linked they come there instead."""

    name: str
    role: str
    channel: str
    since: date
    on_telegram: bool


@dataclass(frozen=True, slots=True)
class Today:
    """The day's work of a keeper, an officer or an admin."""

    day: date
    due: list[DueItem]
    #: How many are due, up to DUE_CAP + 1 (more than DUE_CAP: "100+").
    due_total: int
    awaiting_notice: list[DueItem]
    auctions: list[DueItem]
    deposits: list[DepositHeld]
    held: Money
    #: Keepers and officers whose number said STOP: nothing goes to it but answers.
    stopped: list[StoppedNumber] = field(default_factory=list)
    #: The pounds of the caller's whose keepers are all disabled: without a keeper until
    #: one is named (an officer's and an admin's Today; a keeper's is their own pound).
    keeperless: list[str] = field(default_factory=list)

    @property
    def due_counted(self) -> str:
        """How many are due, as the page says it: ``12``, or ``100+`` past DUE_CAP."""
        return str(self.due_total) if self.due_total <= DUE_CAP else f"{DUE_CAP}+"


def _item(row: Any, act: Profile) -> DueItem:
    return DueItem(row[0], row[1], row[2], row[3], row[4], row[5], act)


async def today(tx: DeskReads, deps: Deps, caller: Caller) -> Today:
    """Deadlines due or overdue (not the owner's), reports awaiting a notice, auctions in
    the next seven days, and the deposits held with the end of their three months; each
    with the Act of its case, as the case keeps it (``case_acts``; a row whose case is
    not found, never: from its pound and impounding day, ``act_of_case``)."""
    pounds = pounds_of(deps, caller)
    day = deps.today()
    until = day + timedelta(days=6)
    found = await tx.today_rows(pounds, day, until, rows=TODAY_ROWS, due_cap=DUE_CAP)
    acts = await tx.case_acts({row[0] for row in found})

    def act(row: Any) -> Profile:
        known = acts.get(row[0])
        if known is None:
            known = acts[row[0]] = act_of_case(deps.config, row[9], row[10])
        return known

    sections: dict[str, list[Any]] = {"due": [], "awaiting": [], "auctions": [], "held": []}
    for row in found:
        sections[row[6]].append(row)
    for name, rows in sections.items():  # a UNION ALL keeps no order of its own
        rows.sort(key=lambda row: (row[3], row[0]))
        # A case once per section, at its earliest deadline (its page lists them all).
        firsts: dict[str, Any] = {}
        for row in rows:
            firsts.setdefault(row[0], row)
        sections[name] = list(firsts.values())
    # Counted up to DUE_CAP: "100+" says enough, and the count stays cheap. Each row due
    # carries it; with none due, none is.
    due_total = sections["due"][0][8] if sections["due"] else 0
    deposits = [
        DepositHeld(row[0], Money(int(row[7] or 0)), row[5], row[3], act(row))
        for row in sections["held"]
    ]
    return Today(
        day=day,
        due=[_item(r, act(r)) for r in sections["due"]],
        due_total=int(due_total or 0),
        awaiting_notice=[_item(r, act(r)) for r in sections["awaiting"]],
        auctions=[_item(r, act(r)) for r in sections["auctions"]],
        deposits=deposits,
        held=Money(sum(d.amount.paise for d in deposits)),
        stopped=await _stopped_numbers(tx, deps, pounds),
        keeperless=await tx.keeperless_pounds(pounds) if caller.role != KEEPER else [],
    )


async def _stopped_numbers(tx: DeskReads, deps: Deps, pounds: list[str]) -> list[StoppedNumber]:
    """The keepers of ``pounds`` and the officers of their authorities whose number said
    STOP (by SMS, by WhatsApp), each channel a line, the day in local time."""
    authorities = sorted(
        {deps.config.pounds[p].authority for p in pounds if p in deps.config.pounds}
    )
    zone = deps.config.reminders.timezone
    found = []
    stopped = await tx.stopped_numbers(pounds, authorities)
    for name, role, telegram_id, sms_at, whatsapp_at in stopped:
        for channel, since in (("sms", sms_at), ("whatsapp", whatsapp_at)):
            if since is not None:
                day = since.astimezone(zone).date()
                found.append(StoppedNumber(name, role, channel, day, telegram_id is not None))
    return found


@dataclass(frozen=True, slots=True)
class CaseFilter:
    """What the list of cases is narrowed to; empty fields narrow nothing."""

    stage: str = ""
    pound: str = ""
    kind: str = ""
    since: date | None = None
    until: date | None = None
    page: int = 1
    #: Words each found in the place of seizure, a lot's kind or description, or the
    #: owner's name (the desk is staff's: the public search never reads the name).
    words: tuple[str, ...] = ()
    #: The owner's number (E.164).
    phone: str = ""


class Sought(NamedTuple):
    """What the desk's search box was given, read: a case number as stored (``KNM-17``),
    an owner's number (E.164), or words; ``short`` when nothing in it can be searched
    (one letter, punctuation only)."""

    number: str = ""
    phone: str = ""
    words: tuple[str, ...] = ()
    short: bool = False


_LETTER = re.compile(r"[^\W\d_]")


def sought(text: str) -> Sought:
    """The search box's text read: a case number in any spelling the chat accepts
    (``knm 17``, ``KNM17``, ``KNM-17``); else a telephone number in any spelling
    (``9847012345``, ``+919847012345``, ``098470 12345``), normalised as the owner's is
    kept; else its words of two letters or more as a reader counts them (``പി`` is one),
    compared as spelt alike (``normalize_word``: in lower case, Malayalam's chillus in one
    spelling), in any order."""
    text = text.strip()[:100]
    try:
        pound, seq = parse_case_number(text)
    except BadInputError:
        pass
    else:
        return Sought(number=f"{pound}-{seq}")
    if sum(ch.isdigit() for ch in text) >= 7 and not _LETTER.search(text):
        try:
            return Sought(phone=normalize_phone(text))
        except PhoneError:
            pass
    found = (normalize_word(w) for w in words_of(text) if len(letters(w)) >= 2)
    words = tuple(dict.fromkeys(found))[:SEARCH_WORDS]
    return Sought(words=words, short=not words)


@dataclass(frozen=True, slots=True)
class CaseItem:
    """A line of the list of cases."""

    number: str
    pound: str
    stage: str
    impounded_on: date
    place_seized: str
    lots: tuple[Lot, ...]
    #: The Act the case is under (its stage is named in that Act's words).
    act: Profile = KERALA_1961


@dataclass(frozen=True, slots=True)
class CaseList:
    """A page of the list of cases, how many match (counted up to COUNT_CAP + 1), and
    whether older ones follow."""

    items: list[CaseItem]
    total: int
    page: int
    more: bool
    pounds: list[str] = field(default_factory=list)

    @property
    def counted(self) -> str:
        """How many match, as the page says it: ``25``, or ``1000+`` past COUNT_CAP."""
        return str(self.total) if self.total <= COUNT_CAP else f"{COUNT_CAP}+"


async def list_cases(tx: DeskReads, deps: Deps, caller: Caller, wanted: CaseFilter) -> CaseList:
    """The caller's cases, newest first, narrowed by stage, pound, kind, dates and the
    words (in the place, the cattle or the owner's name) or the owner's number searched,
    each with the Act it is under, as the case keeps it (``case_acts``)."""
    pounds = pounds_of(deps, caller)
    chosen = [wanted.pound] if wanted.pound in pounds else pounds
    narrowed: dict[str, Any] = {
        "stage": wanted.stage,
        "kind": wanted.kind,
        "since": wanted.since,
        "until": wanted.until,
        "page": PAGE,
        "cap": COUNT_CAP,
        "words": wanted.words,
        "phone": wanted.phone,
    }
    page = max(1, wanted.page)
    found = await tx.cases_page(chosen, **narrowed, offset=(page - 1) * PAGE)
    cases: dict[int, tuple[Any, list[Lot]]] = {}
    for row in found:
        lots = cases.setdefault(row[0], (row, []))[1]
        if row[6] is not None:
            lots.append(Lot(row[6], row[7], row[8]))
    shown = list(cases.values())
    # On a page past the last (or with no case at all), the count alone.
    if shown:
        total = int(shown[0][0][9] or 0)
    else:
        total = await tx.cases_counted(chosen, **narrowed)
    more = len(shown) > PAGE
    acts = await tx.case_acts([r[1] for r, _ in shown[:PAGE]])
    items = [
        CaseItem(
            r[1],
            r[2],
            r[3],
            r[4],
            r[5],
            tuple(lots),
            acts.get(r[1]) or act_of_case(deps.config, r[2], r[4]),
        )
        for r, lots in shown[:PAGE]
    ]
    return CaseList(items, total, page, more, pounds)


@dataclass(frozen=True, slots=True)
class TimelineEntry:
    """An event of the audit log: what, on which day, under what, recorded by whom."""

    type: str
    on: date
    provision: str
    actor_role: str
    actor_name: str
    channel: str


@dataclass(frozen=True, slots=True)
class CaseView:
    """One case as the desk shows it."""

    loaded: LoadedCase
    authority: str
    timeline: list[TimelineEntry]
    deadlines: list[Deadline]
    dues: Dues | None
    settled: tuple[Settlement, Account] | None
    ledger: list[LedgerEntry]
    stated: Statement
    #: The offices the active officers of its authority hold, for an officer's page: the
    #: steps of an office one of them holds are offered to its holders only
    #: (``bot.services.base.may_take``); for a keeper's, none (no step of theirs is an
    #: office's).
    held: frozenset[Office] = frozenset()
    #: Its pound's keepers are all disabled: without a keeper until one is named.
    keeperless: bool = False
    #: The number of the owner of each lot with an owner of its own, by the lot's place
    #: (None: none of its own; ``CaseStore.lot_phones``).
    lot_phones: tuple[str | None, ...] = ()

    @property
    def lot_owners(self) -> list[tuple[Person | None, str]]:
        """Each lot's owner and their number (blank: none known), when the lots are of
        more than one owner (s.7); else none: the case's owner is the owner of all."""
        seizure = self.loaded.case.seizure
        if not seizure.owned_apart:
            return []
        owner_phone = self.loaded.row.owner_phone
        return [
            (seizure.owner_of(i), phone_of_lot(seizure, self.lot_phones, owner_phone, i) or "")
            for i in range(len(seizure.lots))
        ]


async def case_of(
    tx: CaseStore, deps: Deps, caller: Caller, number: str, *, for_update: bool = False
) -> LoadedCase:
    """A case of the caller's pounds (``for_update``: locked for a step); another's is
    refused as unknown."""
    loaded = await tx.load_case(number, for_update=for_update)
    if loaded.pound not in pounds_of(deps, caller):
        # Said as "no such case": the desk does not confirm another authority's numbers.
        raise UnknownCaseError("no such case", number=loaded.row.number)
    return loaded


async def case_view(
    tx: UnitOfWork, deps: Deps, caller: Caller, number: str | LoadedCase
) -> CaseView:
    """One case of the caller's pounds, in full: read by its number, or as already read
    (the case after a step); another's is refused as unknown."""
    if isinstance(number, LoadedCase):
        loaded = number
    else:
        loaded = await case_of(tx, deps, caller, number)
    events = await tx.case_events(loaded.row.id)
    # Each step cites the provision of the route it was taken on (s.13(3) or s.15(1)),
    # read from the case: rows written before the route was recorded cite s.13(3).
    cited = loaded.case.provisions
    timeline = [
        TimelineEntry(
            e.type,
            e.on,
            cited[e.seq] if e.seq < len(cited) else e.provision,
            e.actor_role,
            name or "",
            e.channel,
        )
        for e, name in events
    ]
    ledger = await tx.case_ledger(loaded.row.id)
    case = loaded.case
    stated = statement_of(deps, case)
    settled = [r.settlement for r in stated.rounds if r.settlement is not None]
    authority = deps.authority_of(loaded.pound)
    return CaseView(
        loaded=loaded,
        authority=authority,
        timeline=timeline,
        deadlines=list(stated.deadlines),
        dues=None if case.stage is Stage.VOIDED else stated.dues,
        settled=(settled[-1], stated.account) if settled and stated.account else None,
        ledger=ledger,
        stated=stated,
        held=await tx.offices_held(authority) if caller.role == OFFICER else frozenset(),
        keeperless=bool(await tx.keeperless_pounds([loaded.pound])),
        # Read only for cattle of more than one owner: a case page of one owner asks no more.
        lot_phones=await tx.lot_phones(loaded) if loaded.case.seizure.owned_apart else (),
    )
