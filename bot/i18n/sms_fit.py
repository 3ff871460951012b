"""Making a reply fit an SMS: the segment budget, the richest wording that fits, lists
cut short with "and N more".

Every owner-facing SMS fits 2 GSM-7 segments in English (306 characters) and 3 UCS-2
segments in Malayalam, Tamil and Kannada (201 UTF-16 units) on worst-case data
(tested). A renderer offers its wordings richest first and ``shortest_fit`` takes the
first that fits; the last wording is the one that always fits.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Final

from bot.i18n.catalogs import Translator
from bot.sms_segments import segments

__all__ = [
    "SMS_SEGMENT_BUDGET",
    "STAFF_SMS_SEGMENTS",
    "fit_list",
    "fits_sms",
    "join",
    "shortest_fit",
]

#: Segments an owner-facing SMS may take: 2 in English (GSM-7, 306 characters), 3 in
#: the Indian scripts (UCS-2, 201 UTF-16 units).
SMS_SEGMENT_BUDGET: Final[Mapping[str, int]] = {"en": 2, "ml": 3, "ta": 3, "kn": 3}

#: Segments an SMS to a pound-keeper or an officer may take (lists, help).
STAFF_SMS_SEGMENTS: Final = 4


def join(parts: Iterable[str], sms: bool) -> str:
    """Sentences on one line in an SMS, one a line in a chat; empty parts dropped."""
    return (" " if sms else "\n").join(p for p in parts if p)


def fits_sms(text: str, lang: str, budget: int | None = None) -> bool:
    """Whether ``text`` fits ``budget`` segments (by default ``SMS_SEGMENT_BUDGET``)."""
    limit = budget if budget is not None else SMS_SEGMENT_BUDGET.get(lang, 3)
    return segments(text).segment_count <= limit


def shortest_fit(
    tr: Translator, candidates: Iterable[Sequence[str]], budget: int | None = None
) -> str:
    """The first candidate (richest first) whose sentences fit the SMS budget, else the last."""
    text = ""
    for parts in candidates:
        text = join(parts, sms=True)
        if fits_sms(text, tr.lang, budget):
            break
    return text


def fit_list(
    tr: Translator,
    head: Sequence[str],
    items: Sequence[str],
    more: Callable[[int], str],
    budget: int | None = None,
    sep: str = " ",
) -> str:
    """``head`` and as many ``items`` as fit the SMS budget, then ``more(n)`` for the
    ``n`` left out. At least one item is always shown."""
    for shown in range(len(items), 0, -1):
        left = len(items) - shown
        parts = [*head, *items[:shown]]
        text = sep.join(p for p in parts if p)
        if left:
            text = f"{text}{sep}{more(left)}"
        if shown == 1 or fits_sms(text, tr.lang, budget):
            return text
    return sep.join(p for p in head if p)
