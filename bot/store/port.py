"""The ports of the store: what the use cases read and write in a transaction.

``CaseStore`` is the cases (and who may not buy at a sale, s.18, read with them);
``LedgerReads`` the ledger as the officer and the documents read it; ``DeskReads`` what
the web desk reads of the projections the store keeps (the deadlines, the lots, the
settlements, the users whose number said STOP); ``UserStore`` the users and invites the
administrator manages; ``SignInStore`` the web desk's sign-in links and sessions;
``UnitOfWork`` all of them, as one transaction (``Store.transaction`` or
``Store.reading``) offers them. ``bot.store.tx.Tx`` is the store behind them
(SQLAlchemy, SQLite or PostgreSQL); ``bot.store.memory`` is a fake of them in memory, for
tests of the use cases. tests/contract/ holds the two to the same behaviour. The use
cases of ``bot.services`` are typed against these ports alone.

Left out: ``Tx.session`` and what the use cases of ``bot.services`` do not call: the
messages and reminders, the photos, the staff a message goes to (their own modules' SQL,
``bot.store.messages``, ``bot.store.users.staff_of``, ...). The rows the ports hand out
(``LoadedCase.row``, an event's row, a ledger entry, a user, an invite) are the store's
rows: the use cases read a case's number, pound, id and owner's number from them, and set
the owner's number (``bot.services.keeper.correct_seizure``); a user and an invite are
changed through the port (``UserStore.deactivate_user``, ``UserStore.use_invite``). The
desk's rows are read by position, as ``bot.store.desk_reads`` documents them.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import date, datetime
from typing import Any, Protocol

from bot.store.models import CaseEvent, CaseRow, Invite, LedgerEntry, User, UserChange
from bot.store.tx import LoadedCase, Recorder, Tx
from bot.support.caller import Caller
from domain.accounts import Postings
from domain.case import Case
from domain.money import Money
from domain.profiles import Office, Profile
from domain.s15_sale import Settlement
from domain.s18_buyers import KnownPerson

__all__ = ["CaseStore", "DeskReads", "LedgerReads", "SignInStore", "UnitOfWork", "UserStore"]


class CaseStore(Protocol):
    """The cases as a use case sees them in one transaction."""

    #: When the transaction began.
    now: datetime
    #: The postings written in this transaction, in order (``post``).
    posted: list[Postings]

    async def next_case_seq(self, pound: str) -> int:
        """The next number of ``pound`` (no gaps); an unknown pound is ``BadInputError``."""
        ...

    async def add_case(
        self, case: Case, seq: int, actor: Caller, owner_phone: str | None
    ) -> CaseRow:
        """Store a newly opened case and its first event."""
        ...

    async def load_case(self, number: str, *, for_update: bool = False) -> LoadedCase:
        """The case with this number (``knm 17``); none is ``UnknownCaseError``."""
        ...

    async def set_lot_phones(self, loaded: LoadedCase, phones: Sequence[str | None]) -> None:
        """The numbers of the owners of the case's lots, by each lot's place in its record
        as it is now (None: the lot names no owner of its own with a number)."""
        ...

    async def lot_phones(self, loaded: LoadedCase) -> tuple[str | None, ...]:
        """The number of the owner of each lot of the case, by its place (None: none of
        its own)."""
        ...

    async def recorded_by(self, loaded: LoadedCase) -> Recorder:
        """Who recorded the seizure of a case (the actor of its first event)."""
        ...

    async def append_events(
        self, loaded: LoadedCase, after: Case, actor: Caller, *, from_seq: int | None = None
    ) -> list[CaseEvent]:
        """Append the events ``after`` has beyond ``loaded``; a step taken first elsewhere
        is ``CaseChangedError``, nothing written."""
        ...

    async def open_cases_naming(self, phone: str, limit: int) -> tuple[list[str], int]:
        """The newest ``limit`` open cases' numbers whose owner is ``phone``, and their count."""
        ...

    async def open_cases(self, pound: str) -> list[LoadedCase]:
        """Open cases of a pound, oldest first."""
        ...

    async def cases_in_stage(
        self, pounds: Sequence[str], stages: Sequence[str]
    ) -> list[LoadedCase]:
        """Cases of ``pounds`` in ``stages``, by pound and number."""
        ...

    async def cases_impounded(
        self, pounds: Sequence[str], start: date, end: date
    ) -> list[LoadedCase]:
        """Cases of ``pounds`` impounded from ``start`` up to ``end``, by pound and number."""
        ...

    async def search_open(
        self,
        words: Sequence[str | Sequence[str]],
        limit: int = 5,
        *,
        stages: Sequence[str] | None = None,
    ) -> list[LoadedCase]:
        """Open cases (or those in ``stages``) whose kind, description or place match."""
        ...

    async def last_event_row(self, loaded: LoadedCase) -> CaseEvent:
        """The newest audit-log row of a case."""
        ...

    async def record_sale_lot(self, loaded: LoadedCase, after: Case) -> None:
        """Project the newest sale event of ``after`` into the sold lots."""
        ...

    async def record_settlement(
        self, loaded: LoadedCase, event_row: CaseEvent, settlement: Settlement, on: date
    ) -> None:
        """The settled money of a sale."""
        ...

    async def deposit_amount(self, loaded: LoadedCase) -> Money:
        """What was deposited under s.14 for a case."""
        ...

    async def record_payment(
        self, loaded: LoadedCase, event_row: CaseEvent, kind: str, amount: Money, on: date
    ) -> None:
        """A payment (s.12) or deposit (s.14) taken at the pound."""
        ...

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
        ...

    async def offices_held(self, authority: str) -> frozenset[Office]:
        """The offices some active officer of ``authority`` holds (``bot.support.offices``:
        one who holds none declared stands for the local authority)."""
        ...

    async def registered_keepers_and_officers(self) -> list[KnownPerson]:
        """s.18: every active registered keeper and officer with a name, of any pound or
        authority, with their role as barred and their phone number."""
        ...


class CaseActs(Protocol):
    """The Act of each case of a list of rows (a reminder's, the desk's Today, the
    ledger's), as the case keeps it."""

    async def case_acts(self, numbers: Collection[str]) -> dict[str, Profile]:
        """The Act each case of ``numbers`` that exists is under, as in force on its
        impounding day (``Case.profile``, kept by its intake), by number."""
        ...


class LedgerReads(CaseActs, Protocol):
    """The ledger's entries (written by ``CaseStore.post``) as they are read back."""

    async def ledger_of(self, authority: str) -> list[LedgerEntry]:
        """The ledger entries of ``authority``, by day and id."""
        ...

    async def ledger_rows(
        self,
        *,
        authority: str | None = None,
        pounds: Sequence[str] | None = None,
        start: date | None = None,
        end: date | None = None,
    ) -> list[tuple[Any, ...]]:
        """(on, authority, case number, account, amount in paise, provision) of the
        entries, by day and id: of one authority, of the cases of some pounds, from
        ``start`` up to (not including) ``end``, as each is given."""
        ...


class DeskReads(CaseActs, Protocol):
    """What the web desk reads (``bot.services.desk``): rows by position, as
    ``bot.store.desk_reads`` gives them."""

    async def today_rows(
        self, pounds: list[str], day: date, until: date, *, rows: int, due_cap: int
    ) -> Sequence[Sequence[Any]]:
        """The open deadlines of Today's sections, unordered: (case number, kind,
        provision, due on, who, counts from, section, balance, cases due, pound, the
        case's impounding day)."""
        ...

    async def stopped_numbers(
        self, pounds: list[str], authorities: list[str]
    ) -> Sequence[Sequence[Any]]:
        """(name, role, telegram id, SMS STOP at, WhatsApp STOP at) of the active users of
        ``pounds`` or ``authorities`` whose number said STOP, by role, name and id."""
        ...

    async def keeperless_pounds(self, pounds: list[str]) -> list[str]:
        """The pounds of ``pounds`` that had a keeper and have none active now (their
        keepers all disabled), by code."""
        ...

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
    ) -> Sequence[Sequence[Any]]:
        """Up to ``page + 1`` cases from ``offset``, newest first, one row a lot: (id,
        number, pound, stage, impounded on, place seized, lot's kind, count, description,
        cases matching up to ``cap + 1``); each of ``words`` found in the place or a lot's
        kind or description (in any case), ``phone`` the owner's."""
        ...

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
        ...

    async def case_events(self, case_id: int) -> list[tuple[CaseEvent, str | None]]:
        """The events of a case in order, each with its actor's name (or None)."""
        ...

    async def case_ledger(self, case_id: int) -> list[LedgerEntry]:
        """The ledger entries of a case, by day and id."""
        ...


class UserStore(Protocol):
    """The users (keepers, officers, admins) and the invites to become one."""

    #: When the transaction began.
    now: datetime

    async def is_registered(
        self, *, phone: str | None = None, telegram_id: int | None = None
    ) -> bool:
        """Whether a user, active or not, has this phone number (or this Telegram id)."""
        ...

    async def user_by_id(self, user_id: int) -> User | None:
        """The user ``user_id``, active or not."""
        ...

    async def user_by_phone(self, phone: str) -> User | None:
        """The active user with this phone number."""
        ...

    async def user_by_telegram(self, telegram_id: int) -> User | None:
        """The active user with this Telegram id."""
        ...

    async def active_users(self) -> list[User]:
        """All active users, by id."""
        ...

    async def add_user(self, row: User) -> None:
        """Write a new user; it has its id from then on."""
        ...

    async def deactivate_user(self, row: User, *, keep_phone: bool = False) -> None:
        """Deactivate a user (kept for the audit log), their Telegram id freed, and their
        phone number too unless ``keep_phone``."""
        ...

    async def set_offices(self, row: User, offices: str) -> None:
        """Declare the offices ``row`` holds, as they are stored
        (``bot.support.offices.offices_text``)."""
        ...

    async def update_user(self, row: User, **values: object) -> None:
        """Write ``values`` (columns of ``users``: name, phone, lang, pound_code,
        authority_code, telegram_id, active) to ``row``."""
        ...

    async def end_sessions_of(self, user_id: int) -> int:
        """End now every web session of user ``user_id`` not ended yet; how many."""
        ...

    async def expire_invites_for(self, user_id: int) -> None:
        """Expire now the unused invites for user ``user_id`` (``Invite.for_user``)."""
        ...

    async def add_user_change(self, change: UserChange) -> None:
        """Write a change to a user."""
        ...

    async def user_changes(
        self, *, user_id: int | None = None, authority: str | None = None
    ) -> list[UserChange]:
        """The changes to user ``user_id`` (None: to every user), or to the users of
        ``authority`` (a move out of it too), oldest first."""
        ...

    async def add_invite(self, invite: Invite) -> None:
        """Write a new invite."""
        ...

    async def invite_to_use(self, code: str) -> Invite | None:
        """The invite ``code`` (used, expired or not), locked until the transaction ends."""
        ...

    async def use_invite(self, invite: Invite, user_id: int) -> None:
        """Mark ``invite`` used now, by user ``user_id``."""
        ...


class SignInStore(Protocol):
    """The web desk's sign-in links and sessions, each found by its token's hash, at the
    transaction's ``now``."""

    async def add_link(self, token_hash: str, user_id: int, expires_at: datetime) -> None:
        """Write a sign-in link of user ``user_id``."""
        ...

    async def redeem_link(self, token_hash: str) -> int | None:
        """Use a sign-in link: its user's id, the link used from now on; None if it is
        unknown, used already or expired."""
        ...

    async def add_session(self, token_hash: str, user_id: int, expires_at: datetime) -> None:
        """Write a session of user ``user_id``."""
        ...

    async def session_user(self, token_hash: str) -> Any:
        """The active user of a live session (not ended, not expired), or None: their id,
        role, pound_code, authority_code, phone, telegram_id, name and lang, by name."""
        ...

    async def end_session(self, token_hash: str) -> None:
        """End a session, if not ended already: it opens nothing from now on."""
        ...


class UnitOfWork(CaseStore, LedgerReads, DeskReads, UserStore, SignInStore, Protocol):
    """One transaction as the use cases see it: the cases, the ledger, the desk's reads,
    the users and invites, the sign-in links and sessions."""


#: The database's unit of work is one (checked by mypy).
_TX: type[UnitOfWork] = Tx
