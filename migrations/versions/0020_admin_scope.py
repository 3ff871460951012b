"""admin scopes: every existing admin becomes a state admin

No column changes. From this revision an admin's authority says what they administer:
an admin with an authority administers that authority's pounds, users, cases, messages
and tariffs only (an authority admin); an admin without one administers every authority
(a state admin). Before it, every admin administered everything, whatever authority an
invite had given them; so every existing admin becomes a state admin: their authority is
set to NULL, each change written to the audit of users (``user_changes``: the field, the
old authority, no new one, by no one, with the reason), and so is the authority of an
admin's invite not yet used (it would make an authority admin of someone meant to be an
admin of everything).

Downgrade restores nothing: before this revision an admin's authority was not read, so a
state admin is what every admin was; the authorities they had are kept in the audit.

Revision ID: 0020
Revises: 0019
Create Date: 2026-12-08 09:00:00
"""

from collections.abc import Sequence
from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

import bot.store.models

revision: str = "0020"
down_revision: str | None = "0019"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

REASON = "every admin before admin scopes administers every authority: a state admin"


def upgrade() -> None:
    bind = op.get_bind()
    users = sa.table(
        "users", sa.column("id", sa.Integer), sa.column("role"), sa.column("authority_code")
    )
    invites = sa.table(
        "invites", sa.column("role"), sa.column("authority_code"), sa.column("used_at")
    )
    changes = sa.table(
        "user_changes",
        sa.column("user_id", sa.Integer),
        sa.column("authority_code"),
        sa.column("by_user_id", sa.Integer),
        sa.column("at", bot.store.models.UtcDateTime(timezone=True)),
        sa.column("field"),
        sa.column("old"),
        sa.column("new"),
        sa.column("reason"),
    )
    scoped = sa.and_(users.c.role == "admin", users.c.authority_code.is_not(None))
    found = bind.execute(sa.select(users.c.id, users.c.authority_code).where(scoped)).all()
    now = datetime.now(UTC)
    if found:
        bind.execute(
            changes.insert(),
            [
                {
                    "user_id": user_id,
                    "authority_code": None,
                    "by_user_id": None,
                    "at": now,
                    "field": "authority_code",
                    "old": authority,
                    "new": None,
                    "reason": REASON,
                }
                for user_id, authority in found
            ],
        )
    bind.execute(users.update().where(scoped).values(authority_code=None))
    bind.execute(
        invites.update()
        .where(
            invites.c.role == "admin",
            invites.c.authority_code.is_not(None),
            invites.c.used_at.is_(None),
        )
        .values(authority_code=None)
    )


def downgrade() -> None:
    """Nothing to restore: an admin's authority was not read before this revision."""
