"""telephone numbers in E.164; public search descriptions without names or numbers

A data migration, no schema change (issue 13, items 10 and 11):

- the telephone numbers already stored (users, owners of cases, contacts, SMS still
  queued) are read again by ``bot.support.phones.normalize_phone`` in the configured region
  (India unless ``[policy] phone_region`` says otherwise). A number the old hand-made
  rule mangled, ``09847012345`` stored as ``+9847012345`` (+98 is Iran), is read again
  without its "+" when it is no valid mobile number with it. A number that still cannot
  be read, or whose E.164 form another row already holds, is left as it is and logged,
  masked (``+91******2345``);
- the descriptions the public search reads (``case_lots``) are derived again from each
  case's events by ``bot.support.public_text.public_lots``: no OWNER clause, no names of the
  people of the case, no phone-like digits. The events keep the description as written.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01 11:30:00
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

log = logging.getLogger("poundbot.migrations")


def _region() -> str:
    """The configured region for numbers without a country code (India by default)."""
    from bot.bootstrap import load
    from bot.config import ConfigError
    from bot.support.phones import DEFAULT_REGION

    try:
        return load().phone_region
    except (ConfigError, OSError):
        return DEFAULT_REGION


def _e164(value: str, region: str) -> str | None:
    """``value`` in E.164 when it is (or, without a wrongly added "+", was) a valid
    mobile number; else None."""
    from bot.support.phones import PhoneError, normalize_phone

    try:
        return normalize_phone(value, region)
    except PhoneError:
        pass
    bare = value.strip().removeprefix("+")
    if value.strip().startswith("+") and bare.isdigit():
        try:
            return normalize_phone(bare, region)
        except PhoneError:
            return None
    return None


def _normalize_column(
    table: str,
    key: str,
    column: str,
    region: str,
    *,
    unique: bool = False,
    only: dict[str, tuple[str, ...]] | None = None,
) -> None:
    """Each number of ``table.column`` in E.164 (rows keyed by ``key``); ``only`` keeps
    the rows whose other columns hold one of the values given."""
    from bot.observe.logsafe import mask_phone

    bind = op.get_bind()
    extra = [name for name in (only or {}) if name not in (key, column)]
    t = sa.table(table, *(sa.column(name) for name in dict.fromkeys([key, column, *extra])))
    query = sa.select(t.c[key], t.c[column]).where(t.c[column].is_not(None))
    for name, values in (only or {}).items():
        query = query.where(t.c[name].in_(values))
    rows = bind.execute(query).all()
    taken = {value for _, value in rows} if unique else set()
    changed = kept = 0
    for row_key, value in rows:
        normal = _e164(value, region)
        if normal is None:
            log.warning(
                "%s.%s: %s is no valid mobile number; left as it is",
                table,
                column,
                mask_phone(value),
            )
            kept += 1
            continue
        if normal == value:
            continue
        if unique and normal in taken:
            log.warning(
                "%s.%s: %s is %s, which another row holds; left as it is",
                table,
                column,
                mask_phone(value),
                mask_phone(normal),
            )
            kept += 1
            continue
        bind.execute(sa.update(t).where(t.c[key] == row_key).values({column: normal}))
        taken.discard(value)
        taken.add(normal)
        changed += 1
    if changed or kept:
        log.info(
            "%s.%s: %d number(s) rewritten in E.164, %d left as they were",
            table,
            column,
            changed,
            kept,
        )


def _public_search_descriptions() -> None:
    """``case_lots.description`` as ``public_lots`` derives it from the case's events."""
    from bot.support.public_text import public_lots
    from bot.store.codec import load_event
    from domain.case import Case

    bind = op.get_bind()
    cases = sa.table("cases", sa.column("id"), sa.column("number"))
    events = sa.table(
        "case_events",
        sa.column("case_id"),
        sa.column("seq"),
        sa.column("type"),
        sa.column("payload", sa.JSON()),
    )
    lots = sa.table("case_lots", sa.column("case_id"), sa.column("idx"), sa.column("description"))
    for case_id, number in bind.execute(sa.select(cases.c.id, cases.c.number)).all():
        log_rows = bind.execute(
            sa.select(events.c.type, events.c.payload)
            .where(events.c.case_id == case_id)
            .order_by(events.c.seq)
        ).all()
        if not log_rows:
            continue
        case = Case.replay(number, [load_event(kind, payload) for kind, payload in log_rows])
        for idx, lot in enumerate(public_lots(case.seizure)):
            bind.execute(
                sa.update(lots)
                .where(
                    lots.c.case_id == case_id,
                    lots.c.idx == idx,
                    lots.c.description != lot.description,
                )
                .values(description=lot.description)
            )


def upgrade() -> None:
    region = _region()
    _normalize_column("users", "id", "phone", region, unique=True)
    _normalize_column("cases", "id", "owner_phone", region)
    _normalize_column("contacts", "phone", "phone", region, unique=True)
    # An SMS not yet handed to Twilio goes to the number as it should have been.
    _normalize_column(
        "outbox", "id", "recipient", region, only={"channel": ("sms",), "status": ("queued",)}
    )
    _public_search_descriptions()


def downgrade() -> None:
    """Nothing to undo: the numbers and descriptions were rewritten in place, and the old
    forms were wrong."""
