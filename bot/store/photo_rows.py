"""The photos' rows as the channels read and write them: a photo by id, one already kept
from a source, the Telegram photos still to download, and a download's outcome.

The channels (``bot.channels``) reach ``photos`` only through these functions (and
``bot.adapters.photo_store``): they take plain values and return plain values or rows.
"""

from __future__ import annotations

from typing import Protocol

from sqlalchemy import delete, select

from bot.store.models import PhotoRow
from bot.store.tx import Tx

__all__ = ["FileRef", "drop_photo", "keep_fetched", "kept_from", "pending_photos", "photo"]


class FileRef(Protocol):
    """A photo written to the photo store, as its row records it
    (``bot.adapters.photo_store.KeptRef``)."""

    @property
    def sha256(self) -> str: ...
    @property
    def format(self) -> str: ...
    @property
    def width(self) -> int: ...
    @property
    def height(self) -> int: ...
    @property
    def size(self) -> int: ...


async def photo(tx: Tx, photo_id: int) -> PhotoRow | None:
    """The photo ``photo_id`` (None: no such photo)."""
    return await tx.session.get(PhotoRow, photo_id)


async def kept_from(tx: Tx, source_key: str) -> bool:
    """Whether a photo from ``source_key`` (a message's picture) is recorded."""
    found = await tx.session.scalar(select(PhotoRow.id).where(PhotoRow.source_key == source_key))
    return bool(found)


async def pending_photos(tx: Tx, limit: int) -> list[tuple[int, int, str | None]]:
    """The id, case id and fetch reference (Telegram's file id) of the photos still to
    download, oldest first, at most ``limit``."""
    rows = await tx.session.execute(
        select(PhotoRow.id, PhotoRow.case_id, PhotoRow.fetch_ref)
        .where(PhotoRow.status == "pending")
        .order_by(PhotoRow.id)
        .limit(limit)
    )
    return [(photo_id, case_id, ref) for photo_id, case_id, ref in rows.all()]


async def drop_photo(tx: Tx, photo_id: int) -> None:
    """Delete the photo ``photo_id`` (one that can never be downloaded)."""
    await tx.session.execute(delete(PhotoRow).where(PhotoRow.id == photo_id))


async def keep_fetched(tx: Tx, photo_id: int, case_id: int, ref: FileRef) -> bool:
    """The pending photo ``photo_id`` downloaded as ``ref``: kept, or deleted when the
    same picture is kept with the case already; True if it was kept (False also when it
    is no longer pending)."""
    row = await tx.session.get(PhotoRow, photo_id)
    twin = await tx.session.scalar(
        select(PhotoRow.id).where(PhotoRow.case_id == case_id, PhotoRow.sha256 == ref.sha256)
    )
    if row is None or row.status != "pending":
        return False
    if twin is not None:  # the same picture is kept with the case already
        await tx.session.delete(row)
        return False
    row.status, row.sha256, row.format = "kept", ref.sha256, ref.format
    row.width, row.height, row.size = ref.width, ref.height, ref.size
    return True
