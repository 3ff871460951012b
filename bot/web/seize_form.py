"""The web desk's form of a seizure (s.7) read into the order a SEIZE line makes
(``bot.conversation.orders.Seize``), read as the chat reads each part of it: the count
of heads (``parse_count``), the days (``parse_date``), the hour (``parse_time``), the
owner's number (``normalize_phone``), the kinds of cattle configured. What the Act says
of the report (a day brought not after now, a known kind, a tariff in force) is the use
case's, as for the chat: this module only reads the fields.

The lots are rows of five fields (``kind-1``, ``count-1``, ``description-1``,
``owner-1``, ``phone-1``, ...): three rows at first; the form's "more lots" and "fewer
lots" buttons send it back with one row more or less (``rows``), its fields kept, no
script needed. A row left blank is no lot.

The owner of a lot, when the lot gives one, is that lot's (``SeizeLot.owner``), as an
OWNER written after the lot in a SEIZE line; the form's own owner (``owner``, ``phone``)
is the owner of every lot that gives none: of them all, when no lot gives one (s.7).
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

__all__ = [
    "FIRST_ROWS",
    "LOT_OWNER_WITHOUT_NAME",
    "MAX_ROWS",
    "Filled",
    "LotRow",
    "blank",
    "filled_of",
    "order_of",
]

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
#: The fault of a lot's owner's phone given without their name (the form's alone: a
#: SEIZE line has ``owner_without_name``); its fact ``lot``, the row's number.
LOT_OWNER_WITHOUT_NAME: Final = "lot_owner_without_name"


@dataclass(frozen=True, slots=True)
class LotRow:
    """A row of the lots as typed: the kind's code, the heads, the description, and the
    owner of the lot and their phone when the lot has an owner of its own."""

    kind: str = ""
    count: str = ""
    description: str = ""
    owner: str = ""
    phone: str = ""

    @property
    def blank(self) -> bool:
        return not (self.kind or self.count or self.description or self.owner or self.phone)


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
            " ".join(form.get(f"owner-{i}", "").split())[:_LONGEST],
            " ".join(form.get(f"phone-{i}", "").split())[:_LONGEST],
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


def _phone(typed: str, config: Config) -> str | None:
    """An owner's phone as typed, as the chat reads it (``normalize_phone``); blank: none."""
    try:
        return normalize_phone(typed, config.phone_region) if typed else None
    except PhoneError as exc:
        raise ParseError(exc.code, **exc.facts) from None


def _lot(number: int, row: LotRow, config: Config) -> SeizeLot:
    """The lot of row ``number``, with its owner when it gives one (a phone without a
    name is refused, as an OWNER without a name is in a SEIZE line)."""
    if row.kind not in config.kinds:
        raise ParseError("unknown_kind", word=row.kind[:20])
    count = parse_count(row.count)
    owner, phone = row.owner.strip(" ,"), _phone(row.phone, config)
    if phone is not None and not owner:
        raise ParseError(LOT_OWNER_WITHOUT_NAME, lot=number)
    return SeizeLot(count, row.kind, row.description, owner=owner, owner_phone=phone)


def order_of(
    filled: Filled, config: Config, lang: str, today: date, *, pound: str | None = None
) -> Seize:
    """The SEIZE order the form makes, into ``pound`` when the form names one (an
    officer's; a keeper's is their own); ParseError as the chat's reader refuses the same
    fault (no lots, a kind not configured, a count, a day or an hour not read, no place,
    a telephone number that is not a mobile number's, a lot's owner's number without
    their name)."""
    lots = tuple(
        _lot(number, row, config)
        for number, row in enumerate(filled.rows, start=1)
        if not row.blank
    )
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
    owner_phone = _phone(filled.get("phone"), config)
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
