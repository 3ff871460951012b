"""The web desk's form of a seizure (s.7) read into the order a SEIZE line makes
(``bot.conversation.orders.Seize``), read as the chat reads each part of it: the count
of heads (``parse_count``), the days (``parse_date``), the hour (``parse_time``), the
owner's number (``normalize_phone``), the kinds of cattle configured. What the Act says
of the report (a day brought not after now, a known kind, a tariff in force) is the use
case's, as for the chat: this module only reads the fields.

The lots are rows of three fields (``kind-1``, ``count-1``, ``description-1``, ...):
three rows at first; the form's "more lots" and "fewer lots" buttons send it back with
one row more or less (``rows``), its fields kept, no script needed. A row left blank is
no lot.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Final

from bot.config import Config
from bot.conversation.commands import (
    ParseError,
    normalize_phone,
    parse_count,
    parse_date,
    parse_time,
)
from bot.conversation.orders import Seize, SeizeLot
from bot.support.phones import PhoneError

__all__ = ["FIRST_ROWS", "MAX_ROWS", "Filled", "LotRow", "blank", "filled_of", "order_of"]

#: The lot rows a new form shows, and the most it shows (a SEIZE line rarely has more
#: than three kinds; ten rows is a whole herd of several owners).
FIRST_ROWS: Final = 3
MAX_ROWS: Final = 10
#: The text fields of the form besides the lots, each at most this long.
_TEXTS: Final = (
    "pound",
    "place",
    "brought_on",
    "brought_at",
    "seized_on",
    "seizer",
    "owner",
    "phone",
)
_LONGEST: Final = 300


@dataclass(frozen=True, slots=True)
class LotRow:
    """A row of the lots as typed: the kind's code, the heads, the description."""

    kind: str = ""
    count: str = ""
    description: str = ""

    @property
    def blank(self) -> bool:
        return not (self.kind or self.count or self.description)


@dataclass(frozen=True, slots=True)
class Filled:
    """The form as typed, to read into an order or to show again with its fields kept."""

    rows: tuple[LotRow, ...]
    texts: dict[str, str] = field(default_factory=dict)

    def get(self, name: str) -> str:
        return self.texts.get(name, "")


def _rows_wanted(form: Mapping[str, str]) -> int:
    raw = form.get("rows", "")
    rows = int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 3 else FIRST_ROWS
    if form.get("more"):
        rows += 1
    if form.get("fewer"):
        rows -= 1
    return max(1, min(MAX_ROWS, rows))


def filled_of(form: Mapping[str, str]) -> Filled:
    """The fields of a posted form (a button that adds or removes a row applied)."""
    rows = tuple(
        LotRow(
            form.get(f"kind-{i}", "").strip()[:40],
            form.get(f"count-{i}", "").strip()[:20],
            " ".join(form.get(f"description-{i}", "").split())[:_LONGEST],
        )
        for i in range(1, _rows_wanted(form) + 1)
    )
    texts = {name: " ".join(form.get(name, "").split())[:_LONGEST] for name in _TEXTS}
    return Filled(rows, texts)


def blank(now: datetime, pound: str = "") -> Filled:
    """A new form: three empty rows, brought now (the day and hour typed as the desk
    types them), into ``pound`` when one is chosen already (an officer's only pound)."""
    texts = {"brought_on": now.strftime("%d-%m-%Y"), "brought_at": now.strftime("%H:%M")}
    if pound:
        texts["pound"] = pound
    return Filled(tuple(LotRow() for _ in range(FIRST_ROWS)), texts)


def _lot(row: LotRow, config: Config) -> SeizeLot:
    if row.kind not in config.kinds:
        raise ParseError("unknown_kind", word=row.kind[:20])
    return SeizeLot(parse_count(row.count), row.kind, row.description)


def order_of(
    filled: Filled, config: Config, lang: str, today: date, *, pound: str | None = None
) -> Seize:
    """The SEIZE order the form makes, into ``pound`` when the form names one (an
    officer's; a keeper's is their own); ParseError as the chat's reader refuses the same
    fault (no lots, a kind not configured, a count, a day or an hour not read, no place,
    a telephone number that is not a mobile number's)."""
    lots = tuple(_lot(row, config) for row in filled.rows if not row.blank)
    if not lots:
        raise ParseError("missing_cattle")
    place = filled.get("place").strip(" ,")
    if not place:
        raise ParseError("missing_place")
    on = parse_date(filled.get("brought_on"), today) if filled.get("brought_on") else None
    at = parse_time(filled.get("brought_at")) if filled.get("brought_at") else None
    if at is not None and on is None:
        on = today
    seized = filled.get("seized_on")
    phone = filled.get("phone")
    try:
        owner_phone = normalize_phone(phone, config.phone_region) if phone else None
    except PhoneError as exc:
        raise ParseError(exc.code, **exc.facts) from None
    return Seize(
        lang=lang,
        lots=lots,
        place=place,
        on=on,
        at=at,
        seizer=filled.get("seizer").strip(" ,"),
        owner=filled.get("owner").strip(" ,"),
        owner_phone=owner_phone,
        seized_on=parse_date(seized, today) if seized else None,
        pound=pound,
    )
