"""One step of the web desk reads the case once: the page it answers with is the
outcome of the use case, not the case loaded again (and no event counting to guess
whether the step was refused)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from sqlalchemy import event

from tests.web.rig import Rig, rig, step_form

SEIZE = "SEIZE 2 cow 1 goat AT Kunnamangalam market OWNER Ravi 9847012345"


async def _post_counting(r: Rig, path: str, data: dict[str, str]) -> tuple[int, list[str]]:
    """The status of the POST and the SQL statements it ran."""
    statements: list[str] = []

    def count(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        statements.append(statement)

    engine = r.app.engine.sync_engine
    event.listen(engine, "before_cursor_execute", count)
    try:
        done = await r.client.post(path, data=data)
    finally:
        event.remove(engine, "before_cursor_execute", count)
    return done.status_code, statements


#: ``Tx.load_case``: the case row read by its number, with its events (or, when a fold
#: of the case is kept, with the id of its last event: its events are then read only if
#: the fold is not as of that event).
_ROW_BY_NUMBER = re.compile(
    r"FROM cases (JOIN case_events ON case_events\.case_id = cases\.id )?"
    r"WHERE cases\.pound_code = \S+ AND cases\.seq = \S+"
)
_EVENTS_READ = "SELECT case_events.id, case_events.type, case_events.payload FROM case_events"


def _flat(statements: list[str]) -> list[str]:
    return [" ".join(s.split()) for s in statements]


def _case_loads(statements: list[str]) -> list[str]:
    """The statements that read a case for an answer or a step (``Tx.load_case``)."""
    return [s for s in _flat(statements) if _ROW_BY_NUMBER.search(s)]


def _event_reads(statements: list[str]) -> list[str]:
    """The statements that read a case's events to rebuild it."""
    return [s for s in _flat(statements) if s.startswith(_EVENTS_READ)]


async def test_a_web_step_loads_its_case_once(tmp_path: Path) -> None:
    async with rig(tmp_path) as r:
        keeper = await r.user("keeper", pound="KNM", phone="+919847000010")
        await r.say(keeper, SEIZE)
        await r.sign_in(keeper)
        page = await r.client.get("/web/cases/KNM-1")
        status, statements = await _post_counting(r, "/web/cases/KNM-1/paid", step_form(page.text))
        assert status == 303
        assert len(_case_loads(statements)) == 1, "\n\n".join(_case_loads(statements))
        assert _event_reads(statements) == [], "\n\n".join(statements)
        assert len(statements) <= 18, "\n\n".join(statements)


async def test_a_refused_web_step_loads_its_case_once(tmp_path: Path) -> None:
    async with rig(tmp_path) as r:
        keeper = await r.user("keeper", pound="KNM", phone="+919847000010")
        await r.say(keeper, SEIZE)
        await r.sign_in(keeper)
        page = await r.client.get("/web/cases/KNM-1")
        # Reported on the day of impounding: refused (s.13(1)), nothing recorded.
        status, statements = await _post_counting(
            r, "/web/cases/KNM-1/report", step_form(page.text)
        )
        assert status == 409
        assert len(_case_loads(statements)) == 1, "\n\n".join(_case_loads(statements))
        assert len(_event_reads(statements)) <= 1, "\n\n".join(statements)
