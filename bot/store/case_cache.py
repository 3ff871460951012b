"""Folded cases kept in memory, so that an answer about a case does not replay its
whole history each time it is asked.

A case is the fold of its events (``Case.replay``), and its events are only ever
appended, each with an id of its own: the id of a case's last event names its whole
history. The cache keeps, for each case, the fold as of one such id; a case is read
from it only when the database says its last event still is that one (one statement
reads the case row with it), so every new event — a step, a CORRECT, a VOID — makes
the entry stale by itself, in this process or any other using the same database.

Only what a committed transaction read, and did not itself write, is kept
(``Tx.load_case``, ``Store.transaction``): an event written by a transaction that then
rolled back (or by a savepoint a refusal undid) never reaches the cache, so an id
reused after a rollback cannot name two histories.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any

from bot.store.models import CaseRow
from domain.case import Case

__all__ = ["CaseCache"]


class CaseCache:
    """The folded cases of one database by number (pound, seq), least recently used
    dropped past ``size``."""

    def __init__(self, size: int = 1000) -> None:
        self.size = size
        self._cases: OrderedDict[tuple[str, int], tuple[int, Case]] = OrderedDict()
        #: The row last read of each case kept, with the values it was made from.
        self._rows: dict[tuple[str, int], tuple[tuple[Any, ...], CaseRow]] = {}

    def get(self, number: tuple[str, int], last_event: int | None) -> Case | None:
        """The case as of its event ``last_event``, if kept."""
        found = self._cases.get(number)
        if found is None or last_event is None or found[0] != last_event:
            return None
        self._cases.move_to_end(number)
        return found[1]

    def put(self, number: tuple[str, int], last_event: int, case: Case) -> None:
        """Keep ``case`` as the fold of its events up to ``last_event`` (committed)."""
        kept = self._cases.get(number)
        if kept is not None and kept[0] > last_event:
            return  # a newer fold is kept already
        self._cases[number] = (last_event, case)
        self._cases.move_to_end(number)
        while len(self._cases) > self.size:
            dropped, _ = self._cases.popitem(last=False)
            self._rows.pop(dropped, None)

    def row(
        self, number: tuple[str, int], values: Sequence[Any], make: Callable[[], CaseRow]
    ) -> CaseRow:
        """The case row of these column values, read as plain columns: the one made for
        the same values last time, else ``make()``'s (an ORM object costs more to make
        than the statement that read its values). Read only: a step locks and reads its
        row through the session."""
        key = tuple(values)
        kept = self._rows.get(number)
        if kept is not None and kept[0] == key:
            return kept[1]
        row = make()
        if number in self._cases:
            self._rows[number] = (key, row)
        return row

    def __contains__(self, number: object) -> bool:
        return number in self._cases

    def clear(self) -> None:
        self._cases.clear()
        self._rows.clear()

    def __len__(self) -> int:
        return len(self._cases)
