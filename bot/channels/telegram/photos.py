"""Photos of the cattle on Telegram: downloaded once, checked, kept with a case.

    a photo in the guided report        kept with the report; the case gets it on confirm
    /photo KNM-17 [lot], then photos    each photo kept with that case (and lot)
    a photo captioned /photo KNM-17     the same, in one message
    a photo otherwise                   not kept; the keeper is told how to send it

The picture is never downloaded inside the update's transaction: what decides whether
the handlers want it is read first, in a transaction rolled back, without handling the
update (``bot.channels.telegram.handlers.wanted_photo``: a keeper's photo for a case or
the report, not one held already, ``destination``); it is then downloaded outside any
transaction within ``FETCH_DEADLINE`` seconds in all (Telegram gives the largest size
its ``file_size``: a photo past the limit is not downloaded), checked and stripped
(``bot.adapters.photo_store``), and the update is handled with it (``picture``). The row is added in
the update's transaction, keyed by Telegram's ``file_unique_id``: the same photo sent
again is kept once. Photos an older poundbot kept only by their file id (migration ``0010``)
wait as pending rows until ``fetch_pending`` downloads them.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Any, Final

from telegram import Bot, Message
from telegram.error import TelegramError

from bot.adapters.photo_store import (
    KeptRef,
    PhotoRefusedError,
    file_key,
    first_photos,
    keep,
    prepare,
)
from bot.channels.telegram.turn import Turn
from bot.conversation.commands import ParseError, parse
from bot.conversation.orders import Find, Photo
from bot.conversation.photos import Incoming, Target, attach_pictures, photo_target
from bot.i18n import render
from bot.i18n.keepers import photos as text
from bot.services import public
from bot.services.base import Deps
from bot.services.runtime import App
from bot.store.photo_rows import drop_photo, keep_fetched, kept_from, pending_photos
from bot.support.caller import KEEPER

__all__ = [
    "FETCH_DEADLINE",
    "FLOW",
    "Sent",
    "after_find",
    "already",
    "begin",
    "destination",
    "download",
    "fetch_pending",
    "in_report",
    "on_photo",
    "picture",
    "staged",
    "target_of",
]

log = logging.getLogger("poundbot.telegram")

FLOW: Final = "photo"
#: Seconds a photo's download (getFile and the file) may take in all.
FETCH_DEADLINE: Final = 20.0


async def _bytes(bot: Bot, file_id: str, limit: int, size: int | None) -> bytes:
    if size is not None and size > limit:
        raise PhotoRefusedError("too_large")
    try:
        async with asyncio.timeout(FETCH_DEADLINE):
            found = await bot.get_file(file_id)
            if found.file_size is not None and found.file_size > limit:
                raise PhotoRefusedError("too_large")
            return bytes(await found.download_as_bytearray())
    except TimeoutError:
        log.info("Telegram photo not downloaded within %.0f s", FETCH_DEADLINE)
        raise PhotoRefusedError("unreachable") from None
    except TelegramError as exc:
        log.info("Telegram photo not downloaded: %s", exc)
        raise PhotoRefusedError("unreachable") from None


@dataclass(frozen=True, slots=True)
class Sent:
    """A picture in a message: a photo (its largest size), or a file sent as a document
    (a photo sent uncompressed keeps its EXIF: it is stripped all the same; and whether it
    is an image at all, the bytes decide)."""

    file_id: str
    unique_id: str
    size: int | None

    @classmethod
    def of(cls, message: Message) -> Sent | None:
        if message.photo:
            largest = message.photo[-1]
            return cls(largest.file_id, largest.file_unique_id, largest.file_size)
        if message.document is not None:
            doc = message.document
            return cls(doc.file_id, doc.file_unique_id, doc.file_size)
        return None

    @property
    def key(self) -> str:
        """Kept once by Telegram's ``file_unique_id`` (the same file, whoever sends it)."""
        return f"tg:{self.unique_id}"


async def download(bot: Bot, deps: Deps, sent: Sent, *, store: bool = False) -> Incoming:
    """The picture downloaded and checked; written to the photo store now if ``store``
    (a report in progress keeps only its reference), else when attached to a case."""
    key = sent.key
    limit = deps.max_photo_bytes()
    try:
        kept = await prepare(await _bytes(bot, sent.file_id, limit, sent.size), limit)
    except PhotoRefusedError as refused:
        return Incoming(key, refused=refused.code)
    if store:
        await keep(deps.photo_store(), kept)
        return Incoming(key, kept=kept.ref)
    return Incoming.of(key, kept)


async def picture(turn: Turn, sent: Sent, *, store: bool = False) -> Incoming:
    """The update's picture, downloaded before its transaction (``download``); written
    to the photo store now if ``store``."""
    got = turn.prefetched.get(sent.key)
    if not isinstance(got, Incoming):
        # Not downloaded before the transaction: never downloaded inside it.
        return Incoming(sent.key, refused="unreachable")
    if store and got.image is not None:
        await keep(turn.deps.photo_store(), got.image)
        return Incoming(got.source_key, kept=got.kept)
    return got


async def target_of(turn: Turn, line: str) -> Target | str | None:
    """The case a ``/photo KNM-17 [lot]`` line names (or the reply refusing it); None if
    ``line`` is not a PHOTO line."""
    try:
        command = parse(line, turn.deps.config, turn.deps.today())
    except ParseError as exc:
        if line.split(" ", 1)[0].lstrip("/").lower() in ("photo", "pic"):
            return render.parse_error(exc.code, exc.facts, turn.tr)
        return None
    if not isinstance(command, Photo):
        return None
    return await photo_target(turn.tx, turn.deps, turn.caller, command.case, command.lot, turn.tr)


async def begin(turn: Turn, line: str) -> bool:
    """``/photo KNM-17 [lot]`` typed: the photos that follow are for that case; False if
    ``line`` is not one (the dispatcher answers it)."""
    target = await target_of(turn, line)
    if target is None:
        return False
    if isinstance(target, str):
        await turn.send(target)
        return True
    chat = await turn.chat()
    lot = target.lot
    chat.put(FLOW, {"case": target.loaded.case.number, "lot": lot})
    await turn.send(text.photo_send_now(target.loaded.case.number, turn.tr))
    return True


async def destination(turn: Turn, sent: Sent, caption: str) -> Target | str:
    """Where a photo outside the guided report goes: the case (and lot) its caption or the
    ``/photo`` before it names, or the reply refusing it (not a keeper, no case, the same
    photo kept already). Only reads: what decides whether the picture is downloaded."""
    if turn.caller.role != KEEPER:
        return render.not_allowed(turn.tr)
    chat = await turn.chat()
    target: Target | str | None = None
    if caption.strip():
        target = await target_of(turn, _line(caption))
    state = chat.data(FLOW)
    if target is None and state is not None:
        lot = state.get("lot")
        target = await photo_target(
            turn.tx,
            turn.deps,
            turn.caller,
            str(state["case"]),
            None if lot is None else int(lot) + 1,
            turn.tr,
        )
    if target is None:
        return text.photo_no_case(turn.tr)
    if isinstance(target, str):
        return target
    if await kept_from(turn.tx, sent.key):
        # The same photo sent again: not downloaded again.
        return text.photo_already_kept(target.loaded.case.number, turn.tr)
    return target


async def on_photo(turn: Turn, sent: Sent, caption: str) -> None:
    """A photo outside the guided report: kept with the case its caption or the
    ``/photo`` before it names."""
    target = await destination(turn, sent, caption)
    if isinstance(target, str):
        await turn.send(target)
        return
    got = await picture(turn, sent)
    lines = await attach_pictures(turn.tx, turn.deps, turn.caller, target, [got], turn.tr)
    await turn.send("\n".join(lines))


def _line(typed: str) -> str:
    first, _, rest = typed.strip().partition(" ")
    if first.startswith("/"):
        first = first[1:].split("@", 1)[0]
    return f"{first} {rest}".strip()


async def fetch_pending(app: App, bot: Bot, limit: int = 500) -> int:
    """Download photos still known by their Telegram file id alone; how many were kept.
    One that cannot be a photo (refused) is dropped; one Telegram cannot give now waits."""
    async with app.store.transaction() as tx:
        pending = await pending_photos(tx, limit)
    done = 0
    for photo_id, case_id, file_id in pending:
        limit_bytes = app.deps.max_photo_bytes()
        try:
            kept = await prepare(await _bytes(bot, str(file_id), limit_bytes, None), limit_bytes)
        except PhotoRefusedError as refused:
            if refused.code != "unreachable":
                async with app.store.transaction() as tx:
                    await drop_photo(tx, photo_id)
            continue
        await keep(app.deps.photo_store(), kept)
        async with app.store.transaction() as tx:
            if not await keep_fetched(tx, photo_id, case_id, kept.ref):
                continue
            done += 1
    return done


#: At most this many cases of a FIND answer are shown with their first photo.
FIND_PHOTOS: Final = 3


async def after_find(turn: Turn, line: str) -> None:
    """A FIND answered on Telegram: each case found (the first three) shows its first
    photo, as a picture captioned with the case number, queued after the answer."""
    try:
        command = parse(line, turn.deps.config, turn.deps.today())
    except ParseError:
        return
    if not isinstance(command, Find):
        return
    found = await public.find_cases(turn.tx, turn.deps, list(command.words))
    numbers = [case.number for case in found][:FIND_PHOTOS]
    for number, row in (await first_photos(turn.tx, numbers)).items():
        if row.sha256 and row.format:
            await turn.send_photo(file_key(row.sha256, row.format), number)


def in_report(state: dict[str, Any], sent: Sent) -> bool:
    """Whether the report in progress holds this photo already."""
    return any(isinstance(p, dict) and p.get("key") == sent.key for p in state.get("photos", []))


def already(sent: Sent) -> Incoming:
    """A photo the report holds: not downloaded again (its reference is in the report)."""
    return Incoming(sent.key, kept=KeptRef("", "jpeg", 0, 0, 0))


def staged(state: dict[str, Any]) -> list[Incoming]:
    """The photos of a guided report in progress, as kept in its chat state."""
    return [
        Incoming(str(p["key"]), kept=KeptRef.from_json(p))
        for p in state.get("photos", [])
        if isinstance(p, dict)
    ]
