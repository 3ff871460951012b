"""Builders for use-case tests."""

from __future__ import annotations

from datetime import datetime

from domain.s07_seizure import Lot, Person, Seizure


def seizure(
    pound: str = "KNM",
    lots: tuple[Lot, ...] = (
        Lot("cow", 2, "brown, white patch"),
        Lot("buffalo", 1, "cut left ear"),
    ),
    place: str = "Kunnamangalam market",
    at: datetime | None = None,
) -> Seizure:
    """A realistic s.7 report."""
    return Seizure(
        pound=pound,
        lots=lots,
        place_seized=place,
        brought_at=(at or datetime(2026, 3, 1, 9, 15)).replace(tzinfo=None),
        seizer=Person("Rajan K.", "Pathimangalam"),
        owner=Person("Kunhammed P.", "Chathamangalam"),
    )
