"""The case numbers an embedded database has issued, so that a restore never issues one
again (``poundbot restore``, ``bot.adapters.restore``).

Each pound numbers its cases ``<POUND>-<n>`` from its counter (``pounds.last_case_seq``,
``bot.store.tx.Tx.next_case_seq``). A backup holds the counters of its day; the cases
numbered after it are on the keepers' phones and in the owners' SMS. So a restore keeps,
for each pound, the last number of the database it replaces when that is higher (never
lower), and lists the cases numbered after the backup so that staff can enter them again
(they get new numbers). When the database replaced cannot be read, nobody but the staff
knows those numbers: each pound's next number is given (``--next-number POUND=N``), at
least the backup's own next.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

__all__ = [
    "LAST_SEQ",
    "CaseNumberError",
    "Counter",
    "Issued",
    "IssuedCase",
    "Places",
    "PoundMark",
    "Unreadable",
    "cases_after",
    "keep_numbers",
    "parse_next_numbers",
    "raise_counters",
    "read_issued",
]

#: The highest number a case may have: a case number is read with at most 7 digits
#: (``bot.store.tx.parse_case_number``).
LAST_SEQ = 9_999_999


class CaseNumberError(Exception):
    """A next number that cannot be taken, or next numbers that are wanted and missing."""


class Unreadable(Exception):
    """A database whose case numbers cannot be read."""


class Places(NamedTuple):
    """The configuration's authorities (code: name) and pounds (code: (authority, name)),
    in its order."""

    authorities: Mapping[str, str]
    pounds: Mapping[str, tuple[str, str]]


@dataclass(frozen=True, slots=True)
class PoundMark:
    """A pound of a database and the last number it has issued: its counter, or its
    highest case if that is higher."""

    code: str
    authority: str
    authority_name: str
    name: str
    last: int


@dataclass(frozen=True, slots=True)
class IssuedCase:
    """A case of a database: its number, pound, day of impounding, when it was recorded
    and who recorded it ("" when not known)."""

    number: str
    pound: str
    seq: int
    impounded_on: str
    created_at: str
    keeper: str


@dataclass(frozen=True, slots=True)
class Issued:
    """What a database has numbered."""

    pounds: Mapping[str, PoundMark]
    cases: tuple[IssuedCase, ...]
    #: The text of its configuration's version in force (None: it holds none).
    configuration: str | None = None


@dataclass(frozen=True, slots=True)
class Counter:
    """A pound whose counter a restore sets above the backup's."""

    pound: str
    backup: int | None  # the backup's last number (None: the backup has no such pound)
    last: int  # the last number, kept: the next case is ``pound-(last + 1)``
    given: bool  # from ``--next-number`` (else from the database replaced)
    mark: PoundMark  # where the pound's row comes from when the backup has none


_POUNDS = """
SELECT p.code, p.authority_code, COALESCE(a.name, ''), p.name,
       MAX(p.last_case_seq, COALESCE((SELECT MAX(seq) FROM cases WHERE pound_code = p.code), 0))
FROM pounds p LEFT JOIN authorities a ON a.code = p.authority_code
"""
# Who recorded a case (a keeper, or an officer) is the actor of its first event
# (``Tx.recorded_by``).
_CASES = """
SELECT c.number, c.pound_code, c.seq, c.impounded_on, c.created_at,
       COALESCE(u.name, ''), COALESCE(u.phone, '')
FROM cases c
LEFT JOIN case_events e ON e.case_id = c.id AND e.seq = 0
LEFT JOIN users u ON u.id = e.actor_user_id
ORDER BY c.pound_code, c.seq
"""


# The version in force is the one with the highest id (``bot.store.config_versions``);
# a database from before the configuration was kept in it has no such table.
_HAS_VERSIONS = "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'config_versions'"
_IN_FORCE = "SELECT text FROM config_versions ORDER BY id DESC LIMIT 1"


def read_issued(path: Path) -> Issued:
    """The pounds and cases of the poundbot database ``path``, and the text of its
    configuration's version in force; raises Unreadable."""
    connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        pounds = connection.execute(_POUNDS).fetchall()
        cases = connection.execute(_CASES).fetchall()
        in_force = (
            connection.execute(_IN_FORCE).fetchone()
            if connection.execute(_HAS_VERSIONS).fetchone()
            else None
        )
    except sqlite3.DatabaseError as exc:
        raise Unreadable(f"not a poundbot database: {exc}") from None
    finally:
        connection.close()
    return Issued(
        {
            str(code): PoundMark(
                str(code), str(authority), str(authority_name), str(name), int(last)
            )
            for code, authority, authority_name, name, last in pounds
        },
        tuple(
            IssuedCase(
                str(number), str(pound), int(seq), str(on), str(at), f"{name} {phone}".strip()
            )
            for number, pound, seq, on, at, name, phone in cases
        ),
        str(in_force[0]) if in_force is not None else None,
    )


def cases_after(backup: Issued, replaced: Issued) -> tuple[IssuedCase, ...]:
    """The cases of the database replaced that the backup does not have (a case of the
    same number recorded at another time is another case)."""
    known = {(case.number, case.created_at) for case in backup.cases}
    return tuple(case for case in replaced.cases if (case.number, case.created_at) not in known)


_GIVEN = re.compile(r"\s*([^=\s]+)\s*=\s*([0-9]+)\s*", re.ASCII)


def parse_next_numbers(values: Sequence[str]) -> dict[str, int]:
    """``["KNM=18", "ptm=3"]`` -> {"KNM": 18, "PTM": 3}; raises CaseNumberError."""
    given: dict[str, int] = {}
    for value in values:
        match = _GIVEN.fullmatch(value)
        digits = match.group(2).lstrip("0") if match else ""
        if match is None or not digits:
            raise CaseNumberError(f"--next-number {value}: say POUND=N, N a whole number from 1")
        if len(digits) > len(str(LAST_SEQ)):  # (read before int(): any length is typed)
            raise CaseNumberError(
                f"--next-number {value}: a case number has at most {len(str(LAST_SEQ))} digits"
            )
        pound, number = match.group(1).upper(), int(digits)
        if pound in given:
            raise CaseNumberError(f"--next-number {pound} is given twice")
        given[pound] = number
    return given


def keep_numbers(
    backup: Issued,
    replaced: Issued | None,
    given: Mapping[str, int],
    places: Callable[[], Places],
    *,
    unread: str = "",
) -> tuple[Counter, ...]:
    """The counters to set above the backup's: each pound's last number of the database
    replaced, or the number before the one ``given`` for it, whichever is higher; never
    below the backup's. When the database replaced could not be read (``replaced`` is
    None, ``unread`` says why) every pound of the configuration needs a given number.
    ``places`` (the configuration) is read only when a number is given or wanted.
    Raises CaseNumberError."""
    configured = places() if given or replaced is None else Places({}, {})
    replaced_pounds = replaced.pounds if replaced is not None else {}
    for pound, number in given.items():
        if pound not in configured.pounds:
            raise CaseNumberError(
                f"--next-number {pound}={number}: {pound} is not a pound of the "
                f"configuration ({', '.join(sorted(configured.pounds))})"
            )
        for whose, marks in (
            ("the backup", backup.pounds),
            ("the database replaced", replaced_pounds),
        ):
            last = marks[pound].last if pound in marks else 0
            if number <= last:
                raise CaseNumberError(
                    f"--next-number {pound}={number}: {whose} already has {pound}-{last}; "
                    f"the next is {pound}-{last + 1} or later"
                )
    if replaced is None:
        missing = [pound for pound in configured.pounds if pound not in given]
        if missing:
            asked = " ".join(
                f"--next-number {pound}="
                f"{(backup.pounds[pound].last if pound in backup.pounds else 0) + 1}"
                for pound in missing
            )
            raise CaseNumberError(
                f"{unread}, so the case numbers issued after the backup are not known: give "
                "each pound's next case number (the backup's next, or past the last number "
                f"the keepers were sent since): {asked}"
            )
    counters = []
    for pound in dict.fromkeys([*backup.pounds, *replaced_pounds, *given]):
        before = backup.pounds[pound].last if pound in backup.pounds else None
        kept = replaced_pounds[pound].last if pound in replaced_pounds else 0
        wanted = given[pound] - 1 if pound in given else 0
        last = max(before or 0, kept, wanted)
        if last > (before or 0):
            mark = (
                replaced_pounds.get(pound) or backup.pounds.get(pound) or _mark(pound, configured)
            )
            counters.append(Counter(pound, before, last, wanted >= kept and wanted > 0, mark))
    return tuple(counters)


def _mark(pound: str, configured: Places) -> PoundMark:
    """A pound of the configuration that neither database has."""
    authority, name = configured.pounds[pound]
    return PoundMark(pound, authority, configured.authorities.get(authority, authority), name, 0)


def raise_counters(path: Path, counters: Sequence[Counter]) -> None:
    """Set the counters of the poundbot database ``path`` (never lower), adding the pound
    (and its authority) where the database has none."""
    connection = sqlite3.connect(path)
    try:
        with connection:  # one transaction
            for counter in counters:
                mark = counter.mark
                connection.execute(
                    "INSERT OR IGNORE INTO authorities (code, name) VALUES (?, ?)",
                    (mark.authority, mark.authority_name),
                )
                connection.execute(
                    "INSERT OR IGNORE INTO pounds (code, authority_code, name, last_case_seq) "
                    "VALUES (?, ?, ?, 0)",
                    (mark.code, mark.authority, mark.name),
                )
                connection.execute(
                    "UPDATE pounds SET last_case_seq = ? WHERE code = ? AND last_case_seq < ?",
                    (counter.last, counter.pound, counter.last),
                )
    finally:
        connection.close()
