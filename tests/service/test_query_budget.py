"""The owner's dues query stays within its SQL statement budget (counted, not timed)."""

from __future__ import annotations

from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.services import keeper as keeper_steps
from bot.services import public
from bot.services.base import Deps
from bot.store.tx import Store
from bot.support.caller import Caller
from tests.service.helpers import seizure


async def test_dues_on_a_case_issues_at_most_three_sql_statements(
    engine: AsyncEngine, store: Store, deps: Deps, keeper: Caller
) -> None:
    async with store.transaction() as tx:
        await keeper_steps.record_seizure(tx, deps, keeper, seizure())
    statements: list[str] = []

    def count(conn: object, cursor: object, statement: str, *rest: object) -> None:
        if not statement.startswith(("BEGIN", "COMMIT", "ROLLBACK")):
            statements.append(statement)

    event.listen(engine.sync_engine, "before_cursor_execute", count)
    try:
        async with store.transaction() as tx:
            answer = await public.dues_today(tx, deps, "KNM-1")
    finally:
        event.remove(engine.sync_engine, "before_cursor_execute", count)
    assert answer.dues.total.paise > 0
    assert len(statements) <= 3, statements
