"""Photos of the cattle: checked, stripped of their metadata, thumbnailed, kept once.

A photo comes in as bytes from a channel (Telegram's file download, a Twilio MMS or
WhatsApp media URL). ``process`` refuses what is larger than the limit or is not an
image Pillow can read (the bytes decide, never the declared type), applies the EXIF
orientation and re-encodes the pixels alone: EXIF (GPS, camera, time), XMP and text
chunks are gone. JPEG stays JPEG, PNG stays PNG; any other image becomes JPEG. The
files go to a ``PhotoStore`` under the SHA-256 of the kept image (so the same picture is
one file); the ``photos`` table says which case and lot it shows (``attach``).
"""

from __future__ import annotations

import asyncio
import hashlib
import io
import os
import warnings
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final, Protocol

from PIL import Image, ImageOps, UnidentifiedImageError

from bot.config.settings import DEFAULT_PHOTO_BYTES, photo_limit
from bot.store.engine import data_dir
from bot.store.models import PhotoRow
from bot.store.photos import first_photos, is_kept, is_known, photos_of
from bot.store.rows import add
from bot.store.tx import Tx

__all__ = [
    "DEFAULT_MAX_BYTES",
    "FORMATS",
    "MAX_PIXELS",
    "FsPhotoStore",
    "Kept",
    "KeptRef",
    "PhotoRefusedError",
    "PhotoStore",
    "add_pending",
    "attach",
    "default_store",
    "file_key",
    "first_photos",
    "keep",
    "max_bytes_from_env",
    "photos_of",
    "prepare",
    "process",
    "read_limited",
]

DEFAULT_MAX_BYTES: Final = DEFAULT_PHOTO_BYTES
#: Pixels past which an image is refused as too large (a small file can decode huge):
#: 25 megapixels, 100 MB decoded at 4 bytes a pixel, which keeps the server under its
#: memory target (300 MB) while a picture is processed.
MAX_PIXELS: Final = 25_000_000
THUMB_SIZE: Final = (320, 320)
#: The stored format -> (file extension, Content-Type).
FORMATS: Final = {"jpeg": ("jpg", "image/jpeg"), "png": ("png", "image/png")}
_READABLE: Final = frozenset({"JPEG", "PNG", "WEBP", "GIF", "BMP", "TIFF", "MPO"})


class PhotoRefusedError(Exception):
    """Not kept: ``code`` is ``too_large`` (more bytes than the limit in MB),
    ``too_many_pixels`` (more than ``MAX_PIXELS``, whatever its size in bytes),
    ``not_image`` or ``unreachable``."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


@dataclass(frozen=True, slots=True)
class Kept:
    """A photo ready to keep: the stripped image, its thumbnail, what they are."""

    data: bytes
    thumb: bytes
    format: str  # a key of FORMATS
    width: int
    height: int
    #: The image's SHA-256 (its key in the store), computed once: a photo is up to 10 MB.
    sha256: str = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "sha256", hashlib.sha256(self.data).hexdigest())

    @property
    def ref(self) -> KeptRef:
        """What the database keeps of it (the files are in the store)."""
        return KeptRef(self.sha256, self.format, self.width, self.height, len(self.data))


@dataclass(frozen=True, slots=True)
class KeptRef:
    """A photo written to the store, by its key: what a row records (and a report in
    progress keeps in its chat state, as JSON)."""

    sha256: str
    format: str
    width: int
    height: int
    size: int

    def as_json(self) -> dict[str, object]:
        return {
            "sha256": self.sha256,
            "format": self.format,
            "width": self.width,
            "height": self.height,
            "size": self.size,
        }

    @classmethod
    def from_json(cls, data: dict[str, object]) -> KeptRef:
        return cls(
            str(data["sha256"]),
            str(data["format"]),
            int(str(data["width"])),
            int(str(data["height"])),
            int(str(data["size"])),
        )


def _encode(image: Image.Image, fmt: str) -> bytes:
    out = io.BytesIO()
    if fmt == "png":
        image.save(out, "PNG", optimize=True)
    else:
        if image.mode not in ("RGB", "L"):
            image = image.convert("RGB")
        image.save(out, "JPEG", quality=88, optimize=True)
    return out.getvalue()


def process(raw: bytes, max_bytes: int = DEFAULT_MAX_BYTES) -> Kept:
    """The image in ``raw`` without its metadata, and a thumbnail; PhotoRefusedError.

    CPU-bound and, for a large picture, seconds long: channels call ``prepare``, which
    runs this on the photo worker thread, never on the event loop. One full-size image
    is held at a time (decoded and turned upright in place, encoded, then shrunk in
    place to the thumbnail): at ``MAX_PIXELS`` about 100 MB of pixels (RGBA)."""
    if len(raw) > max_bytes:
        raise PhotoRefusedError("too_large")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(raw)) as probe:
                if probe.format not in _READABLE:
                    raise PhotoRefusedError("not_image")
                if probe.width * probe.height > MAX_PIXELS:
                    raise PhotoRefusedError("too_many_pixels")
                probe.verify()
            with Image.open(io.BytesIO(raw)) as opened:
                fmt = "png" if opened.format == "PNG" else "jpeg"
                opened.load()
                ImageOps.exif_transpose(opened, in_place=True)
                image: Image.Image = opened
                # Only the pixels go on: nothing of ``info`` (EXIF, XMP, ICC, comments,
                # text chunks) is handed to the encoder.
                image.info.clear()
                if fmt == "jpeg" and image.mode not in ("RGB", "L"):
                    image = image.convert("RGB")
                data = _encode(image, fmt)
                width, height = image.size
                image.thumbnail(THUMB_SIZE)
                thumb = _encode(image, fmt)
    except (Image.DecompressionBombWarning, Image.DecompressionBombError):
        # Pillow's own guard, past MAX_PIXELS too: refused for its pixels, not its bytes.
        raise PhotoRefusedError("too_many_pixels") from None
    except PhotoRefusedError:
        raise
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError, EOFError):
        raise PhotoRefusedError("not_image") from None
    return Kept(data, thumb, fmt, width, height)


#: The photo worker: one thread, so at most one picture is decoded at a time (the memory
#: bound) and the event loop keeps answering while it works.
_WORKER: Final = ThreadPoolExecutor(max_workers=1, thread_name_prefix="poundbot-photo")


async def prepare(raw: bytes, max_bytes: int = DEFAULT_MAX_BYTES) -> Kept:
    """``process`` on the photo worker thread: what every channel calls."""
    return await asyncio.get_running_loop().run_in_executor(_WORKER, process, raw, max_bytes)


async def read_limited(chunks: AsyncIterator[bytes], max_bytes: int) -> bytes:
    """The bytes of ``chunks``, refused (``too_large``) as soon as they pass ``max_bytes``:
    nothing past the limit is read."""
    buffer = bytearray()
    async for chunk in chunks:
        buffer += chunk
        if len(buffer) > max_bytes:
            raise PhotoRefusedError("too_large")
    return bytes(buffer)


class PhotoStore(Protocol):
    """Where the image files are kept (a folder today; an object store can follow)."""

    async def put(self, key: str, data: bytes) -> None: ...

    async def get(self, key: str) -> bytes | None: ...


class FsPhotoStore:
    """Files under ``root``, in folders of the key's first two characters; each written
    to a temporary name and renamed, so a file is whole or absent."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def _path(self, key: str) -> Path:
        if not key or "/" in key or "\\" in key or key.startswith("."):
            raise ValueError("bad photo key")
        return self.root / key[:2] / key

    def _put(self, key: str, data: bytes) -> None:
        path = self._path(key)
        if path.exists():
            return  # the same key is the same bytes
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(f".{key}.{os.getpid()}.tmp")
        temporary.write_bytes(data)
        os.replace(temporary, path)

    def _get(self, key: str) -> bytes | None:
        path = self._path(key)
        return path.read_bytes() if path.is_file() else None

    # In the event loop itself: a photo is at most a few MB on a local disk (a
    # millisecond or two), and no worker thread outlives the server.
    async def put(self, key: str, data: bytes) -> None:
        self._put(key, data)

    async def get(self, key: str) -> bytes | None:
        return self._get(key)


def default_store() -> FsPhotoStore:
    """The photo folder: ``<data folder>/photos``, beside the embedded database."""
    return FsPhotoStore(data_dir() / "photos")


def max_bytes_from_env(env: dict[str, str] | None = None) -> int:
    """``POUNDBOT_PHOTO_MAX_MB`` (a whole number of MB, at least 1), else 10 MB."""
    return photo_limit(dict(os.environ) if env is None else env)


def file_key(sha256: str, fmt: str, *, thumb: bool = False) -> str:
    """The store key of a kept photo or of its thumbnail."""
    ext = FORMATS[fmt][0]
    return f"{sha256}.thumb.{ext}" if thumb else f"{sha256}.{ext}"


async def keep(store: PhotoStore, kept: Kept) -> None:
    """Write the image and its thumbnail (the thumbnail first: a kept image has one)."""
    await store.put(file_key(kept.sha256, kept.format, thumb=True), kept.thumb)
    await store.put(file_key(kept.sha256, kept.format), kept.data)


async def attach(
    tx: Tx,
    case_id: int,
    lot: int | None,
    kept: KeptRef,
    source_key: str,
    added_by: int | None,
) -> bool:
    """Record a kept photo of a case (its files already in the store); False when this
    media (``source_key``) or this very picture is already kept with the case."""
    sha = kept.sha256
    if await is_kept(tx, case_id, source_key, sha):
        return False
    await add(
        tx,
        PhotoRow(
            case_id=case_id,
            lot=lot,
            status="kept",
            source_key=source_key[:200],
            sha256=sha,
            format=kept.format,
            width=kept.width,
            height=kept.height,
            size=kept.size,
            added_by=added_by,
            created_at=tx.now,
        ),
    )
    return True


async def add_pending(tx: Tx, case_id: int, lot: int | None, file_id: str) -> bool:
    """A Telegram photo known by its file id alone, to download later; False if known."""
    key = f"tg-file:{file_id}"[:200]
    if await is_known(tx, key):
        return False
    await add(
        tx,
        PhotoRow(
            case_id=case_id,
            lot=lot,
            status="pending",
            source_key=key,
            fetch_ref=file_id[:500],
            created_at=tx.now,
        ),
    )
    return True
