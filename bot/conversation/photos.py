"""Photos of the cattle arriving with a message: which case and lot they show, kept once.

A keeper's photos belong to the case their message names: ``PHOTO KNM-17 [lot]``, or
the case their SEIZE line just recorded (``message_target``). No picture is downloaded
inside a transaction: an MMS's are fetched after its answer (``bot.channels.twilio.media``), a
Telegram photo before its update's transaction (``bot.channels.telegram.photos``); each
is checked and stripped on the photo worker (``bot.adapters.photo_store.prepare``), its files
written
to the photo store before its row is added (``attach_pictures``): a refused step, or a
message naming no case, keeps no photo.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from bot.adapters.photo_store import MAX_PIXELS, Kept, KeptRef, attach, keep
from bot.conversation import orders as o
from bot.conversation.commands import ParseError, parse
from bot.i18n import Translator, render
from bot.i18n.keepers import photos as text
from bot.services.base import Deps, require_keeper
from bot.store import case_lookups
from bot.store.port import CaseStore
from bot.store.tx import LoadedCase, Tx
from bot.support.caller import Caller
from bot.support.errors import AppError

__all__ = [
    "Incoming",
    "Target",
    "attach_pictures",
    "last_event_id",
    "max_mb",
    "message_target",
    "photo_target",
    "refused_text",
    "seized_now",
]


@dataclass(frozen=True, slots=True)
class Incoming:
    """One picture of a message: where it came from (once), and what became of it:
    checked and stripped (``kept``; ``image`` holds its files while they are not yet in
    the photo store), or refused."""

    source_key: str
    kept: KeptRef | None = None
    refused: str = ""  # "too_large", "too_many_pixels", "not_image", "unreachable"
    image: Kept | None = field(default=None, repr=False, compare=False)

    @classmethod
    def of(cls, source_key: str, image: Kept) -> Incoming:
        """A checked picture, its files to be written when it is attached to a case."""
        return cls(source_key, kept=image.ref, image=image)


@dataclass(frozen=True, slots=True)
class Target:
    loaded: LoadedCase
    lot: int | None  # 0-based, None: the case as a whole


async def last_event_id(tx: Tx) -> int:
    """The newest audit-log row id: what a SEIZE adds comes after it."""
    return await case_lookups.last_event_id(tx)


async def photo_target(
    tx: CaseStore, deps: Deps, caller: Caller, number: str, lot: int | None, tr: Translator
) -> Target | str:
    """The case (and lot) a keeper's ``PHOTO <case> [lot]`` names, or the reply refusing it."""
    try:
        loaded = await tx.load_case(number)
        require_keeper(caller, loaded.case.seizure.pound)
    except AppError as exc:
        return render.app_error(exc, tr)
    lots = len(loaded.case.seizure.lots)
    if lot is not None and not 1 <= lot <= lots:
        return text.photo_no_lot(loaded.case.number, lot, lots, tr)
    return Target(loaded, None if lot is None else lot - 1)


async def seized_now(tx: Tx, caller: Caller, after_event: int) -> LoadedCase | None:
    """The case this caller's SEIZE recorded in this transaction (its first event is new)."""
    if caller.user_id is None:
        return None
    number = await case_lookups.case_recorded_after(tx, caller.user_id, after_event)
    return await tx.load_case(number) if number else None


def _command(deps: Deps, body: str) -> o.Order | None:
    try:
        return parse(body, deps.config, deps.today())
    except ParseError:
        return None


async def message_target(
    tx: Tx, deps: Deps, caller: Caller, body: str, after_event: int, tr: Translator
) -> tuple[Target | str | None, bool]:
    """Where the pictures of a message go: (the case and lot its PHOTO names or its SEIZE
    just recorded; the reply refusing its PHOTO; or None: no case), and whether the
    message is a PHOTO (its answer is about the photos alone)."""
    command = _command(deps, body)
    name = command.name if command else ""
    if isinstance(command, o.Photo):
        return await photo_target(tx, deps, caller, command.case, command.lot, tr), True
    if name == "seize":
        seized = await seized_now(tx, caller, after_event)
        return (Target(seized, None) if seized is not None else None), False
    return None, name == "photo"


async def attach_pictures(
    tx: Tx,
    deps: Deps,
    caller: Caller,
    target: Target,
    pictures: Sequence[Incoming],
    tr: Translator,
) -> list[str]:
    """Attach the kept pictures to ``target``; what to tell: how many were kept, which
    were there already, and why each refused one was not kept (by its place, from 1)."""
    lines: list[str] = []
    kept = already = 0
    for position, picture in enumerate(pictures, start=1):
        if picture.kept is None:
            lines.append(refused_text(picture.refused, position, deps, tr))
            continue
        if picture.image is not None:  # the files first: a row never names a missing file
            await keep(deps.photo_store(), picture.image)
        if await attach(
            tx, target.loaded.row.id, target.lot, picture.kept, picture.source_key, caller.user_id
        ):
            kept += 1
        else:
            already += 1
    number = target.loaded.case.number
    if kept:
        lines.insert(0, text.photos_kept(kept, number, tr))
    if already:
        lines.insert(0, text.photo_already_kept(number, tr))
    return lines


def refused_text(code: str, position: int, deps: Deps, tr: Translator) -> str:
    """Why the ``position``-th picture was not kept, with the limit it passed (its MB,
    or its pixels: ``MAX_PIXELS`` as megapixels)."""
    return text.photo_refused(
        code, position, max_mb(deps), tr, max_megapixels=MAX_PIXELS // 1_000_000
    )


def max_mb(deps: Deps) -> int:
    """The photo size limit in whole MB, as the replies say it."""
    return max(1, deps.max_photo_bytes() // (1024 * 1024))
