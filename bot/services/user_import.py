"""Users in bulk from a CSV sheet (``bot.support.user_sheet``): a dry run that says, line
by line, what the import would do, and the import that does exactly that or nothing.

Each line is a user, found again by their phone number (so a second import of the same
sheet changes nothing): a number no active user has is a new user, added with an invite
to Telegram (``bot.services.admin.add_user``, ``reinvite_user``); a number an active
user has is that user, their name, language, pound or authority and (an officer's)
offices changed where the line says otherwise (``edit_user``, ``set_offices``; a cell
left blank keeps what the user has; a role is never changed); every change is audited,
for the line's reason or the import's. What the use cases refuse (another authority's
user for an authority admin, a number that is not a mobile number, ...) refuses the line,
as does a role, language, pound or authority that names none, a number given twice.

The dry run runs the very use cases in one transaction and undoes it; the import runs
them again in one transaction and keeps it only if every line goes through and the plan
is the one the dry run showed (``Plan.digest``): else nothing is kept
(``PlanChangedError``: the users changed since; ``BadInputError``: a line is refused).

Why it is long: a line's cells read into a user's values (a role, a language, a pound or
an authority by its code or name), the line new or changed through the use cases, and
the plan and its digest, which the dry run and the import share.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from datetime import datetime
from typing import Final, Protocol

from bot.config.names import Name
from bot.services.admin import add_user, edit_user, reinvite_user, set_offices
from bot.services.base import Deps
from bot.store.models import User
from bot.store.port import UserStore
from bot.support import user_sheet
from bot.support.caller import ADMIN, KEEPER, OFFICER, ROLES, Caller
from bot.support.errors import AppError, BadInputError, NotAllowedError, PlanChangedError
from bot.support.offices import declared_offices
from bot.support.phones import normalize_phone
from bot.support.words import language_named

__all__ = [
    "CHANGED",
    "KINDS",
    "NEW",
    "REFUSED",
    "UNCHANGED",
    "Change",
    "Imported",
    "Invited",
    "Plan",
    "PlanLine",
    "Transactions",
    "Vocabulary",
    "apply_import",
    "plan_import",
]

NEW: Final = "new"
UNCHANGED: Final = "unchanged"
CHANGED: Final = "changed"
REFUSED: Final = "refused"
KINDS: Final = (NEW, CHANGED, UNCHANGED, REFUSED)


class Transactions(Protocol):
    """The store, as the import opens its one transaction on it."""

    def transaction(self) -> AbstractAsyncContextManager[UserStore]: ...


@dataclass(frozen=True, slots=True)
class Vocabulary:
    """Words a sheet may use besides poundbot's codes: headings of each field, and words
    for each role (the desk's names of the columns and roles, in its languages)."""

    headings: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    roles: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Change:
    """A value of a user as the audit gives it: its field (a column of ``users``), before
    and after (None: none)."""

    field: str
    old: str | None
    new: str | None


@dataclass(frozen=True, slots=True)
class PlanLine:
    """What the import does with a line of the sheet: ``kind`` (one of ``KINDS``); who
    (the name, the phone number and the role as the line gives them or the user has);
    the user found (not a new one's id: that is only known when it is added); the values
    a new user is given or a user's changes; why a line is refused."""

    line: int
    kind: str
    name: str = ""
    phone: str = ""
    role: str = ""
    user_id: int | None = None
    changes: tuple[Change, ...] = ()
    refusal: AppError | None = None

    def key(self) -> list[object]:
        """The line as the digest reads it."""
        refused = [self.refusal.code, str(self.refusal)] if self.refusal is not None else None
        changes = [[c.field, c.old, c.new] for c in self.changes]
        return [self.line, self.kind, self.phone, self.user_id, changes, refused]


@dataclass(frozen=True, slots=True)
class Plan:
    """What the import of a sheet does, line by line; the headings it passes over; the
    digest of the whole, which the import checks before it keeps anything."""

    lines: tuple[PlanLine, ...]
    ignored: tuple[str, ...]
    digest: str

    def count(self, kind: str) -> int:
        return sum(1 for line in self.lines if line.kind == kind)

    @property
    def refused(self) -> bool:
        """Whether a line is refused (then nothing is imported)."""
        return any(line.kind == REFUSED for line in self.lines)

    @property
    def changes(self) -> bool:
        """Whether the import would change anything."""
        return any(line.kind in (NEW, CHANGED) for line in self.lines)


@dataclass(frozen=True, slots=True)
class Invited:
    """A new user's invite to Telegram: shown once, kept nowhere in clear."""

    line: int
    user_id: int
    name: str
    code: str
    expires_at: datetime


@dataclass(frozen=True, slots=True)
class Imported:
    """What an import did: the plan it carried out, and the new users' invites."""

    plan: Plan
    invites: tuple[Invited, ...]


class _Undone(Exception):
    """Ends the dry run's transaction, which is rolled back, with what it found."""

    def __init__(self, plan: Plan) -> None:
        super().__init__("dry run")
        self.plan = plan


def _digest(lines: Sequence[PlanLine], reason: str) -> str:
    plain = json.dumps([reason, [line.key() for line in lines]], ensure_ascii=False)
    return hashlib.sha256(plain.encode()).hexdigest()


def _reason(reason: str) -> str:
    said = " ".join(reason.split())
    if not said:
        raise BadInputError("a reason is required", reason="reason_required")
    return said


def _role(text: str, words: Vocabulary) -> str:
    said = text.strip().casefold()
    role = said if said in ROLES else words.roles.get(said, "")
    if not role:
        raise BadInputError("unknown role", reason="import_role", role=text.strip())
    return role


def _lang(text: str) -> str | None:
    if not text.strip():
        return None
    lang = language_named(text)
    if lang is None:
        raise BadInputError("unknown language", reason="import_language", lang=text.strip())
    return lang


def _code(text: str, known: Mapping[str, object], what: str) -> str | None:
    """The code of a pound or an authority the cell names: its code (any case) or its
    name in any language; None for a blank cell."""
    said = text.strip()
    if not said:
        return None
    for code, place in known.items():
        if _same(said, code):
            return code
        name = getattr(place, "name", "")
        forms = [name, *(name.forms.values() if isinstance(name, Name) else ())]
        if any(_same(said, form) for form in forms):
            return code
    raise BadInputError(f"unknown {what}", **{what: said})


def _same(a: str, b: str) -> bool:
    return " ".join(a.casefold().split()) == " ".join(str(b).casefold().split())


def _offices(text: str) -> list[str] | None:
    """The offices a cell names (separated by commas, semicolons, bars or spaces); None
    for a blank cell."""
    parts = [p for p in text.replace(";", ",").replace("|", ",").replace(" ", ",").split(",")]
    found = [p.strip() for p in parts if p.strip()]
    return found or None


@dataclass(frozen=True, slots=True)
class _Row:
    """A line read: its values (None: a blank cell, the user's kept)."""

    phone: str
    role: str
    name: str | None
    lang: str | None
    pound: str | None
    authority: str | None
    offices: list[str] | None
    reason: str


def _row(row: user_sheet.SheetRow, deps: Deps, words: Vocabulary, reason: str) -> _Row:
    if row.overflow:
        raise BadInputError("more cells than headings", reason="import_cells")
    role = _role(row.get("role"), words)
    if not row.get("phone"):
        raise BadInputError("a phone number is required", reason="import_phone")
    phone = normalize_phone(row.get("phone"), deps.config.phone_region)
    pound = _code(row.get("pound"), deps.config.pounds, "pound")
    authority = _code(row.get("authority"), deps.config.authorities, "authority")
    if role != KEEPER and pound is not None:
        raise BadInputError("only a keeper has a pound", reason="keeper_only_pound", role=role)
    if role == KEEPER and authority is not None:
        if pound is None or authority != deps.authority_of(pound):
            raise BadInputError(
                "only an officer has an authority of their own",
                reason="no_own_authority",
                role=role,
            )
        authority = None  # a keeper's is their pound's
    name = " ".join(row.get("name").split()) or None
    return _Row(
        phone=phone,
        role=role,
        name=name,
        lang=_lang(row.get("lang")),
        pound=pound,
        authority=authority,
        offices=_offices(row.get("offices")),
        reason=" ".join(row.get("reason").split()) or reason,
    )


def _made(user: User) -> tuple[Change, ...]:
    values = [
        ("name", user.name),
        ("phone", user.phone),
        ("lang", user.lang),
        ("pound_code", user.pound_code),
        ("authority_code", user.authority_code),
        ("offices", user.offices),
    ]
    return tuple(Change(f, None, v) for f, v in values if v)


async def _added(
    tx: UserStore, deps: Deps, caller: Caller, line: int, row: _Row
) -> tuple[PlanLine, Invited]:
    user = await add_user(
        tx,
        deps,
        caller,
        role=row.role,
        pound=row.pound,
        authority=row.authority,
        phone=row.phone,
        name=row.name or "",
        lang=row.lang,
        offices=row.offices or (),
        reason=row.reason,
    )
    invite = await reinvite_user(tx, deps, caller, user.id, reason=row.reason)
    planned = PlanLine(line, NEW, user.name, row.phone, user.role, changes=_made(user))
    invited = Invited(line, user.id, user.name, invite.code, invite.expires_at)
    return planned, invited


async def _changed(
    tx: UserStore, deps: Deps, caller: Caller, line: int, row: _Row, user: User
) -> PlanLine:
    if not caller.administers(user.authority_code):
        raise NotAllowedError("a user of another authority", authority=user.authority_code or "")
    if user.role != row.role:
        raise BadInputError("the role differs", reason="import_role_differs", role=user.role)
    edits: dict[str, str] = {}
    if row.name is not None and row.name != user.name:
        edits["name"] = row.name
    if row.lang is not None and row.lang != user.lang:
        edits["lang"] = row.lang
    if row.pound is not None and row.pound != user.pound_code:
        edits["pound"] = row.pound
    if row.role in (OFFICER, ADMIN) and row.authority not in (None, user.authority_code):
        edits["authority"] = row.authority
    changes: list[Change] = []
    if edits:
        done = await edit_user(
            tx,
            deps,
            caller,
            user.id,
            reason=row.reason,
            name=edits.get("name"),
            lang=edits.get("lang"),
            pound=edits.get("pound"),
            authority=edits.get("authority"),
        )
        changes += [Change(c.field, c.old, c.new) for c in done]
    if row.offices is not None:
        before = user.offices or ""
        if set(row.offices) != {o.value for o in declared_offices(before)}:
            after = await set_offices(tx, deps, caller, user.id, row.offices, reason=row.reason)
            changes.append(Change("offices", before or None, after.offices or None))
    kind = CHANGED if changes else UNCHANGED
    return PlanLine(line, kind, user.name, row.phone, user.role, user.id, tuple(changes))


async def _run(
    tx: UserStore,
    deps: Deps,
    caller: Caller,
    sheet: user_sheet.Sheet,
    reason: str,
    words: Vocabulary,
) -> tuple[Plan, tuple[Invited, ...]]:
    """Every line of ``sheet`` through the use cases, in ``tx``: the plan, the invites."""
    lines: list[PlanLine] = []
    invites: list[Invited] = []
    seen: dict[str, int] = {}
    for raw in sheet.rows:
        name, phone, role = raw.get("name"), raw.get("phone"), raw.get("role")
        try:
            row = _row(raw, deps, words, reason)
            phone = row.phone
            if phone in seen:
                raise BadInputError("given twice", reason="import_twice", line=seen[phone])
            seen[phone] = raw.line
            user = await tx.user_by_phone(phone)
            if user is None:
                planned, invited = await _added(tx, deps, caller, raw.line, row)
                invites.append(invited)
            else:
                planned = await _changed(tx, deps, caller, raw.line, row, user)
        except AppError as exc:
            planned = PlanLine(raw.line, REFUSED, name, phone, role, refusal=exc)
        lines.append(planned)
    plan = Plan(tuple(lines), sheet.ignored, _digest(lines, reason))
    return plan, tuple(invites)


def _require_admin(caller: Caller) -> None:
    if not caller.is_admin and not caller.is_state_admin:
        raise NotAllowedError("only an administrator manages users")


def _sheet(data: bytes, words: Vocabulary) -> user_sheet.Sheet:
    return user_sheet.read(data, words.headings)


async def plan_import(
    store: Transactions,
    deps: Deps,
    caller: Caller,
    data: bytes,
    *,
    reason: str,
    words: Vocabulary | None = None,
) -> Plan:
    """The dry run of the sheet ``data`` (CSV): what its import would do, line by line;
    nothing is kept. A file that is no sheet of users is ``SheetRefusedError``."""
    _require_admin(caller)
    why = _reason(reason)
    words = words or Vocabulary()
    sheet = _sheet(data, words)
    try:
        async with store.transaction() as tx:
            plan, _ = await _run(tx, deps, caller, sheet, why, words)
            raise _Undone(plan)
    except _Undone as undone:
        return undone.plan


async def apply_import(
    store: Transactions,
    deps: Deps,
    caller: Caller,
    data: bytes,
    *,
    reason: str,
    expected: str,
    words: Vocabulary | None = None,
) -> Imported:
    """Import the sheet ``data`` as its dry run showed (``expected``: that plan's
    digest), in one transaction: every line, or none (``PlanChangedError`` when the
    plan is another now, ``BadInputError`` when a line is refused)."""
    _require_admin(caller)
    why = _reason(reason)
    words = words or Vocabulary()
    sheet = _sheet(data, words)
    async with store.transaction() as tx:
        plan, invites = await _run(tx, deps, caller, sheet, why, words)
        if plan.digest != expected:
            raise PlanChangedError("the users changed since the dry run")
        if plan.refused:
            raise BadInputError("a line is refused", line=_first_refused(plan))
    return Imported(plan, invites)


def _first_refused(plan: Plan) -> int:
    return next(line.line for line in plan.lines if line.kind == REFUSED)
