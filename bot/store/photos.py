"""The SQL of the photos of cases (``bot.adapters.photo_store`` keeps their files): whether
a photo is known already, the first kept photo of some cases, the kept photos of one."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import select

from bot.store.models import CaseRow, PhotoRow
from bot.store.tx import Tx

__all__ = ["first_photos", "is_kept", "is_known", "photos_of"]


async def is_kept(tx: Tx, case_id: int, source_key: str, sha256: str) -> bool:
    """Whether this media (``source_key``), or this very picture (``sha256``) with the
    case ``case_id``, is known already."""
    found = await tx.session.scalar(
        select(PhotoRow.id).where(
            (PhotoRow.source_key == source_key)
            | ((PhotoRow.case_id == case_id) & (PhotoRow.sha256 == sha256))
        )
    )
    return found is not None


async def is_known(tx: Tx, source_key: str) -> bool:
    """Whether a photo of this media (``source_key``) is known already."""
    return bool(
        await tx.session.scalar(select(PhotoRow.id).where(PhotoRow.source_key == source_key))
    )


async def first_photos(tx: Tx, numbers: Sequence[str]) -> dict[str, PhotoRow]:
    """The first kept photo of each of these cases that has one, by case number, in the
    order of ``numbers``."""
    if not numbers:
        return {}
    rows = await tx.session.execute(
        select(CaseRow.number, PhotoRow)
        .join(PhotoRow, PhotoRow.case_id == CaseRow.id)
        .where(CaseRow.number.in_(numbers), PhotoRow.status == "kept")
        .order_by(PhotoRow.id)
    )
    first: dict[str, PhotoRow] = {}
    for number, row in rows.all():
        first.setdefault(number, row)
    return {n: first[n] for n in numbers if n in first}


async def photos_of(tx: Tx, case_id: int) -> list[PhotoRow]:
    """The kept photos of a case, oldest first."""
    rows = await tx.session.execute(
        select(PhotoRow)
        .where(PhotoRow.case_id == case_id, PhotoRow.status == "kept")
        .order_by(PhotoRow.id)
    )
    return list(rows.scalars())
