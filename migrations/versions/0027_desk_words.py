"""desk words: an authority's cases newest first, with what the desk's filters read

``ix_cases_pound_newest`` (pound, day impounded, id; on PostgreSQL with the stage, the
kinds, the search text and the owner's name): the web desk's list of an authority's
cases, searched by words (the place, a kind or description, the owner's name), counted
and paged from the index, whatever the number of authorities.

Downgrade drops the index.

Revision ID: 0027
Revises: 0026
Create Date: 2026-12-15 09:00:00
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0027"
down_revision: str | None = "0026"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index(
        "ix_cases_pound_newest",
        "cases",
        ["pound_code", "impounded_on", "id"],
        unique=False,
        postgresql_include=["stage", "kinds", "search_text", "owner_name"],
    )


def downgrade() -> None:
    op.drop_index("ix_cases_pound_newest", table_name="cases")
