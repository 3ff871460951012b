"""The operations phase of bench/state.py (bench/state_ops.py), small: a generated state of
three authorities on PostgreSQL (with POUNDBOT_TEST_PG_URL). ``poundbot migrate`` takes it
from a few revisions back to the head; the Backups page's restore, run as the page
writes it, lists exactly the cases recorded after the dump and lowers no pound's
counter; ``poundbot serve`` starts on it."""

from __future__ import annotations

import sys
from datetime import date
from pathlib import Path

import pytest

from bot.bootstrap import open_app
from bot.store.migrate import line
from tests.conftest import PG_URL

BENCH = Path(__file__).resolve().parents[2] / "bench"
sys.path.insert(0, str(BENCH))

import state_data as sd  # noqa: E402
import state_ops as so  # noqa: E402
from targets import fresh_pg_database  # noqa: E402

TODAY = date(2026, 3, 2)


@pytest.mark.pg
@pytest.mark.skipif(not PG_URL, reason="POUNDBOT_TEST_PG_URL is not set")
async def test_the_operations_on_a_small_state(tmp_path: Path) -> None:
    assert PG_URL is not None
    config = sd.state_config(3, 5)
    templates = await sd.record_templates(config)
    plan = sd.plan(3, 5, 120, TODAY)
    async with fresh_pg_database(PG_URL, "bench_ops_test") as url:
        async with open_app(config=config, url=url, migrate=True) as app:
            written = await sd.generate(app.engine, plan, templates)
        size, rows = await so.sizes(url)
        assert size > 0
        assert rows["cases"] == written["cases"]

        migrated = await so.migrate_ops(url, tmp_path)
        assert migrated.reached == migrated.head
        assert migrated.start == line()[-1 - so.BACK]
        assert migrated.start != migrated.head

        async with fresh_pg_database(PG_URL, "bench_ops_test_restore") as into:
            restored = await so.dump_restore_ops(url, into, config, tmp_path)
            after = await so._counters(into)
        assert len(restored.added) == so.AFTER_DUMP
        assert sorted(restored.listed) == sorted(restored.added)
        assert restored.lower == []
        assert restored.kept
        # The pound of the cases recorded after the dump goes on from its last number.
        (pound,) = {number.rsplit("-", 1)[0] for number in restored.added}
        assert restored.raised == [pound]
        assert after[pound] == max(int(number.rsplit("-", 1)[1]) for number in restored.added)
        assert len(restored.steps) == 3
        assert restored.dump_size > 0

        starts = await so.start_ops(url, 3, 5, tmp_path)
        assert len(starts) == so.STARTS


def test_the_documented_restore_is_read_in_its_three_steps() -> None:
    first, second, third = so.documented_restore()
    page = so.BACKUP_DOC.read_text(encoding="utf-8")
    for step in (first, second, third):
        assert step in page
    assert "TO 'replaced-pounds.csv' CSV" in first
    assert second.startswith("pg_restore --clean --if-exists --no-owner -d poundbot ")
    assert "ON CONFLICT (code) DO UPDATE SET last_case_seq = GREATEST(" in third
    assert so.documented_dump() in page
