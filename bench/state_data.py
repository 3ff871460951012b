"""A state's history, generated: N authorities, their pounds, five years of cases on
every route of the Act, with the messages in and out, the reminder jobs and the ledger.

Not a benchmark itself (``bench/state.py`` measures on what this builds; ``make bench``
leaves both out, ``make bench-state`` runs them). The rows are the application's own:

1. **Templates.** Each route (``ROUTES``: released on payment, on deposit, reported and
   paid, auctioned with the surplus to the fund or claimed, disposed of under the s.13(3)
   proviso, refused by the owner and sold under s.15) is run once, by real SMS through
   poundbot's inbound path (``bot.channels.sms.inbound.take``: stored, acted on,
   answered, the owner and the officers told), on a scratch SQLite database of its own,
   its reminder pass run each morning and its outbox delivered to a fake provider. The
   rows of the case's tables are kept as they stand at the end of each day something
   happened (a *snapshot*).
2. **Copies.** A case of the state is a copy of the snapshot of its route at its age
   (the day it was impounded to "today"): every id renumbered, every date shifted by the
   days between, the case number, the pound, the authority, the telephone numbers and
   the providers' message ids replaced in every column (JSON included), so that the
   desk, the ledger, the exports and the reminders read them as they read their own.
   A rate is the same on every day (``state_config``), so that the money of a copy is
   the money of its day.
3. **Loading.** Bulk: PostgreSQL's COPY (asyncpg's ``copy_records_to_table``), or
   multi-row INSERTs on SQLite; then the pounds' case counters and the sequences set.

Deterministic: the same sizes and seed give the same cases, so the database of one
authority alone (``only=``) holds exactly that authority's rows of the state's.
"""

from __future__ import annotations

import itertools
import json
import random
import re
import shutil
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from types import MappingProxyType
from typing import Any

from sqlalchemy import Table, select, text
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.adapters.outbox import deliver_once
from bot.bootstrap import open_app
from bot.channels.sms.inbound import take
from bot.config import Config, load_config, sample_config_path
from bot.reminders.dispatch import remind_once
from bot.services.admin import add_user
from bot.store.messages import Inbound
from bot.store.models import Base
from bot.store.reminder_jobs import pass_has_work
from bot.support.caller import Caller
from bot.support.clock import FixedClock
from domain.calendar import LOCAL_TZ
from domain.tariff import DatedRate, RateTable, Tariff

__all__ = [
    "ROUTES",
    "Plan",
    "Templates",
    "generate",
    "plan",
    "record_templates",
    "state_config",
]

#: The template's authority, pound, people and first day (a Monday).
T_AUTHORITY, T_POUND = "KNM-GP", "KNM"
T_CASE = "KNM-1"
T_KEEPER, T_OFFICER, T_OWNER = "+919847000010", "+919847000020", "+919847012345"
T_START = date(2026, 3, 2)
#: The place of seizure in the templates: each copy puts one of its authority's places
#: there (``place_name``), so that a search by a place finds that authority's cases.
T_PLACE = "Chembakappara"
#: Rates from before any case of the five years.
RATES_FROM = date(2015, 1, 1)
TO = "+14155550100"
ACCOUNT = "AC" + "0" * 32

#: The case's tables, copied per case, in the order they are loaded (parents first).
CASE_TABLES = (
    "cases",
    "case_lots",
    "case_events",
    "payments",
    "sale_lots",
    "settlements",
    "ledger_entries",
    "deadlines",
    "reminder_jobs",
    "inbox",
    "outbox",
    "contacts",
)
#: Integer ids renumbered per table, and the columns that refer to them.
ID_TABLES = tuple(t for t in CASE_TABLES if t != "contacts")
REFS = {
    "case_id": "cases",
    "event_id": "case_events",
    "deadline_id": "deadlines",
    "resend_of": "outbox",
}
USER_REFS = ("actor_user_id", "added_by", "resent_by", "by_user_id")
#: Columns whose values are unique across the table: a copy that would repeat one (the
#: morning round of a place and day, shared by the cases of that day) is left out.
UNIQUE = {
    "reminder_jobs": "key",
    "outbox": "idempotency_key",
    "contacts": "phone",
}

Line = tuple[int, str, str]  # (day from impounding, who: K keeper, O officer, W owner, text)


def _seize(heads: str) -> str:
    return f"SEIZE {heads} AT {T_PLACE} OWNER Ravi {T_OWNER.removeprefix('+91')}"


_AUCTION = "AUCTION KNM-1 ON {d:%d-%m-%Y} AT Kunnamangalam market"
_SOLD = "SOLD KNM-1 {lot} {heads} {price} TO Mammu, Pathimangalam DECLARED"

#: Each route: its share of the cases (per thousand) and its lines. Days are counted
#: from the impounding (day 0); the s.13(1) report is lawful from day 7, the s.13(3)
#: sale from the fifteenth day after the notice; the s.16(3) deposit runs three months.
ROUTES: Mapping[str, tuple[int, tuple[Line, ...]]] = MappingProxyType(
    {
        # s.12: released on payment; the owner asked first.
        "paid": (
            520,
            (
                (0, "K", _seize("2 cow")),
                (1, "W", "DUES KNM-1"),
                (2, "K", "PAID KNM-1"),
            ),
        ),
        # s.14: delivered on deposit.
        "deposit": (
            60,
            (
                (0, "K", _seize("1 buffalo")),
                (1, "W", "DEPOSIT KNM-1"),
                (1, "K", "DEPOSITED KNM-1"),
            ),
        ),
        # s.13(1), s.13(2): reported unclaimed, the notice proclaimed; then paid (s.12).
        "reported_paid": (
            140,
            (
                (0, "K", _seize("1 cow 1 goat")),
                (3, "W", "DUES KNM-1"),
                (8, "K", "REPORT KNM-1"),
                (8, "O", "NOTICE KNM-1 AT Kunnamangalam, Kunnamangalam market"),
                (11, "W", "STATUS KNM-1"),
                (12, "K", "PAID KNM-1"),
            ),
        ),
        # s.13(3), s.15(2), s.16(3), s.17(1): sold at auction, settled, the surplus held
        # three months and credited to the fund.
        "auction_fund": (
            120,
            (
                (0, "K", _seize("1 cow 1 goat")),
                (8, "K", "REPORT KNM-1"),
                (8, "O", "NOTICE KNM-1 AT Kunnamangalam, Kunnamangalam market"),
                (21, "O", _AUCTION.format(d=T_START + timedelta(days=25))),
                (25, "O", _SOLD.format(lot=1, heads=1, price=16000)),
                (25, "O", _SOLD.format(lot=2, heads=1, price=2800)),
                (25, "O", "SETTLE KNM-1 500"),
                (125, "O", "FUND KNM-1"),
            ),
        ),
        # s.16(3): the surplus claimed by the owner within the three months.
        "auction_claimed": (
            50,
            (
                (0, "K", _seize("1 buffalo")),
                (8, "K", "REPORT KNM-1"),
                (8, "O", "NOTICE KNM-1 AT Kunnamangalam, Kunnamangalam market"),
                (21, "O", _AUCTION.format(d=T_START + timedelta(days=25))),
                (25, "O", _SOLD.format(lot=1, heads=1, price=18000)),
                (25, "O", "SETTLE KNM-1 500"),
                (40, "W", "DUES KNM-1"),
                (45, "O", "CLAIMED KNM-1 Ravi"),
                (52, "O", "CLAIM KNM-1 BY Ravi REF TS-7/2026"),
            ),
        ),
        # s.13(3) proviso: unsold, disposed of by the Director's order.
        "proviso": (
            40,
            (
                (0, "K", _seize("1 cow")),
                (8, "K", "REPORT KNM-1"),
                (8, "O", "NOTICE KNM-1 AT Kunnamangalam, Kunnamangalam market"),
                (21, "O", _AUCTION.format(d=T_START + timedelta(days=25))),
                (25, "O", "UNSOLD KNM-1 1 1"),
                (26, "O", "DISPOSE KNM-1 1 1 1500 BY Director REF DO-4/2026 HOW goshala"),
                (26, "O", "SETTLE KNM-1 0"),
            ),
        ),
        # s.15: the owner refuses to pay; one cow sold, the other and the balance back.
        "refused": (
            70,
            (
                (0, "K", _seize("2 cow")),
                (1, "K", "REFUSED KNM-1"),
                (1, "O", _AUCTION.format(d=T_START + timedelta(days=5))),
                (5, "O", _SOLD.format(lot=1, heads=1, price=16000)),
                (5, "O", "SETTLE KNM-1 500"),
                (6, "O", "RECEIPT KNM-1 BY Ravi"),
            ),
        ),
    }
)


def _flat(table: RateTable) -> RateTable:
    first = table.rows[0]
    return RateTable((DatedRate(RATES_FROM, first.amount, first.source),))


#: Places of seizure an authority has (``place_name``).
PLACES = 5
_STEMS = (
    "Kunnu", "Vella", "Cheru", "Puthu", "Kotta", "Mana", "Thiru", "Kadu", "Nila", "Pala",
    "Ambala", "Kulathu", "Eda", "Karim", "Mel", "Kizhak", "Padinjar", "Vadak", "Then", "Kaya",
)  # fmt: skip
_ENDS = (
    "ppara", "kkara", "mpuzha", "ppally", "kkadu", "mkulam", "nthura", "kkunnu", "mmala",
    "ppadam", "kkal", "vayal", "nchery", "kkode", "mthottam", "ttil", "ppuram", "vila",
    "nkara", "kkavu",
)  # fmt: skip
_SPOTS = (
    "junction", "temple road", "school road", "market", "bridge", "ferry", "colony", "field",
    "paddy", "canal", "hill", "church road", "mosque road", "bus stop", "ground", "beach",
)  # fmt: skip


def place_name(authority: int, k: int) -> str:
    """The ``k``-th place of seizure of the ``authority``-th authority: a village's name and
    a spot in it (``Kunnuppara junction``), the 6,400 first different; one village's name
    recurs in sixteen authorities, each with a spot of its own."""
    i = authority * PLACES + k
    n = len(_STEMS) * len(_ENDS)
    village = _STEMS[i % len(_STEMS)] + _ENDS[(i // len(_STEMS)) % len(_ENDS)]
    return f"{village} {_SPOTS[(i // n) % len(_SPOTS)]}"


def authority_code(i: int) -> str:
    """The ``i``-th authority's code (``G0001-GP``)."""
    return f"G{i:04d}-GP"


def pound_code(i: int) -> str:
    """The ``i``-th pound's code: four letters (``PAAA``, ``PAAB``, ...)."""
    letters = ""
    for _ in range(3):
        i, r = divmod(i, 26)
        letters = chr(65 + r) + letters
    return "P" + letters


def pounds_of(authorities: int, pounds: int) -> list[list[str]]:
    """The pound codes of each authority: one each, the rest one more each from the first."""
    out = [[pound_code(i)] for i in range(authorities)]
    for j in range(authorities, pounds):
        out[j % authorities].append(pound_code(j))
    return out


def state_config(authorities: int, pounds: int, base: Config | None = None) -> Config:
    """The sample configuration with ``authorities`` copies of its first authority and
    ``pounds`` of its first pound (and the template's own), every rate in force from
    ``RATES_FROM`` at its first amount (so that a case's money does not depend on its day)."""
    base = base or load_config(sample_config_path())
    proto_a, proto_p = base.authorities[T_AUTHORITY], base.pounds[T_POUND]
    tariff = base.tariffs[T_POUND]
    flat = Tariff(
        fines={k: _flat(v) for k, v in tariff.fines.items()},
        feeding={k: _flat(v) for k, v in tariff.feeding.items()},
        feeding_days=tariff.feeding_days,
        sale_expense_note=tariff.sale_expense_note,
    )
    all_authorities = {T_AUTHORITY: proto_a}
    all_pounds = {T_POUND: proto_p}
    for i, codes in enumerate(pounds_of(authorities, pounds)):
        code = authority_code(i)
        all_authorities[code] = proto_a._replace(code=code, name=f"Grama Panchayat {i}")
        for p in codes:
            all_pounds[p] = proto_p._replace(
                code=p, authority=code, name=f"Cattle pound {p}", tariff=T_AUTHORITY
            )
    return base._replace(
        authorities=MappingProxyType(all_authorities),
        pounds=MappingProxyType(all_pounds),
        tariffs=MappingProxyType(dict.fromkeys(all_pounds, flat)),
        limits=base.limits._replace(
            answers_per_hour=10**9, answers_per_day=10**9, answers_per_number_per_day=10**9
        ),
    )


# -- templates ----------------------------------------------------------------------------


class _Provider:
    """A provider that takes every message at once."""

    def __init__(self) -> None:
        self.sent = itertools.count(1)

    async def send(self, recipient: str, body: str, key: str) -> str:
        return f"FK{next(self.sent):08d}"


Rows = dict[str, list[dict[str, Any]]]


@dataclass
class Template:
    """A route run once: the rows of its case at the end of each day something happened,
    by day from the impounding."""

    route: str
    snapshots: list[tuple[int, Rows]] = field(default_factory=list)

    def at(self, age: int) -> Rows:
        """The rows as they stood ``age`` days after the impounding."""
        found = self.snapshots[0][1]
        for day, rows in self.snapshots:
            if day > age:
                break
            found = rows
        return found


Templates = dict[str, Template]


async def _rows(engine: AsyncEngine) -> Rows:
    tables = Base.metadata.tables
    out: Rows = {}
    async with engine.connect() as conn:
        for name in CASE_TABLES:
            table = tables[name]
            order = table.c.id if "id" in table.c else table.c.phone
            found = await conn.execute(select(table).order_by(order))
            out[name] = [dict(row._mapping) for row in found]
    return out


async def _record(route: str, lines: Sequence[Line], config: Config, folder: Path) -> Template:
    clock = FixedClock(datetime.combine(T_START, datetime.min.time(), LOCAL_TZ).replace(hour=7))
    url = f"sqlite+aiosqlite:///{folder / f'{route}.sqlite3'}"
    template = Template(route)
    phones = {"K": T_KEEPER, "O": T_OFFICER, "W": T_OWNER}
    provider = _Provider()
    senders = {"sms": provider, "telegram": provider, "whatsapp": provider}
    sids = itertools.count(1)
    async with open_app(url=url, clock=clock, config=config, migrate=True) as app:
        async with app.store.transaction() as tx:
            system = Caller.system()
            await add_user(
                tx, app.deps, system, role="keeper", pound=T_POUND, phone=T_KEEPER, lang="en"
            )
            await add_user(
                tx,
                app.deps,
                system,
                role="officer",
                authority=T_AUTHORITY,
                phone=T_OFFICER,
                lang="en",
            )

        async def deliver() -> None:
            while await deliver_once(app.store, senders, "template", limit=200, gate=app.gate):
                pass

        last = max(day for day, _, _ in lines)
        for day in range(last + 1):
            on = T_START + timedelta(days=day)
            clock.set(datetime(on.year, on.month, on.day, 8, 0, tzinfo=LOCAL_TZ))
            async with app.store.transaction() as tx:
                work = await pass_has_work(tx)
            messages = 0
            if work:
                done = await remind_once(app.store, app.config, "template", breather=0)
                messages = done.messages
                await deliver()
            todays = [(who, body) for d, who, body in lines if d == day]
            for n, (who, body) in enumerate(todays):
                clock.set(datetime(on.year, on.month, on.day, 10, 5 * n, tzinfo=LOCAL_TZ))
                sid = f"SM{next(sids):032x}"
                raw = {
                    "MessageSid": sid,
                    "SmsMessageSid": sid,
                    "AccountSid": ACCOUNT,
                    "From": phones[who],
                    "To": TO,
                    "Body": body,
                    "NumMedia": "0",
                }
                await take(None, app, Inbound("sms", sid, phones[who], body, raw))  # type: ignore[arg-type]
                await deliver()
            if todays or messages or not template.snapshots:
                template.snapshots.append((day, await _rows(app.engine)))
    return template


async def record_templates(config: Config) -> Templates:
    """Each route of ``ROUTES`` run once on a scratch database of its own."""
    folder = Path(tempfile.mkdtemp(prefix="poundbot-state-"))
    try:
        return {
            route: await _record(route, lines, config, folder)
            for route, (_, lines) in ROUTES.items()
        }
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def check_templates(templates: Templates) -> None:
    """Each route reached what it is for: refused no step (every SMS answered without a
    refusal is not knowable here; its last stage is)."""
    for route, template in templates.items():
        rows = template.snapshots[-1][1]
        if len(rows["cases"]) != 1:
            raise SystemExit(f"route {route}: {len(rows['cases'])} cases recorded")


# -- copies ---------------------------------------------------------------------------------

_ISO = r"\d{4}-\d{2}-\d{2}"
_TOKENS = re.compile(
    r"(?P<auth>\bKNM-GP\b)|(?P<case>\bKNM-1\b)|(?P<pound>\bKNM\b)"
    r"|(?P<phone>\+?(?:91)?98470(?:00010|00020|12345)\b)"
    r"|(?P<sid>\bSM[0-9a-f]{32}\b)|(?P<fk>\bFK\d{8}\b)"
    rf"|(?P<place>{T_PLACE})|(?P<lplace>{T_PLACE.casefold()})"
    rf"|(?P<date>(?<!\d){_ISO}(?!\d))"
)
_KEY_IDS = re.compile(r"(?P<deadline>(?<=\bd)\d+(?=:))|(?P<user>(?<=:u)\d+\b)")


class _Text:
    """A string of a template: its literal parts and the tokens to replace in a copy."""

    __slots__ = ("parts",)

    def __init__(self, value: str, key: bool) -> None:
        parts: list[Any] = []
        pos = 0
        for m in _TOKENS.finditer(value):
            parts.append(value[pos : m.start()])
            kind = m.lastgroup
            token = m.group()
            if kind == "phone":
                token = "+91" + token[-10:]
                parts.append(("phone_plus" if m.group().startswith("+") else "phone", token))
            elif kind == "date":
                parts.append(("date", date.fromisoformat(token)))
            else:
                parts.append((kind, token))
            pos = m.end()
        parts.append(value[pos:])
        if key:  # the ids of deadlines and users in a key
            expanded: list[Any] = []
            for part in parts:
                if not isinstance(part, str):
                    expanded.append(part)
                    continue
                p = 0
                for m in _KEY_IDS.finditer(part):
                    expanded.append(part[p : m.start()])
                    expanded.append((m.lastgroup, int(m.group())))
                    p = m.end()
                expanded.append(part[p:])
            parts = expanded
        self.parts = tuple(x for x in parts if x != "")

    def render(self, c: _Copy) -> str:
        out = []
        for part in self.parts:
            if isinstance(part, str):
                out.append(part)
                continue
            kind, token = part
            if kind == "date":
                out.append(c.shift_iso(token))
            elif kind == "case":
                out.append(c.number)
            elif kind == "pound":
                out.append(c.pound)
            elif kind == "place":
                out.append(c.place)
            elif kind == "lplace":
                out.append(c.place.casefold())
            elif kind == "auth":
                out.append(c.authority)
            elif kind in ("phone", "phone_plus"):
                phone = c.phones[token]
                out.append(phone if kind == "phone_plus" else phone[3:])
            elif kind == "sid":
                out.append(f"SM{c.serial:020x}{int(token[2:], 16):012x}")
            elif kind == "fk":
                out.append(f"FK{c.serial}-{token[2:]}")
            elif kind == "deadline":
                out.append(str(c.ids["deadlines"][token]))
            elif kind == "user":
                out.append(str(c.users.get(token, token)))
        return "".join(out)


class _Json:
    """A JSON value of a template, its strings as ``_Text``; rendered to JSON text."""

    __slots__ = ("text",)

    def __init__(self, value: Any) -> None:
        self.text = _Text(json.dumps(value, ensure_ascii=False, separators=(",", ":")), False)


@dataclass
class _Copy:
    """What one copy of a template changes."""

    serial: int
    number: str
    pound: str
    authority: str
    place: str
    delta: timedelta
    phones: Mapping[str, str]
    users: Mapping[int, int]
    ids: dict[str, dict[int, int]]
    seq: int

    def shift_iso(self, day: date) -> str:
        return (day + self.delta).isoformat()


def _compile(rows: Rows) -> dict[str, list[dict[str, Any]]]:
    """The rows with every string made a ``_Text`` and every JSON value a ``_Json``."""
    tables = Base.metadata.tables
    out: dict[str, list[dict[str, Any]]] = {}
    for name, found in rows.items():
        json_cols = {c.name for c in tables[name].c if c.type.__class__.__name__ == "JSON"}
        keys = {"key", "batch", "idempotency_key"}
        compiled = []
        for row in found:
            new: dict[str, Any] = {}
            for col, value in row.items():
                if col in json_cols and value is not None:
                    new[col] = _Json(value)
                elif isinstance(value, str):
                    t = _Text(value, col in keys)
                    new[col] = t if len(t.parts) != 1 or not isinstance(t.parts[0], str) else value
                else:
                    new[col] = value
            compiled.append(new)
        out[name] = compiled
    return out


class Counters:
    """The next id of each table, and the unique values already written."""

    def __init__(self) -> None:
        self.next = dict.fromkeys(ID_TABLES, 1)
        self.seen: dict[str, set[str]] = {t: set() for t in UNIQUE}


def copy_case(
    compiled: dict[str, list[dict[str, Any]]], c: _Copy, counters: Counters
) -> dict[str, list[dict[str, Any]]]:
    """The rows of one case: ``compiled`` renumbered, shifted and renamed as ``c`` says."""
    for name in ID_TABLES:
        ids = c.ids.setdefault(name, {})
        for row in compiled[name]:
            ids[row["id"]] = counters.next[name]
            counters.next[name] += 1
    out: dict[str, list[dict[str, Any]]] = {}
    for name in CASE_TABLES:
        rows = []
        unique = UNIQUE.get(name)
        for row in compiled[name]:
            new: dict[str, Any] = {}
            for col, value in row.items():
                if value is None or (isinstance(value, bool | int) and col not in ("id", "seq")):
                    if col in REFS and value is not None:
                        value = c.ids[REFS[col]].get(value)
                    elif col in USER_REFS and value is not None:
                        value = c.users.get(value, value)
                    new[col] = value
                elif col == "id":
                    new[col] = c.ids[name][value]
                elif col == "seq" and name == "cases":
                    new[col] = c.seq
                elif isinstance(value, _Text):
                    new[col] = value.render(c)
                elif isinstance(value, _Json):
                    new[col] = value.text.render(c)
                elif isinstance(value, datetime | date):
                    new[col] = value + c.delta
                else:
                    new[col] = value
            if unique is not None:
                seen = counters.seen[name]
                if new[unique] in seen:
                    continue
                seen.add(new[unique])
            rows.append(new)
        out[name] = rows
    return out


# -- the plan -----------------------------------------------------------------------------


@dataclass(frozen=True)
class PlannedCase:
    authority: int
    pound: str
    seq: int
    route: str
    impounded_on: date
    serial: int


@dataclass(frozen=True)
class Plan:
    """Who is where, and every case of the five years, oldest first."""

    authorities: int
    pounds: list[list[str]]
    cases: list[PlannedCase]
    today: date

    def of(self, authority: int) -> list[PlannedCase]:
        return [c for c in self.cases if c.authority == authority]


def plan(
    authorities: int,
    pounds: int,
    cases: int,
    today: date,
    *,
    years: int = 5,
    busiest: float = 10.0,
    seed: int = 43,
) -> Plan:
    """``cases`` cases over the ``years`` before ``today``: the first authority has
    ``busiest`` times the average, the others from half to one and a half times it; each
    case on a route drawn by ``ROUTES``' shares, in one of its authority's pounds."""
    rng = random.Random(seed)
    weights = [busiest] + [rng.uniform(0.5, 1.5) for _ in range(authorities - 1)]
    scale = cases / sum(weights)
    counts = [round(w * scale) for w in weights]
    routes = list(ROUTES)
    shares = [ROUTES[r][0] for r in routes]
    by_pound = pounds_of(authorities, pounds)
    first = today - timedelta(days=round(365.25 * years))
    span = (today - first).days
    drawn: list[tuple[date, int, str, str]] = []
    for a, n in enumerate(counts):
        arng = random.Random(seed * 100_003 + a)
        for _ in range(n):
            day = first + timedelta(days=arng.randrange(span + 1))
            pound = arng.choice(by_pound[a])
            route = arng.choices(routes, shares)[0]
            drawn.append((day, a, pound, route))
    drawn.sort()
    seqs: dict[str, int] = {}
    out = []
    for serial, (day, a, pound, route) in enumerate(drawn, start=1):
        seqs[pound] = seqs.get(pound, 0) + 1
        out.append(PlannedCase(a, pound, seqs[pound], route, day, serial))
    return Plan(authorities, by_pound, out, today)


# -- loading ------------------------------------------------------------------------------


def staff_phone(kind: int, i: int) -> str:
    """A keeper's (``kind`` 1) or an officer's (2) telephone number."""
    return f"+9197{kind}{i:07d}"


def owner_phone(serial: int) -> str:
    return f"+9198{serial:08d}"


def _users(
    p: Plan, only: int | None, now: datetime
) -> tuple[list[dict[str, Any]], dict[str, int], dict[int, int]]:
    """The keepers (one a pound) and officers (one an authority), their ids by pound and
    by authority (the officer's id at ``-1 - authority``)."""
    rows: list[dict[str, Any]] = []
    keepers: dict[str, int] = {}
    officers: dict[int, int] = {}
    n = 0
    for a, codes in enumerate(p.pounds):
        if only is not None and a != only:
            continue
        n += 1
        rows.append(
            {
                "id": n,
                "role": "officer",
                "pound_code": None,
                "authority_code": authority_code(a),
                "phone": staff_phone(2, a),
                "name": f"Officer {a}",
                "lang": "en",
                "offices": "",
                "active": True,
                "created_at": now,
            }
        )
        officers[a] = n
        for code in codes:
            n += 1
            rows.append(
                {
                    "id": n,
                    "role": "keeper",
                    "pound_code": code,
                    "authority_code": None,
                    "phone": staff_phone(1, int(code.encode().hex(), 16) % 10_000_000),
                    "name": f"Keeper {code}",
                    "lang": "en",
                    "offices": "",
                    "active": True,
                    "created_at": now,
                }
            )
            keepers[code] = n
    return rows, keepers, officers


class _Writer:
    """Rows into a database in bulk: COPY on PostgreSQL, multi-row INSERTs on SQLite."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self.pg = engine.dialect.name == "postgresql"
        self.tables = Base.metadata.tables
        self.written: dict[str, int] = {}

    async def write(self, name: str, rows: list[dict[str, Any]]) -> None:
        if not rows:
            return
        self.written[name] = self.written.get(name, 0) + len(rows)
        table: Table = self.tables[name]
        json_cols = [c.name for c in table.c if c.type.__class__.__name__ == "JSON"]
        if self.pg:
            columns = [c.name for c in table.c]
            async with self.engine.connect() as conn:
                raw = await conn.get_raw_connection()
                driver = raw.driver_connection
                assert driver is not None
                records = [tuple(_pg(r.get(c), c in json_cols) for c in columns) for r in rows]
                await driver.copy_records_to_table(name, records=records, columns=columns)
                await conn.commit()
        else:
            if json_cols:
                for r in rows:
                    for c in json_cols:
                        if isinstance(r.get(c), str):
                            r[c] = json.loads(r[c])
            async with self.engine.begin() as conn:
                for i in range(0, len(rows), 2000):
                    await conn.execute(table.insert(), rows[i : i + 2000])


def _pg(value: Any, is_json: bool) -> Any:
    if isinstance(value, datetime) and value.tzinfo is None:
        return value.replace(tzinfo=UTC)
    if is_json and value is not None and not isinstance(value, str):
        return json.dumps(value)
    return value


def _fired_rounds(jobs: list[dict[str, Any]], today: date) -> None:
    """The morning rounds of ``jobs`` before ``today`` as the morning's pass left them,
    done. A template stops on its last day with work: the round of the next morning is
    still pending there (its items cancelled as the case closed), where a running
    deployment fired it, empty, that morning; left pending, the measured pass would fire
    five years of them."""
    for job in jobs:
        if job["kind"] == "round" and job["status"] == "pending" and job["day"] < today:
            job.update(status="done", attempts=1, claimed_by="template", done_at=job["fire_at"])


async def generate(
    engine: AsyncEngine,
    p: Plan,
    templates: Templates,
    *,
    only: int | None = None,
    progress: Callable[[str], None] | None = None,
    chunk: int = 5_000,
) -> dict[str, int]:
    """Write the users and every case of ``p`` (of the authority ``only`` alone, when
    given) into the empty, migrated database of ``engine``, whose places are synced from
    ``state_config``; the rows written by table."""
    now = datetime.combine(p.today, datetime.min.time(), UTC) - timedelta(days=365 * 6)
    writer = _Writer(engine)
    users, keepers, officers = _users(p, only, now)
    await writer.write("users", users)
    compiled = {
        route: [(day, _compile(rows)) for day, rows in t.snapshots]
        for route, t in templates.items()
    }
    counters = Counters()
    pending: dict[str, list[dict[str, Any]]] = {t: [] for t in CASE_TABLES}
    cases = p.cases if only is None else p.of(only)
    started = time.perf_counter()
    last_seq: dict[str, int] = {}
    for n, case in enumerate(cases, start=1):
        age = (p.today - case.impounded_on).days
        snapshots = compiled[case.route]
        rows = snapshots[0][1]
        for day, found in snapshots:
            if day > age:
                break
            rows = found
        c = _Copy(
            serial=case.serial,
            number=f"{case.pound}-{case.seq}",
            pound=case.pound,
            authority=authority_code(case.authority),
            place=place_name(case.authority, case.serial % PLACES),
            delta=timedelta(days=(case.impounded_on - T_START).days),
            phones={
                T_KEEPER: staff_phone(1, int(case.pound.encode().hex(), 16) % 10_000_000),
                T_OFFICER: staff_phone(2, case.authority),
                T_OWNER: owner_phone(case.serial),
            },
            users={1: keepers[case.pound], 2: officers[case.authority]},
            ids={},
            seq=case.seq,
        )
        copied = copy_case(rows, c, counters)
        _fired_rounds(copied["reminder_jobs"], p.today)
        for name, found_rows in copied.items():
            pending[name].extend(found_rows)
        last_seq[case.pound] = case.seq
        if n % chunk == 0 or n == len(cases):
            for name in CASE_TABLES:
                await writer.write(name, pending[name])
                pending[name] = []
            if progress is not None:
                took = time.perf_counter() - started
                progress(f"  {n:,} of {len(cases):,} cases written ({took:.1f} s)")
    async with engine.begin() as conn:
        for code, seq in last_seq.items():
            await conn.execute(
                text("UPDATE pounds SET last_case_seq = :s WHERE code = :c"), {"s": seq, "c": code}
            )
        if writer.pg:
            for name in ("users", *ID_TABLES):
                await conn.execute(
                    text(
                        f"SELECT setval(pg_get_serial_sequence('{name}', 'id'), "
                        f"(SELECT coalesce(max(id), 0) + 1 FROM {name}), false)"
                    )
                )
    if writer.pg:
        # What autovacuum does to tables that have taken their rows in (PostgreSQL 13 and
        # later vacuum after inserts too): statistics, and the visibility map that lets
        # an index be read without the rows it points to. A state in service has both.
        async with engine.connect() as conn:
            await conn.execution_options(isolation_level="AUTOCOMMIT")
            await conn.execute(text("VACUUM ANALYZE"))
    return writer.written
