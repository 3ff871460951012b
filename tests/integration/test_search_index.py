"""The public search (``FIND``) over the cases still in the pound reads its index: on
PostgreSQL the trigram index ``ix_cases_search_in_pound`` (pg_trgm), whose predicate the
query repeats, so that a state's search costs what it finds and not every open case of
the state (``bench/state.py`` measures it). The plan is asked of a table holding a
state's cases in the pound: the planner must choose the index."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest
from sqlalchemy import text

from bot.store.engine import make_engine
from bot.store.migrate import upgrade
from bot.store.search_text import IN_POUND_SQL, search_text
from bot.store.tx import search_query
from domain.stages import IN_POUND_STAGES
from tests.conftest import PG_URL

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from targets import fresh_pg_database

#: A state's cases, 20,000 of them still in the pound, each at a village of its own.
STATE = (
    "INSERT INTO authorities (code, name) VALUES ('G-GP', 'G')",
    "INSERT INTO pounds (code, authority_code, name, last_case_seq) VALUES ('G', 'G-GP', 'G', 0)",
    "INSERT INTO cases (pound_code, seq, number, stage, impounded_on, place_seized, created_at,"
    " updated_at, search_text) SELECT 'G', n, 'G-' || n, CASE WHEN n % 2 = 0 THEN 'impounded'"
    " ELSE 'reported' END, DATE '2026-03-01', 'v' || n, now(), now(),"
    " 'village' || n || E' junction\\ncow\\nbrown' FROM generate_series(1, 20000) AS n",
)

MIGRATION = Path(__file__).resolve().parents[2] / "migrations" / "versions" / "0025_search_text.py"


def test_the_migration_indexes_the_stages_the_query_names() -> None:
    spec = importlib.util.spec_from_file_location("m0025", MIGRATION)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.IN_POUND == IN_POUND_SQL
    for stage in IN_POUND_STAGES:
        assert f"'{stage.value}'" in IN_POUND_SQL


def test_the_search_text_keeps_each_part_on_a_line_of_its_own() -> None:
    found = search_text("Kunnamangalam Market", [("cow", "Brown, WHITE patch"), ("goat", "")])
    assert found == "kunnamangalam market\ncow\nbrown, white patch\ngoat\n"
    # A word does not match across two parts.
    assert "market cow" not in found


@pytest.mark.skipif(PG_URL is None, reason="needs POUNDBOT_TEST_PG_URL (PostgreSQL)")
async def test_postgresql_finds_the_words_of_cases_in_the_pound_by_the_trigram_index() -> None:
    stages = [s.value for s in IN_POUND_STAGES]
    query = search_query([("cow", "പശു"), "village1234"], 5, stages=stages)
    assert PG_URL is not None
    async with fresh_pg_database(PG_URL, "poundbot_search_index") as url:
        engine = make_engine(url)
        sql = str(query.compile(dialect=engine.dialect, compile_kwargs={"literal_binds": True}))
        try:
            await upgrade(engine)
            async with engine.begin() as conn:
                for sql_line in STATE:
                    await conn.execute(text(sql_line))
            async with engine.begin() as conn:
                await conn.execute(text("ANALYZE cases"))
                plan = "\n".join(
                    (await conn.execute(text("EXPLAIN " + sql.replace("%%", "%")))).scalars()
                )
        finally:
            await engine.dispose()
    assert "ix_cases_search_in_pound" in plan, plan
