"""Migration 0010 (photos): Telegram file ids once appended to a lot's description
(``photo:<file id>``) become pending photos of that case and lot, and leave the
description (the lots the search reads, and the seizure facts of the audit log)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, date, datetime
from pathlib import Path

import pytest
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.config import load_config, sample_config_path
from bot.store.codec import dump_event
from bot.store.engine import make_engine, make_sessionmaker
from bot.store.migrate import upgrade
from bot.store.models import Authority, CaseEvent, CaseLot, PhotoRow, Pound
from bot.store.tx import Store
from domain.case import Case, provision_of
from domain.s07_seizure import Lot, Seizure
from tests.integration.test_migrations import ENGINES, fresh_pg_database, old_case_row


@pytest.fixture(params=ENGINES)
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A new SQLite file, or a new PostgreSQL database (``POUNDBOT_TEST_PG_URL``)."""
    if request.param == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path / 'old.sqlite3'}"
        return
    with fresh_pg_database() as url:
        yield url


async def test_file_ids_in_descriptions_become_pending_photos(database_url: str) -> None:
    config = load_config(sample_config_path())
    seizure = Seizure(
        "KNM",
        (
            Lot("cow", 2, "brown, white patch; photo:AgACAgUAAx0Cc1; photo:AgACAgUAAx0Cc2"),
            Lot("buffalo", 1, "photo:AgACAgUAAx0Cc3"),
            Lot("goat", 1, "black; a photo: of none"),
        ),
        "market",
        datetime(2026, 3, 1, 10, 0),
    )
    case = Case.open("KNM-1", seizure, config.kinds, date(2026, 12, 31))
    engine = make_engine(database_url)
    try:
        await upgrade(engine, "0009")
        now = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
        async with AsyncSession(engine) as session, session.begin():
            session.add(Authority(code="KNM-GP", name="Kunnamangalam"))
            await session.flush()
            session.add(Pound(code="KNM", authority_code="KNM-GP", name="Pound"))
            await session.flush()
            case_id = await old_case_row(session, 1, "KNM-1", "impounded", now)
            for i, lot in enumerate(seizure.lots):
                session.add(
                    CaseLot(
                        case_id=case_id,
                        idx=i,
                        kind=lot.kind,
                        count=lot.count,
                        description=lot.description,
                    )
                )
            kind, payload = dump_event(case.events[0])
            session.add(
                CaseEvent(
                    case_id=case_id,
                    seq=0,
                    type=kind,
                    on=case.events[0].on,
                    payload=payload,
                    provision=provision_of(case.events[0]),
                    actor_role="keeper",
                    channel="telegram",
                    recorded_at=now,
                )
            )
        await upgrade(engine)
        async with AsyncSession(engine) as session:
            photos = (await session.execute(select(PhotoRow).order_by(PhotoRow.id))).scalars()
            assert [(p.lot, p.status, p.fetch_ref, p.source_key) for p in photos] == [
                (0, "pending", "AgACAgUAAx0Cc1", "tg-file:AgACAgUAAx0Cc1"),
                (0, "pending", "AgACAgUAAx0Cc2", "tg-file:AgACAgUAAx0Cc2"),
                (1, "pending", "AgACAgUAAx0Cc3", "tg-file:AgACAgUAAx0Cc3"),
            ]
            lots = await session.execute(select(CaseLot.description).order_by(CaseLot.idx))
            assert list(lots.scalars()) == ["brown, white patch", "", "black; a photo: of none"]
        store = Store(make_sessionmaker(engine), _Clock())  # type: ignore[arg-type]
        async with store.transaction() as tx:
            loaded = await tx.load_case("KNM-1")
        assert [lot.description for lot in loaded.case.seizure.lots] == [
            "brown, white patch",
            "",
            "black; a photo: of none",
        ]
    finally:
        await engine.dispose()


class _Clock:
    def now(self) -> datetime:
        return datetime(2026, 3, 2, tzinfo=UTC)
