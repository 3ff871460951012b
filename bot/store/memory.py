"""The store in memory: a fake of the ports of the store (``bot.store.port``: the cases,
the ledger's reads, the desk's reads, the users and invites, the sign-in links and
sessions), for tests of the use cases that need no database.

``MemoryStore`` opens transactions as ``bot.store.tx.Store`` does, and transactions that
only read (``reading``); each works on a copy of what is held and puts it back only when
its block ends normally (a block that raises leaves nothing; a reading transaction given
something to write is ``ReadOnlyError``). The events are kept as the database keeps them
(the store's codec: type and payload) and a case is folded from them when read, its
places named as the real store names them. The rows handed out are the store's own row
classes, made here and never bound to a session: the use cases read a case's number,
pound, id and owner's number from them, and set the owner's number. The deadlines the
desk reads are derived from the case when read, as the store derives its rows when the
case changes (``bot.store.deadlines``). The users, invites, links and sessions are held as
their rows' values, a user or invite handed out as a row made afresh (changed through the
port: ``deactivate_user``, ``use_invite``). Users and contacts are also given to a
transaction (``add_row``) as a test writes them (``bot.store.rows.add``). Not faked: the reminders
planned from the deadlines, anything read by SQL of its own outside the ports. One
transaction at a time: nothing here is isolated from a second one.

Test support, kept here (and so in the wheel, some 25 kB that nothing imports at run
time): mypy's strict check that it is a ``UnitOfWork`` (the last line) runs on ``bot/``,
not on ``tests/``, and the wheel lists whole packages (a module cannot be left out of one
without a build step of its own).

Why it is long: a fake of every method of the ports, each a few lines, in one place so
that the contract suite (tests/contract/) holds it to the store method by method.
"""

from __future__ import annotations

import copy
from collections.abc import AsyncIterator, Callable, Collection, Iterable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

from bot.store.codec import act_of_intake, dump_event, load_event
from bot.store.message_reads import LogKey
from bot.store.models import (
    CaseEvent,
    CaseRow,
    Contact,
    InboxRow,
    Invite,
    LedgerEntry,
    OutboxRow,
    User,
    UserChange,
)
from bot.store.port import UnitOfWork
from bot.store.tx import (
    SHUT,
    LoadedCase,
    ReadOnlyError,
    Recorder,
    as_typed,
    named_places,
    owner_name_of,
    parse_case_number,
)
from bot.support.caller import OFFICER, Caller
from bot.support.clock import Clock
from bot.support.errors import BadInputError, CaseChangedError, UnknownCaseError
from bot.support.offices import declared_offices, held_offices
from bot.support.public_text import public_lots
from domain.accounts import Postings
from domain.case import Case
from domain.deadlines import Deadline, deadlines
from domain.events import DisposedOtherwise, LotOffered, LotsSeparated, SeizureCorrected
from domain.money import Money
from domain.profiles import Office, Profile
from domain.s15_sale import Settlement
from domain.s18_buyers import KnownPerson

__all__ = ["MemoryCases", "MemoryStore"]

#: The columns of a case's row that the fake keeps.
_ROW = (
    "id",
    "pound_code",
    "seq",
    "number",
    "stage",
    "impounded_on",
    "place_seized",
    "owner_phone",
    "owner_name",
    "created_at",
    "updated_at",
)
_EVENT = (
    "id",
    "case_id",
    "seq",
    "type",
    "on",
    "payload",
    "provision",
    "actor_user_id",
    "actor_role",
    "channel",
    "recorded_at",
)
_USER = (
    *("id", "role", "pound_code", "authority_code", "phone", "telegram_id", "name", "lang"),
    *("offices", "created_at"),
)
_INVITE = (
    *("code", "role", "pound_code", "authority_code", "name", "created_at", "expires_at"),
    *("used_by", "used_at", "offices", "for_user"),
)
_USER_CHANGE = ("id", "user_id", "authority_code", "by_user_id", "at", "field", "old", "new")
_CONTACT = (
    "phone",
    "lang",
    "opted_out_at",
    "updated_at",
    "last_channel",
    "channel",
    "whatsapp_at",
    "whatsapp_stopped_at",
)
#: The role a registered keeper or officer is barred from buying as (s.18).
_BARRED_AS = {"keeper": "pound_keeper", "officer": "officer"}


@dataclass(slots=True)
class _Held:
    """One case as held: its row's values, its events' values, the words of its lots."""

    row: dict[str, Any]
    events: list[dict[str, Any]] = field(default_factory=list)
    #: (kind, count, public description) of each lot, as the public search and the
    #: desk's list read them.
    lots: list[tuple[str, int, str]] = field(default_factory=list)
    #: The number of the owner of each lot that names one of its own, by its place.
    lot_phones: dict[int, str] = field(default_factory=dict)

    def names_phone(self, phone: str) -> bool:
        """Whether the case's owner, or a lot's, has the number ``phone``."""
        return self.row["owner_phone"] == phone or phone in self.lot_phones.values()


@dataclass(slots=True)
class _Data:
    """Everything held: the last number of each pound, the cases, the money's rows."""

    last_seq: dict[str, int]
    cases: dict[tuple[str, int], _Held] = field(default_factory=dict)
    ids: dict[str, int] = field(default_factory=dict)
    #: (case id, kind, paise, on, event id)
    payments: list[tuple[int, str, int, date, int]] = field(default_factory=list)
    sale_lots: list[dict[str, Any]] = field(default_factory=list)
    settlements: list[dict[str, Any]] = field(default_factory=list)
    ledger: list[dict[str, Any]] = field(default_factory=list)
    users: dict[int, dict[str, Any]] = field(default_factory=dict)
    contacts: dict[str, dict[str, Any]] = field(default_factory=dict)
    invites: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: The sign-in links and the sessions by their token's hash: (user id, expires at,
    #: used or ended at).
    links: dict[str, list[Any]] = field(default_factory=dict)
    sessions: dict[str, list[Any]] = field(default_factory=dict)
    #: The changes to users, oldest first (``UserChange``'s values).
    user_changes: list[dict[str, Any]] = field(default_factory=list)
    #: The messages in and out, as ``message_rows`` gives them (direction, time, channel,
    #: number, status, last_error, attempts, next_attempt_at, template, case_number,
    #: body, done at, id, the four fields of a sending again, purged at).
    messages: list[tuple[Any, ...]] = field(default_factory=list)

    def next_id(self, table: str) -> int:
        self.ids[table] = self.ids.get(table, 0) + 1
        return self.ids[table]


class MemoryCases:
    """One transaction on the store in memory (``UnitOfWork``)."""

    def __init__(self, data: _Data, now: datetime, places: Callable[[str], str] = as_typed) -> None:
        self.data = data
        self.now = now
        self.places = places
        self.posted: list[Postings] = []
        #: The rows this transaction handed out, one per case (as a session's identity
        #: map): what a use case sets on one is held when next read and at the end.
        self._rows: dict[tuple[str, int], CaseRow] = {}

    # -- rows handed out --

    def _row(self, key: tuple[str, int]) -> CaseRow:
        row = self._rows.get(key)
        if row is None:
            row = self._rows[key] = CaseRow(**self.data.cases[key].row)
        return row

    def flush(self) -> None:
        """What was set on the rows handed out, into what is held."""
        for key, row in self._rows.items():
            self.data.cases[key].row.update({name: getattr(row, name) for name in _ROW})

    def _loaded(self, key: tuple[str, int]) -> LoadedCase:
        held = self.data.cases[key]
        events = [
            named_places(load_event(e["type"], e["payload"]), self.places) for e in held.events
        ]
        return LoadedCase(self._row(key), Case.replay(held.row["number"], events))

    def _find(self, keep: Callable[[dict[str, Any]], bool]) -> list[tuple[str, int]]:
        self.flush()
        return [key for key, held in self.data.cases.items() if keep(held.row)]

    def _held(self, loaded: LoadedCase) -> _Held:
        return self.data.cases[(loaded.row.pound_code, loaded.row.seq)]

    # -- case numbers and cases --

    async def next_case_seq(self, pound: str) -> int:
        """The next number of ``pound`` (no gaps); an unknown pound is ``BadInputError``."""
        if pound not in self.data.last_seq:
            raise BadInputError("unknown pound", pound=pound)
        self.data.last_seq[pound] += 1
        return self.data.last_seq[pound]

    async def add_case(
        self, case: Case, seq: int, actor: Caller, owner_phone: str | None
    ) -> CaseRow:
        """Store a newly opened case and its first event."""
        seizure = case.seizure
        key = (seizure.pound, seq)
        self.data.cases[key] = _Held(
            row={
                "id": self.data.next_id("cases"),
                "pound_code": seizure.pound,
                "seq": seq,
                "number": case.number,
                "stage": case.stage.value,
                "impounded_on": seizure.impounded_on,
                "place_seized": seizure.place_seized,
                "owner_phone": owner_phone,
                "owner_name": owner_name_of(case),
                "created_at": self.now,
                "updated_at": self.now,
            }
        )
        row = self._row(key)
        self._set_lots(key, case)
        await self.append_events(LoadedCase(row, case), case, actor, from_seq=0)
        return row

    def _set_lots(self, key: tuple[str, int], case: Case) -> None:
        lots = public_lots(case.seizure)
        self.data.cases[key].lots = [(lot.kind, lot.count, lot.description) for lot in lots]

    async def load_case(self, number: str, *, for_update: bool = False) -> LoadedCase:
        """The case with this number (``knm 17``); none is ``UnknownCaseError``."""
        key = parse_case_number(number)
        if key not in self.data.cases:
            raise UnknownCaseError("no such case", number=f"{key[0]}-{key[1]}")
        return self._loaded(key)

    async def set_lot_phones(self, loaded: LoadedCase, phones: Sequence[str | None]) -> None:
        """The numbers of the owners of the case's lots, by each lot's place in its record
        as it is now (None: the lot names no owner of its own with a number)."""
        held = self._held(loaded)
        held.lot_phones = {i: phone for i, phone in enumerate(phones) if phone}

    async def lot_phones(self, loaded: LoadedCase) -> tuple[str | None, ...]:
        """The number of the owner of each lot of the case, by its place (None: none of
        its own)."""
        found = self._held(loaded).lot_phones
        return tuple(found.get(i) for i in range(len(loaded.case.seizure.lots)))

    async def recorded_by(self, loaded: LoadedCase) -> Recorder:
        """Who recorded the seizure of a case (the actor of its first event)."""
        first = self._held(loaded).events[0]
        return Recorder(first["actor_user_id"], first["actor_role"])

    async def append_events(
        self, loaded: LoadedCase, after: Case, actor: Caller, *, from_seq: int | None = None
    ) -> list[CaseEvent]:
        """Append the events ``after`` has beyond ``loaded``; a step taken first elsewhere
        is ``CaseChangedError``, nothing written."""
        start = len(loaded.case.events) if from_seq is None else from_seq
        key = (loaded.row.pound_code, loaded.row.seq)
        held = self.data.cases[key]
        new = after.events[start:]
        if new and len(held.events) > start:
            raise CaseChangedError("another step was recorded first", number=f"{key[0]}-{key[1]}")
        cited = after.provisions
        for seq, event in enumerate(new, start=start):
            type_name, payload = dump_event(event)
            held.events.append(
                {
                    "id": self.data.next_id("case_events"),
                    "case_id": held.row["id"],
                    "seq": seq,
                    "type": type_name,
                    "on": event.on,
                    "payload": payload,
                    "provision": cited[seq],
                    "actor_user_id": actor.user_id,
                    "actor_role": actor.role,
                    "channel": actor.channel,
                    "recorded_at": self.now,
                }
            )
        loaded.row.stage = after.stage.value
        loaded.row.updated_at = self.now
        if any(isinstance(e, SeizureCorrected | LotsSeparated) for e in new):
            loaded.row.impounded_on = after.seizure.impounded_on
            loaded.row.place_seized = after.seizure.place_seized
            loaded.row.owner_name = owner_name_of(after)
            self._set_lots(key, after)
        self._rows.setdefault(key, loaded.row)
        self.flush()
        return [CaseEvent(**e) for e in held.events[start:]]

    # -- lists --

    async def open_cases_naming(self, phone: str, limit: int) -> tuple[list[str], int]:
        """The newest ``limit`` open cases' numbers whose owner is ``phone``, and their count."""
        self.flush()
        keys = [
            key
            for key, held in self.data.cases.items()
            if held.names_phone(phone) and held.row["stage"] not in SHUT
        ]
        rows = sorted(
            (self.data.cases[k].row for k in keys),
            key=lambda r: (r["impounded_on"], r["id"]),
            reverse=True,
        )
        return [r["number"] for r in rows[:limit]], len(rows)

    async def open_cases(self, pound: str) -> list[LoadedCase]:
        """Open cases of a pound, oldest first."""
        keys = self._find(lambda r: r["pound_code"] == pound and r["stage"] not in SHUT)
        return [self._loaded(k) for k in sorted(keys)]

    async def cases_in_stage(
        self, pounds: Sequence[str], stages: Sequence[str]
    ) -> list[LoadedCase]:
        """Cases of ``pounds`` in ``stages``, by pound and number."""
        keys = self._find(lambda r: r["pound_code"] in pounds and r["stage"] in stages)
        return [self._loaded(k) for k in sorted(keys)]

    async def cases_impounded(
        self, pounds: Sequence[str], start: date, end: date
    ) -> list[LoadedCase]:
        """Cases of ``pounds`` impounded from ``start`` up to ``end``, by pound and number."""
        keys = self._find(lambda r: r["pound_code"] in pounds and start <= r["impounded_on"] < end)
        return [self._loaded(k) for k in sorted(keys)]

    async def search_open(
        self,
        words: Sequence[str | Sequence[str]],
        limit: int = 5,
        *,
        stages: Sequence[str] | None = None,
    ) -> list[LoadedCase]:
        """Open cases (or those in ``stages``) whose kind, description or place match."""
        keys = self._find(lambda r: r["stage"] in stages if stages else r["stage"] not in SHUT)

        def matches(key: tuple[str, int]) -> bool:
            held = self.data.cases[key]
            texts = [held.row["place_seized"], *(t for k, _, d in held.lots for t in (k, d))]
            return all(
                any(
                    form.casefold() in text.lower()
                    for form in ([word] if isinstance(word, str) else word)
                    for text in texts
                )
                for word in words
            )

        found = sorted((k for k in keys if matches(k)), key=lambda k: self.data.cases[k].row["id"])
        return [self._loaded(k) for k in reversed(found[-limit:] if limit > 0 else [])]

    # -- money --

    async def last_event_row(self, loaded: LoadedCase) -> CaseEvent:
        """The newest audit-log row of a case."""
        return CaseEvent(**self._held(loaded).events[-1])

    async def record_sale_lot(self, loaded: LoadedCase, after: Case) -> None:
        """Project the newest sale event of ``after`` into the sold lots."""
        event, event_id = after.events[-1], self._held(loaded).events[-1]["id"]
        case_id = loaded.row.id
        if isinstance(event, LotOffered):
            self.data.sale_lots.append(
                {"case_id": case_id, "lot_idx": event.lot, "count": event.count}
                | {"sold": event.sold, "disposal": "auction", "event_id": event_id}
                | {"price_paise": event.price.paise if event.price else None}
            )
        elif isinstance(event, DisposedOtherwise):
            self.data.sale_lots.append(
                {"case_id": case_id, "lot_idx": event.lot, "count": event.count}
                | {"sold": True, "disposal": "other", "event_id": event_id}
                | {"price_paise": event.proceeds.paise}
            )

    async def record_settlement(
        self, loaded: LoadedCase, event_row: CaseEvent, settlement: Settlement, on: date
    ) -> None:
        """The settled money of a sale."""
        self.data.settlements.append(
            {"case_id": loaded.row.id, "on": on, "event_id": event_row.id}
            | {"proceeds_paise": settlement.proceeds.paise}
            | {"balance_paise": settlement.balance.paise}
        )

    async def deposit_amount(self, loaded: LoadedCase) -> Money:
        """What was deposited under s.14 for a case."""
        return Money(
            sum(p[2] for p in self.data.payments if p[0] == loaded.row.id and p[1] == "deposit")
        )

    async def record_payment(
        self, loaded: LoadedCase, event_row: CaseEvent, kind: str, amount: Money, on: date
    ) -> None:
        """A payment (s.12) or deposit (s.14) taken at the pound."""
        self.data.payments.append((loaded.row.id, kind, amount.paise, on, event_row.id))

    def post(
        self,
        *,
        authority: str,
        loaded: LoadedCase,
        event_row: CaseEvent,
        postings: Postings,
        on: date,
    ) -> None:
        """Write the ledger legs the domain returned for an event (``domain.ledger``)."""
        self.posted.append(postings)
        self.data.ledger.extend(
            {"id": self.data.next_id("ledger_entries"), "authority_code": authority}
            | {"case_id": loaded.row.id, "account": leg.account}
            | {"amount_paise": leg.amount.paise, "provision": leg.provision}
            | {"on": on, "event_id": event_row.id}
            for leg in postings.legs
        )

    # -- people --

    def add_row(self, row: User | Contact | InboxRow | OutboxRow) -> None:
        """Hold a user (given its id if it has none), a contact or a message, as a test
        writes one to the database (``bot.store.rows.add``)."""
        if isinstance(row, InboxRow | OutboxRow):
            self.data.messages.append(_message(row, self.data.next_id("messages")))
        elif isinstance(row, User):
            if row.id is None:
                row.id = self.data.next_id("users")
            self.data.ids["users"] = max(self.data.ids.get("users", 0), row.id)
            values = {name: getattr(row, name) for name in _USER}
            values["active"] = row.active is not False
            values["offices"] = row.offices or ""  # the column's default
            self.data.users[row.id] = values
        else:
            self.data.contacts[row.phone] = {name: getattr(row, name) for name in _CONTACT}

    async def registered_keepers_and_officers(self) -> list[KnownPerson]:
        """s.18: every active registered keeper and officer with a name, of any pound or
        authority, with their role as barred and their phone number."""
        return [
            KnownPerson(_BARRED_AS[u["role"]], u["name"], u["phone"])
            for u in self.data.users.values()
            if u["active"] and u["role"] in _BARRED_AS and u["name"]
        ]

    async def is_registered(
        self, *, phone: str | None = None, telegram_id: int | None = None
    ) -> bool:
        """Whether a user, active or not, has this phone number (or this Telegram id)."""
        column, value = ("phone", phone) if phone is not None else ("telegram_id", telegram_id)
        return any(u[column] == value for u in self.data.users.values())

    async def user_by_id(self, user_id: int) -> User | None:
        """The user ``user_id``, active or not."""
        held = self.data.users.get(user_id)
        return User(**held) if held is not None else None

    def _active(self, column: str, value: object) -> User | None:
        found = (u for u in self.data.users.values() if u["active"] and u[column] == value)
        held = next(found, None)
        return User(**held) if held is not None else None

    async def user_by_phone(self, phone: str) -> User | None:
        """The active user with this phone number."""
        return self._active("phone", phone)

    async def user_by_telegram(self, telegram_id: int) -> User | None:
        """The active user with this Telegram id."""
        return self._active("telegram_id", telegram_id)

    async def active_users(self) -> list[User]:
        """All active users, by id."""
        return [User(**u) for _, u in sorted(self.data.users.items()) if u["active"]]

    async def add_user(self, row: User) -> None:
        """Write a new user; it has its id from then on."""
        self.add_row(row)

    async def deactivate_user(self, row: User, *, keep_phone: bool = False) -> None:
        """Deactivate a user (kept for the audit log), their Telegram id freed, and their
        phone number too unless ``keep_phone``."""
        row.active, row.telegram_id = False, None
        if not keep_phone:
            row.phone = None
        self.data.users[row.id].update(active=False, telegram_id=None, phone=row.phone)

    async def set_offices(self, row: User, offices: str) -> None:
        """Declare the offices ``row`` holds (``bot.support.offices.offices_text``)."""
        row.offices = offices
        self.data.users[row.id]["offices"] = offices

    async def offices_held(self, authority: str) -> frozenset[Office]:
        """The offices some active officer of ``authority`` holds."""
        return frozenset().union(
            *(
                held_offices(u["role"], declared_offices(u["offices"]))
                for u in self.data.users.values()
                if u["active"] and u["role"] == OFFICER and u["authority_code"] == authority
            )
        )

    async def update_user(self, row: User, **values: object) -> None:
        """Write ``values`` (columns of ``users``) to ``row``."""
        for column, value in values.items():
            setattr(row, column, value)
        self.data.users[row.id].update(values)

    async def end_sessions_of(self, user_id: int) -> int:
        """End now every session of user ``user_id`` not ended yet; how many."""
        live = [s for s in self.data.sessions.values() if s[0] == user_id and s[2] is None]
        for held in live:
            held[2] = self.now
        return len(live)

    async def expire_invites_for(self, user_id: int) -> None:
        """Expire now the unused invites for user ``user_id``."""
        for held in self.data.invites.values():
            if (
                held["for_user"] == user_id
                and held["used_at"] is None
                and held["expires_at"] > self.now
            ):
                held["expires_at"] = self.now

    async def add_user_change(self, change: UserChange) -> None:
        """Write a change to a user (given its id)."""
        change.id = self.data.next_id("user_changes")
        values = {name: getattr(change, name) for name in _USER_CHANGE}
        self.data.user_changes.append({**values, "reason": change.reason or ""})

    async def user_changes(
        self, *, user_id: int | None = None, authority: str | None = None
    ) -> list[UserChange]:
        """The changes to a user, every user, or the users of an authority (a move out
        of it too), oldest first."""
        return [
            UserChange(**c)
            for c in sorted(self.data.user_changes, key=lambda c: (c["at"], c["id"]))
            if (user_id is None or c["user_id"] == user_id)
            and (
                authority is None
                or c["authority_code"] == authority
                or (c["field"] == "authority_code" and c["old"] == authority)
            )
        ]

    async def add_invite(self, invite: Invite) -> None:
        """Write a new invite."""
        values = {name: getattr(invite, name) for name in _INVITE}
        self.data.invites[invite.code] = {**values, "offices": invite.offices or ""}

    async def invite_to_use(self, code: str) -> Invite | None:
        """The invite ``code`` (used, expired or not)."""
        held = self.data.invites.get(code)
        return Invite(**held) if held is not None else None

    async def use_invite(self, invite: Invite, user_id: int) -> None:
        """Mark ``invite`` used now, by user ``user_id``."""
        invite.used_by, invite.used_at = user_id, self.now
        self.data.invites[invite.code].update(used_by=user_id, used_at=self.now)

    # -- signing in --

    async def add_link(self, token_hash: str, user_id: int, expires_at: datetime) -> None:
        """Write a sign-in link of user ``user_id``."""
        self.data.links[token_hash] = [user_id, expires_at, None]

    async def redeem_link(self, token_hash: str) -> int | None:
        """Use a sign-in link: its user's id, the link used from now on; None if it is
        unknown, used already or expired."""
        link = self.data.links.get(token_hash)
        if link is None or link[2] is not None or link[1] <= self.now:
            return None
        link[2] = self.now
        user_id: int = link[0]
        return user_id

    async def add_session(self, token_hash: str, user_id: int, expires_at: datetime) -> None:
        """Write a session of user ``user_id``."""
        self.data.sessions[token_hash] = [user_id, expires_at, None]

    async def session_user(self, token_hash: str) -> User | None:
        """The active user of a live session (not ended, not expired), or None."""
        held = self.data.sessions.get(token_hash)
        if held is None or held[2] is not None or held[1] <= self.now:
            return None
        user = self.data.users.get(held[0])
        return User(**user) if user is not None and user["active"] else None

    async def end_session(self, token_hash: str) -> None:
        """End a session, if not ended already: it opens nothing from now on."""
        held = self.data.sessions.get(token_hash)
        if held is not None and held[2] is None:
            held[2] = self.now

    # -- the ledger's reads --

    def _entries(self, keep: Callable[[dict[str, Any]], bool]) -> list[dict[str, Any]]:
        return sorted((e for e in self.data.ledger if keep(e)), key=lambda e: (e["on"], e["id"]))

    async def ledger_of(self, authority: str) -> list[LedgerEntry]:
        """The ledger entries of ``authority``, by day and id."""
        return [LedgerEntry(**e) for e in self._entries(lambda e: e["authority_code"] == authority)]

    async def ledger_rows(
        self,
        *,
        authority: str | None = None,
        pounds: Sequence[str] | None = None,
        start: date | None = None,
        end: date | None = None,
    ) -> list[tuple[Any, ...]]:
        """(on, authority, case number, account, amount in paise, provision) of the
        entries, by day and id, narrowed as each is given."""
        self.flush()
        cases = {held.row["id"]: held.row for held in self.data.cases.values()}

        def keep(e: dict[str, Any]) -> bool:
            return (
                (authority is None or e["authority_code"] == authority)
                and (pounds is None or cases[e["case_id"]]["pound_code"] in pounds)
                and (start is None or e["on"] >= start)
                and (end is None or e["on"] < end)
            )

        columns = ("on", "authority_code", "case_id", "account", "amount_paise", "provision")
        return [
            tuple(cases[e[c]]["number"] if c == "case_id" else e[c] for c in columns)
            for e in self._entries(keep)
        ]

    async def case_acts(self, numbers: Collection[str]) -> dict[str, Profile]:
        """The Act each case of ``numbers`` that exists is under, as its intake keeps it
        (``Case.profile``), by number."""
        self.flush()
        wanted = set(numbers)
        return {
            held.row["number"]: act_of_intake(intake["type"], intake["payload"])
            for held in self.data.cases.values()
            if held.row["number"] in wanted
            for intake in held.events[:1]
        }

    # -- the desk's reads --

    async def today_rows(
        self, pounds: list[str], day: date, until: date, *, rows: int, due_cap: int
    ) -> list[tuple[Any, ...]]:
        """The open deadlines of Today's sections, unordered: (case number, kind,
        provision, due on, who, counts from, section, balance, cases due, pound, the
        case's impounding day)."""
        open_: list[tuple[dict[str, Any], Deadline]] = [
            (held.row, deadline)
            for key in self._find(lambda r: r["pound_code"] in pounds)
            for held in (self.data.cases[key],)
            for deadline in deadlines(self._loaded(key).case)
        ]
        by_day = sorted(open_, key=lambda item: item[1].due_on)
        due = [(r, d) for r, d in by_day if d.due_on <= day and d.who.value != "owner"]
        counted = min(len({r["number"] for r, _ in due}), due_cap + 1)

        def kind(name: str) -> list[tuple[dict[str, Any], Deadline]]:
            return [(r, d) for r, d in by_day if d.kind.value == name]

        def line(r: dict[str, Any], d: Deadline, section: str, extra: int = 0) -> tuple[Any, ...]:
            balance = extra if section == "held" else 0
            cases_due = extra if section == "due" else 0
            facts = (r["number"], d.kind.value, d.provision, d.due_on, d.who.value)
            case = (r["pound_code"], r["impounded_on"])
            return (*facts, d.counts_from, section, balance, cases_due, *case)

        def balance(case_id: int) -> int:
            return sum(s["balance_paise"] for s in self.data.settlements if s["case_id"] == case_id)

        auctions = [(r, d) for r, d in kind("auction_day") if day <= d.due_on <= until]
        return [
            *(line(r, d, "due", counted) for r, d in due[:rows]),
            *(line(r, d, "awaiting") for r, d in kind("notice_due")[:rows]),
            *(line(r, d, "auctions") for r, d in auctions),
            *(line(r, d, "held", balance(r["id"])) for r, d in kind("deposit_window_ends")),
        ]

    async def stopped_numbers(
        self, pounds: list[str], authorities: list[str]
    ) -> list[tuple[Any, ...]]:
        """(name, role, telegram id, SMS STOP at, WhatsApp STOP at) of the active users of
        ``pounds`` or ``authorities`` whose number said STOP, by role, name and id."""
        found = []
        for u in self.data.users.values():
            contact = self.data.contacts.get(u["phone"] or "")
            if not u["active"] or contact is None:
                continue
            stops = (contact["opted_out_at"], contact["whatsapp_stopped_at"])
            if stops == (None, None):
                continue
            if u["pound_code"] in pounds or u["authority_code"] in authorities:
                found.append(
                    (
                        u["role"],
                        u["name"],
                        u["id"],
                        (u["name"], u["role"], u["telegram_id"], *stops),
                    )
                )
        return [line for *_, line in sorted(found, key=lambda f: f[:3])]

    async def keeperless_pounds(self, pounds: list[str]) -> list[str]:
        """The pounds of ``pounds`` that had a keeper and have none active now, by code."""
        keepers = [u for u in self.data.users.values() if u["role"] == "keeper"]
        had = {u["pound_code"] for u in keepers if u["pound_code"] in pounds}
        active = {u["pound_code"] for u in keepers if u["active"]}
        return sorted(had - active)

    def _listed(
        self,
        pounds: list[str],
        stage: str,
        kind: str,
        since: date | None,
        until: date | None,
        words: Sequence[str] = (),
        phone: str = "",
    ) -> list[_Held]:
        """The cases of ``pounds`` the filters given match (empty: not narrowed), newest
        first."""
        self.flush()

        def names(held: _Held, word: str) -> bool:
            texts = [held.row["place_seized"], *(t for k, _, d in held.lots for t in (k, d))]
            # The owner's name too: the desk is staff's (``search_open``, the public's, not).
            texts.append(held.row["owner_name"] or "")
            return any(word.casefold() in text.lower() for text in texts)

        def keep(held: _Held) -> bool:
            row = held.row
            return (
                row["pound_code"] in pounds
                and all(names(held, word) for word in words)
                and (not phone or held.names_phone(phone))
                and (not stage or row["stage"] == stage)
                and (not kind or any(k == kind for k, _, _ in held.lots))
                and (since is None or row["impounded_on"] >= since)
                and (until is None or row["impounded_on"] <= until)
            )

        found = [held for held in self.data.cases.values() if keep(held)]
        return sorted(found, key=lambda h: (h.row["impounded_on"], h.row["id"]), reverse=True)

    async def cases_page(
        self,
        pounds: list[str],
        *,
        stage: str,
        kind: str,
        since: date | None,
        until: date | None,
        offset: int,
        page: int,
        cap: int,
        words: Sequence[str] = (),
        phone: str = "",
    ) -> list[tuple[Any, ...]]:
        """Up to ``page + 1`` cases from ``offset``, newest first, one row a lot: (id,
        number, pound, stage, impounded on, place seized, lot's kind, count, description,
        cases matching up to ``cap + 1``)."""
        found = self._listed(pounds, stage, kind, since, until, words, phone)
        counted = min(len(found), cap + 1)
        out: list[tuple[Any, ...]] = []
        for held in found[offset : offset + page + 1]:
            row = held.row
            case: tuple[Any, ...] = (row["id"], row["number"], row["pound_code"], row["stage"])
            case = (*case, row["impounded_on"], row["place_seized"])
            lots: list[tuple[Any, ...]] = list(held.lots) or [(None, None, None)]
            out.extend((*case, *lot, counted) for lot in lots)
        return out

    async def cases_counted(
        self,
        pounds: list[str],
        *,
        stage: str,
        kind: str,
        since: date | None,
        until: date | None,
        page: int,
        cap: int,
        words: Sequence[str] = (),
        phone: str = "",
    ) -> int:
        """How many cases of ``pounds`` the filters given match, up to ``cap + 1``."""
        return min(len(self._listed(pounds, stage, kind, since, until, words, phone)), cap + 1)

    async def message_counts(
        self, pounds: list[str] | None, *, since: datetime, until: datetime, now: datetime
    ) -> dict[str, int]:
        """As ``bot.store.message_reads.MessageLogReading.message_counts``."""
        from bot.store.message_reads import status_of_row

        rows = await self.message_rows(
            pounds,
            case="",
            phone="",
            channel="",
            status="",
            since=since,
            until=until,
            now=now,
            upto=len(self.data.messages),
        )
        counted: dict[str, int] = {}
        for r in rows:
            status = status_of_row(r[0], r[4], r[5], r[6], r[7], now)
            counted[status] = counted.get(status, 0) + 1
        return counted

    async def message_rows(
        self,
        pounds: list[str] | None,
        *,
        case: str,
        phone: str,
        channel: str,
        status: str,
        since: datetime | None,
        until: datetime | None,
        now: datetime,
        upto: int,
        before: LogKey | None = None,
        after: LogKey | None = None,
    ) -> list[tuple[Any, ...]]:
        """As ``bot.store.message_reads.MessageLogReading.message_rows``."""
        from bot.store.message_reads import log_key, status_of_row

        mine = {f"{p}-{n}" for p, n in self.data.cases if pounds is None or p in pounds}

        def keep(r: tuple[Any, ...]) -> bool:
            if pounds is not None and r[9] not in mine:
                return False
            return (
                (not case or r[9] == case)
                and (not phone or r[3] == phone)
                and (not channel or r[2] == channel)
                and (since is None or r[1] >= since)
                and (until is None or r[1] < until)
                and (not status or status_of_row(r[0], r[4], r[5], r[6], r[7], now) == status)
                and (before is None or log_key(r) < before)
                and (after is None or log_key(r) > after)
            )

        found = [r for r in self.data.messages if keep(r)]
        found.sort(key=log_key, reverse=after is None)
        kept = found[:upto]
        return kept if after is None else kept[::-1]

    async def case_events(self, case_id: int) -> list[tuple[CaseEvent, str | None]]:
        """The events of a case in order, each with its actor's name (or None)."""
        held = next(h for h in self.data.cases.values() if h.row["id"] == case_id)
        users = self.data.users
        return [
            (
                CaseEvent(**e),
                users[e["actor_user_id"]]["name"] if e["actor_user_id"] in users else None,
            )
            for e in held.events
        ]

    async def case_ledger(self, case_id: int) -> list[LedgerEntry]:
        """The ledger entries of a case, by day and id."""
        return [LedgerEntry(**e) for e in self._entries(lambda e: e["case_id"] == case_id)]


def _message(row: InboxRow | OutboxRow, number: int) -> tuple[Any, ...]:
    """A message as ``message_rows`` gives it."""
    if isinstance(row, InboxRow):
        status = "answered" if row.processed_at is not None else "received"
        at = (row.received_at, row.channel, row.sender, status, None, 0, None, None)
        return ("in", *at, row.case_number, row.body, row.processed_at, number, *[None] * 5)
    return (
        "out",
        row.created_at,
        row.channel,
        row.recipient,
        row.status,
        row.last_error,
        row.attempts,
        row.next_attempt_at,
        row.template,
        row.case_number,
        row.body,
        row.sent_at,
        number,
        # A message sent again is a row of the database's (the fake sends none again).
        None,
        None,
        None,
        None,
        row.purged_at,
    )


class MemoryStore:
    """Opens transactions on the cases in memory, as ``bot.store.tx.Store`` does on a
    database: ``pounds`` are the pounds there are (each numbered from 1)."""

    def __init__(
        self, pounds: Iterable[str], clock: Clock, places: Callable[[str], str] = as_typed
    ) -> None:
        self.clock = clock
        self.places = places
        self.data = _Data(last_seq=dict.fromkeys(pounds, 0))

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[MemoryCases]:
        """One transaction: kept if the block ends normally, forgotten otherwise."""
        tx = MemoryCases(copy.deepcopy(self.data), self.clock.now(), self.places)
        yield tx
        tx.flush()
        self.data = tx.data

    @asynccontextmanager
    async def reading(self) -> AsyncIterator[MemoryCases]:
        """A transaction that only reads (``bot.store.tx.Store.reading``): it is never
        kept, and given anything to write (a case, an event, money, a row handed out and
        changed, a posting) it is ``ReadOnlyError``."""
        tx = MemoryCases(copy.deepcopy(self.data), self.clock.now(), self.places)
        yield tx
        tx.flush()
        if tx.data != self.data or tx.posted:
            raise ReadOnlyError("a reading transaction was given something to write")


#: The fake is one (checked by mypy).
_MEMORY: type[UnitOfWork] = MemoryCases
