"""search columns: FIND over a state's cases in the pound, and an authority's cases, by index

``cases.search_text`` holds what ``FIND`` matches of a case (the place seized, then each
lot's kind and public description, a line each, casefolded: ``bot.store.search_text``),
and ``cases.kinds`` the kinds of its lots (`` cow goat ``), both kept in step with the
lots; each case recorded before this revision takes them from its row and its lots.
``ix_cases_search_in_pound`` indexes the search text over the cases still in the pound:
on PostgreSQL a trigram index (the ``pg_trgm`` extension, made here when missing; a
trusted extension, so the database's owner may make it), so that a word is found
without reading every open case of a state; on SQLite a plain partial index.
``ix_cases_pound_stage`` (pound, stage, day impounded, id; on PostgreSQL with the kinds)
gives the desk's counts of an authority's cases, by stage or by kind, from the index.

Downgrade drops the indexes and the columns (the extension stays).

Revision ID: 0025
Revises: 0024
Create Date: 2026-12-13 09:00:00
"""

from collections import defaultdict
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0025"
down_revision: str | None = "0024"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

#: Cases read and written at a time: a large database is filled in bounded steps.
BATCH = 2000

#: The stages with cattle still in the pound, as the revision was written.
IN_POUND = (
    "stage IN ('deemed_unclaimed', 'impounded', 'notice_posted', 'owner_refused', "
    "'reported', 'selling')"
)


def upgrade() -> None:
    with op.batch_alter_table("cases") as batch:
        batch.add_column(sa.Column("search_text", sa.Text(), server_default="", nullable=False))
        batch.add_column(
            sa.Column("kinds", sa.String(length=200), server_default="", nullable=False)
        )
    _fill()
    op.create_index(
        "ix_cases_pound_stage",
        "cases",
        ["pound_code", "stage", "impounded_on", "id"],
        unique=False,
        postgresql_include=["kinds"],
    )
    if op.get_bind().dialect.name == "postgresql":
        op.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
    op.create_index(
        "ix_cases_search_in_pound",
        "cases",
        ["search_text"],
        unique=False,
        postgresql_using="gin",
        postgresql_ops={"search_text": "gin_trgm_ops"},
        postgresql_where=sa.text(IN_POUND),
        sqlite_where=sa.text(IN_POUND),
    )


def _fill() -> None:
    """Each case's search text and kinds from its place seized and its lots, in order."""
    from bot.store.search_text import kinds_text, search_text

    bind = op.get_bind()
    cases = sa.table(
        "cases",
        sa.column("id"),
        sa.column("place_seized"),
        sa.column("search_text"),
        sa.column("kinds"),
    )
    lots = sa.table(
        "case_lots",
        sa.column("case_id"),
        sa.column("idx"),
        sa.column("kind"),
        sa.column("description"),
    )
    written = (
        cases.update()
        .where(cases.c.id == sa.bindparam("case_id"))
        .values(search_text=sa.bindparam("text"), kinds=sa.bindparam("case_kinds"))
    )
    last = 0
    while True:
        found = bind.execute(
            sa.select(cases.c.id, cases.c.place_seized)
            .where(cases.c.id > last)
            .order_by(cases.c.id)
            .limit(BATCH)
        ).all()
        if not found:
            return
        last = found[-1][0]
        of_case: dict[int, list[tuple[str, str]]] = defaultdict(list)
        for case_id, kind, description in bind.execute(
            sa.select(lots.c.case_id, lots.c.kind, lots.c.description)
            .where(lots.c.case_id.in_([row[0] for row in found]))
            .order_by(lots.c.case_id, lots.c.idx)
        ):
            of_case[case_id].append((kind, description or ""))
        bind.execute(
            written,
            [
                {
                    "case_id": case_id,
                    "text": search_text(place or "", of_case[case_id]),
                    "case_kinds": kinds_text(kind for kind, _ in of_case[case_id]),
                }
                for case_id, place in found
            ],
        )


def downgrade() -> None:
    op.drop_index("ix_cases_search_in_pound", table_name="cases")
    op.drop_index("ix_cases_pound_stage", table_name="cases")
    with op.batch_alter_table("cases") as batch:
        batch.drop_column("kinds")
        batch.drop_column("search_text")
