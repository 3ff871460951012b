"""photos of the cattle: a table; Telegram file ids moved out of the lots' descriptions

Photos are kept by poundbot itself now (``bot.adapters.photo_store``): each is a row of ``photos``
(its case, its lot, where it came from once, and the store key of the stripped image).

An older poundbot kept a Telegram photo as ``photo:<file id>`` appended to the lot's
description. Each such file id becomes a *pending* photo row of that case and lot (the
file id kept in ``fetch_ref``; the bot downloads it when it runs with a token:
``bot.channels.telegram.photos.fetch_pending``), and the ``photo:`` words are taken out
of the description: out of ``case_lots`` (what the public search reads) and out of the
seizure facts of ``case_events`` (what the notice, the case and every reply show).
The audit log is otherwise untouched: who, when, under what, and every other fact.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-01 12:10:00
"""

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from alembic import op

import bot.store.models

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_PREFIX = "photo:"


def upgrade() -> None:
    op.create_table(
        "photos",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("case_id", sa.Integer(), nullable=False),
        sa.Column("lot", sa.Integer(), nullable=True),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("source_key", sa.String(length=200), nullable=False),
        sa.Column("fetch_ref", sa.String(length=500), nullable=True),
        sa.Column("sha256", sa.String(length=64), nullable=True),
        sa.Column("format", sa.String(length=8), nullable=True),
        sa.Column("width", sa.Integer(), nullable=True),
        sa.Column("height", sa.Integer(), nullable=True),
        sa.Column("size", sa.Integer(), nullable=True),
        sa.Column("added_by", sa.Integer(), nullable=True),
        sa.Column("created_at", bot.store.models.UtcDateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["case_id"], ["cases.id"], name=op.f("fk_photos_case_id_cases")),
        sa.ForeignKeyConstraint(["added_by"], ["users.id"], name=op.f("fk_photos_added_by_users")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_photos")),
        sa.UniqueConstraint("case_id", "sha256", name=op.f("uq_photos_case_id")),
        sa.UniqueConstraint("source_key", name=op.f("uq_photos_source_key")),
    )
    with op.batch_alter_table("photos", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_photos_case_id"), ["case_id"], unique=False)
    _move_file_ids()


def split_description(description: str) -> tuple[str, list[str]]:
    """``"brown; photo:AbC; photo:DeF"`` -> ("brown", ["AbC", "DeF"])."""
    kept, file_ids = [], []
    for part in description.split("; "):
        if part.startswith(_PREFIX) and len(part) > len(_PREFIX) and " " not in part:
            file_ids.append(part[len(_PREFIX) :])
        elif part:
            kept.append(part)
    return "; ".join(kept), file_ids


def _strip_lots(payload: Any) -> tuple[Any, bool]:
    """The payload with ``photo:`` words out of every lot description; whether changed."""
    if isinstance(payload, dict):
        changed = False
        out: dict[str, Any] = {}
        for key, value in payload.items():
            if key == "description" and isinstance(value, str) and _PREFIX in value:
                stripped, found = split_description(value)
                out[key], changed = stripped, changed or bool(found)
            else:
                out[key], inner = _strip_lots(value)
                changed = changed or inner
        return out, changed
    if isinstance(payload, list):
        items = [_strip_lots(v) for v in payload]
        return [v for v, _ in items], any(c for _, c in items)
    return payload, False


def _move_file_ids() -> None:
    bind = op.get_bind()
    lots = sa.table(
        "case_lots",
        sa.column("id", sa.Integer),
        sa.column("case_id", sa.Integer),
        sa.column("idx", sa.Integer),
        sa.column("description", sa.Text),
    )
    events = sa.table(
        "case_events",
        sa.column("id", sa.Integer),
        sa.column("type", sa.String),
        sa.column("payload", sa.JSON),
    )
    photos = sa.table(
        "photos",
        sa.column("case_id", sa.Integer),
        sa.column("lot", sa.Integer),
        sa.column("status", sa.String),
        sa.column("source_key", sa.String),
        sa.column("fetch_ref", sa.String),
        sa.column("created_at", bot.store.models.UtcDateTime(timezone=True)),
    )
    now = datetime.now(UTC)
    seen: set[str] = set()
    rows = bind.execute(
        sa.select(lots.c.id, lots.c.case_id, lots.c.idx, lots.c.description).where(
            lots.c.description.like(f"%{_PREFIX}%")
        )
    ).all()
    for lot_id, case_id, idx, description in rows:
        stripped, file_ids = split_description(description or "")
        if not file_ids:
            continue
        for file_id in file_ids:
            key = f"tg-file:{file_id}"[:200]
            if key in seen:
                continue
            seen.add(key)
            bind.execute(
                photos.insert().values(
                    case_id=case_id,
                    lot=idx,
                    status="pending",
                    source_key=key,
                    fetch_ref=file_id[:500],
                    created_at=now,
                )
            )
        bind.execute(lots.update().where(lots.c.id == lot_id).values(description=stripped))
    seizure_events = bind.execute(
        sa.select(events.c.id, events.c.payload).where(
            events.c.type.in_(("Impounded", "SeizureCorrected"))
        )
    ).all()
    for event_id, payload in seizure_events:
        stripped_payload, changed = _strip_lots(payload)
        if changed:
            bind.execute(
                events.update().where(events.c.id == event_id).values(payload=stripped_payload)
            )


def downgrade() -> None:
    # The file ids stay out of the descriptions: the photos they name are gone with the table.
    with op.batch_alter_table("photos", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_photos_case_id"))
    op.drop_table("photos")
