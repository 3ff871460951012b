"""How many SMS segments a text costs: GSM-7 when every character allows it, else UCS-2.

GSM 03.38: the basic table costs one septet a character; the extension table
(``€ [ ] { } ^ ~ | \\`` and form feed) costs two (escape + character). One message holds
160 septets; a split message holds 153 per segment (the rest is the concatenation
header). Any other character forces UCS-2 for the whole text, counted in UTF-16 code
units (an emoji outside the BMP is two): 70 in one message, 67 per segment when split.
A split never cuts a character in two (an escape pair or a surrogate pair moves whole
into the next segment), which is why the count is made by filling segments, not by
dividing. An empty text costs no segment.
"""

from __future__ import annotations

from typing import Final, Literal, NamedTuple

__all__ = ["GSM7_BASIC", "GSM7_EXTENSION", "Segments", "segments"]

GSM7_BASIC: Final = frozenset(
    "@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?"
    "¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà"
)
GSM7_EXTENSION: Final = frozenset("\f^{}\\[~]|€")

_LIMITS: Final = {"GSM-7": (160, 153), "UCS-2": (70, 67)}

Encoding = Literal["GSM-7", "UCS-2"]


class Segments(NamedTuple):
    """The encoding of a text, its length in that encoding's units, and its segments."""

    encoding: Encoding
    units: int
    segment_count: int


def _costs(text: str) -> tuple[Encoding, list[int]]:
    if all(c in GSM7_BASIC or c in GSM7_EXTENSION for c in text):
        return "GSM-7", [2 if c in GSM7_EXTENSION else 1 for c in text]
    return "UCS-2", [2 if ord(c) > 0xFFFF else 1 for c in text]


def segments(text: str) -> Segments:
    """The encoding, units and segment count of ``text`` sent as one SMS."""
    encoding, costs = _costs(text)
    units = sum(costs)
    single, per_segment = _LIMITS[encoding]
    if units == 0:
        return Segments(encoding, 0, 0)
    if units <= single:
        return Segments(encoding, units, 1)
    count, used = 1, 0
    for cost in costs:
        if used + cost > per_segment:
            count, used = count + 1, 0
        used += cost
    return Segments(encoding, units, count)
